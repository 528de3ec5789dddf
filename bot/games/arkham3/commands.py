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
from dataclasses import dataclass

from bot.games.lookup import best, listing, pick_option
from engine.core.errors import IllegalAction
from engine.core.prompt import Option, Prompt


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


@dataclass(frozen=True)
class Shortcut:
    name: str
    help: str
    matches: Callable[[Option], bool]
    argument: str | None = None
    when: str = ""
    #: the title of the question the chosen action opens, answered by the argument
    then: str | None = None
    strip: str = ""  # the label prefix autocomplete leaves out


SHORTCUTS: dict[str, Shortcut] = {s.name: s for s in (
    Shortcut("move", "Move up to 2 spaces, and up to 2 more at $1 each.", _action("move"), "to",
             when="as an action on your turn, once per round, when not engaged", then="Move where?"),
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


def matching(prompt: Prompt, shortcut: Shortcut) -> list[Option]:
    return [o for o in prompt.options if shortcut.matches(o)]


def _label(shortcut: Shortcut, option: Option) -> str:
    return option.label.removeprefix(shortcut.strip) if shortcut.strip else option.label


def pick(prompt: Prompt, command: str, value: str | None) -> str:
    """The option id `/ah <command> [value]` stands for in `prompt`, or IllegalAction with a sentence. For an
    action that opens a question, the value is not used here but by `follow`."""
    shortcut = SHORTCUTS.get(command)
    if shortcut is None:
        raise IllegalAction(f"Unknown command /ah {command}. Commands: {', '.join(SHORTCUTS)}, sheet, map, card.")
    options = matching(prompt, shortcut)
    if not options:
        when = f" You can {command} {shortcut.when}." if shortcut.when else ""
        raise IllegalAction(f"You can't /ah {command} now.{when} The game is asking: {prompt.title}")
    if shortcut.then is None and value:
        return pick_option(options, value, lambda o: _label(shortcut, o))
    if len(options) == 1:
        return options[0].id
    arg = shortcut.argument or "choice"
    raise IllegalAction(f"Say which {arg}: {listing([_label(shortcut, o) for o in options])}.")


def follow(prompt: Prompt, command: str, value: str | None) -> str | None:
    """The answer to the question `command`'s action opened (`prompt`): the option the value names; None
    when the game did not ask it (a single monster or skill is taken without asking)."""
    shortcut = SHORTCUTS[command]
    options = [o for o in prompt.options if o.id != "done"] if shortcut.then == prompt.title else []
    if not options:
        return None
    if value:
        return pick_option(options, value, lambda o: _label(shortcut, o))
    if len(options) == 1:
        return options[0].id
    raise IllegalAction(f"Say which {shortcut.argument}: {listing([_label(shortcut, o) for o in options])}.")


def suggestions(prompt: Prompt | None, command: str, current: str) -> list[tuple[str, str]]:
    """(label, value) pairs for autocomplete, at most 25: the question's options for an action that opens one
    (reachable spaces with their cost, free skills, monsters here), else the matching options."""
    shortcut = SHORTCUTS.get(command)
    if prompt is None or shortcut is None:
        return []
    if shortcut.then is not None and prompt.title == shortcut.then:
        options = [o for o in prompt.options if o.id != "done"]
    else:
        options = matching(prompt, shortcut)
    if current.strip():
        named = best(current, options, lambda o: _label(shortcut, o), lambda o: o.id)
        options = named or [o for o in options if current.casefold() in o.label.casefold()]
    return [(_label(shortcut, o)[:100], o.id[:100]) for o in options][:25]


FOLLOWED = {name: follow for name, s in SHORTCUTS.items() if s.then is not None}
