"""Eldritch Horror rules by phase that the other files did not reach: component actions, combat spells, the
starting rumor, devoured investigators, elimination after the awakening and the Lead Investigator token. Each
test cites the section of our rules summary ("digest", its rulings written out in docs/eldritch.md) and the base
rulebook's heading (RB)."""

from __future__ import annotations

from engine.eldritch import world as W
from engine.eldritch.content import EldritchContent, default_content
from engine.eldritch.effects import resolve
from engine.eldritch.ops import push
from engine.eldritch.possessions import change_track, gain_condition
from engine.eldritch.state import EldritchState, Investigator, MonsterToken
from tests.engine.eldritch.helpers import at_moment, choose, dice, new, prompt, run, texts, variant

SUN = "eh.investigator.sun-yuexin"  # Lore 2, Influence 2, Strength 4, Will 3; 6 Health, 6 Sanity
CALLUM = "eh.investigator.callum-orourke"  # Influence 3; 8 Health, 4 Sanity
TIMETABLE = "eh.asset.railway-timetable"  # Action: gain 1 train ticket
DEEP_ONE = "eh.monster.deep-one"  # Will +0 horror 2, Strength -1 damage 1, toughness 2


def _plain(c: EldritchContent) -> None:
    for i in c.investigators.values():
        i.passive.kind = "gate_clue"  # acts only when a Gate is closed: nothing here depends on it


def _table(players: int = 1, ao: str = "azathoth") -> EldritchState:
    """A game at a chosen moment: plain passives, nobody holding anything, no Monster on the board."""
    state = at_moment(new(players, ao=ao), variant(_plain))
    for inv in state.investigators:
        inv.card = SUN if inv is state.investigators[0] else CALLUM
        inv.assets, inv.artifacts, inv.spells, inv.conditions = [], [], [], []
        inv.clues = inv.train = inv.ship = 0
        inv.health, inv.sanity = (6, 6) if inv.card == SUN else (8, 4)
        inv.space = "shanghai"
    state.monsters.clear()
    state.ongoing.clear()
    state.rumors.clear()
    return state


def _option_ids(state: EldritchState) -> set[str]:
    return {o.id for o in prompt(state).options}


# ------------------------------------------------------------------ component actions (digest 3.1)


def test_an_assets_action_is_taken_once_per_round() -> None:
    """Digest 3.1 "Component action" (RB "Component Actions"): an "Action:" on a possession is an action; each
    component once per round; a new round allows it again."""
    state = _table()
    inv = state.investigators[0]
    inv.assets = [TIMETABLE]
    push(state, "turn", 0)
    run(state)
    assert f"use:{TIMETABLE}" in _option_ids(state)
    choose(state, f"use:{TIMETABLE}")
    assert inv.train == 1
    assert f"use:{TIMETABLE}" not in _option_ids(state)  # the second action cannot repeat it
    choose(state, "end")
    push(state, "round_start")
    run(state)
    assert f"use:{TIMETABLE}" in _option_ids(state)


def test_a_component_used_this_round_cannot_be_used_again_by_its_new_owner() -> None:
    """Digest 3.1: no two investigators use the same component's action in one round, even after a trade."""
    state = _table(2)
    state.lead = 0
    a, b = state.investigators
    a.assets = [TIMETABLE]
    push(state, "turn", 0)
    run(state)
    choose(state, f"use:{TIMETABLE}")
    a.assets, b.assets = [], [TIMETABLE]  # traded away after the use
    state.flow.stack.clear()
    push(state, "turn", 1)
    run(state)
    assert f"use:{TIMETABLE}" not in _option_ids(state)


def test_a_conditions_action_tests_and_discards_it() -> None:
    """Digest 3.1 "Component action" on a Condition: Debt's action in a City tests Influence (-1); a pass
    discards the Debt."""
    state = _table()
    inv = state.investigators[0]
    gain_condition(state, 0, "debt", "test", [])
    debt = inv.conditions[0]
    push(state, "turn", 0)
    run(state)
    dice(state, 6)  # Influence 2 - 1 = 1 die
    events = choose(state, f"use:{debt}")
    assert any("Influence 2 -1: 1 die" in t for t in texts(events))
    assert inv.conditions == []


def test_a_local_action_on_anothers_condition_is_tested_by_the_visitor() -> None:
    """Digest 3.1 "Local Action" (RB "Component Actions"): an investigator on your space may use the Local
    Action of your Detained Condition; the visitor tests their own Influence, and a pass frees you. It is
    exempt from the one-user limit only in that the holder may still use it too."""
    state = _table(2)
    state.lead = 0
    held, visitor = state.investigators
    gain_condition(state, 0, "detained", "test", [])
    detained = held.conditions[0]
    push(state, "turn", 1)
    run(state)
    assert f"use:{detained}" in _option_ids(state)
    dice(state, 5, 1)  # Callum's Influence 3 - 1 = 2 dice (Sun's would be 1)
    events = choose(state, f"use:{detained}")
    assert any("Influence 3 -1: 2 dice" in t for t in texts(events))
    assert held.conditions == [] and visitor.conditions == []


# ------------------------------------------------------------------ combat spells (digest 5)


def _fight_with(state: EldritchState, spell: str) -> MonsterToken:
    inv = state.investigators[0]
    inv.spells = [spell]
    token = MonsterToken(uid=77, kind=DEEP_ONE, space=inv.space)
    state.monsters = [token]
    push(state, "fight", 0, uid=77, source=DEEP_ONE)
    dice(state, 5, 1, 1)  # Will 3: 1 success against horror 2
    run(state)
    return token


def test_a_combat_spell_is_cast_before_the_strength_test_and_flips_afterwards() -> None:
    """Digest 5 (RB "Combat Encounters"; Spells are cast during combat before the Strength test): the spell's
    own test (Lore) passed gives its bonus to the Strength test; the card then flips and its back resolves."""
    state = _table()
    inv = state.investigators[0]
    token = _fight_with(state, "eh.spell.veil-of-fog-1")
    assert inv.sanity == 5
    assert prompt(state).title == "Cast a spell before the Strength test?"
    dice(state, 6, 1)  # Lore 2: a pass
    dice(state, 3)  # the back's roll: no 1
    dice(state, 5, 5, 1, 1, 1)  # Strength 4 - 1 + 2 = 5 dice: 2 successes
    events = choose(state, "eh.spell.veil-of-fog-1")
    lines = texts(events)
    assert any("casts Veil of Fog" in t for t in lines)
    assert any("Strength 4 -1 +2 (a spell): 5 dice" in t for t in lines)
    assert any("is turned over" in t for t in lines)
    assert token not in state.monsters and inv.health == 6  # toughness 2 reached; damage 1 fully blocked
    assert state.flipped == [] and inv.spells == ["eh.spell.veil-of-fog-1"]  # face up again, still held


def test_a_failed_cast_gives_nothing_but_still_flips() -> None:
    """Digest 5: a failed spell test gives no bonus; the Strength test is the plain one."""
    state = _table()
    _fight_with(state, "eh.spell.veil-of-fog-1")
    dice(state, 1, 1)  # Lore fails
    dice(state, 3)  # the back's roll
    dice(state, 1, 1, 1)  # Strength 4 - 1 = 3 dice
    events = choose(state, "eh.spell.veil-of-fog-1")
    lines = texts(events)
    assert any("Strength 4 -1: 3 dice" in t for t in lines)
    assert any("is turned over" in t for t in lines)


def test_a_damage_spell_can_defeat_the_monster_before_the_strength_test() -> None:
    """Digest 5 and 1.6: "the Monster loses Health" from a spell counts toward its toughness; defeated, it is
    not fought any further."""
    state = _table()
    token = _fight_with(state, "eh.spell.litany-of-ashes-1")
    dice(state, 6)  # Lore 2 - 1 = 1 die: a pass, the Monster loses 2 of its 2
    dice(state, 4)  # the back's roll
    events = choose(state, "eh.spell.litany-of-ashes-1")
    assert token not in state.monsters
    assert not any("tests Strength" in t for t in texts(events))


# ------------------------------------------------------------------ the starting rumor (digest 10)


def test_the_starting_rumor_enters_play_without_spawning_clues() -> None:
    """Digest 10 "Starting Rumor" (RG "Optional Rules"): after setup an unused Rumor enters play with its
    enters-play effect and its Rumor token, but not its Spawn Clues icon."""
    state = _table()
    c = default_content()
    bazaar = "eh.mythos.whispers-in-the-bazaar"  # a blue Rumor: it has the Spawn Clues icon
    # every other Rumor is in the Mythos deck, so the bazaar is the one unused Rumor left to choose
    state.decks["mythos"].draw_pile = sorted(m.id for m in c.mythos.values() if m.rumor and m.id != bazaar)
    clues_before = dict(state.clues)
    deck_before = list(state.decks["mythos"].draw_pile)
    push(state, "starting_rumor")
    events = run(state)
    m = c.mythos[bazaar]
    assert m.rumor is not None and "spawn_clues" in m.icons
    assert [o.card for o in state.ongoing] == [bazaar] and state.ongoing[0].tokens == m.tokens
    assert state.rumors == {bazaar: m.rumor.space}
    assert state.decks["mythos"].draw_pile == deck_before
    assert state.clues == clues_before
    assert any(e.kind == "rumor.started" for e in events)


def test_the_starting_rumor_option_puts_one_in_play_at_setup() -> None:
    """Digest 10: the option is chosen at setup; without it, no Rumor is in play when the game begins."""
    with_rumor = new(2, seed=4, starting_rumor=True)
    without = new(2, seed=4)
    assert len(with_rumor.rumors) == 1 and not without.rumors


# ------------------------------------------------------------------ devoured (digest 6)


def test_a_devoured_investigator_leaves_nothing_on_the_board() -> None:
    """Digest 6 "Devoured" (RB "Devoured Investigators"): defeated, but only doom +1 and passing the Lead
    happen; every possession and Condition is discarded and no token stays on the board; a new investigator is
    chosen at the end of the Mythos Phase."""
    state = _table(2)
    state.lead, state.doom = 0, 10
    inv = state.investigators[0]
    inv.assets, inv.clues = [TIMETABLE], 2
    gain_condition(state, 0, "debt", "test", [])
    resolve(state, 0, [{"devoured": True}], "test")
    events = run(state)
    assert any("is devoured" in t for t in texts(events))
    assert state.doom == 9 and inv.defeated and inv.card is None
    assert state.defeated == [] and inv.assets == [] and inv.conditions == [] and inv.clues == 0
    assert TIMETABLE in state.decks["asset"].discard_pile
    assert prompt(state).title == "The Lead Investigator token" and prompt(state).seats == [0]
    assert "s0" not in _option_ids(state)  # the Lead must pass it
    choose(state, "s1")
    assert state.lead == 1
    push(state, "mythos_end")
    run(state)
    assert prompt(state).title == "Choose a new investigator" and prompt(state).seats == [0]
    assert SUN not in _option_ids(state)  # never the devoured investigator again


# ------------------------------------------------------------------ elimination (digest 6, 7)


def test_after_the_awakening_a_defeated_investigator_is_eliminated() -> None:
    """Digest 6 "Elimination" (RB "Eliminated Players"): after the awakening a defeated investigator's player is
    eliminated and chooses no new investigator; when every player is eliminated the investigators lose."""
    state = _table(2, ao="cthulhu")
    state.awakened = True
    state.lead = 1
    first, second = state.investigators
    change_track(state, 0, "health", -6, "test", [])
    assert first.eliminated and not state.over
    push(state, "mythos_end")
    run(state)
    # no new investigator is offered: the next round begins with the one investigator left
    assert "choose an action" in prompt(state).title and prompt(state).seats == [1]
    state.flow.stack.clear()
    resolve(state, 1, [{"devoured": True}], "test")
    events = run(state)
    assert second.eliminated and state.over and state.result == "loss"
    assert any("Every investigator is gone" in t for t in texts(events))


def test_before_the_awakening_everyone_defeated_is_not_a_loss() -> None:
    """Digest 6 "Replacement": everyone defeated at once before the awakening is not a loss; new investigators
    join at the end of the Mythos Phase."""
    state = _table(2)
    change_track(state, 0, "health", -6, "test", [])
    change_track(state, 1, "sanity", -4, "test", [])
    assert not state.over and all(inv.defeated and not inv.eliminated for inv in state.investigators)


def test_the_awakening_eliminates_players_still_waiting_for_an_investigator() -> None:
    """Digest 6: a player whose investigator was defeated before the awakening and has not chosen a new one yet
    is eliminated when the Ancient One awakens."""
    state = _table(2, ao="cthulhu")
    change_track(state, 0, "health", -6, "test", [])
    state.flow.stack.clear()
    W.advance_doom(state, state.doom, "test", [])
    assert state.awakened and state.investigators[0].eliminated and not state.investigators[1].eliminated


# ------------------------------------------------------------------ the Lead Investigator token (digest 3.3)


def test_the_lead_may_pass_the_token_at_the_end_of_the_mythos_phase() -> None:
    """Digest 3.3 step 3 (RB "Game Round"): at the end of each Mythos Phase the Lead may pass the token to any
    player, or keep it."""
    state = _table(3)
    state.lead = 1
    push(state, "mythos_end")
    run(state)
    p = prompt(state)
    assert p.title == "The Lead Investigator token" and p.seats == [1]
    assert _option_ids(state) == {"s0", "s1", "s2"}
    events = choose(state, "s2")
    assert state.lead == 2 and any(e.kind == "lead.passed" for e in events)
    assert state.phase == "action" and prompt(state).seats == [2]  # the new round starts with the new Lead


def test_a_lone_investigator_is_not_asked_about_the_lead() -> None:
    """Digest 3.3 step 3 with one investigator: there is nobody to pass to, so the question is skipped."""
    state = _table(1)
    push(state, "mythos_end")
    run(state)
    assert prompt(state).title != "The Lead Investigator token"


def test_the_new_lead_goes_first_next_round() -> None:
    """Digest 3.1 "Turn order": the Lead takes the first turn of the Action Phase."""
    state = _table(3)
    state.lead = 2
    push(state, "round_start")
    run(state)
    assert prompt(state).seats == [2] and "choose an action" in prompt(state).title


def test_investigator_model_defaults_are_inactive() -> None:
    """Digest 1.5: a seat without an investigator (before choosing, or eliminated) is no investigator."""
    assert not Investigator().active
