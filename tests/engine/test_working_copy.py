"""The service applies a click in place on a private working copy (parsed from the head's JSON) with the
prompt it built for that very step (bot/service.py, `Loaded.working_state`), instead of `api.apply`'s deep
copy (issue 29, item 2). Here: that path gives exactly what the default one does (the same state and the
same events at every step) over seeded random games of every game, and leaves the state it started from
untouched."""

from __future__ import annotations

import random

import pytest

from engine import api
from engine.core.game import SeatSpec

GAMES = ("elder-sign", "eldritch", "arkham3", "arkham-lcg")
SEEDS = (3, 17, 41)
STEPS = 60


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_the_working_copy_path_matches_the_copying_path(game: str, seed: int) -> None:
    rng = random.Random(seed)
    seats = [SeatSpec(seat=i, name=f"p{i}") for i in range(1 + seed % 2)]
    copied, _ = api.new_game(game, seats, {}, seed)
    worked = api.from_json(api.to_json(copied), game)
    for _ in range(STEPS):
        if copied.over:
            break
        prompt = api.prompts(copied)[0]
        action = rng.choice(prompt.answers(prompt.seats[0], limit=64))
        before = api.to_json(copied)
        copied, events = api.apply(copied, action)
        held = worked  # what a picture being drawn may still hold
        held_json = api.to_json(held)
        own_prompt = next(p for p in api.prompts(held) if p.seq == prompt.seq)
        worked, worked_events = api.apply(api.from_json(held_json, game), action, in_place=True, prompt=own_prompt)
        assert api.to_json(held) == held_json == before
        assert api.to_json(worked) == api.to_json(copied)
        assert [e.model_dump() for e in worked_events] == [e.model_dump() for e in events]
