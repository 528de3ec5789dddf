"""Driving the card game in rules tests: start a game on the test pack, read the pending question, answer it
by option id or by a piece of its label."""

from __future__ import annotations

from typing import Any

from engine import api
from engine.arkham_lcg.state import LcgState
from engine.core.game import SeatSpec
from engine.core.prompt import Action, Prompt


def new(players: int = 1, chars: tuple[str, ...] = ("warden", "scholar"), seed: int = 1,
        **options: Any) -> LcgState:
    seats = [SeatSpec(seat=n, name=f"P{n + 1}", character=chars[n] if n < len(chars) else None)
             for n in range(players)]
    state, _ = api.new_game("arkham-lcg", seats, options, seed)
    assert isinstance(state, LcgState)
    return state


def prompt(state: LcgState, seat: int | None = None) -> Prompt:
    pending = api.prompts(state)
    assert pending, "the game waits for nothing"
    if seat is None:
        return pending[0]
    for p in pending:
        if seat in p.seats:
            return p
    raise AssertionError(f"nothing is asked of seat {seat}: {[p.title for p in pending]}")


def answer(state: LcgState, pick: str | list[str] = "", seat: int | None = None,
           amount: int | None = None) -> list[Any]:
    """Answer the pending prompt (of `seat`): `pick` is an option id, or a piece of an option's label; a list
    answers a many-choice prompt. Returns the events."""
    p = prompt(state, seat)
    who = seat if seat is not None else p.seats[0]
    picks = pick if isinstance(pick, list) else ([pick] if pick != "" or p.kind.value == "one" else [])
    ids = []
    for want in picks:
        found = [o.id for o in p.options if o.id == want] or [o.id for o in p.options if want.lower() in
                                                               o.label.lower()]
        assert found, f"no option '{want}' in {p.title!r}: {[(o.id, o.label) for o in p.options]}"
        ids.append(found[0])
    _, events = api.apply(state, Action(seat=who, prompt=p.seq, choice=ids, amount=amount), in_place=True)
    return events


def until(state: LcgState, title_part: str, seat: int | None = None, limit: int = 50,
          default: str | list[str] = "") -> Prompt:
    """Answer every question with its default (or `default`) until one whose title holds `title_part`."""
    for _ in range(limit):
        p = prompt(state, seat)
        if title_part.lower() in p.title.lower():
            return p
        chosen = p.default if p.default is not None else [p.options[0].id]
        _, _ = api.apply(state, Action(seat=p.seats[0], prompt=p.seq, choice=list(chosen)), in_place=True)
    raise AssertionError(f"no question about '{title_part}' within {limit} answers")


def labels(p: Prompt) -> list[str]:
    return [o.label for o in p.options]
