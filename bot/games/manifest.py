"""A game's one registration point on the bot side: `BOT` in `bot/games/<game>/__init__.py`.

It names (by import path, imported when used) the game's slash-command cog, its renderers, its command
shortcuts and read-only commands, and its wording of a seat. Adding a game to the bot means adding its
package with a `BOT`: the bot's extensions, the renderer table, `/game me`, the console's help and the
routing of `/<group> …` commands are all built from these manifests.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from engine.core.game import GameState
from engine.core.manifest import discover, load_target
from engine.core.prompt import Prompt

#: a read-only command: (state or None before the game starts, the asking seat or None, arguments) -> text
Reader = Callable[[GameState | None, int | None, dict[str, str]], str]


@dataclass(frozen=True)
class Commands:
    """What `/<group> <name>` means for one game."""

    #: name -> one-line help; acting commands answer the user's pending prompt through `pick`
    shortcuts: dict[str, str]
    #: (prompt, command name, argument or None) -> the option id it stands for (IllegalAction with a sentence)
    pick: Callable[[Prompt, str, str | None], str]
    #: (prompt or None, command name, typed text) -> [(label, value)] for autocomplete
    suggestions: Callable[[Prompt | None, str, str], list[tuple[str, str]]]
    #: the argument name each shortcut takes, if any
    arguments: dict[str, str] = field(default_factory=dict)
    #: read-only commands: name -> (needs a started game, reader)
    readers: dict[str, tuple[bool, Reader]] = field(default_factory=dict)
    #: a seat's private view in the game's own words (`/game me`), or None for the generic listing
    seat_text: Callable[[Any, int], list[str]] | None = None


@dataclass(frozen=True)
class BotGame:
    game: str  # the engine's game id
    group: str  # the slash-command group ("es" for /es …)
    help: str  # one line for the console's help: the group's commands
    cog: str | None = None  # the discord.py extension that defines the /<group> commands
    commands: str | None = None  # "module:attribute" of its `Commands`
    renderer: str | None = None  # "module:function" view -> PNG bytes (the table after each phase)
    event_renderer: str | None = None  # "module:function" (event kind, data) -> PNG bytes or None


_EXTRA: dict[str, BotGame] = {}


@cache
def _discovered() -> dict[str, BotGame]:
    return {g.game: g for g in discover("bot.games", "BOT", BotGame)}


def bot_games() -> dict[str, BotGame]:
    """Every game the bot knows, by engine game id."""
    return {**_discovered(), **_EXTRA}


def register_bot_game(manifest: BotGame) -> None:
    """Add a game that is not a `bot.games` subpackage (tests)."""
    _EXTRA[manifest.game] = manifest


def by_group(group: str) -> BotGame | None:
    return next((g for g in bot_games().values() if g.group == group), None)


def commands_of(manifest: BotGame) -> Commands | None:
    return load_target(manifest.commands) if manifest.commands else None
