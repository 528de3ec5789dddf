"""The base rulebook's worked examples, replayed with fixed dice (Eldritch Horror rulebook: "Action Phase
Example", "Encounter Example", "Combat Example"). Our investigators carry the example's stat lines; their
passive abilities are set to one that does not touch the example, so each step is the rulebook's."""

from __future__ import annotations

from engine.eldritch.content import ComplexCard, EldritchContent
from engine.eldritch.ops import push
from engine.eldritch.state import MonsterToken
from tests.engine.eldritch.helpers import at_moment, choose, dice, new, prompt, run, texts, variant

NEUTRAL = "gate_clue"  # a passive that only acts when a Gate is closed


def _neutral(c: EldritchContent, *ids: str) -> None:
    for i in ids:
        c.investigators[i].passive.kind = NEUTRAL


def test_action_phase_example_travel_with_a_train_ticket_then_rest() -> None:
    """Rulebook, Action Phase Example: from San Francisco, Travel to space 5 and spend the Train Ticket to go on
    along the train path to Arkham; then Rest: Sanity is already full, so only 1 Health comes back."""
    version = variant(lambda c: _neutral(c, "eh.investigator.callum-orourke"))
    state = at_moment(new(1), version)
    inv = state.investigators[0]
    inv.card, inv.space, inv.train, inv.ship = "eh.investigator.callum-orourke", "san-francisco", 1, 0
    inv.health, inv.sanity = 7, 4  # max 8 Health, max 4 Sanity
    state.monsters.clear()
    push(state, "turn", 0)
    run(state)
    assert "travel:arkham" in {o.id for o in prompt(state).options}
    assert prompt(state).option("travel:arkham").label == "Travel to Arkham (1 train ticket)"  # type: ignore[union-attr]
    choose(state, "travel:arkham")
    assert (inv.space, inv.train) == ("arkham", 0)
    events = choose(state, "rest")
    assert (inv.health, inv.sanity) == (8, 4)
    assert any("recovers 1 Health" in t for t in texts(events))
    assert not any("Sanity" in t and "recovers" in t for t in texts(events))
    assert state.flow.stack == []  # two actions taken: the turn is over


def test_encounter_example_other_world_fail_then_pay_a_clue() -> None:
    """Rulebook, Encounter Example: on a Gate, an Other World card asks for Observation -1; Observation 3 - 1 =
    2 dice; no 5 or 6, so the fail effect: lose 3 Sanity unless 1 Clue is spent; then the card is discarded."""
    card = ComplexCard(id="eh.ow.test-hall", name="A Hall of Tablets", text="A reading room the size of a city.",
                       effects=[{"test": {"skill": "observation", "mod": -1,
                                          "pass": [{"close_gate": True}],
                                          "fail": [{"unless": {"cost": [{"clues": -1}],
                                                               "else": [{"sanity": -3}]}}]}}])

    def change(c: EldritchContent) -> None:
        _neutral(c, "eh.investigator.callum-orourke")
        c.other_worlds[card.id] = card

    version = variant(change)
    state = at_moment(new(1), version)
    inv = state.investigators[0]
    inv.card, inv.space, inv.clues, inv.sanity = "eh.investigator.callum-orourke", "arkham", 1, 4
    state.monsters.clear()
    state.gates["arkham"] = "red"
    state.decks["other_world"].draw_pile.append(card.id)
    push(state, "encounter_turn", 0)
    run(state)
    dice(state, 2, 3)
    events = choose(state, "other_world")
    assert any("2 dice" in t for t in texts(events))
    p = prompt(state)  # the reroll question (a Clue is held); keep the failure
    assert p.title == "Dice: 2 3"
    choose(state, "keep")
    assert [o.label for o in prompt(state).options] == ["Pay: Lose 1 Clue", "Refuse: Lose 3 Sanity"]
    choose(state, "pay")
    assert (inv.clues, inv.sanity) == (0, 4)
    assert state.decks["other_world"].discard_pile[-1] == card.id
    assert "arkham" in state.gates  # failed: the Gate stays open


def test_combat_example() -> None:
    """Rulebook, Combat Example: Will 3 vs horror 2, 1 success: lose 1 Sanity. Strength 4 - 1 + 2 (a +2 combat
    weapon) = 5 dice, 1 success vs damage 1: no Health lost; the Monster takes 1 and survives (toughness 2)."""
    version = variant(lambda c: _neutral(c, "eh.investigator.sun-yuexin"))
    state = at_moment(new(1), version)
    inv = state.investigators[0]
    inv.card, inv.space, inv.clues = "eh.investigator.sun-yuexin", "space-4", 0
    inv.health, inv.sanity = 6, 6
    inv.assets = ["eh.asset.army-revolver"]
    state.monsters = [MonsterToken(uid=99, kind="eh.monster.deep-one", space="space-4")]
    push(state, "fight", 0, uid=99)
    dice(state, 5, 2, 3)  # Will: 3 dice, 1 success
    dice(state, 6, 1, 2, 3, 4)  # Strength: 5 dice, 1 success
    events = run(state)
    lines = texts(events)
    assert any("Will 3: 3 dice" in t for t in lines)
    assert any("Strength 4 -1 +2" in t and "5 dice" in t for t in lines)
    assert (inv.sanity, inv.health) == (5, 6)
    assert state.monsters[0].damage == 1 and state.flow.stack == []


def _sun_at(space: str, version: str):  # type: ignore[no-untyped-def]
    state = at_moment(new(1), version)
    inv = state.investigators[0]
    inv.card, inv.space, inv.health, inv.sanity = "eh.investigator.sun-yuexin", space, 6, 6
    inv.assets, inv.artifacts, inv.spells, inv.conditions, inv.clues = [], [], [], [], 0
    state.monsters.clear()
    return state, inv


def test_component_actions_example_sheet_then_asset() -> None:
    """Rulebook, "Component Actions" example: an investigator uses the action on her sheet, then for her second
    action one printed on an Asset she holds: different components, both in one turn."""
    state, inv = _sun_at("shanghai", variant(lambda c: _neutral(c, "eh.investigator.sun-yuexin")))
    inv.assets = ["eh.asset.railway-timetable"]
    inv.health = 3
    push(state, "turn", 0)
    run(state)
    dice(state, 5, 1)  # the sheet's Will (-1) test: Will 3 - 1 = 2 dice, a pass
    choose(state, "use:eh.investigator.sun-yuexin")
    assert inv.health == 5
    assert "use:eh.investigator.sun-yuexin" not in {o.id for o in prompt(state).options}
    choose(state, "use:eh.asset.railway-timetable")
    assert inv.train == 1 and state.flow.stack == []


def test_tests_on_cards_example_a_rest_test_failed() -> None:
    """Rulebook, "Tests" example: an investigator whose tome says "when you rest, test Lore; pass: gain a Spell"
    rests, rolls 2 dice showing 1 and 3, fails, and gains no Spell. Our Black-Letter Folio tests Lore (-1) and
    gives +1 Lore, so Lore 2 rolls the example's 2 dice."""
    state, inv = _sun_at("shanghai", variant(lambda c: _neutral(c, "eh.investigator.sun-yuexin")))
    inv.assets = ["eh.asset.black-letter-folio"]
    inv.health = 5
    push(state, "turn", 0)
    run(state)
    dice(state, 1, 3)
    events = choose(state, "rest")
    assert any("Lore 2 -1 +1 (Black-Letter Folio): 2 dice → 1 3" in t for t in texts(events))
    assert inv.spells == [] and inv.health == 6


def test_location_encounter_example_general_or_region_deck() -> None:
    """Rulebook, "Location Encounters" example: on Arkham an investigator may draw from the General deck (and
    read its City section) or from the America deck (and read Arkham's section)."""
    state, inv = _sun_at("arkham", variant(lambda c: _neutral(c, "eh.investigator.sun-yuexin")))
    push(state, "encounter_turn", 0)
    run(state)
    options = {o.id: o.data for o in prompt(state).options}
    assert options["location"] == ("location", "") and options["location:general"] == ("location", "general")
    general_before = len(state.decks["general"].draw_pile)
    america_before = len(state.decks["america"].draw_pile)
    dice(state, *([5] * 12))
    choose(state, "location:general")
    while prompt_or_none(state) is not None:
        choose(state, prompt(state).options[0].id)
    assert len(state.decks["general"].draw_pile) == general_before - 1
    assert len(state.decks["america"].draw_pile) == america_before


def prompt_or_none(state):  # type: ignore[no-untyped-def]
    from engine import api

    pending = api.prompts(state)
    return pending[0] if pending else None


def test_spawn_icon_example_a_monster_moves_when_it_spawns() -> None:
    """Rulebook, "Spawning Monsters": a Monster with the spawn icon resolves its spawn effect at once (e.g. it
    moves to the Heart of Africa)."""
    from engine.eldritch import world as W

    state, _ = _sun_at("arkham", variant(lambda c: None))
    state.cup = ["eh.monster.deep-borer"]  # its spawn effect: move to the Heart of Africa
    W.spawn_monster(state, "rome", [], "test")
    run(state)
    assert [(m.kind, m.space) for m in state.monsters] == [("eh.monster.deep-borer", "the-heart-of-africa")]


def test_setup_example_doom_and_omen() -> None:
    """Rulebook, setup step 9 example: Azathoth's sheet starts Doom on 15; the Omen starts on green."""
    state = new(2, ao="azathoth")
    assert state.doom == 15 and state.omen_colour == "green"
