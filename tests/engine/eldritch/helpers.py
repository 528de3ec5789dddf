"""Helpers for Eldritch Horror rules tests: a game at a chosen moment, scripted dice, a variant content pack."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from engine import api
from engine.core.content import CONTENT
from engine.core.events import Event
from engine.core.game import SeatSpec
from engine.core.prompt import Action, Prompt
from engine.eldritch.content import EldritchContent, default_content
from engine.eldritch.ops import FLOW
from engine.eldritch.state import EldritchState
from tests.engine.scripted_rng import ScriptedRng

_versions = itertools.count(1)




def variant(change: Callable[[EldritchContent], None]) -> str:
    """Register a copy of the shipped content changed by `change`, under a new version; return the version."""
    pack = default_content().model_copy(deep=True)
    change(pack)
    version = f"test-{next(_versions)}"
    pack.version = version
    CONTENT.register("eldritch", version, lambda: pack)
    return version


def new(players: int = 1, seed: int = 1, ao: str = "azathoth", **options: Any) -> EldritchState:
    seats = [SeatSpec(seat=i, name=f"P{i}") for i in range(players)]
    state, _ = api.new_game("eldritch", seats, {"ancient_one": ao, **options}, seed)
    assert isinstance(state, EldritchState)
    return state


def at_moment(state: EldritchState, version: str | None = None) -> EldritchState:
    """Empty the resolution stack (the test pushes the moment it wants) and script the dice."""
    if version is not None:
        state.content_version = version
    state.flow.stack.clear()
    state.rng = ScriptedRng(state=state.rng.state)
    return state


def dice(state: EldritchState, *faces: int) -> None:
    assert isinstance(state.rng, ScriptedRng)
    state.rng.script.extend(faces)


def run(state: EldritchState) -> list[Event]:
    events: list[Event] = []
    FLOW.run(state, events)
    return events


def prompt(state: EldritchState) -> Prompt:
    pending = api.prompts(state)
    assert pending, f"nothing asked; stack: {[f.op for f in state.flow.stack]}"
    return pending[0]


def choose(state: EldritchState, option_id: str | None = None, label: str | None = None) -> list[Event]:
    """Answer the pending prompt by option id or by the start of a label."""
    p = prompt(state)
    if option_id is None:
        assert label is not None
        matches = [o.id for o in p.options if o.label.startswith(label)]
        assert matches, f"no option starting {label!r} in {[o.label for o in p.options]}"
        option_id = matches[0]
    _, events = api.apply(state, Action(seat=p.seats[0], prompt=p.seq, choice=[option_id]), in_place=True, prompt=p)
    return events


def texts(events: list[Event]) -> list[str]:
    return [e.text for e in events]
