"""The special rules of the scenarios written for this project (issue 12): each test replays one with fixed dice
and cites its source, our scenario sheet (`assets/arkham3/scenarios/<id>.yaml`, "sheet <id>, archive N") for
the scenario's own rules and the rules digest for the base rules they lean on."""

from __future__ import annotations

from engine import api
from engine.arkham3 import board
from engine.arkham3.effects import ctx_for, run_effects, threshold_count
from engine.arkham3.ops import FLOW
from engine.arkham3.phases import codex_action_open
from engine.arkham3.state import Asset
from tests.engine.arkham3.support import add_monster, answer, dice, ids, new_game, op, run, settle, texts

HIROSHI = "hiroshi-tanabe"  # Lore 4
STONES = "sentinel-stones"
ROAD = "innsmouth-road"
WITNESS = "a3.special.temperance-ware"
TABLE_STONE = "sentinel-hill.table-stone"
SHEDS = "innsmouth.curing-sheds"
LIBRARY = "university.library"


# ---------------------------------------------------------------- The Sentinel Stones: sealing

def test_sealing_a_stone_spends_a_clue_clears_its_doom_and_keeps_doom_off() -> None:
    """Sheet sentinel-stones, archive 1: at an unsealed standing stone, test Lore; on a pass you may spend 1 clue
    to seal the space. A sealed space loses its doom and no doom is placed there while the seal holds."""
    state = new_game(characters=[HIROSHI], scenario=STONES)
    i = board.inv(state, 0)
    i.space, i.clues = TABLE_STONE, 1
    assert state.doom.get(TABLE_STONE, 0) >= 1  # the setup map puts doom on it
    assert "codex:1" in ids(state)
    dice(state, 6, 6, 6, 6, 6)
    answer(state, "codex:1")
    assert op(state) == "pay_ask"  # spending the clue is a choice
    answer(state, "yes")
    assert state.seals == [TABLE_STONE] and TABLE_STONE not in state.doom and i.clues == 0
    events = run(state, "place_doom", space=TABLE_STONE)
    assert TABLE_STONE not in state.doom and "seal" in texts(events)
    assert not codex_action_open(state, 0, board.scenario(state).archive[1].action)  # nothing left to seal here


def test_a_failed_seal_costs_horror_but_keeps_the_clue() -> None:
    """Sheet sentinel-stones, archive 1: a failed Lore test costs 1 horror; the clue is only spent on a pass."""
    state = new_game(characters=["ines-carvalho"], scenario=STONES)  # Lore 5, a free Lore reroll
    i = board.inv(state, 0)
    i.space, i.clues, i.focus = TABLE_STONE, 1, []
    dice(state, *[1] * 12)
    answer(state, "codex:1")
    while op(state) == "test_reroll":
        answer(state, "keep")
    assert state.seals == [] and i.clues == 1 and i.horror == 1


def test_the_first_seals_wake_the_brood_which_breaks_a_seal_on_a_reckoning() -> None:
    """Sheet sentinel-stones, archives 1 and 3: with 1 seal, plus 1 for every 2 investigators, the Brood of
    Sentinel Hill appears; it patrols toward the nearest sealed space (digest 4.2 patrol) and, on a reckoning,
    breaks the seal in its space and places 1 doom there (digest 4.4 reckoning)."""
    state = new_game(characters=[HIROSHI], scenario=STONES)
    board.inv(state, 0).space = "dunwich-village.osborns-store"
    run_effects(state, [{"seal": True}], ctx_for(state, None, space=TABLE_STONE), "test")
    FLOW.run(state, [])
    brood = next(m for m in state.monsters if m.card == "archive:3")
    assert 3 in state.codex and brood.space == "sentinel-hill.whateley-farm"
    run(state, "activate", uid=brood.uid)
    settle(state)
    assert brood.space == TABLE_STONE  # one space, toward the seal
    run(state, "reckoning_one", key=f"monster:{brood.uid}", pending=[])
    settle(state)
    assert state.seals == [] and state.doom.get(TABLE_STONE) == 1


def test_enough_seals_at_once_win() -> None:
    """Sheet sentinel-stones, archive 3: 2 seals, plus 1 for every 2 investigators, at once win (card 5)."""
    state = new_game(players=2, scenario=STONES)
    state.codex.append(3)
    state.seals = [TABLE_STONE, "cold-spring-glen.bears-den"]
    run(state, "codex")
    assert not state.over  # 2 investigators need 3 seals
    state.seals.append("meadow-hill.quarry-road")
    run(state, "codex")
    assert state.over and state.result == "win" and 5 in state.codex


def test_doom_on_the_board_is_the_clock() -> None:
    """Sheet sentinel-stones, archives 1 and 4: 8 doom plus 1 per investigator on the board adds card 4 (a
    spread doom token joins the cup, a monster spawns); 12 plus 2 per investigator adds card 6, which loses.
    No anomaly opens in this scenario, so 3 doom stays on its space (digest 8 only when the scenario says)."""
    state = new_game(scenario=STONES)
    state.doom = {"dunwich-village.osborns-store": 3, "sentinel-hill.hop-yard": 3, "cold-spring-glen.bears-den": 3}
    run(state, "codex")
    settle(state)
    assert 4 in state.codex and state.anomalies == [] and "spread_doom" in state.cup
    assert not state.over
    state.doom["meadow-hill.cemetery"] = 5
    run(state, "codex")
    settle(state)
    assert state.over and state.result == "loss" and 6 in state.codex


def test_scaled_counts_round_down() -> None:
    """Our ruling on scenario sheets: a count written 'plus 1 for every 2 investigators' is base + 0.5 x the
    investigators who started, rounded down."""
    state = new_game(players=3, scenario=STONES)
    when = board.scenario(state).archive[3].clue.when  # type: ignore[union-attr]
    assert threshold_count(state, 2, when) == 3
    state.started_with = 4
    assert threshold_count(state, 2, when) == 4


# ---------------------------------------------------------------- The Road from Innsmouth: the escort

def _found(players: int = 1, characters: list[str] | None = None):  # noqa: ANN202
    """A game of The Road from Innsmouth where the clue objective was met: card 3 is in the codex."""
    state = new_game(players=players, characters=characters, scenario=ROAD)
    state.sheet_clues = 2 + players // 2
    run(state, "codex", clear=False)  # on top of the turn under way, which goes on afterwards
    settle(state)
    assert 3 in state.codex
    return state


def test_finding_the_witness_opens_the_stage_road() -> None:
    """Sheet innsmouth-road, archives 1 and 3: 2 clues plus 1 for every 2 investigators on the sheet add card
    3, whose map change puts the Old Stage Road on the map (digest 9, adding to the map), two spaces from the
    Salt Meadows to Faculty Row instead of five."""
    state = new_game(scenario=ROAD)
    g = board.graph(state)
    assert g.distance("manuxet-marshes.salt-meadows", "university.faculty-row") == 5
    state.sheet_clues = 1
    run(state, "codex")
    assert 3 not in state.codex
    state.sheet_clues = 2
    run(state, "codex")
    settle(state)
    g = board.graph(state)
    assert 3 in state.codex and "street.stage-road" in g.adj
    assert g.distance("manuxet-marshes.salt-meadows", "university.faculty-row") == 2


def test_taking_the_witness_starts_the_chase_and_delivering_her_wins() -> None:
    """Sheet innsmouth-road, archives 3, 7 and 5: at the Curing Sheds the codex action gives Temperance Ware's
    card and adds card 7 (the Reef Warden appears at the Order Hall); in the University Library the action of
    card 7 takes her card as its cost and adds card 5, which wins."""
    state = _found()
    i = board.inv(state, 0)
    assert "codex:3" not in ids(state)  # only at the Curing Sheds
    i.space = SHEDS
    answer(state, "codex:3")
    settle(state)
    assert any(a.card == WITNESS for a in i.assets) and 7 in state.codex
    warden = next(m for m in state.monsters if m.card == "archive:7")
    assert warden.space == "innsmouth.order-hall"
    assert "codex:3" not in ids(state)  # she is no longer in the special pile
    state.monsters.remove(warden)
    i.space = LIBRARY
    i.actions_used = []
    answer(state, "codex:7")
    answer(state, "yes")
    assert state.over and state.result == "win" and WITNESS in state.special_pile


def test_delivering_needs_the_witness_in_hand() -> None:
    """Sheet innsmouth-road, archive 7: the delivery pays with her card, so it is offered only to whoever holds
    it ([ruling] a codex action that would change nothing is not offered)."""
    state = _found(players=2)
    state.codex.append(7)
    for s in (0, 1):
        board.inv(state, s).space = LIBRARY
    board.inv(state, 1).assets.append(Asset(card=WITNESS))
    state.special_pile.remove(WITNESS)
    assert not codex_action_open(state, 0, board.scenario(state).archive[7].action)
    assert codex_action_open(state, 1, board.scenario(state).archive[7].action)


def test_the_warden_hunts_whoever_holds_the_witness() -> None:
    """Sheet innsmouth-road, archive 7: the Reef Warden's prey is the investigator holding Temperance Ware, even
    when another investigator is nearer (digest 4.2 hunters and prey)."""
    state = _found(players=2)
    state.codex.append(7)
    warden = add_monster(state, "archive:7", "innsmouth.order-hall")
    board.inv(state, 0).space = "street.federal-street"  # next to the Warden
    board.inv(state, 1).space = "manuxet-marshes.salt-meadows"
    board.inv(state, 1).assets.append(Asset(card=WITNESS))
    run(state, "activate", uid=warden.uid)
    settle(state)
    assert warden.prey == 1
    assert board.graph(state).distance(warden.space or "", "manuxet-marshes.salt-meadows") == 1
    assert warden.engaged == []  # it went round the nearer investigator


def test_losing_the_witness_puts_doom_on_the_sheet_and_she_goes_back_into_hiding() -> None:
    """Sheet innsmouth-road, archive 3 and her card: if her card is discarded (here: full of damage she took for
    her escort, digest 6.1), 2 doom go on the scenario sheet and she can be taken again at the Curing Sheds."""
    state = _found()
    i = board.inv(state, 0)
    i.assets.append(Asset(card=WITNESS))
    state.special_pile.remove(WITNESS)
    sheet = state.sheet_doom
    run(state, "harm", 0, kind="damage", n=2, direct=False)
    witness_option = next(o for o in api.prompts(state)[0].options if "Temperance" in o.label)
    answer(state, witness_option.id)
    settle(state)
    assert WITNESS in state.special_pile and state.sheet_doom == sheet + 2
    i.space = SHEDS
    assert codex_action_open(state, 0, board.scenario(state).archive[3].action)


def test_the_spring_tide_ends_the_chase() -> None:
    """Sheet innsmouth-road, archive 7: at round 16 the spring tide comes in (card 6: the investigators lose)."""
    state = _found()
    state.codex.append(7)
    state.round = 15
    run(state, "codex")
    assert not state.over
    state.round = 16
    run(state, "codex")
    assert state.over and state.result == "loss"
