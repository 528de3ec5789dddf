"""Arkham Horror 3e's channel board: the town laid out for the size Discord shows it (see `bot.render.inline`).

    +--------------------------------------------------------------------------+
    | Scenario                             [Doom 5/7][Clues 3/6][Map doom 11]   |
    | Round 3 · Monster phase · Alice                                          |
    +------------------------+------------------------+------------------------+
    | Neighborhood   (2) (@) | Neighborhood           | Neighborhood           |
    |  Space name   ● ◉ ▣    |  Space name            |  ...                   |
    |  Space name            |  ...                   |                        |
    +------------------------+------------------------+------------------------+
    | Streets: Shore Path ◉ · Coast Road · ...                                 |
    +--------------------------------------------------------------------------+
    | investigator: HP, Sanity, $, clues, where                    (one each)  |
    +--------------------------------------------------------------------------+

Each neighborhood is a box in the same place as on the full board's map (same rows and columns), listing its
spaces with what is on them: doom, investigators (their initials), monsters (theirs). Borders between spaces,
the codex, the cup and the item display stay in the full board and the readers (`/ah map`, `/ah sheet`).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache, partial
from typing import Any

from PIL import Image, ImageDraw

from bot.games.arkham3.render.column import PHASES, _next_threshold
from bot.games.arkham3.render.map import Marker, _chip, _disc, anomaly_icon, initials, layout_of, markers_by_space
from bot.games.arkham3.render.style import (
    ANOMALY,
    CLUE,
    DOOM,
    EXHAUSTED,
    EXHAUSTED_INK,
    MONEY,
    MONSTER_EDGE,
    PLATE,
    TAG_DEFEATED,
    TAG_DELAYED,
    TAG_LEAD,
    TILE,
    TILE_EDGE,
    TILE_HEAD,
    UNSTABLE,
    _backgrounds,
    _extras,
    _inks,
    seat_colour,
    street_edge,
    street_fill,
)
from bot.render import inline
from bot.render.inline import GAP, MARGIN, SMALL, TEXT, WIDTH, Colours, Seat, Stat, Tile
from bot.render.kit import (
    PARTS,
    Box,
    Color,
    PictureCache,
    Surface,
    Theme,
    draw_text,
    ellipsize,
    mix,
    panel,
    paste_icon,
    text_width,
)
from bot.render.scene import Scene
from engine.arkham3.view import ArkhamView, InvestigatorView, SpaceView

__all__ = ["WIDTH", "render_inline", "render_inline_image", "space_rows"]

MARK = 44  # a marker: doom, an investigator, a monster
MARK_GAP = 4
ROW_H = MARK + 6
HEAD_H = 48
STREET_H = MARK + 12

_pictures = PictureCache(16)


@cache
def _palette() -> Image.Image:
    colours = Colours(surfaces=_backgrounds(), inks=_inks(), others=_extras())
    return inline.palette_of(colours, chips=[Theme.STAMINA, Theme.SANITY, MONEY, CLUE, DOOM, EXHAUSTED, PLATE])


# ================================================================================================ layout

def _grid(view: ArkhamView) -> tuple[list[list[str]], int]:
    """The neighborhoods in rows and columns as the full board's map places them; and the column count."""
    full = layout_of(view).tiles
    ids = [n.id for n in view.neighborhoods if n.id in full]
    if not ids:
        return [], 1
    ys = sorted({full[t].y for t in ids})
    xs = sorted({full[t].x for t in ids})
    rows: list[list[str]] = [[] for _ in ys]
    for t in sorted(ids, key=lambda t: (full[t].y, full[t].x)):
        rows[ys.index(full[t].y)].append(t)
    return rows, len(xs)


def _spaces_of(view: ArkhamView, tile: str | None) -> list[SpaceView]:
    return [s for s in view.spaces if s.neighborhood == tile]


def space_rows(view: ArkhamView | Mapping[str, Any]) -> dict[str, Box]:
    """Each neighborhood space's row in the picture (tests look at its pixels)."""
    return _layout(_as_view(view))[1]


Layout = tuple[dict[str, Box], dict[str, Box], Box, int]


def _layout(view: ArkhamView, marks: dict[str, list[Marker]] | None = None) -> Layout:
    """(neighborhood boxes, space rows, the streets' strip, the bottom of the town); `marks` are the markers by
    space, when the caller has them."""
    rows, cols = _grid(view)
    top = MARGIN + inline.HEADER_H + GAP
    area_w = WIDTH - 2 * MARGIN
    tiles: dict[str, Box] = {}
    spaces: dict[str, Box] = {}
    y = top
    col_w = (area_w - (cols - 1) * GAP) // max(1, cols)
    full = layout_of(view).tiles
    xs = sorted({full[t].x for row in rows for t in row})
    for row in rows:
        h = HEAD_H + max(len(_spaces_of(view, t)) for t in row) * ROW_H + 8
        for t in row:
            c = xs.index(full[t].x)
            box = Box(MARGIN + c * (col_w + GAP), y, col_w, h)
            tiles[t] = box
            for i, s in enumerate(_spaces_of(view, t)):
                spaces[s.id] = Box(box.x + 8, box.y + HEAD_H + i * ROW_H, box.w - 16, ROW_H - 4)
        y += h + GAP
    streets = _spaces_of(view, None)
    street_rows = _street_rows(view, streets, area_w, markers_by_space(view) if marks is None else marks)
    strip = Box(MARGIN, y, area_w, len(street_rows) * (STREET_H + 6) + 6) if streets else Box(MARGIN, y, area_w, 0)
    bottom = strip.bottom if streets else y - GAP
    return tiles, spaces, strip, bottom


def _street_width(view: ArkhamView, space: SpaceView, marks: list[Marker]) -> int:
    return text_width(_name(space.name), SMALL, True) + 24 + _marks_w(marks)


def _street_rows(view: ArkhamView, streets: list[SpaceView], width: int,
                 marks: dict[str, list[Marker]]) -> list[list[SpaceView]]:
    rows: list[list[SpaceView]] = [[]]
    x = 8
    for s in streets:
        w = _street_width(view, s, marks.get(s.id, []))
        if rows[-1] and x + w > width - 8:
            rows.append([])
            x = 8
        rows[-1].append(s)
        x += w + 8
    return rows


def _name(name: str) -> str:
    return inline.short_name(name)


# ================================================================================================ drawing

def _mark_w(m: Marker) -> int:
    return inline.disc_width(m.label, MARK) if m.kind == "investigator" else MARK


def _marks_w(marks: list[Marker]) -> int:
    return sum(_mark_w(m) + MARK_GAP for m in marks)


def _draw_marks(image: Image.Image, x: int, y: int, marks: list[Marker], right: int) -> int:
    """Markers left to right from (x, y); "+N" when the rest do not fit. Returns the x after them."""
    for i, m in enumerate(marks):
        w = _mark_w(m)
        if x + w > right or (i < len(marks) - 1 and x + w + MARK_GAP + MARK > right):
            rest = len(marks) - i
            paste_icon(image, _disc(Theme.PANEL, Theme.MUTED, 2, size=MARK), (x, y))
            draw_text(image, (x + MARK // 2, y + MARK // 2 + 1), f"+{rest}", SMALL, Theme.TEXT, bold=True,
                      anchor="mm")
            return x + MARK + MARK_GAP
        _draw_mark(image, ImageDraw.Draw(image), x, y, m, w)
        x += w + MARK_GAP
    return x


def _draw_mark(image: Image.Image, draw: ImageDraw.ImageDraw, x: int, y: int, m: Marker, w: int) -> None:
    cx, cy = x + w // 2, y + MARK // 2 + 1
    if m.kind in ("doom", "seal"):
        fill, ink = (DOOM, inline.WHITE) if m.kind == "doom" else (Theme.GOOD, inline.DARK_INK)
        paste_icon(image, _disc(fill, inline.DARK_INK, 2, size=MARK), (x, y))
        draw_text(image, (cx, cy), m.label, SMALL, ink, bold=True, anchor="mm")
    elif m.kind == "investigator":
        edge = inline.WHITE if m.active else inline.DARK_INK
        if w == MARK:
            paste_icon(image, _disc(m.colour, edge, 3 if m.active else 2, size=MARK), (x, y))
        else:  # initials wider than the disc: an oval
            draw.ellipse((x, y, x + w - 1, y + MARK - 1), fill=m.colour, outline=edge, width=3 if m.active else 2)
        draw_text(image, (cx, cy), m.label, SMALL, inline.DARK_INK, bold=True, anchor="mm")
    else:
        edge = m.edge or MONSTER_EDGE
        paste_icon(image, _chip(m.colour, edge, 3 if edge not in (MONSTER_EDGE, EXHAUSTED_INK) else 2, m.inner,
                                MARK), (x, y))
        ink = EXHAUSTED_INK if m.colour == EXHAUSTED else inline.WHITE
        draw_text(image, (cx, cy), m.label, SMALL, ink, bold=True, anchor="mm")


def _draw_town(image: Surface, draw: ImageDraw.ImageDraw, view: ArkhamView, layout: Layout,
               marks: dict[str, list[Marker]]) -> None:
    tiles, rows, strip, _ = layout
    unstable = set(view.unstable)
    by_id = {n.id: n for n in view.neighborhoods}
    for t, box in tiles.items():
        # a neighborhood is pasted from kept parts, its tile and each space's row, each kept by what it
        # shows: a marker that moves redraws the two rows it leaves and reaches, not the tiles
        n = by_id[t]
        PARTS.paste(image, box, ("arkham neighborhood", n.name, n.clues, n.anomaly), Theme.BG,
                    partial(_draw_neighborhood, name=n.name, clues=n.clues, anomaly=n.anomaly))
        for s in _spaces_of(view, t):
            if s.id not in rows:
                continue
            here = tuple(marks.get(s.id, []))
            PARTS.paste(image, rows[s.id], ("arkham space row", s.name, s.id in unstable, here), TILE,
                        partial(_draw_space_row, name=s.name, shaky=s.id in unstable, marks=here))
    streets = _spaces_of(view, None)
    if not streets:
        return
    lines = tuple(tuple((s.name, s.street, s.id in unstable, tuple(marks.get(s.id, []))) for s in line)
                  for line in _street_rows(view, streets, strip.w, marks))
    PARTS.paste(image, strip, ("arkham streets", lines), Theme.BG, partial(_draw_streets, lines=lines))


def _draw_neighborhood(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, name: str, clues: int,
                       anomaly: bool) -> None:
    """A neighborhood's tile in `box` with its head (name, clues, anomaly); its spaces' rows go on it."""
    panel(draw, box, TILE, outline=ANOMALY if anomaly else TILE_EDGE, width=4 if anomaly else 2, radius=12)
    head = Box(box.x + 2, box.y + 2, box.w - 4, HEAD_H - 6)
    draw.rounded_rectangle(head.rect(), radius=10, fill=TILE_HEAD)
    right = head.right - 6
    if clues:
        r = inline.draw_count(image, draw, (right - 20, head.y + head.h // 2), clues, CLUE, inline.DARK_INK,
                              size=SMALL)
        right = r.x - 6
    if anomaly:
        paste_icon(image, anomaly_icon(34), (right - 34, head.y + (head.h - 34) // 2))
        right -= 40
    draw_text(image, (head.x + 10, head.y + head.h // 2 + 1), ellipsize(name, TEXT, right - head.x - 14, True),
              TEXT, Theme.TEXT, bold=True, anchor="lm")


def _draw_space_row(image: Image.Image, draw: ImageDraw.ImageDraw, row: Box, name: str, shaky: bool,
                    marks: tuple[Marker, ...]) -> None:
    """A neighborhood space's row on its tile: its name, its markers, and an outline when it is unstable."""
    here = list(marks)
    room = row.w - _marks_w(here) - 12
    room = max(room, row.w // 2)
    ink = UNSTABLE if shaky else Theme.TEXT
    if shaky:
        draw.rounded_rectangle(row.rect(), radius=8, outline=UNSTABLE, width=3)
    label = ellipsize(_name(name), SMALL, room - 8, True)
    draw_text(image, (row.x + 8, row.y + row.h // 2 + 1), label, SMALL, ink, bold=True, anchor="lm")
    x = max(row.x + 8 + text_width(label, SMALL, True) + 10, row.right - _marks_w(here) - 4)
    _draw_marks(image, x, row.y + (row.h - MARK) // 2, here, row.right - 4)


def _draw_streets(image: Image.Image, draw: ImageDraw.ImageDraw, strip: Box,
                  lines: tuple[tuple[tuple[str, str | None, bool, tuple[Marker, ...]], ...], ...]) -> None:
    """The streets' strip: a plate for each street space (name, street, unstable, markers), row by row."""
    panel(draw, strip, Theme.PANEL, outline=Theme.PANEL_EDGE, radius=12)
    y = strip.y + 6
    for line in lines:
        x = strip.x + 8
        for name, street, shaky, here_marks in line:
            here = list(here_marks)
            w = text_width(_name(name), SMALL, True) + 24 + _marks_w(here)
            plate = Box(x, y, w, STREET_H)
            edge = UNSTABLE if shaky else street_edge(street)
            draw.rounded_rectangle(plate.rect(), radius=STREET_H // 2, fill=street_fill(street), outline=edge,
                                   width=3)
            draw_text(image, (x + 12, y + STREET_H // 2 + 1), _name(name), SMALL, Theme.TEXT, bold=True,
                      anchor="lm")
            mx = x + 12 + text_width(_name(name), SMALL, True) + 8
            _draw_marks(image, mx, y + (STREET_H - MARK) // 2, here, plate.right)
            x += w + 8
        y += STREET_H + 6


def _where(view: ArkhamView, inv: InvestigatorView) -> str:
    space = next((s for s in view.spaces if s.id == inv.space), None)
    return _name(space.name) if space is not None else ""


def _seat(view: ArkhamView, inv: InvestigatorView) -> Seat:
    out = inv.name is None or inv.status == "out"
    tags: list[tuple[str, Color]] = []
    if inv.seat == view.turn and not view.over:
        tags.append(("Turn", inline.TURN))
    if inv.seat == view.leader:
        tags.append(("Lead", TAG_LEAD))
    if inv.delayed:
        tags.append(("Delayed", TAG_DELAYED))
    if out:
        tags.append(((inv.lost[-1].capitalize() if inv.lost else "Out"), TAG_DEFEATED))
        return Seat(seat_colour(inv.seat), inv.name or inv.player, inv.player, (), line=f"{inv.player}: no "
                    "investigator now", tags=tuple(tags), out=True, mark=initials(inv.name or inv.player))
    stats = (Stat("HP", f"{inv.health - inv.damage}/{inv.health}", Theme.STAMINA),
             Stat("SAN", f"{inv.sanity - inv.horror}/{inv.sanity}", Theme.SANITY),
             Stat("", f"${inv.money}", MONEY, inline.DARK_INK),
             Stat("Clues", str(inv.clues), CLUE, inline.DARK_INK))
    assert inv.name is not None
    return Seat(seat_colour(inv.seat), inv.name, inv.player, stats, line=f"{inv.player} · {_where(view, inv)}",
                tags=tuple(tags), turn=inv.seat == view.turn and not view.over, mark=initials(inv.name))


def _tiles(view: ArkhamView) -> list[Tile]:
    def counter(label: str, have: int, kind: str, colour: Color) -> Tile:
        goal = _next_threshold(view, kind)
        return Tile(label, f"{have}/{goal[0]}" if goal else str(have), colour)

    return [counter("Doom", view.sheet_doom, "doom", DOOM), counter("Clues", view.sheet_clues, "clues", CLUE),
            Tile("Map doom", str(view.board_doom), mix(DOOM, Theme.TEXT, 0.35))]


def _line(view: ArkhamView) -> tuple[str, Color]:
    if view.over:
        won = view.result == "win"
        return (f"Victory after {inline.plural(view.round, 'round')}" if won
                else f"Defeat after {inline.plural(view.round, 'round')}"), (Theme.GOOD if won else Theme.BAD)
    line = f"Round {view.round} · {PHASES.get(view.phase, view.phase.capitalize())}"
    turn = next((i for i in view.investigators if i.seat == view.turn), None)
    if turn is not None:
        line += f" · {turn.player}"
    return line, Theme.ACCENT


def _as_view(view: ArkhamView | Mapping[str, Any]) -> ArkhamView:
    return view if isinstance(view, ArkhamView) else ArkhamView.model_validate(view)


def _scene(view: ArkhamView | Mapping[str, Any]) -> Scene:
    v = _as_view(view)
    seats = [_seat(v, inv) for inv in v.investigators]
    marks = markers_by_space(v)  # worked out once: the layout and the town read them
    layout = _layout(v, marks)
    town_bottom = layout[3]
    seats_top = town_bottom + GAP
    height = seats_top + inline.seat_height(WIDTH - 2 * MARGIN, seats) + MARGIN
    image = Scene((WIDTH, height), Theme.BG)
    draw = image.draw()
    line, colour = _line(v)
    header = Box(MARGIN, MARGIN, WIDTH - 2 * MARGIN, inline.HEADER_H)
    inline.draw_header(image, draw, header, v.scenario, line, _tiles(v), colour)
    _draw_town(image, draw, v, layout, marks)
    inline.draw_seats(image, draw, Box(MARGIN, seats_top, WIDTH - 2 * MARGIN, height - MARGIN - seats_top), seats)
    return image


def render_inline_image(view: ArkhamView | Mapping[str, Any]) -> Image.Image:
    """The channel board for `view`, every part drawn."""
    return _scene(view).image()


def render_inline(view: ArkhamView | Mapping[str, Any]) -> bytes:
    """PNG bytes of the channel board for `view` (the model or its JSON dict); unchanged views are cached."""
    v = _as_view(view)
    return _pictures.get_or_render(v, lambda: _scene(v).png(_palette()))


def cache_clear() -> None:
    _pictures.clear()

