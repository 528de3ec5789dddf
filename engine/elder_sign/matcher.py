"""The task matcher: which dice can complete a task, and in which meaningfully different ways (digest 11.3).

Rules encoded here (digest 1.2, 1.5, 3.2):

* every die symbol takes its own distinct die; a task completes as a whole unit;
* ``inv:N`` is met by investigation dice whose values add up to at least N (a Wildcard counts 4) and any
  surplus is wasted; two ``inv`` symbols on one task (e.g. a monster's added to a card's) are two separate
  sums, each with its own dice, because every symbol uses distinct dice;
* ``lore`` / ``peril`` / ``terror`` take a die showing that face or a Wildcard;
* a split symbol ``a/b`` takes a die showing either face, or a Wildcard;
* a Wildcard is exactly ONE of Inv4 / Lore / Peril / Terror when assigned.

Feasibility never needs a search over assignments. Lore, Peril and Terror faces can only serve face symbols
and investigation faces can only serve ``inv`` symbols, so the only shared resource is the Wildcard. The
fewest Wildcards the face symbols need is a matching deficiency, computed in closed form with Hall's
theorem (three face types, so there are only four Hall sets worth checking). Every other Wildcard is then
an Inv4. This closed form keeps the matcher fast enough to run inside the exact-odds dynamic programme
(engine/elder_sign/odds.py), which calls ``feasible`` hundreds of thousands of times.

Validation policy: ``validate`` is strict by default. The chosen dice must complete the task AND every
chosen die must be needed (a minimal set). An extra die would only be wasted: it leaves the pool for the
rest of the adventure and helps nothing. A click that does that is a misclick, so the engine refuses it.
``allow_extra=True`` gives the permissive reading (the set completes the task, extras allowed) for callers
that want it. The engine itself only offers the minimal sets from ``completions``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import product
from typing import NamedTuple

from engine.elder_sign.dice import INV1, INV2, INV3, INV4, INV_VALUE, LORE, PERIL, TERROR, WILD, color_of
from engine.elder_sign.tasks import Task

#: a die as the matcher sees it: (die id, face currently shown)
Die = tuple[str, str]

#: the eight faces in a fixed order; face-count vectors everywhere in this module use this order
FACES: tuple[str, ...] = (INV1, INV2, INV3, INV4, LORE, PERIL, TERROR, WILD)
FACE_INDEX = {f: i for i, f in enumerate(FACES)}

#: tie-break after the ranking the digest asks for: spend green dice before yellow, yellow before red.
#: The dice left over are rolled again for the card's other tasks, and a red or yellow die is the better
#: die to keep (more investigation, and red has the Wildcard).
COLOR_WEIGHT = {"green": 0, "yellow": 1, "red": 2}


class Req(NamedTuple):
    """A task's die symbols, normalised: the costs (clock/sanity/stamina) are not dice and are left out."""

    inv: tuple[int, ...] = ()  # one entry per inv symbol, sorted largest first
    lore: int = 0
    peril: int = 0
    terror: int = 0
    lore_peril: int = 0
    lore_terror: int = 0
    peril_terror: int = 0

    def face_demand(self) -> int:
        return self.lore + self.peril + self.terror + self.lore_peril + self.lore_terror + self.peril_terror

    def relevant_faces(self) -> frozenset[str]:
        """The non-investigation faces some symbol of this task can use."""
        out = set()
        if self.lore or self.lore_peril or self.lore_terror:
            out.add(LORE)
        if self.peril or self.lore_peril or self.peril_terror:
            out.add(PERIL)
        if self.terror or self.lore_terror or self.peril_terror:
            out.add(TERROR)
        return frozenset(out)

    def is_empty(self) -> bool:
        return not self.inv and self.face_demand() == 0


_SPLIT_FIELD = {"lore/peril": "lore_peril", "lore/terror": "lore_terror", "peril/terror": "peril_terror"}


@lru_cache(maxsize=4096)
def req_from_symbols(symbols: tuple[str, ...]) -> Req:
    """Normalise a tuple of task symbols (see engine/elder_sign/tasks.py) into a ``Req``."""
    inv: list[int] = []
    counts = {"lore": 0, "peril": 0, "terror": 0, "lore_peril": 0, "lore_terror": 0, "peril_terror": 0}
    for s in symbols:
        if s.startswith("inv:"):
            inv.append(int(s[4:]))
        elif s in (LORE, PERIL, TERROR):
            counts[s] += 1
        elif "/" in s:
            a, _, b = s.partition("/")
            key = "/".join(sorted((a, b)))
            if key not in _SPLIT_FIELD:
                raise ValueError(f"bad split symbol {s!r}")
            counts[_SPLIT_FIELD[key]] += 1
        else:
            raise ValueError(f"unknown die symbol {s!r}")
    return Req(inv=tuple(sorted(inv, reverse=True)), **counts)


def requirement(task: Task) -> Req:
    return req_from_symbols(tuple(task.symbols))


def face_counts(faces: Iterable[str]) -> tuple[int, ...]:
    """The face-count vector (in ``FACES`` order) of some faces."""
    c = [0] * len(FACES)
    for f in faces:
        c[FACE_INDEX[f]] += 1
    return tuple(c)


def wilds_needed(req: Req, lore: int, peril: int, terror: int) -> int:
    """The fewest Wildcards the face symbols need on top of these Lore/Peril/Terror dice.

    Exact symbols take their own face first: a Lore die can serve only the symbols a Wildcard could also
    serve, so giving it to an exact Lore symbol never costs anything. The split symbols then form a
    bipartite matching problem with three face types. The deficiency of that matching is the largest
    demand-minus-neighbourhood over the Hall sets. Any two split types already neighbour all three faces,
    so only the singletons and the whole set need checking. Each Wildcard covers one missing symbol.
    """
    d_l, a = (req.lore - lore, 0) if req.lore >= lore else (0, lore - req.lore)
    d_p, b = (req.peril - peril, 0) if req.peril >= peril else (0, peril - req.peril)
    d_t, c = (req.terror - terror, 0) if req.terror >= terror else (0, terror - req.terror)
    lp, lt, pt = req.lore_peril, req.lore_terror, req.peril_terror
    deficiency = max(0, lp - a - b, lt - a - c, pt - b - c, lp + lt + pt - a - b - c)
    return d_l + d_p + d_t + deficiency


@lru_cache(maxsize=65536)
def cover(groups: tuple[int, ...], values: tuple[int, int, int, int]) -> bool:
    """Can investigation dice with these value counts (of 1, 2, 3, 4) meet every sum in ``groups``, each
    with its own dice? One group is a plain total; several are a small bin-covering search."""
    if not groups:
        return True
    total = values[0] + 2 * values[1] + 3 * values[2] + 4 * values[3]
    if total < sum(groups):
        return False
    if len(groups) == 1:
        return True
    first, rest = groups[0], groups[1:]
    # Only minimal dice sets need trying for the first sum: a superset leaves fewer dice for the rest.
    for x in product(*(range(n + 1) for n in values)):
        s = x[0] + 2 * x[1] + 3 * x[2] + 4 * x[3]
        if s < first:
            continue
        smallest = next(v + 1 for v in range(4) if x[v])
        if s - smallest >= first:
            continue
        left = (values[0] - x[0], values[1] - x[1], values[2] - x[2], values[3] - x[3])
        if cover(rest, left):
            return True
    return False


@lru_cache(maxsize=65536)
def feasible(req: Req, counts: tuple[int, ...]) -> bool:
    """Can dice with this face-count vector (``FACES`` order) complete the requirement?"""
    i1, i2, i3, i4, lore, peril, terror, wild = counts
    k = wilds_needed(req, lore, peril, terror)
    if k > wild:
        return False
    if not req.inv:
        return True
    spare = wild - k  # every Wildcard the face symbols don't need counts as Inv4
    if len(req.inv) == 1:
        return i1 + 2 * i2 + 3 * i3 + 4 * (i4 + spare) >= req.inv[0]
    return cover(req.inv, (i1, i2, i3, i4 + spare))


def _relevant(req: Req, face: str) -> bool:
    """Could a die showing this face ever be part of a minimal completion of this requirement?"""
    if face == WILD:
        return not req.is_empty()
    if face in INV_VALUE:
        return bool(req.inv)
    return face in req.relevant_faces()


def _count_bound(req: Req, face: str) -> int:
    """The most dice of one face a minimal completion can hold (it bounds the enumeration). A minimal set
    for a sum N holds at most ceil(N / v) dice of value v: with more, dropping one still reaches N."""
    if face in (LORE, PERIL, TERROR):
        return {LORE: req.lore + req.lore_peril + req.lore_terror,
                PERIL: req.peril + req.lore_peril + req.peril_terror,
                TERROR: req.terror + req.lore_terror + req.peril_terror}[face]
    v = INV_VALUE[face]
    inv_bound = sum(-(-n // v) for n in req.inv)
    return inv_bound + (req.face_demand() if face == WILD else 0)


@lru_cache(maxsize=8192)
def minimal_sets(req: Req, kinds: tuple[tuple[str, int], ...]) -> tuple[tuple[int, ...], ...]:
    """Every minimal completion, as a count vector over ``kinds``. A kind is a (face, how many dice of it
    are available) pair. Callers make kinds as fine as they need (by colour, or by pool versus held), so
    two dice of one kind are interchangeable and one vector stands for all of their id choices.

    Feasibility is monotone: more dice never hurt. So a set is minimal exactly when dropping any ONE die
    breaks it, and those one-smaller vectors lie inside the enumerated box. That is a dict lookup each.
    """
    if req.is_empty():
        return (tuple(0 for _ in kinds),)
    ranges = []
    for face, n in kinds:
        hi = min(n, _count_bound(req, face)) if _relevant(req, face) else 0
        ranges.append(range(hi + 1))
    face_idx = [FACE_INDEX[f] for f, _ in kinds]
    ok: dict[tuple[int, ...], bool] = {}
    for vec in product(*ranges):
        c = [0] * 8
        for i, n in enumerate(vec):
            if n:
                c[face_idx[i]] += n
        ok[vec] = feasible(req, tuple(c))
    out = []
    for vec, good in ok.items():
        if not good:
            continue
        minimal = True
        for i, n in enumerate(vec):
            if n and ok[vec[:i] + (n - 1,) + vec[i + 1:]]:
                minimal = False
                break
        if minimal:
            out.append(vec)
    return tuple(out)


def _kinds(dice: Sequence[Die], key_of: dict[str, object] | None = None) -> tuple[list[object], list[str],
                                                                                   list[list[str]]]:
    """Group dice into kinds (by colour and face, or by a caller-given key and face), in first-seen order."""
    keys: list[object] = []
    faces: list[str] = []
    ids: list[list[str]] = []
    where: dict[tuple[object, str], int] = {}
    for die_id, face in dice:
        if face not in FACE_INDEX:
            raise ValueError(f"unknown face {face!r} on die {die_id!r}")
        k = (key_of[die_id] if key_of is not None else color_of(die_id), face)
        if k not in where:
            where[k] = len(keys)
            keys.append(k[0])
            faces.append(face)
            ids.append([])
        ids[where[k]].append(die_id)
    return keys, faces, ids


def ranked_completions(req: Req, dice: Sequence[Die], limit: int | None = 12,
                       key_of: dict[str, object] | None = None) -> list[tuple[str, ...]]:
    """``completions`` on a normalised requirement. ``key_of`` (die id -> key) replaces colour as what
    makes two dice with one face different (odds.best_use separates held dice from pool dice this way)."""
    if len({d for d, _ in dice}) != len(dice):
        raise ValueError("die ids must be distinct")
    counts = [0] * len(FACES)
    for die_id, face in dice:
        f = FACE_INDEX.get(face)
        if f is None:
            raise ValueError(f"unknown face {face!r} on die {die_id!r}")
        counts[f] += 1
    if not feasible(req, tuple(counts)):
        return []  # the usual answer after a roll, found with one cached check (all the dice can't do it)
    # Dice are grouped into kinds (key and face, in first-seen order). Kinds no minimal completion can use
    # are left out, and a kind counts only as many dice as a minimal completion could hold: the ranking
    # (up to its last tie-break, the dice's positions) then depends only on the kinds' canonical shape, and
    # is computed once per shape.
    bound = _bounds(req)
    groups: dict[tuple[object, str], list[tuple[int, str]]] = {}
    for p, (die_id, face) in enumerate(dice):
        if not bound[face]:
            continue
        k = (key_of[die_id] if key_of is not None else color_of(die_id), face)
        g = groups.get(k)
        if g is None:
            groups[k] = [(p, die_id)]
        else:
            g.append((p, die_id))
    kinds = list(groups.items())
    shape = [(FACE_INDEX[face], min(len(g), bound[face]), COLOR_WEIGHT.get(color_of(g[0][1]), 0))
             for (_, face), g in kinds]
    order = sorted(range(len(shape)), key=shape.__getitem__)
    ranked = _ranked_shapes(req, tuple([shape[j] for j in order]))
    picks = []
    for prefix, cvec in ranked:
        chosen: list[tuple[int, str]] = []
        for j, n in enumerate(cvec):
            if n:
                chosen += kinds[order[j]][1][:n]
        chosen.sort()
        picks.append((prefix, tuple([p for p, _ in chosen]), tuple([d for _, d in chosen])))
    if len(picks) > 1:
        picks.sort()
    out = [p[2] for p in picks]
    return out[:limit] if limit is not None else out


def relevant_dice(req: Req, dice: Sequence[Die]) -> tuple[Die, ...]:
    """The dice, in order, whose face some minimal completion of ``req`` could use. The others change neither
    whether the requirement can be met nor any of its completions, so ``ranked_completions`` of these dice is
    that of all of them: a key for caching completions after a roll (most faces are irrelevant to a task)."""
    bound = _bounds(req)
    out = []
    for d in dice:
        b = bound.get(d[1])
        if b is None:
            raise ValueError(f"unknown face {d[1]!r} on die {d[0]!r}")
        if b:
            out.append(d)
    return tuple(out)


def face_bounds(req: Req) -> dict[str, int]:
    """For each face, the most dice showing it that a minimal completion of ``req`` can hold (0: none, the
    face is irrelevant to it). Shared: read it, never change it."""
    return _bounds(req)


@lru_cache(maxsize=4096)
def _bounds(req: Req) -> dict[str, int]:
    """For each face, the most dice showing it that a minimal completion of ``req`` can hold (0: none)."""
    return {f: (_count_bound(req, f) if _relevant(req, f) else 0) for f in FACES}


@lru_cache(maxsize=16384)
def _ranked_shapes(req: Req, shape: tuple[tuple[int, int, int], ...]) -> tuple[
        tuple[tuple[int, int, int, int], tuple[int, ...]], ...]:
    """Every minimal completion for kinds of this canonical shape ((face index, dice, colour weight) each,
    sorted), with the ranking `completions` documents up to its last tie-break (the dice's positions):
    fewest dice, fewest Wildcards, least investigation value, fewest yellow/red dice."""
    vecs = minimal_sets(req, tuple((FACES[f], n) for f, n, _ in shape))
    out = []
    for vec in vecs:
        n_dice = sum(vec)
        wilds = sum(n for j, n in enumerate(vec) if FACES[shape[j][0]] == WILD)
        value = sum(n * INV_VALUE.get(FACES[shape[j][0]], 0) for j, n in enumerate(vec))
        weight = sum(n * shape[j][2] for j, n in enumerate(vec))
        out.append(((n_dice, wilds, value, weight), vec))
    out.sort(key=lambda x: x[0])
    return tuple(out)


def completions(task: Task, dice: Sequence[Die], limit: int = 12) -> list[tuple[str, ...]]:
    """The meaningfully different minimal ways to complete ``task`` with some of ``dice`` (digest 11.3).

    Each way is a tuple of die ids (in the order the dice were given). Ways are deduplicated by the
    multiset of (colour, face) they use, so six green Lore dice give one "Lore" option, not six. Ranking:
    fewest dice, then fewest Wildcards, then lowest total investigation value (least waste), then fewest
    yellow/red dice spent, then the earliest dice. A task with no die symbols has exactly one way: no dice.
    """
    return ranked_completions(requirement(task), dice, limit)


def can_complete(task: Task, dice: Sequence[Die]) -> bool:
    """Can these dice (together) complete the task? Fast path: one cached closed-form check."""
    return feasible(requirement(task), face_counts(f for _, f in dice))


def validate(task: Task, chosen: Sequence[Die], *, allow_extra: bool = False) -> bool:
    """Do the chosen dice complete the task? Ids must be distinct. Strict by default: every chosen die must
    be needed (see the module docstring); ``allow_extra=True`` accepts wasted extra dice."""
    if len({d for d, _ in chosen}) != len(chosen):
        return False
    if any(f not in FACE_INDEX for _, f in chosen):
        return False
    req = requirement(task)
    counts = face_counts(f for _, f in chosen)
    if not feasible(req, counts):
        return False
    if allow_extra:
        return True
    for i, n in enumerate(counts):
        if n and feasible(req, counts[:i] + (n - 1,) + counts[i + 1:]):
            return False
    return True
