"""Invariants under random legal play (issue 12 done-when; DESIGN "Tests" 2), every card's effects played once,
and the simulator through the manifest. Budgets are small: the whole folder stays fast."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import api
from engine.arkham3 import board
from engine.arkham3.content import default_content
from engine.arkham3.effects import ctx_for, run_effects
from engine.arkham3.effects_schema import walk
from engine.arkham3.ops import FLOW
from engine.arkham3.state import ArkhamState
from engine.core.game import SeatSpec
from tests.engine.arkham3.support import new_game


def check_invariants(state: ArkhamState) -> None:
    pack = board.scenario(state)
    assert len(set(state.anomalies)) == len(state.anomalies)  # at most one anomaly per neighborhood (digest 8)
    assert not [s for s, n in state.doom.items() if n and board.is_street(s)]  # no doom on streets (2.1)
    assert all(n > 0 for n in state.doom.values())
    assert not set(state.seals) & set(state.doom)  # a sealed space holds no doom (our scenario sheets)
    for row in state.table:
        if row.inv is not None:
            assert len(set(row.inv.actions_used)) == len(row.inv.actions_used)  # each action once per round
    for m in state.monsters:  # engaged monsters are not also in a space (a massive one stays in its own)
        if m.engaged and not board.has_kw(state, m, "massive"):
            assert m.space is None and m.status == "engaged"
        if not m.engaged:
            assert m.space is not None and m.status in ("ready", "exhausted")
    added = Counter()
    for n in state.codex:
        for verb, arg in walk(pack.archive[n].on_add):
            if verb == "add_tokens":
                added.update(arg)
    assert Counter(state.cup) + Counter(state.cup_drawn) == Counter(pack.sheet.cup) + added  # tokens conserved
    text = api.view(state, None).model_dump_json()
    for copy in default_content().conditions.values():  # no hidden back in any view
        if copy.back is not None:
            assert copy.back.text not in text


@settings(max_examples=6)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(1, 4), agent_seed=st.integers(0, 1000))
def test_random_play_keeps_the_invariants(seed: int, players: int, agent_seed: int) -> None:
    seats = [SeatSpec(seat=i, name=f"p{i}") for i in range(players)]
    state, _ = api.new_game("arkham3", seats, {}, seed)
    assert isinstance(state, ArkhamState)
    rnd = random.Random(agent_seed)
    steps = 0
    while not state.over and steps < 400:
        check_invariants(state)
        p = rnd.choice(api.prompts(state))
        action = rnd.choice(p.answers(rnd.choice(p.seats), limit=64))
        state, _ = api.apply(state, action, in_place=True)  # type: ignore[assignment]
        steps += 1
        if steps % 40 == 0:
            assert api.from_json(api.to_json(state)) == state
    check_invariants(state)
    assert api.from_json(api.to_json(state)) == state


@pytest.mark.parametrize("scenario", sorted(default_content().scenarios))
def test_every_scenario_plays_with_the_invariants(scenario: str) -> None:
    """Each scenario (its map changes, seals, escort, epic monsters) under random legal play: the invariants
    hold and the state round-trips through JSON."""
    seats = [SeatSpec(seat=i, name=f"p{i}") for i in range(3)]
    state, _ = api.new_game("arkham3", seats, {"scenario": scenario}, 7)
    assert isinstance(state, ArkhamState)
    rnd = random.Random(scenario)
    for step in range(300):
        if state.over:
            break
        check_invariants(state)
        p = rnd.choice(api.prompts(state))
        state, _ = api.apply(state, rnd.choice(p.answers(rnd.choice(p.seats), limit=64)), in_place=True)  # type: ignore[assignment]
        if step % 100 == 99:
            assert api.from_json(api.to_json(state)) == state
    check_invariants(state)


def _settle(state: ArkhamState) -> None:
    guard = 0
    while not state.over and state.flow.stack and guard < 200:
        ps = api.prompts(state)
        if not ps:
            break
        p = ps[0]
        state, _ = api.apply(state, p.answers(p.seats[0], limit=1)[0], in_place=True)  # type: ignore[assignment]
        guard += 1


def test_every_card_effect_resolves_once() -> None:
    """CONTENT.md 'Checking content': each encounter section, street, anomaly, event and headline effect list
    runs through the interpreter without error."""
    c = default_content()
    lists = [s.effects for d in c.encounters.values() for card in d.values() for s in card.sections.values()]
    lists += [sec.effects for card in c.streets.values() for sec in (card.residential, card.bridge, card.scenic)]
    lists += [sec.effects for card in c.anomalies.values() for sec in (card.low, card.mid, card.high)]
    lists += [e.encounter.effects for p in c.scenarios.values() for e in p.events.values()]
    lists += [h.effects for h in c.headlines.values()]
    lists += [a.action.effects for a in c.assets.values() if a.action]
    for k, effects in enumerate(lists):
        state = new_game(players=2, seed=k)
        board.inv(state, 0).money = 5
        board.inv(state, 0).clues = 2
        FLOW.clear(state)
        run_effects(state, effects, ctx_for(state, 0), "test")
        FLOW.run(state, [])
        _settle(state)


def test_simulate_through_the_manifest() -> None:
    """`miskatonic simulate arkham3` runs whole games through the engine with both agents, without errors."""
    from bot.simulate import simulate

    for agent in ("random", "smart"):
        result = simulate("arkham3", 4, 11, agent)
        assert result["errors"] == 0 and result["wins"] + result["losses"] == 4
