"""Exact odds of completing a task (or a whole card) in one adventure turn under optimal play.

The model is the resolution loop of digest 3.2, seen from one investigator with no items, spells, allies or
assistance:

* each roll throws every pool die; dice held aside (focused or spell-secured) keep their faces, always
  count, and are never rerolled;
* if the rolled dice plus the held dice can complete a task, the player may complete exactly ONE task
  (on an ordered card only the top remaining one). Its dice are set aside and the rest of the pool is
  rolled again. The player may also decline and act as if the roll had failed ("efficient adventuring");
* the player may spend a clue to reroll any non-empty subset of the rolled dice; this is still the same
  roll, so a completion may follow;
* a task is only ever completed with a roll: with no pool dice left to roll, the adventure fails even
  when the held dice alone would complete what remains (the engine ends it as "no dice left");
* a failed roll discards one pool die (losing the last one is failure). Then, once per turn, the player
  may focus one remaining pool die: it moves to the held dice with its face. Focusing the last pool die
  is forbidden (digest 9, item 10);
* "optimal" means maximising the probability of success. Terror effects, costs and penalties do not
  change which dice remain, so they are not modelled (the cost gate is the caller's business).

How it is computed (memoised dynamic programming):

* **Face classes.** Faces that no symbol on the remaining tasks can tell apart are merged. For an
  inv-only task Lore, Peril and Terror are all "blank"; investigation values are capped at the largest
  sum asked for, so for ``inv:2`` the Inv2, Inv3 and Inv4 faces are one class; a Wildcard merges with Inv4
  when no face symbol remains and with the only remaining face symbol when no ``inv`` remains. Each class
  is named by its first raw face (``_reps``), so a held die's class can be recomputed when a later state
  merges classes further.
* **States.** A roll state is (remaining tasks, pool dice per colour, held classes, clues, focus left).
  Only the dice's colours matter before a roll. After a roll the state adds the rolled multiset per
  colour. The value of a roll state is computed for every clue count 0..C at once, because a clue reroll
  moves to the same pool with one clue fewer.
* **Clue rerolls without enumerating subsets.** Keeping a sub-multiset K and rerolling the rest is worth
  Q(K) = the average of Q(K + one more die) over the faces of the next die to roll. So Q over every
  sub-multiset costs one pass. The best reroll of a roll S is the maximum of Q over the proper
  sub-multisets of S. A "max over subsets" pass (M(K) = max(Q(K), M(K - one die))) gives that for every
  S at once.
* **Completions in a multi-task state.** What matters after completing a task is only how many dice of
  each colour left the pool and which held dice were used. For each choice of yellow/red/held dice, the
  fewest green dice needed has a closed form (``_min_green``: a matroid augmentation count for the face
  symbols, largest-first for the investigation sum). Both "more pool dice" and "more held dice" can only
  help, so these choices give every useful option. They are worked out once per distinct thing a roll
  offers that task (``_projection``), not once per roll.
* **Layout.** Sub-multisets are numbered green-part-major (``_Shape``), so the averaging and
  max-over-subsets passes run on whole blocks and strided slices instead of single entries.

Public API: ``task_odds``, ``adventure_odds``, ``best_use`` (returns an ``Advice``), ``clear_caches``.

Values are exact (floating point aside). Results are cached by the canonical state, so the same question
asked twice is a dictionary lookup, and one card's states are shared with its tasks' single-task states.
Cost grows with the number of distinct (colour, class) faces: six green dice answer in milliseconds to tens
of milliseconds cold; adding both the yellow and the red die multiplies every roll table by 49 and takes
~0.1-2 s cold per question (see tests/bench/bench_odds.py). Every cache is bounded.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from typing import Literal

from engine.elder_sign.dice import DIE_TYPES, INV_VALUE, WILD, color_of
from engine.elder_sign.matcher import (
    FACE_INDEX,
    FACES,
    Die,
    Req,
    cover,
    feasible,
    ranked_completions,
    requirement,
    wilds_needed,
)
from engine.elder_sign.tasks import Task

COLORS = ("green", "yellow", "red")
_SIDES = 6  # every die has six faces (digest 1.2)
_SIXTH = 1.0 / _SIDES
_COLOR_INDEX = {c: i for i, c in enumerate(COLORS)}

Pool = tuple[int, int, int]
#: a roll state without its clue count: (ordered, remaining tasks, pool per colour, held classes, focus left)
GroupKey = tuple[bool, tuple[Req, ...], Pool, tuple[str, ...], bool]

#: bound on the memo of roll-state values; beyond it the memo is dropped and refilled (determinism is kept,
#: only speed is lost)
_MEMO_LIMIT = 400_000
_VALUES: dict[GroupKey, list[float]] = {}


# ----------------------------------------------------------------------------------------------------------
# face classes


@lru_cache(maxsize=4096)
def _reps(rem: tuple[Req, ...]) -> dict[str, str | None]:
    """Each face's class for these remaining tasks, named by its first raw face; None = useless face."""
    cap = max((n for r in rem for n in r.inv), default=0)
    rel = frozenset().union(*(r.relevant_faces() for r in rem)) if rem else frozenset()

    def role(face: str) -> tuple[int, frozenset[str]]:
        # A die either adds its value to one inv sum or fills one face symbol from its face set; the
        # Wildcard is the only die that can do both (as Inv4 or as any face).
        if face == WILD:
            return min(4, cap), rel
        if face in INV_VALUE:
            return min(INV_VALUE[face], cap), frozenset()
        return 0, frozenset({face}) & rel

    first: dict[tuple[int, frozenset[str]], str] = {}
    out: dict[str, str | None] = {}
    for f in FACES:
        r = role(f)
        out[f] = None if r == (0, frozenset()) else first.setdefault(r, f)
    return out


@lru_cache(maxsize=4096)
def _dists(rem: tuple[Req, ...]) -> tuple[tuple[tuple[str | None, float], ...], ...]:
    """Per colour, the classes its faces fall into with their probabilities (blank last)."""
    reps = _reps(rem)
    out = []
    for color in COLORS:
        faces = DIE_TYPES[color].faces
        classes = [reps[f] for f in faces]
        order: list[str | None] = [r for r in dict.fromkeys(reps[f] for f in FACES) if r is not None and r in classes]
        if None in classes:
            order.append(None)
        out.append(tuple((r, classes.count(r) / len(faces)) for r in order))
    return tuple(out)


def _canon(ordered: bool, rem: Sequence[Req], pool: Pool, held: Sequence[str], focus: bool) -> GroupKey:
    """The canonical key of a roll state: facts that cannot change the answer are erased so that equal
    situations share one memo entry."""
    if len(rem) <= 1:
        ordered = False  # one task: order is moot
    rem_t = tuple(rem) if ordered else tuple(sorted(rem))
    reps = _reps(rem_t)
    held_t = tuple(sorted(r for r in (reps[f] for f in held) if r is not None))  # useless held dice dropped
    if sum(pool) < 3:
        focus = False  # focusing needs a die to discard, one to focus and one left to roll
    return ordered, rem_t, pool, held_t, focus


# ----------------------------------------------------------------------------------------------------------
# roll shapes: every kept/rolled multiset for a pool, with the links the DP walks


def _vectors(n: int, p: int) -> list[tuple[int, ...]]:
    """All count vectors of length n with sum at most p."""
    if n == 0:
        return [()]
    return [(k,) + rest for k in range(p + 1) for rest in _vectors(n - 1, p - k)]


@dataclass(frozen=True)
class _Shape:
    """Every sub-multiset K of a roll of ``pool`` (kept dice, or a whole roll), over (colour, class) slots.

    K is split into its green, yellow and red parts. Each colour's parts are listed by size, and K is
    numbered (green * Ny + yellow) * Nr + red. So every K with one green part is one contiguous block
    (Ny * Nr long), and every K with one red part is one stride-Nr slice. The DP works on whole blocks and
    slices at a time, which in pure Python is several times faster than working on single entries.
    """

    pool: Pool
    offsets: tuple[int, ...]  # first slot of each colour in a flattened count vector
    vecs: tuple[list[tuple[int, ...]], ...]  # per colour, its parts by size
    index: tuple[dict[tuple[int, ...], int], ...]  # per colour, part -> position
    sizes: tuple[int, int, int]
    strides: tuple[int, int, int]
    kids: tuple[list[list[int]], ...]  # per colour, per part: the part with one more die of each class
    subs: tuple[list[list[int]], ...]  # per colour, per part: the parts with one die fewer
    full: array[int]  # the complete rolls (every pool die present), as K numbers, green part outermost
    green_full: list[tuple[int, list[int]]]  # complete green parts, in ``full`` order, with their subs
    inner_full: list[tuple[int, list[int]]]  # complete yellow+red parts as an offset in a green block,
    # with the offsets of the yellow+red parts one die smaller

    def locate(self, flat: Sequence[int]) -> int:
        """The number of the multiset with this flattened count vector."""
        i = 0
        for ci in range(3):
            o = self.offsets[ci]
            part = tuple(flat[o:o + len(self.vecs[ci][0])])
            i += self.index[ci][part] * self.strides[ci]
        return i


@lru_cache(maxsize=512)
def _shape(nclasses: tuple[int, ...], pool: Pool) -> _Shape:
    vecs = tuple(sorted(_vectors(n, p), key=sum) for n, p in zip(nclasses, pool, strict=True))
    index = tuple({v: i for i, v in enumerate(vs)} for vs in vecs)
    sizes = (len(vecs[0]), len(vecs[1]), len(vecs[2]))
    strides = (sizes[1] * sizes[2], sizes[2], 1)
    kids = []
    subs = []
    fulls = []
    for ci, vs in enumerate(vecs):
        idx = index[ci]
        kids.append([[idx[v[:s] + (v[s] + 1,) + v[s + 1:]] for s in range(len(v))] if sum(v) < pool[ci]
                     else [] for v in vs])
        subs.append([[idx[v[:s] + (n - 1,) + v[s + 1:]] for s, n in enumerate(v) if n] for v in vs])
        fulls.append([i for i, v in enumerate(vs) if sum(v) == pool[ci]])
    s0, s1, _ = strides
    # The one-die-smaller neighbours of a complete roll are not stored per roll (that was most of this
    # module's memory): a green drop is a whole block, a yellow or red drop an offset inside the block.
    inner_full = [(b * s1 + c, [x * s1 + c for x in subs[1][b]] + [b * s1 + x for x in subs[2][c]])
                  for b, c in product(fulls[1], fulls[2])]
    green_full = [(a, subs[0][a]) for a in fulls[0]]
    full = array("i", [a * s0 + o for a in fulls[0] for o, _ in inner_full])
    offsets = (0, nclasses[0], nclasses[0] + nclasses[1])
    return _Shape(pool, offsets, vecs, index, sizes, strides, tuple(kids), tuple(subs), full, green_full,
                  inner_full)


# ----------------------------------------------------------------------------------------------------------
# fewest green dice for a completion


@lru_cache(maxsize=65536)
def _min_inv(groups: tuple[int, ...], fixed: tuple[int, ...], avail: tuple[int, ...]) -> int | None:
    """Fewest dice from ``avail`` (counts of values 1..4) that, with ``fixed``, meet every inv sum."""
    if not groups:
        return 0
    if len(groups) == 1:
        need = groups[0] - sum((v + 1) * n for v, n in enumerate(fixed))
        used = 0
        # largest first is optimal: the k largest dice have the largest sum of any k dice
        for v in (4, 3, 2, 1):
            if need <= 0:
                break
            take = min(avail[v - 1], -(-need // v))
            need -= take * v
            used += take
        return used if need <= 0 else None
    best = None
    for x in product(*(range(n + 1) for n in avail)):
        n = sum(x)
        if best is not None and n >= best:
            continue
        if cover(groups, tuple(a + b for a, b in zip(fixed, x, strict=True))):
            best = n
    return best


@lru_cache(maxsize=65536)
def _min_green(req: Req, forced: tuple[int, ...], green: tuple[int, ...]) -> int | None:
    """Fewest dice from ``green`` (face counts, no Wildcards) that, with every ``forced`` die, complete
    ``req``; None if impossible.

    Green dice have no Wildcard, so a green die serves either the face symbols or the inv sums, never
    both. For each number k of forced Wildcards given to face symbols:
    * faces: the sets of dice that can be matched to distinct face symbols are the independent sets of a
      transversal matroid. If the whole set can fill every face symbol, a maximum matchable part of the
      forced dice extends to a full matching using exactly (symbols - its size) green dice, and no
      fewer will do;
    * inv sums: the forced investigation dice, the other forced Wildcards as Inv4, plus the fewest green
      investigation dice (``_min_inv``).
    """
    f1, f2, f3, f4, flo, fpe, fte, fwi = forced
    g1, g2, g3, g4, glo, gpe, gte, _ = green
    short = wilds_needed(req, flo, fpe, fte)
    short_all = wilds_needed(req, flo + glo, fpe + gpe, fte + gte)
    best = None
    for k in range(fwi + 1):
        if short_all > k:
            continue
        inv = _min_inv(req.inv, (f1, f2, f3, f4 + fwi - k), (g1, g2, g3, g4))
        if inv is None:
            continue
        total = max(0, short - k) + inv
        if best is None or total < best:
            best = total
    return best


# ----------------------------------------------------------------------------------------------------------
# the dynamic programme


@dataclass(frozen=True)
class _RollTable:
    """What every complete roll of a pool looks like for some remaining tasks. It does not depend on the
    held dice, clues or focus, so all those roll states share one table."""

    shape: _Shape
    slot_class: list[str | None]
    slot_colour: list[int]
    probs: list[list[float]]  # per colour, per class
    support_id: array[int]  # per full roll: which of ``supports`` it has
    supports: list[tuple[int, ...]]  # distinct sets of slots present with a useful class (focus choices)
    expand: tuple[list[tuple[int, list[int]]], ...]  # per colour, largest part first: (part, its children
    # repeated once per die face, so that each child weighs exactly 1/6)


@lru_cache(maxsize=2048)
def _roll_table(rem: tuple[Req, ...], pool: Pool) -> _RollTable:
    dists = _dists(rem)
    shape = _shape(tuple(len(d) for d in dists), pool)
    slot_class = [c for d in dists for c, _ in d]
    slot_colour = [ci for ci, d in enumerate(dists) for _ in d]
    probs = [[p for _, p in d] for d in dists]
    part_support = [[tuple(shape.offsets[ci] + s for s, n in enumerate(vec) if n and d[s][0] is not None)
                     for vec in shape.vecs[ci]] for ci, d in enumerate(dists)]
    n_yellow, n_red = shape.sizes[1], shape.sizes[2]
    sup_index: dict[tuple[int, ...], int] = {}
    support_id = array("i")
    for i in shape.full:
        a, rest = divmod(i, n_yellow * n_red)
        b, c = divmod(rest, n_red)
        sup = part_support[0][a] + part_support[1][b] + part_support[2][c]
        support_id.append(sup_index.setdefault(sup, len(sup_index)))
    expand = []
    for ci, d in enumerate(dists):
        mult = [round(p * _SIDES) for _, p in d]
        lst = []
        for part in range(len(shape.vecs[ci]) - 1, -1, -1):
            kids = shape.kids[ci][part]
            if kids:
                lst.append((part, [k for k, m in zip(kids, mult, strict=True) for _ in range(m)]))
        expand.append(lst)
    return _RollTable(shape, slot_class, slot_colour, probs, support_id, list(sup_index), tuple(expand))


@lru_cache(maxsize=4096)
def _picks(specials: tuple[tuple[int, str, int], ...]) -> tuple[tuple[tuple[int, ...], int, int, tuple[str, ...]],
                                                                  ...]:
    """Every choice of which special dice (yellow, red, held = colour 3) to include in a completion: (their
    face counts, yellow used, red used, held classes used)."""
    out = []
    for pick in product(*(range(n + 1) for _, _, n in specials)):
        forced = [0] * 8
        used = [0, 0]
        held_used: list[str] = []
        for (ci, cls, _), n in zip(specials, pick, strict=True):
            if not n:
                continue
            forced[FACE_INDEX[cls]] += n
            if ci == 3:
                held_used += [cls] * n
            else:
                used[ci - 1] += n
        out.append((tuple(forced), used[0], used[1], tuple(held_used)))
    return tuple(out)


@lru_cache(maxsize=65536)
def _moves(req: Req, green: tuple[int, ...], specials: tuple[tuple[int, str, int], ...]
           ) -> tuple[tuple[int, int, int, tuple[str, ...]], ...]:
    """The ways to complete ``req`` that can matter afterwards: (green, yellow, red dice used, held classes
    used), one per choice of special dice to include, with the fewest green dice. A choice that includes
    an unneeded die is dominated but harmless, so there is no filtering."""
    out = set()
    for forced, y, r, held_used in _picks(specials):
        g = _min_green(req, forced, green)
        if g is not None:
            out.add((g, y, r, held_used))
    return tuple(sorted(out))


Move = tuple[int, int, int, tuple[str, ...]]  # green, yellow, red dice used; held classes used
_NO_DICE = (0,) * 8


Offer = tuple[tuple[int, ...], tuple[tuple[int, str, int], ...]]  # green face counts; (colour, class, n)


@lru_cache(maxsize=2048)  # per-roll lists: bounded so a long-running bot keeps a modest footprint
def _projection(rem: tuple[Req, ...], pool: Pool, req: Req) -> tuple[array[int], list[Offer]]:
    """What each full roll of ``_roll_table(rem, pool)`` offers ONE task: its green face counts and its
    yellow/red dice, in that task's own (coarser) classes. Returned as a position per full roll in a list
    of distinct offers. Many rolls offer a task the same thing (for a Lore task, only the Lore count
    matters), so the completion moves are worked out once per offer, not once per roll."""
    table = _roll_table(rem, pool)
    shape = table.shape
    reps_t = _reps((req,))
    dists = _dists(rem)
    task_class = [[reps_t[c] if c is not None else None for c, _ in d] for d in dists]
    green_proj = []
    for vec in shape.vecs[0]:
        counts = [0] * 8
        for cls, n in zip(task_class[0], vec, strict=True):
            if n and cls is not None:
                counts[FACE_INDEX[cls]] += n
        green_proj.append(tuple(counts))
    special_proj = [[tuple((ci, cls, n) for cls, n in zip(task_class[ci], vec, strict=True) if n and cls is not None)
                     for vec in shape.vecs[ci]] for ci in (1, 2)]
    n_yellow, n_red = shape.sizes[1], shape.sizes[2]
    index: dict[Offer, int] = {}
    ids = array("i")
    for i in shape.full:
        a, rest = divmod(i, n_yellow * n_red)
        b, c = divmod(rest, n_red)
        offer = (green_proj[a], special_proj[0][b] + special_proj[1][c])
        ids.append(index.setdefault(offer, len(index)))
    return ids, list(index)


@lru_cache(maxsize=2048)
def _task_moves(rem: tuple[Req, ...], pool: Pool, req: Req, held: tuple[str, ...]
                ) -> tuple[array[int], list[tuple[Move, ...]]]:
    """For one task, per full roll of ``_roll_table(rem, pool)`` with these held dice: the position of its
    completion moves in the returned list of distinct move tuples, or -1 if the roll cannot complete it.
    Shared by every roll state that differs only in clues, focus or order."""
    proj_ids, offers = _projection(rem, pool, req)
    reps_t = _reps((req,))
    # held dice keep their names for this card (the moves say which held dice are used), but those that
    # are useless for this task are left out
    held_specials = tuple((3, h, held.count(h)) for h in dict.fromkeys(held) if reps_t[h] is not None)
    index: dict[tuple[Move, ...], int] = {}
    per_offer = []
    for green, specials in offers:
        sp = specials + held_specials
        counts = list(green)
        for _, cls, n in sp:
            counts[FACE_INDEX[cls]] += n
        if not feasible(req, tuple(counts)):
            per_offer.append(-1)
            continue
        if sp:
            mv = _moves(req, green, sp)
        else:  # green dice only: the one useful move is the fewest green dice
            mv = ((_min_green(req, _NO_DICE, green) or 0, 0, 0, ()),)
        per_offer.append(index.setdefault(mv, len(index)))
    return array("i", [per_offer[p] for p in proj_ids]), list(index)


@dataclass
class _Group:
    """One roll state without its clue count: its roll table plus what each full roll leads to."""

    table: _RollTable
    certain: list[bool]  # per full roll: it completes the last task (value 1)
    opt_id: list[int]  # per full roll: its completion options' position in ``opt_sets`` (-1: none)
    opt_sets: list[tuple[GroupKey, ...]]  # distinct sets of states reachable by completing a task
    nofocus: list[GroupKey | None]  # after a failed roll, per colour discarded; None = the pool ran out
    focus_opts: dict[int, list[GroupKey]]  # per focused slot: the states after each legal discard


def _next_rem(rem: tuple[Req, ...], ordered: bool, req: Req) -> tuple[Req, ...]:
    if ordered:
        return rem[1:]
    i = rem.index(req)
    return rem[:i] + rem[i + 1:]


def _minus(held: tuple[str, ...], used: tuple[str, ...]) -> list[str]:
    left = list(held)
    for u in used:
        left.remove(u)
    return left


def _build(key: GroupKey) -> _Group:
    ordered, rem, pool, held, focus = key
    table = _roll_table(rem, pool)
    n_full = len(table.support_id)
    if len(rem) == 1:
        ids, _ = _task_moves(rem, pool, rem[0], held)
        return _Group(table, [i >= 0 for i in ids], [-1] * n_full, [], *_fail_options(key, table))
    candidates = rem[:1] if ordered else tuple(dict.fromkeys(rem))
    per_task = [(req, *_task_moves(rem, pool, req, held)) for req in candidates]
    # the next states of each (task, distinct move tuple), canonicalised once
    nexts: list[list[tuple[GroupKey, ...]]] = []
    for req, _, move_sets in per_task:
        after = _next_rem(rem, ordered, req)
        nexts.append([tuple(_canon(ordered, after, (pool[0] - g, pool[1] - y, pool[2] - r), _minus(held, hu), focus)
                            for g, y, r, hu in mvs) for mvs in move_sets])
    combo_index: dict[tuple[int, ...], int] = {}
    opt_sets: list[tuple[GroupKey, ...]] = []
    opt_id = []
    for combo in zip(*(ids for _, ids, _ in per_task), strict=True):
        o = combo_index.get(combo)
        if o is None:
            keys = {k for t, m in enumerate(combo) if m >= 0 for k in nexts[t][m]}
            if keys:
                o = len(opt_sets)
                opt_sets.append(tuple(keys))
            else:
                o = -1
            combo_index[combo] = o
        opt_id.append(o)
    return _Group(table, [False] * n_full, opt_id, opt_sets, *_fail_options(key, table))


def _fail_options(key: GroupKey, table: _RollTable) -> tuple[list[GroupKey | None], dict[int, list[GroupKey]]]:
    """The states a failed roll can lead to. Before a roll only the dice's colours matter, so the discard is
    a colour, and the focus is a (colour, class) slot."""
    ordered, rem, pool, held, focus = key
    nofocus: list[GroupKey | None] = []
    for ci in range(3):
        if pool[ci]:
            nxt = _drop(pool, ci)
            nofocus.append(_canon(ordered, rem, nxt, held, focus) if sum(nxt) else None)
    focus_opts: dict[int, list[GroupKey]] = {}
    if focus:
        for s, cls in enumerate(table.slot_class):
            if cls is None or not pool[table.slot_colour[s]]:
                continue
            lst = []
            for ci in range(3):
                if pool[ci] < 1 + (ci == table.slot_colour[s]):
                    continue
                nxt = _drop(_drop(pool, ci), table.slot_colour[s])
                lst.append(_canon(ordered, rem, nxt, (*held, cls), False))
            if lst:
                focus_opts[s] = lst
    return nofocus, focus_opts


def _drop(pool: Pool, ci: int) -> Pool:
    return (pool[0] - (ci == 0), pool[1] - (ci == 1), pool[2] - (ci == 2))


def _values(key: GroupKey, clues: int) -> list[float]:
    """The success probability of a roll state for every clue count 0..clues (at least)."""
    if not key[1]:
        return [1.0] * (clues + 1)
    if not any(key[2]):
        return [0.0] * (clues + 1)  # tasks left but nothing to roll: no completion is possible (3.2)
    got = _VALUES.get(key)
    if got is not None and len(got) > clues:
        return got
    values, _ = _solve(key, clues, keep=False)
    if len(_VALUES) >= _MEMO_LIMIT:
        _VALUES.clear()
    _VALUES[key] = values
    return values


def _solve(key: GroupKey, top: int, keep: bool) -> tuple[list[float], list[list[float]]]:
    """Solve one roll state for clue counts 0..top. With ``keep``, also return Q (the value of keeping
    each sub-multiset and rolling the rest) for every clue count, which ``best_use`` needs."""
    grp = _build(key)
    table = grp.table
    shape = table.shape
    others = {k for opts in grp.opt_sets for k in opts}
    others.update(k for k in grp.nofocus if k is not None)
    for lst in grp.focus_opts.values():
        others.update(lst)
    tables = {k: _values(k, top) for k in others}
    order = list(tables)
    pos = {k: i for i, k in enumerate(order)}
    opt_sets = [tuple(pos[k] for k in opts) for opts in grp.opt_sets]
    n_green, n_yellow, n_red = shape.sizes
    s0, s1, _ = shape.strides
    n = n_green * s0
    exp_g, exp_y, exp_r = table.expand
    sixth = _SIXTH
    values: list[float] = []
    kept: list[list[float]] = []
    mstar: list[float] | None = None
    for c in range(top + 1):
        val = {k: t[c] for k, t in tables.items()}
        nofocus_best = max((val[k] if k is not None else 0.0 for k in grp.nofocus), default=0.0)
        focus_best = {s: max(val[k] for k in lst) for s, lst in grp.focus_opts.items()}
        fail = [max([nofocus_best] + [focus_best[s] for s in sup if s in focus_best]) for sup in table.supports]
        # W on the complete rolls: certain success, or the best of failing, completing and a clue reroll
        w = [1.0 if ce else fail[sid] for ce, sid in zip(grp.certain, table.support_id, strict=True)]
        if opt_sets:
            vals = [tables[k][c] for k in order]
            get = vals.__getitem__
            best_set = [max(map(get, opts)) for opts in opt_sets]
            w = [x if o < 0 or x >= best_set[o] else best_set[o] for x, o in zip(w, grp.opt_id, strict=True)]
        if mstar is not None:
            w = list(map(max, w, _proper_sub_max(shape, mstar)))
        q = [0.0] * n
        for i, x in zip(shape.full, w, strict=True):
            q[i] = x
        # Q on every sub-multiset = the average over the next die's faces, one colour at a time: red along
        # stride-Nr slices, yellow along stride-(Ny*Nr) slices, green by whole blocks. Entries whose other
        # colours are not complete yet get garbage from the red and yellow passes, but a later pass
        # overwrites them: the green pass rewrites every non-full green block.
        for part, kids in exp_r:
            cols = [q[x::n_red] for x in kids]
            q[part::n_red] = [sum(t) * sixth for t in zip(*cols, strict=True)]
        for part, kids in exp_y:
            for r in range(n_red):
                cols = [q[x * s1 + r::s0] for x in kids]
                q[part * s1 + r::s0] = [sum(t) * sixth for t in zip(*cols, strict=True)]
        if s0 == 1:
            get = q.__getitem__
            for part, kids in exp_g:
                q[part] = sum(map(get, kids)) * sixth
        else:
            for part, kids in exp_g:
                blocks = [q[x * s0:(x + 1) * s0] for x in kids]
                q[part * s0:(part + 1) * s0] = [sum(t) * sixth for t in zip(*blocks, strict=True)]
        values.append(q[0])
        if keep:
            kept.append(q)
        if c < top:
            # M(K) = max of Q over K's sub-multisets. The max over a product of sub-multiset lattices is a
            # max over each colour in turn, and subsets have smaller numbers, so each pass goes upwards.
            m = list(q)
            for part, subs in enumerate(shape.subs[2]):
                for x in subs:
                    m[part::n_red] = list(map(max, m[part::n_red], m[x::n_red]))
            for part, subs in enumerate(shape.subs[1]):
                for x in subs:
                    for r in range(n_red):
                        m[part * s1 + r::s0] = list(map(max, m[part * s1 + r::s0], m[x * s1 + r::s0]))
            if s0 == 1:
                for part, subs in enumerate(shape.subs[0]):
                    if subs:
                        m[part] = max(m[part], *map(m.__getitem__, subs))
            else:
                for part, subs in enumerate(shape.subs[0]):
                    blk = slice(part * s0, (part + 1) * s0)
                    for x in subs:
                        m[blk] = list(map(max, m[blk], m[x * s0:(x + 1) * s0]))
            mstar = m
    return values, kept


def _proper_sub_max(shape: _Shape, m: list[float]) -> list[float]:
    """For every complete roll (in ``shape.full`` order), the largest ``m`` over the multisets one die
    smaller; -1 when the roll has no dice. With ``m`` = M (max over sub-multisets), this is the best
    proper sub-multiset to keep when spending a clue."""
    s0 = shape.strides[0]
    out: list[float] = []
    for a, gsubs in shape.green_full:
        base = a * s0
        blk: list[float] | None = None
        for x in gsubs:
            other = m[x * s0:(x + 1) * s0]
            blk = other if blk is None else list(map(max, blk, other))
        for o, inner in shape.inner_full:
            best = blk[o] if blk is not None else -1.0
            for x in inner:
                if m[base + x] > best:
                    best = m[base + x]
            out.append(best)
    return out


@lru_cache(maxsize=16)  # a few recent roll states; the largest tables hold ~45k floats per clue count
def _kept_tables(key: GroupKey, top: int) -> tuple[list[float], list[list[float]]]:
    return _solve(key, top, keep=True)


# ----------------------------------------------------------------------------------------------------------
# public API


def clear_caches(tables: bool = True) -> None:
    """Forget every memoised answer (for benchmarks and memory-conscious callers). With ``tables=False``
    the roll-shape tables, which depend only on dice counts and class counts, are kept."""
    _VALUES.clear()
    _task_odds.cache_clear()
    _kept_tables.cache_clear()
    if tables:
        for fn in (_reps, _dists, _shape, _roll_table, _projection, _task_moves, _picks, _moves, _min_green,
                   _min_inv, feasible, cover):
            fn.cache_clear()


def _pool(green: int, yellow: int, red: int) -> Pool:
    if min(green, yellow, red) < 0:
        raise ValueError("dice counts must be >= 0")
    return green, yellow, red


@lru_cache(maxsize=16384)
def _task_odds(req: Req, pool: Pool, held: tuple[str, ...], clues: int, focus: bool) -> float:
    return _values(_canon(False, (req,), pool, held, focus), clues)[clues]


def task_odds(task: Task, green: int, yellow: int = 0, red: int = 0, held: Sequence[str] = (),
              clues: int = 0, focus: bool = True) -> float:
    """Probability of completing this one task this turn under optimal play, rolling ``green`` /
    ``yellow`` / ``red`` pool dice, with ``held`` faces already set aside (focused or spell-secured),
    ``clues`` clues to spend and focus still available or not. A task with no die symbols is certain if
    there is at least one die to roll; with none, no task can be completed (3.2)."""
    if clues < 0:
        raise ValueError("clues must be >= 0")
    for f in held:
        if f not in FACE_INDEX:
            raise ValueError(f"unknown face {f!r}")
    return _task_odds(requirement(task), _pool(green, yellow, red), tuple(sorted(held)), clues, focus)


def adventure_odds(tasks: Sequence[Task], ordered: bool, green: int, yellow: int = 0, red: int = 0,
                   clues: int = 0, held: Sequence[str] = (), focus: bool = True) -> float:
    """Probability of completing every task in ``tasks`` this turn under optimal play (one task per roll;
    a task's dice leave the pool; ``ordered`` = top to bottom, otherwise the player picks each time).
    Exact, with the same model as ``task_odds``; ``task_odds(t, ...) == adventure_odds([t], ...)``."""
    if clues < 0:
        raise ValueError("clues must be >= 0")
    for f in held:
        if f not in FACE_INDEX:
            raise ValueError(f"unknown face {f!r}")
    key = _canon(ordered, [requirement(t) for t in tasks], _pool(green, yellow, red), held, focus)
    return _values(key, clues)[clues]


@dataclass(frozen=True)
class Advice:
    """What to do now with a roll (plain data for the smart agent).

    action "complete": assign ``dice`` to the task at index ``task`` of the tasks given.
    action "reroll": spend one clue and reroll the rolled dice in ``reroll``.
    action "fail": declare a failed roll, discard ``discard``, then focus ``focus`` (None: do not focus).
    ``odds`` is the probability of completing every given task from here when the advice is followed.
    Ties go to completing, then to failing (keeping the clue, which lasts beyond this turn), then to
    rerolling.
    """

    action: Literal["complete", "reroll", "fail"]
    odds: float
    task: int | None = None
    dice: tuple[str, ...] = ()
    reroll: tuple[str, ...] = ()
    discard: str | None = None
    focus: str | None = None


_EPS = 1e-12


def best_use(tasks: Task | Sequence[Task], rolled: Sequence[Die], held: Sequence[Die] = (), clues: int = 0,
             focus: bool = True, ordered: bool = False) -> Advice:
    """The optimal move after a roll. ``tasks`` are the card's REMAINING tasks (top first if ``ordered``)
    or one task; ``rolled`` are the pool dice just rolled (die id, face); ``held`` the focused or
    secured dice (usable, never rerolled); ``clues`` the clues left; ``focus`` whether focus is unused."""
    task_list = [tasks] if isinstance(tasks, Task) else list(tasks)
    if not task_list:
        raise ValueError("no tasks left")
    if not rolled:
        return Advice("fail", 0.0)  # completions need a roll; held dice alone never finish a task (3.2)
    reqs = [requirement(t) for t in task_list]
    ids = [d for d, _ in rolled] + [d for d, _ in held]
    if len(set(ids)) != len(ids):
        raise ValueError("die ids must be distinct")
    if clues < 0:
        raise ValueError("clues must be >= 0")
    for d, f in [*rolled, *held]:
        if f not in FACE_INDEX:
            raise ValueError(f"unknown face {f!r} on die {d!r}")
    pool_l = [0, 0, 0]
    for d, _ in rolled:
        pool_l[_COLOR_INDEX[color_of(d)]] += 1
    pool: Pool = (pool_l[0], pool_l[1], pool_l[2])
    held_faces = [f for _, f in held]
    key = _canon(ordered, reqs, pool, held_faces, focus)
    ordered_k, rem, _, _, focus_k = key
    every = list(rolled) + list(held)

    # 1. complete a task
    best: Advice | None = None
    candidates = [0] if ordered_k or len(reqs) == 1 else range(len(reqs))
    src: dict[str, object] = {d: ("pool", color_of(d)) for d, _ in rolled} | {d: ("held",) for d, _ in held}
    held_ids = {d for d, _ in held}
    for ti in candidates:
        req = reqs[ti]
        if not feasible(req, tuple(_face_counts(every))):
            continue
        if len(reqs) == 1:
            dice = ranked_completions(req, every, limit=1)[0]
            return Advice("complete", 1.0, task=ti, dice=dice)
        after = list(reqs)
        del after[ti]
        for dice in ranked_completions(req, every, limit=None, key_of=src):
            used = [0, 0, 0]
            left = [f for d, f in held if d not in dice]
            for d in dice:
                if d not in held_ids:
                    used[_COLOR_INDEX[color_of(d)]] += 1
            nxt = (pool[0] - used[0], pool[1] - used[1], pool[2] - used[2])
            v = _values(_canon(ordered_k, after, nxt, left, focus_k), clues)[clues]
            if best is None or v > best.odds + _EPS:
                best = Advice("complete", v, task=ti, dice=dice)

    # 2. declare a failed roll: discard, then maybe focus
    reps = _reps(rem)
    fail: Advice | None = None
    order = sorted(range(len(rolled)), key=lambda i: _discard_pref(reps, rolled[i][1]))
    for i in order:
        d_id, _ = rolled[i]
        rest = [rolled[j] for j in range(len(rolled)) if j != i]
        after_pool = _drop(pool, _COLOR_INDEX[color_of(d_id)])
        if not rest:
            v = 0.0
        else:
            v = _values(_canon(ordered_k, reqs, after_pool, held_faces, focus_k), clues)[clues]
        if fail is None or v > fail.odds + _EPS:
            fail = Advice("fail", v, discard=d_id)
        if focus_k and len(rest) >= 2:
            for f_id, f_face in rest:
                if reps[f_face] is None:
                    continue
                nxt = _drop(after_pool, _COLOR_INDEX[color_of(f_id)])
                v = _values(_canon(ordered_k, reqs, nxt, [*held_faces, f_face], False), clues)[clues]
                if v > fail.odds + _EPS:
                    fail = Advice("fail", v, discard=d_id, focus=f_id)
    if best is None or (fail is not None and fail.odds > best.odds + _EPS):
        best = fail

    # 3. spend a clue: keep the best proper sub-multiset, reroll the rest
    if clues > 0 and rolled:
        dists = _dists(rem)
        _, kept = _kept_tables(key, clues - 1)
        q = kept[clues - 1]
        shape = _shape(tuple(len(dd) for dd in dists), pool)
        slot_of: dict[tuple[int, str | None], int] = {}
        for ci, dd in enumerate(dists):
            for j, (cls, _) in enumerate(dd):
                slot_of[(ci, cls)] = shape.offsets[ci] + j
        by_slot: dict[int, list[str]] = {}
        for d, f in rolled:
            by_slot.setdefault(slot_of[(_COLOR_INDEX[color_of(d)], reps[f])], []).append(d)
        slots = sorted(by_slot)
        base = [0] * sum(len(dd) for dd in dists)
        top_v, top_keep = -1.0, None
        # more dice kept first, so that among equal values the smallest reroll wins
        picks = sorted(product(*(range(len(by_slot[s]) + 1) for s in slots)), key=lambda x: -sum(x))
        for pick in picks:
            if sum(pick) == len(rolled):
                continue
            vec = list(base)
            for s, n in zip(slots, pick, strict=True):
                vec[s] = n
            v = q[shape.locate(vec)]
            if v > top_v + _EPS:
                top_v, top_keep = v, pick
        if top_keep is not None and (best is None or top_v > best.odds + _EPS):
            keep_ids = {d for s, n in zip(slots, top_keep, strict=True) for d in by_slot[s][:n]}
            best = Advice("reroll", top_v, reroll=tuple(d for d, _ in rolled if d not in keep_ids))
    assert best is not None  # something was rolled, so failing (discarding it) is always possible
    return best


def _face_counts(dice: Sequence[Die]) -> list[int]:
    c = [0] * 8
    for _, f in dice:
        c[FACE_INDEX[f]] += 1
    return c


def _discard_pref(reps: dict[str, str | None], face: str) -> tuple[int, int]:
    """Order for trying discards, so that among equally good discards the least useful die goes: useless
    faces first, then low investigation, then the rest (Wildcards last)."""
    if reps[face] is None:
        return 0, 0
    if face == WILD:
        return 2, 0
    return 1, INV_VALUE.get(face, 5)
