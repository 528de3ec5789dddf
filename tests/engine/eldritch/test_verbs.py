"""The effect verbs added for mechanics the base game's cards use (docs/eldritch_content.md): set-aside
Monsters, the Shub-Niggurath-like crowd loss and doom after the awakening, Mythos cards flipping held
Conditions, group Clue payments, ambushes with win and lose branches, and Epic toughness per investigator.
Each test cites the rules digest section ("digest N.N", our implementer's summary whose rulings are written out in
docs/eldritch.md) or the base game's rulebook (RB) by heading."""

from __future__ import annotations

from engine import api
from engine.eldritch import world as W
from engine.eldritch.content import EldritchContent, default_content
from engine.eldritch.effects import resolve
from engine.eldritch.effects_schema import walk
from engine.eldritch.ops import push
from engine.eldritch.state import EldritchState, MonsterToken, Ongoing
from tests.engine.eldritch.helpers import at_moment, choose, dice, new, prompt, run, texts, variant

SUN = "eh.investigator.sun-yuexin"  # Strength 4, Will 3; 6 Health, 6 Sanity
SHUB = "eh.epic.shub-niggurath"
DEEP_ONE = "eh.monster.deep-one"
# The base game's nine Epic Monster tokens (Rulebook: "Epic Monsters"; component list: 9 epic monster tokens):
# eight print their toughness as "number of investigators + N", one (the zombie horde) a fixed 5.
EPIC_TOKENS = 9
EPIC_FIXED_TOUGHNESS = {"eh.epic.risen-horde": 5}


def _plain(c: EldritchContent) -> None:
    for i in c.investigators.values():
        i.passive.kind = "gate_clue"


def _table(players: int = 1, ao: str = "azathoth") -> EldritchState:
    state = at_moment(new(players, ao=ao), variant(_plain))
    for inv in state.investigators:
        inv.card, inv.space, inv.health, inv.sanity = SUN, "shanghai", 6, 6
        inv.assets, inv.artifacts, inv.spells, inv.conditions = [], [], [], []
        inv.clues = inv.train = inv.ship = 0
    state.monsters.clear()
    state.ongoing.clear()
    state.rumors.clear()
    return state


def _card_uses(verb: str) -> list[str]:
    """Ids of the shipped cards whose effects use `verb` anywhere."""
    c = default_content()
    found = []
    for table in (c.mythos, c.mysteries, c.research, c.locations, c.ancient_ones):
        for cid, card in table.items():
            lists = [v for _, v in card if isinstance(v, list) and v and isinstance(v[0], dict)]
            for sub in (getattr(card, "sections", None) or {}).values():
                lists.append(sub.effects)
            if getattr(card, "encounter", None) is not None:
                lists.append(card.encounter.effects)
            if any(v == verb for effects in lists for v, _ in walk(effects)):
                found.append(cid)
    return found


# ------------------------------------------------------------------ set-aside Monsters (digest 1.3, 3.4)


def test_a_set_aside_monster_enters_play_once_per_copy() -> None:
    """Digest 1.3 (set-aside components wait by the sheet) and 3.4 "Spawn Monster": a card spawns a set-aside
    Monster; with none of its copies left set aside, nothing spawns."""
    state = _table(ao="cthulhu")
    assert DEEP_ONE in state.set_aside and DEEP_ONE not in state.cup
    resolve(state, None, [{"spawn_set_aside": {"monster": DEEP_ONE, "space": "space-3"}}], "test")
    run(state)
    assert [(m.kind, m.space) for m in state.monsters] == [(DEEP_ONE, "space-3")]
    assert DEEP_ONE not in state.set_aside
    resolve(state, None, [{"spawn_set_aside": {"monster": DEEP_ONE, "space": "space-3"}}], "test")
    events = run(state)
    assert len(state.monsters) == 1 and any("left set aside" in t for t in texts(events))


def test_a_set_aside_monster_spawns_on_your_space_by_default() -> None:
    """Digest 3.4: an encounter's "spawn a set-aside Monster" puts it on the encountering investigator's space."""
    state = _table(ao="shub-niggurath")
    resolve(state, 0, [{"spawn_set_aside": {"monster": "eh.monster.goatkin"}}], "test")
    run(state)
    assert [(m.kind, m.space) for m in state.monsters] == [("eh.monster.goatkin", "shanghai")]


def test_cthulhus_risen_city_mystery_brings_its_set_aside_deep_one() -> None:
    """The content that needs it (docs/eldritch.md): The City Beneath the Waves spawns Cthulhu's set-aside Deep
    One on the risen city (space 3) when it enters play."""
    state = _table(ao="cthulhu")
    state.decks["mystery"].draw_pile.append("eh.mystery.the-city-beneath-the-waves")
    W.next_mystery(state, [])
    run(state)
    assert (DEEP_ONE, "space-3") in [(m.kind, m.space) for m in state.monsters]
    assert {"eh.mystery.the-city-beneath-the-waves", "eh.mystery.the-thousandfold-birth"} <= set(
        _card_uses("spawn_set_aside"))


# ------------------------------------------------------------------ Shub-Niggurath's back (digest 7, 3.4)


def _awake_shub(doom: int = 1, advance: int = 1) -> EldritchState:
    state = _table(ao="shub-niggurath")
    state.mystery = None
    state.doom = doom
    W.advance_doom(state, advance, "test", [])
    run(state)
    return state


def test_shub_niggurath_awakens_and_her_young_gather_to_her() -> None:
    """Digest 7 / RB (Shub-Niggurath's back): she spawns on the Heart of Africa and every Ghoul, Goatkin and
    Dark Young on the board moves to her space."""
    state = _table(ao="shub-niggurath")
    state.mystery = None
    state.monsters = [MonsterToken(uid=90, kind="eh.monster.ghoul", space="tokyo"),
                      MonsterToken(uid=91, kind="eh.monster.hound-of-tindalos", space="rome")]
    state.doom = 1
    W.advance_doom(state, 1, "test", [])
    run(state)
    spaces = {m.kind: m.space for m in state.monsters}
    assert spaces[SHUB] == "the-heart-of-africa" and spaces["eh.monster.ghoul"] == "the-heart-of-africa"
    assert spaces["eh.monster.hound-of-tindalos"] == "rome"


def test_after_the_awakening_each_doom_step_gives_birth_on_her_space() -> None:
    """Digest 3.4 "Doom ... Overflow past 0" and 7: doom that would advance after the awakening follows the back
    of the sheet: one Monster spawns on her space per step, the overflow of the advance that woke her included,
    after her awakening has put her on the board."""
    state = _awake_shub(doom=1, advance=3)
    here = [m for m in state.monsters if m.space == "the-heart-of-africa"]
    assert [m.kind for m in here][0] == SHUB and len(here) == 1 + 2
    assert state.doom == 0
    W.advance_doom(state, 1, "test", [])
    run(state)
    assert len([m for m in state.monsters if m.space == "the-heart-of-africa"]) == 4


def test_six_monsters_on_her_space_lose_the_game() -> None:
    """Digest 7 "Loss" (Shub-Niggurath: 6 or more Monsters on her space, counting her)."""
    state = _awake_shub()
    assert not state.over
    others = 5 - len([m for m in state.monsters if m.space == "the-heart-of-africa"])
    for i in range(others + 1):
        state.monsters.append(MonsterToken(uid=500 + i, kind="eh.monster.ghoul", space="the-heart-of-africa"))
    assert not state.over  # placed by hand: only a spawn or a move checks
    state.monsters.pop()
    resolve(state, None, [{"spawn_monster_at": {"epic": SHUB}}], "test")
    events = run(state)
    assert state.over and state.result == "loss" and any("throng" in t for t in texts(events))


def test_the_crowd_does_not_count_before_the_awakening() -> None:
    """Digest 7: the crowd loss is on the sheet's back only."""
    state = _table(ao="shub-niggurath")
    state.monsters = [MonsterToken(uid=600 + i, kind="eh.monster.ghoul", space="tokyo") for i in range(7)]
    resolve(state, None, [{"spawn_monster_at": {"space": "tokyo"}}], "test")
    run(state)
    assert not state.over


# ------------------------------------------------------------------ Mythos cards flipping Conditions (digest 8)


def test_a_mythos_card_flips_every_held_condition_of_a_kind() -> None:
    """Digest 8 "Double-sided cards" (flipping resolves the back at once), as the base game's banking Mythos
    cards call in every Debt: each investigator holding one flips it, from the Lead clockwise."""
    state = _table(2)
    state.lead = 0
    debtor, other = state.investigators
    debtor.conditions = ["eh.condition.debt-5"]  # its back: settled by a friend, discard this card
    other.conditions = ["eh.condition.cursed-1"]
    resolve(state, None, [{"flip_conditions": "debt"}], "test")
    events = run(state)
    assert debtor.conditions == [] and other.conditions == ["eh.condition.cursed-1"]
    assert any("settled by a friend" in t for t in texts(events))
    assert "eh.mythos.panic-on-the-exchange" in _card_uses("flip_conditions")


# ------------------------------------------------------------------ group Clue payments (digest 8)


def _seals(state: EldritchState, clues: list[int]) -> str:
    card = "eh.mythos.the-seals-fail"  # reckoning: the group may spend 2 Clues to discard it
    state.ongoing = [Ongoing(card=card)]
    for inv, n in zip(state.investigators, clues, strict=True):
        inv.clues = n
    resolve(state, None, default_content().mythos[card].reckoning, card, card=card)
    run(state)
    return card


def test_the_group_pays_clues_together_the_lead_deciding() -> None:
    """Digest 8 "Precedence" (group decisions are the Lead's) with a cost paid by the investigators as a group:
    the Lead decides to pay; each holder says how much of theirs goes in, never so little that the others
    cannot make up the rest; the last share is taken without asking."""
    state = _table(3)
    state.lead = 0
    card = _seals(state, [1, 2, 0])
    p = prompt(state)
    assert p.seats == [0] and p.title == "Spend 2 Clues as a group?"
    choose(state, "pay")
    p = prompt(state)
    assert p.seats == [0] and [o.id for o in p.options] == ["give:0", "give:1"]
    choose(state, "give:1")
    assert [inv.clues for inv in state.investigators] == [0, 1, 0]
    assert not state.ongoing and card in state.decks["mythos"].discard_pile


def test_a_giver_may_leave_the_whole_payment_to_the_others() -> None:
    """Digest 8: the group's payment can come from one investigator alone."""
    state = _table(3)
    state.lead = 0
    _seals(state, [1, 2, 0])
    choose(state, "pay")
    choose(state, "give:0")
    assert [inv.clues for inv in state.investigators] == [1, 0, 0] and not state.ongoing


def test_the_lead_may_decline_and_too_few_clues_cannot_pay() -> None:
    """Digest 8 "Choice words" (*may*): declining leaves the card in play; a group holding too few Clues is not
    asked."""
    state = _table(2)
    state.lead = 1
    _seals(state, [1, 1])
    assert prompt(state).seats == [1]
    choose(state, "decline")
    assert [inv.clues for inv in state.investigators] == [1, 1] and state.ongoing
    state = _table(2)
    _seals(state, [1, 0])
    assert not api.prompts(state) and state.ongoing
    tithe = "eh.mythos.the-cults-tithe"  # unless the group spends 1 Clue, doom advances
    state.doom = 10
    resolve(state, None, default_content().mythos[tithe].reckoning, tithe, card=tithe)
    state.investigators[0].clues = 0
    run(state)
    assert state.doom == 9


# ------------------------------------------------------------------ ambush branches (digest 5)


def _ambushed(cup: list[str]) -> EldritchState:
    state = _table()
    state.cup = list(cup)
    resolve(state, 0, [{"ambush": {"win": [{"clues": 1}], "lose": [{"sanity": -1}]}}], "test")
    return state


def test_an_ambush_won_resolves_the_win_branch() -> None:
    """Digest 5 "Ambush": fight a Monster from the cup, then finish the effect; defeating it gives `win`."""
    state = _ambushed([DEEP_ONE])
    dice(state, 5, 5, 5)  # Will 3: no Sanity lost
    dice(state, 5, 6, 1)  # Strength 4 - 1 = 3 dice: 2 successes, toughness 2
    run(state)
    inv = state.investigators[0]
    assert (inv.clues, inv.sanity, inv.health) == (1, 6, 6)
    assert state.cup == [DEEP_ONE] and not state.monsters


def test_an_ambush_not_won_resolves_the_lose_branch_and_the_monster_goes_back() -> None:
    """Digest 5 "Ambush": an undefeated ambusher returns to the cup all the same; the card's `lose` follows."""
    state = _ambushed([DEEP_ONE])
    dice(state, 5, 5, 5)
    dice(state, 1, 1, 1)  # no success: 1 Health lost, the Monster survives
    run(state)
    inv = state.investigators[0]
    assert (inv.clues, inv.sanity, inv.health) == (0, 5, 5)
    assert state.cup == [DEEP_ONE] and not state.monsters
    assert "eh.location.the-quake-shrine" in _card_uses("ambush")


def test_an_ambusher_goes_back_to_the_cup_even_when_it_defeats_you() -> None:
    """Digest 5 "Ambush" and 6 (a defeat interrupts what the investigator was resolving): the Monster is still
    returned to the cup, and no branch resolves for a defeated investigator."""
    state = _ambushed([DEEP_ONE])
    state.investigators[0].health = 1
    dice(state, 5, 5, 5)
    dice(state, 1, 1, 1)
    run(state)
    assert state.investigators[0].defeated
    assert state.cup == [DEEP_ONE] and not [m for m in state.monsters if not m.space]


# ------------------------------------------------------------------ Epic toughness (digest 1.6)


def test_epic_toughness_counts_the_investigators() -> None:
    """Digest 1.6 and the base game's Epic Monster tokens (toughness "number of investigators + N" on eight of the
    nine, one fixed at 5): our Epic Monsters follow them, and toughness is computed from the number of
    investigators."""
    c = default_content()
    epics = {m.name: m for m in c.monsters.values() if m.epic}
    fixed = [m for m in epics.values() if not m.per_investigator]
    assert len(epics) == EPIC_TOKENS
    assert {m.id: m.toughness for m in fixed} == EPIC_FIXED_TOUGHNESS
    state = _table(3, ao="cthulhu")
    cthulhu = MonsterToken(uid=1, kind="eh.epic.cthulhu", space="space-3")
    horde = MonsterToken(uid=2, kind="eh.epic.risen-horde", space="space-3")
    assert W.monster_stats(state, cthulhu)[4] == 3 + 3 and W.monster_stats(state, horde)[4] == 5
    push(state, "fight", 0, uid=1)  # narration shows the computed toughness
    state.monsters = [cthulhu]
    state.investigators[0].space = "space-3"
    dice(state, *([1] * 20))
    events = run(state)
    assert any("toughness 6" in t for t in texts(events))
