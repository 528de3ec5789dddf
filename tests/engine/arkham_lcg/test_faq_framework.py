"""The FAQ's rulings about the card game's framework, as tests (issue: "every framework ruling of the FAQ that
our framework can express is a test citing it"). This file: actions and attacks of opportunity, triggered
abilities and timing, skill tests and the chaos bag, the act and the agenda. test_faq_cards_and_zones.py holds
the rest (cards and zones, enemies on the board, damage, weaknesses, the campaign). The ruling-by-ruling list,
with the rulings left out and why, is docs/arkham_lcg.md, "FAQ rulings".

Citations: "FAQ §1.10" is a numbered ruling of the FAQ's "Rulings and Clarifications"; "FAQ Q<n>" is the n-th
question of its general "Frequently Asked Questions" (numbered in docs/arkham_lcg.md, "FAQ rulings");
"FAQ errata (<entry>)" is one of its Rules Reference errata; "FAQ QR" is its quick reference on spawning. A few
rules the FAQ presupposes come from the rules digest (`digest A.3`, `digest §7`).

Each test sets a position by editing the state (cards in hand, an enemy at a location) and then plays it
through the public API only.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import api
from engine.arkham_lcg import board
from engine.arkham_lcg.locations import put_into_play
from engine.arkham_lcg.state import EnemyState, LcgState
from engine.core.events import Event
from tests.engine.arkham_lcg.helpers import answer, new, prompt, until

pytestmark = pytest.mark.usefixtures("lcg_pack")


# ---------------------------------------------------------------- positions

def _start(players: int = 1, seed: int = 1, first: int = 0) -> LcgState:
    """A game at the first turn's menu of seat `first`, with every hand empty, no weakness left in any deck (so
    no draw reveals one by chance) and nothing in the encounter deck: each test adds exactly the cards it is
    about."""
    state = new(players=players, seed=seed)
    for p in list(api.prompts(state)):
        if p.title.startswith("Mulligan"):
            answer(state, [], seat=p.seats[0])
    for seat, i in enumerate(state.invs):
        _hand(state, seat)
        for uid in [u for u in i.deck if board.pdef(state, u).weakness]:
            i.deck.remove(uid)
            state.cards[uid].zone = "removed"
    s = board.scen(state)
    for uid in s.encounter_deck:
        state.cards[uid].zone = "removed"
    s.encounter_deck = []
    if players > 1:
        answer(state, f"P{first + 1}")
    assert prompt(state).title.startswith("Your turn") and prompt(state).seats == [first]
    return state


def _hand(state: LcgState, seat: int, *codes: str) -> list[int]:
    """Replace `seat`'s hand: the cards there go to the bottom of its deck, new copies of `codes` come in."""
    i = state.invs[seat]
    for uid in i.hand:
        state.cards[uid].zone = "deck"
        i.deck.insert(0, uid)
    i.hand = [board.new_card(state, code, seat, "hand") for code in codes]
    return list(i.hand)


def _in_play(state: LcgState, seat: int, code: str) -> int:
    """An asset `seat` controls, with its uses."""
    uid = board.new_card(state, code, seat, "play")
    c = board.pdef(state, uid)
    state.cards[uid].uses = c.uses.count if c.uses else 0
    state.invs[seat].play.append(uid)
    return uid


def _on_deck(state: LcgState, seat: int, *codes: str) -> list[int]:
    """Cards on top of `seat`'s deck, the last one topmost."""
    out = [board.new_card(state, code, seat, "deck") for code in codes]
    state.invs[seat].deck.extend(out)
    return out


def _encounter_top(state: LcgState, *codes: str) -> list[int]:
    """Encounter cards on top of the encounter deck, the last one topmost."""
    out = [board.new_card(state, code, None, "encounter_deck") for code in codes]
    board.scen(state).encounter_deck.extend(out)
    return out


def _enemy(state: LcgState, code: str, where: str, engaged: int | None = None, damage: int = 0) -> EnemyState:
    uid = board.new_card(state, code, None, "location")
    e = EnemyState(uid=uid, code=code, location=where, engaged=engaged, health=board.edef(state, uid).health,
                   damage=damage)
    board.scen(state).enemies[uid] = e
    return e


def _at(state: LcgState, seat: int, code: str, clues: int | None = None) -> None:
    """Put `seat` at a revealed location (put into play first if it is not)."""
    loc = put_into_play(state, code)
    loc.revealed = True
    if clues is not None:
        loc.clues = clues
    state.invs[seat].location = code


def _ids(state: LcgState, seat: int | None = None) -> list[str]:
    return [o.id for o in prompt(state, seat).options]


def _labels(state: LcgState, seat: int | None = None) -> list[str]:
    return [o.label for o in prompt(state, seat).options]


def _no_commit(state: LcgState) -> list[Event]:
    """Answer "commit nothing" while a commit question is pending."""
    events: list[Event] = []
    while api.prompts(state) and prompt(state).title.startswith("Commit"):
        events += answer(state, [], seat=prompt(state).seats[0])
    return events


def _result(events: list[Event]) -> dict[str, Any]:
    found = [e.data for e in events if e.kind == "test.result"]
    assert found, "no skill test resolved"
    return found[-1]


def _kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def _act_id(state: LcgState) -> str | None:
    a = board.act(state)
    return a.id if a else None


def _agenda_id(state: LcgState) -> str | None:
    g = board.agenda(state)
    return g.id if g else None


def _title(state: LcgState) -> str:
    return prompt(state).title if api.prompts(state) else ""


# ---------------------------------------------------------------- actions and attacks of opportunity

def test_fight_and_evade_designators_do_not_provoke_and_cost_one_action() -> None:
    """FAQ Q4, Q5 and §1.1: an asset's Fight ability and an event with an Evade designator *are* those actions:
    paying their cost (one action) is all it takes, and neither provokes an attack of opportunity, since fight
    and evade never do. Taking a resource, an action of another kind, does provoke one."""
    state = _start()
    i = state.invs[0]
    _in_play(state, 0, "p.knife")
    _hand(state, 0, "p.duck")
    brute = _enemy(state, "e.faq-brute", "l.gate", engaged=0)
    i.actions = 4  # so the turn does not end (and the enemy phase attack) before the last check
    state.bag = ["-8"]  # the fight misses: the brute has no retaliate, so any damage taken is an AoO
    answer(state, "Test Knife")
    assert i.actions == 3 and i.damage == 0
    state.bag = ["0"]
    answer(state, "Play Test Duck")
    assert i.actions == 2 and i.damage == 0
    assert brute.engaged is None and brute.exhausted  # the evasion succeeded (agility 3 + 2 against 2)
    brute.engaged, brute.exhausted = 0, False
    answer(state, "resource")
    assert i.actions == 1 and i.damage == 1


def test_only_spending_actions_provokes() -> None:
    """FAQ §1.1: attacks of opportunity come only when actions are spent. Spending clues on the act is free (no
    action), so the enemy engaged with you does not attack; drawing a card spends one, so it does."""
    state = _start()
    i = state.invs[0]
    _enemy(state, "e.faq-brute", "l.gate", engaged=0)
    i.clues = 2
    answer(state, "act")
    assert _act_id(state) == "act.one.2"
    assert i.damage == 0 and i.actions == 3
    _on_deck(state, 0, "p.steady")
    answer(state, "draw")
    assert i.damage == 1


def test_costs_are_paid_before_attacks_of_opportunity() -> None:
    """FAQ §1.23 (a played card goes to limbo "after costs are paid and attacks of opportunity are made"; digest
    A.4): playing a card pays its cost first, then the engaged enemies attack, then the card resolves."""
    state = _start()
    _in_play(state, 0, "p.faq-sentry")
    dog, = _hand(state, 0, "p.watchdog")  # cost 2
    _enemy(state, "e.faq-brute", "l.gate", engaged=0)
    answer(state, "Play Test Watchdog")
    # the attack of opportunity has hit
    assert prompt(state).title == "Respond after Test Warden takes damage or horror?"
    assert state.invs[0].resources == 3 and dog not in state.invs[0].hand


def test_a_two_action_ability_needs_both_actions() -> None:
    """FAQ Q61: an ability that costs several actions is paid in full from the actions you have; with one
    action left a two-action ability cannot be used."""
    state = _start()
    i = state.invs[0]
    _in_play(state, 0, "p.faq-hammer")
    _enemy(state, "e.faq-brute", "l.gate", engaged=0)
    i.actions = 1
    assert not any("Test Maul" in label for label in _labels(state))
    i.actions = 3
    state.bag = ["0"]
    events = answer(state, "Test Maul")
    assert i.actions == 1
    assert _result(events)["success"]


def test_two_copies_of_an_action_ability_do_not_stack() -> None:
    """FAQ Q6: each use of an action ability is its own action, resolved in full: with two copies of the knife
    in play, one attack gets one copy's +1 combat and +1 damage only."""
    state = _start()
    k1 = _in_play(state, 0, "p.knife")
    k2 = _in_play(state, 0, "p.knife")
    brute = _enemy(state, "e.faq-brute", "l.gate", engaged=0)
    state.bag = ["0"]
    events = answer(state, f"ab:{k1}:stab")
    assert _result(events)["value"] == 5  # combat 4 + 1 from one knife
    assert brute.damage == 2  # 1 + 1 from one knife
    assert state.cards[k1].uses == 1 and state.cards[k2].uses == 2


def test_a_free_ability_repeats_while_its_cost_can_be_paid() -> None:
    """FAQ Q7: a fast ability with no printed limit may be used as often as its cost can be paid, several times
    in one skill test."""
    state = _start()
    i = state.invs[0]
    _in_play(state, 0, "p.faq-charm")
    i.resources = 2
    state.bag = ["0"]
    answer(state, "investigate")
    assert prompt(state).title == "Player window (before the token)"
    answer(state, "Test Charm")
    assert prompt(state).title == "Player window (before the token)"  # offered again after one use
    events = answer(state, "Test Charm")  # nothing left to pay with: the window closes by itself
    assert i.resources == 0
    assert _result(events)["value"] == 4  # intellect 2 + 2


# ---------------------------------------------------------------- where abilities come from, timing

def test_abilities_come_from_cards_in_play_and_the_location_you_are_at() -> None:
    """FAQ §1.2 and FAQ errata (Costs): you may use the action abilities of cards in play that you control and
    of the location you are at; a card in your hand pays no cost and offers no ability, and a location's
    ability is not offered anywhere else."""
    state = _start()
    _hand(state, 0, "p.knife")
    crypt = put_into_play(state, "l.crypt")
    crypt.revealed = True
    assert not any(label.startswith("Test Knife:") for label in _labels(state))
    assert not any(label.startswith("Test Crypt:") for label in _labels(state))
    state.invs[0].location = "l.crypt"
    assert any(label.startswith("Test Crypt:") for label in _labels(state))


def test_a_treachery_in_a_co_located_threat_area_can_be_used() -> None:
    """FAQ §1.2: an encounter card in the threat area of an investigator who shares your location offers you
    its abilities too."""
    state = _start(players=2)
    shackles = board.new_card(state, "e.faq-shackles", None, "threat")
    state.invs[1].threat.append(shackles)
    assert any(label.startswith("Test Shackles:") for label in _labels(state, 0))


def test_the_current_acts_ability_can_be_used() -> None:
    """FAQ §1.2: the current act's and agenda's triggered abilities may be used by any investigator."""
    state = _start()
    board.scen(state).act_deck = ["act.faq.1"]
    assert any(label.startswith("Test Act Signal:") for label in _labels(state))


def test_two_reactions_answer_one_trigger() -> None:
    """FAQ §1.3: using one reaction to a triggering condition does not stop another reaction to the same
    condition; the window stays open until everyone passes."""
    state = _start()
    i = state.invs[0]
    _in_play(state, 0, "p.faq-trophy")
    brute = _enemy(state, "e.faq-brute", "l.gate", engaged=0, damage=2)
    state.bag = ["0"]
    answer(state, f"fight:{brute.uid}")
    assert prompt(state).title == "Respond after Test Brute is defeated?"
    assert any("Test Warden" in label for label in _labels(state))
    assert any("Test Trophy Case" in label for label in _labels(state))
    answer(state, "Test Warden")
    assert any("Test Trophy Case" in label for label in _labels(state))
    answer(state, "Test Trophy Case")
    assert i.resources == 7


def test_a_reaction_nests_inside_the_action_that_caused_it() -> None:
    """FAQ §1.4: a reaction that causes a new triggering condition runs that condition's whole sequence first
    (last in, first out). Playing an asset provokes an attack; its damage triggers a reaction that defeats the
    enemy; that defeat's reaction resolves; only then does the asset enter play."""
    state = _start()
    _in_play(state, 0, "p.faq-thorns")
    watchdog, = _hand(state, 0, "p.watchdog")
    brute = _enemy(state, "e.faq-brute", "l.gate", engaged=0, damage=2)
    answer(state, "Play Test Watchdog")
    assert prompt(state).title == "Respond after Test Warden takes damage or horror?"
    answer(state, "Test Thorns")
    assert brute.uid not in board.scen(state).enemies  # the attacker is defeated first
    assert prompt(state).title == "Respond after Test Brute is defeated?"
    assert state.cards[watchdog].zone != "play"  # the play the attack interrupted has not resolved yet
    answer(state, "Test Warden")
    assert state.cards[watchdog].zone == "play"


def test_the_lead_investigator_settles_group_choices() -> None:
    """FAQ §1.5: when the investigators must choose between valid options, the lead investigator decides: who
    takes the next turn, and whom an enemy engages when it enters a location with two investigators."""
    state = new(players=2)
    for p in list(api.prompts(state)):
        if p.title.startswith("Mulligan"):
            answer(state, [], seat=p.seats[0])
    p = prompt(state)
    assert p.title == "Who takes the next turn?" and p.seats == [0]
    answer(state, "P2")
    assert state.turn == 1
    stalker = _enemy(state, "e.stalker", "l.hall")
    board.scen(state).locations["l.hall"].revealed = True
    answer(state, "end", seat=1)
    answer(state, "end", seat=0)
    p = until(state, "Whom does")
    assert p.seats == [0] and stalker.location == "l.gate"


def test_after_success_reactions_come_before_the_results() -> None:
    """FAQ §1.7 (and Q15): reactions to succeeding resolve at step 6, before step 7 applies the test's results:
    when the reaction is offered, the clue has not been discovered yet."""
    state = _start()
    _in_play(state, 0, "p.faq-witness")
    state.bag = ["0"]
    answer(state, "investigate")
    assert prompt(state).title == "Respond after Test Warden's skill test succeeds?"
    assert state.invs[0].clues == 0 and board.scen(state).locations["l.gate"].clues == 1
    answer(state, "Test Witness")
    assert state.invs[0].clues == 1


def test_you_is_who_drew_the_card_or_whose_threat_area_holds_it() -> None:
    """FAQ §2.1: in a revelation "you" is the investigator who drew the card; in a card's constant or forced
    text it is the investigator whose threat area holds it."""
    state = _start(players=2, first=1)
    _encounter_top(state, "e.chill")
    lure, = _hand(state, 1, "p.faq-lure")
    state.bag = ["-1"]
    answer(state, f"play:{lure}", seat=1)
    _no_commit(state)
    assert state.invs[1].horror == 1 and state.invs[0].horror == 0  # willpower 3 - 1 against 3: 1 per point
    doubt = board.new_card(state, "p.scholar-doubt", 1, "threat")
    state.invs[1].threat.append(doubt)
    answer(state, "end", seat=1)
    assert state.invs[1].horror == 2 and state.invs[0].horror == 0


def test_engaging_and_being_engaged_are_one_event() -> None:
    """FAQ §2.4: engaging an enemy and being engaged by it are the same thing; "after an enemy engages you"
    answers both the engage action and an enemy that engages you by itself."""
    state = _start()
    i = state.invs[0]
    _in_play(state, 0, "p.faq-greeter")
    loner = _enemy(state, "e.faq-loner", "l.gate")
    answer(state, f"engage:{loner.uid}")
    assert prompt(state).title == "Respond after Test Loner engages Test Warden?"
    answer(state, "Test Greeter")
    assert loner.engaged == 0 and i.resources == 6
    board.scen(state).locations["l.hall"].revealed = True
    _enemy(state, "e.faq-brute", "l.hall")
    answer(state, "move:l.hall")
    assert prompt(state).title == "Respond after Test Brute engages Test Warden?"
    answer(state, "Test Greeter")
    assert i.resources == 7


# ---------------------------------------------------------------- skill tests

def test_ties_succeed_wild_icons_match_and_committed_cards_are_discarded() -> None:
    """FAQ §1.9 and digest A.3 (ST.5, ST.6, ST.8): a wild icon counts for any skill; a skill value equal to the
    difficulty succeeds; the committed card goes to its owner's discard pile when the test ends."""
    state = _start()
    steady, = _hand(state, 0, "p.steady")
    _on_deck(state, 0, "p.knife")
    _at(state, 0, "l.hall", clues=1)  # shroud 2
    state.bag = ["-1"]
    answer(state, "investigate")
    assert prompt(state).title.startswith("Commit")
    events = answer(state, ["Test Steady"])
    result = _result(events)
    assert result["success"] and result["value"] == 2  # intellect 2 - 1 + 1 wild, against 2
    assert state.cards[steady].zone == "discard" and steady in state.invs[0].discard
    assert state.invs[0].clues == 1


def test_auto_fail_fails_even_against_difficulty_zero() -> None:
    """FAQ Q13: the auto-fail token makes the skill value 0 and the test fails whatever the difficulty, even
    a difficulty of 0."""
    state = _start()
    _at(state, 0, "l.faq-island", clues=1)  # shroud 0
    state.bag = ["auto_fail"]
    events = answer(state, "investigate")
    result = _result(events)
    assert result["success"] is False and result["value"] == 0
    assert state.invs[0].clues == 0


def test_only_one_card_from_each_other_investigator_and_its_effect_is_theirs() -> None:
    """Digest A.3 ST.2 and FAQ Q10: another investigator at the tester's location may commit one card, one
    elsewhere none; the committed skill's own effect (draw 1) goes to the investigator who committed it."""
    state = _start(players=2)
    _hand(state, 1, "p.steady", "p.steady")
    _on_deck(state, 1, "p.knife")
    state.bag = ["0"]
    answer(state, "investigate", seat=0)
    p = prompt(state, 1)
    assert p.title.startswith("Commit cards to P1's") and p.max_choices == 1
    answer(state, ["Test Steady"], seat=1)
    assert len(state.invs[1].hand) == 2  # one committed, one drawn by its effect
    assert len(state.invs[0].hand) == 0
    state.invs[1].location = "l.hall"
    board.scen(state).locations["l.gate"].clues = 1
    answer(state, "investigate", seat=0)
    assert not any(1 in p.seats for p in api.prompts(state))  # not at the location: not asked


def test_a_skill_that_changes_the_result_helps_the_tester() -> None:
    """FAQ Q10: a committed skill that changes the test's result (an extra clue) benefits the investigator
    making the test, even when another investigator committed it."""
    state = _start(players=2)
    board.scen(state).locations["l.gate"].clues = 3
    _hand(state, 1, "p.faq-insight")
    state.bag = ["0"]
    answer(state, "investigate", seat=0)
    answer(state, ["Test Insight"], seat=1)
    assert state.invs[0].clues == 2 and state.invs[1].clues == 0


def test_automatic_success_known_before_the_token_skips_the_reveal() -> None:
    """FAQ §2.9: when a test is known to succeed automatically before step 3, no chaos token is revealed
    (steps 3 and 4 are skipped), and the rest of the test resolves: its skill value is still determined and
    the clue is discovered."""
    state = _start()
    _in_play(state, 0, "p.faq-sure")
    _at(state, 0, "l.crypt", clues=2)  # shroud 3
    state.bag = ["auto_fail"]
    answer(state, "investigate")
    assert prompt(state).title == "Respond after Test Warden's skill test begins?"
    events = answer(state, "Test Sure Thing")
    assert "test.token" not in _kinds(events)
    assert state.bag == ["auto_fail"]
    result = _result(events)
    assert result["success"] and result["value"] == 2  # intellect 2, computed all the same
    assert state.invs[0].clues == 1


def test_cards_may_still_be_committed_to_an_automatic_test() -> None:
    """FAQ §2.9: a test that succeeds automatically before the token still takes place, and cards may still be
    committed to it."""
    state = _start()
    _in_play(state, 0, "p.faq-sure")
    _hand(state, 0, "p.steady")
    answer(state, "investigate")
    answer(state, "Test Sure Thing")
    assert prompt(state).title.startswith("Commit")


def test_auto_fail_wins_over_auto_success() -> None:
    """FAQ Q23: a test that both succeeds and fails automatically fails."""
    state = _start()
    _in_play(state, 0, "p.faq-late")
    state.bag = ["auto_fail"]
    answer(state, "investigate")
    assert prompt(state).title == "Respond after the chaos token is revealed?"
    events = answer(state, "Test Last Word")
    assert _result(events)["success"] is False


def test_a_test_started_during_a_test_waits_for_it() -> None:
    """FAQ §1.17: a skill test cannot start during another; it waits until the first test, and the action it
    belongs to, have finished."""
    state = _start()
    _hand(state, 0, "p.faq-flash")
    state.bag = ["0", "0"]
    answer(state, "investigate")
    assert prompt(state).title == "Player window (before the token)"
    events = answer(state, "Play Test Flash of Doubt")
    results = [e.cause for e in events if e.kind == "test.result"]
    assert results == ["investigate", "p.faq-flash"]


def test_a_waiting_test_also_waits_for_the_rest_of_the_action() -> None:
    """FAQ §1.17: when the first test belongs to an action, the second test waits until that whole action has
    resolved, not only the first test: an event that investigates and then gives a resource gives it before
    the waiting test begins."""
    state = _start()
    _hand(state, 0, "p.faq-probe", "p.faq-flash")
    state.bag = ["0", "0"]
    answer(state, "Play Test Probe")
    assert prompt(state).title == "Player window (before the token)"
    events = answer(state, "Play Test Flash of Doubt")
    kinds = [(e.kind, e.cause) for e in events]
    gained = kinds.index(("resources", "p.faq-probe"))
    second = kinds.index(("test.begin", "p.faq-flash"))
    assert gained < second


def test_for_each_point_is_one_cumulative_effect() -> None:
    """FAQ §2.23: "1 horror per point the test fails by" can be worked out at once, so it is one instance of
    horror, not one per point: a reaction to taking horror is offered once."""
    state = _start()
    _in_play(state, 0, "p.faq-sentry")
    _encounter_top(state, "e.chill")
    _hand(state, 0, "p.faq-lure")
    state.bag = ["-2"]  # willpower 3 - 2 = 1 against 3: fails by 2
    answer(state, "Play Test Lure")
    assert prompt(state).title == "Respond after Test Warden takes damage or horror?"
    answer(state, "pass")
    assert state.invs[0].horror == 2
    assert _title(state) != "Respond after Test Warden takes damage or horror?"


# ---------------------------------------------------------------- the chaos bag

def test_bless_is_capped_and_leaves_the_bag_after_a_test() -> None:
    """FAQ Q42 and digest §6: adding bless tokens beyond the 10 in the pool adds as many as remain; a bless
    token revealed in a test goes back to the token pool, not the bag, when the test ends. Curse likewise."""
    state = _start()
    _hand(state, 0, "p.faq-prayer", "p.faq-hex")
    state.bag = ["0"] + ["bless"] * 8
    answer(state, "Play Test Prayer")
    assert state.bag.count("bless") == 10
    answer(state, "Play Test Hex")
    assert state.bag.count("curse") == 3
    state.bag = ["bless"]
    events = answer(state, "investigate")
    assert [e.data["token"] for e in events if e.kind == "test.token"][0] == "bless"
    assert "bless" not in state.bag


# ---------------------------------------------------------------- act, agenda, doom

def test_a_card_the_act_puts_into_play_was_not_drawn() -> None:
    """FAQ Q17: an encounter card that an act or agenda puts into play enters play as if drawn, but nobody drew
    it: "after you draw an encounter card" does not answer it (it does answer a real draw)."""
    state = _start()
    i = state.invs[0]
    _in_play(state, 0, "p.faq-listener")
    i.clues = 2
    answer(state, "act")  # the first act's advance spawns the stalker at the crypt
    assert any(e.code == "e.stalker" for e in board.scen(state).enemies.values())
    assert _title(state).startswith("Your turn") and i.resources == 5
    _encounter_top(state, "e.faq-bruise")
    _hand(state, 0, "p.faq-lure")
    answer(state, "Play Test Lure")
    assert prompt(state).title == "Respond after Test Warden draws Test Bruise?"


def test_the_act_takes_clues_from_the_group_per_investigator() -> None:
    """Digest §8-9: a location's clues are per investigator unless it says otherwise; the investigators spend
    the act's clues (here 2 per investigator) as a group, from any of them, during a turn."""
    state = _start(players=2)
    s = board.scen(state)
    assert s.locations["l.gate"].clues == 2  # 1 per investigator
    answer(state, "move:l.hall", seat=0)
    assert s.locations["l.hall"].clues == 2  # 1 per investigator
    answer(state, "move:l.crypt", seat=0)
    assert s.locations["l.crypt"].clues == 2  # printed as a fixed 2, whatever the number of investigators
    state.invs[0].clues, state.invs[1].clues = 1, 3
    answer(state, "act", seat=0)
    assert _act_id(state) == "act.one.2"
    assert state.invs[0].clues == 0 and state.invs[1].clues == 0


def test_doom_is_checked_only_in_the_mythos_phase() -> None:
    """Digest A.2 (1.2-1.3): doom placed during a turn that reaches the agenda's threshold does nothing until
    the next mythos phase checks it, after placing that phase's doom."""
    state = _start()
    s = board.scen(state)
    s.agenda_doom = 2
    _hand(state, 0, "p.faq-bargain")
    answer(state, "Play Test Bargain")
    assert s.agenda_doom == 3 and _agenda_id(state) == "agenda.one.1"
    answer(state, "end")
    until(state, "Your turn")
    assert _agenda_id(state) == "agenda.one.2"
    assert s.agenda_doom == 0 and state.invs[0].horror == 1
