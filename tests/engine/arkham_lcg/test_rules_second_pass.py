"""The rules second pass (independent checks and new players): each test cites the Rules Reference entry or
FAQ ruling it checks and fails on the engine as it was before the fix. Positions are set by editing the state,
then played through the public API only, as in test_faq_framework.py (whose position helpers these reuse)."""

from __future__ import annotations

import pytest

from engine import api
from engine.arkham_lcg import board
from tests.engine.arkham_lcg.helpers import answer, prompt
from tests.engine.arkham_lcg.test_faq_framework import _enemy, _hand, _ids, _in_play, _start

pytestmark = pytest.mark.usefixtures("lcg_pack")


def test_once_per_phase_limit_resets_when_the_phase_ends() -> None:
    """Rules Reference, Limits and Maximums: "limit once per phase" counts uses within one phase; a new phase
    gives a fresh use. Used in the investigation phase, the lantern is offered again in the enemy phase's
    player window of the same round."""
    state = _start()
    i = state.invs[0]
    _in_play(state, 0, "p.rs-lantern")
    answer(state, "Test Lantern")
    assert i.resources == 6
    assert not any(o.label.startswith("Test Lantern") for o in prompt(state).options)  # spent for this phase
    answer(state, "end")
    p = prompt(state)
    assert p.title == "Player window (after enemies move)" and state.phase == "enemy"
    answer(state, "Test Lantern")
    assert i.resources == 7


def test_an_enemy_evaded_between_two_investigators_attacks_does_not_attack() -> None:
    """Rules Reference, Enemy Phase (step 3.3): each ready engaged enemy attacks in turn; whether it still can
    is a question for each attack, not for all of them when the step begins. P2 evades its enemy with a fast
    card in the player window after P1's attacks: that enemy is exhausted and unengaged and does not attack."""
    state = _start(players=2)
    _in_play(state, 1, "p.faq-cat")
    first = _enemy(state, "e.faq-brute", "l.gate", engaged=0)
    second = _enemy(state, "e.faq-brute", "l.gate", engaged=1)
    answer(state, "end", seat=0)
    answer(state, "end", seat=1)
    answer(state, "Pass", seat=1)  # the window after enemies move
    assert state.invs[0].damage == 1 and first.exhausted
    assert prompt(state).title == "Player window (after the attacks on P1)"
    events = answer(state, "Test Alley Cat", seat=1)
    if prompt(state).title.startswith("Evade which"):
        events += answer(state, f"e{second.uid}", seat=1)
    texts = [e.text for e in events]
    assert "P2 evades Test Brute." in texts
    assert not any(t.startswith("Test Brute attacks P2") for t in texts)
    assert state.invs[1].damage == 0 and state.phase == "upkeep"


def test_an_eliminated_investigators_enemy_engages_the_investigator_left_at_the_location() -> None:
    """Rules Reference, Elimination (the eliminated investigator's enemies stay at the location, unengaged) and
    Engagement (a ready, unengaged enemy at a location with an investigator engages at once): P1 falls to an
    attack of opportunity, and the enemy engages P2 at the same location straight away."""
    state = _start(players=2)
    brute = _enemy(state, "e.faq-brute", "l.gate", engaged=0)
    i = state.invs[0]
    i.damage = board.max_health(state, 0) - 1
    events = answer(state, "draw", seat=0)
    texts = [e.text for e in events]
    assert "P1 is defeated by damage." in texts
    assert brute.engaged == 1 and not brute.exhausted
    assert "Test Brute engages P2." in texts


def test_a_failed_attack_on_an_enemy_engaged_with_someone_else_hits_them() -> None:
    """Rules Reference, Fight: a failed attack against an enemy engaged with another investigator deals its
    damage to that investigator. P1 misses P2's brute with a knife (+1 damage): P2 takes 2 damage."""
    state = _start(players=2)
    brute = _enemy(state, "e.faq-brute", "l.gate", engaged=1)
    _in_play(state, 0, "p.knife")
    state.bag = ["auto_fail"]
    events = answer(state, "Test Knife", seat=0)
    while prompt(state).title.startswith("Commit"):
        events += answer(state, [], seat=prompt(state).seats[0])
    assert brute.damage == 0
    assert state.invs[1].damage == 2 and state.invs[0].damage == 0
    assert "The attack misses Test Brute and hits P2." in [e.text for e in events]


def test_a_failed_attack_on_your_own_or_an_unengaged_enemy_hurts_nobody() -> None:
    """Rules Reference, Fight: only an enemy engaged with *another* investigator passes the missed attack on."""
    state = _start(players=2)
    brute = _enemy(state, "e.faq-brute", "l.gate")
    state.bag = ["auto_fail", "auto_fail"]
    answer(state, f"fight:{brute.uid}", seat=0)
    while prompt(state).title.startswith("Commit"):
        answer(state, [], seat=prompt(state).seats[0])
    assert state.invs[0].damage == 0 and state.invs[1].damage == 0


def test_a_card_paid_for_by_an_investigator_defeated_by_the_attack_of_opportunity_never_enters_play() -> None:
    """Rules Reference, Elimination (with A.4, play an asset: cost, then attacks of opportunity, then the card
    enters play): the game is over for an investigator defeated by the attack of opportunity, so the asset they
    paid for goes to their discard pile instead of entering play, and the lead passes to the investigator
    left."""
    state = _start(players=2)
    _enemy(state, "e.faq-brute", "l.gate", engaged=0)
    dog = _hand(state, 0, "p.watchdog")[0]
    i = state.invs[0]
    i.damage = board.max_health(state, 0) - 1
    events = answer(state, "Play Test Watchdog", seat=0)
    texts = [e.text for e in events]
    assert "P1 is defeated by damage." in texts
    assert not any(t.startswith("P1 plays") for t in texts[texts.index("P1 is defeated by damage."):])
    assert state.cards[dog].zone == "discard" and dog not in i.play
    assert state.lead == 1 and "P2 is now the lead investigator." in texts
    assert api.view(state, None).lead == 1


# ---------------------------------------------------------------- "cannot" and "if able" in the vocabulary

def test_can_lets_you_fight_an_unengaged_aloof_enemy_and_cannot_beats_it() -> None:
    """Rules Reference, Cannot: "cannot" is absolute, nothing overrides it. A `can: fight_aloof` lets you attack
    an aloof enemy nobody is engaged with (a rule forbids it otherwise, digest §7); a `cannot: fight_aloof`
    in force at the same time wins."""
    state = _start()
    loner = _enemy(state, "e.faq-loner", "l.gate")
    assert f"fight:{loner.uid}" not in _ids(state)
    _in_play(state, 0, "p.rs-hook")
    assert f"fight:{loner.uid}" in _ids(state)
    _in_play(state, 0, "p.rs-ban")
    assert f"fight:{loner.uid}" not in _ids(state)


def test_cannot_takes_actions_away_and_stops_effects() -> None:
    """Rules Reference, Cannot: while you cannot move, draw or gain resources, those actions are not offered
    and an effect that would make you do them does nothing (the upkeep's draw and resource once the lasting
    effect is over are unaffected)."""
    state = _start()
    i = state.invs[0]
    _hand(state, 0, "p.rs-freeze", "p.rs-drift")
    answer(state, "Play Test Frost")
    ids = _ids(state)
    assert not any(x.startswith("move:") for x in ids) and "draw" not in ids and "resource" not in ids
    assert "investigate" in ids
    i.horror = 1
    events = answer(state, "Play Test Drift")
    assert i.location == "l.gate" and i.horror == 0  # the move was skipped, the rest resolved
    assert "P1 cannot move." not in [e.text for e in events]  # "if able": skipped quietly, not attempted
    answer(state, "end")
    assert not any(m.get("cannot") for m in i.lasting)


def test_if_able_makes_you_pick_the_option_you_can_carry_out() -> None:
    """Our reading of "if able" (the phrase as the FAQ's Barricade errata uses it: do it when you can, skip it
    when you cannot): offered "lose 2 resources, if able" or "take 1 horror", an investigator with no resources
    must take the horror; with resources, both are offered."""
    state = _start()
    i = state.invs[0]
    _hand(state, 0, "p.rs-toll", "p.rs-toll")
    answer(state, "Play Test Toll")
    assert prompt(state).title == "Choose one"
    answer(state, "Lose 2 resources")
    assert i.resources == 3
    i.resources = 0
    answer(state, "Play Test Toll")
    assert i.horror == 1 and prompt(state).title.startswith("Your turn")


def test_a_fast_card_without_printed_timing_waits_for_its_owners_turn() -> None:
    """Rules Reference, "Fast" (our digest's "Fast" entry): a fast card with no printed timing is played in a
    player window of its owner's turn. Holding one used to open a player window for its owner at every phase
    (issue 30 item 13); now the enemy phase's window asks nothing, and the card is offered again in the turn."""
    state = _start()
    (rally,) = _hand(state, 0, "p.rally")
    assert f"p{rally}" in _ids(state)  # the turn's menu: its owner's turn
    answer(state, "end")
    asked = [p.title for p in api.prompts(state)]
    assert not any(t.startswith("Player window") for t in asked), asked
    assert rally in state.invs[0].hand
