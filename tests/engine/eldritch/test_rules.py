"""Eldritch Horror rules, each test citing the rules digest section (docs/eldritch.md holds our rulings)."""

from __future__ import annotations

from engine import api
from engine.eldritch import world as W
from engine.eldritch.checks import pool_size
from engine.eldritch.content import EldritchContent
from engine.eldritch.ops import push
from engine.eldritch.possessions import gain_condition, gain_ticket, improve
from engine.eldritch.setup import build_mythos
from engine.eldritch.state import MonsterToken
from tests.engine.eldritch.helpers import at_moment, choose, dice, new, prompt, run, texts, variant

SUN = "eh.investigator.sun-yuexin"  # Strength 4, Will 3, 6 Health / 6 Sanity


def _sun(state, space: str = "space-4"):  # type: ignore[no-untyped-def]
    inv = state.investigators[0]
    inv.card, inv.space, inv.health, inv.sanity, inv.clues = SUN, space, 6, 6, 0
    inv.assets, inv.spells, inv.conditions, inv.artifacts = [], [], [], []
    state.monsters.clear()
    return inv


def _plain(c: EldritchContent) -> None:
    c.investigators[SUN].passive.kind = "gate_clue"


def test_pool_minimum_one_die_and_only_the_best_bonus() -> None:
    """Digest 4.1: skill + modifier + the single highest bonus; at least 1 die."""
    state = at_moment(new(1), variant(_plain))
    _sun(state)
    state.investigators[0].assets = ["eh.asset.army-revolver", "eh.asset.silvered-letter-opener"]
    assert pool_size(state, 0, "strength", -1, combat=True)[0] == 4 - 1 + 2  # two +2 weapons: one bonus counts
    assert pool_size(state, 0, "strength", -1, combat=False)[0] == 3  # combat-only bonuses off outside combat
    assert pool_size(state, 0, "lore", -5)[0] == 1


def test_blessed_fours_succeed_and_cursed_fives_do_not() -> None:
    """Digest 4.5: Blessed counts 4s; Cursed counts only 6s; gaining one discards the other."""
    state = at_moment(new(1), variant(_plain))
    _sun(state)
    events: list = []
    gain_condition(state, 0, "blessed", "test", events)
    push(state, "test", 0, skill="will", mod=0, need=1, on_pass=[{"clues": 1}], on_fail=[], per_success=[],
         card=None, combat=False, acquire=False, resist=None, then=None, then_args={}, source="test", bonus=0)
    dice(state, 4, 1, 1)
    run(state)
    assert state.investigators[0].clues == 1
    gain_condition(state, 0, "cursed", "test", events)
    from engine.eldritch.content import default_content

    kinds = [default_content().conditions[k].kind for k in state.investigators[0].conditions]
    assert kinds == ["cursed"]
    state.investigators[0].clues = 0  # no Clue to reroll with: the roll below stands as it falls
    push(state, "test", 0, skill="will", mod=0, need=1, on_pass=[{"clues": 1}], on_fail=[], per_success=[],
         card=None, combat=False, acquire=False, resist=None, then=None, then_args={}, source="test", bonus=0)
    dice(state, 5, 5, 4)
    run(state)
    assert not api.prompts(state)  # settled: no reroll question held it back
    assert state.investigators[0].clues == 0  # a 5 is no success while Cursed: the test failed


def test_clue_reroll_and_the_result_after_the_last_reroll_stands() -> None:
    """Digest 4.3: spend 1 Clue to reroll one die; the new result stands."""
    state = at_moment(new(1), variant(_plain))
    inv = _sun(state)
    inv.clues = 2
    push(state, "test", 0, skill="lore", mod=0, need=1, on_pass=[{"sanity": 0}], on_fail=[{"health": -1}],
         per_success=[], card=None, combat=False, acquire=False, resist=None, then=None, then_args={},
         source="test", bonus=0)
    dice(state, 1, 2)
    run(state)
    dice(state, 6)
    choose(state, "clue:1")
    assert inv.clues == 1
    assert prompt(state).title == "Dice: 6 2"
    choose(state, "keep")
    assert inv.health == 6  # passed


def test_improvements_cap_at_two_and_tickets_at_two() -> None:
    """Digest 4.8 (at most +2 per skill) and 3.1 Prepare (at most 2 tickets; Rulebook, Prepare for Travel: over
    2, the player chooses which 2 to keep)."""
    state = at_moment(new(1), variant(_plain))
    inv = _sun(state)
    events: list = []
    for _ in range(4):
        improve(state, 0, "lore", "test", events)
    assert inv.improve["lore"] == 2
    for kind in ("train", "train", "train"):
        gain_ticket(state, 0, kind, "test", events)
    assert inv.train + inv.ship == 2
    gain_ticket(state, 0, "ship", "test", events)  # over 2 with a choice: the player keeps 2 (the new one first)
    run(state)
    assert prompt(state).title == "Keep which 2 of your 3 travel tickets?"
    assert [o.id for o in prompt(state).options] == ["keep:1:1", "keep:2:0"]
    choose(state, "keep:1:1")
    assert (inv.train, inv.ship) == (1, 1)


def test_each_action_once_per_round_and_rest_and_acquire_limits() -> None:
    """Digest 3.1: an action at most once per round; no Rest with a Monster here; Acquire only in a City with
    no Monster."""
    state = at_moment(new(1), variant(_plain))
    inv = _sun(state, "shanghai")
    inv.health = 5
    push(state, "turn", 0)
    run(state)
    ids = {o.id for o in prompt(state).options}
    assert {"rest", "acquire"} <= ids
    choose(state, "rest")
    assert "rest" not in {o.id for o in prompt(state).options}
    state.monsters.append(MonsterToken(uid=50, kind="eh.monster.deep-one", space="shanghai"))
    assert "acquire" not in {o.id for o in prompt(state).options}
    inv.space = "the-himalayas"
    state.monsters.clear()
    assert "acquire" not in {o.id for o in prompt(state).options}  # not a City


def test_rest_recovers_one_of_each_never_beside_a_monster_and_prepare_only_in_a_city() -> None:
    """Digest 3.1 (Rulebook, Rest and Prepare for Travel): Rest recovers 1 Health and 1 Sanity and cannot be
    taken on a space with a Monster; Prepare for Travel gains a ticket only on a City space."""
    state = at_moment(new(1), variant(_plain))
    inv = _sun(state, "shanghai")
    inv.health, inv.sanity = 4, 4
    push(state, "turn", 0)
    run(state)
    assert {"prepare:train", "prepare:ship"} & {o.id for o in prompt(state).options}  # a City
    choose(state, "rest")
    assert (inv.health, inv.sanity) == (5, 5)

    state = at_moment(new(1), variant(_plain))
    inv = _sun(state, "shanghai")
    inv.health, inv.sanity = 4, 4
    state.monsters.append(MonsterToken(uid=51, kind="eh.monster.deep-one", space="shanghai"))
    push(state, "turn", 0)
    run(state)
    assert "rest" not in {o.id for o in prompt(state).options}

    state = at_moment(new(1), variant(_plain))
    _sun(state, "tunguska")  # a Wilderness space with a railway path
    push(state, "turn", 0)
    run(state)
    assert not [o.id for o in prompt(state).options if o.id.startswith("prepare:")]


def test_a_monster_left_standing_takes_the_place_of_the_encounter() -> None:
    """Digest 3.2 (Rulebook, Encounter Phase): an investigator on a space with a Monster fights it first, and
    has another encounter only if no Monster is left there; one that survives the combat ends the encounter."""
    state = at_moment(new(1), variant(_plain))
    inv = _sun(state, "shanghai")
    state.monsters.append(MonsterToken(uid=52, kind="eh.monster.deep-one", space="shanghai"))  # toughness 2
    push(state, "encounter_turn", 0)
    dice(state, 1, 1, 1, 5, 1, 1)  # Will 3: no success (2 Sanity lost); Strength 4 - 1: one wound, not two
    events = run(state)
    assert state.monsters and state.monsters[0].damage == 1
    assert inv.sanity == 4
    assert not api.prompts(state) and not state.flow.stack  # no location, research or other encounter
    assert any("Monsters still hold" in t for t in texts(events))


def test_research_needs_a_clue_and_an_other_world_encounter_a_gate() -> None:
    """Digest 3.2 (Rulebook, Encounter Phase): a Research encounter is had on a space with a Clue token, an
    Other World encounter on a space with an open Gate; neither is offered elsewhere."""
    from engine.eldritch.encounters import encounter_options

    state = at_moment(new(1), variant(_plain))
    _sun(state, "space-4")
    state.clues.pop("space-4", None)
    state.gates.pop("space-4", None)
    offered = {o.id for o in encounter_options(state, 0)}
    assert "research" not in offered and "other_world" not in offered
    state.clues["space-4"] = 1
    state.gates["space-4"] = "red"
    offered = {o.id for o in encounter_options(state, 0)}
    assert {"research", "other_world"} <= offered


def test_delayed_on_your_own_turn_loses_the_remaining_actions() -> None:
    """Digest 3.1 Delayed: delayed during your own action turn ends it; delayed at the start: stand up."""
    state = at_moment(new(1), variant(_plain))
    inv = _sun(state)
    state.phase, state.current = "action", 0
    inv.actions_left = 2
    from engine.eldritch.effects import become_delayed

    become_delayed(state, 0, "test", [], payment=False)
    assert inv.actions_left == 0 and not inv.delayed
    state.current = None
    become_delayed(state, 0, "test", [], payment=False)
    assert inv.delayed
    push(state, "turn", 0)
    events = run(state)
    assert not inv.delayed and any("stand up" in t for t in texts(events)) and not state.flow.stack


def test_omen_advance_counts_matching_gates_and_azathoth_token() -> None:
    """Digest 3.3 Advance Omen: +1 doom per Gate of the new colour; Azathoth's token on green adds 1."""
    state = at_moment(new(1, ao="azathoth"), variant(_plain))
    state.gates = {"arkham": "red", "rome": "red", "london": "blue"}
    state.omen, state.doom = 1, 15  # blue -> red
    W.advance_omen(state, 1, "test", [])
    assert state.doom == 13
    state.omen = 3  # blue -> green, which holds Azathoth's Eldritch token
    W.advance_omen(state, 1, "test", [])
    assert state.doom == 12


def test_monster_surge_without_a_matching_gate_opens_a_gate() -> None:
    """Digest 3.3 Monster Surge: with no Gate of the omen's colour, spawn 1 Gate instead."""
    from engine.eldritch.mythos import monster_surge

    state = at_moment(new(1), variant(_plain))
    state.gates.clear()
    state.omen = 0
    before = len(state.gate_stack)
    monster_surge(state, 2, "test", [])
    assert len(state.gates) == 1 and len(state.gate_stack) == before - 1


def test_monster_surge_spawns_only_at_gates_of_the_omens_colour() -> None:
    """Digest 3.3 Monster Surge (Rulebook, Mythos Phase): Monsters spawn, the Reference card's number each, at
    every open Gate whose colour matches the omen; a Gate of another colour gets none."""
    from engine.eldritch.mythos import monster_surge

    state = at_moment(new(1), variant(_plain))
    state.monsters.clear()
    colour = state.omen_colour
    other = next(c for c in ("green", "blue", "red") if c != colour)
    state.gates = {"space-4": colour, "shanghai": other}
    state.cup = ["eh.monster.deep-one"] * 4  # no spawn effect: each stays where it appears
    monster_surge(state, 2, "test", [])
    run(state)
    assert sorted(m.space for m in state.monsters) == ["space-4", "space-4"]


def test_no_gate_left_advances_doom() -> None:
    """Digest 3.4 Spawn Gate: with the stack and its discard empty, doom advances 1 instead."""
    state = at_moment(new(1), variant(_plain))
    state.gate_stack, state.gate_discard, state.doom = [], [], 10
    W.spawn_gate(state, [], "test")
    assert state.doom == 9


def test_defeat_steps() -> None:
    """RG Defeated Investigators: doom advances 1, the token lies at the nearest City with the possessions,
    Conditions and Improvements go; after the Mythos Phase a new investigator is chosen."""
    state = at_moment(new(2), variant(_plain))
    inv = _sun(state, "the-himalayas")
    inv.assets, inv.clues, inv.improve = ["eh.asset.army-revolver"], 2, {"lore": 1}
    gain_condition(state, 0, "debt", "test", [])
    state.doom = 10
    state.lead = 0
    events: list = []
    from engine.eldritch.possessions import change_track

    change_track(state, 0, "sanity", -6, "test", events)
    assert state.doom == 9 and inv.defeated and inv.card is None
    token = state.defeated[-1]
    assert token.space == "shanghai" and token.track == "sanity" and token.assets == ["eh.asset.army-revolver"]
    assert token.clues == 2 and inv.conditions == [] and inv.improve == {}
    assert [f.op for f in state.flow.stack] == ["pass_lead"]  # the Lead token must pass


def test_finding_a_defeated_investigator_gives_their_possessions() -> None:
    """Digest 6: another investigator on that space takes their possessions, then resolves the encounter."""
    state = at_moment(new(2), variant(_plain))
    _sun(state, "the-himalayas")
    state.investigators[0].sanity = 1
    from engine.eldritch.possessions import change_track

    state.investigators[0].assets = ["eh.asset.army-revolver"]
    change_track(state, 0, "sanity", -1, "test", [])
    state.flow.stack.clear()
    other = state.investigators[1]
    other.space, other.clues = "shanghai", 0
    state.monsters.clear()
    push(state, "encounter_turn", 1)
    run(state)
    choose(state, label="Find")
    assert "eh.asset.army-revolver" in other.assets
    assert not state.defeated


def test_azathoth_awakening_loses_and_an_empty_mythos_deck_loses() -> None:
    """Digest 7: Azathoth awake is the end; a Mythos card that cannot be drawn is a loss."""
    state = at_moment(new(1, ao="azathoth"), variant(_plain))
    events: list = []
    W.advance_doom(state, state.doom, "test", events)
    run(state)
    assert state.over and state.result == "loss"
    state = at_moment(new(1), variant(_plain))
    state.decks["mythos"].draw_pile.clear()
    push(state, "mythos_phase")
    run(state)
    assert state.over and state.result == "loss"


def test_mysteries_solved_by_half_the_investigators_and_three_win() -> None:
    """Digest 1.9 and 7: tokens equal to half the investigators (rounded up) solve a Mystery; the next one
    comes into play; the third solved wins."""
    state = at_moment(new(3), variant(_plain))
    c_need = W.need_of(state, "half")
    assert c_need == 2
    for _ in range(3):
        from engine.eldritch.content import default_content

        m = state.mystery
        assert m is not None
        if default_content().mysteries[m].epic:
            W.solve_mystery(state, [])
        else:
            W.add_mystery_tokens(state, 2, [], "test")
        state.flow.stack.clear()
    assert state.over and state.result == "win" and len(state.solved) == 3


def test_win_and_loss_from_one_roll_is_a_win() -> None:
    """Digest 7: the last investigator and the Epic Monster of the Final Mystery fall to the same roll: a win."""
    state = at_moment(new(1, ao="cthulhu"), variant(_plain))
    inv = _sun(state, "space-3")
    state.awakened = True
    inv.health = 1
    state.monsters = [MonsterToken(uid=7, kind="eh.epic.cthulhu", space="space-3", damage=3)]
    push(state, "fight_strength_result", 0, uid=7, damage=5, successes=1)
    run(state)
    assert state.over and state.result == "win"


def test_detained_resolves_its_back_instead_of_an_encounter() -> None:
    """Digest 3.2 step 1: a Detained investigator turns the Condition over instead of encountering, even with
    Monsters present."""
    state = at_moment(new(1), variant(_plain))
    _sun(state)
    gain_condition(state, 0, "detained", "test", [])
    state.monsters = [MonsterToken(uid=5, kind="eh.monster.deep-one", space="space-4")]
    push(state, "encounter_turn", 0)
    events = run(state)
    assert any("is detained" in t for t in texts(events))
    assert not any("fights" in t for t in texts(events))


def test_mythos_deck_stages_and_difficulty() -> None:
    """Setup step 8 and digest 10: stage I on top, then II, then III, by the Ancient One's colour counts; Easy
    leaves out hard cards."""
    from engine.core.rng import Rng
    from engine.eldritch.content import default_content

    c = default_content()
    ao = c.ancient_ones["eh.ao.azathoth"]
    pile = build_mythos(c, ao.id, "easy", Rng.from_seed(3))
    sizes = [s.green + s.yellow + s.blue for s in ao.stages]
    assert len(pile) == sum(sizes)
    top_stage = pile[-sizes[0]:]
    assert sorted(c.mythos[m].color for m in top_stage) == sorted(
        ["green"] * ao.stages[0].green + ["yellow"] * ao.stages[0].yellow + ["blue"] * ao.stages[0].blue)
    assert all(c.mythos[m].difficulty != "hard" for m in pile)


def test_reckoning_runs_monsters_then_ancient_one_then_ongoing_then_investigators() -> None:
    """Digest 3.3 Reckoning: the fixed order, from a snapshot."""
    from engine.eldritch.mythos import reckoning

    state = at_moment(new(1, ao="azathoth"), variant(_plain))
    _sun(state)
    state.monsters = [MonsterToken(uid=3, kind="eh.monster.deep-one", space="space-4")]
    gain_condition(state, 0, "blessed", "test", [])
    reckoning(state, [])
    sources = [f.args.get("source") for f in reversed(state.flow.stack) if f.op == "fx"]
    assert sources[0] == "eh.monster.deep-one"
    assert sources[-1].startswith("eh.condition.")
