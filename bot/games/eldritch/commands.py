"""Eldritch Horror's game commands (`/eh …`), shared by the Discord cog and the offline console.

A command that acts is a shortcut for answering the pending engine prompt: it picks the option whose typed
data is of the command's kind (`("travel", space, trains, ships)`, `("rest",)` …) and matches the argument,
so a slash command and a button click are the same action, checked by the same engine rules. Everything
the shortcuts do not cover (tests and rerolls, combat, trades' answers, shopping) goes through the prompt's
buttons. The read-only commands (`sheet`, `map`, `card`) read the spectator's view and the shipped content.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.games.shortcuts import Shortcut, ShortcutSet
from engine.core.prompt import Option


def _kind(*kinds: str) -> Callable[[Option], bool]:
    """Match an option by what it means (the first item of its typed data), never by parsing its id."""
    wanted = set(kinds)
    return lambda o: isinstance(o.data, tuple) and bool(o.data) and o.data[0] in wanted


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


COMMANDS = ShortcutSet("eh", SHORTCUTS, readers=("sheet", "map", "card"))
matching = COMMANDS.matching
pick = COMMANDS.pick
suggestions = COMMANDS.suggestions
