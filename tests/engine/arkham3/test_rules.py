"""Arkham Horror 3e rules, each test citing the rules digest ("digest §") or the summary ("summary: ...")."""

from __future__ import annotations

from collections import Counter

import pytest

from engine import api
from engine.arkham3 import board
from engine.arkham3.content import load_content
from engine.arkham3.skills import dice_for
from engine.core.errors import ContentError, IllegalAction
from engine.core.prompt import Action
from tests.engine.arkham3.support import add_monster, answer, dice, ids, new_game, op, prompt, run, texts

HIROSHI = "hiroshi-tanabe"


def test_setup_follows_the_summary() -> None:
    """digest §3 steps 1-13: 3 starting clues from the top of the event deck, the starting doom from the bottom
    card (now the event discard), the cup from the scenario, 13 headlines, a display of 5, investigators on the
    starting space with their money and starting cards, the codex from 'finalize setup', and the table is told
    what is not implemented."""
    state, events = api.new_game("arkham3", [__import__("engine.core.game", fromlist=["SeatSpec"]).SeatSpec(
        seat=0, name="a", character=HIROSHI)], {"scenario": "witch-light"}, 5)
    sheet = board.scenario(state).sheet
    assert sum(state.clues.values()) == 3
    assert len(state.event_discard) == 1
    first = board.scenario(state).events[state.event_discard[0]]
    assert all(state.doom.get(s, 0) >= 1 for s in first.doom)
    assert Counter(state.cup) == Counter(sheet.cup) and not state.cup_drawn
    assert len(state.decks["headline"]) == 13 and len(state.display) == 5
    i = board.inv(state, 0)
    assert i.space == sheet.start and i.money == 2 and [a.card for a in i.assets] == ["a3.start.slide-rule"]
    assert state.codex == sheet.finalize
    assert any(e.kind == "setup.notice" and "`/help game:arkham3`" in e.text for e in events)
    assert state.phase == "action" and op(state) == "action"


def test_tests_roll_skill_plus_modifiers_with_at_least_one_die() -> None:
    """digest §5.1-3: dice = skill + focus + cards (at most 2 hand icons) + modifiers, minimum 1; 5s and 6s
    succeed."""
    state = new_game(characters=[HIROSHI])
    assert dice_for(state, 0, "observation", 0, "research")[0] == 4 + 1  # Slide Rule
    assert dice_for(state, 0, "observation", -2, "research")[0] == 4 + 1 - 2  # a test's modifier counts
    assert dice_for(state, 0, "strength", -3, "attack")[0] == 1  # never below one die
    board.inv(state, 0).focus.append("strength")
    assert dice_for(state, 0, "strength", 0, "attack")[0] == 2


def test_hand_icons_cap_at_two() -> None:
    """digest §5.2, §12.10: cards with hand icons add dice only up to 2 hands in total (the best are used)."""
    from engine.arkham3.state import Asset

    state = new_game(characters=["tomas-ibarra"])  # Strength 5, Cargo Hook (+1, 1 hand), attack bonus +1
    i = board.inv(state, 0)
    i.assets += [Asset(card="a3.item.hunting-rifle"), Asset(card="a3.item.38-revolver")]
    # rifle (2 hands, +3) beats hook + revolver (2 hands, +3 together); never all three
    assert dice_for(state, 0, "strength", 0, "attack")[0] == 5 + 3 + 1


def test_rerolls_spend_focus_or_clues() -> None:
    """digest §5.4: a focus token of any skill, or a clue, rerolls one die."""
    state = new_game(characters=["tomas-ibarra"])
    i = board.inv(state, 0)
    i.focus, i.clues = ["lore"], 1
    dice(state, 1, 1, 6)
    answer(state, "research")  # Observation 2: two dice, both 1s
    assert op(state) == "test_reroll" and set(ids(state)) == {"keep", "focus-lore", "clue"}
    answer(state, "focus-lore")
    assert "lore" not in i.focus
    assert state.rolls[-1].dice.count(1) == 1 and 6 in state.rolls[-1].dice


def test_a_clue_spent_on_a_reroll_is_gone() -> None:
    """digest §5.4: rerolling a die by spending a clue costs that clue."""
    state = new_game(characters=["tomas-ibarra"])
    i = board.inv(state, 0)
    i.focus, i.clues = [], 1
    dice(state, 1, 1, 6)
    answer(state, "research")  # Observation 2: two dice, both 1s
    assert set(ids(state)) == {"keep", "clue"}
    events = answer(state, "clue")
    rerolled = [e for e in events if e.kind == "test.reroll"]
    assert i.clues == 0 and sorted(rerolled[0].data["dice"]) == [1, 6]


def test_blessed_and_cursed_change_successes() -> None:
    """digest §5 [BG, our decision]: blessed makes 4s succeed; cursed lets only 6s succeed."""
    from engine.arkham3.skills import min_face

    state = new_game()
    assert min_face(state, 0) == 5
    run(state, "eff", 0, e={"condition": "blessed"}, ctx={"seat": 0, "space": None, "monster": None, "card": ""})
    assert min_face(state, 0) == 4
    run(state, "eff", 0, e={"condition": "cursed"}, ctx={"seat": 0, "space": None, "monster": None, "card": ""})
    assert min_face(state, 0) == 5 and not board.inv(state, 0).conditions  # they cancel out ([GAP])
    run(state, "eff", 0, e={"condition": "cursed"}, ctx={"seat": 0, "space": None, "monster": None, "card": ""})
    assert min_face(state, 0) == 6  # cursed alone: a 5 is no success


def test_each_action_once_per_round_and_two_per_turn() -> None:
    """digest §4.1: up to 2 actions per turn, each at most once per round."""
    state = new_game()
    answer(state, "gather")
    assert "gather" not in ids(state) and prompt(state).title.endswith("(1 left)")
    answer(state, "focus")
    answer(state, prompt(state).options[0].id)
    assert state.turn is None  # two actions: the turn is over


def test_delayed_investigators_take_one_action() -> None:
    """summary: Delayed: stand up instead of acting; that turn only 1 action."""
    state = new_game(players=2)
    board.inv(state, 1).delayed = True
    answer(state, "s1")  # seat 1 claims the first turn
    assert not board.inv(state, 1).delayed and state.actions_left == 1


def test_move_costs_money_beyond_two_spaces_and_stops_at_ready_monsters() -> None:
    """digest §4.1 Move: 2 spaces free, up to 2 more at $1 each; entering a ready monster's space engages you
    and ends the move."""
    state = new_game(characters=[HIROSHI])  # $2
    i = board.inv(state, 0)
    reach = __import__("engine.arkham3.phases", fromlist=["reachable"]).reachable(state, 0)
    assert max(reach.values()) == 4
    add_monster(state, "a3.monster.ghoul", "street.armitage-green")
    reach = __import__("engine.arkham3.phases", fromlist=["reachable"]).reachable(state, 0)
    assert reach["street.armitage-green"] == 1 and "wharves.docks" not in reach or reach["wharves.docks"] > 2
    answer(state, "move")
    answer(state, "street.armitage-green")
    assert i.space == "street.armitage-green" and board.engaged_with(state, 0)


def test_attack_engages_and_defeats_onto_the_monster_deck() -> None:
    """digest §4.1 Attack, §6.3: a ready monster is engaged first; each success is 1 damage; at HEALTH it goes
    on top of the monster deck and a remnant icon gives 1 remnant."""
    state = new_game(characters=["tomas-ibarra"])
    here = board.inv(state, 0).space
    m = add_monster(state, "a3.monster.coven-initiate", here)
    dice(state, 5, 6, 1, 1, 1, 1, 1)
    answer(state, "attack")
    assert board.find_monster(state, m.uid) is None
    assert state.decks["monster"][-1] == "a3.monster.coven-initiate"
    assert board.inv(state, 0).remnants == 1


def test_engaged_investigators_have_no_encounter() -> None:
    """summary: Engaged: you cannot resolve any encounter (a watcher does not stop one, digest §7)."""
    state = new_game(players=2)
    add_monster(state, "a3.monster.ghoul", None, "engaged", engaged=[0])
    add_monster(state, "a3.monster.pale-watcher", None, "engaged", engaged=[1])
    for s in (0, 1):
        board.inv(state, s).encountered = False
    events = run(state, "next_encounter")
    assert "has no encounter" in texts(events)
    assert board.inv(state, 0).encountered
    assert not board.inv(state, 1).encountered or any(e.kind == "encounter" for e in events)


def test_event_card_clue_goes_to_discard_else_back_in_the_top_three() -> None:
    """digest §4.3: an event card whose clue was gained goes to the event discard; otherwise it is shuffled
    back into the top 3 of its neighborhood deck."""
    state = new_game()
    state.clues["university"] = 1
    card = next(e for e in board.scenario(state).events.values() if e.neighborhood == "university").id
    before = len(state.event_discard)
    state.clue_gained = True
    run(state, "encounter_end", 0, deck="enc:university", card=card, event=True, tile="university")
    assert state.event_discard[-1] == card and len(state.event_discard) == before + 1
    card2 = next(e for e in board.scenario(state).events.values() if e.neighborhood == "university"
                 and e.id != card).id
    state.clue_gained = False
    run(state, "encounter_end", 0, deck="enc:university", card=card2, event=True, tile="university")
    assert card2 in state.decks["enc:university"][-3:]


def test_every_seat_draws_two_mythos_tokens_even_when_defeated() -> None:
    """digest §4.4, §12.12: two tokens per seat, from the leader clockwise, defeated seats too."""
    state = new_game(players=3)
    state.table[1].inv = None
    state.table[1].status = "joining"
    state.cup = ["blank"] * 10
    state.cup_drawn = []
    events = run(state, "mythos_phase")
    drawers = [e.seat for e in events if e.kind == "mythos.token"]
    assert drawers == [0, 0, 1, 1, 2, 2]


def test_the_cup_refills_when_empty() -> None:
    """digest §4.4: drawn tokens stay out until the cup is empty; then every token in use goes back in."""
    state = new_game()
    total = Counter(state.cup)
    state.cup_drawn, state.cup = list(state.cup), []
    run(state, "mythos_draw", 0)
    assert Counter(state.cup) + Counter(state.cup_drawn) == total and len(state.cup_drawn) == 1


def test_empty_headline_deck_puts_doom_on_the_sheet() -> None:
    """digest §4.4 Read headline: with no headline left, 1 doom goes on the scenario sheet."""
    state = new_game()
    state.decks["headline"] = []
    sheet = state.sheet_doom
    run(state, "headline", 0)
    assert state.sheet_doom == sheet + 1


def test_elite_counts_investigators_who_started() -> None:
    """digest §7, §12.11: Elite X adds X HEALTH per investigator who started the game."""
    state = new_game(players=3)
    m = add_monster(state, "a3.monster.gug", None)
    assert board.monster_health(state, m) == 5 + 3
    state.table[2].inv = None
    assert board.monster_health(state, m) == 5 + 3


def test_hunters_move_along_shortest_paths_and_stop_at_investigators() -> None:
    """digest §4.2: a hunter moves up to SPEED toward its prey by a shortest path and stops on entering an
    investigator's space, engaging them."""
    state = new_game(characters=[HIROSHI])
    start = board.inv(state, 0).space
    m = add_monster(state, "a3.monster.ghoul", "wharves.docks", prey=0)
    state.monsters = [m]
    run(state, "activate", None, uid=m.uid)
    assert board.graph(state).distance("wharves.docks", start) == 2
    assert m.engaged == [0] and m.space is None


def test_massive_engages_everyone_entering() -> None:
    """digest §7 Massive: it engages every investigator in its space, even while already engaged."""
    state = new_game(players=2)
    here = board.inv(state, 0).space
    gug = add_monster(state, "a3.monster.gug", "street.armitage-green", "engaged", engaged=[])
    gug.status = "ready"
    for s in (0, 1):
        board.inv(state, s).space = "street.armitage-green"
        from engine.arkham3.effects import engage_on_entering
        engage_on_entering(state, s, [])
    assert gug.engaged == [0, 1] and gug.space == "street.armitage-green"
    assert here


def test_codex_clue_threshold_brings_the_epic_monster_and_its_defeat_wins() -> None:
    """digest §10: the win lives in the codex: clues on the sheet add card 3 (the epic monster); defeating it
    adds card 5, which says you win."""
    state = new_game()
    state.sheet_clues = 3
    run(state, "codex")
    assert 3 in state.codex
    epic = next(m for m in state.monsters if m.card == "archive:3")
    from engine.arkham3.effects import hurt_monster

    events: list = []
    hurt_monster(state, epic, 99, 0, events)
    from engine.arkham3.ops import FLOW

    FLOW.run(state, events)
    assert 3 in state.epic_defeated and state.over and state.result == "win"


def test_codex_doom_clock_loses() -> None:
    """digest §10: doom on the scenario sheet past the codex's clock loses the game."""
    state = new_game()
    state.sheet_doom = 20
    run(state, "codex")
    while not state.over and api.prompts(state):  # card 4 spawns a monster on its way (it may ask where)
        answer(state, prompt(state).default[0])  # type: ignore[index]
    assert state.over and state.result == "loss" and state.codex[-1] == 6


def test_loss_by_attrition() -> None:
    """digest §6.4: the players lose when every investigator available to them is gone."""
    state = new_game()
    state.unplayed = []
    run(state, "defeat", 0, how="devoured")
    assert state.over and state.result == "loss"


def test_condition_backs_never_show() -> None:
    """digest §6.2, §14.4: a condition's back stays hidden in every view."""
    state = new_game()
    copy = "a3.condition.dark-pact-4"
    board.inv(state, 0).conditions[copy] = "front"
    text = api.view(state, 0).model_dump_json()
    assert "Dark Pact" in text and "devoured" not in text.lower()


def test_content_errors_name_the_file_line_and_card(tmp_path) -> None:  # noqa: ANN001
    """CONTENT.md, DESIGN 'effects as data': a typo fails the load with file:line (id)."""
    import shutil

    from engine.arkham3.content import ASSETS

    pack = tmp_path / "pack"
    shutil.copytree(ASSETS, pack)
    f = pack / "headlines.yaml"
    f.write_text(f.read_text().replace("{spawn_clue: 1}", "{spawn_clu: 1}", 1))
    with pytest.raises(ContentError, match=r"headlines.yaml:\d+ \(a3.headline.1\).*unknown verb 'spawn_clu'"):
        load_content(pack)


def test_every_deck_file_is_checked_against_its_declared_mix(tmp_path) -> None:  # noqa: ANN001
    """CONTENT.md 'write the intended mix at the top of the deck file and let a test check it': a deck whose
    cards no longer match its `mix:` (here a new neighborhood's test count) fails the load, naming the file."""
    import shutil

    from engine.arkham3.content import ASSETS

    pack = tmp_path / "pack"
    shutil.copytree(ASSETS, pack)
    f = pack / "neighborhoods" / "sentinel_hill.yaml"
    f.write_text(f.read_text().replace("skill: strength", "skill: will", 1))
    with pytest.raises(ContentError, match=r"sentinel_hill.yaml: the declared mix does not match"):
        load_content(pack)


def test_cards_named_by_effects_must_exist(tmp_path) -> None:  # noqa: ANN001
    """DESIGN 'effects as data' (validated at load): a codex action that pays with a card the pack lacks, or a
    scenario action placed off the map, fails the load."""
    import shutil

    from engine.arkham3.content import ASSETS

    pack = tmp_path / "pack"
    shutil.copytree(ASSETS, pack)
    f = pack / "scenarios" / "innsmouth_road.yaml"
    original = f.read_text()
    f.write_text(original.replace("card: a3.special.temperance-ware", "card: a3.special.nobody", 1))
    with pytest.raises(ContentError, match="a3.special.nobody"):
        load_content(pack)
    f.write_text(original.replace("where: innsmouth.curing-sheds", "where: innsmouth.nowhere", 1))
    with pytest.raises(ContentError, match="innsmouth.nowhere"):
        load_content(pack)


def test_illegal_answers_change_nothing() -> None:
    """DESIGN 'engine contract': a rejected action leaves the state untouched."""
    state = new_game()
    before = api.to_json(state)
    p = prompt(state)
    with pytest.raises(IllegalAction):
        api.apply(state, Action(seat=0, prompt=p.seq, choice=["nope"]), in_place=True)
    assert api.to_json(state) == before


def test_extra_move_spaces_cost_a_dollar_each() -> None:
    """digest §4.1 Move: the first 2 spaces are free; each further space (up to 2) costs $1."""
    state = new_game(characters=[HIROSHI])  # $2
    i = board.inv(state, 0)
    from engine.arkham3.phases import reachable

    three = sorted(s for s, d in reachable(state, 0).items() if d == 3 and not board.monsters_at(state, s))[0]
    answer(state, "move")
    answer(state, three)
    assert i.space == three and i.money == 1


def test_gather_resources_gives_one_dollar() -> None:
    """digest §4.1 Gather Resources: gain $1 (an income ability adds its own)."""
    state = new_game(characters=[HIROSHI])
    i = board.inv(state, 0)
    before = i.money
    answer(state, "gather")
    assert i.money == before + 1


def test_research_places_at_most_one_clue_per_success() -> None:
    """digest §4.1 Research: an Observation test; every success lets one held clue go onto the scenario
    sheet, and no more clues than successes."""
    state = new_game(characters=["tomas-ibarra"])  # Observation 2
    i = board.inv(state, 0)
    i.clues, i.focus = 3, []
    dice(state, 5, 1)
    answer(state, "research")
    answer(state, "keep")  # a clue could reroll the 1: keep one success
    p = prompt(state)
    assert op(state) == "place_clues" and p.max_amount == 1
    answer(state, amount=1)
    assert i.clues == 2 and state.sheet_clues == 1


def test_ward_removes_one_doom_per_success_and_two_give_a_remnant() -> None:
    """digest §4.1 Ward: test Lore; remove one doom from your space per success; removing 2 or more in one ward
    gains a remnant."""
    state = new_game(characters=["ezekiel-marsh-brown"])
    i = board.inv(state, 0)
    i.focus, i.remnants = [], 0
    here = i.space or ""
    state.doom[here] = 3
    n = dice_for(state, 0, "lore", 0, "ward")[0]
    dice(state, 5, *[1] * (n - 1))
    answer(state, "ward")
    assert op(state) == "ward_remove" and prompt(state).max_amount == 1
    answer(state, amount=1)
    assert state.doom[here] == 2 and i.remnants == 0

    state = new_game(characters=["ezekiel-marsh-brown"])
    i = board.inv(state, 0)
    i.focus, i.remnants = [], 0
    here = i.space or ""
    state.doom[here] = 3
    dice(state, 5, 6, *[1] * (n - 2))
    answer(state, "ward")
    assert prompt(state).max_amount == 2
    answer(state, amount=2)
    assert state.doom[here] == 1 and i.remnants == 1


def test_an_evaded_monster_is_exhausted_in_your_space() -> None:
    """digest §4.1 Evade: each success disengages a monster, which is exhausted in your space."""
    state = new_game(characters=["tomas-ibarra"])  # Observation 2
    i = board.inv(state, 0)
    i.focus, i.clues = [], 0
    m = add_monster(state, "a3.monster.ghoul", None, "engaged", engaged=[0])
    dice(state, 6, 1)
    answer(state, "evade")
    assert m.status == "exhausted" and m.space == i.space and not m.engaged


def test_a_moving_monster_stops_at_the_first_investigator_it_meets() -> None:
    """digest §4.2: a monster moving toward its target stops on entering a space with an investigator (and
    engages them), even when its prey is further on."""
    state = new_game(players=2)
    g = board.graph(state)
    start = board.inv(state, 0).space or ""
    path = [start]
    while len(path) < 4:  # a shortest path of three steps away from the starting space
        nxt = sorted(n for n in g.adj[path[-1]] if g.distance(start, n) == len(path))
        path.append(nxt[0])
    board.inv(state, 0).space, board.inv(state, 1).space = path[1], path[3]
    state.monsters = []
    m = add_monster(state, "a3.monster.ghoul", path[0], prey=1)  # speed 2, hunting seat 1
    run(state, "activate", None, uid=m.uid)
    assert m.engaged == [0]


def test_exhausted_monsters_ready_and_engage_at_the_end_of_the_monster_phase() -> None:
    """digest §4.2 Ready: every exhausted monster readies, and one in a space with an investigator engages."""
    state = new_game()
    here = board.inv(state, 0).space
    state.monsters = []
    m = add_monster(state, "a3.monster.ghoul", here, "exhausted")
    run(state, "ready_step")
    assert m.status == "engaged" and m.engaged == [0]


def test_a_normal_encounter_card_goes_to_the_bottom_of_its_deck() -> None:
    """digest §4.3: after an encounter, a normal card goes to the bottom of its deck (cards are drawn from the
    top)."""
    state = new_game()
    deck = state.decks["enc:university"]
    card = deck.pop()  # the top card, as an encounter draws it
    run(state, "encounter_end", 0, deck="enc:university", card=card, event=False, tile="university")
    assert deck[0] == card and deck[-1] != card


def test_anomaly_encounters_read_the_section_for_the_doom_in_your_space() -> None:
    """digest §8: an anomaly encounter resolves the section matching the doom in your space (our sections:
    0-1, 2, 3 or more: docs/arkham3.md, Decisions, "8 anomaly sections")."""
    from engine.arkham3.phases import anomaly_section

    assert [anomaly_section(d) for d in range(5)] == ["low", "low", "mid", "high", "high"]


def test_damage_equal_to_health_defeats_the_investigator() -> None:
    """digest §6.4: an investigator whose damage reaches their health is defeated (1 doom on the sheet)."""
    state = new_game(players=2)
    i = board.inv(state, 0)
    i.damage = board.max_health(state, 0) - 2
    doom = state.sheet_doom
    run(state, "eff", 0, e={"direct_damage": 1}, ctx={"seat": 0, "space": None, "monster": None, "card": ""})
    assert state.table[0].inv is not None  # one short of health
    run(state, "eff", 0, e={"direct_damage": 1}, ctx={"seat": 0, "space": None, "monster": None, "card": ""})
    assert state.table[0].inv is None and state.sheet_doom == doom + 1
