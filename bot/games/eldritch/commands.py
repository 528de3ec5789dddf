"""Eldritch Horror's game commands (`/eh …`), shared by the Discord cog and the offline console.

A command that acts is a shortcut for answering the pending engine prompt: it picks the option whose typed
data is of the command's kind (`("travel", space, trains, ships)`, `("rest",)` …) and matches the argument,
so a slash command and a button click are the same action, checked by the same engine rules. Everything
the shortcuts do not cover (tests and rerolls, combat, trades' answers, shopping) goes through the prompt's
buttons. The read-only commands (`sheet`, `map`, `card`) read the spectator's view and the shipped content.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.games.lookup import best, echo, listing, pick_option
from engine.core.errors import IllegalAction
from engine.core.prompt import Option, Prompt


def _kind(*kinds: str) -> Callable[[Option], bool]:
    """Match an option by what it means (the first item of its typed data), never by parsing its id."""
    wanted = set(kinds)
    return lambda o: isinstance(o.data, tuple) and bool(o.data) and o.data[0] in wanted


@dataclass(frozen=True)
class Shortcut:
    name: str
    help: str
    matches: Callable[[Option], bool]
    argument: str | None = None  # the argument that picks among several matching options
    when: str = ""  # when the command can be used (said when it cannot be used now)
    strip: str = ""  # the label's prefix autocomplete leaves out ("Travel to ")


ENCOUNTERS = ("location", "research", "other_world", "expedition", "rumor", "defeated", "mystery", "final")

SHORTCUTS: dict[str, Shortcut] = {s.name: s for s in (
    Shortcut("travel", "Travel: one step along any path, one more per train or ship ticket spent.",
             _kind("travel"), "destination", strip="Travel to ",
             when="as an action on your turn in the Action phase, once per round (not while Detained)"),
    Shortcut("rest", "Rest: recover 1 Health and 1 Sanity.", _kind("rest"),
             when="as an action on your turn, once per round, with no Monster on your space"),
    Shortcut("trade", "Trade possessions, Clues and tickets with an investigator on your space.", _kind("trade"),
             "player", strip="Trade with ",
             when="as an action on your turn, with another investigator on your space"),
    Shortcut("prepare", "Prepare for travel: gain a train or ship ticket.", _kind("prepare"), "ticket",
             strip="Prepare for travel: gain a ",
             when="as an action on your turn in a city with a path of that kind (at most 2 tickets)"),
    Shortcut("acquire", "Acquire assets: test Influence and buy from the reserve.", _kind("acquire"),
             when="as an action on your turn in a city with no Monster"),
    Shortcut("action", "Use an action ability: your investigator's, a possession's or a Condition's.",
             _kind("component"), "component", strip="Use ",
             when="as an action on your turn, each ability once per round"),
    Shortcut("encounter", "Choose your encounter: location, research, gate, expedition, rumor, mystery …",
             _kind(*ENCOUNTERS), "kind",
             when="in the Encounter phase, on your space, once every Monster there has been fought"),
    Shortcut("pass", "End your turn without using your remaining actions.", _kind("end"),
             when="on your turn in the Action phase"),
)}


def matching(prompt: Prompt, shortcut: Shortcut) -> list[Option]:
    return [o for o in prompt.options if shortcut.matches(o)]


def _short_label(shortcut: Shortcut, option: Option) -> str:
    return option.label.removeprefix(shortcut.strip) if shortcut.strip else option.label


def pick(prompt: Prompt, command: str, value: str | None) -> str:
    """The option id `/eh <command> [value]` stands for, or IllegalAction with a sentence."""
    shortcut = SHORTCUTS.get(command)
    if shortcut is None:
        raise IllegalAction(f"Unknown command /eh {command}. Commands: {', '.join(SHORTCUTS)}, sheet, map, card.")
    options = matching(prompt, shortcut)
    if not options:
        when = f" You can {command} {shortcut.when}." if shortcut.when else ""
        raise IllegalAction(f"You can't /eh {command} now.{when} The game is asking: {prompt.title}")
    if value:
        return pick_option(options, value, lambda o: _short_label(shortcut, o))
    if len(options) == 1:
        return options[0].id
    arg = shortcut.argument or "choice"
    raise IllegalAction(f"Say which {arg}: {listing([_short_label(shortcut, o) for o in options])}.")


def suggestions(prompt: Prompt | None, command: str, current: str) -> list[tuple[str, str]]:
    """(label, value) pairs for autocomplete, at most 25: only what is legal now (a destination with its
    ticket cost, a partner on your space, an encounter you may have)."""
    shortcut = SHORTCUTS.get(command)
    if prompt is None or shortcut is None:
        return []
    options = matching(prompt, shortcut)
    if current.strip():
        named = best(current, options, lambda o: _short_label(shortcut, o), lambda o: o.id)
        options = named or [o for o in options if current.casefold() in o.label.casefold()]
    return [(_short_label(shortcut, o)[:100], o.id[:100]) for o in options][:25]


def refuse_unknown(value: str, what: str, names: list[str]) -> IllegalAction:
    return IllegalAction(f"No {what} is called '{echo(value)}'. {what.capitalize()}s: {listing(names)}.")
