"""Invariants of random card game play (issue: card game engine, "Done when"): no card in two zones; each
investigator's cards are conserved across deck, hand, discard, play and the other zones; the chaos bag holds
the campaign's tokens plus bless and curse, apart from tokens out for a test; the agenda's doom threshold is
acted on at its check; no hidden card appears in another seat's view; JSON round trips exactly."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import api
from engine.agents import RandomAgent
from engine.arkham_lcg import board
from engine.arkham_lcg.state import LcgState
from tests.engine.arkham_lcg.helpers import new

pytestmark = pytest.mark.usefixtures("lcg_pack")


def zones(state: LcgState) -> Counter[int]:
    """Every uid held by a list of the state (a card must be in exactly one)."""
    held: Counter[int] = Counter()
    for i in state.invs:
        for pile in (i.deck, i.hand, i.discard, i.play, i.threat):
            held.update(pile)
        held[i.uid] += 1
    s = state.scenario
    if s is not None:
        for pile in (s.encounter_deck, s.encounter_discard, s.set_aside, s.victory):
            held.update(pile)
        for pile in s.attachments.values():
            held.update(pile)
        held.update(list(s.enemies))
        held.update(loc.uid for loc in s.locations.values())
    for t in state.tests:
        held.update(t.committed)
    return held


def check(state: LcgState, sizes: dict[int, int]) -> None:
    held = zones(state)
    twice = [u for u, n in held.items() if n > 1]
    assert not twice, f"cards in two zones: {twice}"
    if state.scenario is None or state.phase == "between":
        return
    for seat, i in enumerate(state.invs):
        if i.status != "playing":
            continue
        owned = [u for u, c in state.cards.items() if c.owner == seat and u != i.uid]
        assert len(owned) == sizes[seat]
        placed = [u for u in owned if u in held or state.cards[u].zone in ("limbo", "committed", "location")]
        assert len(placed) == len(owned), "an investigator's card is in no zone"
    bag = Counter(state.bag) + Counter(t for test in state.tests for t in test.tokens)
    base = Counter(state.campaign.bag)
    extra = bag - base
    assert set(extra) <= {"bless", "curse"}, f"tokens appeared in the bag: {extra}"
    assert not (base - bag), "campaign tokens left the bag"
    ag = board.agenda(state)
    if state.phase == "investigation" and ag is not None and state.scenario.resolution is None:
        assert board.doom_in_play(state) < ag.doom, "the doom threshold was not acted on"
    for seat in range(len(state.invs)):
        text = api.view(state, seat).model_dump_json()
        for other, i in enumerate(state.invs):
            if other == seat:
                continue
            for uid in i.hand:
                assert f'"uid":{uid},' not in text, "another seat's hand card is in the view"
        for uid in [*state.scenario.encounter_deck, *[u for i in state.invs for u in i.deck]]:
            assert f'"uid":{uid},' not in text, "a deck's card is in a view"


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), players=st.integers(1, 2), difficulty=st.sampled_from(
    ["easy", "standard", "hard", "expert"]))
def test_random_play_keeps_the_invariants(seed: int, players: int, difficulty: str) -> None:
    state = new(players=players, chars=(), seed=seed, difficulty=difficulty)
    agent = RandomAgent(seed)
    sizes: dict[int, int] = {}
    steps = 0
    while not state.over and steps < 1500:
        if state.scenario is not None and state.phase != "between":
            if not sizes or state.round == 0:
                sizes = {s: len([u for u, c in state.cards.items() if c.owner == s and u != state.invs[s].uid])
                         for s in range(len(state.invs))}
            check(state, sizes)
        state, _ = api.apply(state, agent.act(state), in_place=True)
        steps += 1
        if steps % 97 == 0:
            assert api.to_json(api.from_json(api.to_json(state))) == api.to_json(state)
    assert state.over


def test_illegal_answers_change_nothing() -> None:
    from engine.core.errors import IllegalAction
    from engine.core.prompt import Action

    state = new(players=2)
    before = api.to_json(state)
    p = api.prompts(state)[0]
    with pytest.raises(IllegalAction):
        api.apply(state, Action(seat=p.seats[0], prompt=p.seq, choice=["nonsense"]))
    with pytest.raises(IllegalAction):
        api.apply(state, Action(seat=p.seats[0], prompt=p.seq + 99, choice=[]))
    assert api.to_json(state) == before
