"""Where everything on the Arkham Horror 3e town map goes. The content gives the map as a graph only (spaces,
neighborhoods, streets, borders; no coordinates), so the picture's geometry is computed from the graph:

1. each neighborhood is a tile in a grid; tiles joined by more streets and borders get neighbouring slots
   (the assignment with the least weighted distance; exhaustive for small maps, greedy plus swaps beyond);
2. street spaces are small plates in the gaps between tiles, each placed on a lattice of free points where
   its borders are shortest and cross the fewest other tiles;
3. a tile's spaces take the cells of a small grid inside it, chosen so that borders leaving the tile are short;
4. a border leaving a tile is routed out through the tile's edge, so it never seems to start at a plate it
   only passes under.

Everything is deterministic (ties go to the first candidate in a fixed order) and cached by the map's
signature, so one scenario always lays out the same way and a map change (a tile joining) re-lays it once.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from bot.games.arkham3.render.plate import Plate, plan_plate
from bot.render.kit import Box

Point = tuple[float, float]

#: tiles per map -> (columns, rows) of the tile grid
GRIDS = {1: (1, 1), 2: (2, 1), 3: (2, 2), 4: (2, 2), 5: (3, 2), 6: (3, 2), 7: (3, 3), 8: (3, 3), 9: (3, 3)}
EDGE = 12  # between the map's border and the tiles
HEAD_H = 46  # a tile's header: its name, clue and anomaly markers
PAD = 8  # inside a tile, around and between its spaces
STREET_W, STREET_H = 164, 92
STREET_ROOM = 14  # kept free around a street plate
PLATE_MAX_W, PLATE_MAX_H = 236, 150
TWO_COLUMNS_MIN = 170  # a tile's spaces sit in two columns when each gets at least this width
LATTICE = 12  # the step of the grid of candidate street positions
#: exhaustive search of tile slots up to this many assignments; greedy with swaps beyond
EXHAUSTIVE = 50_000
CROSS_TILE = 600.0  # cost of a border that crosses a tile it does not belong to
CROSS_PLATE = 260.0  # ... or another space's plate
NEAREST = 120  # candidates (by border length) whose crossings are counted


@dataclass(frozen=True)
class MapSpace:
    """What the layout needs to know of one space (read from the view)."""

    id: str
    name: str
    tile: str | None  # None: a street space
    street: str | None
    adjacent: tuple[str, ...]


@dataclass(frozen=True)
class MapSignature:
    """The map as the layout sees it: equal signatures lay out identically."""

    tiles: tuple[tuple[str, str], ...]  # (id, name) in the view's order
    spaces: tuple[MapSpace, ...]
    box: Box


@dataclass(frozen=True)
class MapLayout:
    """The map's geometry in picture pixels."""

    box: Box
    tiles: dict[str, Box]
    heads: dict[str, Box]  # each tile's header strip
    plates: dict[str, Plate]  # every space, in neighborhoods and streets
    links: tuple[tuple[str, str], ...]  # each border once, (a, b) with a < b
    routes: dict[tuple[str, str], tuple[Point, ...]]  # each border's polyline, from a's plate to b's


# ================================================================================================ geometry

def _dist(a: Point, b: Point) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def _centre(box: Box) -> Point:
    return box.x + box.w / 2, box.y + box.h / 2


def _crosses(a: Point, b: Point, box: Box) -> bool:
    """Whether the segment a-b passes through the rectangle (Liang-Barsky clipping)."""
    x0, y0 = a
    dx, dy = b[0] - a[0], b[1] - a[1]
    lo, hi = 0.0, 1.0
    for p, q in ((-dx, x0 - box.x), (dx, box.right - x0), (-dy, y0 - box.y), (dy, box.bottom - y0)):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            lo = max(lo, t)
        else:
            hi = min(hi, t)
        if lo > hi:
            return False
    return True


def _inside(p: Point, box: Box) -> bool:
    return box.x <= p[0] <= box.right and box.y <= p[1] <= box.bottom


def _overlap(a: Box, b: Box) -> bool:
    return a.x < b.right and b.x < a.right and a.y < b.bottom and b.y < a.bottom


def _grow(box: Box, d: int) -> Box:
    return Box(box.x - d, box.y - d, box.w + 2 * d, box.h + 2 * d)


# ================================================================================================ tiles

def _grid(n: int) -> tuple[int, int]:
    if n in GRIDS:
        return GRIDS[n]
    cols = math.ceil(math.sqrt(n))
    return cols, math.ceil(n / cols)


def _tile_weights(sig: MapSignature) -> dict[tuple[int, int], int]:
    """How strongly each pair of tiles is joined: one per border between them, one per street touching both."""
    index = {t: i for i, (t, _) in enumerate(sig.tiles)}
    tile_of = {s.id: s.tile for s in sig.spaces}
    weights: dict[tuple[int, int], int] = {}

    def add(a: str | None, b: str | None) -> None:
        if a is None or b is None or a == b or a not in index or b not in index:
            return
        key = (min(index[a], index[b]), max(index[a], index[b]))
        weights[key] = weights.get(key, 0) + 1

    for s in sig.spaces:
        if s.tile is None:
            touched = sorted({tile_of.get(n) or "" for n in s.adjacent} - {""})
            for a, b in itertools.combinations(touched, 2):
                add(a, b)
        else:
            for n in s.adjacent:
                if s.id < n:
                    add(s.tile, tile_of.get(n))
    return weights


def _assign_slots(n: int, slots: Sequence[Point], weights: dict[tuple[int, int], int]) -> list[int]:
    """Tile i goes to slot out[i]: the assignment with the least sum of weight x distance."""
    pairs = sorted(weights.items())

    def cost(order: Sequence[int]) -> float:
        return sum(w * _dist(slots[order[a]], slots[order[b]]) for (a, b), w in pairs)

    if math.perm(len(slots), n) <= EXHAUSTIVE:
        best, best_cost = list(range(n)), math.inf
        for perm in itertools.permutations(range(len(slots)), n):
            c = cost(perm)
            if c < best_cost - 1e-9:
                best, best_cost = list(perm), c
        return best
    order = list(range(n))  # view order first, then pairwise swaps and moves to free slots while they help
    free = list(range(n, len(slots)))
    current = cost(order)
    improved = True
    while improved:
        improved = False
        for i in range(n):
            for j in range(i + 1, n):
                trial = order[:]
                trial[i], trial[j] = trial[j], trial[i]
                if (c := cost(trial)) < current - 1e-9:
                    order, current, improved = trial, c, True
            for k in range(len(free)):
                trial = order[:]
                trial[i] = free[k]
                if (c := cost(trial)) < current - 1e-9:
                    free[k] = order[i]
                    order, current, improved = trial, c, True
    return order


def _tile_boxes(sig: MapSignature) -> dict[str, Box]:
    n = len(sig.tiles)
    if n == 0:
        return {}
    cols, rows = _grid(n)
    inner = sig.box.inset(EDGE)
    gap_x = STREET_W + 2 * STREET_ROOM if cols > 1 else 0
    gap_y = STREET_H + 2 * STREET_ROOM if rows > 1 else 0
    w = (inner.w - (cols - 1) * gap_x) // cols
    h = (inner.h - (rows - 1) * gap_y) // rows
    cells = [Box(inner.x + c * (w + gap_x), inner.y + r * (h + gap_y), w, h) for r in range(rows) for c in range(cols)]
    order = _assign_slots(n, [_centre(c) for c in cells], _tile_weights(sig))
    return {t: cells[order[i]] for i, (t, _) in enumerate(sig.tiles)}


# ================================================================================================ streets

def _lattice(sig: MapSignature, tiles: dict[str, Box]) -> list[Point]:
    """Centres where a street plate fits inside the map without touching a tile."""
    box = sig.box.inset(EDGE // 2)
    grown = [_grow(t, STREET_ROOM // 2) for t in tiles.values()]
    out = []
    for y in range(box.y + STREET_H // 2, box.bottom - STREET_H // 2 + 1, LATTICE):
        for x in range(box.x + STREET_W // 2, box.right - STREET_W // 2 + 1, LATTICE):
            plate = Box(x - STREET_W // 2, y - STREET_H // 2, STREET_W, STREET_H)
            if not any(_overlap(plate, g) for g in grown):
                out.append((float(x), float(y)))
    return out


def _place_streets(box: Box, streets: list[MapSpace], targets: dict[str, list[tuple[Point, str | None]]],
                   candidates: list[Point], tiles: dict[str, Box], plates: dict[str, Box]) -> dict[str, Point]:
    """Each street (most connected first) at the free candidate with the shortest borders, a border crossing
    a tile or plate it does not reach costing extra; placed plates keep their room."""
    placed: dict[str, Box] = {}
    lines: list[tuple[Point, Point]] = []  # the borders of the streets placed so far
    out: dict[str, Point] = {}
    for street in sorted(streets, key=lambda s: (-len(s.adjacent), s.id)):
        ends = targets.get(street.id, [])
        best: Point | None = None
        best_cost = math.inf
        taken = [_grow(b, STREET_ROOM) for b in placed.values()]
        free = []
        for c in candidates:
            plate = Box(int(c[0]) - STREET_W // 2, int(c[1]) - STREET_H // 2, STREET_W, STREET_H)
            if not any(_overlap(plate, t) for t in taken):
                free.append((sum(_dist(c, point) for point, _ in ends), c, plate))
        # crossings are counted for the nearest candidates only: a detour longer than those rarely pays
        free.sort(key=lambda f: f[0])
        for length, c, plate in free[:NEAREST]:
            cost = length + sum(CROSS_PLATE for a, b in lines if _crosses(a, b, plate))
            for point, tile in ends:
                for tid, tbox in tiles.items():
                    if tid != tile and _crosses(c, point, tbox):
                        cost += CROSS_TILE
                for pbox in plates.values():
                    if not _inside(point, pbox) and _crosses(c, point, pbox):
                        cost += CROSS_PLATE
                for sbox in placed.values():
                    if _crosses(c, point, sbox):
                        cost += CROSS_PLATE
            if cost < best_cost - 1e-9:
                best, best_cost = c, cost
        if best is None:  # no free room left: stack down the map's left edge rather than fail
            best = (float(box.x + EDGE + STREET_W // 2),
                    float(box.y + EDGE + STREET_H // 2 + len(out) * (STREET_H + 4)))
        out[street.id] = best
        lines += [(best, point) for point, _ in ends]
        placed[street.id] = Box(int(best[0]) - STREET_W // 2, int(best[1]) - STREET_H // 2, STREET_W, STREET_H)
    return out


# ================================================================================================ spaces in a tile

def _cells(area: Box, k: int) -> list[list[Box]]:
    """Candidate cell sets for k plates in `area`: a column of plates in a narrow tile, else two columns."""
    two = k > 1 and (area.w - PAD) // 2 >= TWO_COLUMNS_MIN
    if not two:
        h = min(PLATE_MAX_H, (area.h - (k - 1) * PAD) // max(1, k))
        w = min(PLATE_MAX_W + 80, area.w)
        x = area.x + (area.w - w) // 2
        top = area.y + (area.h - (k * h + (k - 1) * PAD)) // 2
        return [[Box(x, top + i * (h + PAD), w, h) for i in range(k)]]
    rows = 1 if k <= 2 and area.h < 2 * 90 + PAD else 2
    w = min(PLATE_MAX_W, (area.w - PAD) // 2)
    h = min(PLATE_MAX_H, (area.h - (rows - 1) * PAD) // rows)
    xs = [area.x + (area.w - 2 * w - PAD) // 2, area.x + (area.w + PAD) // 2]
    xm = area.x + (area.w - w) // 2
    if rows == 1:
        y = area.y + (area.h - h) // 2
        return [[Box(xs[0], y, w, h), Box(xs[1], y, w, h)]]
    span = min(area.h, 2 * h + PAD + 40)  # keep the two rows together rather than at the tile's edges
    ys = [area.y + (area.h - span) // 2, area.y + (area.h + span) // 2 - h]
    ym = area.y + (area.h - h) // 2

    def cell(col: str, row: str) -> Box:
        return Box({"l": xs[0], "r": xs[1], "m": xm}[col], {"t": ys[0], "b": ys[1], "m": ym}[row], w, h)

    tl, tr, bl, br = cell("l", "t"), cell("r", "t"), cell("l", "b"), cell("r", "b")
    sets = {1: [[cell("m", "m")]],
            2: [[tl, br], [tr, bl], [cell("l", "m"), cell("r", "m")], [cell("m", "t"), cell("m", "b")]],
            3: [[tl, tr, cell("m", "b")], [bl, br, cell("m", "t")], [tl, bl, cell("r", "m")], [tr, br, cell("l", "m")]],
            4: [[tl, tr, bl, br]]}
    return sets.get(k, [[tl, tr, bl, br]])


def _arrange(spaces: list[MapSpace], area: Box, targets: dict[str, list[Point]]) -> dict[str, Box]:
    """The plates of one tile's spaces: the cell set and order with the shortest borders (outside ones
    count fully, borders inside the tile half)."""
    k = len(spaces)
    if k == 0:
        return {}
    options = _cells(area, k)
    inside = {s.id for s in spaces}
    best: dict[str, Box] = {}
    best_cost = math.inf
    for cells in options:
        for order in itertools.permutations(range(len(cells)), k):
            where = {s.id: _centre(cells[order[i]]) for i, s in enumerate(spaces)}
            cost = 0.0
            for s in spaces:
                cost += sum(_dist(where[s.id], p) for p in targets.get(s.id, []))
                cost += sum(0.5 * _dist(where[s.id], where[n]) for n in s.adjacent if n in inside and s.id < n)
            if cost < best_cost - 1e-9:
                best_cost = cost
                best = {s.id: cells[order[i]] for i, s in enumerate(spaces)}
    return best


# ================================================================================================ the layout

def _exit(centre: Point, toward: Point, tile: Box, siblings: list[Box], others: list[Box],
          plates: list[Box]) -> Point:
    """Where a border leaving a neighborhood crosses its tile's edge: straight out of the plate to the side
    (left, right, bottom, top) that clears the tile's other plates and gives the shortest way on to `toward`,
    crossing no other tile if it can; so no border seems to start at a plate it only passes under."""
    x, y = centre
    best, best_cost = (float(tile.right), y), math.inf
    inner = tile.inset(3)
    for out in ((float(tile.x), y), (float(tile.right), y), (x, float(tile.bottom)), (x, float(tile.y))):
        cost = _dist(centre, out) + _dist(out, toward)
        if any(_crosses(centre, out, b) for b in siblings):
            cost += 2 * CROSS_PLATE
        if _crosses(_nudge(out, toward), toward, inner):  # turning back through its own tile
            cost += CROSS_PLATE
        cost += sum(CROSS_TILE for t in others if _crosses(out, toward, t))
        cost += sum(CROSS_PLATE for b in plates if not _inside(toward, b) and _crosses(out, toward, b))
        if cost < best_cost - 1e-9:
            best, best_cost = out, cost
    return best


def _nudge(p: Point, toward: Point) -> Point:
    """A point a few pixels from p on the way to `toward` (so a segment starting on an edge is not 'inside')."""
    d = _dist(p, toward) or 1.0
    return p[0] + (toward[0] - p[0]) * 4 / d, p[1] + (toward[1] - p[1]) * 4 / d


def _route(a: str, b: str, tile_of: dict[str, str | None], tiles: dict[str, Box],
           boxes: dict[str, Box]) -> tuple[Point, ...]:
    """A border's polyline: straight inside a tile; otherwise out through each end's tile edge."""
    ca, cb = _centre(boxes[a]), _centre(boxes[b])
    ta, tb = tile_of.get(a), tile_of.get(b)
    if ta is not None and ta == tb:
        return ca, cb

    def way_out(space: str, tile: str | None, toward: Point) -> list[Point]:
        if tile is None:
            return []
        siblings = [box for sid, box in boxes.items() if tile_of.get(sid) == tile and sid != space]
        others = [t for tid, t in tiles.items() if tid not in (ta, tb)]
        streets = [box for sid, box in boxes.items() if tile_of.get(sid) is None and sid not in (a, b)]
        return [_exit(_centre(boxes[space]), toward, tiles[tile], siblings, others, streets)]

    out_a = way_out(a, ta, cb)
    out_b = way_out(b, tb, out_a[0] if out_a else ca)
    return (ca, *out_a, *out_b, cb)


def _street_targets(streets: list[MapSpace],
                    where: Mapping[str, tuple[Point, str | None]]) -> dict[str, list[tuple[Point, str | None]]]:
    return {s.id: [where[n] for n in s.adjacent if n in where] for s in streets}


@lru_cache(maxsize=32)
def compute_layout(sig: MapSignature) -> MapLayout:
    """The map's geometry (cached per signature: a scenario's map is laid out once per process)."""
    tiles = _tile_boxes(sig)
    known = set(tiles)
    by_tile: dict[str, list[MapSpace]] = {t: [] for t in tiles}
    streets: list[MapSpace] = []
    for s in sig.spaces:
        if s.tile in known:
            by_tile[s.tile].append(s)
        else:
            streets.append(s)
    heads = {t: Box(b.x, b.y, b.w, HEAD_H) for t, b in tiles.items()}
    areas = {t: Box(b.x + PAD, b.y + HEAD_H + PAD // 2, b.w - 2 * PAD, b.h - HEAD_H - PAD - PAD // 2)
             for t, b in tiles.items()}
    tile_of = {s.id: s.tile if s.tile in known else None for s in sig.spaces}
    candidates = _lattice(sig, tiles)

    # first pass: streets against the tiles' centres, then the spaces against those streets
    rough = {s.id: (_centre(tiles[s.tile]), s.tile) for s in sig.spaces if s.tile in known}
    first = _place_streets(sig.box, streets, _street_targets(streets, rough), candidates, tiles, {})
    boxes: dict[str, Box] = {}
    for t, members in by_tile.items():
        targets: dict[str, list[Point]] = {}
        for s in members:
            ends = []
            for n in s.adjacent:
                other = tile_of.get(n)
                if n in first:
                    ends.append(first[n])
                elif other is not None and other != t:
                    ends.append(_centre(tiles[other]))
            targets[s.id] = ends
        boxes.update(_arrange(members, areas[t], targets))

    # second pass: streets against the spaces' plates
    exact = {sid: (_centre(b), tile_of.get(sid)) for sid, b in boxes.items()}
    final = _place_streets(sig.box, streets, _street_targets(streets, exact), candidates, tiles, boxes)
    for s in streets:
        x, y = final[s.id]
        boxes[s.id] = Box(int(x) - STREET_W // 2, int(y) - STREET_H // 2, STREET_W, STREET_H)

    names = {s.id: s.name for s in sig.spaces}
    plates = {sid: plan_plate(b, names[sid]) for sid, b in sorted(boxes.items())}
    links = sorted({(min(s.id, n), max(s.id, n)) for s in sig.spaces for n in s.adjacent if n in plates})
    routes = {(a, b): _route(a, b, tile_of, tiles, boxes) for a, b in links}
    return MapLayout(sig.box, tiles, heads, plates, tuple(links), routes)


def signature(tiles: Iterable[tuple[str, str]], spaces: Iterable[MapSpace], box: Box) -> MapSignature:
    return MapSignature(tuple(tiles), tuple(spaces), box)
