"""The Arkham Horror 3e town map: tiles, streets and borders (drawn once per map and cached), then what changes
each phase: anomalies, clues, unstable spaces, doom, investigators and monsters.

Markers on a space flow left to right under its name: its doom, then each investigator followed by the
monsters engaged with them, then the other monsters (ready before exhausted). A space with more markers than
room shows as many as fit and a "+N" chip.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.games.arkham3.render.layout import MapLayout, MapSignature, MapSpace, compute_layout, signature
from bot.games.arkham3.render.plate import Plate
from bot.games.arkham3.render.style import (
    ANOMALY,
    BADGE,
    BORDER,
    CLUE,
    DAMAGE,
    DARK_INK,
    DOOM,
    EPIC,
    EXHAUSTED,
    EXHAUSTED_INK,
    KEY_H,
    MAP_BG,
    MONSTER,
    MONSTER_EDGE,
    NAME,
    PLATE,
    PLATE_EDGE,
    TEXT,
    TILE,
    TILE_EDGE,
    TILE_HEAD,
    TITLE,
    TOKEN,
    TOKEN_GAP,
    TOKEN_SIZES,
    UNSTABLE,
    WHITE,
    layout_box,
    seat_colour,
    street_edge,
    street_fill,
)
from bot.render.kit import (
    SUPERSAMPLE,
    Box,
    Color,
    Painter,
    Theme,
    draw_text,
    ellipsize,
    fit_size,
    icon,
    paste_icon,
    text_width,
    wrap,
)
from engine.arkham3.view import ArkhamView, MonsterView

#: the map's shapes are drawn this many times larger and scaled down (smooth borders and corners)
SCALE = 2
MAX_PIPS = 8  # damage pips on a monster chip (two rows of four); more damage than that shows the first eight


# ================================================================================================ reading

def map_signature(view: ArkhamView) -> MapSignature:
    spaces = [MapSpace(s.id, s.name, s.neighborhood, s.street, tuple(s.adjacent)) for s in view.spaces]
    tiles = [(n.id, n.name) for n in view.neighborhoods]
    return signature(tiles, spaces, layout_box(len(view.investigators)))


def layout_of(view: ArkhamView) -> MapLayout:
    return compute_layout(map_signature(view))


def initials(name: str) -> str:
    """Two letters for a name: the first and last words' initials ("Inês Carvalho" -> "IC", "Rat-Thing" -> "RT",
    "Ghoul" -> "Gh"). A leading "The" is skipped."""
    words = [w for w in name.replace("-", " ").split() if w[:1].isalnum()]
    if len(words) > 1 and words[0].lower() == "the":
        words = words[1:]
    if not words:
        return "?"
    if len(words) == 1:
        return words[0][:2].capitalize()
    return (words[0][0] + words[-1][0]).upper()


# ================================================================================================ the base

def _draw_shapes(lay: MapLayout, sig: MapSignature) -> Image.Image:
    """Tiles, borders and plates at SCALE, scaled down to the map's size."""
    box = _panel(lay)
    big = Image.new("RGB", (box.w * SCALE, box.h * SCALE), Theme.BG)
    draw = ImageDraw.Draw(big)

    def s(b: Box) -> tuple[int, int, int, int]:
        return ((b.x - box.x) * SCALE, (b.y - box.y) * SCALE, (b.right - box.x) * SCALE - 1,
                (b.bottom - box.y) * SCALE - 1)

    def p(xy: tuple[float, float]) -> tuple[float, float]:
        return (xy[0] - box.x) * SCALE, (xy[1] - box.y) * SCALE

    draw.rounded_rectangle((0, 0, box.w * SCALE - 1, box.h * SCALE - 1), radius=14 * SCALE, fill=MAP_BG)
    for tbox in lay.tiles.values():
        draw.rounded_rectangle(s(tbox), radius=16 * SCALE, fill=TILE)
    tile_of = {sp.id: sp.tile for sp in sig.spaces}
    for a, b in lay.links:
        same = tile_of.get(a) is not None and tile_of.get(a) == tile_of.get(b)
        draw.line([p(pt) for pt in lay.routes[(a, b)]], fill=BORDER, width=(3 if same else 5) * SCALE,
                  joint="curve")
    for tid, tbox in lay.tiles.items():  # headers and edges over the borders: a border passes under them
        head = lay.heads[tid]
        draw.rounded_rectangle(s(head), radius=16 * SCALE, fill=TILE_HEAD)
        draw.rectangle(s(Box(head.x, head.y + head.h // 2, head.w, head.h - head.h // 2)), fill=TILE_HEAD)
        draw.rounded_rectangle(s(tbox), radius=16 * SCALE, outline=TILE_EDGE, width=2 * SCALE)
    streets = {sp.id: sp.street for sp in sig.spaces if sp.tile is None or sp.tile not in lay.tiles}
    for sid, plate in lay.plates.items():
        if sid in streets:
            draw.rounded_rectangle(s(plate.box), radius=22 * SCALE, fill=street_fill(streets[sid]),
                                   outline=street_edge(streets[sid]), width=3 * SCALE)
        else:
            draw.rounded_rectangle(s(plate.box), radius=10 * SCALE, fill=PLATE, outline=PLATE_EDGE, width=2 * SCALE)
    return big.reduce(SCALE)


def _panel(lay: MapLayout) -> Box:
    """The map's panel: the layout's box and the key strip under it."""
    return Box(lay.box.x, lay.box.y, lay.box.w, lay.box.h + KEY_H)


@lru_cache(maxsize=8)
def base_map(sig: MapSignature) -> Image.Image:
    """The map without anything that changes during a game, panel-sized (shared: paste it, never draw on it)."""
    lay = compute_layout(sig)
    image = _draw_shapes(lay, sig)
    dx, dy = -lay.box.x, -lay.box.y
    _draw_key(image, ImageDraw.Draw(image), Box(EDGE_X, lay.box.h, lay.box.w - 2 * EDGE_X, KEY_H - 6))
    names = dict(sig.tiles)
    for tid, head in lay.heads.items():
        _draw_tile_name(image, Box(head.x + dx + 12, head.y + dy, head.w - 16 - 2 * (BADGE + BADGE_GAP), head.h),
                        names[tid])
    for plate in lay.plates.values():
        _draw_name(image, plate, dx, dy)
    return image


def _draw_tile_name(image: Image.Image, box: Box, name: str) -> None:
    """A neighborhood's name on one line when it fits at 22 or 20 px, else on two lines at 18."""
    size = fit_size(name, box.w, (TITLE, TITLE - 2), bold=True)
    lines = [name]
    if text_width(name, size, True) > box.w:
        size, lines = TEXT, wrap(name, TEXT, box.w, bold=True, max_lines=2)
    y = box.y + (box.h - len(lines) * (size + 2)) // 2
    for line in lines:
        draw_text(image, (box.x, y), ellipsize(line, size, box.w, bold=True), size, Theme.TEXT, bold=True)
        y += size + 2


def _draw_name(image: Image.Image, plate: Plate, dx: int, dy: int) -> None:
    if plate.side:
        x = plate.box.x + 7 + dx
        y = plate.box.y + (plate.box.h - len(plate.lines) * (plate.name_size + 2)) // 2 + dy
        for line in plate.lines:
            draw_text(image, (x, y), line, plate.name_size, Theme.TEXT, bold=True)
            y += plate.name_size + 2
        return
    x = plate.box.x + plate.box.w // 2 + dx
    y = plate.box.y + 5 + dy
    for line in plate.lines:
        draw_text(image, (x, y), line, plate.name_size, Theme.TEXT, bold=True, anchor="mt")
        y += plate.name_size + 2


# ================================================================================================ markers

@dataclass(frozen=True)
class Marker:
    """One marker on a space: a doom count, an investigator, a monster chip, or "+N" for those that do not fit."""

    kind: str  # seal | doom | investigator | monster | more
    colour: Color
    label: str
    edge: Color | None = None
    inner: Color | None = None  # a second ring (an epic monster engaged with someone)
    pips: int = 0
    active: bool = False  # the investigator taking their turn


def _disc_painter(fill: Color, edge: Color | None, ring: int) -> Painter:
    def paint(canvas: Image.Image) -> None:
        d = ImageDraw.Draw(canvas)
        n = canvas.width
        w = ring * SUPERSAMPLE
        d.ellipse((0, 0, n - 1, n - 1), fill=edge or fill)
        if edge is not None:
            d.ellipse((w, w, n - 1 - w, n - 1 - w), fill=fill)
    return paint


def _chip_painter(fill: Color, edge: Color, width: int, inner: Color | None) -> Painter:
    def paint(canvas: Image.Image) -> None:
        d = ImageDraw.Draw(canvas)
        n = canvas.width
        w = width * SUPERSAMPLE
        d.rounded_rectangle((0, 0, n - 1, n - 1), radius=n // 5, fill=edge)
        if inner is not None:
            d.rounded_rectangle((w, w, n - 1 - w, n - 1 - w), radius=n // 6, fill=inner)
            w += 3 * SUPERSAMPLE
        d.rounded_rectangle((w, w, n - 1 - w, n - 1 - w), radius=n // 6, fill=fill)
    return paint


def _disc(fill: Color, edge: Color | None = None, ring: int = 3, size: int = TOKEN) -> Image.Image:
    return icon(("ah3-disc", fill, edge, ring), size, _disc_painter(fill, edge, ring))


def _chip(fill: Color, edge: Color, width: int, inner: Color | None, size: int = TOKEN) -> Image.Image:
    return icon(("ah3-chip", fill, edge, width, inner), size, _chip_painter(fill, edge, width, inner))


def draw_marker(image: Image.Image, draw: ImageDraw.ImageDraw, m: Marker, x: int, y: int, size: int = TOKEN) -> None:
    """One marker with its top-left corner at (x, y)."""
    cx, cy = x + size // 2, y + size // 2
    if m.kind == "doom":
        paste_icon(image, _disc(DOOM, DARK_INK, 2, size=size), (x, y))
        draw_text(image, (cx, cy), m.label, NAME, WHITE, bold=True, anchor="mm")
    elif m.kind == "seal":  # a scenario's seal: no doom is placed here while it holds
        paste_icon(image, _disc(Theme.GOOD, DARK_INK, 2, size=size), (x, y))
        draw_text(image, (cx, cy), m.label, NAME, DARK_INK, bold=True, anchor="mm")
    elif m.kind == "investigator":
        paste_icon(image, _disc(m.colour, WHITE if m.active else DARK_INK, 3 if m.active else 2, size=size), (x, y))
        draw_text(image, (cx, cy), m.label, TEXT, DARK_INK, bold=True, anchor="mm")
    elif m.kind == "monster":
        epic_or_engaged = m.edge not in (MONSTER_EDGE, EXHAUSTED_INK)
        paste_icon(image, _chip(m.colour, m.edge or MONSTER_EDGE, 3 if epic_or_engaged else 2, m.inner, size), (x, y))
        ink = EXHAUSTED_INK if m.colour == EXHAUSTED else WHITE
        label_y = y + size * 2 // 5 if m.pips else cy
        draw_text(image, (cx, label_y), m.label, fit_size(m.label, size - 8, (TEXT, TEXT - 2), bold=True), ink,
                  bold=True, anchor="mm")
        if m.pips:
            _pips(draw, cx, y + size - 9 - (7 if m.pips > 4 else 0), m.pips)
    else:
        paste_icon(image, _disc(Theme.PANEL, Theme.MUTED, 2, size=size), (x, y))
        draw_text(image, (cx, cy), m.label, TEXT, Theme.TEXT, bold=True, anchor="mm")


def _pips(draw: ImageDraw.ImageDraw, cx: int, y: int, n: int) -> None:
    """Damage as red dots, four to a row, centred on cx."""
    d, step = 6, 7
    for row in range((min(n, MAX_PIPS) + 3) // 4):
        k = min(4, n - 4 * row)
        x0 = cx - (k * step - 1) // 2
        for i in range(k):
            x, top = x0 + i * step, y + row * step
            draw.ellipse((x, top, x + d, top + d), fill=DAMAGE, outline=DARK_INK)


def monster_marker(m: MonsterView) -> Marker:
    """A monster's chip: dark when ready or engaged, grey when exhausted; edged in the engaged seat's colour,
    or gold for an epic monster (with an inner ring in the engaged seat's colour); a pip per damage."""
    exhausted = m.status == "exhausted"
    engaged = list(m.engaged)
    fill = EXHAUSTED if exhausted else MONSTER
    edge: Color = EXHAUSTED_INK if exhausted else MONSTER_EDGE
    inner: Color | None = None
    if m.epic:
        edge = EPIC
        inner = seat_colour(engaged[0]) if engaged else None
    elif engaged:
        edge = seat_colour(engaged[0])
    return Marker("monster", fill, initials(m.name), edge, inner, pips=m.damage)


def markers_by_space(view: ArkhamView) -> dict[str, list[Marker]]:
    """Every space's markers in drawing order."""
    out: dict[str, list[Marker]] = {s.id: [] for s in view.spaces}
    for s in view.spaces:
        if s.sealed:
            out[s.id].append(Marker("seal", Theme.GOOD, "S"))
        if s.doom > 0:
            out[s.id].append(Marker("doom", DOOM, str(s.doom)))
    placed: set[int] = set()
    by_space: dict[str, list[MonsterView]] = {}
    for m in view.monsters:
        if m.space in out:
            by_space.setdefault(m.space, []).append(m)
    for inv in view.investigators:
        if inv.space not in out or inv.name is None:
            continue
        space = inv.space
        assert space is not None
        out[space].append(Marker("investigator", seat_colour(inv.seat), initials(inv.name),
                                 active=view.turn == inv.seat))
        for m in by_space.get(space, []):
            if m.engaged and m.engaged[0] == inv.seat and m.uid not in placed:
                out[space].append(monster_marker(m))
                placed.add(m.uid)
    for space, monsters in by_space.items():
        rest = [m for m in monsters if m.uid not in placed]
        rest.sort(key=lambda m: (m.status == "exhausted", m.uid))
        out[space] += [monster_marker(m) for m in rest]
    return out


def _fit(area: Box, n: int, largest: int) -> tuple[int, int, int]:
    """(size, per row, rows) for n markers in `area`: the largest size that shows them all, else the size that
    shows the most."""
    best = (largest, 1, 1)
    for size in [t for t in TOKEN_SIZES if t <= largest] or [largest]:
        per_row = max(1, (area.w + TOKEN_GAP) // (size + TOKEN_GAP))
        rows = max(1, (area.h + TOKEN_GAP) // (size + TOKEN_GAP))
        if per_row * rows >= n:
            return size, per_row, rows
        if per_row * rows > best[1] * best[2]:
            best = (size, per_row, rows)
    return best


def _flow(plate: Plate, markers: list[Marker]) -> list[tuple[Marker, int, int, int]]:
    """(marker, x, y, size) in a plate's marker area, centred row by row; "+N" when they overflow."""
    area = plate.tokens
    size, per_row, rows = _fit(area, len(markers), plate.token)
    room = per_row * rows
    shown = markers if len(markers) <= room else [*markers[: room - 1],
                                                   Marker("more", Theme.PANEL, f"+{len(markers) - room + 1}")]
    step = size + TOKEN_GAP
    used = -(-len(shown) // per_row)
    top = area.y + (area.h - (used * step - TOKEN_GAP)) // 2
    out = []
    for i, m in enumerate(shown):
        r, c = divmod(i, per_row)
        in_row = min(per_row, len(shown) - r * per_row)
        x0 = area.x + (area.w - (in_row * step - TOKEN_GAP)) // 2
        out.append((m, x0 + c * step, top + r * step, size))
    return out


def marker_positions(view: ArkhamView) -> dict[str, list[tuple[Marker, int, int, int]]]:
    lay = layout_of(view)
    return {sid: _flow(lay.plates[sid], ms) for sid, ms in markers_by_space(view).items() if sid in lay.plates}


# ================================================================================================ the key

KEY_CHIP = 30
EDGE_X = 14


def _draw_key(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box) -> None:
    """One line under the map: what doom, monsters (ready, exhausted, engaged, epic), an anomaly, the unstable
    edge and the street colours look like."""
    y = box.y + (box.h - KEY_CHIP) // 2
    x = box.x
    entries: list[tuple[Marker | str, str]] = [
        (Marker("doom", DOOM, "1"), "doom"), (Marker("monster", MONSTER, "Mo", MONSTER_EDGE), "monster"),
        (Marker("monster", EXHAUSTED, "Mo", EXHAUSTED_INK), "exhausted"),
        (Marker("monster", MONSTER, "Mo", seat_colour(0)), "engaged"),
        (Marker("monster", MONSTER, "Mo", EPIC), "epic"), ("anomaly", "anomaly"), ("unstable", "unstable"),
        ("residential", "residential"), ("bridge", "bridge"), ("scenic", "scenic")]
    for what, label in entries:
        if isinstance(what, Marker):
            draw_marker(image, draw, what, x, y, KEY_CHIP)
            x += KEY_CHIP + 5
        elif what == "anomaly":
            paste_icon(image, anomaly_icon(KEY_CHIP), (x, y))
            x += KEY_CHIP + 5
        else:
            fill = None if what == "unstable" else street_fill(what)
            edge = UNSTABLE if what == "unstable" else street_edge(what)
            draw.rounded_rectangle((x, y + 3, x + 30, y + KEY_CHIP - 3), radius=8, fill=fill, outline=edge, width=3)
            x += 36
        draw_text(image, (x, y + KEY_CHIP // 2), label, TEXT, Theme.MUTED, anchor="lm")
        x += text_width(label, TEXT) + 12


# ================================================================================================ drawing

BADGE_GAP = 6


def badge_xy(lay: MapLayout, tile: str, slot: int) -> tuple[int, int]:
    """The top-left corner of a neighborhood's header marker: slot 0 (rightmost) its clues, slot 1 its anomaly."""
    head = lay.heads[tile]
    return head.right - 8 - BADGE - slot * (BADGE + BADGE_GAP), head.y + (head.h - BADGE) // 2


def _vortex(canvas: Image.Image) -> None:
    d = ImageDraw.Draw(canvas)
    n = canvas.width
    w = 2 * SUPERSAMPLE
    d.ellipse((0, 0, n - 1, n - 1), fill=DARK_INK)
    d.ellipse((w, w, n - 1 - w, n - 1 - w), fill=ANOMALY)
    c = n / 2
    for r, start, width in ((0.34, 200, 3), (0.22, 20, 3)):  # two arcs of a spiral, opposite ways round
        rr = r * n
        d.arc((c - rr, c - rr, c + rr, c + rr), start, start + 250, fill=WHITE, width=width * SUPERSAMPLE)
    d.ellipse((c - 2.5 * SUPERSAMPLE, c - 2.5 * SUPERSAMPLE, c + 2.5 * SUPERSAMPLE, c + 2.5 * SUPERSAMPLE), fill=WHITE)


def anomaly_icon(size: int) -> Image.Image:
    return icon("ah3-anomaly", size, _vortex)


def _badge(image: Image.Image, x: int, y: int, fill: Color, label: str, ink: Color) -> None:
    paste_icon(image, _disc(fill, DARK_INK, 2, size=BADGE), (x, y))
    draw_text(image, (x + BADGE // 2, y + BADGE // 2), label, NAME, ink, bold=True, anchor="mm")


def draw_map(image: Image.Image, draw: ImageDraw.ImageDraw, view: ArkhamView) -> MapLayout:
    """The cached base, then this phase's anomalies, clues, unstable spaces and markers."""
    sig = map_signature(view)
    lay = compute_layout(sig)
    image.paste(base_map(sig), (lay.box.x, lay.box.y))
    for n in view.neighborhoods:
        head = lay.heads.get(n.id)
        tile = lay.tiles.get(n.id)
        if head is None or tile is None:
            continue
        if n.clues > 0:
            x, y = badge_xy(lay, n.id, 0)
            _badge(image, x, y, CLUE, str(n.clues), DARK_INK)
        if n.anomaly:
            draw.rounded_rectangle(tile.rect(), radius=16, outline=ANOMALY, width=4)
            paste_icon(image, anomaly_icon(BADGE), badge_xy(lay, n.id, 1))
    in_tiles = {s.id for s in view.spaces if s.neighborhood}
    for sid in view.unstable:
        plate = lay.plates.get(sid)
        if plate is not None:  # the same corners as the plate: a neighborhood space's, or a street's rounder ones
            draw.rounded_rectangle(plate.box.rect(), radius=10 if sid in in_tiles else 22, outline=UNSTABLE, width=4)
    for placed in marker_positions(view).values():
        for m, x, y, size in placed:
            draw_marker(image, draw, m, x, y, size)
    return lay
