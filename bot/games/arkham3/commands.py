"""Arkham Horror 3e's game commands (`/ah …`), shared by the Discord cog and the offline console.

An acting command answers the pending engine prompt: it picks the option whose typed data is of the
command's kind (the action prompt's `("move", None)`, `("focus", None)` …). Some actions open a question of
their own ("Move where?", "Focus which skill?", "Attack which monster?", "Trade with whom?"): for those the
command's argument answers it too (`/ah move to:Southside`), checked on a copy of the game before anything is
committed (bot/games/__init__.py), and autocomplete lists that question's options. Everything else (tests,
rerolls, damage assignment, encounters' choices) goes through the prompt's buttons.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.games.shortcuts import Shortcut, ShortcutSet
from engine.core.prompt import Option


def _action(*kinds: str) -> Callable[[Option], bool]:
    """An option of the action prompt, by its typed data (never by parsing its id): `(kind, None)`, or
    `(kind, n)` for a card's or an archive card's action. A test's rerolls are `("focus", "lore")` and
    the like: a skill name, so they are not actions."""
    wanted = set(kinds)
    return lambda o: (isinstance(o.data, tuple) and len(o.data) == 2 and o.data[0] in wanted
                      and (o.data[1] is None or type(o.data[1]) is int))


def _end_turn(option: Option) -> bool:
    return option.id == "end" and option.data is None


def _purchase(option: Option) -> bool:
    return isinstance(option.data, tuple) and len(option.data) == 2 and isinstance(option.data[1], int) \
        and option.label.startswith("Buy ")


SHORTCUTS: dict[str, Shortcut] = {s.name: s for s in (
    Shortcut("move", "Move up to 2 spaces, and up to 2 more at $1 each.", _action("move"), "to",
             when="as an action on your turn, once per round, when not engaged", then="Move where?",
             noun="a space"),
    Shortcut("gather", "Gather resources: gain $1.", _action("gather"), when="as an action on your turn"),
    Shortcut("focus", "Focus a skill: a token to reroll a die of that skill later.", _action("focus"), "skill",
             when="as an action on your turn, below your focus limit", then="Focus which skill?"),
    Shortcut("research", "Research: test Observation to gain clues here.", _action("research"),
             when="as an action on your turn, when not engaged"),
    Shortcut("ward", "Ward: test Lore to remove doom from your space.", _action("ward"),
             when="as an action on your turn, when not engaged"),
    Shortcut("attack", "Attack a monster on your space (Strength).", _action("attack"), "monster",
             when="as an action on your turn, with a monster on your space", then="Attack which monster?"),
    Shortcut("evade", "Evade the monsters engaged with you (Observation).", _action("evade"),
             when="as an action on your turn, while engaged"),
    Shortcut("trade", "Trade with an investigator on your space.", _action("trade"), "player",
             when="as an action on your turn, with another investigator on your space", then="Trade with whom?",
             strip="Trade with "),
    Shortcut("action", "Use an action ability: a card's, your investigator's or an archive card's.",
             _action("comp", "ability", "codex"), "component", when="as an action on your turn"),
    Shortcut("buy", "Buy an item from the display when shopping.", _purchase, "item", strip="Buy ",
             when="when an effect lets you shop"),
    Shortcut("pass", "End your turn without using your remaining actions.", _end_turn,
             when="on your turn in the Action phase"),
)}


COMMANDS = ShortcutSet("ah", SHORTCUTS, readers=("sheet", "map", "card"))
matching = COMMANDS.matching
pick = COMMANDS.pick
follow = COMMANDS.follow
suggestions = COMMANDS.suggestions
FOLLOWED = COMMANDS.followed()
