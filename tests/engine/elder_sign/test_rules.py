"""Elder Sign rules, each test citing a section of our rules summary ("digest §", its rulings
written out in docs/elder_sign.md) or the revised rulebook by heading ("rulebook")."""

from __future__ import annotations

import pytest

from engine import api
from engine.core.errors import IllegalAction
from engine.core.game import SeatSpec
from engine.core.prompt import Action
from engine.elder_sign import board
from engine.elder_sign.content import Monster, Mythos, default_content
from engine.elder_sign.dice import GREEN, RED, YELLOW
from engine.elder_sign.state import ElderSignState, MonsterOn
from tests.engine.elder_sign.support import (
    NEUTRAL,
    PASSIVES,
    adventure,
    answer,
    clear_hands,
    extra_cards,
    go,
    new_game,
    op,
    option_ids,
    place,
    pool,
    prompt,
    set_faces,
    settle,
    table,
)

PASSIVE = PASSIVES[0]  # a passive ability (entrance discount) that never adds a prompt


def test_dice_faces_are_the_real_ones() -> None:
    """digest §1.2: green = 1,2,3 inv, lore, peril, terror; yellow swaps terror for 4; red swaps 1 for wild."""
    assert sorted(GREEN.faces) == sorted(["inv1", "inv2", "inv3", "lore", "peril", "terror"])
    assert sorted(YELLOW.faces) == sorted(["inv1", "inv2", "inv3", "inv4", "lore", "peril"])
    assert sorted(RED.faces) == sorted(["wild", "inv2", "inv3", "inv4", "lore", "peril"])


def test_setup() -> None:
    """digest §2: clock at XII, six adventures face up, a Mythos card in play (not a midnight), investigators
    at full health at the entrance, masks only with Nyarlathotep."""
    state = new_game(2, "hastur", characters=[PASSIVE, "margarethe-vogel"])
    c = default_content()
    assert state.clock == 0 and state.day == 1
    assert all(s is not None for s in state.slots) and len(state.slots) == 6
    assert state.mythos is not None
    for s in state.table:
        i = s.investigator
        assert i is not None and i.location == "entrance"
        card = c.investigators[i.card]
        assert (i.sanity, i.stamina) == (card.max_sanity, card.max_stamina)
    assert not any(c.monsters[m].mask for m in state.cup)
    assert len(state.cup) == 22
    nyar = new_game(1, "nyarlathotep")
    assert sum(c.monsters[m].mask for m in nyar.cup) == 5 and len(nyar.cup) == 27
    assert op(state) == "move" and state.flow.stack[-1].seat == state.current


def test_investigators_must_differ() -> None:
    """digest §2.7: each investigator is played by one player."""
    with pytest.raises(IllegalAction):
        new_game(2, NEUTRAL, characters=[PASSIVE, PASSIVE])


def test_one_task_per_roll_and_surplus_wasted() -> None:
    """digest §3.2 / §9.1: one task per roll even if the roll could fill two; investigation surplus is lost."""
    with extra_cards(adventure("test.two", ["inv2", "inv2"])):
        state = table()
        place(state, 0, "test.two")
        state, _ = go(state, "slot:0")
        assert op(state) == "post_roll"
        set_faces(state, {"g1": "inv3", "g2": "inv3", "g3": "lore", "g4": "lore", "g5": "lore", "g6": "lore"})
        tasks = [o for o in option_ids(state) if o.startswith("task:")]
        assert tasks and all(o.count(",") == 0 for o in tasks)  # one die each (minimal completions)
        state, _ = answer(state, "task:t0:g1")
        assert state.dice["g1"].loc == "assigned"
        # no second task without a new roll: the engine rolls the rest before offering tasks again
        assert op(state) == "post_roll" and state.adventure.rolls == 2


def test_failed_roll_is_always_legal_and_terror_comes_before_the_discard() -> None:
    """digest §3.2 (b), §9.2-9.3: a failed roll may be declared even when a task fits; a terror face
    triggers the card's terror effect before a die is discarded."""
    with extra_cards(adventure("test.terror", ["inv2", "lore"], terror=[{"sanity": -1}])):
        state = table()
        place(state, 0, "test.terror")
        state, _ = go(state, "slot:0")
        set_faces(state, {d: "terror" for d in pool(state)} | {"g1": "inv3"})
        assert "fail" in option_ids(state) and any(o.startswith("task:") for o in option_ids(state))
        sanity = state.table[0].investigator.sanity
        state, events = answer(state, "fail")
        assert op(state) == "discard_pick"  # the player picks which die to discard...
        assert "sanity.changed" in [e.kind for e in events]  # ...after the terror effect resolved
        state, events = answer(state, "g2")
        assert "die.discarded" in [e.kind for e in events]
        assert state.table[0].investigator.sanity == sanity - 1
        assert len(pool(state)) == 5  # one die discarded, the rest rolled again


def test_a_discard_asks_by_face_only_while_a_face_can_still_matter() -> None:
    """digest §3.2 / rulebook "Failed Roll", "Focus" and "Assistance": after a failed roll one die is discarded,
    then the player may focus or be assisted, then the rest are rolled again. Once the player's focus is used
    and nobody can assist, every die left is rolled before its face is read, so dice of one colour are the same
    die to discard: the engine discards one without asking, and asks only between colours."""
    with extra_cards(adventure("test.disc", ["lore peril peril"])):
        state = table()
        place(state, 0, "test.disc")
        state, _ = go(state, "slot:0")
        set_faces(state, {"g1": "lore", "g2": "inv1", "g3": "inv1", "g4": "inv2", "g5": "inv3", "g6": "terror"})
        state, _ = answer(state, "fail")
        assert op(state) == "discard_pick"  # the focus is still to come: the faces matter
        state, _ = answer(state, "g6")
        state, _ = answer(state, "focus:g1")
        set_faces(state, {"g2": "inv1", "g3": "inv2", "g4": "inv3", "g5": "terror"})
        state, events = answer(state, "fail")
        # focus used, no other investigator: one green die goes, no question
        assert [e.kind for e in events].count("die.discarded") == 1 and op(state) == "post_roll"
        assert len(pool(state)) == 3 and state.adventure.rolls == 3
        # with the yellow die in the pool, the question is between colours only
        state.dice["y"].loc = "pool"
        set_faces(state, {d: "inv1" for d in pool(state)} | {"g2": "peril", "y": "inv4"})
        state, _ = answer(state, "fail")
        assert op(state) == "discard_pick"
        labels = [o.label for o in prompt(state).options]
        assert labels == ["Discard a green die", "Discard a yellow die"], labels


def test_cost_gate_blocks_a_task_that_would_kill() -> None:
    """digest §1.5: a task may not be attempted if its sanity or stamina cost takes you to 0 or below."""
    with extra_cards(adventure("test.cost", ["lore sanity2"])):
        state = table()
        place(state, 0, "test.cost")
        state.table[0].investigator.sanity = 2
        state, _ = go(state, "slot:0")
        set_faces(state, {d: "lore" for d in pool(state)})
        assert not any(o.startswith("task:") for o in option_ids(state))
        state.table[0].investigator.sanity = 3
        assert any(o.startswith("task:") for o in option_ids(state))


def test_clock_cost_moves_the_hand_and_midnight_waits_for_the_turn_end() -> None:
    """digest §3.4 / §9.5: a CLOCK cost advances 3 hours at once; midnight strikes only after the turn."""
    with extra_cards(adventure("test.clock", ["lore clock", "peril"])):
        state = table()
        state.clock = 9
        place(state, 0, "test.clock")
        mythos_before = state.mythos
        state, _ = go(state, "slot:0")
        set_faces(state, {d: "lore" for d in pool(state)})
        state, _ = answer(state, "task:t0:*")
        assert state.clock == 0 and state.midnights_pending == 1
        assert state.mythos == mythos_before  # not yet: the turn is still going
        while op(state) == "post_roll":
            state, _ = answer(state, "abandon")
        assert state.midnights_pending == 0 and state.day == 2 and state.mythos != mythos_before


def test_success_sends_markers_home_replaces_the_card_then_rewards() -> None:
    """digest §3.2 SUCCESS: markers to the entrance, card to trophies, replacement before rewards."""
    with extra_cards(adventure("test.win", ["lore"], rewards=[{"clues": 2}, {"elder_signs": 1}])):
        state = table(2)
        place(state, 0, "test.win")
        state.current = 0
        state.flow.stack[-1].seat = 0
        state.table[1].investigator.location = "slot:0"
        state, _ = go(state, "slot:0")
        set_faces(state, {"g1": "lore"})
        clues = state.table[0].investigator.clues
        state, events = answer(state, "task:t0:g1")
        i0, i1 = state.table[0].investigator, state.table[1].investigator
        assert i0.location == i1.location == "entrance"
        assert "test.win" in i0.trophies and state.slots[0].card != "test.win"
        kinds = [e.kind for e in events]
        assert kinds.index("adventure.dealt") < kinds.index("clues.changed")
        assert i0.clues == clues + 2 and state.elder_signs == 1


def test_failure_keeps_the_marker_and_applies_penalties() -> None:
    """digest §3.2 FAILURE: progress resets, the marker stays, penalties apply."""
    with extra_cards(adventure("test.lose", ["lore", "peril"], penalties=[{"stamina": -1}, {"doom": 1}])):
        state = table()
        place(state, 0, "test.lose")
        state, _ = go(state, "slot:0")
        set_faces(state, {d: "lore" for d in pool(state)})
        state, _ = answer(state, "task:t0:*")
        stamina, doom = state.table[0].investigator.stamina, state.doom
        state, _ = answer(state, "abandon")
        assert state.table[0].investigator.location == "slot:0"
        assert state.table[0].investigator.stamina == stamina - 1 and state.doom == doom + 1
        assert state.adventure is None and all(d.loc in ("supply", "locked") for d in state.dice.values())


def test_locks_are_first_in_first_out() -> None:
    """digest §3.3: several locks on one colour queue; a freed die goes straight to the next lock."""
    state = table()
    events: list = []
    board.lock_die(state, "yellow", "src.a", "adventure", events)
    board.lock_die(state, "yellow", "src.b", "mythos", events)
    assert state.dice["y"].loc == "locked" and [lk.die for lk in state.locks if lk.color == "yellow"] == ["y", None]
    board.unlock_source(state, "src.a", events)
    assert state.dice["y"].loc == "locked"
    assert [lk.source for lk in state.locks if lk.die == "y"] == ["src.b"]
    board.unlock_source(state, "src.b", events)
    assert state.dice["y"].loc == "supply"


def test_green_locks_take_a_free_die_first() -> None:
    """digest §3.3 [AMBIG] decided: a green lock takes a supply die before a secured or focused one."""
    state = table()
    state.dice["g1"].loc = "secured"
    events: list = []
    board.lock_die(state, "green", "src", "adventure", events)
    assert state.dice["g1"].loc == "secured"
    assert len([d for d in board.dice_at(state, "locked") if d.startswith("g")]) == 1


def test_focus_once_per_turn_never_the_last_die() -> None:
    """digest §3.2 focus (1/turn, after a failed roll's discard) and §9.10 [AMBIG] decided: the last pool
    die cannot be focused."""
    with extra_cards(adventure("test.focus", ["inv20"])):
        state = table()
        place(state, 0, "test.focus")
        state, _ = go(state, "slot:0")
        set_faces(state, {d: "inv1" for d in pool(state)} | {"g6": "inv3"})
        state, _ = answer(state, "fail")
        if op(state) == "discard_pick":
            state, _ = answer(state, "g1")
        assert op(state) == "after_fail_ask"
        state, _ = answer(state, "focus:g6")
        assert state.dice["g6"].loc == "focused" and state.dice["g6"].face == "inv3"
        state, _ = answer(state, "fail")
        if op(state) == "discard_pick":
            state, _ = answer(state, prompt(state).options[0].id)
        assert op(state) != "after_fail_ask" or not any(o.startswith("focus:") for o in option_ids(state))


def _assisted_roll(card: str) -> ElderSignState:
    """Seat 0 attempts `card` with seat 1 on it, fails a roll and asks seat 1, who agrees and holds a die."""
    state = table(2)
    place(state, 0, card)
    state.current = 0
    state.flow.stack[-1].seat = 0
    state.table[1].investigator.location = "slot:0"
    state, _ = go(state, "slot:0")
    set_faces(state, {d: "inv2" for d in pool(state)} | {"g6": "inv3"})
    state, _ = answer(state, "fail")
    if op(state) == "discard_pick":
        state, _ = answer(state, "g1")
    state, _ = answer(state, "assist:1")
    assert prompt(state).seats == [1]  # the helper is asked for consent
    state, _ = answer(state, "yes")
    state, _ = answer(state, "g6")
    return state


def test_assistance_needs_consent_and_helpers_pay_on_failure() -> None:
    """digest §3.2 assistance: ask one investigator on the same card; they must agree; the die acts as a
    focused die; if the adventure fails each helper loses 1 sanity or stamina."""
    with extra_cards(adventure("test.help", ["inv20"])):
        state = _assisted_roll("test.help")
        assert state.dice["g6"].loc == "assisted" and state.dice["g6"].holder == "1"
        helper_before = state.table[1].investigator.model_copy()
        state, _ = answer(state, "abandon")
        assert prompt(state).seats == [1]  # the helper chooses what to lose
        state, _ = answer(state, "1")
        after = state.table[1].investigator
        assert after.stamina == helper_before.stamina - 1 and after.sanity == helper_before.sanity


def test_a_helper_still_pays_when_the_failed_cards_penalty_awakens_the_ancient_one() -> None:
    """Rulebook, Assistance: if the adventure fails, each investigator who assisted loses 1 sanity or 1
    stamina, even when the card's penalty fills the doom track and the Ancient One awakens (the awakening ends
    the adventure's resolution, not the helper's cost)."""
    with extra_cards(adventure("test.doomhelp", ["inv20"], penalties=[{"doom": 20}])):
        state = _assisted_roll("test.doomhelp")
        before = state.table[1].investigator.model_copy()
        state, _ = answer(state, "abandon")
        while not (prompt(state).seats == [1] and op(state) == "choose_branch"
                   and prompt(state).reason == "assistance"):
            state, _ = answer(state, prompt(state).default[0])  # monsters from the doom track, and so on
        assert state.phase == "battle"  # the penalty's doom awakened the Ancient One
        state, _ = answer(state, "0")  # the helper loses 1 sanity
        after = state.table[1].investigator
        assert after is not None and after.sanity == before.sanity - 1


def test_trophy_payment_gives_no_change() -> None:
    """digest §4.2: pay with trophies worth at least the cost; only minimal sets are offered."""
    state = table()
    i = state.table[0].investigator
    advs = sorted(default_content().adventures, key=lambda a: -default_content().adventures[a].trophy)
    three = next(a for a in advs if default_content().adventures[a].trophy == 3)
    one = next(a for a in advs if default_content().adventures[a].trophy == 1)
    i.trophies = [three, one]
    pays = board.payments(state, 0, 2)
    assert [three] in pays and [one] not in pays and [three, one] not in pays


def test_elder_sign_beats_a_simultaneous_awakening() -> None:
    """digest §4.1 batch rule: if the last doom and the last Elder Sign arrive together, the players win."""
    with extra_cards(adventure("test.both", ["lore"], rewards=[{"doom": 1}, {"elder_signs": 1}])):
        state = table()
        ao = default_content().ancient_ones[state.ao]
        state.doom = len(ao.doom_track) - 1
        state.elder_signs = ao.elder_signs - 1
        place(state, 0, "test.both")
        state, _ = go(state, "slot:0")
        set_faces(state, {"g1": "lore"})
        state, events = answer(state, "task:t0:g1")
        assert state.over and state.result == "win"


def test_full_doom_track_awakens_the_ancient_one() -> None:
    """digest §6.1: the last doom space awakens the Ancient One; dice locked by adventures are removed; all
    cards and monsters leave; markers move to the Ancient One."""
    with extra_cards(adventure("test.doom", ["lore"], penalties=[{"doom": 1}], locks=["red"])):
        state = table()
        ao = default_content().ancient_ones[state.ao]
        state.doom = len(ao.doom_track) - 1
        place(state, 0, "test.doom")
        board.lock_die(state, "red", "test.doom", "adventure", [])
        state, _ = go(state, "slot:0")
        state, events = answer(state, "abandon")
        assert state.phase == "battle" and any(e.kind == "ao.awakens" for e in events)
        assert state.dice["r"].loc == "removed"
        assert all(s is None for s in state.slots) and state.other_worlds == []
        assert state.table[0].investigator.location == "ao"


def battle_state(players: int = 1) -> object:
    state = table(players)
    ao = default_content().ancient_ones[state.ao]
    state.doom = len(ao.doom_track)
    state.phase = "battle"
    state.slots = [None] * 6
    for s in state.table:
        s.investigator.location = "ao"
    return state


def test_battle_success_removes_doom_and_the_last_doom_wins() -> None:
    """digest §6.2: each completed battle task removes one doom; removing the last one wins."""
    with extra_cards(adventure("test.x", ["lore"])):
        state = table()
        state.doom = 1
        state.phase = "battle"
        state.flow.stack.clear()
        state.table[0].investigator.location = "ao"
        from engine.elder_sign.ops import push
        from engine.elder_sign.rules import run
        push(state, "turn_start", None)
        run(state, [])
        assert op(state) == "post_roll"
        task = default_content().ancient_ones[state.ao].battle_task
        faces = {"inv:4": "inv3", "lore": "lore", "peril": "peril", "terror": "terror"}
        dice = pool(state)
        for n, sym in enumerate(task.symbols):
            set_faces(state, {dice[n]: faces.get(sym, sym.split("/")[0])})
        state, events = answer(state, "task:ao:*")
        assert state.over and state.result == "win" and state.doom == 0


def one_die_attack(clues: int) -> tuple[ElderSignState, list]:
    """A solo battle turn begun with one green die, nothing in hand and `clues` clues: the events so far."""
    state = table()
    clear_hands(state)
    state.table[0].investigator.clues = clues
    state.doom = len(default_content().ancient_ones[state.ao].doom_track)
    state.phase = "battle"
    state.slots = [None] * 6
    state.table[0].investigator.location = "ao"
    for d in [d for d in state.dice if d.startswith("g")][1:]:
        state.dice[d].loc = "removed"
    state.flow.stack.clear()
    from engine.elder_sign.ops import push
    from engine.elder_sign.rules import run
    push(state, "turn_start", None)
    events: list = []
    run(state, events)
    return state, events


def test_a_battle_roll_with_nothing_to_do_is_failed_without_asking() -> None:
    """rulebook "Battle" (digest §6.2 with §3.2): a battle roll that completes nothing, with no clue to spend and
    nothing to use, can only be a failed roll; the engine makes it without a question (a click that changed
    nothing) and says why. One green die never completes the battle task (it asks for several symbols), so the
    last die is discarded and the attack ends."""
    state, events = one_die_attack(clues=0)
    assert len(default_content().ancient_ones[state.ao].battle_task.symbols) > 1
    kinds = [e.kind for e in events]
    at = kinds.index("dice.rolled")
    assert kinds[at:at + 4] == ["dice.rolled", "battle.no_match", "die.discarded", "battle.spent"]
    assert "completes the battle task" in events[at + 1].text
    assert "post_roll" not in [f.op for f in state.flow.stack]  # no post-roll question was left asking


def test_a_battle_roll_with_a_clue_to_spend_still_asks() -> None:
    """digest §3.2 (clues reroll) in battle: with a clue in hand the failed roll is a choice, so it is asked."""
    state, _ = one_die_attack(clues=1)
    assert op(state) == "post_roll"
    assert sorted(option_ids(state)) == ["clue", "fail"]


def test_battle_example_cthulhu_attack_devours_and_adds_two_doom() -> None:
    """rulebook "Battle Example": at midnight Cthulhu attacks; each investigator lowers max sanity or max
    stamina by 1, then 1 doom; an investigator whose max stamina reaches 0 is devoured, adding another doom
    (two doom tokens in all)."""
    state = new_game(2, "cthulhu", characters=[PASSIVE, "margarethe-vogel"])
    while op(state) == "choose_branch":  # Cthulhu's setup effect: each lowers a maximum
        state, _ = answer(state, "0")
    clear_hands(state)
    state.phase = "battle"
    state.doom = 10
    for s in state.table:
        s.investigator.location = "ao"
    harvey = state.table[1].investigator
    harvey.max_stamina = harvey.stamina = 1
    state.flow.stack.clear()
    state.midnights_pending = 1
    from engine.elder_sign.ops import push
    from engine.elder_sign.rules import run
    push(state, "midnight", None)
    events: list = []
    run(state, events)
    # the attack's choice is asked of both investigators at once, each answering in any order
    assert op(state) == "choose_each"
    pending = api.prompts(state)
    assert sorted(p.seats[0] for p in pending) == [0, 1] and len({p.seq for p in pending}) == 2
    second = next(p for p in pending if p.seats == [1])
    state, events = api.apply(state, Action(seat=1, prompt=second.seq, choice=["1"]))  # max stamina to 0
    assert state.table[1].investigator is None and state.table[1].eliminated
    assert [p.seats for p in api.prompts(state)] == [[0]]  # seat 0's question is still open, unchanged
    state, _ = answer(state, "0")  # seat 0 lowers max sanity
    assert state.doom == 12  # one for the attack, one for the devouring


def test_devoured_investigator_returns_cards_adds_doom_and_is_replaced() -> None:
    """digest §7: +1 doom, items and trophies return, a new unused investigator at full health."""
    with extra_cards(adventure("test.kill", ["inv20"], terror=[{"stamina": -9}])):
        state = table()
        place(state, 0, "test.kill")
        i = state.table[0].investigator
        i.trophies = [next(iter(default_content().adventures))]
        old = i.card
        doom = state.doom
        state, _ = go(state, "slot:0")
        set_faces(state, {d: "terror" for d in pool(state)})
        state, _ = answer(state, "fail")
        assert state.table[0].investigator is None or state.table[0].investigator.card != old
        while op(state) != "new_investigator":
            state, _ = answer(state, prompt(state).options[0].id)
        assert state.doom >= doom + 1
        pick = prompt(state).options[0].id
        assert pick != f"{old}"
        state, _ = answer(state, pick)
        new = state.table[0].investigator
        card = default_content().investigators[pick]
        assert new.card == pick and new.stamina == card.max_stamina and new.location == "entrance"
        assert new.trophies == []


def test_sanity_reaching_exactly_zero_devours() -> None:
    """digest §7: an investigator whose sanity (or stamina) drops to 0, not only below it, is devoured."""
    with extra_cards(adventure("test.zero", ["inv20"], terror=[{"sanity": -1}])):
        state = table()
        place(state, 0, "test.zero")
        state.table[0].investigator.sanity = 1
        old = state.table[0].investigator.card
        state, _ = go(state, "slot:0")
        set_faces(state, {d: "terror" for d in pool(state)})
        state, events = answer(state, "fail")
        assert any(e.kind == "devoured" for e in events)
        assert state.table[0].investigator is None or state.table[0].investigator.card != old


def test_monster_goes_to_a_free_monster_slot_first() -> None:
    """digest §5.1: a monster goes on a free monster task; only when none is free does it go below a card,
    spreading evenly."""
    with extra_cards(adventure("test.slot", ["inv2", "lore [peril]"]),
                     Monster.model_validate({"id": "test.m", "name": "Tester", "task": "terror", "trophy": 1})):
        state = table()
        for n in range(6):
            place(state, n, "test.slot" if n == 0 else sorted(default_content().adventures)[n])
        for n in range(1, 6):
            card = board.card_data(state, f"slot:{n}")
            for t, task in enumerate(card.tasks):
                if task.slot != "none":
                    state.slots[n].monsters.append(MonsterOn(monster="test.m", slot=t))
        state.cup = ["test.m"]
        from engine.elder_sign.turn import monster_spots
        assert monster_spots(state) == [("slot:0", 1)]
        state.slots[0].monsters.append(MonsterOn(monster="test.m", slot=1))
        spots = monster_spots(state)
        assert all(slot is None for _, slot in spots)
        fewest = min(board.monster_count(state.slots[n]) for n in range(6))
        assert all(board.monster_count(board.card_at(state, w)) == fewest for w, _ in spots)


def test_partial_monster_slot_needs_both_parts() -> None:
    """digest §5.2-5.3: a partial slot's monster replaces the bordered symbols; the rest of the row still
    applies; defeating the monster completes the row only together with the unbordered part."""
    with extra_cards(adventure("test.partial", ["lore [peril]"]),
                     Monster.model_validate({"id": "test.m2", "name": "Tester", "task": "terror terror",
                                             "trophy": 1})):
        state = table()
        place(state, 0, "test.partial")
        state.slots[0].monsters.append(MonsterOn(monster="test.m2", slot=0))
        [(key, task)] = board.task_list(state, "slot:0")
        assert sorted(task.symbols) == ["lore", "terror", "terror"]
        state.slots[0].monsters[0].defeated_by = 0
        [(key, task)] = board.task_list(state, "slot:0")
        assert task.symbols == ["lore"]


def test_midnight_draws_mythos_and_refreshes_daily_abilities() -> None:
    """digest §3.4 midnight steps: a new Mythos card replaces the old (freeing its locks); once-per-day
    abilities refresh."""
    lock_card = Mythos.model_validate({"id": "test.mythos", "name": "Test", "locks": ["yellow"]})
    with extra_cards(lock_card):
        state = table()
        state.mythos = "test.mythos"
        board.lock_die(state, "yellow", "test.mythos", "mythos", [])
        state.table[0].investigator.used["x"] = state.day
        state.clock = 9
        state, _ = answer(state, "go:entrance")
        state, _ = answer(state, "rest")
        assert state.day == 2 and state.mythos != "test.mythos"
        assert state.dice["y"].loc in ("supply", "locked")
        assert not any(lk.source == "test.mythos" for lk in state.locks)


def test_at_midnight_effects_skip_the_first_turn() -> None:
    """rulebook "Midnight": "At Midnight" effects do not happen during the game's first turn; later
    midnights resolve them (digest §3.4 step 1)."""
    with extra_cards(adventure("test.mid", ["inv20"], midnight=[{"elder_signs": 1}])):
        state = table()
        place(state, 0, "test.mid")
        state.clock = 9
        assert state.turn_number == 1
        state, _ = answer(state, "go:entrance")
        state, _ = answer(state, "rest")
        state = settle(state)
        assert state.day == 2 and state.elder_signs == 0
        place(state, 0, "test.mid")
        state.clock = 9
        state, _ = answer(state, "go:entrance")
        state, _ = answer(state, "rest")
        state = settle(state)
        assert state.day == 3 and state.elder_signs == 1


def test_entrance_first_aid_and_one_action_per_turn() -> None:
    """digest §4.3: exactly one entrance action per turn; free First Aid restores 1."""
    state = table()
    i = state.table[0].investigator
    i.stamina = i.max_stamina - 2
    state, _ = answer(state, "go:entrance")
    assert "aid:stamina" in option_ids(state)
    state, _ = answer(state, "aid:stamina")
    assert state.table[0].investigator.stamina == i.max_stamina - 1
    assert op(state) == "move"  # the next turn began: no second entrance action


def test_first_aid_to_full_costs_two_trophies_and_both_four() -> None:
    """digest §4.3 First Aid (rulebook, The Entrance): full stamina or full sanity costs 2 trophies, both 4,
    paid with no change (§4.2). An investigator without a discount holding two 1-trophy cards spends both."""
    state = table(chars=["margarethe-vogel"])
    i = state.table[0].investigator
    c = default_content()
    ones = [a for a in sorted(c.adventures) if c.adventures[a].trophy == 1][:4]
    i.trophies = list(ones)
    i.stamina, i.sanity = 1, 1
    state, _ = answer(state, "go:entrance")
    labels = {o.id: o.label for o in prompt(state).options}
    assert "(2 trophies)" in labels["aid:full_stamina"] and "(4 trophies)" in labels["aid:full_both"]
    state, _ = answer(state, "aid:full_stamina")
    assert prompt(state).title.endswith("pay 2 in trophies (no change is given)")
    state, _ = answer(state, "p0")
    i = state.table[0].investigator
    assert i.stamina == i.max_stamina and i.sanity == 1
    assert sorted(i.trophies) == sorted(ones[2:])  # two of the four 1-trophy cards paid


def test_lost_and_found_rolls_one_green_die() -> None:
    """digest §4.3 Lost & Found: roll one green die and apply the authored chart."""
    state = table()
    state, _ = answer(state, "go:entrance")
    state, events = answer(state, "lost")
    rolled = [e for e in events if e.kind == "lost_and_found"]
    assert len(rolled) == 1 and rolled[0].data["faces"][0] in GREEN.faces


def test_a_stale_or_foreign_answer_is_refused() -> None:
    """Engine contract: a rejected action changes nothing."""
    state = table(2)
    p = prompt(state)
    other = 1 - p.seats[0]
    before = state.model_dump_json()
    from engine import api
    with pytest.raises(IllegalAction):
        api.apply(state, Action(seat=other, prompt=p.seq, choice=["go:entrance"]))
    with pytest.raises(IllegalAction):
        api.apply(state, Action(seat=p.seats[0], prompt=p.seq - 1, choice=["go:entrance"]))
    assert state.model_dump_json() == before


def test_failing_with_the_last_die_says_the_adventure_fails() -> None:
    """Rulebook, Failed roll: with one die left, discarding it ends the attempt; the option says so instead of
    promising another roll."""
    with extra_cards(adventure("test.last", ["inv20"])):
        state = table()
        place(state, 0, "test.last")
        state, _ = go(state, "slot:0")
        for d in pool(state)[1:]:
            board.set_die(state, d, "discarded", keep_face=True)
        set_faces(state, {d: "inv1" for d in pool(state)})
        label = next(o.label for o in prompt(state).options if o.id == "fail")
        assert "the adventure fails" in label and "roll again" not in label


def test_losses_and_gains_say_their_cause_and_read_right() -> None:
    """Narration (second pass): every loss and gain names its card or rule; 'regains' only when something was
    regained; plurals agree ('1 clue', '2 clues')."""
    from engine.elder_sign.effects import apply_batch
    from engine.elder_sign.rules import run

    state = table()
    i = state.table[0].investigator
    i.stamina, i.clues = i.max_stamina, 1
    card = next(iter(default_content().adventures.values()))
    events: list = []
    apply_batch(state, [{"stamina": 1}, {"sanity": -1}, {"clues": -1}, {"clues": -1}, {"clues": 2}], 0, card.id)
    run(state, events)
    texts = [e.text for e in events if e.kind.endswith(".changed")]
    assert "already full" in texts[0] and "regains" not in texts[0]
    assert f"loses 1 sanity (from {card.name})" in texts[1]
    assert f"loses 1 clue (from {card.name})" in texts[2]
    assert "has no clues to lose" in texts[3]
    assert f"gains 2 clues (from {card.name})" in texts[4]


def test_every_public_event_has_words_and_failures_show_the_table() -> None:
    """Second pass: no empty public narration lines; a failed adventure, like a success, asks for a table
    picture (the table changed: dice back, monsters collected, penalties)."""
    from engine.agents import RandomAgent

    state, events = api.new_game("elder-sign", [SeatSpec(seat=0, name="a"), SeatSpec(seat=1, name="b")], {}, 4)
    agent = RandomAgent(4)
    for _ in range(400):
        if state.over:
            break
        state, more = api.apply(state, agent.act(state))
        events += more
    assert all(e.text.strip() for e in events if e.private_to is None)
    failures = [e for e in events if e.kind == "adventure.failure"]
    assert failures and all(e.render for e in failures)


def test_midnight_narration_reads_in_order() -> None:
    """digest §3.4 (midnight waits for the end of the turn; one midnight per crossing) and rulebook "Clock":
    when a task's CLOCK cost passes XII, the narration says midnight comes at the end of the turn; the
    Clock phase says it is the Clock phase; a midnight struck after the hand moved on says the clock passed
    XII during the turn; and midnight ends with the new day."""
    with extra_cards(adventure("test.clock2", ["lore clock", "peril"])):
        state = table()
        state.clock = 9
        place(state, 0, "test.clock2")
        state, _ = go(state, "slot:0")
        set_faces(state, {d: "lore" for d in pool(state)})
        state, events = answer(state, "task:t0:*")
        clock = [e.text for e in events if e.kind == "clock.advanced"]
        assert clock == ["The clock strikes XII (from a task's cost). Midnight comes at the end of the turn."]
        texts: list[str] = []
        while op(state) == "post_roll":
            state, events = answer(state, "abandon")
            texts += [e.text for e in events]
        assert "Clock phase: the clock strikes III." in texts
        at = texts.index("Clock phase: the clock strikes III.")
        assert texts[at + 1] == "Midnight strikes (the clock passed XII during the turn)."
        assert "Midnight is over: day 2 begins." in texts[at + 1:]
        assert texts.index("Midnight is over: day 2 begins.") < next(
            i for i, t in enumerate(texts) if t.startswith("End of turn"))


def test_a_table_changed_event_ends_each_resolution_and_each_midnight() -> None:
    """Issue 8 "a table image after every phase that changes the table": the engine marks the end of each
    Resolution phase with an adventure (rulebook "Resolution phase") and the end of each midnight (digest
    §3.4) with a `table.changed` event (cause "resolution" / "midnight"), after the phase's changes."""
    from engine.elder_sign.turn import TABLE_CHANGED

    state = table()
    state.clock = 9  # this turn's Clock phase strikes midnight
    state, events = go(state, "slot:0")
    while op(state) == "post_roll":
        state, more = answer(state, "abandon")
        events += more
    marks = [(e.cause, i) for i, e in enumerate(events) if e.kind == TABLE_CHANGED]
    assert [c for c, _ in marks] == ["resolution", "midnight"]
    failure = next(i for i, e in enumerate(events) if e.kind == "adventure.failure")
    midnight = next(i for i, e in enumerate(events) if e.kind == "midnight")
    assert failure < marks[0][1] < midnight < marks[1][1]
    assert events[marks[0][1]].text.startswith("After ") and "doom" in events[marks[0][1]].text


def test_counts_read_right_in_every_label() -> None:
    """Second pass: plurals agree ("Roll 1 die", "with 1 die", "1 trophy", free when a discount makes it 0)."""
    from engine.elder_sign.effects import plural
    from engine.elder_sign.effects_schema import describe

    assert [plural(1, "die"), plural(2, "die"), plural(1, "trophy"), plural(3, "trophy"), plural(2, "clue")] == \
        ["1 die", "2 dice", "1 trophy", "3 trophies", "2 clues"]
    assert describe([{"discard_die": 1}]) == "discard 1 die from your pool"
    assert describe([{"discard_die": 2}]) == "discard 2 dice from your pool"
    state = table()
    for d in pool(state) or board.dice_at(state, "supply"):
        if d != "g1":
            state.dice[d].loc = "removed"
    state, events = answer(state, "go:slot:0")
    assert any(e.kind == "adventure.begun" and e.text.endswith("with 1 die.") for e in events)


def test_an_item_option_shows_what_the_card_does_whole() -> None:
    """Second pass: item and spell texts were cut at ~100 characters; the option's description now says in
    full what using the card does (rulebook "Items": a card is read before it is used), and an ability's
    option carries its text."""
    from engine.elder_sign import items
    from engine.elder_sign.effects_schema import describe

    state = table()
    c = default_content()
    usable = [x for x in c.items.values() if x.use and all(
        next(iter(e)) in ("clues", "elder_signs", "doom", "common", "unique", "spell", "ally") for e in x.use)]
    assert usable, "no item usable at the start of a turn"
    card = max(usable, key=lambda x: len(describe(x.use)))
    state.table[0].investigator.items = [card.id]
    opts = {o.id: o for o in items.options(state, 0, "move")}
    assert opts[f"item:{card.id}"].detail == f"Use: {describe(card.use)}"
    ability = next(o for o in opts.values() if o.id.startswith("ab:")) if any(
        o.id.startswith("ab:") for o in opts.values()) else None
    if ability is not None:
        assert ability.detail


def test_doom_elder_signs_and_monsters_say_their_cause() -> None:
    """Second pass, "every loss and gain says its cause": doom, Elder Signs and a monster's appearance name the
    card or rule behind them (rulebook "Doom Track": a monster space summons a monster)."""
    from engine.elder_sign.effects import apply_batch
    from engine.elder_sign.ops import push
    from engine.elder_sign.rules import run

    state = table()
    card = next(iter(default_content().adventures.values()))
    events: list = []
    apply_batch(state, [{"doom": 1}, {"elder_signs": 1}], 0, card.id)
    run(state, events)
    texts = {e.kind: e.text for e in events}
    push(state, "monster", None, source="doom track")
    run(state, events)
    assert texts["doom.added"].endswith(f"(from {card.name}).")
    assert texts["elder_signs.changed"].endswith(f"(from {card.name}).")
    placed = [e.text for e in events if e.kind == "monster.appeared"]
    if not placed:  # several free spots: the current player places it
        state, events = answer(state, prompt(state).options[0].id)
        placed = [e.text for e in events if e.kind == "monster.appeared"]
    assert placed and " appears (from the doom track) on " in placed[0]
