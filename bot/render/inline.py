"""The channel board's shared parts: a picture laid out for the size Discord shows it in the channel.

Discord shows an attached picture about 550 px wide in a channel (less in an embed, on a phone the screen's
width), and most players never open it full size. So the channel board is drawn 1100 px wide (twice that:
sharp on high-density screens) with no text under 24 px, which is 12 px where players see it: big
numbers, short names, few words. The detail (card texts, possessions, the codex) lives in the full board,
sent privately on request, and in the readers (`/<group> sheet`, `map`, `card`).

A game's channel board is its own module (`bot/games/<game>/render/inline.py`); this one gives them the
same frame: a header with the title, the round line and the clock as big numbers; one card per
investigator with their key numbers; and the size rule itself, which the pixel tests check with
`kit.record_text`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial

from PIL import Image, ImageDraw

from bot.render.kit import (
    PARTS,
    Box,
    Color,
    Surface,
    Theme,
    blend_ramps,
    build_palette,
    draw_text,
    ellipsize,
    fit_size,
    mix,
    panel,
    text_width,
)

#: how wide Discord shows an attached picture in a channel (desktop client, css px)
SHOWN_WIDTH = 550
#: the least text height players can read there, in shown px
MIN_SHOWN_PX = 12
#: the channel board's width: twice the shown width
WIDTH = 1100
MARGIN = 14
GAP = 10


def min_text(width: int = WIDTH) -> int:
    """The least font size, in picture px, that reads as MIN_SHOWN_PX when the picture is shown SHOWN_WIDTH
    wide."""
    return math.ceil(MIN_SHOWN_PX * width / SHOWN_WIDTH)


def shown_px(size: int, width: int) -> float:
    """How tall `size` px text in a picture `width` px wide is where the channel shows it."""
    return size * SHOWN_WIDTH / width


#: text sizes of the channel board (picture px at WIDTH); SMALL is the floor
SMALL = min_text()
TEXT = SMALL + 2
NAME = SMALL + 4
TITLE = SMALL + 10
BIG = SMALL + 22

DARK_INK: Color = (14, 14, 20)
WHITE: Color = (250, 250, 252)
TAG_INK: Color = (28, 22, 8)
TURN: Color = (104, 211, 120)
SEAT_OUT: Color = (30, 30, 36)


def plural(n: int, word: str, many: str | None = None) -> str:
    """"1 clue", "3 clues" (`many` for words whose plural is not word + s)."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def short_name(name: str) -> str:
    """A place's or card's name as the channel board writes it: without a leading "The"."""
    return name[4:] if name.startswith("The ") and len(name) > 4 else name


def fit_name(name: str, size: int, width: int) -> str:
    """A person's name in `width` px: whole, else the first name and the last name's initial ("Callum O."),
    else cut with an ellipsis."""
    if text_width(name, size, True) <= width:
        return name
    words = [w for w in name.split() if w.lower() not in ("dr.", "dr")]
    if len(words) > 1:
        short = f"{words[0]} {words[-1][0]}."
        if text_width(short, size, True) <= width:
            return short
    return ellipsize(name, size, width, True)


def initials(name: str) -> str:
    """Two letters for a disc: the first letters of the first and last words ("Dr." and "The" skipped)."""
    words = [w for w in name.replace("-", " ").split() if w.lower() not in ("dr.", "the", "dr")]
    if not words:
        return "?"
    if len(words) == 1:
        return words[0][:2].capitalize()
    return (words[0][0] + words[-1][0]).upper()


# ================================================================================================ header

@dataclass(frozen=True)
class Tile:
    """A big number in the header: "Doom 7/12", "Clock IX", "Omen" with its colour …"""

    label: str
    value: str
    colour: Color
    swatch: Color | None = None  # a coloured disc before the value (the omen's colour)


HEADER_H = 104
TILE_PAD = 14


def tile_width(tile: Tile) -> int:
    swatch = BIG - 6 + 8 if tile.swatch is not None else 0
    return max(text_width(tile.value, BIG, True) + swatch, text_width(tile.label, SMALL)) + 2 * TILE_PAD


def draw_header(image: Surface, draw: ImageDraw.ImageDraw, box: Box, title: str, line: str,
                tiles: Sequence[Tile], line_colour: Color = Theme.ACCENT) -> list[Box]:
    """Title and round line at the left, the tiles right-aligned; returns the tiles' boxes."""
    # the panel with the title, and each tile, are kept parts (a tile changes a few times a game, alone);
    # the round line, which changes at every step, is drawn on them here
    boxes, right = _tile_boxes(box, tiles)
    PARTS.paste(image, box, ("header", title, right - box.x), Theme.BG,
                lambda canvas, canvas_draw, local: _paint_header(canvas, canvas_draw, local, title,
                                                                 right - box.x))
    for tb, tile in zip(boxes, tiles, strict=True):
        PARTS.paste(image, tb, ("header tile", tile), Theme.PANEL, partial(_draw_tile, tile=tile))
    room = right - box.x - 24
    draw_text(image, (box.x + 16, box.y + 58), ellipsize(line, TEXT, room, True), TEXT, line_colour, bold=True)
    return boxes


def _tile_boxes(box: Box, tiles: Sequence[Tile]) -> tuple[list[Box], int]:
    """The tiles' boxes (in the tiles' order) and the x left of them."""
    boxes: list[Box] = []
    right = box.right - 8
    for tile in reversed(tiles):
        w = tile_width(tile)
        tb = Box(right - w, box.y + 8, w, box.h - 16)
        boxes.append(tb)
        right = tb.x - 8
    return list(reversed(boxes)), right


def _paint_header(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, title: str, tiles_x: int) -> None:
    """The header's panel and title (the tiles begin `tiles_x` px from its left)."""
    panel(draw, box, Theme.PANEL, outline=Theme.PANEL_EDGE, radius=14)
    room = tiles_x - 24
    size = fit_size(title, room, (TITLE, NAME, TEXT), bold=True)
    draw_text(image, (box.x + 16, box.y + 12), ellipsize(title, size, room, True), size, Theme.TEXT, bold=True)


def _draw_tile(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, tile: Tile) -> None:
    panel(draw, box, Theme.BAR_BACK, outline=mix(tile.colour, Theme.BAR_BACK, 0.4), width=2, radius=10)
    cx = box.x + box.w // 2
    value_w = text_width(tile.value, BIG, True)
    if tile.swatch is not None:
        d = BIG - 6
        x0 = cx - (value_w + d + 8) // 2
        y0 = box.y + 6 + (BIG + 6 - d) // 2
        draw.ellipse((x0, y0, x0 + d, y0 + d), fill=tile.swatch, outline=Theme.TEXT, width=2)
        draw_text(image, (x0 + d + 8, box.y + 4), tile.value, BIG, tile.colour, bold=True)
    else:
        draw_text(image, (cx, box.y + 4), tile.value, BIG, tile.colour, bold=True, anchor="ma")
    draw_text(image, (cx, box.bottom - 6), tile.label, SMALL, Theme.MUTED, anchor="md")


# ================================================================================================ seats

@dataclass(frozen=True)
class Stat:
    """One key number of an investigator, on a chip of its colour: "HP 5/7"."""

    label: str
    value: str
    colour: Color
    ink: Color = WHITE


@dataclass(frozen=True)
class Seat:
    """What the channel board shows of one investigator."""

    colour: Color
    name: str  # the investigator's short name
    player: str
    stats: tuple[Stat, ...]
    line: str = ""  # one short line under the numbers (where they are)
    tags: tuple[tuple[str, Color], ...] = ()  # "Turn", "Lead", "Delayed" …
    turn: bool = False
    out: bool = False
    mark: str = ""  # the letters on the seat's disc (as on the map); the name's initials when empty


SEAT_GAP = 8
DISC = 44
CHIP_H = 38
CHIP_GAP = 8
LINE_H = SMALL + 8


def disc_width(mark: str, size: int) -> int:
    """A marker's width: a disc `size` px across, stretched to an oval when its letters need more room
    ("WO" at the smallest text size is wider than a 44 px disc's inside)."""
    return max(size, text_width(mark, SMALL, True) + 14)


def seat_columns(n: int) -> int:
    """Investigators side by side: all in one row up to four, then rows of three or four."""
    if n <= 4:
        return max(1, n)
    return 3 if n <= 6 else 4


def _chip_rows(stats: Sequence[Stat], width: int) -> int:
    rows, x = 1, 0
    for stat in stats:
        w = stat_width(stat)
        if x and x + w > width:
            rows, x = rows + 1, 0
        x += w + CHIP_GAP
    return rows if stats else 0


def seat_height(width: int, seats: Sequence[Seat]) -> int:
    """The height of the seats' block `width` px wide: every card of a row as tall as the tallest one needs
    (its chips wrap onto more rows in a narrow card)."""
    n = len(seats)
    cols = seat_columns(n)
    rows = math.ceil(max(1, n) / cols)
    card_w = (width - SEAT_GAP * (cols - 1)) // cols
    if compact(n):
        chip_rows = 1 if any(s.stats for s in seats) else 0
        one = 16 + DISC + 8 + chip_rows * (CHIP_H + 6) + (0 if chip_rows else LINE_H)
    else:
        one = 16 + DISC + 8 + max([0, *(_chip_rows(s.stats, card_w - 20) for s in seats)]) * (CHIP_H + 6) + \
            (LINE_H if any(s.line for s in seats) else 0)
    return rows * one + (rows - 1) * SEAT_GAP


def compact(n: int) -> bool:
    """More than four investigators: each card keeps one row of chips (those that fit, in the order the
    game lists them: health and sanity first) and no line under them, so the board stays no taller than
    wide."""
    return n > COMPACT_FROM - 1


COMPACT_FROM = 5


def seat_boxes(box: Box, n: int) -> list[Box]:
    cols = seat_columns(n)
    rows = math.ceil(max(1, n) / cols)
    out: list[Box] = []
    for row in box.split_rows(rows, SEAT_GAP):
        out += row.split_cols(cols, SEAT_GAP)
    return out[:n]


def draw_seats(image: Surface, draw: ImageDraw.ImageDraw, box: Box, seats: Sequence[Seat],
               background: Color = Theme.BG) -> list[Box]:
    """The investigators' cards in `box` (on `background`). A card is pasted from three kept parts, its
    frame, its head (disc, name, tags) and its body (numbers, line), each drawn once per different look:
    from one step to the next most cards are unchanged, and a changed one mostly in one of the three."""
    boxes = seat_boxes(box, len(seats))
    small = compact(len(seats))
    for b, seat in zip(boxes, seats, strict=True):
        fill, outline, width = _frame_of(seat)
        PARTS.paste(image, b, ("seat frame", fill, outline, width), background,
                    partial(_draw_frame, fill=fill, outline=outline, width=width))
        head, body = _seat_boxes(b)
        colour = mix(seat.colour, SEAT_OUT, 0.55) if seat.out else seat.colour
        PARTS.paste(image, head, ("seat head", colour, seat.mark or initials(seat.name), seat.name, seat.tags,
                                  seat.out), fill, partial(_draw_head, seat=seat))
        if body.h > 0:
            PARTS.paste(image, body, ("seat body", seat.stats, seat.line, small), fill,
                        partial(_draw_body, seat=seat, small=small, fill=fill))
    return boxes


def _frame_of(seat: Seat) -> tuple[Color, Color, int]:
    """A card's fill, outline colour and outline width (the player whose turn it is: theirs, thicker)."""
    return (SEAT_OUT if seat.out else Theme.PANEL, seat.colour if seat.turn else Theme.PANEL_EDGE,
            4 if seat.turn else 2)


def _seat_boxes(box: Box) -> tuple[Box, Box]:
    """A card's head (the disc's row) and body (the numbers and the line), inside its frame: a column wider
    than the inner box, as a tag or a chip ends on its right edge (Pillow's boxes include their last px)."""
    inner = box.inset(10, 8)
    top = inner.y + DISC + 8
    return Box(inner.x, inner.y, inner.w + 1, DISC + 2), Box(inner.x, top, inner.w + 1, inner.bottom - top)


def _draw_frame(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, fill: Color, outline: Color,
                width: int) -> None:
    panel(draw, box, fill, outline=outline, width=width, radius=12)


def _draw_head(image: Image.Image, draw: ImageDraw.ImageDraw, head: Box, seat: Seat) -> None:
    colour = mix(seat.colour, SEAT_OUT, 0.55) if seat.out else seat.colour
    mark = seat.mark or initials(seat.name)
    disc_w = disc_width(mark, DISC)
    draw.ellipse((head.x, head.y, head.x + disc_w, head.y + DISC), fill=colour, outline=DARK_INK, width=2)
    draw_text(image, (head.x + disc_w // 2, head.y + DISC // 2 + 1), mark, SMALL, DARK_INK, bold=True, anchor="mm")
    right = head.right - 1
    for text, fill in seat.tags:
        w = text_width(text, SMALL, True) + 16
        if right - w < head.x + DISC + 90:
            break
        draw.rounded_rectangle((right - w, head.y + 6, right, head.y + 6 + SMALL + 8), radius=8, fill=fill)
        draw_text(image, (right - w // 2, head.y + 10 + SMALL // 2), text, SMALL, TAG_INK, bold=True, anchor="mm")
        right -= w + 6
    x = head.x + disc_w + 10
    draw_text(image, (x, head.y + DISC // 2 + 1), fit_name(seat.name, NAME, right - x - 4), NAME,
              Theme.MUTED if seat.out else Theme.TEXT, bold=True, anchor="lm")


def _draw_body(image: Image.Image, draw: ImageDraw.ImageDraw, body: Box, seat: Seat, small: bool,
               fill: Color) -> None:
    """A card's numbers and line on its `fill`. Each chip and the line are kept parts of their own: from one
    step to the next a card mostly changes in one number, and the others are pasted as they were."""
    y, x, right = body.y, body.x, body.right - 1
    for stat in seat.stats:
        if x > body.x and x + stat_width(stat) > right:
            if small:
                break
            x, y = body.x, y + CHIP_H + 6
        w = stat_width(stat)
        if x + w > right:
            continue
        PARTS.paste(image, Box(x, y, w + 1, CHIP_H + 1), ("stat chip", stat), fill,
                    partial(_draw_chip, stat=stat))
        x += w + CHIP_GAP
    if seat.line and not (small and seat.stats):
        y += CHIP_H + 6 if seat.stats else 0
        line = ellipsize(seat.line, SMALL, body.w - 1)
        # the line's part reaches to the card's foot: room for any glyph's descent, and nothing else is there
        PARTS.paste(image, Box(body.x, y, body.w, max(1, body.bottom - y)), ("seat line", line), fill,
                    partial(_draw_line, line=line))


def _draw_chip(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, stat: Stat) -> None:
    draw_stat(image, draw, box.x, box.y, stat, box.x + box.w - 1)


def _draw_line(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, line: str) -> None:
    draw_text(image, (box.x, box.y), line, SMALL, Theme.MUTED)


def stat_width(stat: Stat) -> int:
    text = f"{stat.label} {stat.value}".strip()
    return text_width(text, TEXT, True) + 14


def draw_stat(image: Surface, draw: ImageDraw.ImageDraw, x: int, y: int, stat: Stat, right: int) -> int:
    """A stat chip at (x, y); returns the x after it (chips that do not fit are left out)."""
    text = f"{stat.label} {stat.value}".strip()
    w = stat_width(stat)
    if x + w > right:
        return x
    draw.rounded_rectangle((x, y, x + w, y + CHIP_H), radius=CHIP_H // 2, fill=stat.colour)
    draw_text(image, (x + w // 2, y + CHIP_H // 2 + 1), text, TEXT, stat.ink, bold=True, anchor="mm")
    return x + w + CHIP_GAP


# ================================================================================================ counts

def draw_count(image: Surface, draw: ImageDraw.ImageDraw, xy: tuple[int, int], value: int | str, fill: Color,
               ink: Color = WHITE, size: int = TEXT, edge: Color = DARK_INK) -> Box:
    """A number on a disc (doom, clues, monsters on a place) centred on `xy`, at least as wide as tall."""
    text = str(value)
    h = size + 12
    w = max(h, text_width(text, size, True) + 14)
    x, y = xy[0] - w // 2, xy[1] - h // 2
    draw.rounded_rectangle((x, y, x + w, y + h), radius=h // 2, fill=fill, outline=edge, width=2)
    draw_text(image, (xy[0], xy[1] + 1), text, size, ink, bold=True, anchor="mm")
    return Box(x, y, w, h)


def banner(image: Surface, draw: ImageDraw.ImageDraw, box: Box, text: str, won: bool, win_bg: Color,
           loss_bg: Color) -> None:
    """The game's end, across `box`."""
    panel(draw, box, win_bg if won else loss_bg, outline=Theme.GOOD if won else Theme.BAD, width=4, radius=16)
    size = fit_size(text, box.w - 32, (TITLE, NAME, TEXT), bold=True)
    draw_text(image, box.center, ellipsize(text, size, box.w - 32, True), size, Theme.TEXT, bold=True, anchor="mm")


# ================================================================================================ palette

@dataclass
class Colours:
    """A channel board's named colours, for its fixed palette: surfaces, inks drawn on them, and the rest."""

    surfaces: list[Color] = field(default_factory=list)
    inks: list[Color] = field(default_factory=list)
    others: list[Color] = field(default_factory=list)


SHARED_SURFACES = [Theme.BG, Theme.PANEL, Theme.PANEL_EDGE, Theme.BAR_BACK, SEAT_OUT]
SHARED_INKS = [Theme.TEXT, Theme.MUTED, Theme.FAINT, Theme.ACCENT, Theme.GOOD, Theme.BAD, DARK_INK, WHITE, TAG_INK,
               TURN, Theme.STAMINA, Theme.SANITY]


def palette_of(colours: Colours, chips: Iterable[Color] = ()) -> Image.Image:
    """A fixed palette for a channel board: its colours exactly, and the antialiased blends of its inks over
    its surfaces (and of the chip ink over each chip colour)."""
    surfaces = list(dict.fromkeys([*SHARED_SURFACES, *colours.surfaces]))
    inks = list(dict.fromkeys([*SHARED_INKS, *colours.inks]))
    chip_list = list(dict.fromkeys(chips))
    blends = blend_ramps(inks, surfaces) + blend_ramps([WHITE, DARK_INK], chip_list)
    return build_palette([*surfaces, *inks, *chip_list, *colours.others], blends)
