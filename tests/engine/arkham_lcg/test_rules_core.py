"""Core rules of the card game that no other test protected (each found by a deliberate rule break that no test
caught, `python -m tests.breaks --game arkham_lcg`). Each test cites the section of our rules summary ("digest
§", its rulings written out in docs/arkham_lcg.md). Positions are set on the test pack by editing the state, then
played through the public API."""

from __future__ import annotations

import pytest

from engine.arkham_lcg import board
from engine.arkham_lcg.ops import FLOW
from tests.engine.arkham_lcg.helpers import answer, until
from tests.engine.arkham_lcg.test_faq_framework import _enemy, _hand, _labels, _start

pytestmark = pytest.mark.usefixtures("lcg_pack")


def test_a_card_is_offered_only_when_its_cost_can_be_paid() -> None:
    """Digest §11 (play sequence, step 1): a card whose resource cost exceeds the investigator's resource pool
    cannot be played."""
    state = _start()
    _hand(state, 0, "p.watchdog")  # cost 2
    state.invs[0].resources = 1
    assert not any(label.startswith("Play Test Watchdog") for label in _labels(state))
    state.invs[0].resources = 2
    assert any(label.startswith("Play Test Watchdog") for label in _labels(state))


def test_engaged_enemies_move_with_the_investigator() -> None:
    """Digest §8 Move: an investigator who moves takes the enemies engaged with them along, still engaged."""
    state = _start()
    e = _enemy(state, "e.faq-brute", "l.gate", engaged=0)
    answer(state, "move:l.hall")  # the brute's attack of opportunity comes first
    until(state, "Your turn")
    assert state.invs[0].location == "l.hall"
    assert e.location == "l.hall" and e.engaged == 0


def test_an_exhausted_enemy_does_not_engage_an_investigator_who_enters() -> None:
    """Digest §7 and §8 Move: only a ready, unengaged enemy engages an investigator entering its location; an
    exhausted one stays unengaged."""
    state = _start()
    e = _enemy(state, "e.faq-brute", "l.hall")
    e.exhausted = True
    answer(state, "move:l.hall")
    until(state, "Your turn")
    assert state.invs[0].location == "l.hall" and e.engaged is None



def test_a_defeated_investigator_leaves_their_clues_at_their_location() -> None:
    """Digest §12 (elimination): an investigator who leaves the scenario places the clues they held on their
    location, where the others can still discover them."""
    state = _start(players=2)
    gate = board.scen(state).locations["l.gate"]
    before = gate.clues
    state.invs[0].clues = 2
    FLOW.push(state, "defeat", 0, "test", how="defeated_damage")
    FLOW.run(state, [])
    assert state.invs[0].status == "defeated_damage" and state.invs[0].clues == 0
    assert gate.clues == before + 2


def test_an_exhausted_engaged_enemy_makes_no_attack_of_opportunity() -> None:
    """Digest §4.1: an action other than fight, evade, parley or resign provokes an attack from each *ready*
    enemy engaged with the investigator; an exhausted one does not attack."""
    state = _start()
    e = _enemy(state, "e.faq-brute", "l.gate", engaged=0)  # 1 damage
    e.exhausted = True
    answer(state, "resource")
    until(state, "Your turn")
    assert state.invs[0].damage == 0 and state.invs[0].resources == 6
    e.exhausted = False
    answer(state, "resource")
    until(state, "Your turn")
    assert state.invs[0].damage == 1
