"""Helpers for Arkham Horror 3e rules tests: a table, scripted dice, running one rule's frames, answering."""

from __future__ import annotations

from typing import Any

from engine import api
from engine.arkham3.ops import FLOW
from engine.arkham3.state import ArkhamState, Monster
from engine.core.events import Event
from engine.core.game import SeatSpec
from engine.core.prompt import Action, Prompt
from tests.engine.scripted_rng import ScriptedRng


def new_game(players: int = 1, seed: int = 3, characters: list[str] | None = None,
             scenario: str = "witch-light") -> ArkhamState:
    seats = [SeatSpec(seat=i, name=f"p{i}", character=(characters or [None] * players)[i]) for i in range(players)]
    state, _ = api.new_game("arkham3", seats, {"scenario": scenario}, seed)
    assert isinstance(state, ArkhamState)
    return state


def dice(state: ArkhamState, *faces: int) -> None:
    state.rng = ScriptedRng(state=state.rng.state, script=list(faces))


def run(state: ArkhamState, op: str, seat: int | None = None, clear: bool = True, **args: Any) -> list[Event]:
    """Run one rule from a clean stack (or on top of the current one) until it asks or finishes."""
    if clear:
        FLOW.clear(state)
    FLOW.push(state, op, seat, "test", **args)
    events: list[Event] = []
    FLOW.run(state, events)
    return events


def prompt(state: ArkhamState) -> Prompt:
    ps = api.prompts(state)
    assert len(ps) == 1, ps
    return ps[0]


def ids(state: ArkhamState) -> list[str]:
    return [o.id for o in prompt(state).options]


def answer(state: ArkhamState, choice: str | None = None, amount: int | None = None) -> list[Event]:
    p = prompt(state)
    action = Action(seat=p.seats[0], prompt=p.seq, choice=[choice] if choice else [], amount=amount)
    _, events = api.apply(state, action, in_place=True)
    return events


def op(state: ArkhamState) -> str:
    return state.flow.stack[-1].op if state.flow.stack else ""


def add_monster(state: ArkhamState, card: str, space: str | None, status: str = "ready",
                engaged: list[int] | None = None, prey: int | None = None) -> Monster:
    m = Monster(uid=state.next_uid, card=card, space=space, status=status, engaged=engaged or [], prey=prey)  # type: ignore
    state.next_uid += 1
    state.monsters.append(m)
    return m


def texts(events: list[Event]) -> str:
    return "\n".join(e.text for e in events)


def settle(state: ArkhamState, choose: dict[str, str] | None = None, limit: int = 50) -> None:
    """Answer every pending question with the prompt's default (or `choose[op]`) until none is left or the turn
    asks for an action."""
    for _ in range(limit):
        if state.over or not api.prompts(state) or op(state) == "action":
            return
        p = prompt(state)
        pick = (choose or {}).get(op(state))
        if p.kind.value == "amount":
            answer(state, amount=p.default_amount if p.default_amount is not None else p.max_amount)
        else:
            answer(state, pick or (p.default or [p.options[0].id])[0])
