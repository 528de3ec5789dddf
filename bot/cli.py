"""`miskatonic`: run the bot, play offline, simulate, migrate, sync slash commands."""

from __future__ import annotations

import argparse
import asyncio
import inspect
import logging
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.settings import Settings

NO_TOKEN = """No DISCORD_TOKEN is set, so the bot cannot connect to Discord.

To get one:
  1. Open https://discord.com/developers/applications and create an application.
  2. In "Bot", reset and copy the token; in "Installation", add the bot to your server with the
     "bot" and "applications.commands" scopes.
  3. Put DISCORD_TOKEN=<token> in the environment or in a .env file here, and run `miskatonic run` again.

To play without Discord right now:  miskatonic console
"""


def _register_games(specs: Sequence[str]) -> None:
    """--game ID=module:attr registers an extra game (a content pack, or the test game)."""
    from engine.games import register

    for spec in specs:
        game_id, sep, target = spec.partition("=")
        if not sep or ":" not in target:
            raise SystemExit(f"--game wants ID=module:attribute, not '{spec}'")
        register(game_id, target)


def _call(function: Any, *args: Any, **kwargs: Any) -> Any:
    """Call a function that may be sync or async (the Discord module decides which)."""
    result = function(*args, **kwargs)
    return asyncio.run(result) if inspect.isawaitable(result) else result


def cmd_run(args: argparse.Namespace, settings: Settings) -> int:
    if not settings.DISCORD_TOKEN:
        print(NO_TOKEN, file=sys.stderr)
        if not sys.stdin.isatty():
            return 2
        # Someone at a keyboard: rather than stop here, open the offline table at once.
        print("Opening the offline console now (type help, or Ctrl-D to leave).\n", file=sys.stderr)
        return cmd_console(argparse.Namespace(script=None, seed=None, db=None, out=Path("out"), game=[]),
                           settings)
    from bot.store import migrate

    migrate.upgrade(settings.DATABASE_URL)  # before the bot's loop: Alembic's async env runs its own
    from bot.bot import run_bot  # imported late: discord.py is only needed here

    _call(run_bot, settings)
    return 0


def cmd_sync(args: argparse.Namespace, settings: Settings) -> int:
    if not settings.DISCORD_TOKEN:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    from bot.bot import sync_commands

    _call(sync_commands, settings, guild_id=args.guild)
    return 0


def cmd_migrate(args: argparse.Namespace, settings: Settings) -> int:
    from bot.store import migrate

    migrate.upgrade(settings.DATABASE_URL)
    print(f"The database is at the latest schema: {settings.DATABASE_URL}")
    return 0


def _quiet_migrations() -> None:
    # In the terminal tools the migration's INFO lines would only bury the game's own output.
    logging.getLogger("alembic").setLevel(logging.WARNING)


def cmd_console(args: argparse.Namespace, settings: Settings) -> int:
    from bot.console import run_console

    _quiet_migrations()
    _register_games(args.game)
    return run_console(script=args.script, seed=args.seed, db=args.db, out_dir=args.out)


def cmd_simulate(args: argparse.Namespace, settings: Settings) -> int:
    from bot.simulate import main as simulate_main

    _register_games(args.game)
    if args.games < 1:
        print("--games must be at least 1", file=sys.stderr)
        return 2
    return simulate_main(args.name, args.games, args.seed, args.agent)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="miskatonic", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    sub.add_parser("run", help="migrate the database, then run the Discord bot").set_defaults(func=cmd_run)
    sync = sub.add_parser("sync", help="push the slash commands to Discord")
    sync.add_argument("--guild", type=int, default=None, help="only this guild (instant; else global)")
    sync.set_defaults(func=cmd_sync)
    sub.add_parser("migrate", help="bring the database to the latest schema").set_defaults(func=cmd_migrate)

    console = sub.add_parser("console", help="play offline in the terminal, several players at one table")
    console.add_argument("--script", type=Path, help="read one input per line from this file")
    console.add_argument("--seed", type=int, default=None, help="seed for every new game (default: random)")
    console.add_argument("--db", type=Path, default=None, help="SQLite file (default: a temporary one)")
    console.add_argument("--out", type=Path, default=Path("out"), help="where images go (default ./out)")
    console.add_argument("--game", action="append", default=[], metavar="ID=module:attr",
                         help="register an extra game")
    console.set_defaults(func=cmd_console)

    simulate = sub.add_parser("simulate", help="play many games through the engine alone")
    simulate.add_argument("name", metavar="GAME")
    simulate.add_argument("--games", type=int, default=100)
    simulate.add_argument("--seed", type=int, default=0)
    simulate.add_argument("--agent", default="random", help="random | smart (from engine.agents)")
    simulate.add_argument("--game", action="append", default=[], metavar="ID=module:attr",
                          help="register an extra game")
    simulate.set_defaults(func=cmd_simulate)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    settings = Settings()
    logging.basicConfig(level=settings.LOG_LEVEL.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    return args.func(args, settings)


if __name__ == "__main__":
    sys.exit(main())
