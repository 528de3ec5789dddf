"""The task matcher (engine/elder_sign/matcher.py) against the rules digest.

Digest sections: 1.2 (dice faces, the Wildcard), 1.5 (task symbols: INV(n) subset sum with surplus wasted,
exact faces, SPLIT, distinct dice per symbol), 3.2 (one task per roll, dice from this roll plus held dice),
11.3 (matcher: options and validate, ranking by fewest dice / fewest wildcards / lowest value).

``naive_complete`` is an independent reference: it tries every assignment of dice to symbols, so the
closed-form matcher is checked against the plain reading of the rules, not against itself.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.elder_sign.dice import GREEN, INV_VALUE, RED, YELLOW, color_of
from engine.elder_sign.matcher import (
    can_complete,
    completions,
    face_counts,
    feasible,
    req_from_symbols,
    validate,
)
from engine.elder_sign.tasks import Task, parse_task

# ------------------------------------------------------------------------------------------------------
# reference implementation


def _fits(symbol: str, face: str) -> bool:
    """Can one die with this face fill this non-investigation symbol? (digest 1.2, 1.5)"""
    if face == "wild":
        return True
    return face in symbol.split("/")


def naive_complete(symbols: list[str], faces: list[str]) -> bool:
    """Brute force over every map die -> symbol (or unused): each face/split symbol gets exactly one
    fitting die, each inv symbol gets dice (Wild = 4) summing to at least n (digest 1.5, 11.3)."""
    if not symbols:
        return True
    k = len(symbols)
    for assign in product(range(k + 1), repeat=len(faces)):
        ok = True
        for si, sym in enumerate(symbols):
            mine = [faces[d] for d, a in enumerate(assign) if a == si]
            if sym.startswith("inv:"):
                if any(f not in INV_VALUE for f in mine) or sum(INV_VALUE[f] for f in mine) < int(sym[4:]):
                    ok = False
                    break
            elif len(mine) != 1 or not _fits(sym, mine[0]):
                ok = False
                break
        if ok:
            return True
    return False


def naive_minimal(symbols: list[str], dice: list[tuple[str, str]]) -> set[frozenset[tuple[tuple[str, str], int]]]:
    """Every minimal completing subset, as a multiset of (colour, face), by brute force over subsets."""
    good = [c for n in range(len(dice) + 1) for c in combinations(dice, n)
            if naive_complete(symbols, [f for _, f in c])]
    out = set()
    for c in good:
        if all(not naive_complete(symbols, [f for j, (_, f) in enumerate(c) if j != i]) for i in range(len(c))):
            out.add(frozenset(Counter((color_of(d), f) for d, f in c).items()))
    return out


def T(text: str) -> Task:
    return parse_task(text)


def roll(*faces: str) -> list[tuple[str, str]]:
    """Green dice g1, g2, ... showing these faces."""
    return [(f"g{i + 1}", f) for i, f in enumerate(faces)]


# ------------------------------------------------------------------------------------------------------
# examples


def test_investigation_is_a_subset_sum_with_surplus_wasted():
    """Digest 1.5 / 9.1: INV(3) completed with dice totalling 4 (the rulebook's own example)."""
    assert can_complete(T("inv3"), roll("inv1", "inv3"))
    assert validate(T("inv3"), [("g2", "inv3")])
    assert validate(T("inv3"), [("y", "inv4")])  # surplus wasted
    assert not can_complete(T("inv5"), roll("inv2", "inv2"))
    assert completions(T("inv3"), roll("inv1", "inv2", "inv3")) == [("g3",), ("g1", "g2")]


def test_each_symbol_needs_its_own_die():
    """Digest 1.5: every die symbol uses distinct dice; a face symbol takes exactly one die."""
    assert not can_complete(T("lore lore"), roll("lore"))
    assert can_complete(T("lore lore"), roll("lore", "lore"))
    assert not can_complete(T("inv2 inv2"), roll("inv3", "inv1"))  # two sums, each with its own dice
    assert can_complete(T("inv2 inv2"), roll("inv3", "inv1", "inv1"))


def test_wildcard_is_exactly_one_of_inv4_lore_peril_terror():
    """Digest 1.2: a Wildcard counts as exactly one of Inv4 / Lore / Peril / Terror when assigned."""
    wild = [("r", "wild")]
    for sym in ("lore", "peril", "terror", "inv4", "lore/peril", "peril/terror"):
        assert can_complete(T(sym), wild), sym
    assert not can_complete(T("inv5"), wild)
    assert not can_complete(T("lore inv1"), wild)  # one die cannot be both
    assert not can_complete(T("lore peril"), wild)
    assert can_complete(T("lore inv5"), [("r", "wild"), ("g1", "lore"), ("g2", "inv1"), ("y", "inv4")])
    # the wildcard as a face leaves the investigation to the others
    assert can_complete(T("terror inv3"), [("r", "wild"), ("g1", "inv3")])
    assert not can_complete(T("terror inv4"), [("r", "wild"), ("g1", "inv3")])


def test_split_symbol_takes_either_face():
    """Digest 1.5: SPLIT(a, b) takes one die showing either face (or a Wildcard)."""
    t = T("lore/peril")
    assert can_complete(t, roll("lore")) and can_complete(t, roll("peril"))
    assert not can_complete(t, roll("terror"))
    assert not can_complete(t, roll("inv3"))
    # a Lore die serves the exact Lore symbol, a Peril die the split one
    assert can_complete(T("lore lore/peril"), roll("peril", "lore"))
    assert not can_complete(T("lore lore/peril"), roll("peril", "peril"))
    # Hall's condition across three split types
    assert can_complete(T("lore/peril lore/terror peril/terror"), roll("lore", "peril", "terror"))
    assert can_complete(T("lore/peril lore/terror peril/terror"), roll("lore", "lore", "terror"))
    assert not can_complete(T("lore/peril lore/peril lore/peril"), roll("lore", "peril", "terror"))


def test_completions_are_minimal_ranked_and_deduplicated():
    """Digest 11.3: options ranked by fewest dice, then fewest wildcards, then lowest total value;
    options differing only by which identical die is used are one option."""
    dice = roll("inv3", "inv3", "inv2", "lore", "lore") + [("r", "wild")]
    opts = completions(T("inv5 lore"), dice)
    assert opts[0] == ("g1", "g3", "g4")  # 3 + 2 + lore: 3 dice, no wildcard, value 5
    assert ("g2", "g3", "g4") not in opts  # same (colour, face) multiset as the first
    assert ("g1", "g2", "g4") in opts  # 3 + 3 + lore: value 6, ranked after
    assert opts.index(("g1", "g2", "g4")) == 1
    # the wildcard options come after every option of the same size without one
    wild_at = [i for i, o in enumerate(opts) if "r" in o]
    assert wild_at and min(wild_at) > opts.index(("g1", "g2", "g4"))
    for o in opts:
        assert validate(T("inv5 lore"), [d for d in dice if d[0] in o])


def test_completions_prefer_green_dice_among_equals():
    """Tie-break after digest 11.3's ranking: keep the yellow and red dice, which roll better next time."""
    dice = [("y", "lore"), ("g1", "lore")]
    assert completions(T("lore"), dice) == [("g1",), ("y",)]


def test_limit_caps_the_list():
    """Digest 11.1: a short list of one-click answers."""
    dice = roll("inv1", "inv2", "inv3", "inv1", "inv2", "inv3") + [("y", "inv4"), ("r", "wild")]
    assert len(completions(T("inv6"), dice, limit=3)) == 3
    assert len(completions(T("inv6"), dice, limit=100)) > 3


def test_empty_task_is_trivially_complete():
    """An empty monster slot with no monster has no die symbols (digest 5.2): zero dice complete it."""
    t = Task(symbols=[], slot="empty")
    assert completions(t, roll("inv1")) == [()]
    assert can_complete(t, [])
    assert validate(t, [])
    assert not validate(t, roll("inv1"))  # strict: the die would be wasted
    assert validate(t, roll("inv1"), allow_extra=True)


def test_validate_is_strict_about_wasted_dice():
    """Digest 11.1 (commit: complete with a chosen, validated dice set). Policy: every chosen die must be
    needed unless allow_extra; ids must be distinct."""
    t = T("inv5")
    assert validate(t, [("g1", "inv3"), ("g2", "inv2")])
    assert validate(t, [("g1", "inv3"), ("g2", "inv3")])  # surplus value is fine: both dice are needed
    assert not validate(t, [("g1", "inv3"), ("g2", "inv2"), ("g3", "inv1")])
    assert validate(t, [("g1", "inv3"), ("g2", "inv2"), ("g3", "inv1")], allow_extra=True)
    assert not validate(t, [("g1", "inv3")])
    assert not validate(t, [("g1", "inv3"), ("g1", "inv3")])  # one die twice
    assert not validate(T("lore"), [("g1", "nonsense")])


def test_multiple_investigation_sums():
    """Digest 5.2 / 1.5: a monster's symbols join a task's; two INV symbols are two separate sums."""
    t = T("inv4 inv3")
    assert req_from_symbols(tuple(t.symbols)).inv == (4, 3)
    assert can_complete(t, roll("inv2", "inv2", "inv3"))
    assert can_complete(t, roll("inv3", "inv3", "inv1"))  # 3 + 1 and 3
    assert not can_complete(T("inv4 inv4"), roll("inv3", "inv3", "inv2"))  # total 8, but no split makes 4 + 4
    assert can_complete(t, [("y", "inv4"), ("g1", "inv3")])
    opts = completions(t, roll("inv2", "inv2", "inv3", "inv1"))
    assert ("g1", "g2", "g3") in opts


# ------------------------------------------------------------------------------------------------------
# properties against the reference

SYMBOLS = ["inv:1", "inv:2", "inv:3", "inv:4", "inv:5", "inv:6", "inv:8", "lore", "peril", "terror",
           "lore/peril", "lore/terror", "peril/terror"]


@st.composite
def task_and_dice(draw: st.DrawFn) -> tuple[list[str], list[tuple[str, str]]]:
    symbols = draw(st.lists(st.sampled_from(SYMBOLS), min_size=1, max_size=3))
    n_green = draw(st.integers(0, 4))
    dice = [(f"g{i + 1}", draw(st.sampled_from(GREEN.faces))) for i in range(n_green)]
    if draw(st.booleans()):
        dice.append(("y", draw(st.sampled_from(YELLOW.faces))))
    if draw(st.booleans()):
        dice.append(("r", draw(st.sampled_from(RED.faces))))
    return symbols, dice


@settings(max_examples=150, deadline=None)
@given(task_and_dice())
def test_feasibility_matches_brute_force(case):
    """Digest 11.3: the closed-form check agrees with trying every assignment."""
    symbols, dice = case
    task = Task(symbols=symbols)
    assert can_complete(task, dice) == naive_complete(symbols, [f for _, f in dice])


@settings(max_examples=100, deadline=None)
@given(task_and_dice())
def test_completions_are_exactly_the_minimal_sets(case):
    """Digest 11.3: options are every minimal completion, one per (colour, face) multiset."""
    symbols, dice = case
    task = Task(symbols=symbols)
    got = completions(task, dice, limit=10_000)
    by_id = dict(dice)
    as_multisets = [frozenset(Counter((color_of(d), by_id[d]) for d in o).items()) for o in got]
    assert len(set(as_multisets)) == len(got)  # deduplicated
    assert set(as_multisets) == naive_minimal(symbols, dice)
    for o in got:
        chosen = [(d, by_id[d]) for d in o]
        assert validate(task, chosen)
        for i in range(len(chosen)):  # minimal: no die can be dropped
            assert not can_complete(task, chosen[:i] + chosen[i + 1:])
    keys = [(len(o), sum(by_id[d] == "wild" for d in o), sum(INV_VALUE.get(by_id[d], 0) for d in o)) for o in got]
    assert keys == sorted(keys)  # ranked


@settings(max_examples=100, deadline=None)
@given(task_and_dice(), st.sampled_from(GREEN.faces + ("inv4", "wild")))
def test_more_dice_never_hurt(case, extra):
    """Digest 1.5: adding a die can only add ways to complete."""
    symbols, dice = case
    task = Task(symbols=symbols)
    if can_complete(task, dice):
        assert can_complete(task, dice + [("x9", extra)])


@pytest.mark.parametrize("text", ["inv5 lore", "peril terror", "inv3 lore/peril terror", "inv6 inv3"])
def test_feasible_agrees_on_face_counts(text):
    """The cached core takes face counts; it must agree with the die-level call."""
    t = T(text)
    dice = roll("inv3", "inv3", "lore", "peril", "terror", "inv2")
    assert feasible(req_from_symbols(tuple(t.symbols)), face_counts(f for _, f in dice)) == can_complete(t, dice)
