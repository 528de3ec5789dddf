"""Exact odds (engine/elder_sign/odds.py) against hand computations, a brute-force reference, a seeded Monte
Carlo run of the recommended play, and monotonicity properties.

Digest sections: 1.2 (faces: green has Terror, yellow has Inv4 instead, red has a Wildcard instead of
Inv1), 1.5 (task symbols), 3.2 (the resolution loop: roll the pool; complete ONE task per roll with rolled
plus focused dice; a clue rerolls any subset of the rolled dice within the same roll; a failed roll
discards one die, losing the last one is failure; focus once per turn after the discard), 9 (edge case
10: focusing the last pool die is forbidden), 11.3 (matcher).
"""

from __future__ import annotations

import math
from functools import cache
from itertools import combinations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.rng import Rng
from engine.elder_sign.dice import DIE_TYPES, color_of
from engine.elder_sign.matcher import validate
from engine.elder_sign.odds import Advice, adventure_odds, best_use, task_odds
from engine.elder_sign.tasks import Task, parse_task
from tests.engine.elder_sign.test_matcher import naive_complete

T = parse_task


# ------------------------------------------------------------------------------------------------------
# brute-force reference: raw faces, every subset, every choice, straight from digest 3.2


@cache
def _ok(symbols: tuple[str, ...], faces: tuple[str, ...]) -> bool:
    return naive_complete(list(symbols), list(faces))


@cache
def ref_roll(rem: tuple[tuple[str, ...], ...], ordered: bool, pool: tuple[str, ...], held: tuple[str, ...],
             clues: int, focus: bool) -> float:
    """Success probability before rolling ``pool`` (colours), by enumerating every outcome."""
    if not rem:
        return 1.0
    if not pool:
        return 0.0  # a task is completed with a roll: nothing left to roll is failure (3.2)
    total = 0.0
    outcomes = list(product(*(DIE_TYPES[c].faces for c in pool)))
    for faces in outcomes:
        total += ref_after(rem, ordered, tuple(sorted(zip(pool, faces, strict=True))), held, clues, focus)
    return total / len(outcomes)


@cache
def ref_after(rem: tuple[tuple[str, ...], ...], ordered: bool, rolled: tuple[tuple[str, str], ...],
              held: tuple[str, ...], clues: int, focus: bool) -> float:
    """Best success probability with this roll on the table: complete (any subset of rolled + held dice
    that meets the task, not only minimal ones), reroll any non-empty subset with a clue, or fail
    (discard any die, then focus any remaining die or not)."""
    best = 0.0
    n, h = len(rolled), len(held)
    candidates = [0] if ordered else range(len(rem))
    for ti in candidates:
        for mask in range(1 << (n + h)):
            used_r = [rolled[i] for i in range(n) if mask >> i & 1]
            used_h = [held[i] for i in range(h) if mask >> (n + i) & 1]
            if not _ok(rem[ti], tuple(sorted([f for _, f in used_r] + used_h))):
                continue
            after = rem[:ti] + rem[ti + 1:]
            pool = tuple(sorted(c for i, (c, _) in enumerate(rolled) if not mask >> i & 1))
            left = tuple(sorted(held[i] for i in range(h) if not mask >> (n + i) & 1))
            best = max(best, ref_roll(after, ordered, pool, left, clues, focus))
    if clues:
        for k in range(1, n + 1):
            for idx in combinations(range(n), k):
                keep = [rolled[i] for i in range(n) if i not in idx]
                again = [rolled[i][0] for i in idx]
                outs = list(product(*(DIE_TYPES[c].faces for c in again)))
                v = sum(ref_after(rem, ordered, tuple(sorted(keep + list(zip(again, o, strict=True)))), held,
                                  clues - 1, focus) for o in outs) / len(outs)
                best = max(best, v)
    for d in range(n):
        rest = rolled[:d] + rolled[d + 1:]
        if not rest:
            continue  # the last die was discarded: failure (value 0)
        best = max(best, ref_roll(rem, ordered, tuple(sorted(c for c, _ in rest)), held, clues, focus))
        if focus and len(rest) >= 2:  # focusing the last pool die is forbidden (digest 9, item 10)
            for f in range(len(rest)):
                pool = tuple(sorted(c for i, (c, _) in enumerate(rest) if i != f))
                best = max(best, ref_roll(rem, ordered, pool, tuple(sorted(held + (rest[f][1],))), clues, False))
    return best


def ref_task(symbols: str, green: int, yellow: int = 0, red: int = 0, held: tuple[str, ...] = (), clues: int = 0,
             focus: bool = True) -> float:
    pool = ("green",) * green + ("yellow",) * yellow + ("red",) * red
    return ref_roll((tuple(T(symbols).symbols),), False, tuple(sorted(pool)), tuple(sorted(held)), clues, focus)


# ------------------------------------------------------------------------------------------------------
# hand computations


def test_one_green_die_against_lore():
    """Digest 1.2 + 3.2: one roll of one green die; a failed roll discards the last die, which is failure."""
    assert task_odds(T("lore"), 1) == pytest.approx(1 / 6)
    assert task_odds(T("lore"), 1, clues=1) == pytest.approx(1 / 6 + 5 / 6 * 1 / 6)


def test_yellow_die_never_shows_terror():
    """Digest 1.2: the yellow die has Inv4 instead of Terror."""
    assert task_odds(T("terror"), 0, yellow=1, clues=3) == 0.0
    assert task_odds(T("inv4"), 0, yellow=1) == pytest.approx(1 / 6)


def test_red_wildcard_counts_as_any_one():
    """Digest 1.2: red = Wild, Inv2, Inv3, Inv4, Lore, Peril; the Wildcard is Inv4 or a face."""
    assert task_odds(T("terror"), 0, red=1) == pytest.approx(1 / 6)
    assert task_odds(T("inv4"), 0, red=1) == pytest.approx(2 / 6)
    assert task_odds(T("lore"), 0, red=1) == pytest.approx(2 / 6)
    assert task_odds(T("inv1"), 0, red=1) == pytest.approx(4 / 6)  # Wild, 2, 3, 4: not Lore or Peril


def test_two_green_dice_against_inv2():
    """Digest 1.5 (subset sum): first roll wins with a 2 or 3 on either die or 1+1 (21/36); otherwise
    discard one die and roll the other (2/6)."""
    assert task_odds(T("inv2"), 2) == pytest.approx(21 / 36 + 15 / 36 * 2 / 6)


def test_three_green_dice_against_lore_is_six_tries():
    """Digest 3.2: a failed roll costs one die, so 3 dice vs Lore means rolls of 3, 2 and 1 dice: six
    independent chances in all. Focus cannot help (a non-Lore die is useless)."""
    assert task_odds(T("lore"), 3) == pytest.approx(1 - (5 / 6) ** 6)


def test_two_faces_need_one_roll():
    """Digest 3.2: Peril + Terror with two green dice must come in one roll (a single die cannot do both)."""
    assert task_odds(T("peril terror"), 2) == pytest.approx(2 / 36)


def test_held_die_counts_without_rolling():
    """Digest 3.2: focused dice may be added to a later roll's completion (any roll, even a useless one)."""
    assert task_odds(T("lore"), 1, held=("lore",)) == 1.0
    assert task_odds(T("lore peril"), 1, held=("lore",)) == pytest.approx(1 / 6)
    assert task_odds(T("lore"), 0) == 0.0


def test_held_dice_never_finish_a_card_without_a_roll():
    """Digest 3.2 (core loop: COMPLETE comes after ROLL; a discard of the last die is failure): a task is
    completed with a roll, so with no pool dice left the adventure fails even if focused or spell-held
    dice would complete what remains. The engine ends it ("no dice left"); the solver must agree."""
    assert task_odds(T("lore"), 0, held=("lore",)) == 0.0
    # Lore + Peril, one green die rolled, a Peril held: completing Lore with the rolled die would leave
    # nothing to roll for Peril. The right play is Peril with the held die, then roll again for Lore (1/6).
    adv = best_use([T("lore"), T("peril")], [("g1", "lore")], held=[("g2", "peril")])
    assert adv.action == "complete" and adv.dice == ("g2",) and adv.odds == pytest.approx(1 / 6)
    # before that roll: any roll lets the held Peril finish its task, then the die alone must show Lore
    assert adventure_odds([T("lore"), T("peril")], False, 1, held=("peril",)) == pytest.approx(1 / 6)
    # nothing rolled: no completion, whatever is held
    assert best_use(T("lore"), [], held=[("g1", "lore")]) == Advice("fail", 0.0)


def test_engine_agrees_that_held_dice_need_a_roll():
    """The same situation in the engine (digest 3.2): completing Lore with the last pool die while a
    focused Peril waits ends the adventure in failure ("no dice left"), as the solver says (odds 0)."""
    from engine.elder_sign import board
    from tests.engine.elder_sign.support import adventure, answer, extra_cards, go, op, place, table

    with extra_cards(adventure("es.adv.test_two", ["lore", "peril"])):
        state = table()
        place(state, 0, "es.adv.test_two")
        state, _ = go(state, "slot:0")
        pool = board.dice_at(state, "pool")
        for d in pool[2:]:
            board.set_die(state, d, "discarded", face="inv1")
        board.set_die(state, pool[1], "focused", str(state.current), face="peril")
        state.dice[pool[0]].face = "lore"
        rolled = [(pool[0], "lore")]
        held = [(pool[1], "peril")]
        assert best_use([T("lore"), T("peril")], rolled, held).dice == (pool[1],)
        assert adventure_odds([T("peril")], False, 0, held=("peril",)) == 0.0  # after using the last die
        state, events = answer(state, f"task:t0:{pool[0]}")
        assert op(state) != "post_roll" and any("no dice left" in e.text or e.kind.startswith("adventure.fail")
                                                for e in events), [e.text for e in events]


def test_two_task_cards_one_task_per_roll():
    """Digest 3.2: one task per roll, used dice are set aside. Two Lore tasks with two green dice: the
    first roll needs a Lore (11/36), then the other die alone needs one (1/6), no second chance since a
    failed roll would leave one die for two tasks."""
    assert adventure_odds([T("lore"), T("lore")], False, 2) == pytest.approx(11 / 36 * 1 / 6)
    # ordered: Lore must come first; unordered: Lore or Peril first, then the other on one die
    assert adventure_odds([T("lore"), T("peril")], True, 2) == pytest.approx(11 / 36 * 1 / 6)
    assert adventure_odds([T("lore"), T("peril")], False, 2) == pytest.approx(20 / 36 * 1 / 6)


def test_single_task_card_equals_task_odds():
    """The card with one task is the task."""
    for text in ("inv5", "lore peril", "inv3 terror"):
        assert adventure_odds([T(text)], True, 4, clues=1) == pytest.approx(task_odds(T(text), 4, clues=1))


def test_empty_task_is_certain():
    """A task with no die symbols is met by any roll (digest 3.2), but there must be a roll."""
    assert task_odds(Task(symbols=[], slot="empty"), 1) == 1.0
    assert task_odds(Task(symbols=[], slot="empty"), 3) == 1.0
    assert task_odds(Task(symbols=[], slot="empty"), 0) == 0.0


# ------------------------------------------------------------------------------------------------------
# against the brute-force reference

SMALL_CASES = [
    ("lore", dict(green=3)),
    ("inv4", dict(green=3, clues=1)),
    ("peril terror", dict(green=3)),
    ("peril terror", dict(green=3, clues=1)),
    ("peril terror", dict(green=3, focus=False)),
    ("lore/peril terror", dict(green=2, red=1, clues=1)),
    ("inv5", dict(green=2, yellow=1, clues=1)),
    ("inv3 lore", dict(green=3, clues=2)),
    ("inv6", dict(green=3, held=("inv2",), clues=1)),
    ("lore lore", dict(green=3, clues=1)),
    ("inv2 inv2", dict(green=3, clues=1)),
    ("terror inv4", dict(green=1, yellow=1, red=1, clues=1)),
]


@pytest.mark.parametrize(("symbols", "kw"), SMALL_CASES)
def test_task_odds_match_brute_force(symbols, kw):
    """Digest 3.2: the DP (merged face classes, best sub-multiset rerolls, closed-form completions) equals
    plain enumeration of every outcome and every choice."""
    assert task_odds(T(symbols), **kw) == pytest.approx(ref_task(symbols, **kw), abs=1e-12)


CARD_CASES = [
    (["lore", "peril"], False, 3, 0, 0, 0),
    (["lore", "peril"], True, 3, 0, 0, 1),
    (["inv3", "lore"], False, 3, 0, 0, 1),
    (["inv2", "terror", "lore"], False, 3, 0, 0, 0),
    (["peril terror", "inv2"], True, 3, 0, 0, 1),
    (["inv4", "terror"], False, 2, 0, 1, 1),
    (["lore/peril", "inv3"], True, 1, 1, 1, 1),
]


@pytest.mark.parametrize(("tasks", "ordered", "green", "yellow", "red", "clues"), CARD_CASES)
def test_adventure_odds_match_brute_force(tasks, ordered, green, yellow, red, clues):
    """Digest 3.2: one task per roll (ordered: top first), used dice leave the pool, clues and focus are
    shared by the whole turn."""
    pool = tuple(sorted(("green",) * green + ("yellow",) * yellow + ("red",) * red))
    ref = ref_roll(tuple(tuple(T(t).symbols) for t in tasks), ordered, pool, (), clues, True)
    got = adventure_odds([T(t) for t in tasks], ordered, green, yellow, red, clues=clues)
    assert got == pytest.approx(ref, abs=1e-12)


def test_adventure_with_yellow_and_held_matches_brute_force():
    """Digest 3.2: a held (focused) die can serve any task; yellow dice are rolled with the pool."""
    tasks = ["inv4", "lore"]
    ref = ref_roll(tuple(tuple(T(t).symbols) for t in tasks), False, ("green", "yellow"), ("peril",), 1, True)
    got = adventure_odds([T(t) for t in tasks], False, 1, yellow=1, clues=1, held=("peril",))
    assert got == pytest.approx(ref, abs=1e-12)


# ------------------------------------------------------------------------------------------------------
# best_use: its promised odds average to the exact odds, and following it reproduces them


def _all_rolls(pool: list[str]) -> list[tuple[float, list[tuple[str, str]]]]:
    outs = list(product(*(DIE_TYPES[color_of(d)].faces for d in pool)))
    return [(1 / len(outs), list(zip(pool, o, strict=True))) for o in outs]


@pytest.mark.parametrize(("tasks", "ordered", "pool", "clues"), [
    (["peril terror"], False, ["g1", "g2", "g3"], 1),
    (["inv5"], False, ["g1", "g2", "y"], 1),
    (["lore", "inv3"], False, ["g1", "g2", "g3"], 1),
    (["lore", "inv3"], True, ["g1", "g2", "g3", "r"], 0),
])
def test_best_use_odds_average_to_the_exact_odds(tasks, ordered, pool, clues):
    """Digest 3.2: the value of a roll state is the average over the roll of the best move's value."""
    cards = [T(t) for t in tasks]
    g = sum(color_of(d) == "green" for d in pool)
    exact = adventure_odds(cards, ordered, g, "y" in pool, "r" in pool, clues=clues)
    avg = sum(p * best_use(cards, rolled, clues=clues, ordered=ordered).odds for p, rolled in _all_rolls(pool))
    assert avg == pytest.approx(exact, abs=1e-12)


def test_best_use_moves_are_legal():
    """Digest 3.2 / 11.3: a completion is validated; a reroll names rolled dice; a fail discards a rolled
    die and focuses another one."""
    adv = best_use(T("inv5 lore"), [("g1", "inv3"), ("g2", "inv2"), ("g3", "lore"), ("g4", "peril")])
    assert adv.action == "complete" and adv.odds == 1.0
    assert validate(T("inv5 lore"), [("g1", "inv3"), ("g2", "inv2"), ("g3", "lore")])
    assert set(adv.dice) == {"g1", "g2", "g3"}
    adv = best_use(T("peril terror"), [("g1", "peril"), ("g2", "inv1"), ("g3", "inv2")], clues=1)
    assert adv.action == "reroll" and "g1" not in adv.reroll and adv.reroll
    adv = best_use(T("peril terror"), [("g1", "peril"), ("g2", "inv1"), ("g3", "inv2")], clues=0)
    assert adv.action == "fail" and adv.discard in ("g2", "g3") and adv.focus == "g1"
    adv = best_use(T("lore"), [], held=[("g1", "peril")])
    assert adv == Advice("fail", 0.0)


def _simulate(tasks: list[Task], ordered: bool, pool: list[str], clues: int, rng: Rng) -> bool:
    """Play one turn by digest 3.2, taking every decision from best_use."""
    rem = list(tasks)
    held: list[tuple[str, str]] = []
    focus = True
    pool = list(pool)
    while True:
        rolled = [(d, DIE_TYPES[color_of(d)].roll(rng)) for d in pool]
        while True:
            adv = best_use(rem, rolled, held, clues, focus, ordered)
            if adv.action == "complete":
                assert adv.task is not None and (adv.task == 0 or not ordered)
                faces = dict(rolled + held)
                assert validate(rem[adv.task], [(d, faces[d]) for d in adv.dice])
                pool = [d for d in pool if d not in adv.dice]
                held = [h for h in held if h[0] not in adv.dice]
                rem.pop(adv.task)
                if not rem:
                    return True
                break
            if adv.action == "reroll":
                assert clues > 0 and adv.reroll
                clues -= 1
                rolled = [(d, DIE_TYPES[color_of(d)].roll(rng)) if d in adv.reroll else (d, f) for d, f in rolled]
                continue
            if adv.discard is None:
                return False
            pool.remove(adv.discard)
            if not pool:
                return False
            if adv.focus is not None:
                assert focus and len(pool) >= 2
                pool.remove(adv.focus)
                held.append((adv.focus, dict(rolled)[adv.focus]))
                focus = False
            break


@pytest.mark.parametrize(("tasks", "ordered", "pool", "clues", "seed"), [
    (["inv5 lore"], False, ["g1", "g2", "g3", "g4"], 1, 1),
    (["peril terror"], False, ["g1", "g2", "g3", "g4", "g5"], 0, 2),
    (["inv3", "lore"], False, ["g1", "g2", "g3", "g4", "g5"], 1, 3),
    (["inv2 peril", "lore"], True, ["g1", "g2", "g3", "g4", "y"], 1, 4),
])
def test_monte_carlo_agrees_within_three_standard_errors(tasks, ordered, pool, clues, seed):
    """Digest 3.2 played out with the engine's RNG: the success rate of best_use's policy matches the
    exact value (seeded, so the test is deterministic)."""
    cards = [T(t) for t in tasks]
    g = sum(color_of(d) == "green" for d in pool)
    exact = adventure_odds(cards, ordered, g, "y" in pool, "r" in pool, clues=clues)
    rng = Rng.from_seed(seed)
    n = 1500
    wins = sum(_simulate(cards, ordered, pool, clues, rng) for _ in range(n))
    se = math.sqrt(max(exact * (1 - exact), 1e-4) / n)
    assert abs(wins / n - exact) <= 3 * se, (wins / n, exact)


# ------------------------------------------------------------------------------------------------------
# monotonicity

SYMBOLS = ["inv:2", "inv:3", "inv:4", "inv:5", "inv:7", "lore", "peril", "terror", "lore/peril", "peril/terror"]


@st.composite
def situations(draw: st.DrawFn) -> dict:
    return dict(
        symbols=draw(st.lists(st.sampled_from(SYMBOLS), min_size=1, max_size=3)),
        green=draw(st.integers(0, 4)),
        yellow=draw(st.integers(0, 1)),
        red=draw(st.integers(0, 1)),
        clues=draw(st.integers(0, 2)),
        focus=draw(st.booleans()),
    )


def _odds(s: dict, **change: object) -> float:
    s = {**s, **change}
    return task_odds(Task(symbols=s["symbols"]), s["green"], s["yellow"], s["red"], clues=s["clues"],
                     focus=s["focus"], held=s.get("held", ()))


@settings(max_examples=60, deadline=None)
@given(situations())
def test_more_dice_clues_or_focus_never_lower_the_odds(s):
    """Digest 3.2: an extra die can always be ignored (and discarded first), a clue need not be spent,
    focus need not be used, a held die need not be assigned."""
    base = _odds(s)
    assert 0.0 <= base <= 1.0
    assert _odds(s, green=s["green"] + 1) >= base - 1e-12
    assert _odds(s, clues=s["clues"] + 1) >= base - 1e-12
    if s["yellow"] == 0:
        assert _odds(s, yellow=1) >= base - 1e-12
    if s["red"] == 0:
        assert _odds(s, red=1) >= base - 1e-12
    if not s["focus"]:
        assert _odds(s, focus=True) >= base - 1e-12
    assert _odds(s, held=("inv2",)) >= base - 1e-12


@settings(max_examples=60, deadline=None)
@given(situations(), st.sampled_from(SYMBOLS))
def test_a_superset_task_is_never_easier(s, extra):
    """Digest 1.5: completing a task with one more symbol also completes the smaller task."""
    assert _odds(s, symbols=s["symbols"] + [extra]) <= _odds(s) + 1e-12


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(SYMBOLS), min_size=1, max_size=2), st.lists(st.sampled_from(SYMBOLS), min_size=1,
       max_size=2), st.integers(1, 4), st.integers(0, 1))
def test_cards_are_harder_than_their_tasks_and_order_only_hurts(a, b, green, clues):
    """Digest 3.2: every task of a card must be completed; an order arrow only removes choices."""
    ta, tb = Task(symbols=a), Task(symbols=b)
    free = adventure_odds([ta, tb], False, green, clues=clues)
    assert free <= min(task_odds(ta, green, clues=clues), task_odds(tb, green, clues=clues)) + 1e-12
    assert adventure_odds([ta, tb], True, green, clues=clues) <= free + 1e-12
    assert adventure_odds([tb, ta], False, green, clues=clues) == pytest.approx(free, abs=1e-12)


def test_cached_answer_is_fast():
    """The same question asked again is a cache hit (target < 5 ms)."""
    import time

    task_odds(T("inv4 lore"), 6, clues=2)
    t0 = time.perf_counter()
    for _ in range(100):
        task_odds(T("inv4 lore"), 6, clues=2)
    assert (time.perf_counter() - t0) / 100 < 0.005
