"""`/help`: how to use the bot, then a quick start for each registered game, all from the manifests: the
game's name (engine), its quick start (the first section of its `howto` file) and its own commands (its
`Commands`)."""

from __future__ import annotations

import re

from bot.games.manifest import BotGame, bot_games, commands_of
from bot.lookup.rules import repository_file
from engine.core.errors import UnknownGame
from engine.games import get_game

BOT_HOWTO = [
    "**Miskatonic** is the game master: it deals, rolls and keeps every rule; you decide.",
    "• **Start**: `/game new game:<game>` opens a table here (one game per channel), the others `/game join`, "
    "then `/game start`.",
    "• **Short table**: `/game join bot:True` seats an AI teammate that plays its own seat (and `/game why` "
    "tells you what its last decision weighed); `/game join replace:<seat>` takes one over.",
    "• **Play**: every decision appears as buttons on the turn's message; when several players are asked at "
    "once, press **Answer** to get your own. Each game's `/<group>` commands are typed shortcuts for the same "
    "buttons.",
    "• **Follow**: `/game status` (where it stands), `/game me` (what only you see), `/game board`, `/game log`.",
    "• **Ask**: `/rules query:` searches our rules notes, `/card name:` reads a card (and where it is now), "
    "`/game history` lists this channel's finished games, `/stats` the server's record (or a player's).",
    "• **Moderators**: `/gm` ends, undoes, skips an idle player, replaces a player, exports a game.",
]

_HEADING = re.compile(r"^#{1,6}\s")


#: the howto section that says what this edition leaves out and how the table differs from the box (shown by
#: `/help game:<game>`; setup only points to it)
EDITION = "This edition"


def quick_start(game: BotGame) -> str | None:
    """The first section of the game's howto file (below its title), as one paragraph."""
    return howto_section(game, None)


def howto_section(game: BotGame, heading: str | None) -> str | None:
    """A `## heading` section of the game's howto file (None: the first one), as one paragraph."""
    if game.howto is None:
        return None
    path = repository_file(game.howto)
    if path is None:
        return None
    section: list[str] = []
    started = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if _HEADING.match(line):
            if started and section:
                break
            started = line.startswith("## ") and (heading is None or line[3:].strip() == heading)
            continue
        if started:
            section.append(line.strip())
    return " ".join(s for s in section if s) or None


def game_name(game_id: str) -> str:
    try:
        return get_game(game_id).name
    except UnknownGame:
        return game_id


def game_lines(game: BotGame, edition: bool = False) -> list[str]:
    """A game's name, quick start and commands; with `edition`, also what this edition leaves out."""
    lines = [f"**{game_name(game.game)}** (`{game.game}`)"]
    start = quick_start(game)
    if start:
        lines.append(start)
    notes = howto_section(game, EDITION) if edition else None
    if notes:
        lines.append(f"**{EDITION}**: {notes}")
    commands = commands_of(game)
    if commands is not None:
        names = [*commands.shortcuts, *commands.readers]
        lines.append(f"Commands: {' '.join(f'`/{game.group} {n}`' for n in names)}.")
    lines.append(f"More: `/rules query:<words> game:{game.game}`.")
    return lines


#: the words every game's group uses for the same intent, wherever the game has it
SHARED_VERBS = {
    "move": "go somewhere", "end": "end your turn", "sheet": "your investigator (or a player's)",
    "map": "a place and what is on it", "odds": "your chances in a test or an adventure", "card": "read a card",
}


def verb_lines() -> list[str]:
    """One line a shared verb: which games' groups have it (read from their cogs, so the list is true)."""
    from bot.command_help import catalog

    have = set(catalog())
    groups = [(g.group, game_name(gid)) for gid, g in sorted(bot_games().items())]
    lines = ["**The same words in every game** (the game's group, then the verb):"]
    for verb, meaning in SHARED_VERBS.items():
        where = [f"`/{group} {verb}`" for group, _ in groups if (group, verb) in have]
        if where:
            lines.append(f"• {verb}: {meaning}: {' · '.join(where)}")
    lines.append("• the log of a game is `/game log` in every game.")
    return lines


def help_lines(only: str | None = None) -> list[str]:
    """The bot's how-to and the verbs the games share, then each game's quick start (or `only` that game's)."""
    games = [g for gid, g in sorted(bot_games().items()) if only is None or gid == only]
    lines = [] if only else [*BOT_HOWTO, "", *verb_lines()]
    for game in games:
        lines += ["", *game_lines(game, edition=only is not None)]
    return lines
