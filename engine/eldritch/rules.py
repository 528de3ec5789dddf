"""Eldritch Horror (base game) for 1-8 players: the rules object the engine registers.

Setup and the round live in setup.py; the phases in actions.py, encounters.py and mythos.py; tests in
checks.py; combat in combat.py; card effects in effects.py; the world's procedures in world.py.
"""

from __future__ import annotations

from typing import Any

from engine.core.events import Event
from engine.core.flow import Frame
from engine.core.game import FlowRules, GameState, OptionSpec, SeatSpec, Summary
from engine.core.prompt import Option
from engine.core.text import plural
from engine.eldritch import (  # noqa: F401 (ops)
    actions,
    checks,
    combat,
    effects,
    encounters,
    mythos,
    possessions,
    setup,
)
from engine.eldritch.content import default_content
from engine.eldritch.ops import FLOW, content
from engine.eldritch.state import EldritchState
from engine.eldritch.view import EldritchView, build_view


def lapse(state: EldritchState, frame: Frame) -> bool:
    """A question whose seat can no longer answer: a defeated investigator's own questions lapse (their frames
    were cancelled already); the new-investigator and Lead questions have their own rules."""
    if frame.op == "pick_investigator":
        return mythos.pick_lapse(state, frame)
    if frame.op == "pass_lead":
        return mythos.lead_lapse(state, frame)
    if frame.op == "keep_tickets" and possessions.keep_tickets_lapse(state, frame):
        return True
    if frame.seat is None:
        return False
    inv = state.investigators[frame.seat]
    return inv.card is None or inv.defeated or inv.eliminated  # not Investigator.active (asked at every question)


FLOW.lapse = lapse

DIFFICULTIES = (("normal", "Normal"), ("easy", "Easy (no hard Mythos cards)"),
                ("hard", "Hard (no easy Mythos cards)"), ("insane", "Insane (hard Mythos cards only)"),
                ("staged", "Staged (easy, then normal, then hard)"))


class EldritchRules(FlowRules):
    id = "eldritch"
    name = "Eldritch Horror"
    min_players = 1
    max_players = 8
    state_type = EldritchState
    flow = FLOW

    def option_specs(self) -> list[OptionSpec]:
        c = default_content()
        aos = [Option(id="random", label="Random")]
        aos += [Option(id=a.id.removeprefix("eh.ao."), label=a.name) for a in c.ancient_ones.values()]
        return [
            OptionSpec(id="ancient_one", label="Ancient One", kind="choice", choices=aos, default="random"),
            OptionSpec(id="mythos", label="Mythos difficulty", kind="choice",
                       choices=[Option(id=i, label=label) for i, label in DIFFICULTIES], default="normal"),
            OptionSpec(id="starting_rumor", label="Starting rumor", kind="bool", default=False),
        ]

    def characters(self) -> list[Option]:
        c = default_content()
        return [Option(id=i.id.removeprefix("eh.investigator."), label=f"{i.name}, {i.occupation}",
                       detail=f"{i.health} Health, {i.sanity} Sanity. {i.passive.text}")
                for i in c.investigators.values()]

    def new_game(self, seats: list[SeatSpec], options: dict[str, Any], seed: int) -> tuple[GameState, list[Event]]:
        state, events = setup.new_game(self.id, seats, options, seed)
        FLOW.run(state, events)
        return state, events

    def view(self, state: GameState, seat: int | None) -> EldritchView:
        assert isinstance(state, EldritchState)
        return build_view(state, seat)

    def summary(self, state: GameState) -> Summary:
        assert isinstance(state, EldritchState)
        c = content(state)
        ao = c.ancient_ones[state.ao]
        waiting = [] if state.over else sorted({s for p in self.prompts(state) for s in p.seats})
        mystery = c.mysteries[state.mystery].name if state.mystery else "none"
        head = (f"{ao.name}{' (awake)' if state.awakened else ''} · doom {state.doom} · omen {state.omen_colour} · "
                f"Mysteries {len(state.solved)}/{ao.mysteries} (active: {mystery}) · "
                f"{plural(len(state.gates), 'Gate')}")
        facts = [f"{state.seat_name(state.current)}'s turn"] if state.current is not None and not state.over else []
        facts += [f"Doom {state.doom}", f"Omen {state.omen_colour}", f"Mysteries {len(state.solved)}/{ao.mysteries}"]
        return Summary(phase="over" if state.over else state.phase, round=state.round, waiting_for=waiting,
                       headline=head, over=state.over, result=state.result, facts=facts)


RULES = EldritchRules()
