"""The revised rulebook's worked examples, replayed with our cards (the rulebook's card art is not in the
text, so each test builds a card with the tasks the example describes)."""

from __future__ import annotations

from engine.elder_sign import board
from engine.elder_sign.content import Monster
from engine.elder_sign.state import MonsterOn
from tests.engine.elder_sign.support import (
    adventure,
    answer,
    extra_cards,
    go,
    op,
    option_ids,
    place,
    pool,
    set_faces,
    table,
)


def test_completing_a_task_example() -> None:
    """rulebook "Completing a Task Example": a roll that could complete either of two tasks completes one;
    investigation dice totalling 4 complete an Inv 3 task (the surplus is ignored); the remaining dice are
    rolled for the other task."""
    with extra_cards(adventure("test.ex1", ["lore peril", "inv3"])):
        state = table()
        place(state, 0, "test.ex1")
        state, _ = go(state, "slot:0")
        set_faces(state, {"g1": "lore", "g2": "peril", "g3": "inv2", "g4": "inv2", "g5": "terror", "g6": "terror"})
        options = option_ids(state)
        assert "task:t0:g1,g2" in options and "task:t1:g3,g4" in options
        state, events = answer(state, "task:t1:g3,g4")
        assert {state.dice["g3"].loc, state.dice["g4"].loc} == {"assigned"}
        rolled = [e for e in events if e.kind == "dice.rolled"]
        assert rolled and len(rolled[-1].data["dice"]) == 4  # the other four dice roll for the other task
        assert "t1" in state.adventure.completed and "t0" not in state.adventure.completed


def test_terror_effect_example() -> None:
    """rulebook "Terror Effect Example": after a first task, a failed roll showing terror costs 1 sanity,
    then the player discards a die and tries again."""
    with extra_cards(adventure("test.ex2", ["inv2", "lore lore peril"], terror=[{"sanity": -1}])):
        state = table()
        place(state, 0, "test.ex2")
        state, _ = go(state, "slot:0")
        set_faces(state, {d: "terror" for d in pool(state)} | {"g1": "inv2", "g2": "inv3"})
        state, _ = answer(state, "task:t0:g1")
        set_faces(state, {d: "peril" for d in pool(state)} | {pool(state)[0]: "terror"})
        sanity = state.table[0].investigator.sanity
        state, _ = answer(state, "fail")
        assert state.table[0].investigator.sanity == sanity - 1
        assert op(state) == "discard_pick"


def test_focus_example() -> None:
    """rulebook "Focus Example": the roll can't complete the task; discard a die, focus the Lore die, roll
    the rest; the new roll plus the focused die completes it."""
    with extra_cards(adventure("test.ex3", ["lore peril peril"])):
        state = table()
        place(state, 0, "test.ex3")
        state, _ = go(state, "slot:0")
        set_faces(state, {"g1": "lore", "g2": "inv1", "g3": "inv1", "g4": "inv2", "g5": "inv3", "g6": "terror"})
        state, _ = answer(state, "fail")
        state, _ = answer(state, "g6")  # discard
        state, _ = answer(state, "focus:g1")
        assert state.dice["g1"].loc == "focused"
        set_faces(state, {d: "peril" for d in pool(state)})
        assert any(o.startswith("task:t0:") and "g1" in o for o in option_ids(state))
        state, _ = answer(state, next(o for o in option_ids(state) if o.startswith("task:t0:") and "g1" in o))
        assert "test.ex3" in state.table[0].investigator.trophies


def test_assistance_example() -> None:
    """rulebook "Assistance Example": Mandy's marker stayed on a card she failed; on Bob's turn he completes
    the top task, fails, discards and focuses an Inv 3; fails again, discards, asks Mandy, who agrees and
    holds another Inv 3; his last die's roll plus the focused and assisted dice completes the card."""
    with extra_cards(adventure("test.ex4", ["lore", "inv6 peril"])):
        state = table(2)
        mandy, bob = 1 - state.current, state.current
        state.table[mandy].investigator.location = "slot:0"
        place(state, 0, "test.ex4")
        state, _ = go(state, "slot:0")
        set_faces(state, {d: "terror" for d in pool(state)} | {"g1": "lore"})
        state, _ = answer(state, "task:t0:g1")
        dice = pool(state)  # five dice left
        set_faces(state, {dice[0]: "inv3", dice[1]: "inv3", dice[2]: "inv1", dice[3]: "lore", dice[4]: "terror"})
        state, _ = answer(state, "fail")
        state, _ = answer(state, dice[4])
        state, _ = answer(state, f"focus:{dice[0]}")
        rest = pool(state)  # three dice
        set_faces(state, {rest[0]: "inv3", rest[1]: "inv1", rest[2]: "lore"})
        state, _ = answer(state, "fail")
        state, _ = answer(state, rest[2])
        state, _ = answer(state, f"assist:{mandy}")
        state, _ = answer(state, "yes")
        assert op(state) == "assist_die"
        state, _ = answer(state, rest[0])
        assert state.dice[rest[0]].loc == "assisted"
        [last] = pool(state)
        set_faces(state, {last: "peril"})
        finishing = [o for o in option_ids(state) if o.startswith("task:t1:")]
        assert finishing and all(d in finishing[0] for d in (dice[0], rest[0], last))
        state, _ = answer(state, finishing[0])
        assert "test.ex4" in state.table[bob].investigator.trophies
        assert state.table[mandy].investigator.location == "entrance"  # every marker on the card goes home


def test_monster_task_counts_even_when_the_adventure_fails() -> None:
    """rulebook "Monsters" example: a completed monster task is kept (its marker collected at the end of the
    Resolution phase) even though the adventure then fails."""
    monster = Monster.model_validate({"id": "test.mon", "name": "Tester", "task": "lore", "trophy": 1})
    with extra_cards(adventure("test.ex5", ["[inv3 peril]", "inv20"]), monster):
        state = table()
        place(state, 0, "test.ex5")
        state.slots[0].monsters.append(MonsterOn(monster="test.mon", slot=0))
        state, _ = go(state, "slot:0")
        set_faces(state, {d: "inv1" for d in pool(state)} | {"g1": "lore"})
        state, _ = answer(state, "task:t0:g1")
        state, _ = answer(state, "abandon")
        assert "test.mon" in state.table[0].investigator.trophies
        assert not state.slots[0].monsters
        [(_, task)] = [kt for kt in board.task_list(state, "slot:0") if kt[0] == "t0"]
        assert sorted(task.symbols) == ["inv:3", "peril"]  # the printed requirements are back
