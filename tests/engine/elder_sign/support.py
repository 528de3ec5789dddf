"""Helpers for Elder Sign rules tests: build a table, put chosen cards in play, answer prompts by id."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from engine import api
from engine.core.content import CONTENT
from engine.core.events import Event
from engine.core.game import SeatSpec
from engine.core.prompt import Action, Prompt
from engine.elder_sign import board
from engine.elder_sign.content import PINNED, AdventureCard, Monster, Mythos, default_content
from engine.elder_sign.state import CardInPlay, ElderSignState


def new_game(players: int = 1, ao: str = "cthulhu", seed: int = 7,
             characters: list[str] | None = None) -> ElderSignState:
    seats = [SeatSpec(seat=i, name=f"p{i}", character=(characters or [None] * players)[i])
             for i in range(players)]
    state, _ = api.new_game("elder-sign", seats, {"ancient_one": ao}, seed)
    assert isinstance(state, ElderSignState)
    return state


def prompt(state: ElderSignState) -> Prompt:
    ps = api.prompts(state)
    assert len(ps) == 1, ps
    return ps[0]


def option_ids(state: ElderSignState) -> list[str]:
    return [o.id for o in prompt(state).options]


def answer(state: ElderSignState, *choice: str, amount: int | None = None) -> tuple[ElderSignState, list[Event]]:
    """Answer the pending prompt; a choice ending in '*' picks the first option with that prefix."""
    p = prompt(state)
    picked = []
    for c in choice:
        if c.endswith("*"):
            c = next(o.id for o in p.options if o.id.startswith(c[:-1]))
        picked.append(c)
    new, events = api.apply(state, Action(seat=p.seats[0], prompt=p.seq, choice=picked, amount=amount))
    assert isinstance(new, ElderSignState)
    return new, events


def op(state: ElderSignState) -> str:
    return state.flow.stack[-1].op


@contextmanager
def extra_cards(*cards: Any) -> Iterator[None]:
    """New games in this block play with the shipped content plus test-only cards. The shared content is never
    changed: the cards go into a copy registered under its own content version."""
    base = default_content()
    pack = base.model_copy(deep=True)
    tables = {AdventureCard: pack.adventures, Monster: pack.monsters, Mythos: pack.mythos}
    for card in cards:
        table = pack.other_worlds if isinstance(card, AdventureCard) and card.other_world else tables[type(card)]
        table[card.id] = card
    pack.version = f"{base.version}+test-{next(_PACKS)}"
    CONTENT.register("elder-sign", pack.version, lambda: pack)
    token = PINNED.set(pack.version)
    try:
        yield
    finally:
        PINNED.reset(token)


_PACKS = itertools.count(1)


def adventure(card_id: str, tasks: list[str], **kw: Any) -> AdventureCard:
    return AdventureCard.model_validate({"id": card_id, "name": card_id.split(".")[-1].title(), "trophy": 2,
                                         "tasks": tasks, **kw})


def place(state: ElderSignState, slot: int, card_id: str) -> None:
    """Put a card in an adventure slot (the old one goes to the deck bottom). Inside `extra_cards`, a table
    dealt before the block plays on with the block's pack (the shipped cards plus the test's own)."""
    pinned = PINNED.get()
    if pinned is not None:
        state.content_version = pinned
    old = state.slots[slot]
    if old is not None:
        state.decks["adventure"].put_bottom(old.card)
    state.slots[slot] = CardInPlay(card=card_id)


def at_move(state: ElderSignState) -> None:
    assert op(state) == "move", op(state)


def go(state: ElderSignState, where: str) -> tuple[ElderSignState, list[Event]]:
    """Move the current investigator; answers 'roll' if a pre-roll prompt appears."""
    state, events = answer(state, f"go:{where}")
    if op(state) == "pre_roll_ask":
        state, more = answer(state, "roll")
        events += more
    return state, events


def set_faces(state: ElderSignState, faces: dict[str, str]) -> None:
    for d, f in faces.items():
        state.dice[d].face = f


def pool(state: ElderSignState) -> list[str]:
    return board.dice_at(state, "pool")


def clear_hands(state: ElderSignState) -> None:
    """Remove every item and ally so no optional item prompt interrupts a scripted turn."""
    for seat in state.table:
        if seat.investigator:
            for card in seat.investigator.items + seat.investigator.allies:
                board.return_item(state, card)
            seat.investigator.items, seat.investigator.allies = [], []


def settle(state: ElderSignState, until: str = "move") -> ElderSignState:
    """Answer every pending prompt with its default until the game waits at `until` (or ends)."""
    for _ in range(200):
        if state.over or op(state) == until:
            return state
        p = prompt(state)
        state, _ = answer(state, *(p.default or [p.options[0].id]))
    raise AssertionError("did not settle")


NEUTRAL = "nyarlathotep"  # no setup, midnight, terror or failure hooks
PASSIVES = ["lionel-ashdown", "margarethe-vogel", "jack-callahan", "anna-sokolova"]  # no pre-roll prompts


def table(players: int = 1, chars: list[str] | None = None, ao: str = NEUTRAL) -> ElderSignState:
    """A started game waiting for the first move, with empty hands so no item prompt interrupts a script."""
    state = settle(new_game(players, ao, characters=chars or PASSIVES[:players]))
    clear_hands(state)
    return state
