"""The moments of the card game's timing windows in players' words: "Respond before Lantern Watchman attacks?",
not the window's event name. The kernel asks `FLOW.window_words` when it titles a window's question
(engine/core/windows.py); this is that function for the card game."""

from __future__ import annotations

from typing import Any

from engine.arkham_lcg import board
from engine.arkham_lcg.state import LcgState
from engine.core.text import plural
from engine.core.windows import Window

#: each window's event -> what happens, as a clause after "before" / "after"; {who} is the window's
#: investigator, {enemy}, {card} and {location} the things its data names
MOMENTS = {
    "act.advanced": "the act advances",
    "agenda.advanced": "the agenda advances",
    "card.played": "{who} plays {card}",
    "clues.discovered": "{who} discovers {clues}",
    "damage.taken": "{who} takes damage or horror",
    "encounter.drawn": "{who} draws {card}",
    "enemy.attack": "{enemy} attacks {who}",
    "enemy.defeated": "{enemy} is defeated",
    "enemy.end": "the enemy phase ends",
    "enemy.engaged": "{enemy} engages {who}",
    "enemy.evaded": "{who} evades {enemy}",
    "enemy.spawned": "{enemy} spawns",
    "enemy.start": "the enemy phase begins",
    "investigation.end": "the investigation phase ends",
    "investigation.start": "the investigation phase begins",
    "investigator.defeated": "{who} is defeated",
    "location.entered": "{who} enters {location}",
    "location.revealed": "{location} is revealed",
    "mythos.end": "the mythos phase ends",
    "mythos.start": "the mythos phase begins",
    "round.end": "the round ends",
    "test.begin": "{who}'s skill test begins",
    "test.failed": "{who}'s skill test fails",
    "test.revealed": "the chaos token is revealed",
    "test.succeeded": "{who}'s skill test succeeds",
    "treachery.drawn": "{who} draws {card}",
    "turn.end": "{who}'s turn ends",
    "turn.start": "{who}'s turn begins",
    "upkeep.end": "the upkeep phase ends",
    "upkeep.start": "the upkeep phase begins",
}


def window_words(state: Any, window: Window) -> str:
    """What the window is around, as a clause ("" for an event without words: the kernel falls back)."""
    text = MOMENTS.get(window.event)
    if text is None or not isinstance(state, LcgState):
        return ""
    data = window.data
    seat, enemy, card, location = data.get("seat"), data.get("enemy"), data.get("card"), data.get("location")
    names = {
        "who": board.idef(state, seat).name if isinstance(seat, int) and 0 <= seat < len(state.invs)
        else "an investigator",
        "enemy": board.name(state, enemy) if enemy in state.cards else "the enemy",
        "card": board.name(state, card) if card in state.cards else "a card",
        "location": board.loc_name(state, location) if location in board.content(state).locations
        else "a location",
        "clues": plural(data["amount"], "clue") if isinstance(data.get("amount"), int) else "clues",
    }
    return text.format(**names)
