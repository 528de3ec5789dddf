"""Where every space of the Eldritch Horror board sits in the picture, and the board itself drawn once.

`map_layout(version)` places each space from its latitude and longitude (equirectangular), pushes apart the
ones that would crowd each other (Europe's four cities are a few degrees apart), and decides where each
named space's label and each kind of token goes. `map_image(version)` draws what never changes during a game:
sea, coasts, paths and the spaces' shapes, numbers and names. Both are computed once per content version
and cached, so the layout is stable and a render only draws the tokens on top.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import cache

from PIL import Image, ImageDraw

from bot.games.eldritch.render.geo import LAKES, LAND, LonLat
from bot.games.eldritch.render.style import (
    GRID,
    LABEL_HALO,
    LABEL_INK,
    LAND_EDGE,
    LAT_BOTTOM,
    LAT_TOP,
    LON_LEFT,
    MAP_BOX,
    OCEAN,
    PATH_COLOURS,
    REGION_INK,
    SHAPE_EDGE,
    SHAPE_INK,
    SPACE_FILL,
)
from bot.games.eldritch.render.style import LAND as LAND_FILL
from bot.render.kit import Box, draw_text, text_width
from engine.eldritch.view import MapSpace, WorldMap, world_map

Point = tuple[int, int]

#: a space's shape (circle, diamond, square) fits a circle of this radius; an open Gate rings it
SHAPE_R = 17
#: the least distance between two spaces' centres after nudging, across and up/down: a space's tokens
#: take a row above it and a badge either side, so neighbours need more room sideways than vertically
SPREAD_X, SPREAD_Y = 96, 80
LABEL_ROOM = 26
LABEL_SIZE = 18
NUMBER_SIZE = 18
REGION_SIZE = 26
#: the background is drawn this many times larger and scaled down, for smooth coasts, paths and shapes
SCALE = 2
#: where each kind of token sits, from the space's centre (labels and the marks after them are per space)
INVESTIGATOR_DY = -40
BADGE_DX = 45
#: investigator tokens on the map: radius and the step between two tokens of a row
TOKEN_R, TOKEN_STEP = 14, 27
#: a space's tokens sit on a ring around its shape, outside the open Gate's ring: at these slots, the best
#: places of the ring first (`token_slots`). The first investigator takes the best, then the Monsters' badge,
#: the Clue disc, and the other investigators (and defeated ones) in seat order.
SLOT_RING = 41
SLOTS = 8
#: a crowded space still gets this many slots (then the least bad places); more tokens lap the ring again
MIN_SLOTS = 3
#: the height of the wounds tag under a Monster badge (tokens.draw_wounds at its size)
WOUND_TAG_H = 16
INVESTIGATOR_SLOTS = (0, 3, 4, 5, 6, 7)
MONSTER_SLOT, CLUE_SLOT = 1, 2
#: the angles tried around a space, and a second ring further out when the first is crowded
SLOT_ANGLES = 36
#: the region names, placed by hand near their cities where no space, name or path is (map pixels: the centre
#: of the text). Asia's lies on land: over the Indian Ocean it read as the name of a sea.
REGION_LABELS: tuple[tuple[str, Point], ...] = (
    ("THE AMERICAS", (120, 445)),
    ("EUROPE", (410, 92)),
    ("ASIA & AUSTRALIA", (819, 200)),  # on the steppe between its cities, clear of paths and names
)


@dataclass(frozen=True)
class Label:
    lines: tuple[str, ...]
    x: int  # the centre of the text block
    y: int  # its top
    w: int
    h: int

    @property
    def box(self) -> Box:
        return Box(self.x - self.w // 2, self.y, self.w, self.h)


@dataclass(frozen=True)
class SpacePlace:
    """One space in the picture: its centre and where its label and tokens go (image coordinates)."""

    space: MapSpace
    x: int
    y: int
    label: Label | None  # named spaces; numbered ones carry their number inside the shape
    marks: Point  # the first of the rumor / expedition badges (after the label, or under the shape)
    slots: tuple[Point, ...] = ()  # where its tokens go, around the shape (`token_slots`)

    @property
    def centre(self) -> Point:
        return self.x, self.y

    @property
    def investigators(self) -> Point:
        """The first investigator's token."""
        return self.investigator(0)

    def investigator(self, k: int) -> Point:
        """The k-th token of a person there (investigators in seat order, then defeated ones)."""
        return slot_of(self.slots, INVESTIGATOR_SLOTS[k % len(INVESTIGATOR_SLOTS)], k // len(INVESTIGATOR_SLOTS))

    @property
    def monsters(self) -> Point:
        return slot_of(self.slots, MONSTER_SLOT)

    @property
    def clues(self) -> Point:
        return slot_of(self.slots, CLUE_SLOT)


@dataclass(frozen=True)
class MapLayout:
    version: str
    places: dict[str, SpacePlace]
    world: WorldMap


# ---------------------------------------------------------------------------------------------- projection

#: the projection is equirectangular by bands: (first degree, pixels per degree relative to the others).
#: Europe and the northern mid-latitudes hold most spaces and get more room, the Pacific and the poles less,
#: as the printed board does. The two Pacific edge bands weigh the same, so coasts meet across the seam.
LON_BANDS: tuple[tuple[float, float], ...] = ((LON_LEFT, 0.7), (-135, 0.95), (-40, 1.5), (40, 0.8), (80, 1.2),
                                              (160, 0.7), (LON_LEFT + 360, 0.0))
LAT_BANDS: tuple[tuple[float, float], ...] = ((-LAT_TOP, 0.75), (-65, 1.55), (-20, 0.85), (40, 0.7),
                                              (-LAT_BOTTOM, 0.0))


def _warp(value: float, bands: tuple[tuple[float, float], ...], size: int) -> float:
    """Pixels from the first band's start to `value`; beyond either end the edge band's scale goes on."""
    total = sum((b[0] - a[0]) * a[1] for a, b in zip(bands, bands[1:], strict=False))
    unit = size / total
    if value <= bands[0][0]:
        return (value - bands[0][0]) * bands[0][1] * unit
    px = 0.0
    for (start, weight), (end, _) in zip(bands, bands[1:], strict=False):
        if value <= end:
            return (px + (value - start) * weight) * unit
        px += (end - start) * weight
    return (px + (value - bands[-1][0]) * bands[-2][1]) * unit


def lon_x(lon: float) -> float:
    return _warp(lon, LON_BANDS, MAP_BOX.w)


def lat_y(lat: float) -> float:
    return _warp(-lat, LAT_BANDS, MAP_BOX.h)


def project(lon: float, lat: float) -> tuple[float, float]:
    """Map-local pixel coordinates of a space's longitude/latitude (0, 0 = the map's top-left corner)."""
    return lon_x((lon - LON_LEFT) % 360.0 + LON_LEFT), lat_y(lat)


def _spread(points: dict[str, tuple[float, float]], labelled: set[str]) -> dict[str, tuple[float, float]]:
    """Points pushed apart until no two are closer than the spread ellipse (taller under a labelled point:
    its name goes there), each pulled gently back to where it belongs meanwhile, and kept inside the map.
    Deterministic: sorted ids, fixed rounds."""
    ids = sorted(points)
    pos = {k: list(points[k]) for k in ids}
    lo_x, hi_x = 64.0, MAP_BOX.w - 70.0
    lo_y, hi_y = 64.0, MAP_BOX.h - 56.0
    for round_ in range(300):
        moved = False
        for i, a in enumerate(ids):
            pa = pos[a]
            for b in ids[i + 1:]:
                pb = pos[b]
                upper = a if pa[1] <= pb[1] else b
                spread_y = SPREAD_Y + (LABEL_ROOM if upper in labelled else 0)
                dx, dy = (pb[0] - pa[0]) / SPREAD_X, (pb[1] - pa[1]) / spread_y
                d = math.hypot(dx, dy)
                if d >= 1.0:
                    continue
                if d < 1e-6:
                    dx, dy, d = 1.0, 0.0, 1.0
                push = (1.0 - d) / 2 * 1.02
                ux, uy = dx / d * push * SPREAD_X, dy / d * push * spread_y
                pa[0] -= ux
                pa[1] -= uy
                pb[0] += ux
                pb[1] += uy
                moved = True
        if round_ < 200:  # then stop pulling back, so the last rounds only separate
            for k in ids:
                home = points[k]
                pos[k][0] += (home[0] - pos[k][0]) * 0.03
                pos[k][1] += (home[1] - pos[k][1]) * 0.03
        for k in ids:
            pos[k][0] = min(hi_x, max(lo_x, pos[k][0]))
            pos[k][1] = min(hi_y, max(lo_y, pos[k][1]))
        if not moved and round_ >= 200:
            break
    return {k: (pos[k][0], pos[k][1]) for k in ids}


# ---------------------------------------------------------------------------------------------- labels

def _zones(x: int, y: int, named: bool) -> tuple[Box, list[Box]]:
    """What a space covers: its core (shape and Gate ring: a label must never hide it) and the zones its
    tokens may take (the investigators' row above, a badge either side, a numbered space's marks below)."""
    core = Box(x - 28, y - 28, 56, 56)
    zones = [Box(x - 30, y - 58, 60, 30), Box(x - 61, y - 16, 122, 32)]
    if not named:
        zones.append(Box(x - 28, y + 22, 56, 26))
    return core, zones


def _overlap(a: Box, b: Box) -> int:
    w = min(a.right, b.right) - max(a.x, b.x)
    h = min(a.bottom, b.bottom) - max(a.y, b.y)
    return w * h if w > 0 and h > 0 else 0


#: how much worse each fallback label position is than the one under the space, in overlapped pixels
SIDE_COST = 500


def _label_options(name: str, x: int, y: int) -> list[tuple[int, Label]]:
    """Candidate labels for a space with their handicap: under it (on one line or two, or a little to
    either side), else beside it, after the badge on that side."""
    one = (name,)
    words = name.split()
    two: tuple[str, ...] = one
    if len(words) > 1:  # split where the two lines come out most even
        cut = min(range(1, len(words)), key=lambda i: abs(text_width(" ".join(words[:i]), LABEL_SIZE, True)
                                                          - text_width(" ".join(words[i:]), LABEL_SIZE, True)))
        two = (" ".join(words[:cut]), " ".join(words[cut:]))
    out = []
    for extra, lines in enumerate((one, two) if two != one else (one,)):
        w = max(text_width(t, LABEL_SIZE, True) for t in lines) + 6
        h = len(lines) * (LABEL_SIZE + 3) + 2
        for shift, dx in enumerate((0, -28, 28)):
            out.append((extra * 120 + shift * 150, Label(lines, x + dx, y + SHAPE_R + 12, w, h)))
        out.append((SIDE_COST + extra * 120, Label(lines, x + 60 + w // 2, y - h // 2, w, h)))
        out.append((SIDE_COST + extra * 120, Label(lines, x - 60 - w // 2, y - h // 2, w, h)))
    return out


def _place_labels(centres: dict[str, Point], spaces: dict[str, MapSpace]) -> dict[str, Label]:
    named = [k for k in sorted(centres) if not spaces[k].name.isdigit()]
    zones = {k: _zones(*centres[k], named=k in named) for k in centres}
    bounds = Box(0, 0, MAP_BOX.w, MAP_BOX.h).inset(4)
    placed: dict[str, Label] = {}
    for k in named:
        best: tuple[int, Label] | None = None
        for handicap, option in _label_options(spaces[k].name, *centres[k]):
            box = option.box
            cost = handicap
            for j, (core, tokens) in zones.items():
                cost += _overlap(box, core) * (10 if j != k else 40)
                if j != k:
                    cost += sum(_overlap(box, t) for t in tokens)
            # labels keep a word's width apart, or two names on one line read as one
            cost += sum(_overlap(box, other.box.inset(-12, -2)) for other in placed.values()) * 10
            cost += (box.w * box.h - _overlap(box, bounds)) * 10
            if best is None or cost < best[0]:
                best = (cost, option)
        assert best is not None
        placed[k] = best[1]
    return placed


def _marks_point(x: int, y: int, label: Label | None) -> Point:
    if label is None:
        return x - 13, y + 34
    return label.box.right + 12, label.y + LABEL_SIZE // 2 + 2


# ---------------------------------------------------------------------------------------------- token slots

def slot_of(slots: tuple[Point, ...], k: int, lap: int = 0) -> Point:
    """The k-th slot; past the last one (more tokens than slots) a lap of the ring again, shifted a little, so
    a stack reads as a stack."""
    if not slots:
        return 0, 0
    lap += k // len(slots)
    x, y = slots[k % len(slots)]
    return x + 8 * lap, y - 8 * lap


def _segment_distance(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / length2))
    return math.dist(p, (ax + t * dx, ay + t * dy))


def compute_slots(centres: dict[str, Point], segments: list[tuple[Point, Point]], labels: list[Box],
                  bounds: Box, ring: float, token_r: float, count: int = SLOTS,
                  tag_h: int = 0) -> dict[str, tuple[Point, ...]]:
    """Where each space's tokens go: up to `count` points around it, on a ring just outside its shape (or
    further out when that ring is crowded). A slot is nearer its own space than any other (by a token's
    radius where there is room), never on a path's midpoint (half-way, a token reads as on neither end),
    on no name and inside the map; among those, the places clear of the paths and of the other spaces' slots
    come first. A space hemmed in by its neighbours gets at least MIN_SLOTS, the least bad places left.
    Deterministic: sorted ids, fixed angles, a stable sort.

    Everything is in one coordinate system (the caller's); `token_r` is the drawn token's radius; the
    Monsters' slot also keeps `tag_h` px above or under its token clear of labels (for the wounds tag)."""
    # the innermost ring overlaps the shape's edge: a last resort for a space hemmed in by its neighbours
    rings = (ring - 12, ring - 6, ring, ring + token_r, ring + 2 * token_r)
    angles = [2 * math.pi * i / SLOT_ANGLES - math.pi / 2 for i in range(SLOT_ANGLES)]  # from straight up
    clear = token_r + 4
    taken: list[tuple[float, float]] = []
    out: dict[str, tuple[Point, ...]] = {}
    for k in sorted(centres):
        cx, cy = centres[k]
        reach = rings[-1] + token_r + 4
        near_segments = [seg for seg in segments if _segment_distance((cx, cy), *seg) < reach]
        near_spaces = [c for j, c in centres.items() if j != k and math.dist(c, (cx, cy)) < 2 * rings[-1] + 1]
        midpoints = [((a[0] + b[0]) / 2, (a[1] + b[1]) / 2) for a, b in near_segments]
        near_labels = [b for b in labels if b.x - reach < cx < b.right + reach and b.y - reach < cy < b.bottom + reach]
        near_taken = [t for t in taken if math.dist(t, (cx, cy)) < reach + 2 * token_r + 2]
        options: list[tuple[int, float, tuple[float, float], bool]] = []
        for radius in rings:
            for angle in angles:
                p = (cx + radius * math.cos(angle), cy + radius * math.sin(angle))
                box = Box(round(p[0] - token_r), round(p[1] - token_r), round(2 * token_r), round(2 * token_r))
                nearest = min((math.dist(p, q) for q in near_spaces), default=math.inf)
                midpoint = any(math.dist(p, m) < token_r + 4 for m in midpoints)
                on_names = sum(_overlap(box, b) for b in near_labels)
                fair = nearest > radius and not midpoint and not on_names and _overlap(box, bounds) == box.w * box.h
                # 0: clear of everything; 1: only nearer its own space by less than a token; 2: on a name or
                # the edge, but nearer its own space; 3: on a path's midpoint; 4: nearer another space (the
                # last two only for a first slot no other place gives)
                if fair:
                    tier = 0 if nearest >= radius + token_r else 1
                else:
                    tier = 4 if nearest <= radius else (3 if midpoint else 2)
                cost = abs(radius - ring) * 8 + angle_preference(angle)
                for a, b in near_segments:
                    d = _segment_distance(p, a, b)
                    if d < clear:
                        cost += (clear - d) * 15
                cost += on_names * 20
                # a token of one space never sits on another's
                cost += sum(2 * token_r + 2 - d for d in (math.dist(p, t) for t in near_taken)
                            if d < 2 * token_r + 2) * 60
                # the wounds tag goes on the side away from the space's name: above a token level with or
                # under the centre, below one above it (`tag_above`)
                above = tag_above(p[1], cy)
                tagged = Box(box.x - 6, box.y - (tag_h if above else 0), box.w + 12, box.h + tag_h)
                tag_clear = not any(_overlap(tagged, b.inset(2)) for b in near_labels)
                options.append((tier, cost, p, tag_clear))
        options.sort(key=lambda o: (o[0], o[1]))  # the clearest places first, the cheapest first among them
        chosen: list[tuple[float, float]] = []
        while len(chosen) < count:
            slot = len(chosen)
            fits = [o for o in options if all(math.dist(o[2], c) >= 2 * token_r + 1 for c in chosen)]
            if slot == MONSTER_SLOT:  # its wounds tag too stays off the labels, where a place allows it
                fits = [o for o in fits if o[3] and o[0] <= max(1, fits[0][0])] or fits
            if not fits or (fits[0][0] and slot >= MIN_SLOTS) or (fits[0][0] >= 3 and chosen):
                break
            chosen.append(fits[0][2])
        taken += chosen
        out[k] = tuple((round(x), round(y)) for x, y in chosen)
    return out


def tag_above(y: float, centre_y: float) -> bool:
    """Whether a Monster badge's wounds tag goes above it (the badge is level with its space or lower)."""
    return y >= centre_y - 4


def angle_preference(angle: float) -> float:
    """A small, steady pull towards the top and the sides (under a space is where its name usually goes), so
    of two equally clear places the same one always wins."""
    return 20.0 * (1 + math.sin(angle))  # 0 straight up, 40 straight down


# ---------------------------------------------------------------------------------------------- layout

@cache
def map_layout(version: str) -> MapLayout:
    """The picture's layout of the board of content `version` (image coordinates)."""
    world = world_map(version)
    spaces = {s.id: s for s in world.spaces}
    spread = _spread({k: project(s.lon, s.lat) for k, s in spaces.items()},
                     {k for k, s in spaces.items() if not s.name.isdigit()})
    local = {k: (round(x), round(y)) for k, (x, y) in spread.items()}
    labels = _place_labels(local, spaces)
    places = {}
    for k, (lx, ly) in local.items():
        label = labels.get(k)
        if label is not None:
            label = Label(label.lines, label.x + MAP_BOX.x, label.y + MAP_BOX.y, label.w, label.h)
        x, y = lx + MAP_BOX.x, ly + MAP_BOX.y
        places[k] = SpacePlace(spaces[k], x, y, label, _marks_point(x, y, label))
    lay = MapLayout(version, places, world)
    names = [p.label.box for p in places.values() if p.label is not None] + region_boxes()
    slots = compute_slots({k: p.centre for k, p in places.items()}, path_lines(lay), names, MAP_BOX.inset(4),
                          SLOT_RING, TOKEN_R + 1, tag_h=WOUND_TAG_H)
    return MapLayout(version, {k: replace(p, slots=slots[k]) for k, p in places.items()}, world)


def region_boxes() -> list[Box]:
    """The region names' boxes (picture coordinates)."""
    out = []
    for name, (x, y) in REGION_LABELS:
        w, h = text_width(name, REGION_SIZE, True), REGION_SIZE + 4
        out.append(Box(x - w // 2 + MAP_BOX.x, y - h // 2 + MAP_BOX.y, w, h))
    return out


def path_lines(lay: MapLayout) -> list[tuple[Point, Point]]:
    """Every path as picture segments (two for a path across the Pacific edge)."""
    out = []
    for path in lay.world.paths:
        for (ax, ay), (bx, by) in _path_segments(lay, path.a, path.b):
            out.append(((round(ax) + MAP_BOX.x, round(ay) + MAP_BOX.y), (round(bx) + MAP_BOX.x, round(by) + MAP_BOX.y)))
    return out


def space_centre(version: str, space_id: str) -> Point:
    return map_layout(version).places[space_id].centre


# ---------------------------------------------------------------------------------------------- drawing

def _scaled(points: list[tuple[float, float]], shift: float = 0.0) -> list[tuple[float, float]]:
    return [((x + shift) * SCALE, y * SCALE) for x, y in points]


def _coast(polygon: tuple[LonLat, ...]) -> list[tuple[float, float]]:
    # longitudes are not wrapped here: a polygon crossing the date line stays one piece
    return [(lon_x(lon), lat_y(lat)) for lon, lat in polygon]


def _draw_world(draw: ImageDraw.ImageDraw) -> None:
    w, h = MAP_BOX.w * SCALE, MAP_BOX.h * SCALE
    for lon in range(-150, 181, 30):  # a faint graticule: reads as a map even over open sea
        x = lon_x(lon) * SCALE
        draw.line((x, 0, x, h), fill=GRID, width=SCALE)
    for lat in range(-60, 81, 30):
        y = lat_y(lat) * SCALE
        draw.line((0, y, w, y), fill=GRID, width=SCALE)
    for shift in (-MAP_BOX.w, 0.0, MAP_BOX.w):
        for polygon in LAND:
            draw.polygon(_scaled(_coast(polygon), shift), fill=LAND_FILL, outline=LAND_EDGE, width=SCALE)
        for polygon in LAKES:
            draw.polygon(_scaled(_coast(polygon), shift), fill=OCEAN, outline=LAND_EDGE, width=SCALE)


def _dashes(draw: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], colour: tuple[int, int, int],
            width: int, dash: float, gap: float, dots: bool = False) -> None:
    length = math.dist(a, b)
    if length == 0:
        return
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    t = 0.0
    while t < length:
        if dots:
            cx, cy = a[0] + ux * t, a[1] + uy * t
            r = width / 2 + SCALE
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour)
            t += gap
        else:
            end = min(length, t + dash)
            draw.line((a[0] + ux * t, a[1] + uy * t, a[0] + ux * end, a[1] + uy * end), fill=colour, width=width)
            t = end + gap


def _path_segments(lay: MapLayout, a: str, b: str) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """Segments (map-local, unscaled) of the path a-b: one, or two when it crosses the Pacific edge."""
    pa, pb = lay.places[a], lay.places[b]
    ax, ay = pa.x - MAP_BOX.x, pa.y - MAP_BOX.y
    bx, by = pb.x - MAP_BOX.x, pb.y - MAP_BOX.y
    if abs(bx - ax) <= MAP_BOX.w / 2:
        return [((ax, ay), (bx, by))]
    shift = MAP_BOX.w if bx < ax else -MAP_BOX.w
    return [((ax, ay), (bx + shift, by)), ((ax - shift, ay), (bx, by))]


def _draw_paths(draw: ImageDraw.ImageDraw, lay: MapLayout) -> None:
    order = {"uncharted": 0, "ship": 1, "train": 2}  # trains on top: the solid line is the easiest to follow
    for path in sorted(lay.world.paths, key=lambda p: order.get(p.type, 0)):
        colour = PATH_COLOURS.get(path.type, LABEL_INK)
        for a, b in _path_segments(lay, path.a, path.b):
            sa, sb = (a[0] * SCALE, a[1] * SCALE), (b[0] * SCALE, b[1] * SCALE)
            if path.type == "train":
                draw.line((*sa, *sb), fill=SHAPE_EDGE, width=7 * SCALE)
                draw.line((*sa, *sb), fill=colour, width=4 * SCALE)
            elif path.type == "ship":
                _dashes(draw, sa, sb, colour, 3 * SCALE, 12 * SCALE, 7 * SCALE)
            else:
                _dashes(draw, sa, sb, colour, 3 * SCALE, 0, 9 * SCALE, dots=True)


def shape_points(kind: str, cx: float, cy: float, r: float) -> list[tuple[float, float]] | None:
    """The outline of a wilderness (diamond) or sea (square) space; None for a city (a circle)."""
    if kind == "wilderness":
        k = r * 1.22
        return [(cx, cy - k), (cx + k, cy), (cx, cy + k), (cx - k, cy)]
    if kind == "sea":
        k = r * 0.9
        return [(cx - k, cy - k), (cx + k, cy - k), (cx + k, cy + k), (cx - k, cy + k)]
    return None


def draw_shape(draw: ImageDraw.ImageDraw, kind: str, cx: float, cy: float, r: float, edge: float) -> None:
    fill = SPACE_FILL.get(kind, SPACE_FILL["city"])
    points = shape_points(kind, cx, cy, r)
    if points is None:
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=SHAPE_EDGE, width=round(edge))
    elif kind == "sea":
        draw.rounded_rectangle((points[0], points[2]), radius=r * 0.3, fill=fill, outline=SHAPE_EDGE,
                               width=round(edge))
    else:
        draw.polygon(points, fill=fill, outline=SHAPE_EDGE, width=round(edge))


def _draw_spaces(draw: ImageDraw.ImageDraw, lay: MapLayout) -> None:
    for place in lay.places.values():
        cx, cy = (place.x - MAP_BOX.x) * SCALE, (place.y - MAP_BOX.y) * SCALE
        draw_shape(draw, place.space.type, cx, cy, SHAPE_R * SCALE, 2.5 * SCALE)


def _draw_texts(image: Image.Image, lay: MapLayout) -> None:
    """Region names, then each space's number or name, at 1:1 (text is sharp from the glyph cache)."""
    for name, (x, y) in REGION_LABELS:
        draw_text(image, (x, y), name, REGION_SIZE, REGION_INK, bold=True, anchor="mm")
    for place in lay.places.values():
        x, y = place.x - MAP_BOX.x, place.y - MAP_BOX.y
        if place.label is None:
            draw_text(image, (x, y + 1), place.space.name, NUMBER_SIZE, SHAPE_INK, bold=True, anchor="mm")
            continue
        label = place.label
        ly = label.y - MAP_BOX.y
        for line in label.lines:
            draw_text(image, (label.x - MAP_BOX.x, ly), line, LABEL_SIZE, LABEL_INK, bold=True, anchor="mt",
                      stroke=3, stroke_fill=LABEL_HALO)
            ly += LABEL_SIZE + 3


@cache
def map_image(version: str) -> Image.Image:
    """The board without tokens, MAP_BOX-sized (callers paste it; never draw on it: it is shared)."""
    lay = map_layout(version)
    big = Image.new("RGB", (MAP_BOX.w * SCALE, MAP_BOX.h * SCALE), OCEAN)
    draw = ImageDraw.Draw(big)
    _draw_world(draw)
    _draw_paths(draw, lay)
    _draw_spaces(draw, lay)
    image = big.resize((MAP_BOX.w, MAP_BOX.h), Image.Resampling.LANCZOS)
    _draw_texts(image, lay)
    return image
