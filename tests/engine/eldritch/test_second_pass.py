"""Eldritch Horror rules found by the second rules pass (issue 28): a defeated investigator's travel tickets,
spawn effects during setup, Monsters with no Strength test, advancing the active Mystery, and decisions that
are the player's (which die a Clue rerolls, which tickets to keep). Our rulings: docs/eldritch.md."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from engine import api
from engine.core.prompt import Action
from engine.eldritch import world as W
from engine.eldritch.content import EldritchContent, Monster, default_content
from engine.eldritch.ops import push, resolve
from engine.eldritch.possessions import change_track, gain_ticket
from engine.eldritch.state import DefeatedToken, EldritchState, MonsterToken
from tests.engine.eldritch.helpers import at_moment, choose, dice, new, prompt, run, texts, variant

SUN = "eh.investigator.sun-yuexin"  # Strength 4, Will 3, Lore 2; 6 Health / 6 Sanity


def _plain(c: EldritchContent) -> None:
    for i in c.investigators.values():
        i.passive.kind = "gate_clue"


def _setup(players: int = 1) -> EldritchState:
    state = at_moment(new(players), variant(_plain))
    for inv in state.investigators:
        inv.assets, inv.spells, inv.conditions, inv.artifacts, inv.clues = [], [], [], [], 0
        inv.train = inv.ship = 0
    state.monsters.clear()
    return state


def _option_ids(state: EldritchState) -> list[str]:
    return [o.id for o in prompt(state).options]


# ------------------------------------------------------------------ 1. a defeated investigator's tickets


def _defeat_sun(state: EldritchState, train: int, ship: int) -> DefeatedToken:
    """Seat 0 plays Sun Yuexin in the Himalayas and loses her last Sanity there (her body lies at Shanghai)."""
    inv = state.investigators[0]
    inv.card, inv.space, inv.health, inv.sanity = SUN, "the-himalayas", 6, 1
    inv.train, inv.ship = train, ship
    change_track(state, 0, "sanity", -1, "test", [])
    state.flow.stack.clear()
    return state.defeated[-1]


def test_a_defeated_investigators_tickets_lie_with_the_body_and_the_finder_takes_them() -> None:
    """Rulebook p.14, Defeated Investigators step 3: travel tickets are possessions, kept on the sheet with the
    others; whoever encounters the defeated investigator gains all of them."""
    state = _setup(2)
    token = _defeat_sun(state, train=1, ship=1)
    assert (token.train, token.ship) == (1, 1)
    assert (state.investigators[0].train, state.investigators[0].ship) == (0, 0)
    finder = state.investigators[1]
    finder.space = token.space
    push(state, "encounter_turn", 1)
    run(state)
    events = choose(state, label="Find")
    assert (finder.train, finder.ship) == (1, 1)
    assert any("1 train ticket and 1 ship ticket" in t for t in texts(events))
    assert not state.defeated


def test_found_tickets_over_the_limit_ask_the_finder_which_two_to_keep() -> None:
    """Rulebook p.14 (the finder gains the tickets) and Prepare for Travel (over two tickets, the player chooses
    two to keep): the question comes before the defeated investigator's encounter, which then resolves."""
    state = _setup(2)
    token = _defeat_sun(state, train=1, ship=0)
    finder = state.investigators[1]
    finder.space, finder.ship = token.space, 2
    push(state, "encounter_turn", 1)
    run(state)
    choose(state, label="Find")
    assert prompt(state).title == "Keep which 2 of your 3 travel tickets?"
    assert _option_ids(state) == ["keep:1:1", "keep:0:2"]
    dice(state, *([1] * 8))  # the insane encounter's test, if it has one, fails
    events = choose(state, "keep:0:2")
    assert (finder.train, finder.ship) == (0, 2)
    assert any(e.cause == SUN for e in events)  # then the encounter on the sheet's back resolves


# ------------------------------------------------------------------ 5. the player's own decisions


def _test_frame(state: EldritchState, skill: str = "lore") -> None:
    push(state, "test", 0, skill=skill, mod=0, need=1, on_pass=[], on_fail=[], per_success=[], card=None,
         combat=False, acquire=False, resist=None, then=None, then_args={}, source="test", bonus=0)


def test_a_clue_rerolls_the_failed_die_the_player_picks() -> None:
    """Rulebook, Rerolling Dice: spending a Clue rerolls one die, the player's pick; one option per failed face,
    and keeping the roll stays the default."""
    state = _setup()
    inv = state.investigators[0]
    inv.card, inv.space, inv.health, inv.sanity, inv.clues = SUN, "space-4", 6, 6, 1
    _test_frame(state)  # Lore 2: two dice
    dice(state, 1, 3)
    run(state)
    p = prompt(state)
    assert [o.id for o in p.options] == ["keep", "clue:1", "clue:3"] and p.default == ["keep"]
    dice(state, 2)
    events = choose(state, "clue:3")
    assert any(t.endswith("1 3 → 1 2.") for t in texts(events))  # the 3 was rerolled, the 1 stays
    # issue 30 item 12: the narration names the die rerolled, even when it comes up the same
    assert any(" rerolls the 3 with 1 Clue: " in t for t in texts(events)), texts(events)


def test_a_free_reroll_of_one_die_also_lets_the_player_pick_it() -> None:
    """Rulebook, Rerolling Dice (each reroll effect resolves separately): a card's one-die reroll names the die
    too."""
    state = _setup()
    inv = state.investigators[0]
    inv.card, inv.space, inv.health, inv.sanity = SUN, "space-4", 6, 6
    inv.assets = ["eh.asset.hired-detective"]  # +1 Observation, and rerolls 1 Observation die
    _test_frame(state, "observation")
    dice(state, 2, 4, 1)  # Sun's Observation 2, +1: three dice
    run(state)
    detective = "free:eh.asset.hired-detective#0"
    assert _option_ids(state) == ["keep", f"{detective}:1", f"{detective}:2", f"{detective}:4"]
    dice(state, 6)
    events = choose(state, f"{detective}:4")
    assert any(t.endswith("2 4 1 → 2 6 1.") for t in texts(events))  # the 4 was rerolled, the others stay


def test_over_two_tickets_after_a_trade_the_receiver_chooses_which_to_keep() -> None:
    """Rulebook, Prepare for Travel: a player with more than two travel tickets chooses two to keep and discards
    the rest; after a Trade the receiver is asked (keeping train tickets first is the default)."""
    state = _setup(2)
    a, b = state.investigators
    a.space = b.space = "rome"
    a.ship, b.train = 1, 2
    push(state, "turn", 0)
    run(state)
    choose(state, label="Trade with")
    p = prompt(state)
    give = [o.id for o in p.options if o.label == "Give 1 ship ticket"]
    api.apply(state, Action(seat=0, prompt=p.seq, choice=give), in_place=True, prompt=p)
    choose(state, "yes")
    p = prompt(state)
    assert p.seats == [1] and p.title == "Keep which 2 of your 3 travel tickets?"
    assert [o.id for o in p.options] == ["keep:2:0", "keep:1:1"] and p.default == ["keep:2:0"]
    choose(state, "keep:1:1")
    assert (b.train, b.ship) == (1, 1) and (a.train, a.ship) == (0, 0)


# ------------------------------------------------------------------ 2. spawn effects during setup


def test_a_monster_spawned_at_setup_resolves_its_spawn_effect_at_once() -> None:
    """Rulebook, Spawning Monsters: a Monster with a spawn effect resolves it immediately after spawning, also
    at setup. With seed 6 the first Gate's Monster is the Colour Out of Space, whose spawn effect moves it to
    Tunguska; nothing of setup is left waiting beneath the first round."""
    state = new(1, seed=6)
    colour = next(m for m in state.monsters if m.kind == "eh.monster.colour-out-of-space")
    assert colour.space == "tunguska" and "tunguska" not in state.gates
    assert "fx" not in [f.op for f in state.flow.stack]


# ------------------------------------------------------------------ 3. Monsters with no Strength test

COLOUR = "eh.monster.colour-out-of-space"
GHOST = "eh.monster.ghost"


def _fight(state: EldritchState, kind: str, wounds: int = 0, spells: list[str] | None = None) -> MonsterToken:
    inv = state.investigators[0]
    inv.card, inv.space, inv.health, inv.sanity = SUN, "space-4", 6, 6
    inv.spells = list(spells or [])
    token = W.place_monster(state, kind, "space-4")
    token.damage = wounds
    push(state, "fight", 0, uid=token.uid, source=kind)
    return token


def test_a_monster_with_no_strength_test_is_fought_with_its_own_test_and_can_be_defeated() -> None:
    """Our ruling (docs/eldritch.md) on the base game's Monsters with no Strength test (the Colour Out of Space):
    it is fought with the test its card names in place of Strength (Lore -1 here); the successes wound it as a
    Strength test's would (Rulebook, Combat Encounters) and it costs its damage less the successes."""
    state = _setup()
    token = _fight(state, COLOUR, wounds=1)
    dice(state, 6, 6, 1)  # Will 3: 2 successes against horror 2, no Sanity lost
    dice(state, 5)  # Lore 2 - 1: one die, a success
    events = run(state)
    lines = texts(events)
    assert any("Lore -1 instead of Strength, damage 2" in t for t in lines)  # the fight says how it is fought
    assert any(t.startswith("Colour Out of Space cannot be fought with Strength") for t in lines)
    assert token not in state.monsters and COLOUR in state.cup  # 2 wounds of 2: defeated, back in the cup
    assert state.investigators[0].health == 5  # damage 2 less 1 success


def test_combat_spells_are_offered_before_the_test_that_replaces_strength() -> None:
    """Rulebook, Combat Encounters (combat spells are cast before the Strength test) with our ruling: before the
    test that replaces it, for a Monster that has one; a spell that wounds the Monster works as usual."""
    state = _setup()
    token = _fight(state, GHOST, spells=["eh.spell.litany-of-ashes-1"])
    dice(state, 5, 5)  # Will 3 - 1: 2 dice against horror 2
    run(state)
    assert prompt(state).title == "Cast a spell before the Lore test (in place of Strength)?"
    dice(state, 6)  # Lore 2 - 1: the Litany passes, the Ghost loses 2 of its 2
    dice(state, 4)  # the back's roll
    choose(state, "eh.spell.litany-of-ashes-1")
    assert token not in state.monsters


def test_every_shipped_monster_can_be_defeated_in_combat() -> None:
    """Every Monster of the cup and every Epic Monster has a Strength test, a test in its place, or (a Cultist)
    the Ancient One sheet's rule; a Monster with none of them is refused when the content loads."""
    c = default_content()
    for m in c.monsters.values():
        assert m.damage is not None or m.combat_test is not None or m.cultist, m.id
        if m.combat_test is not None:
            assert "instead of Strength" in m.text, m.id  # the card says how it is fought
    assert {m.id for m in c.monsters.values() if m.combat_test is not None} == {COLOUR, GHOST}
    raw = c.monsters[COLOUR].model_dump(by_alias=True, exclude={"combat_test"})
    with pytest.raises(ValidationError, match="nothing can defeat it"):
        Monster.model_validate(raw)


# ------------------------------------------------------------------ 4. advancing the active Mystery

PIPER_MYSTERY = "eh.mystery.the-piper-in-the-passes"  # solved by defeating the Daemon Piper
PIPER = "eh.epic.daemon-piper"  # toughness: investigators + 2
PAY_CLUE_TO_ADVANCE = [{"spend": {"cost": [{"clues": -1}], "then": [{"say": "At once."}, {"mystery": 1}]}}]


def _epic_mystery(players: int = 3, piper_on_board: bool = True) -> tuple[EldritchState, MonsterToken | None]:
    state = _setup(players)
    inv = state.investigators[0]
    inv.card, inv.space, inv.health, inv.sanity, inv.clues = SUN, "space-4", 6, 6, 1
    state.mystery, state.mystery_tokens = PIPER_MYSTERY, 0
    token = W.place_monster(state, PIPER, "the-himalayas") if piper_on_board else None
    return state, token


def test_advancing_an_epic_monster_mystery_wounds_its_epic_monster() -> None:
    """Reference Guide, Advancing the Active Mystery (each kind of Mystery advances its own way; our reading in
    docs/eldritch.md): a Research encounter's "lose 1 Clue to advance the Mystery" during a Mystery solved by
    defeating an Epic Monster has that Monster lose half the investigators (rounded up) in Health, named on the
    option, instead of taking the Clue for nothing."""
    state, piper = _epic_mystery(players=3)
    assert piper is not None
    resolve(state, 0, PAY_CLUE_TO_ADVANCE, "test")
    run(state)
    pay = next(o for o in prompt(state).options if o.id == "pay")
    assert "The Daemon Piper loses 2 Health" in pay.label
    choose(state, "pay")
    assert state.investigators[0].clues == 0 and piper.damage == 2


def test_advancing_can_defeat_the_epic_monster_and_so_solve_the_mystery() -> None:
    """Reference Guide, Advancing the Active Mystery, with Rulebook, Mysteries: the Health the Epic Monster loses
    counts toward its toughness; defeated, it solves the Mystery that needed it."""
    state, piper = _epic_mystery(players=2)  # toughness 2 + 2; half the investigators: 1
    assert piper is not None
    piper.damage = 3
    resolve(state, 0, [{"mystery": 1}], "test")
    run(state)
    assert piper not in state.monsters and PIPER_MYSTERY in state.solved


def test_an_epic_monster_not_on_the_board_loses_the_health_as_it_appears() -> None:
    """Reference Guide, Advancing the Active Mystery (our reading): with the Epic Monster not on the board the
    Health it would lose waits on the Mystery card and is lost when the Monster appears."""
    state, _ = _epic_mystery(players=3, piper_on_board=False)
    resolve(state, 0, [{"mystery": 1}], "test")
    run(state)
    assert state.mystery_tokens == 2
    resolve(state, None, [{"spawn_epic": {"monster": PIPER, "space": "the-himalayas"}}], PIPER_MYSTERY)
    run(state)
    piper = next(m for m in state.monsters if m.kind == PIPER)
    assert piper.damage == 2 and state.mystery_tokens == 0


def test_after_the_awakening_paying_to_advance_the_mystery_is_not_offered() -> None:
    """Reference Guide FAQ: advancing the active Mystery never affects the Final Mystery, and after the awakening
    there is no active Mystery: the Clue payment that would only advance it is not offered. (Yog-Sothoth's Final
    Mystery counts tokens of its own.)"""
    state = at_moment(new(1, ao="yog-sothoth"), variant(_plain))
    state.monsters.clear()
    inv = state.investigators[0]
    inv.card, inv.space, inv.health, inv.sanity, inv.clues = SUN, "space-4", 6, 6, 1
    state.awakened, state.mystery, state.final_tokens = True, None, 0
    resolve(state, 0, PAY_CLUE_TO_ADVANCE, "test")
    run(state)
    assert not api.prompts(state) and inv.clues == 1
    resolve(state, 0, [{"mystery": 1}], "test")
    run(state)
    assert state.final_tokens == 0 and not state.over


def test_gaining_a_ticket_over_the_limit_asks_which_two_to_keep_and_a_settled_question_lapses() -> None:
    """Rulebook, Prepare for Travel (over two tickets the player chooses two to keep): gaining a ship ticket
    while holding a train and a ship ticket asks, the new ticket kept by default (the table's old rule); two
    tickets gained at once ask once, the later question settling both."""
    state = _setup()
    inv = state.investigators[0]
    inv.card, inv.space, inv.health, inv.sanity = SUN, "space-4", 6, 6
    inv.train, inv.ship = 1, 1
    resolve(state, 0, [{"ticket": "ship"}, {"ticket": "ship"}, {"clues": 1}], "test")
    run(state)
    p = prompt(state)
    assert p.title == "Keep which 2 of your 3 travel tickets?" and p.default == ["keep:0:2"]
    choose(state, "keep:1:1")
    assert prompt(state).title == "Keep which 2 of your 3 travel tickets?"  # the second ship ticket
    choose(state, "keep:1:1")
    assert (inv.train, inv.ship, inv.clues) == (1, 1, 1)
    events: list = []
    inv.train, inv.ship = 1, 1
    gain_ticket(state, 0, "train", "test", events)
    gain_ticket(state, 0, "train", "test", events)  # before the first question is answered
    assert (inv.train, inv.ship) == (3, 1)
    run(state)
    choose(state, "keep:1:1")
    assert not api.prompts(state) and (inv.train, inv.ship) == (1, 1)  # the first question lapsed


def test_a_roll_names_the_card_it_rolls_for() -> None:
    """Issue 30 item 12: at a reckoning several cards roll in a row; "Rolled 3: nothing comes of it." did not say
    whose roll it was. The roll's line names its card."""
    import engine.eldritch.effects  # noqa: F401  (the interpreter resolve_now calls)
    from engine.eldritch.ops import card_name, resolve_now

    state = _setup()
    card = next(iter(default_content().spells))
    events: list = []
    dice(state, 3)
    resolve_now(state, 0, [{"roll": {"dice": 1, "on": [1, 2]}}], card, events, card=card)
    assert texts(events) == [f"{card_name(state, card)}: rolled 3, nothing comes of it."]


def test_a_label_says_what_an_effect_depends_on() -> None:
    """Issue 30 item 12: a Condition's action read "It depends"; a label says on what, and what then happens."""
    from engine.eldritch.effects import describe

    state = _setup()
    debt = default_content().conditions["eh.condition.debt-1"]
    assert describe(state, debt.action) == "On a City space: test Influence (-1)"
    assert describe(state, [{"if_condition": {"condition": "debt", "then": [{"sanity": -1}]}}]) == \
        "With a Debt Condition: lose 1 Sanity"
