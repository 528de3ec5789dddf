"""A game's one registration point on the bot side: `BOT` in `bot/games/<game>/__init__.py`.

It names (by import path, imported when used) the game's slash-command cog, its renderers, its command
shortcuts and read-only commands, and its wording of a seat. Adding a game to the bot means adding its
package with a `BOT`: the bot's extensions, the renderer table, `/game me`, the console's help and the
routing of `/<group> …` commands are all built from these manifests.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
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
    #: commands whose argument answers the question their option opens (`/ah move to:X` picks "Move", then
    #: X in "Move where?"): (that next prompt, command name, argument) -> the option id there, or None when
    #: the game went on without asking it
    follow: Mapping[str, Callable[[Prompt, str, str | None], str | None]] = field(default_factory=dict)
    #: read-only commands whose private answer also carries the asker's pending questions with their controls
    #: (`/lcg hand` shows the hand and, under it, the buttons that play or commit those cards)
    with_controls: frozenset[str] = frozenset()
    #: the game's own record of its campaign (results, records, experience, trauma), which `/campaign log` shows
    #: when the channel has no campaign of its own (a single scenario keeps one too); None when there is none
    record: Reader | None = None


@dataclass(frozen=True)
class CardEntry:
    """One card anyone may read, as `/card` lists it (copies of one card are one entry)."""

    id: str
    name: str
    kind: str  # "Adventure", "Monster", "Spell" … in the game's own words


@dataclass(frozen=True)
class CardBook:
    """A game's cards for `/card`: every readable card, its reference text, and where it is now."""

    #: every card anyone may read (not the faces the rules keep hidden until drawn)
    entries: Callable[[], list[CardEntry]]
    #: (card id, the game's state or None, the asking seat or None) -> the card's text
    text: Callable[[str, GameState | None, int | None], str]
    #: (card id, the spectator's view) -> where the card is now, when that is public; None when it is nowhere
    #: anyone can see
    where: Callable[[str, Any], str | None]


@dataclass(frozen=True)
class StatsKeys:
    """Where `/stats` and `/game history` read a finished game's facts: keys of the engine's state as JSON
    (the final snapshot), read by the database itself. A path is dotted keys, `[*]` for every element of a
    list ("table[*].investigator.card")."""

    scenario: str  # the card id of what the game was played against ("ao")
    rounds: str  # the round (or day) counter ("round")
    characters: str  # each seat's investigator card id ("investigators[*].card")
    scenario_word: str = "Ancient One"  # how the game calls what `scenario` names
    round_word: str = "round"  # how the game calls one round ("day" in Elder Sign)


@dataclass(frozen=True)
class BotGame:
    game: str  # the engine's game id
    group: str  # the slash-command group ("es" for /es …)
    help: str  # one line for the console's help: the group's commands
    cog: str | None = None  # the discord.py extension that defines the /<group> commands
    commands: str | None = None  # "module:attribute" of its `Commands`
    renderer: str | None = None  # "module:function" view -> PNG bytes (the table after each phase)
    #: "module:function" view -> PNG bytes: the channel's board, laid out for the ~550 px Discord shows a
    #: picture at inline (bot.render.inline); `renderer` stays the full board, sent on request
    inline_renderer: str | None = None
    event_renderer: str | None = None  # "module:function" (event kind, data) -> PNG bytes or None
    #: our own rules notes that `/rules` searches, repository-relative paths (split into passages at headings)
    rules_docs: tuple[str, ...] = ()
    #: the game's quick start (`/help`): a repository-relative Markdown file whose first section is shown
    howto: str | None = None
    #: "module:attribute" of its `CardBook` (`/card`)
    cards: str | None = None
    #: how `/stats` reads its finished games (None: counted, without scenario, rounds or investigators)
    stats: StatsKeys | None = None
    #: the word after a phase's name in the state line ("Action phase"); "" where the game does not call its
    #: stages phases (Elder Sign: "Final battle")
    phase_word: str = "phase"


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


def cards_of(manifest: BotGame) -> CardBook | None:
    return load_target(manifest.cards) if manifest.cards else None
