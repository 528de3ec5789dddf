"""Where each location's tile goes, computed from the connection graph alone (the view has no coordinates).

Deterministic and free of overlaps by construction: the locations are put in columns by breadth-first layers
and each tile gets a cell of a grid.

* Each connected group of locations is laid out from one of its outermost locations (the one farthest from
  the rest), so a chain of rooms reads left to right; among those, the root whose layers are narrowest wins,
  then the first by code.
* Within a layer the locations are ordered by where their neighbours in the layer before sit (fewer crossing
  lines), then by code.
* A layer taller than `MAX_ROWS` is cut into several columns; locations connected to nothing share columns at
  the end; more columns than `MAX_COLS` wrap into bands stacked top to bottom.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from bot.render.kit import Box

MAX_COLS = 5
MAX_ROWS = 4
TILE_MAX_W = 236
TILE_MAX_H = 170
GAP_X = 36  # room between columns for the connection lines
GAP_Y = 16

Graph = tuple[tuple[str, tuple[str, ...]], ...]


def graph_of(locations: Sequence[tuple[str, Sequence[str]]]) -> Graph:
    """A hashable, symmetric graph: each location with the locations in play it connects to (a connection
    printed one way only is still drawn as one line)."""
    codes = {code for code, _ in locations}
    adj: dict[str, set[str]] = {code: set() for code, _ in locations}
    for code, links in locations:
        for other in links:
            if other in codes and other != code:
                adj[code].add(other)
                adj[other].add(code)
    return tuple((code, tuple(sorted(adj[code]))) for code in sorted(adj))


def _layers(adj: dict[str, tuple[str, ...]], root: str) -> list[list[str]]:
    depth = {root: 0}
    queue = deque([root])
    while queue:
        here = queue.popleft()
        for other in adj[here]:
            if other not in depth:
                depth[other] = depth[here] + 1
                queue.append(other)
    layers: list[list[str]] = [[] for _ in range(max(depth.values()) + 1)]
    for code in sorted(depth):
        layers[depth[code]].append(code)
    return layers


def _ordered(adj: dict[str, tuple[str, ...]], layers: list[list[str]]) -> list[list[str]]:
    """Each layer sorted by the mean position of its neighbours in the layer before it."""
    out = [layers[0]]
    for layer in layers[1:]:
        before = {code: i for i, code in enumerate(out[-1])}

        def weight(code: str, before: dict[str, int] = before) -> tuple[float, str]:
            seen = [before[o] for o in adj[code] if o in before]
            return (sum(seen) / len(seen) if seen else float(len(before)), code)

        out.append(sorted(layer, key=weight))
    return out


def _component_columns(adj: dict[str, tuple[str, ...]], members: list[str]) -> list[list[str]]:
    best: tuple[int, int, str] | None = None
    for code in members:
        layers = _layers(adj, code)
        key = (-len(layers), max(len(layer) for layer in layers), code)  # farthest reach, then narrowest
        if best is None or key < best:
            best = key
    assert best is not None
    columns: list[list[str]] = []
    for layer in _ordered(adj, _layers(adj, best[2])):
        columns += [layer[i:i + MAX_ROWS] for i in range(0, len(layer), MAX_ROWS)]
    return columns


def columns_of(graph: Graph) -> list[list[str]]:
    """The locations in columns, left to right (before wrapping into bands)."""
    adj = dict(graph)
    seen: set[str] = set()
    groups: list[list[str]] = []
    for code in adj:
        if code in seen:
            continue
        members = sorted({c for layer in _layers(adj, code) for c in layer})
        seen.update(members)
        groups.append(members)
    groups.sort(key=lambda g: (-len(g), g[0]))
    columns: list[list[str]] = []
    loners = [g[0] for g in groups if len(g) == 1]
    for group in groups:
        if len(group) > 1:
            columns += _component_columns(adj, group)
    columns += [loners[i:i + MAX_ROWS] for i in range(0, len(loners), MAX_ROWS)]
    return columns


@dataclass(frozen=True)
class Placed:
    """A location's tile and its place in the grid: band, column in the band, index in the column."""

    box: Box
    band: int
    col: int
    index: int


@lru_cache(maxsize=64)
def placements(graph: Graph, area: Box) -> dict[str, Placed]:
    """Each location's tile inside `area`. Cached: the graph changes only when a location enters play."""
    columns = columns_of(graph)
    if not columns:
        return {}
    bands_n = -(-len(columns) // MAX_COLS)
    per_band = -(-len(columns) // bands_n)
    bands = [columns[i:i + per_band] for i in range(0, len(columns), per_band)]
    rows = [max(len(col) for col in band) for band in bands]
    ncols = max(len(band) for band in bands)
    cell_w = (area.w - (ncols - 1) * GAP_X) // ncols
    cell_h = (area.h - (sum(rows) - 1) * GAP_Y) // sum(rows)
    tile_w, tile_h = min(cell_w, TILE_MAX_W), min(cell_h, TILE_MAX_H)
    out: dict[str, Placed] = {}
    top = area.y
    for b, (band, band_rows) in enumerate(zip(bands, rows, strict=True)):
        # a band with fewer columns than the widest is centred; a column with fewer tiles than the band's
        # tallest is centred in it
        left = area.x + (area.w - (len(band) * cell_w + (len(band) - 1) * GAP_X)) // 2
        for c, col in enumerate(band):
            x = left + c * (cell_w + GAP_X) + (cell_w - tile_w) // 2
            offset = (band_rows - len(col)) * (cell_h + GAP_Y) // 2
            for r, code in enumerate(col):
                y = top + offset + r * (cell_h + GAP_Y) + (cell_h - tile_h) // 2
                out[code] = Placed(Box(x, y, tile_w, tile_h), b, c, r)
        top += band_rows * (cell_h + GAP_Y)
    return out


def tile_boxes(graph: Graph, area: Box) -> dict[str, Box]:
    return {code: p.box for code, p in placements(graph, area).items()}


def links_of(graph: Graph) -> list[tuple[str, str]]:
    """Each connection once, as (a, b) with a < b."""
    return [(a, b) for a, links in graph for b in links if a < b]


Point = tuple[int, int]


def _bracket_side(graph: Graph, placed: dict[str, Placed], a: str, b: str) -> int:
    """+1 (right) or -1 (left): the side of a column where the two tiles have fewer links to the next column."""
    adj = dict(graph)
    pa = placed[a]
    busy = {-1: 0, 1: 0}
    for code in (a, b):
        for other in adj[code]:
            po = placed[other]
            if po.band == pa.band and abs(po.col - pa.col) == 1:
                busy[po.col - pa.col] += 1
    return 1 if busy[1] <= busy[-1] else -1


@lru_cache(maxsize=64)
def link_routes(graph: Graph, area: Box) -> dict[tuple[str, str], tuple[Point, ...]]:
    """The polyline of each connection, kept off the other tiles: between neighbouring columns it runs from
    one tile's side to the other's through the gap; two tiles stacked in one column are joined edge to edge,
    or, with tiles between them, by a bracket in the gap to their right (each bracket a little further out).
    Anything else (a layer cut into several columns, bands) is a straight line between the centres. Each
    route runs from the first location's tile to the second's."""
    placed = placements(graph, area)
    out: dict[tuple[str, str], tuple[Point, ...]] = {}
    brackets: dict[tuple[int, int, int], int] = {}
    for a, b in links_of(graph):
        pa, pb = placed[a], placed[b]
        if pa.band == pb.band and abs(pa.col - pb.col) == 1:
            left, right = (pa.box, pb.box) if pa.col < pb.col else (pb.box, pa.box)
            out[(a, b)] = ((left.right, left.center[1]), (right.x, right.center[1]))
        elif pa.band == pb.band and pa.col == pb.col:
            upper, lower = (pa, pb) if pa.index < pb.index else (pb, pa)
            if lower.index - upper.index == 1:
                x = upper.box.center[0]
                out[(a, b)] = ((x, upper.box.bottom), (x, lower.box.y))
            else:
                side = _bracket_side(graph, placed, a, b)
                k = brackets.get((pa.band, pa.col, side), 0)
                brackets[(pa.band, pa.col, side)] = k + 1
                edge = upper.box.right if side > 0 else upper.box.x
                x = edge + side * min(GAP_X // 2 - 4, 10 + 6 * k)
                # off the sides' midpoints, where the links to the next columns meet the tile
                y0 = upper.box.y + upper.box.h // 4 + 6 * k
                y1 = lower.box.bottom - lower.box.h // 4 - 6 * k
                out[(a, b)] = ((edge, y0), (x, y0), (x, y1), (edge, y1))
        else:
            out[(a, b)] = (pa.box.center, pb.box.center)
        if _starts_on(out[(a, b)], pb.box) and not _starts_on(out[(a, b)], pa.box):
            out[(a, b)] = out[(a, b)][::-1]  # each route runs from a to b
    return out


def _starts_on(route: tuple[Point, ...], box: Box) -> bool:
    x, y = route[0]
    return box.x <= x <= box.right and box.y <= y <= box.bottom
