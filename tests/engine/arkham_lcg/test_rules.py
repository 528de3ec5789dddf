"""The card game's framework on the test pack: each test cites the section of our rules
summary ("digest §", its rulings written out in docs/arkham_lcg.md) or the FAQ section it checks."""

from __future__ import annotations

import pytest

from engine import api
from engine.arkham_lcg import board
from engine.arkham_lcg.state import EnemyState, LcgState
from tests.engine.arkham_lcg.helpers import answer, labels, new, prompt, until

pytestmark = pytest.mark.usefixtures("lcg_pack")


def _keep_hand(state: LcgState) -> None:
    for p in list(api.prompts(state)):
        if p.title.startswith("Mulligan"):
            answer(state, [], seat=p.seats[0])


def _turn(state: LcgState) -> None:
    """Keep the opening hands and get to the first turn's menu."""
    _keep_hand(state)
    until(state, "Your turn")


def _enemy(state: LcgState, code: str, where: str, engaged: int | None = None) -> EnemyState:
    uid = board.new_card(state, code, None, "location")
    d = board.edef(state, uid)
    e = EnemyState(uid=uid, code=code, location=where, engaged=engaged, health=d.health)
    board.scen(state).enemies[uid] = e
    return e


def test_setup_five_resources_five_cards_start_location_revealed() -> None:
    """Digest A.1: each investigator takes 5 resources and draws 5 cards; the starting location is revealed with
    its clues (1 per investigator here); round 1 begins with the investigation phase (its mythos is skipped)."""
    state = new(players=2)
    _keep_hand(state)
    for i in state.invs:
        assert i.resources == 5 and len(i.hand) == 5 and i.location == "l.gate"
    gate = board.scen(state).locations["l.gate"]
    assert gate.revealed and gate.clues == 2
    assert state.round == 1 and state.phase == "investigation"
    assert board.scen(state).agenda_doom == 0


def test_opening_hand_weakness_is_replaced() -> None:
    """Digest A.1 step 4: a weakness drawn for the opening hand is set aside, replaced, and shuffled back."""
    for seed in range(30):
        state = new(seed=seed)
        hand = [board.pdef(state, u) for u in state.invs[0].hand]
        assert len(hand) == 5 and not any(c.weakness for c in hand)
        deck_weak = [u for u in state.invs[0].deck if board.pdef(state, u).weakness]
        assert len(deck_weak) == 2  # the signature weakness and the random basic one are both still in the deck


def test_three_actions_and_the_menu() -> None:
    """Digest §3: three actions per turn; the basic actions are offered (investigate, move, draw, resource)."""
    state = new()
    _turn(state)
    p = prompt(state)
    assert p.title == "Your turn: 3 actions left"
    ids = [o.id for o in p.options]
    for needed in ("investigate", "move:l.hall", "draw", "resource", "end"):
        assert needed in ids
    answer(state, "resource")
    assert state.invs[0].resources == 6
    assert prompt(state).title == "Your turn: 2 actions left"


def test_investigate_discovers_a_clue_and_ties_succeed() -> None:
    """Digest A.3 ST.6: the test succeeds when the modified skill equals the difficulty (ties succeed); a
    successful investigation discovers 1 clue at the location."""
    state = new()
    _turn(state)
    state.bag = ["-1"]  # intellect 2 - 1 = 1 against shroud 1
    answer(state, "investigate")
    if prompt(state).title.startswith("Commit"):
        answer(state, [])
    assert state.invs[0].clues == 1
    assert board.scen(state).locations["l.gate"].clues == 0


def test_auto_fail_counts_the_skill_as_zero() -> None:
    """FAQ (auto-fail): the skill value is 0, so the test fails by its full difficulty."""
    state = new()
    _turn(state)
    state.bag = ["auto_fail"]
    events = answer(state, "investigate")
    if prompt(state).title.startswith("Commit"):
        events = answer(state, [])
    text = " ".join(e.text for e in events)
    assert "fails by 1 (intellect 0 against 1)" in text


def test_moving_reveals_the_location_and_places_its_clues() -> None:
    """Digest A.5: entering an unrevealed location reveals it and places its clues; the hall is haunted."""
    state = new(players=2)
    _turn(state)
    seat = prompt(state).seats[0]
    answer(state, "move:l.hall")
    hall = board.scen(state).locations["l.hall"]
    assert state.invs[seat].location == "l.hall" and hall.revealed and hall.clues == 2


def test_attack_of_opportunity_on_draw_but_not_on_fight() -> None:
    """Digest §4.1: every ready engaged enemy attacks when the investigator takes an action other than fight,
    evade, parley or resign; the attack does not exhaust it (only enemy-phase attacks do, §3)."""
    state = new()
    _turn(state)
    e = _enemy(state, "e.stalker", "l.gate", engaged=0)
    i = state.invs[0]
    i.actions = 5  # (the draw may reveal a weakness that costs an action)
    answer(state, "draw")
    assert i.damage + i.horror == 2 or prompt(state).title.startswith("Assign")
    assert not e.exhausted
    before = (i.damage, i.horror)
    state.bag = ["0"]
    answer(state, f"fight:{e.uid}")
    if prompt(state).title.startswith("Commit"):
        answer(state, [])
    assert (i.damage, i.horror) == before  # no attack of opportunity for a fight


def test_retaliate_attacks_after_a_failed_fight() -> None:
    """Digest §7: a retaliate enemy that is ready attacks when a fight against it fails."""
    state = new()
    _turn(state)
    e = _enemy(state, "e.stalker", "l.gate", engaged=0)
    state.bag = ["auto_fail"]
    answer(state, f"fight:{e.uid}")
    if prompt(state).title.startswith("Commit"):
        answer(state, [])
    i = state.invs[0]
    assert i.damage == 1 and i.horror == 1 and not e.exhausted


def test_cancel_an_attack_with_a_fast_event() -> None:
    """A fast event played in the "when an enemy attacks" window cancels the attack (the window's event is
    cancelled, so its "after" never opens)."""
    state = new()
    _turn(state)
    i = state.invs[0]
    hold = board.new_card(state, "p.hold-on", 0, "hand")
    i.hand.append(hold)
    _enemy(state, "e.stalker", "l.gate", engaged=0)
    answer(state, "resource")
    p = prompt(state)
    assert p.title == "Respond before Test Stalker attacks Test Warden?"
    answer(state, "Play Test Hold On")
    assert i.damage == 0 and i.horror == 0
    assert state.cards[hold].zone == "discard"


def test_enemy_phase_attacks_exhaust_and_hunters_move() -> None:
    """Digest A.2 3.2-3.3: hunters move one location toward the nearest investigator, then every ready engaged
    enemy attacks and exhausts."""
    state = new()
    _turn(state)
    far = _enemy(state, "e.stalker", "l.crypt")
    board.scen(state).locations["l.hall"].revealed = True
    answer(state, "end")
    assert far.location == "l.hall"


def test_surge_draws_another_encounter_card() -> None:
    """Digest §6: a card with surge makes the investigator draw another encounter card after it resolves."""
    state = new()
    _keep_hand(state)
    s = board.scen(state)
    gust = [u for u in s.encounter_deck if state.cards[u].code == "e.gust"][0]
    s.encounter_deck.remove(gust)
    chill = [u for u in s.encounter_deck if state.cards[u].code == "e.chill"][0]
    s.encounter_deck.remove(chill)
    s.encounter_deck += [chill, gust]  # gust on top, chill under it
    answer(state, "end")
    until(state, "Commit", default=[])
    assert skill_test_source(state) == "e.chill"


def skill_test_source(state: LcgState) -> str:
    return state.tests[-1].source


def test_mythos_doom_advances_the_agenda_at_its_threshold() -> None:
    """Digest A.2 1.2-1.3: 1 doom each mythos phase; at the threshold the agenda advances (here every
    investigator takes 1 horror), and its doom is removed."""
    state = new()
    _keep_hand(state)
    board.scen(state).agenda_doom = 2
    answer(state, "end")
    until(state, "Your turn", default=[])
    assert board.agenda(state) is not None and board.agenda(state).id == "agenda.one.2"
    assert board.scen(state).agenda_doom == 0
    assert state.round == 2


def test_act_advances_with_group_clues_and_the_resolution_records_the_log() -> None:
    """Digest §9: the investigators spend the act's clues (per investigator) as a group during a turn; the last
    act's resolution writes the campaign log and the next scenario reads it."""
    state = new()
    _turn(state)
    state.invs[0].clues = 2
    answer(state, "act")
    assert board.act(state) is not None and board.act(state).id == "act.one.2"
    state.invs[0].clues = 1
    answer(state, "act")
    assert "the gate was sealed" in state.campaign.log
    assert state.campaign.results[0] == "one:R1:win"
    assert state.campaign.investigators[0].xp >= 1


def test_defeat_by_horror_is_mental_trauma_and_the_scenario_ends() -> None:
    """Digest §10: an investigator with horror equal to their sanity is defeated; with nobody left the scenario
    ends with no resolution; a defeat by horror costs 1 mental trauma."""
    state = new()
    _turn(state)
    state.invs[0].horror = board.max_sanity(state, 0) - 1
    _enemy(state, "e.stalker", "l.gate", engaged=0)
    answer(state, "draw")
    assert state.campaign.results[0].startswith("one:none")
    assert state.campaign.investigators[0].mental_trauma == 1


def test_resign_ends_the_scenario_for_that_investigator() -> None:
    """Digest §12: resigning (an action ability of a location) leaves the scenario without defeat or trauma."""
    state = new()
    _turn(state)
    board.scen(state).locations["l.crypt"].revealed = True
    state.invs[0].location = "l.crypt"
    answer(state, "Resign")
    assert state.invs[0].status == "resigned" or state.campaign.results
    assert state.campaign.investigators[0].mental_trauma == 0 and state.campaign.investigators[0].physical_trauma == 0


def test_hidden_information_by_view() -> None:
    """DESIGN: another seat's hand and every deck's order never appear in a view."""
    state = new(players=2)
    v0 = api.view(state, 0)
    v1 = api.view(state, 1)
    assert v0.investigators[0].hand is not None and v0.investigators[1].hand is None
    assert v1.investigators[0].hand is None
    text = v1.model_dump_json()
    for uid in state.invs[0].hand:
        assert f'"uid":{uid},' not in text


def test_json_round_trip_mid_game() -> None:
    state = new(players=2)
    _turn(state)
    again = api.from_json(api.to_json(state))
    assert api.to_json(again) == api.to_json(state)
    assert labels(prompt(again)) == labels(prompt(state))


def test_an_additional_action_is_used_by_the_first_action_that_qualifies() -> None:
    """FAQ §1.10: an additional action with a qualifier (here: fight only) is used automatically by the first
    action that qualifies; other actions spend the ordinary ones, and with none left only a qualifying action
    is offered."""
    state = new()
    _turn(state)
    i = state.invs[0]
    rally = board.new_card(state, "p.rally", 0, "hand")
    i.hand.append(rally)
    e = _enemy(state, "e.watcher", "l.gate", engaged=0)  # alert, not retaliate: a failed fight costs nothing
    answer(state, f"p{rally}")
    assert i.bonus_actions == ["fight"] and i.actions == 3
    i.actions = 0
    ids = [o.id for o in prompt(state).options]
    assert f"fight:{e.uid}" in ids and "draw" not in ids and "investigate" not in ids
    i.actions = 1  # (the menu is rebuilt on the next question: now the fight may use either)
    state.bag = ["0"]
    answer(state, f"fight:{e.uid}")
    if api.prompts(state) and prompt(state).title.startswith("Commit"):
        answer(state, [])
    assert i.bonus_actions == [] and i.actions == 1


def test_a_drawn_cards_name_is_told_only_to_its_owner() -> None:
    """DESIGN (hidden information): "You draw X" is private to the drawer; the table reads only that a card
    was drawn."""
    state = new()
    _turn(state)
    state.invs[0].deck.append(board.new_card(state, "p.knife", 0, "deck"))  # a known card on top
    events = answer(state, "draw")
    named = [e for e in events if e.kind == "draw.private"]
    public = [e for e in events if e.kind == "draw.card"]
    assert named and all(e.private_to == 0 for e in named)
    assert public and all(e.private_to is None and "draws a card" in e.text for e in public)


def test_a_tests_effects_act_on_the_card_that_asked_for_it() -> None:
    """A treachery in your threat area with "test willpower; if you succeed, discard it": the test's pass effects
    act on that card (`discard_self`)."""
    state = new()
    _turn(state)
    i = state.invs[0]
    omen = board.new_card(state, "e.test-omen", None, "threat")
    i.threat.append(omen)
    state.bag = ["+1"]
    answer(state, "Test Omen")
    if api.prompts(state) and prompt(state).title.startswith("Commit"):
        answer(state, [])
    assert omen not in i.threat and state.cards[omen].zone == "encounter_discard"


def test_damage_dealt_and_clues_discovered_modifiers_add_to_a_success() -> None:
    """Digest A.3 ST.7: a successful attack deals 1 damage and a successful investigation discovers 1 clue, each
    plus every modifier to it; a constant "your attacks deal +1 damage" / "discover 1 additional clue" modifier
    (stats `damage_dealt`, `clues_discovered`) counts as well as a card's bonus for that one test."""
    state = new(players=2)
    _turn(state)
    seat = prompt(state).seats[0]
    i = state.invs[seat]
    i.lasting += [{"stat": "clues_discovered", "amount": 1, "during": "investigate", "end": "round"},
                  {"stat": "damage_dealt", "amount": 1, "during": "fight", "end": "round"}]
    state.bag = ["+1"]
    answer(state, "investigate")
    while prompt(state).title.startswith("Commit"):
        answer(state, [], seat=prompt(state).seats[0])
    assert i.clues == 2 and board.scen(state).locations["l.gate"].clues == 0  # 1 per investigator, both taken
    e = _enemy(state, "e.stalker", "l.gate", engaged=seat)
    state.bag = ["+1"]
    answer(state, f"fight:{e.uid}")
    while prompt(state).title.startswith("Commit"):
        answer(state, [], seat=prompt(state).seats[0])
    assert e.uid not in board.scen(state).enemies  # 1 + 1 damage defeats its 2 health


def test_a_symbol_that_reveals_another_keeps_its_own_modifier(monkeypatch: pytest.MonkeyPatch) -> None:
    """Digest A.3 ST.3: a token that says "reveal another" draws a new token and the test goes on with both, as
    bless (+2) and curse (-2) do; its own modifier still counts. Here the elder thing is -2 and reveals another
    (the empty bag's stand-in, 0): intellect 2 - 2 + 0 = 0 fails against shroud 1."""
    from engine.arkham_lcg.content import Scenario, TokenEffect

    effect = TokenEffect(modifier=-2, reveal_another=True, text="-2, and reveal another token.")
    original = Scenario.token_effect
    monkeypatch.setattr(Scenario, "token_effect", lambda self, symbol, difficulty: effect
                        if symbol == "elder_thing" else original(self, symbol, difficulty))
    state = new()
    _turn(state)
    state.bag = ["elder_thing"]
    events = answer(state, "investigate")
    while prompt(state).title.startswith("Commit"):
        events = answer(state, [])
    assert state.last_test is not None and state.last_test.tokens == ["elder_thing", "0"]
    assert "fails by 1 (intellect 0 against 1)" in " ".join(e.text for e in events)


def test_a_card_that_ignores_a_token_takes_back_its_modifier_and_auto_fail() -> None:
    """FAQ (Lucky Dice errata): "ignore that token and reveal another": the ignored token's modifier, automatic
    failure and "if you fail" effects no longer count; the next token's do."""
    from engine.arkham_lcg.skilltest import ignore_last_token, resolve_token
    from engine.arkham_lcg.state import SkillTest

    state = new()
    _turn(state)
    test = SkillTest(seat=0, skill="intellect", difficulty=2)
    resolve_token(state, test, "-4", [])
    assert test.token_mod == -4
    ignore_last_token(test)
    assert test.token_mod == 0 and test.ignored == 1
    resolve_token(state, test, "+1", [])
    resolve_token(state, test, "auto_fail", [])
    ignore_last_token(test)
    assert test.auto == "" and test.token_mod == 1  # the +1 before it still counts
    ignore_last_token(test)  # nothing left to take back
    assert test.token_mod == 1 and test.ignored == 2


def test_an_actions_modifier_counts_from_the_moment_it_is_in_force() -> None:
    """Digest A.2 (the investigation phase: 3 actions a turn, plus modifiers) [decided]: a modifier that gives an
    action, come into play during your turn, gives it this turn; one that leaves takes it back (never below 0);
    upkeep counts it again for the next round."""
    state = new()
    _turn(state)
    i = state.invs[0]
    answer(state, "resource")
    assert prompt(state).title == "Your turn: 2 actions left"
    i.lasting.append({"stat": "actions", "amount": 1, "end": "game"})
    answer(state, "resource")
    assert prompt(state).title == "Your turn: 2 actions left"  # 2 - 1 + 1
    i.lasting.clear()
    answer(state, "resource")  # 2 - 1 - 1 = 0: the action given is taken back, and the turn is over
    assert state.round == 2 and i.resources == 5 + 3 + 1  # three resource actions, then the upkeep's
    i.lasting.append({"stat": "actions", "amount": 1, "end": "game"})
    from engine.arkham_lcg.board import reset_actions
    reset_actions(state, 0)
    assert i.actions == 4 and i.action_mod == 1


def test_an_enemys_forced_ability_for_you_answers_only_to_the_investigator_it_is_engaged_with() -> None:
    """docs/arkham_lcg_content.md (`who: you`: for an encounter card, the investigator whose engagement holds it)
    and the rules reference's "you" on an enemy: an enemy's "if it is engaged with you" ability has nobody to
    answer to while it is unengaged (a Deacon of the Low Hymn placed doom every enemy phase on its own before),
    and answers to the engaged investigator once it engages."""
    from engine.arkham_lcg.content import Ability
    from engine.arkham_lcg.triggers import _responders

    state = new(players=2)
    _turn(state)
    ab = Ability(id="intone", kind="forced", window="after:enemy.start", who="you", effects=[{"doom": 1}],
                 text="Forced: if engaged with you, 1 doom.")
    e = _enemy(state, "e.stalker", "l.gate")
    assert _responders(state, e.uid, ab, None) == []
    e.engaged = 1
    assert _responders(state, e.uid, ab, None) == [1]


def test_a_revealed_location_is_narrated_once_with_its_abilities() -> None:
    """Digest (locations: revealed side, shroud, clues per investigator): the reveal line gives the shroud and the
    clues placed, then the location's keywords and abilities, without repeating its printed shroud and clue value.
    What is dropped from every shipped location's text is only that sentence, and it agrees with the card."""
    import re

    from engine.arkham_lcg.content import load_content
    from engine.arkham_lcg.locations import _beyond_printed_values

    assert _beyond_printed_values("Shroud 1, 1 clue per investigator. Action: resign.") == "Action: resign."
    assert _beyond_printed_values("Shroud 2, 1 clue per investigator.") == ""
    assert _beyond_printed_values("Haunted – take 1 horror.") == "Haunted – take 1 horror."
    checked = 0
    for loc in load_content().locations.values():  # the shipped campaign (this module plays on the test pack)
        if not loc.text.startswith("Shroud "):
            continue
        dropped = loc.text[: len(loc.text) - len(_beyond_printed_values(loc.text))]
        m = re.match(r"Shroud (\d+), (\d+) clues? per investigator\.\s*$", dropped)
        assert m and int(m.group(1)) == loc.shroud and int(m.group(2)) == loc.clues, (loc.id, dropped)
        checked += 1
    assert checked > 10
