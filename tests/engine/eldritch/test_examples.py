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
