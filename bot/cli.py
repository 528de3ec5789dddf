"""`miskatonic`: run the bot, play offline, simulate, replay an export, migrate, sync slash commands, back up
and restore the database."""

from __future__ import annotations

import argparse
import asyncio
import inspect
import itertools
import logging
import sys
import traceback
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from bot.settings import Settings, install_redaction, mask_url, redact, settings_secrets

NO_TOKEN = """No DISCORD_TOKEN is set, so the bot cannot connect to Discord.

To get one:
  1. Open https://discord.com/developers/applications and create an application.
  2. In "Bot", reset and copy the token; in "Installation", add the bot to your server with the
     "bot" and "applications.commands" scopes.
  3. Put DISCORD_TOKEN=<token> in the environment or in a .env file here, and run `miskatonic run` again.

To play without Discord right now:  miskatonic console
"""


class CliError(Exception):
    """An ordinary mistake on the command line (a missing file, an unknown game): one line, no traceback."""


def _register_games(specs: Sequence[str]) -> None:
    """--game ID=module:attr registers an extra game (a content pack, or the test game)."""
    from engine.games import register

    for spec in specs:
        game_id, sep, target = spec.partition("=")
        if not sep or ":" not in target:
            raise CliError(f"--game wants ID=module:attribute, not '{spec}'")
        try:
            register(game_id, target)
        except (ImportError, AttributeError, ValueError) as exc:
            raise CliError(f"--game {spec}: cannot load {target} ({exc})") from exc


def _known_game(game_id: str) -> None:
    from engine.core.errors import EngineError
    from engine.games import get_game

    try:
        get_game(game_id)
    except EngineError as exc:  # UnknownGame's sentence names the games there are
        raise CliError(str(exc)) from exc


def _call(function: Any, *args: Any, **kwargs: Any) -> Any:
    """Call a function that may be sync or async (the Discord module decides which)."""
    result = function(*args, **kwargs)
    return asyncio.run(result) if inspect.iscoroutine(result) else result


def cmd_run(args: argparse.Namespace, settings: Settings) -> int:
    if not settings.DISCORD_TOKEN:
        print(NO_TOKEN, file=sys.stderr)
        # Rather than stop here, open the offline table at once: at a keyboard, or reading the commands piped
        # in. Only when standard input holds nothing at all (closed, /dev/null, a container started without
        # -i) is there nobody to play with: then the token's absence is the error it is for a service.
        lines: Iterable[str] | None = None
        if not sys.stdin.isatty():
            first = sys.stdin.readline()
            if not first:
                print("Standard input is empty, so the offline console has nothing to play; exit code 2.",
                      file=sys.stderr)
                return 2
            lines = itertools.chain([first], sys.stdin)
        print("Opening the offline console now" + (" (type help, or Ctrl-D to leave).\n" if lines is None else
                                                     ", reading the commands from standard input.\n"),
              file=sys.stderr)
        return _console(argparse.Namespace(script=None, seed=None, db=None, out=Path("out"), game=[],
                                           keep_going=False, table=None), lines)
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
    print(f"The database is at the latest schema: {mask_url(settings.DATABASE_URL)}")
    return 0


def _quiet_migrations() -> None:
    # In the terminal tools the migration's INFO lines would only bury the game's own output.
    logging.getLogger("alembic").setLevel(logging.WARNING)


def cmd_console(args: argparse.Namespace, settings: Settings) -> int:
    # Without --script, lines piped in (not a terminal) are played as they come, as typed ones would be.
    return _console(args, None if args.script is not None or sys.stdin.isatty() else sys.stdin)


def _console(args: argparse.Namespace, lines: Iterable[str] | None) -> int:
    from bot.console import ParseError, run_console, table_channel

    _quiet_migrations()
    _register_games(args.game)
    if args.script is not None and not args.script.is_file():
        raise CliError(f"no script file at {args.script}")
    if args.out.exists() and not args.out.is_dir():
        raise CliError(f"--out {args.out} is a file, not a folder")
    if args.db is not None and args.db.is_dir():
        raise CliError(f"--db {args.db} is a folder; name a file in it, e.g. {args.db / 'console.db'}")
    if args.table is not None:
        try:
            table_channel(args.table)
        except ParseError as exc:
            raise CliError(f"--channel: {exc}") from exc
    try:
        return run_console(script=args.script, seed=args.seed, db=args.db, out_dir=args.out,
                           keep_going=args.keep_going, table=args.table, lines=lines)
    except UnicodeDecodeError as exc:
        raise CliError(f"{args.script} is not a UTF-8 text file") from exc


def cmd_simulate(args: argparse.Namespace, settings: Settings) -> int:
    from bot.simulate import main as simulate_main

    _register_games(args.game)
    if args.games < 1:
        raise CliError("--games must be at least 1")
    _known_game(args.name)
    from engine.agents import agent_names

    if args.agent not in agent_names(args.name):
        raise CliError(f"no agent '{args.agent}' for {args.name}; agents: {', '.join(agent_names(args.name))}")
    options: dict[str, str] = {}
    for item in args.option:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise CliError(f"--option takes key=value, not '{item}'")
        options[key.strip()] = value.strip()
    if options:
        from engine import api

        try:
            api.get_game(args.name).validate_options(options)
        except Exception as exc:  # the engine's own sentence about the bad option
            raise CliError(str(exc)) from exc
    return simulate_main(args.name, args.games, args.seed, args.agent, options, as_json=args.json)


def cmd_replay(args: argparse.Namespace, settings: Settings) -> int:
    from bot.replay import ANIMATION_FORMATS, ReplayError, replay_to

    _register_games(args.game)
    if not args.export.is_file():
        raise CliError(f"no export file at {args.export}")
    if args.out.exists() and not args.out.is_dir():
        raise CliError(f"--out {args.out} is a file, not a folder")
    if args.format not in ANIMATION_FORMATS:
        raise CliError(f"--format is one of {', '.join(ANIMATION_FORMATS)}")
    if args.upto is not None and args.upto < 0:
        raise CliError("--upto must be 0 or more")
    try:
        return replay_to(args.export, args.out, fmt=args.format, frame_ms=args.frame_ms, upto=args.upto)
    except ReplayError as exc:
        raise CliError(str(exc)) from exc


def cmd_backup(args: argparse.Namespace, settings: Settings) -> int:
    from bot.store.backup import BackupError, backup_sqlite, postgres_advice, sqlite_file

    try:
        database = sqlite_file(settings.DATABASE_URL)
        if database is None:
            print(postgres_advice(settings.DATABASE_URL, "backup", args.file))
            return 0
        summary = backup_sqlite(database, args.file, force=args.force)
    except BackupError as exc:
        raise CliError(str(exc)) from exc
    print(f"Backed up {mask_url(settings.DATABASE_URL)} to {summary.path} ({summary.describe()}).")
    return 0


def cmd_restore(args: argparse.Namespace, settings: Settings) -> int:
    from bot.store import migrate
    from bot.store.backup import BackupError, postgres_advice, restore_sqlite, sqlite_file

    try:
        database = sqlite_file(settings.DATABASE_URL)
        if database is None:
            print(postgres_advice(settings.DATABASE_URL, "restore", args.file))
            return 0
        summary = restore_sqlite(args.file, database, force=args.force)
    except BackupError as exc:
        raise CliError(str(exc)) from exc
    _quiet_migrations()
    migrate.upgrade(settings.DATABASE_URL)  # a backup taken by an older version gets the newer schema
    print(f"Restored {args.file} into {mask_url(settings.DATABASE_URL)} ({summary.describe()}).")
    return 0


def _add_backup_commands(sub: Any) -> None:
    backup = sub.add_parser("backup", help="copy the database to a file, also while the bot runs",
                            description="Copy the SQLite database (DATABASE_URL) to FILE, consistently, also while "
                                        "the bot runs. On PostgreSQL: say how to use pg_dump, and check the "
                                        "connection.")
    backup.add_argument("file", type=Path, metavar="FILE", help="the backup file to write")
    backup.add_argument("--force", action="store_true", help="overwrite FILE if it exists (default: refuse)")
    backup.set_defaults(func=cmd_backup)
    restore = sub.add_parser("restore", help="put a backup back as the database (with the bot stopped)",
                             description="Copy a backup FILE into the SQLite database (DATABASE_URL) and bring it "
                                         "to the latest schema. Refuses while the database is in use, and over a "
                                         "database that holds games unless --force. On PostgreSQL: say how to use "
                                         "pg_restore, and check the connection.")
    restore.add_argument("file", type=Path, metavar="FILE", help="the backup file to restore")
    restore.add_argument("--force", action="store_true",
                         help="replace a database that holds games (default: refuse)")
    restore.set_defaults(func=cmd_restore)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="miskatonic", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                help="one of the commands below; 'miskatonic COMMAND --help' for its options")

    sub.add_parser("run", help="migrate the database, then run the Discord bot (without DISCORD_TOKEN: open the "
                               "offline console on the keyboard or the lines piped in; exit code 2 when standard "
                               "input is empty)",
                   description="Migrate the database (DATABASE_URL), then run the Discord bot.").set_defaults(
        func=cmd_run)
    sync = sub.add_parser("sync", help="push the slash commands to Discord",
                          description="Push the slash commands to Discord (once, and after upgrades).")
    sync.add_argument("--guild", type=int, default=None, metavar="ID",
                      help="copy them to this guild only, which is instant (default: global, which Discord "
                           "may take up to an hour to show)")
    sync.set_defaults(func=cmd_sync)
    sub.add_parser("migrate", help="bring the database to the latest schema").set_defaults(func=cmd_migrate)

    console = sub.add_parser("console", help="play offline in the terminal, several players at one table",
                             description="Play offline: type '<user> /command ...' lines (or 'help'), or "
                                         "play a script of them.")
    console.add_argument("--script", type=Path, metavar="FILE",
                         help="play the lines of this file, stopping at the first one that is refused or "
                              "not understood (default: read from the keyboard, or the lines piped in, playing "
                              "on past refusals)")
    console.add_argument("--channel", "--table", dest="table", default=None, metavar="NAME",
                         help="the table to sit at: each table is a channel of its own with its own game; "
                              "'table NAME' moves during play, 'tables' lists them (default: main; with "
                              "--script, a new numbered table for each run)")
    console.add_argument("--keep-going", action="store_true",
                         help="with --script, play on past refused lines (default: stop, exit code 1)")
    console.add_argument("--seed", type=int, default=None,
                         help="seed for every new game, for repeatable dice (default: random)")
    console.add_argument("--db", type=Path, default=None, metavar="FILE",
                         # the default itself is bot.console.DEFAULT_DB (not imported here: it is heavy)
                         help="SQLite file that keeps the games between sessions (default: ./data/console.db)")
    console.add_argument("--out", type=Path, default=Path("out"), metavar="DIR",
                         help="folder for the pictures; no file there is ever overwritten (default: ./out)")
    console.add_argument("--game", action="append", default=[], metavar="ID=module:attr",
                         help="register an extra game, repeatable (default: only the built-in games)")
    console.set_defaults(func=cmd_console)

    simulate = sub.add_parser("simulate", help="play many games through the engine alone",
                              description="Play whole games through the engine (no bot, no database) and "
                                          "print a table of results per Ancient One or scenario (win rate, "
                                          "average length, errors), or with --json one JSON line; a progress "
                                          "bar on stderr for runs longer than a few seconds.")
    simulate.add_argument("name", metavar="GAME", help="the game id, e.g. elder-sign")
    simulate.add_argument("--games", type=int, default=100, help="how many games (default: 100)")
    simulate.add_argument("--seed", type=int, default=0,
                          help="seed of the first game; game i uses seed+i (default: 0)")
    simulate.add_argument("--agent", default="random",
                          help="who plays: random, or smart where the game has one (default: random)")
    simulate.add_argument("--game", action="append", default=[], metavar="ID=module:attr",
                          help="register an extra game, repeatable (default: only the built-in games)")
    simulate.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                          help="a game option for every game, repeatable, e.g. scenario=low-tide or "
                               "ancient_one=azathoth (default: the game's defaults)")
    simulate.add_argument("--json", action="store_true",
                          help="print one JSON line of totals for scripts instead of the table (default: the "
                               "table, one row per Ancient One or scenario)")
    simulate.set_defaults(func=cmd_simulate)

    replay = sub.add_parser("replay", help="replay a game exported in full: every phase's board and an animation",
                            description="Play a game again from its full export (/gm export full:True): write the "
                                        "board after every phase and an animation of the whole game into --out, "
                                        "and check that the replay reaches the recorded end (exit code 1 when "
                                        "it does not).")
    replay.add_argument("export", type=Path, metavar="EXPORT", help="the export's JSON file")
    replay.add_argument("--out", type=Path, default=Path("replay"), metavar="DIR",
                        help="folder for the pictures (default: ./replay)")
    replay.add_argument("--format", default="gif", metavar="FORMAT",
                        help="the animation's format: gif or apng (default: gif)")
    replay.add_argument("--frame-ms", type=int, default=900, metavar="MS",
                        help="how long each phase shows in the animation (default: 900)")
    replay.add_argument("--upto", type=int, default=None, metavar="N",
                        help="stop after the first N actions (default: the whole game)")
    replay.add_argument("--game", action="append", default=[], metavar="ID=module:attr",
                        help="register an extra game, repeatable (default: only the built-in games)")
    replay.set_defaults(func=cmd_replay)
    _add_backup_commands(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    settings = Settings()
    logging.basicConfig(level=settings.LOG_LEVEL.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    install_redaction(settings)
    try:
        command: Callable[[argparse.Namespace, Settings], int] = args.func  # set by each subparser
        return command(args, settings)
    except CliError as exc:
        print(redact(f"miskatonic {args.command}: {exc}", settings_secrets(settings)), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"\nmiskatonic {args.command}: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:
        # A driver's error may quote the connection string: print the traceback with every credential masked.
        text = "".join(traceback.format_exception(exc))
        print(redact(text, settings_secrets(settings)), file=sys.stderr, end="")
        return 1


if __name__ == "__main__":
    sys.exit(main())
