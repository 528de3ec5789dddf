"""Elder Sign invariants under random legal play (DESIGN.md "Tests" 2; rules digest sections cited inline).

Hypothesis picks a game seed, a player count (1-8, digest 8) and a seed for the random player; the player
answers random legal prompts for up to MAX_ACTIONS actions. After setup and after every action the whole
table is checked: dice (1.3, 3.3), the clock (3.4), investigators (1.4, 7), doom and Elder Signs (3.5, 6.3),
the game-over condition (6.3), and that no card was lost or duplicated (every card is somewhere exactly once).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import api
from engine.core.game import SeatSpec
from engine.core.prompt import Action
from engine.elder_sign.content import default_content
from engine.elder_sign.dice import DIE_IDS, color_of
from engine.elder_sign.state import ElderSignState

MAX_ACTIONS = 300

#: Switches that once let two since-fixed engine bugs through (a monster lost when its placer was devoured;
#: a free entrance purchase asking to "pay 0"). Both are fixed and pinned by regression tests below; the
#: switches stay False so the invariants check those cases too.
KNOWN_BUG_LAPSED_MONSTER = False
KNOWN_BUG_FREE_PAY_PROMPT = False

DIE_LOCS = {"supply", "pool", "assigned", "discarded", "focused", "assisted", "secured", "locked", "removed",
            "battle"}
IN_ADVENTURE_LOCS = {"pool", "assigned", "discarded", "focused", "assisted", "battle"}


def seats(n: int) -> list[SeatSpec]:
    return [SeatSpec(seat=i, name=f"P{i + 1}") for i in range(n)]


# ---------------------------------------------------------------- the invariants


def check_dice(s: ElderSignState) -> None:
    """Eight dice, each in one known place; locked dice and locks match one to one (1.3, 3.3)."""
    assert sorted(s.dice) == sorted(DIE_IDS), f"dice are {sorted(s.dice)}"
    for d, die in s.dice.items():
        assert die.loc in DIE_LOCS, f"die {d} is in an unknown place {die.loc!r}"
    lock_ids = [lk.id for lk in s.locks]
    assert len(lock_ids) == len(set(lock_ids)), f"duplicate lock ids {lock_ids}"
    held = Counter(lk.die for lk in s.locks if lk.die is not None)
    for d, n in held.items():
        assert n == 1, f"die {d} is held by {n} locks"
        assert d in s.dice and s.dice[d].loc == "locked", f"lock holds die {d}, which is {s.dice[d].loc}"
    by_id = {lk.id: lk for lk in s.locks}
    for d, die in s.dice.items():
        if die.loc == "locked":
            assert die.holder in by_id, f"locked die {d} names lock {die.holder!r}, which is not in play"
            assert by_id[die.holder].die == d, f"locked die {d}: its lock {die.holder} holds {by_id[die.holder].die}"
        assert d in held or die.loc != "locked"
    for lk in s.locks:  # a lock waits only while every die of its colour is busy (3.3)
        if lk.die is None:
            free = [d for d, die in s.dice.items() if color_of(d) == lk.color and die.loc == "supply"]
            assert not free, f"lock {lk.id} ({lk.color}, {lk.source}) waits while {free} sit in the supply"
    cast = {spell for seat in s.table if seat.investigator is not None for spell in seat.investigator.cast}
    for d, die in s.dice.items():
        if die.loc == "secured":
            assert die.holder in cast, f"die {d} is secured on {die.holder!r}, which nobody has cast"
    if s.adventure is None:
        stray = {d: die.loc for d, die in s.dice.items() if die.loc in IN_ADVENTURE_LOCS}
        assert not stray, f"no adventure is under way, yet dice are {stray}"
    if s.phase != "battle":
        assert not [d for d, die in s.dice.items() if die.loc == "removed"], "dice removed before the awakening"


def hours(s: ElderSignState) -> int:
    """Hours since the game began. `day` counts midnights already resolved; a crossing of XII during a turn
    waits in `midnights_pending` until the turn ends (3.4), and `midnight_now` marks one being resolved, so
    both count as days already begun."""
    return (s.day + s.midnights_pending + int(s.midnight_now)) * 12 + s.clock


def check_clock(s: ElderSignState, last_time: int) -> int:
    """The clock shows XII/III/VI/IX and only moves forward (3.4)."""
    assert s.clock in (0, 3, 6, 9), f"clock at {s.clock}"
    assert s.midnights_pending >= 0
    t = hours(s)
    assert t >= last_time, (f"time went back from {last_time} to {t} (day {s.day}, clock {s.clock}, "
                            f"{s.midnights_pending} midnights pending)")
    return t


def check_investigators(s: ElderSignState) -> None:
    """Living investigators have 0 < value <= max; a devoured one leaves its seat (1.4, 7)."""
    for n, seat in enumerate(s.table):
        i = seat.investigator
        if i is None:
            continue
        assert not seat.eliminated, f"seat {n} is eliminated but still holds {i.card}"
        assert i.max_stamina >= 1 and i.max_sanity >= 1, f"seat {n}: maxima {i.max_stamina}/{i.max_sanity}"
        assert 0 < i.stamina <= i.max_stamina, f"seat {n} ({i.card}): stamina {i.stamina}/{i.max_stamina}"
        assert 0 < i.sanity <= i.max_sanity, f"seat {n} ({i.card}): sanity {i.sanity}/{i.max_sanity}"
        assert i.clues >= 0, f"seat {n}: {i.clues} clues"
    cards = [seat.investigator.card for seat in s.table if seat.investigator is not None]
    assert len(cards) == len(set(cards)), f"an investigator is played twice: {cards}"
    assert not set(cards) & set(s.unused_investigators), "an investigator in play is also unused"


def check_tracks(s: ElderSignState) -> None:
    ao = default_content().ancient_ones[s.ao]
    assert 0 <= s.doom <= len(ao.doom_track), f"doom {s.doom} on a track of {len(ao.doom_track)}"
    assert s.elder_signs >= 0, f"{s.elder_signs} Elder Signs"


def check_game_over(s: ElderSignState) -> None:
    """The game is over exactly when a win or a loss condition holds (6.3)."""
    ao = default_content().ancient_ones[s.ao]
    won = s.elder_signs >= ao.elder_signs or (s.phase == "battle" and s.doom == 0)
    nobody = (not any(seat.investigator is not None and not seat.eliminated for seat in s.table)
              and not any(seat.pending_new for seat in s.table))
    if s.over:
        assert s.result in ("win", "loss"), s.result
        if s.result == "win":
            assert won, f"won with {s.elder_signs}/{ao.elder_signs} Elder Signs, phase {s.phase}, doom {s.doom}"
        else:
            assert nobody, "lost while an investigator is still in play (or a replacement is pending)"
    else:
        assert s.result is None
        assert not won, (f"not over, but {s.elder_signs}/{ao.elder_signs} Elder Signs, phase {s.phase}, "
                         f"doom {s.doom}")
        assert not nobody, "not over, but no seat has an investigator and none is pending"


def expected_cards(s: ElderSignState) -> Counter[str]:
    """Every adventure, other world, item, spell, ally and Mythos card, and the monsters of this game's cup
    (the mask monsters only with an Ancient One that uses them, setup 3)."""
    c = default_content()
    masks = c.ancient_ones[s.ao].masks
    ids = [*c.adventures, *c.other_worlds, *c.items, *c.mythos]
    ids += [m.id for m in c.monsters.values() if not m.mask or masks]
    return Counter(ids)


def where_cards_are(s: ElderSignState) -> Counter[str]:
    found: Counter[str] = Counter()
    for deck in s.decks.values():
        found.update(deck.cards())
    for cip in [*s.slots, *s.other_worlds]:
        if cip is not None:
            found[cip.card] += 1
            found.update(m.monster for m in cip.monsters)
    for seat in s.table:
        i = seat.investigator
        if i is not None:
            found.update(i.items + i.allies + i.cast + i.trophies)
    if s.mythos is not None:
        found[s.mythos] += 1
    found.update(s.cup)
    for step in s.flow.stack:  # a monster drawn from the cup, waiting for its placement to be chosen
        if step.op == "place_monster":
            found[step.args["monster"]] += 1
    return found


def check_cards(s: ElderSignState, forgiven: Counter[str] | None = None) -> None:
    """No card lost, none duplicated: each is in exactly one deck pile, slot, hand, trophy pile... (4.2, 7.3).
    `forgiven`: cards already lost to a known engine bug (see KNOWN_BUG_LAPSED_MONSTER)."""
    want, got = expected_cards(s) - (forgiven or Counter()), where_cards_are(s)
    missing = sorted((want - got).elements())
    extra = sorted((got - want).elements())
    assert not missing and not extra, f"cards lost: {missing}; cards duplicated or foreign: {extra}"


def check_prompt(s: ElderSignState) -> None:
    pending = api.prompts(s)
    if s.over:
        assert pending == []
        return
    assert len(pending) >= 1, "the game is not over but waits for nobody"
    for p in pending:
        assert p.options, f"prompt '{p.title}' has no options"
        ids = [o.id for o in p.options]
        assert len(ids) == len(set(ids)), f"prompt '{p.title}' repeats an option id: {ids}"
        free_pay = s.flow.stack[-1].op == "pay" and s.flow.stack[-1].args.get("cost") == 0
        if not (KNOWN_BUG_FREE_PAY_PROMPT and free_pay):
            assert all(o.label.strip() for o in p.options), f"prompt '{p.title}' has an unlabelled option"
        assert 0 < p.seq <= s.prompt_seq
        assert p.seats
        for seat in p.seats:
            assert 0 <= seat < len(s.seats)
            assert p.answers(seat), f"prompt '{p.title}' has no legal answer for seat {seat}"
        if p.default is not None:  # a moderator's "skip" answers with the default: it must be legal
            p.validate_action(Action(seat=p.seats[0], prompt=p.seq, choice=p.default, amount=p.default_amount))


def check_all(s: ElderSignState, last_time: int, forgiven: Counter[str] | None = None) -> int:
    check_dice(s)
    t = check_clock(s, last_time)
    check_investigators(s)
    check_tracks(s)
    check_game_over(s)
    check_cards(s, forgiven)
    check_prompt(s)
    return t


# ---------------------------------------------------------------- random legal play


def play_checked(seed: int, players: int, player_seed: int, max_actions: int = MAX_ACTIONS) -> ElderSignState:
    rnd = random.Random(player_seed)
    state, _ = api.new_game("elder-sign", seats(players), {}, seed)
    assert isinstance(state, ElderSignState)
    t = check_all(state, 0)
    history: list[str] = []
    forgiven: Counter[str] = Counter()
    monsters = set(default_content().monsters)
    for _ in range(max_actions):
        if state.over:
            break
        p = rnd.choice(api.prompts(state))
        action = rnd.choice(p.answers(rnd.choice(p.seats)))
        history.append(f"{p.title!r} -> {action.choice or action.amount}")
        placer_gone = state.table[state.current].investigator is None
        state, events = api.apply(state, action, in_place=True)
        if KNOWN_BUG_LAPSED_MONSTER and (placer_gone or any(e.kind == "devoured" for e in events)):
            lost = expected_cards(state) - forgiven - where_cards_are(state)
            if lost and set(lost) <= monsters:
                forgiven += lost
        try:
            t = check_all(state, t, forgiven)
        except AssertionError as exc:
            raise AssertionError(f"after action {len(history)} (seed={seed}, players={players}, "
                                 f"player_seed={player_seed}); last actions: {history[-5:]}\n{exc}") from exc
    return state


@given(seed=st.integers(0, 2**64 - 1), players=st.integers(1, 8), player_seed=st.integers(0, 2**32 - 1))
def test_invariants_hold_under_random_play(seed: int, players: int, player_seed: int) -> None:
    play_checked(seed, players, player_seed)


def test_invariants_hold_over_a_fixed_sweep() -> None:
    """A deterministic sweep of every player count, so each run covers them all whatever hypothesis draws."""
    for seed in range(24):
        play_checked(seed * 7919, seed % 8 + 1, seed)


def test_every_card_is_accounted_for_at_setup() -> None:
    """Setup (digest 2): 6 adventures dealt, one Mythos face-up, the right monsters in the cup."""
    for n in (1, 4, 8):
        state, _ = api.new_game("elder-sign", seats(n), {}, 12345 + n)
        assert isinstance(state, ElderSignState)
        assert sum(1 for cip in state.slots if cip is not None) == 6
        assert state.mythos is not None
        assert state.clock == 0 and state.day == 1 and state.elder_signs == 0  # the first Mythos may add doom
        assert all(die.loc in ("supply", "locked") for die in state.dice.values())
        assert all(seat.investigator is not None for seat in state.table)
        check_all(state, 0)


# ---------------------------------------------------------------- engine bugs found by the properties above


def test_a_monster_drawn_for_a_devoured_placer_still_appears() -> None:
    """A penalty batch such as [stamina -N, monsters 1] (e.g. a failed adventure) devours the active
    investigator and then makes a monster appear. The monster must still end up on a card, in the cup, or in
    a pending placement (digest 5.1; 7.2 only removes the investigator and marker)."""
    from engine.elder_sign.effects import apply_batch
    from engine.elder_sign.rules import run
    from engine.elder_sign.turn import monster_spots

    for seed in range(50):
        state, _ = api.new_game("elder-sign", seats(2), {}, seed)
        assert isinstance(state, ElderSignState)
        if len(monster_spots(state)) > 1:  # the placement needs a player's choice
            break
    else:
        pytest.fail("no seed gives a monster placement with a choice")
    check_cards(state)
    apply_batch(state, [{"devoured": True}, {"monsters": 1}], state.current, "test.penalty")
    run(state, [])
    check_cards(state)


def test_a_free_purchase_needs_no_payment() -> None:
    """Lionel Ashdown (1 trophy off at the entrance, no trophies yet) buys the 1-trophy clue souvenir. Every
    option the engine offers must carry a label a player can read (DESIGN: every decision is a Prompt with
    stable ids and human labels)."""
    lionel = [SeatSpec(seat=0, name="P1", character="lionel-ashdown")]
    for seed in range(100):  # a table whose first decision is Lionel's movement
        state, _ = api.new_game("elder-sign", lionel, {}, seed)
        p = api.prompts(state)[0]
        if p.option("go:entrance") is not None:
            break
    else:
        pytest.fail("no seed starts with Lionel's movement")
    state, _ = api.apply(state, Action(seat=0, prompt=p.seq, choice=["go:entrance"]))
    p = api.prompts(state)[0]
    assert p.option("buy:clue") is not None, [o.id for o in p.options]
    assert "(free)" in p.option("buy:clue").label  # type: ignore[union-attr]
    state, _ = api.apply(state, Action(seat=0, prompt=p.seq, choice=["buy:clue"]))
    for p in api.prompts(state):
        assert all(o.label.strip() for o in p.options), f"{p.title}: {[(o.id, o.label) for o in p.options]}"
