"""Elder Sign: the engine's decisions on the rules digest's [AMBIG] items, and finer rules of §3.2-3.4.
Each test cites the section of our rules summary ("digest §") whose ruling it pins; docs/elder_sign.md writes each
ruling out."""

from __future__ import annotations

from engine.elder_sign import board
from engine.elder_sign.content import default_content
from engine.elder_sign.effects import advance_clock
from engine.elder_sign.ops import push
from engine.elder_sign.rules import run
from tests.engine.elder_sign.support import (
    adventure,
    answer,
    extra_cards,
    go,
    op,
    option_ids,
    place,
    pool,
    prompt,
    set_faces,
    settle,
    table,
)


def test_a_wildcard_never_triggers_terror() -> None:
    """digest §1.2 [AMBIG] decided: only a die showing the Terror face triggers terror, never a Wildcard."""
    with extra_cards(adventure("test.wild", ["inv20"], terror=[{"sanity": -1}])):
        state = table()
        place(state, 0, "test.wild")
        state, _ = go(state, "slot:0")
        set_faces(state, {d: "inv1" for d in pool(state)})
        state.dice["r"].loc, state.dice["r"].face = "pool", "wild"
        sanity = state.table[0].investigator.sanity
        state, events = answer(state, "fail")
        assert "terror" not in [e.kind for e in events]
        assert state.table[0].investigator.sanity == sanity


def test_two_crossings_in_one_turn_make_two_midnights() -> None:
    """digest §3.4 [AMBIG] decided: one midnight per crossing of XII."""
    state = table()
    day = state.day
    advance_clock(state, 4, "test", [])  # a full turn of the dial mid-turn
    assert state.midnights_pending == 1
    state.clock = 9
    state, _ = answer(state, "go:entrance")
    state, _ = answer(state, "rest")
    state = settle(state)
    assert state.day == day + 2


def test_an_empty_cup_spawns_nothing() -> None:
    """digest §5.1 [AMBIG] decided: with the cup empty, "a monster appears" does nothing."""
    state = table()
    state.cup = []
    before = [len(c.monsters) for c in state.slots if c]
    push(state, "monster", None, source="test")
    events: list = []
    run(state, events)
    assert [len(c.monsters) for c in state.slots if c] == before
    assert any(e.kind == "monster.none" for e in events)


def test_ordered_card_offers_only_its_top_task() -> None:
    """digest §1.5 order arrow / §3.2 (a): on an ordered card only the top remaining task may be done."""
    with extra_cards(adventure("test.ordered", ["lore", "peril"], ordered=True)):
        state = table()
        place(state, 0, "test.ordered")
        state, _ = go(state, "slot:0")
        set_faces(state, {d: "peril" for d in pool(state)})
        assert not any(o.startswith("task:") for o in option_ids(state))
        set_faces(state, {"g1": "lore"})
        assert any(o.startswith("task:t0:") for o in option_ids(state))
        assert not any(o.startswith("task:t1:") for o in option_ids(state))


def test_item_die_cannot_come_back_after_its_discard() -> None:
    """digest §3.2 items: a yellow or red die discarded this turn can't be added again the same turn."""
    state = table()
    yellow_item = next(i for i, c in default_content().items.items() if c.use == [{"add_die": "yellow"}])
    state.table[0].investigator.items = [yellow_item, yellow_item]
    with extra_cards(adventure("test.item", ["inv20"])):
        place(state, 0, "test.item")
        state, _ = answer(state, "go:slot:0")
        assert op(state) == "pre_roll_ask"
        state, _ = answer(state, f"item:{yellow_item}")
        assert state.dice["y"].loc == "pool"
        if op(state) == "pre_roll_ask":
            state, _ = answer(state, "roll")
        set_faces(state, {d: "inv1" for d in pool(state)} | {"y": "inv4"})
        state, _ = answer(state, "fail")
        state, _ = answer(state, "y")
        assert state.dice["y"].loc == "discarded"
        if op(state) == "after_fail_ask":
            state, _ = answer(state, "continue")
        assert f"item:{yellow_item}" not in option_ids(state)


def test_secured_dice_persist_and_anyone_may_use_them() -> None:
    """digest §3.2 spells: a secured die stays on its spell across turns, and any player may use it on their
    own turn; an emptied spell goes back to its deck."""
    spell = next(i for i, c in default_content().items.items() if c.use == [{"secure": 1}])
    with extra_cards(adventure("test.lore", ["lore"])):
        state = table(2)
        first = state.current
        state.table[first].investigator.items = [spell]
        place(state, 0, "test.lore")
        state, _ = go(state, "slot:0")
        set_faces(state, {d: "inv1" for d in pool(state)} | {"g1": "lore"})
        state, _ = answer(state, f"item:{spell}")
        state, _ = answer(state, "g1")
        assert state.dice["g1"].loc == "secured" and spell in state.table[first].investigator.cast
        state, _ = answer(state, "abandon")
        state = settle(state)
        assert state.current != first and state.dice["g1"].loc == "secured"
        # the other player rolls elsewhere and completes Lore with the secured die alone
        place(state, 1, "test.lore")
        state, _ = answer(state, "go:slot:1")
        if op(state) == "pre_roll_ask":
            state, _ = answer(state, "roll")
        set_faces(state, {d: "peril" for d in pool(state)})
        state, _ = answer(state, "task:t0:g1")
        assert spell not in state.table[first].investigator.cast
        assert spell in state.decks["spell"].draw_pile


def test_early_awakening_fills_the_track_without_monsters() -> None:
    """digest §6.1 [AMBIG] decided: an early awakening fills the empty doom spaces; they spawn nothing."""
    state = table()
    cup = len(state.cup)
    push(state, "awaken", None)
    events: list = []
    run(state, events)
    ao = default_content().ancient_ones[state.ao]
    assert state.phase == "battle" and state.doom == len(ao.doom_track)
    assert not any(e.kind == "monster.appeared" for e in events)
    assert len(state.cup) >= cup


def test_ward_softens_terror_losses() -> None:
    """Investigator ability "ward" (our content): each terror loss of the warded stat is 1 smaller."""
    with extra_cards(adventure("test.ward", ["inv20"], terror=[{"sanity": -1}])):
        state = table(1, ["anna-sokolova"])
        place(state, 0, "test.ward")
        state, _ = go(state, "slot:0")
        set_faces(state, {d: "terror" for d in pool(state)})
        sanity = state.table[0].investigator.sanity
        state, _ = answer(state, "fail")
        assert state.table[0].investigator.sanity == sanity


def test_clue_cost_modifier() -> None:
    """Ancient One modifier clue_cost (Yog-Sothoth in our content): a reroll costs that many clues."""
    with extra_cards(adventure("test.clue", ["inv20"])):
        state = table(1, ao="yog-sothoth")
        place(state, 0, "test.clue")
        state.table[0].investigator.clues = 1
        state, _ = go(state, "slot:0")
        assert "clue" not in option_ids(state)
        state.table[0].investigator.clues = 2
        state, _ = answer(state, "clue")
        state, _ = answer(state, pool(state)[0])
        assert state.table[0].investigator.clues == 0


def test_awakening_at_midnight_attacks_at_once() -> None:
    """digest §6.1 step 5: if midnight strikes as the Ancient One wakes, it attacks immediately."""
    state = table(1, ao="cthulhu")
    ao = default_content().ancient_ones[state.ao]
    state.doom = len(ao.doom_track) - 1
    state.flow.stack.clear()
    state.midnights_pending = 1
    state.mythos = next(m for m, c in default_content().mythos.items()
                        if any(e.get("doom", 0) > 0 for e in c.immediate))
    # the next Mythos card adds doom: put a doom card on top of the deck
    state.decks["mythos"].take(state.mythos)
    state.decks["mythos"].put_top(state.mythos)
    state.mythos = None
    push(state, "midnight", None)
    events: list = []
    run(state, events)
    kinds = [e.kind for e in events]
    assert "ao.awakens" in kinds and "ao.attack" in kinds
    assert kinds.index("ao.awakens") < kinds.index("ao.attack")


def test_entrance_discount_applies() -> None:
    """Investigator ability "trophy_discount" (our content): entrance prices are lower."""
    state = table(1, ["lionel-ashdown"])
    state.table[0].investigator.trophies = [next(iter(default_content().monsters))]
    state, _ = answer(state, "go:entrance")
    labels = {o.id: o.label for o in prompt(state).options}
    clue = next(s for s in default_content().entrance.souvenirs if s.id == "clue")
    price = max(0, clue.cost - 1)
    assert f"({'free' if price == 0 else f'{price} troph' + ('y' if price == 1 else 'ies')})" in labels["buy:clue"]
    assert board.trophy_total(state, 0) >= 1
