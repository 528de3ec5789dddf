"""The FAQ's rulings about the card game's framework, as tests (second file; see test_faq_framework.py for the
citation scheme and the way positions are set): cards and zones (limbo, the discard, slots, permanent cards,
drawing), weaknesses, enemies on the board (spawning, engagement, keywords), locations and clues, damage and
healing, and the campaign between scenarios.
"""

from __future__ import annotations

import pytest

from engine import api
from engine.arkham_lcg import board
from engine.arkham_lcg.locations import put_into_play
from engine.arkham_lcg.state import LcgState
from engine.core import flow
from tests.engine.arkham_lcg.helpers import answer, new, prompt
from tests.engine.arkham_lcg.test_faq_framework import (
    _at,
    _encounter_top,
    _enemy,
    _hand,
    _ids,
    _in_play,
    _kinds,
    _labels,
    _on_deck,
    _result,
    _start,
    _title,
)

pytestmark = pytest.mark.usefixtures("lcg_pack")


def _win_scenario_one(state: LcgState) -> None:
    """One investigator spends the clues of both acts: scenario one ends with its first resolution."""
    i = state.invs[0]
    i.clues = 2
    answer(state, "act")
    i.clues = 1
    answer(state, "act")
    assert state.campaign.results[-1] == "one:R1:win"


def _next_scenario(state: LcgState) -> None:
    """Between scenarios: spend no experience, then keep the next scenario's opening hands."""
    while api.prompts(state) and prompt(state).title.startswith("Spend experience"):
        answer(state, "done")
    for p in list(api.prompts(state)):
        if p.title.startswith("Mulligan"):
            answer(state, [], seat=p.seats[0])


# ---------------------------------------------------------------- cards in limbo, the discard pile, play areas

def test_events_and_treacheries_wait_in_limbo_while_they_resolve() -> None:
    """FAQ §1.23: an event is in limbo while it resolves (after its costs), a drawn treachery while its
    revelation resolves, a skill while it is committed: in no hand, no discard pile, not in play. Afterwards
    each goes to its discard pile."""
    state = _start()
    lure, steady = _hand(state, 0, "p.faq-lure", "p.steady")
    chill, = _encounter_top(state, "e.chill")
    _on_deck(state, 0, "p.knife")
    state.bag = ["0"]
    answer(state, "Play Test Lure")
    assert prompt(state).title.startswith("Commit")  # the chill's willpower test
    i = state.invs[0]
    assert state.cards[lure].zone == "limbo" and lure not in i.hand and lure not in i.discard
    assert state.cards[chill].zone == "limbo" and chill not in board.scen(state).encounter_discard
    answer(state, ["Test Steady"])
    assert state.cards[lure].zone == "discard" and lure in i.discard
    assert state.cards[chill].zone == "encounter_discard" and chill in board.scen(state).encounter_discard
    assert state.cards[steady].zone == "discard"


def test_an_event_is_discarded_before_after_you_play_and_its_lasting_effect_stays() -> None:
    """FAQ Q59 and Q60: a played event is placed in the discard pile (play step 4) before "after you play"
    reactions; a lasting effect it created keeps applying after the event has left, until its duration ends."""
    state = _start()
    _in_play(state, 0, "p.faq-ledger")
    omen, = _hand(state, 0, "p.faq-omen")
    answer(state, "Play Test Omen")
    assert prompt(state).title == "Respond after Test Warden plays Test Omen?"
    assert state.cards[omen].zone == "discard"
    answer(state, "Test Ledger")
    state.bag = ["0"]
    events = answer(state, "investigate")
    assert _result(events)["value"] == 4  # intellect 2, +2 from the discarded event
    answer(state, "end")
    assert state.invs[0].lasting == []


def test_a_new_asset_discards_one_from_a_full_slot() -> None:
    """FAQ errata (Slots): an asset that would go over a slot limit makes its controller discard assets from
    that slot as it enters; with a choice, the controller picks which."""
    state = _start()
    i = state.invs[0]
    old_dog = _in_play(state, 0, "p.watchdog")
    new_dog, = _hand(state, 0, "p.watchdog")
    answer(state, "Play Test Watchdog")
    assert state.cards[old_dog].zone == "discard" and state.cards[new_dog].zone == "play"
    k1 = _in_play(state, 0, "p.knife")
    k2 = _in_play(state, 0, "p.knife")
    maul, = _hand(state, 0, "p.faq-hammer")
    answer(state, "Play Test Maul")
    assert prompt(state).title == "Your hand slots are full: discard which asset?"
    answer(state, f"a{k2}")
    assert state.cards[k2].zone == "discard" and state.cards[k1].zone == "play" and maul in i.play


def test_a_permanent_card_cannot_leave_play() -> None:
    """FAQ errata (Permanent): a permanent card cannot leave play (except by elimination): an effect that makes
    you discard an asset cannot take it."""
    state = _start()
    totem = _in_play(state, 0, "p.faq-totem")
    _encounter_top(state, "e.faq-rust")
    _hand(state, 0, "p.faq-lure")
    answer(state, "Play Test Lure")
    assert state.cards[totem].zone == "play"


# ---------------------------------------------------------------- drawing

def test_drawing_from_an_empty_deck_reshuffles_then_costs_one_horror() -> None:
    """Digest §12 (empty deck): drawing from an empty deck shuffles the discard pile in as the new deck, the
    draw happens, and then the investigator takes 1 horror."""
    state = _start()
    i = state.invs[0]
    for uid in i.deck:
        state.cards[uid].zone = "discard"
    i.discard, i.deck = i.deck, []
    held = len(i.discard)
    answer(state, "draw")
    assert len(i.hand) == 1 and len(i.deck) == held - 1 and i.discard == []
    assert i.horror == 1


def test_cards_drawn_together_are_drawn_before_their_revelations() -> None:
    """FAQ Q35: cards drawn by one effect are drawn at the same time (unless it says "one at a time"); only
    then do their revelations resolve."""
    state = _start()
    _on_deck(state, 0, "p.knife", "p.warden-grudge")  # the weakness on top
    _hand(state, 0, "p.faq-ponder")
    events = answer(state, "Play Test Ponder")
    kinds = _kinds(events)
    assert kinds.count("draw.card") == 2
    assert max(n for n, k in enumerate(kinds) if k == "draw.card") < kinds.index("weakness.drawn")


def test_hand_size_discards_never_take_a_weakness() -> None:
    """FAQ Q51 (and upkeep 4.5): the cards discarded down to the hand size are chosen, and a weakness cannot be
    chosen."""
    state = _start()
    i = state.invs[0]
    grudge = board.new_card(state, "p.warden-grudge", 0, "hand")
    _hand(state, 0, *["p.steady"] * 9)
    i.hand.append(grudge)
    _on_deck(state, 0, "p.knife")
    answer(state, "end")
    p = prompt(state)
    assert p.title == "Discard 3 cards down to your hand size"
    assert f"h{grudge}" not in [o.id for o in p.options] and len(p.options) == 10
    answer(state, [o.id for o in p.options[:3]])
    assert grudge in i.hand and len(i.hand) == 8


# ---------------------------------------------------------------- weaknesses

def test_a_weakness_is_a_player_card_until_it_resolves() -> None:
    """FAQ §1.12 and Q31: a treachery weakness drawn from your deck is not an encounter card when it is drawn,
    so a card that answers the drawing of a treachery cannot be played on it; it can on a treachery drawn from
    the encounter deck."""
    state = _start()
    i = state.invs[0]
    parry, lure = _hand(state, 0, "p.faq-parry", "p.faq-lure")
    grudge, = _on_deck(state, 0, "p.warden-grudge")
    answer(state, "draw")
    assert i.horror == 1 and state.cards[grudge].zone == "discard"
    assert _title(state).startswith("Your turn")
    _encounter_top(state, "e.faq-scorch")
    answer(state, "Play Test Lure")
    assert prompt(state).title == "Respond before Test Warden draws Test Scorch?"
    answer(state, "Play Test Parry")
    assert i.damage == 0 and state.cards[parry].zone == "discard"


def test_a_defeated_enemy_weakness_goes_to_its_owners_discard() -> None:
    """FAQ §1.12 and digest §7: an enemy weakness spawns engaged with the investigator who drew it and, once
    defeated, goes back to its owner's discard pile (it stays part of their deck), not to the encounter
    discard pile."""
    state = _start()
    lurker, = _on_deck(state, 0, "p.lurker")
    answer(state, "draw")
    e = board.scen(state).enemies[lurker]
    assert e.engaged == 0
    e.damage = e.health - 1
    state.bag = ["0"]
    answer(state, f"fight:{lurker}")
    assert state.cards[lurker].zone == "discard" and lurker in state.invs[0].discard
    assert lurker not in board.scen(state).encounter_discard


def test_the_basic_weakness_pool_is_shared() -> None:
    """FAQ Q14: random basic weaknesses come from one pool shared by the whole group; two investigators never
    get the same one from a pool of one copy each."""
    state = new(players=2)
    basics = [c for c in board.content(state).basic_weaknesses()]
    dealt = [next(cid for cid in rec.deck if cid in basics) for rec in state.campaign.investigators]
    assert sorted(dealt) == sorted(basics) and state.campaign.weakness_pool == []


def test_a_weakness_drawn_for_the_opening_hand_is_replaced() -> None:
    """Digest A.1 step 4 (with FAQ §2.6 on what an opening hand is): a weakness drawn for the opening hand is set
    aside and replaced, and goes back into the deck afterwards."""
    state = _start()
    state.campaign.investigators[0].deck = {"p.knife": 5, "p.warden-grudge": 1}  # for the next scenario
    _win_scenario_one(state)
    while prompt(state).title.startswith("Spend experience"):
        answer(state, "done")
    assert prompt(state).title.startswith("Mulligan")
    i = state.invs[0]
    assert sorted(board.pdef(state, u).id for u in i.hand) == ["p.knife"] * 5
    assert [board.pdef(state, u).id for u in i.deck] == ["p.warden-grudge"]


# ---------------------------------------------------------------- locations and clues

def test_clues_and_enemies_on_an_unrevealed_location_stay_when_it_is_revealed() -> None:
    """FAQ Q8: clues and cards already at an unrevealed location stay there when it is revealed; its printed
    clues are added to them."""
    state = _start()
    s = board.scen(state)
    s.locations["l.hall"].clues = 1
    brute = _enemy(state, "e.faq-brute", "l.hall")
    answer(state, "move:l.hall")
    assert s.locations["l.hall"].revealed and s.locations["l.hall"].clues == 2
    assert brute.location == "l.hall" and brute.engaged == 0


def test_investigating_a_location_without_clues() -> None:
    """FAQ Q1: a location with no clues may be investigated; a success discovers nothing but is still a
    success, so reactions to succeeding trigger."""
    state = _start()
    board.scen(state).locations["l.gate"].clues = 0
    _in_play(state, 0, "p.faq-witness")
    state.bag = ["0"]
    answer(state, "investigate")
    assert prompt(state).title == "Respond after Test Warden's skill test succeeds?"
    answer(state, "Test Witness")
    assert state.invs[0].clues == 0 and state.invs[0].resources == 6


def test_clues_at_a_location_are_the_clues_on_it() -> None:
    """FAQ Q2: clues are "at a location" only when they are on the location card: your own clues do not count,
    so a card needing a clue at your location cannot be played until one is there."""
    state = _start()
    _hand(state, 0, "p.faq-sift")
    board.scen(state).locations["l.gate"].clues = 0
    state.invs[0].clues = 2
    assert not any(i.startswith("play:") for i in _ids(state))
    board.scen(state).locations["l.gate"].clues = 1
    answer(state, "Play Test Sift")
    assert state.invs[0].clues == 3


def test_removing_a_location_someone_is_at_is_ignored() -> None:
    """FAQ §1.21: investigators and enemies must always be at a location; an effect that would leave one at no
    location is ignored. Once nobody is there, the location can leave play."""
    state = _start()
    _hand(state, 0, "p.faq-collapse", "p.faq-collapse")
    answer(state, "Play Test Collapse")
    assert "l.gate" in board.scen(state).locations and state.invs[0].location == "l.gate"
    answer(state, "move:l.hall")
    answer(state, "Play Test Collapse")
    assert "l.gate" not in board.scen(state).locations


# ---------------------------------------------------------------- enemies

def test_only_enemy_phase_attacks_exhaust() -> None:
    """FAQ Q32: an enemy exhausts after its enemy-phase attack (step 3.3) only; its attack of opportunity and
    its retaliate attack leave it ready."""
    state = _start()
    _in_play(state, 0, "p.faq-sentry")
    stalker = _enemy(state, "e.stalker", "l.gate", engaged=0)
    answer(state, "resource")
    assert prompt(state).title == "Respond after Test Warden takes damage or horror?" and not stalker.exhausted
    answer(state, "pass")
    state.bag = ["auto_fail"]
    answer(state, f"fight:{stalker.uid}")
    assert prompt(state).title == "Respond after Test Warden takes damage or horror?" and not stalker.exhausted
    answer(state, "pass")
    answer(state, "end")
    assert prompt(state).title == "Respond after Test Warden takes damage or horror?" and stalker.exhausted


def test_alert_and_retaliate_attack_without_exhausting() -> None:
    """FAQ Q32 and digest §7: a failed evasion of an alert enemy makes it attack; a failed attack on a ready
    retaliate enemy makes it attack, but not while it is exhausted; neither attack exhausts it."""
    state = _start()
    i = state.invs[0]
    alarm = _enemy(state, "e.faq-alarm", "l.gate", engaged=0)
    state.bag = ["auto_fail"]
    answer(state, f"evade:{alarm.uid}")
    assert (i.damage, i.horror) == (1, 1) and not alarm.exhausted and alarm.engaged == 0
    del board.scen(state).enemies[alarm.uid]
    stalker = _enemy(state, "e.stalker", "l.gate")
    stalker.exhausted = True
    state.bag = ["auto_fail"]
    answer(state, f"fight:{stalker.uid}")
    assert (i.damage, i.horror) == (1, 1)


def test_a_hunter_moves_toward_the_nearest_investigator_and_needs_a_path() -> None:
    """Digest §7 (hunter) and FAQ Q21: in the enemy phase a hunter moves one location toward the nearest
    investigator and engages on arrival; a hunter with no path to any investigator does not move."""
    state = _start()
    s = board.scen(state)
    s.locations["l.hall"].revealed = True
    near = _enemy(state, "e.stalker", "l.hall")
    put_into_play(state, "l.faq-island").revealed = True
    stranded = _enemy(state, "e.stalker", "l.faq-island")
    answer(state, "end")
    assert near.location == "l.gate" and near.engaged == 0
    assert stranded.location == "l.faq-island"


def test_a_massive_enemy_is_engaged_with_everyone_there_and_attacks_each() -> None:
    """Digest §7 (massive): a massive enemy counts as engaged with every investigator at its location, cannot
    be engaged by the engage action, and in the enemy phase attacks each of them."""
    state = _start(players=2)
    hulk = _enemy(state, "e.faq-hulk", "l.gate")
    assert not any(i.startswith("engage:") for i in _ids(state, 0))
    assert hulk.uid in [e.uid for e in board.engaged(state, 0)]
    assert hulk.uid in [e.uid for e in board.engaged(state, 1)]
    answer(state, "end", seat=0)
    answer(state, "end", seat=1)
    assert state.invs[0].damage == 1 and state.invs[1].damage == 1


def test_an_aloof_enemy_engages_only_by_the_engage_action() -> None:
    """FAQ QR (spawning) and digest §7 (aloof): a drawn aloof enemy spawns at your location without engaging
    you, stays unengaged when turns end, and is engaged by the engage action."""
    state = _start()
    _encounter_top(state, "e.faq-loner")
    _hand(state, 0, "p.faq-lure")
    answer(state, "Play Test Lure")
    loner = next(e for e in board.scen(state).enemies.values() if e.code == "e.faq-loner")
    assert loner.location == "l.gate" and loner.engaged is None
    answer(state, f"engage:{loner.uid}")
    assert loner.engaged == 0


def test_an_unengaged_aloof_enemy_cannot_be_attacked() -> None:
    """Digest §7 (aloof, confirmed by the FAQ's taboo text "ignoring the aloof keyword"): an aloof enemy no one
    is engaged with cannot be attacked."""
    state = _start()
    loner = _enemy(state, "e.faq-loner", "l.gate")
    assert f"fight:{loner.uid}" not in _ids(state)


def test_drawn_enemies_spawn_by_their_instruction_or_engaged_with_the_drawer() -> None:
    """FAQ QR (spawning an enemy): a drawn enemy without a spawn instruction spawns engaged with the drawer; one
    with an instruction spawns at that location and engages only an investigator there."""
    state = _start()
    _encounter_top(state, "e.faq-prowler", "e.faq-brute")
    _hand(state, 0, "p.faq-lure", "p.faq-lure")
    answer(state, "Play Test Lure")
    brute = next(e for e in board.scen(state).enemies.values() if e.code == "e.faq-brute")
    assert brute.location == "l.gate" and brute.engaged == 0
    state.invs[0].actions = 3
    brute.exhausted = True  # no attack of opportunity on the next play
    answer(state, "Play Test Lure")
    prowler = next(e for e in board.scen(state).enemies.values() if e.code == "e.faq-prowler")
    assert prowler.location == "l.hall" and prowler.engaged is None


def test_an_enemy_spawned_by_an_effect_engages_by_the_normal_rules() -> None:
    """FAQ QR (spawning an enemy, 1): an enemy spawned by an effect, not drawn, engages an investigator at its
    location by the engagement rules: with two there, the lead investigator chooses (§1.5)."""
    state = _start(players=2, first=1)
    for seat in (0, 1):
        _at(state, seat, "l.crypt")
    state.invs[1].clues = 4
    answer(state, "act", seat=1)  # the first act's advance spawns the stalker at the crypt
    p = prompt(state)
    assert p.title.startswith("Whom does Test Stalker engage") and p.seats == [0]


def test_an_enemy_with_nowhere_to_spawn_is_discarded() -> None:
    """FAQ §1.21: an enemy must always be at a location. An effect that would spawn one at a location that is
    not in play spawns nothing; the enemy goes to the encounter discard pile (the engine's rule for an enemy
    with nowhere to spawn)."""
    state = _start()
    _encounter_top(state, "e.faq-portal")
    _hand(state, 0, "p.faq-lure")
    answer(state, "Play Test Lure")
    s = board.scen(state)
    assert all(e.location in s.locations for e in s.enemies.values())
    assert any(state.cards[u].code == "e.faq-brute" for u in s.encounter_discard)


def test_each_swarm_card_is_its_own_enemy(monkeypatch: pytest.MonkeyPatch) -> None:
    """FAQ Q38 and Q48: each swarm card is a separate enemy: when a swarming enemy engages you, a reaction to
    being engaged triggers once for each of them, and each takes its own damage."""
    monkeypatch.setattr(flow, "MAX_AUTO_STEPS", 5000)  # a rules loop fails in milliseconds, not seconds
    state = _start()
    i = state.invs[0]
    _in_play(state, 0, "p.faq-greeter")
    _encounter_top(state, "e.faq-swarm")
    _hand(state, 0, "p.faq-lure")
    answer(state, "Play Test Lure")
    for _ in range(3):
        assert prompt(state).title == "Respond after Test Swarm engages Test Warden?"
        answer(state, "Test Greeter")
    swarm = [e for e in board.scen(state).enemies.values() if e.code == "e.faq-swarm"]
    assert len(swarm) == 3 and all(e.engaged == 0 for e in swarm)
    assert i.resources == 8
    state.bag = ["0"]
    answer(state, f"fight:{swarm[0].uid}")
    assert swarm[0].uid not in board.scen(state).enemies
    assert all(e.damage == 0 for e in swarm[1:])


def test_surge_draws_another_encounter_card() -> None:
    """Digest §11 (surge): after an encounter card with surge resolves, the same investigator draws another."""
    state = _start()
    i = state.invs[0]
    chill, gust = _encounter_top(state, "e.chill", "e.gust")  # the gust on top
    _hand(state, 0, "p.faq-lure")
    state.bag = ["0"]
    events = answer(state, "Play Test Lure")
    assert i.resources == 4
    assert [e.cause for e in events if e.kind == "test.begin"] == ["e.chill"]
    assert board.scen(state).encounter_discard == [gust, chill]


# ---------------------------------------------------------------- enemies you may target

def test_evade_targets_your_enemies_but_a_card_may_reach_further() -> None:
    """FAQ Q11, Q25 and §2.9: the evade action targets only enemies engaged with you ("engaged enemy" means
    engaged with you); a card may evade any enemy at your location. Automatically evading is not a skill test,
    so it is not a successful evasion: no test is made, the enemy is exhausted and disengaged."""
    state = _start(players=2)
    _in_play(state, 0, "p.faq-cat")
    _in_play(state, 0, "p.faq-witness")
    brute = _enemy(state, "e.faq-brute", "l.gate", engaged=1)
    ids = _ids(state, 0)
    assert f"evade:{brute.uid}" not in ids and f"fight:{brute.uid}" in ids
    events = answer(state, "Test Alley Cat", seat=0)
    assert "test.begin" not in _kinds(events)
    assert brute.exhausted and brute.engaged is None
    assert _title(state).startswith("Your turn")  # no "after you succeed" window


# ---------------------------------------------------------------- damage and healing

def test_damage_dealt_to_you_may_go_to_your_assets_but_direct_damage_may_not() -> None:
    """FAQ §2.12 and digest §12: damage dealt to "you" may be assigned to your assets, and it is still damage
    dealt to you (a reaction to taking damage triggers); direct damage goes on your investigator only."""
    state = _start()
    i = state.invs[0]
    _in_play(state, 0, "p.faq-sentry")
    dog = _in_play(state, 0, "p.watchdog")
    _hand(state, 0, "p.faq-lure", "p.faq-lure")
    _encounter_top(state, "e.faq-scorch", "e.faq-bruise")
    answer(state, "Play Test Lure")
    assert prompt(state).title.startswith("Assign 1 damage")
    answer(state, "Test Watchdog")
    assert state.cards[dog].damage == 1 and i.damage == 0
    assert prompt(state).title == "Respond after Test Warden takes damage or horror?"
    answer(state, "Test Sentry")
    events = answer(state, "Play Test Lure")
    assert not any(e.kind == "asset.damage" for e in events)
    assert i.damage == 1 and state.cards[dog].damage == 1
    assert prompt(state).title == "Respond after Test Warden takes damage or horror?"


def test_heal_without_a_target_heals_your_investigator() -> None:
    """FAQ Q9: "heal 1 damage" with no target means from your investigator; an asset can be healed only by a
    card that says so."""
    state = _start()
    i = state.invs[0]
    dog = _in_play(state, 0, "p.watchdog")
    state.cards[dog].damage = 1
    i.damage = 1
    _hand(state, 0, "p.faq-mend")
    answer(state, "Play Test Mend")
    assert i.damage == 0 and state.cards[dog].damage == 1


# ---------------------------------------------------------------- leaving a scenario, the campaign

def test_resigning_is_no_defeat() -> None:
    """Digest §12 and FAQ errata (resolutions after a resignation): resigning (a location's action ability)
    takes the investigator out of the scenario without trauma; with nobody left, the scenario ends with no
    resolution."""
    state = _start()
    _at(state, 0, "l.crypt", clues=0)
    state.invs[0].clues = 1
    answer(state, "Test Crypt: Resign")
    rec = state.campaign.investigators[0]
    assert state.campaign.results[-1].startswith("one:none")
    assert rec.physical_trauma == 0 and rec.mental_trauma == 0


def test_a_defeated_investigators_encounter_cards_go_to_the_encounter_discard() -> None:
    """Digest §12 (elimination), which FAQ §1.22 refers to: when an investigator is eliminated, the encounter
    cards in their threat area go to the encounter discard pile; their own cards go to their discard pile."""
    state = _start(players=2)
    shackles = board.new_card(state, "e.faq-shackles", None, "threat")
    state.invs[0].threat.append(shackles)
    knife = _in_play(state, 0, "p.knife")
    state.invs[0].horror = board.max_sanity(state, 0) - 1
    _encounter_top(state, "e.chill")
    _hand(state, 0, "p.faq-lure")
    state.bag = ["auto_fail"]
    answer(state, "Play Test Lure", seat=0)
    assert state.invs[0].status == "defeated_horror"
    s = board.scen(state)
    assert shackles in s.encounter_discard and state.cards[shackles].zone == "encounter_discard"
    assert state.cards[knife].zone == "discard" and knife in state.invs[0].discard


def test_defeat_by_damage_is_physical_trauma_and_the_log_changes_the_next_setup() -> None:
    """Digest §12 (trauma) and FAQ Definitions ("Record in your Campaign Log"): an investigator defeated by
    damage suffers 1 physical trauma and begins the next scenario with 1 damage; the resolution records its
    phrase exactly, and the next scenario's setup reads it (1 doom on the agenda)."""
    state = _start()
    i = state.invs[0]
    i.damage = board.max_health(state, 0) - 1
    _enemy(state, "e.faq-brute", "l.gate", engaged=0)
    answer(state, "resource")
    camp = state.campaign
    assert camp.results[-1] == "one:none:loss"
    assert "the gate stayed open" in camp.log and camp.investigators[0].physical_trauma == 1
    _next_scenario(state)
    assert board.scen(state).id == "two"
    assert state.invs[0].damage == 1 and board.scen(state).agenda_doom == 1


def test_experience_comes_from_the_victory_display_and_the_resolution() -> None:
    """Digest §9 (victory display): each investigator earns the victory points of the enemies in the victory
    display and of the revealed locations with no clues left, plus the resolution's experience."""
    state = _start()
    watcher = _enemy(state, "e.watcher", "l.gate", engaged=0, damage=2)
    state.bag = ["0"]
    answer(state, f"fight:{watcher.uid}")
    answer(state, "pass")  # the warden's reaction to a defeat
    assert watcher.uid in board.scen(state).victory
    _at(state, 0, "l.crypt", clues=0)  # a victory 1 location, revealed, no clues left
    state.invs[0].location = "l.gate"
    _win_scenario_one(state)
    assert state.campaign.investigators[0].xp_earned == 3  # watcher 1 + crypt 1 + resolution 1


def test_bless_tokens_and_remembered_facts_end_with_the_scenario() -> None:
    """FAQ Q46, Q55 and Definitions ("Remember that..."): bless and curse tokens leave the chaos bag when the
    scenario is over and do not reach the next one; a remembered fact lasts only for its scenario."""
    state = _start()
    _hand(state, 0, "p.faq-prayer", "p.faq-vow")
    answer(state, "Play Test Prayer")
    answer(state, "Play Test Vow")
    assert state.bag.count("bless") == 3 and "the vow was spoken" in board.scen(state).remembered
    _win_scenario_one(state)
    _next_scenario(state)
    assert board.scen(state).id == "two"
    assert "bless" not in state.bag and board.scen(state).remembered == []
    assert sorted(state.bag) == sorted(state.campaign.bag)


def test_the_upgrade_menu_prices_and_signatures() -> None:
    """FAQ §1.8, §1.18, Definitions ("Signature cards"), FAQ errata (Permanent) and Q24: a new level-0 card
    bought for a card taken out costs 1 experience; a deck short of its size (here one copy was lost) refills
    with level-0 cards for free; no other investigator's signature card and no second copy of your own is ever
    offered; a permanent card is never offered to be swapped out, and it starts the next scenario in play."""
    state = _start()
    rec = state.campaign.investigators[0]
    rec.deck["p.duck"] = 1  # one copy lost: the deck is 1 card short of its 10
    rec.deck["p.faq-totem"] = 1
    _win_scenario_one(state)
    assert prompt(state).title == "Spend experience on your deck (1 XP unspent)"
    labels = _labels(state)
    assert "Test Duck — from 0 XP" in labels
    assert not any("Test Notes" in label or "Test Badge" in label for label in labels)
    answer(state, "Test Duck")
    assert prompt(state).title == "Buy Test Duck: which card leaves your deck?"
    labels = _labels(state)
    assert "Add Test Duck — 0 XP" in labels and "Swap Test Knife for Test Duck — 1 XP" in labels
    assert not any(label.startswith("Swap Test Totem") for label in labels)
    answer(state, "Swap Test Knife for Test Duck — 1 XP")
    rec = state.campaign.investigators[0]  # a purchase replaces the record
    assert rec.xp == 0 and rec.deck["p.duck"] == 2 and rec.deck["p.knife"] == 1
    _next_scenario(state)
    i = state.invs[0]
    totem = next(u for u in i.play if state.cards[u].code == "p.faq-totem")
    assert state.cards[totem].zone == "play" and totem not in i.deck
    assert board.max_sanity(state, 0) == 7  # 6 printed, +1 from the totem in play
