"""Eldritch Horror's op registry on the kernel (engine/core/flow.py), and the helpers every rules module uses.

`auto(name)` registers an automatic frame, `asks(name)` a question for one seat, `answers(name)` its answer.
Frames carry plain dict arguments (no model): they are built on every step of every game.
"""

from __future__ import annotations

from typing import Any

from engine.core.events import Event
from engine.core.flow import Flow, Frame
from engine.core.trusted import trusted
from engine.eldritch.content import EldritchContent, content_of
from engine.eldritch.state import EldritchState

FLOW: Flow[EldritchState] = Flow("eldritch")

auto = FLOW.auto
asks = FLOW.ask
answers = FLOW.answers
Events = list[Event]

#: frames that belong to the structure of a round, not to anyone's resolution: a defeat never cancels them
STRUCTURE_OPS = frozenset({
    "round_start", "turn", "action_phase_end", "encounter_turn", "encounter_phase", "mythos_phase",
    "mythos_end", "pick_investigator", "pass_lead", "round_end", "refill_reserve", "end_turn",
})


def push(state: EldritchState, op: str, seat: int | None = None, **args: Any) -> Frame:
    """Push a frame; it runs before everything already on the stack."""
    return FLOW.push(state, op, seat, str(args.get("source", "")), **args)


def push_seq(state: EldritchState, steps: list[tuple[str, int | None, dict[str, Any]]]) -> None:
    """Push several frames so that they run in the order given."""
    for op, seat, args in reversed(steps):
        push(state, op, seat, **args)


def content(state: EldritchState) -> EldritchContent:
    return content_of(state.content_version)


def say(events: Events, text: str, seat: int | None = None, cause: str = "", kind: str = "narration",
        **data: Any) -> None:
    """Narrate. Built without re-validation (engine/core/trusted.py): every value here is the engine's own."""
    events.append(trusted(Event, {"kind": kind, "text": text, "seat": seat, "cause": cause, "data": data,
                                  "private_to": None, "render": False}))


def name(state: EldritchState, seat: int) -> str:
    """'Ada Whitlock (Bob)': the investigator with the player who plays them."""
    inv = state.investigators[seat]
    who = state.seats[seat].name
    if inv.card is None:
        return who
    return f"{content(state).investigators[inv.card].name} ({who})"


def short(state: EldritchState, seat: int) -> str:
    inv = state.investigators[seat]
    if inv.card is None:
        return state.seats[seat].name
    return content(state).investigators[inv.card].name.split(" ")[0]


def seats_from_lead(state: EldritchState) -> list[int]:
    n = len(state.investigators)
    return [(state.lead + i) % n for i in range(n)]


def active_seats(state: EldritchState) -> list[int]:
    return [s for s in seats_from_lead(state) if state.investigators[s].active]


def card_name(state: EldritchState, card: str) -> str:
    c = content(state)
    for table in (c.assets, c.artifacts, c.spells, c.conditions, c.mythos, c.mysteries, c.monsters,
                  c.investigators, c.ancient_ones, c.other_worlds, c.expeditions, c.specials, c.locations,
                  c.research):
        got = table.get(card)
        if got is not None:
            return got.name
    return card


def plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"
