"""Invariants over random Eldritch Horror games (issue "Eldritch Horror", done-when): health and sanity in
bounds, at most 2 tickets, improvements at most +2, each action once per round, the Mythos deck only shrinks,
doom only moves toward 0 after the awakening and stays on the track, no hidden back in any view. Budgets are
small: the long soak is `miskatonic simulate eldritch`."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import api
from engine.agents import RandomAgent
from engine.core.game import SeatSpec
from engine.eldritch.content import default_content
from engine.eldritch.state import EldritchState


def check(state: EldritchState, mythos_before: int, doom_before: int, awake_before: bool) -> None:
    c = default_content()
    choosing = {f.seat for f in state.flow.stack if f.op == "keep_tickets"}
    for seat, inv in enumerate(state.investigators):
        if inv.card is None:
            continue
        sheet = c.investigators[inv.card]
        assert 0 <= inv.health <= sheet.health and 0 <= inv.sanity <= sheet.sanity
        # over 2 only while the player is choosing which 2 to keep (Rulebook, Prepare for Travel)
        assert (inv.train + inv.ship <= 2 or seat in choosing) and inv.train >= 0 and inv.ship >= 0
        assert all(0 <= v <= 2 for v in inv.improve.values())
        assert len(inv.actions_used) == len(set(inv.actions_used))
        assert inv.clues >= 0
    assert len(state.decks["mythos"].draw_pile) <= mythos_before
    assert 0 <= state.doom <= 20
    if awake_before:
        assert state.doom <= doom_before


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), players=st.integers(1, 4))
def test_random_games_keep_the_invariants(seed: int, players: int) -> None:
    seats = [SeatSpec(seat=i, name=f"P{i}") for i in range(players)]
    state, _ = api.new_game("eldritch", seats, None, seed)
    assert isinstance(state, EldritchState)
    agent = RandomAgent(seed)
    backs = {str(s.back) for s in default_content().spells.values()} | {
        str(x.back) for x in default_content().conditions.values()}
    steps = 0
    while not state.over and steps < 3000:
        before = (len(state.decks["mythos"].draw_pile), state.doom, state.awakened)
        p = api.prompts(state)[0]
        state, _ = api.apply(state, agent.act(state, p), in_place=True, prompt=p)
        check(state, *before)
        steps += 1
        if steps % 50 == 0:
            view = api.view(state, 0).model_dump_json()
            assert '"back"' not in view and not any(b in view for b in backs if len(b) > 40)
    assert state.over
