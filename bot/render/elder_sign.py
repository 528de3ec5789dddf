"""The Elder Sign table image and the dice-roll image.

`render_table(view)` draws the dict from `engine.elder_sign.view.build_view`; `render_dice(faces)` draws one
roll. Every symbol (magnifier, eye, skull, tentacle, elder sign, clock, padlock) is drawn here with Pillow
primitives, so no card art or icon font is needed and nothing copyrighted ships with the bot.

Layout (1280×900 unless more than three Other Worlds and dice cells need extra rows):

    +---------------------------------------------+-------------------+
    | Ancient One, day/turn            doom track | clock  Elder Signs |
    +---------------------------------------------+-------------------+
    | adventure | adventure | adventure           | Mythos            |
    | adventure | adventure | adventure           +-------------------+
    |   (or, in battle, the Ancient One arena)    | investigator ...  |
    +---------------------------------------------+ investigator ...  |
    | Other World | Other World | dice tray       | ...               |
    +---------------------------------------------+-------------------+
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, ImageDraw

from bot.render.kit import (
    Box,
    Color,
    Theme,
    bar,
    dim,
    draw_lines,
    draw_text,
    ellipsize,
    fit_size,
    font,
    icon,
    mix,
    panel,
    paste_icon,
    pips,
    text_width,
    to_png,
    wrap,
)

View = dict[str, Any]

WIDTH, HEIGHT = 1280, 900
MARGIN, GAP = 16, 10
LEFT_W = 880
RIGHT_X = MARGIN + LEFT_W + 12
RIGHT_W = WIDTH - MARGIN - RIGHT_X
HEADER_H = 64
CARD_H = 250
BAND_H = 268
#: task rows: never smaller than MIN_ROW while footer lines can still make room, never taller than MAX_ROW
MIN_ROW, MAX_ROW = 32, 40
#: investigator panels shorter than this use the two-line layout (five or more seats)
COMPACT_SEAT = 100

CARD_BG: Color = (36, 42, 58)
OW_BG: Color = (50, 36, 70)
ARENA_BG: Color = (58, 24, 40)
DONE_BG: Color = (28, 30, 38)
CHIP_BG: Color = (22, 24, 32)
DOOM: Color = (214, 34, 52)
MONSTER: Color = (176, 92, 230)
HIGHLIGHT: Color = Theme.ACCENT
ELDER: Color = (120, 226, 200)

#: the die bodies; tests count blobs of exactly these colours, so change them together with the tests
DIE_COLOURS: dict[str, Color] = {"green": (44, 160, 72), "yellow": (240, 200, 40), "red": (206, 40, 44)}
#: symbol ink on each die: dark on yellow, white on the darker dice, for contrast
DIE_INK: dict[str, Color] = {"green": (250, 250, 250), "yellow": (30, 26, 20), "red": (250, 250, 250)}

SYMBOL_COLOURS: dict[str, Color] = {"inv": (236, 236, 240), "lore": (120, 186, 255), "peril": (255, 150, 64),
                                    "terror": (186, 120, 255), "wild": ELDER, "clock": (250, 206, 96)}

#: one colour per seat for the investigator markers on cards and in the panels
SEAT_COLOURS: list[Color] = [(86, 166, 255), (255, 140, 70), (190, 120, 255), (70, 205, 175),
                             (255, 110, 170), (215, 215, 90), (140, 225, 95), (225, 225, 230)]

FACE_LABELS = {"inv1": "1", "inv2": "2", "inv3": "3", "inv4": "4", "lore": "Lore", "peril": "Peril",
               "terror": "Terror", "wild": "Wild"}
CLOCK_LABELS = ("XII", "III", "VI", "IX")


# ================================================================================================ layout

@dataclass
class Layout:
    """Where everything goes. Public so tests can look at the pixels of one region."""

    size: tuple[int, int]
    header: Box
    doom_track: Box
    grid: Box
    cards: list[Box]
    arena: Box | None
    band: list[Box]
    status: Box
    clock: Box
    elder_signs: Box
    mythos: Box
    seats: list[Box] = field(default_factory=list)


def _band_items(view: View) -> list[tuple[str, Any]]:
    """The cells of the lower band: Other Worlds (not in battle), then the dice tray while a roll is on."""
    items: list[tuple[str, Any]] = []
    if view.get("phase") != "battle":
        items += [("ow", ow) for ow in view.get("other_worlds") or []]
    if _tray_dice(view):
        items.append(("tray", None))
    return items


def table_layout(view: View) -> Layout:
    band_items = _band_items(view)
    band_rows = max(1, math.ceil(len(band_items) / 3))
    height = max(HEIGHT, MARGIN + HEADER_H + GAP + 2 * CARD_H + GAP + GAP + band_rows * (BAND_H + GAP) - GAP + MARGIN)
    header = Box(MARGIN, MARGIN, LEFT_W, HEADER_H)
    n_doom = len(view["ancient_one"].get("doom_track") or []) or 1
    track_w = n_doom * 30 + (n_doom - 1) * 6
    doom_track = Box(header.right - track_w - 12, header.y + 17, track_w, 30)
    grid = Box(MARGIN, header.bottom + GAP, LEFT_W, 2 * CARD_H + GAP)
    battle = view.get("phase") == "battle"
    cards: list[Box] = []
    if not battle:
        for row in grid.split_rows(2, GAP):
            cards += row.split_cols(3, GAP)
    band_top = grid.bottom + GAP
    band: list[Box] = []
    for i in range(len(band_items)):
        r, c = divmod(i, 3)
        cols = Box(MARGIN, band_top + r * (BAND_H + GAP), LEFT_W, BAND_H).split_cols(3, GAP)
        band.append(cols[c])
    status = Box(RIGHT_X, MARGIN, RIGHT_W, 176)
    clock = Box(status.x + 8, status.y + 8, 160, 160)
    elder = Box(clock.right + 8, status.y + 8, status.right - clock.right - 16, 160)
    mythos = Box(RIGHT_X, status.bottom + GAP, RIGHT_W, 196)
    seat_top = mythos.bottom + GAP
    n = max(1, len(view.get("investigators") or []))
    seat_area = Box(RIGHT_X, seat_top, RIGHT_W, height - MARGIN - seat_top)
    seat_gap = 8 if n <= 4 else 5
    seat_h = min(132 if n <= 4 else 64, (seat_area.h - (n - 1) * seat_gap) // n)
    seats = [Box(RIGHT_X, seat_top + i * (seat_h + seat_gap), RIGHT_W, seat_h) for i in range(n)]
    return Layout(size=(WIDTH, height), header=header, doom_track=doom_track, grid=grid, cards=cards,
                  arena=grid if battle else None, band=band, status=status, clock=clock, elder_signs=elder,
                  mythos=mythos, seats=seats)


# ================================================================================================ symbols
# Painters draw on the supersampled canvas of `kit.icon`; `s` is that canvas's side in pixels.

def _paint_magnifier(d: ImageDraw.ImageDraw, s: int, ink: Color, number: str | None) -> None:
    """A magnifying glass; the investigation value sits inside the lens so it reads at a glance."""
    r = int(s * 0.36)
    cx, cy = int(s * 0.41), int(s * 0.41)
    w = max(2, s // 11)
    handle_start = (cx + int(r * 0.72), cy + int(r * 0.72))
    d.line([handle_start, (int(s * 0.92), int(s * 0.92))], fill=ink, width=int(w * 1.6))
    d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=ink, width=w)
    if number:
        size = int(r * (1.4 if len(number) == 1 else 1.0))
        d.text((cx, cy + size // 20), number, fill=ink, font=font(size, True), anchor="mm")


def _paint_eye(d: ImageDraw.ImageDraw, s: int, ink: Color, bg: Color | None) -> None:
    """Lore: an open eye (an almond of two arcs, an iris and a pupil)."""
    cx, cy = s / 2, s / 2
    half_w, half_h = s * 0.44, s * 0.26
    top = [(cx + half_w * math.cos(t), cy - half_h * math.sin(t)) for t in _steps(0, math.pi, 24)]
    bottom = [(cx + half_w * math.cos(t), cy + half_h * math.sin(t)) for t in _steps(math.pi, 0, 24)]
    d.polygon(top + bottom[1:-1], fill=ink)
    iris = s * 0.2
    hole = bg if bg is not None else (0, 0, 0, 0)
    d.ellipse((cx - iris, cy - iris, cx + iris, cy + iris), fill=hole)
    pupil = s * 0.1
    d.ellipse((cx - pupil, cy - pupil, cx + pupil, cy + pupil), fill=ink)
    # lashes above the lid make it read as an eye, not a lemon, at small sizes
    for t in (0.35, 0.5, 0.65):
        a = math.pi * t
        x0, y0 = cx + half_w * 0.8 * math.cos(a), cy - half_h * 1.05 * math.sin(a)
        d.line([(x0, y0), (x0 + (x0 - cx) * 0.25, y0 - s * 0.12)], fill=ink, width=max(2, s // 22))


def _paint_skull(d: ImageDraw.ImageDraw, s: int, ink: Color, bg: Color | None) -> None:
    """Peril: a skull (cranium, jaw, eye sockets, nose)."""
    hole = bg if bg is not None else (0, 0, 0, 0)
    r = s * 0.34
    cx, cy = s / 2, s * 0.42
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=ink)
    d.rounded_rectangle((cx - r * 0.62, cy + r * 0.5, cx + r * 0.62, cy + r * 1.45), radius=s * 0.05, fill=ink)
    er = r * 0.3
    for ex in (cx - r * 0.42, cx + r * 0.42):
        d.ellipse((ex - er, cy + r * 0.05 - er, ex + er, cy + r * 0.05 + er), fill=hole)
    d.polygon([(cx, cy + r * 0.42), (cx - r * 0.14, cy + r * 0.68), (cx + r * 0.14, cy + r * 0.68)], fill=hole)
    for tx in (-0.3, 0.0, 0.3):  # gaps between the teeth
        x = cx + r * tx
        d.line([(x, cy + r * 1.05), (x, cy + r * 1.45)], fill=hole, width=max(2, s // 30))


def _paint_tentacle(d: ImageDraw.ImageDraw, s: int, ink: Color, bg: Color | None) -> None:
    """Terror: a curling tentacle, a chain of shrinking discs along a spiral, with suckers."""
    points: list[tuple[float, float, float]] = []
    steps = 60
    for i in range(steps):
        t = i / (steps - 1)
        angle = math.pi * 0.75 + t * math.pi * 2.1
        radius = s * (0.36 - 0.25 * t)
        x = s * 0.5 + radius * math.cos(angle) * 0.95
        y = s * 0.48 + radius * math.sin(angle) + s * 0.18 * (1 - t) ** 2
        points.append((x, y, s * (0.13 - 0.1 * t)))
    for x, y, w in points:
        d.ellipse((x - w, y - w, x + w, y + w), fill=ink)
    hole = bg if bg is not None else (0, 0, 0, 0)
    for x, y, w in points[4:40:9]:
        sr = w * 0.38
        d.ellipse((x - sr, y - sr, x + sr, y + sr), fill=hole)


def _paint_elder_sign(d: ImageDraw.ImageDraw, s: int, ink: Color, bg: Color | None) -> None:
    """Wild / Elder Sign: a five-pointed star drawn as one stroke with a flame-eye in its heart."""
    cx, cy, r = s / 2, s * 0.53, s * 0.44
    pts = [(cx + r * math.sin(2 * math.pi * k / 5), cy - r * math.cos(2 * math.pi * k / 5)) for k in range(5)]
    order = [pts[k % 5] for k in (0, 2, 4, 1, 3, 0)]
    d.line(order, fill=ink, width=max(3, s // 14), joint="curve")
    fr = s * 0.1
    d.ellipse((cx - fr, cy - fr * 1.6, cx + fr, cy + fr), fill=ink)
    d.polygon([(cx - fr, cy - fr * 0.6), (cx, cy - fr * 3.0), (cx + fr, cy - fr * 0.6)], fill=ink)


def _paint_clock(d: ImageDraw.ImageDraw, s: int, ink: Color, bg: Color | None) -> None:
    cx = cy = s / 2
    r = s * 0.4
    d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=ink, width=max(3, s // 12))
    w = max(3, s // 12)
    d.line([(cx, cy), (cx, cy - r * 0.7)], fill=ink, width=w)
    d.line([(cx, cy), (cx + r * 0.55, cy)], fill=ink, width=w)


def _paint_padlock(d: ImageDraw.ImageDraw, s: int, ink: Color, bg: Color | None) -> None:
    cx = s / 2
    w = max(3, s // 9)
    d.arc((cx - s * 0.2, s * 0.14, cx + s * 0.2, s * 0.56), 180, 360, fill=ink, width=w)
    d.line([(cx - s * 0.2 + w / 2, s * 0.35), (cx - s * 0.2 + w / 2, s * 0.48)], fill=ink, width=w)
    d.line([(cx + s * 0.2 - w / 2, s * 0.35), (cx + s * 0.2 - w / 2, s * 0.48)], fill=ink, width=w)
    d.rounded_rectangle((cx - s * 0.29, s * 0.44, cx + s * 0.29, s * 0.84), radius=s * 0.06, fill=ink)


def _paint_check(d: ImageDraw.ImageDraw, s: int, ink: Color, bg: Color | None) -> None:
    d.line([(s * 0.18, s * 0.52), (s * 0.42, s * 0.76), (s * 0.84, s * 0.26)], fill=ink, width=max(4, s // 7),
           joint="curve")


def _steps(a: float, b: float, n: int) -> list[float]:
    return [a + (b - a) * i / (n - 1) for i in range(n)]


GLYPHS = {"lore": _paint_eye, "peril": _paint_skull, "terror": _paint_tentacle, "wild": _paint_elder_sign,
          "clock": _paint_clock, "lock": _paint_padlock, "check": _paint_check}


def glyph(kind: str, size: int, ink: Color, bg: Color | None = None) -> Image.Image:
    """A bare symbol; `bg` is the colour the symbol's holes show (transparent when None)."""
    painter = GLYPHS[kind]
    return icon(("glyph", kind, ink, bg), size, lambda im: painter(ImageDraw.Draw(im), im.width, ink, bg))


def inv_glyph(value: int | str, size: int, ink: Color) -> Image.Image:
    return icon(("inv", str(value), ink), size,
                lambda im: _paint_magnifier(ImageDraw.Draw(im), im.width, ink, str(value)))


def die_icon(colour: str, face: str | None, size: int) -> Image.Image:
    """A die: a rounded square in its colour, a darker rim for depth, and the face's symbol in contrasting
    ink. A face of None (not rolled) shows an empty die."""
    body = DIE_COLOURS.get(colour, (150, 150, 150))
    ink = DIE_INK.get(colour, (20, 20, 20))

    def paint(canvas: Image.Image) -> None:
        s = canvas.width
        d = ImageDraw.Draw(canvas)
        rim = max(4, s // 22)
        d.rounded_rectangle((0, 0, s - 1, s - 1), radius=s // 6, fill=dim(body, 0.7))
        d.rounded_rectangle((rim, rim, s - 1 - rim, s - 1 - rim), radius=s // 7, fill=body)
        inner = int(s * 0.72)
        off = (s - inner) // 2
        sub = Image.new("RGBA", (inner, inner), (0, 0, 0, 0))
        sd = ImageDraw.Draw(sub)
        if face and face.startswith("inv"):
            _paint_magnifier(sd, inner, ink, face[3:])
        elif face in GLYPHS:
            GLYPHS[face](sd, inner, ink, body)
        canvas.alpha_composite(sub, (off, off))

    return icon(("die", colour, face), size, paint)


def lock_icon(colour: str, size: int) -> Image.Image:
    """A lock held on a card: a die of the locked colour showing a padlock."""
    body = DIE_COLOURS.get(colour, (150, 150, 150))
    ink = DIE_INK.get(colour, (20, 20, 20))

    def paint(canvas: Image.Image) -> None:
        s = canvas.width
        d = ImageDraw.Draw(canvas)
        d.rounded_rectangle((0, 0, s - 1, s - 1), radius=s // 5, fill=body)
        _paint_padlock(d, s, ink, body)

    return icon(("lock", colour), size, paint)


def _token(image: Image.Image, draw: ImageDraw.ImageDraw, center: tuple[int, int], radius: int, colour: Color,
           letter: str, faded: bool = False) -> None:
    """An investigator marker: a disc in the seat's colour with the investigator's initial."""
    cx, cy = center
    fill = mix(colour, Theme.PANEL, 0.6) if faded else colour
    draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=fill, outline=Theme.BG, width=2)
    draw_text(image, (cx, cy + 1), letter, int(radius * 1.25), (16, 16, 22), bold=True, anchor="mm")


def _seat_colour(seat: int) -> Color:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def _initial(entry: dict[str, Any]) -> str:
    name = entry.get("investigator") or entry.get("player") or "?"
    return name[:1].upper()


# ================================================================================================ tasks

def symbols_from_text(text: str) -> tuple[list[str], int, int, int]:
    """Symbols, clock, sanity and stamina back out of a task's text ("Inv 4, Lore, Clock, -1 sanity"); the
    Ancient One's battle task reaches the view only as text. Unknown parts are kept as "text:<part>"."""
    symbols: list[str] = []
    clock = sanity = stamina = 0
    for raw in text.split(","):
        part = raw.strip().strip("[]").strip()
        low = part.lower()
        if not part or part == "—":
            continue
        if low.startswith("inv ") and low[4:].isdigit():
            symbols.append(f"inv:{low[4:]}")
        elif low in ("lore", "peril", "terror"):
            symbols.append(low)
        elif " or " in low:
            symbols.append("/".join(sorted(low.split(" or "))))
        elif low == "clock":
            clock += 1
        elif low.endswith(" sanity") and low[1:-7].isdigit():
            sanity += int(low[1:-7])
        elif low.endswith(" stamina") and low[1:-8].isdigit():
            stamina += int(low[1:-8])
        else:
            symbols.append(f"text:{part}")
    return symbols, clock, sanity, stamina


def _draw_symbols(image: Image.Image, draw: ImageDraw.ImageDraw, x: int, y: int, size: int,
                  symbols: list[str], clock: int, sanity: int, stamina: int, faded: bool, max_x: int) -> int:
    """One task's requirements as chips, left to right from (x, y); returns the x after the last chip."""
    text_size = max(16, int(size * 0.62))

    def ink(kind: str) -> Color:
        base = SYMBOL_COLOURS.get(kind, Theme.TEXT)
        return mix(base, DONE_BG, 0.6) if faded else base

    chip_bg = DONE_BG if faded else CHIP_BG

    def chip(width: int) -> None:
        draw.rounded_rectangle((x, y, x + width - 1, y + size - 1), radius=size // 5, fill=chip_bg)

    for sym in symbols:
        if x + size > max_x:
            break
        if sym.startswith("inv:"):
            # a wide chip: a small lens and the value as large text, readable where a number inside a
            # 30 px lens would not be
            number = sym[4:]
            lens = int(size * 0.62)
            num_size = max(18, int(size * 0.72))
            w = lens + text_width(number, num_size, True) + 12
            chip(w)
            paste_icon(image, inv_glyph("", lens, ink("inv")), (x + 3, y + (size - lens) // 2))
            draw_text(image, (x + lens + 5, y + size // 2 + 1), number, num_size, ink("inv"), bold=True, anchor="lm")
            x += w + 4
        elif sym.startswith("text:"):
            label = ellipsize(sym[5:], text_size, max_x - x - 12)
            w = text_width(label, text_size) + 12
            chip(w)
            draw_text(image, (x + 6, y + size // 2), label, text_size, ink("inv"), anchor="lm")
            x += w + 4
        elif "/" in sym:  # a split symbol: either face will do
            a, b = sym.split("/", 1)
            half = size - 8
            w = 2 * half + 14
            chip(w)
            paste_icon(image, glyph(a, half, ink(a), chip_bg), (x + 2, y + 4))
            draw_text(image, (x + half + 7, y + size // 2), "/", text_size, ink("inv"), anchor="mm")
            paste_icon(image, glyph(b, half, ink(b), chip_bg), (x + half + 12, y + 4))
            x += w + 4
        elif sym in GLYPHS:
            chip(size)
            paste_icon(image, glyph(sym, size - 6, ink(sym), chip_bg), (x + 3, y + 3))
            x += size + 4
    for _ in range(clock):
        if x + size > max_x:
            break
        paste_icon(image, glyph("clock", size - 4, ink("clock")), (x + 2, y + 2))
        x += size + 2
    for amount, label, colour in ((sanity, "SAN", Theme.SANITY), (stamina, "STA", Theme.STAMINA)):
        if not amount:
            continue
        text = f"−{amount} {label}"
        w = text_width(text, text_size, True) + 14
        if x + w > max_x:
            break
        fill = mix(colour, DONE_BG, 0.6) if faded else colour
        draw.rounded_rectangle((x, y + 3, x + w - 1, y + size - 4), radius=(size - 7) // 2, fill=fill)
        draw_text(image, (x + w // 2, y + size // 2), text, text_size, Theme.TEXT, bold=True, anchor="mm")
        x += w + 4
    return x


# ================================================================================================ cards

def _draw_card(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, card: dict[str, Any] | None,
               view: View, seats: dict[int, dict[str, Any]]) -> None:
    if card is None:
        panel(draw, box, Theme.BG, outline=Theme.PANEL_EDGE, width=2)
        draw_text(image, box.center, "(empty)", 20, Theme.FAINT, anchor="mm")
        return
    adventure = view.get("adventure") or {}
    active = adventure.get("where") == card.get("where")
    fill = OW_BG if card.get("other_world") else CARD_BG
    panel(draw, box, fill, outline=HIGHLIGHT if active else Theme.PANEL_EDGE, width=4 if active else 2)
    inner = box.inset(12, 10)

    # title row: name on the left, then investigator markers, trophy value as a gold badge on the right
    badge_r = 15
    badge_c = (inner.right - badge_r, inner.y + badge_r)
    draw.ellipse((badge_c[0] - badge_r, badge_c[1] - badge_r, badge_c[0] + badge_r, badge_c[1] + badge_r),
                 fill=(120, 92, 30), outline=Theme.ACCENT, width=2)
    draw_text(image, badge_c, str(card.get("trophy", 0)), 18, Theme.TEXT, bold=True, anchor="mm")
    here = list(card.get("investigators") or [])
    tx = badge_c[0] - badge_r - 18
    for seat in reversed(here):
        _token(image, draw, (tx, badge_c[1]), 14, _seat_colour(seat), _initial(seats.get(seat, {})))
        tx -= 24  # markers overlap a little so four of them still leave room for the name
    name = card.get("name", "?")
    name_w = (tx + 24 - 16 if here else badge_c[0] - badge_r) - inner.x - 8
    size = fit_size(name, name_w, (22, 20, 18), bold=True)
    draw_text(image, (inner.x, inner.y + 2), ellipsize(name, size, name_w, True), size, Theme.TEXT, bold=True)
    y = inner.y + 32

    # status row, only when there is something to say: lock dice, kind of card, whether a roll is on here
    locks = list(card.get("locks") or [])
    tags = []  # an ordered card says so by numbering its rows, which costs no row of its own
    if card.get("other_world"):
        tags.append("Other World")
    if active:
        tags.append("rolling here")
    if locks or tags:
        x = inner.x
        for colour in locks:
            paste_icon(image, lock_icon(colour, 24), (x, y))
            x += 28
        if tags:
            draw_text(image, (x + (4 if locks else 0), y + 12), " · ".join(tags), 17,
                      HIGHLIGHT if active else Theme.MUTED, anchor="lm")
        y += 30

    # footer lines, dropped least-important first when the tasks need the room
    footer = [("+", card.get("rewards") or "", Theme.GOOD), ("−", card.get("penalties") or "", Theme.BAD)]
    if card.get("midnight"):
        footer.append(("XII", card["midnight"], SYMBOL_COLOURS["clock"]))
    if active and card.get("terror"):
        footer.insert(0, ("Terror", card["terror"], SYMBOL_COLOURS["terror"]))
    footer = [f for f in footer if f[1]]
    tasks = card.get("tasks") or []
    n = max(1, len(tasks))
    while footer and (inner.bottom - len(footer) * 23 - y - 4) // n < MIN_ROW:
        footer.pop()
    footer_h = len(footer) * 23
    row_h = max(22, min(MAX_ROW, (inner.bottom - footer_h - y - 4) // n))
    for i, task in enumerate(tasks):
        ry = y + i * row_h
        if ry + row_h - 4 > inner.bottom - footer_h:
            break
        _draw_task_row(image, draw, Box(inner.x, ry, inner.w, row_h - 4), task, i, bool(card.get("ordered")))

    fy = inner.bottom - footer_h + 2
    for label, text, colour in footer:
        lw = text_width(label, 18, True) + 8
        draw_text(image, (inner.x, fy), label, 18, colour, bold=True)
        draw_text(image, (inner.x + lw, fy), ellipsize(text, 18, inner.w - lw), 18, mix(colour, Theme.TEXT, 0.55))
        fy += 23


def _draw_task_row(image: Image.Image, draw: ImageDraw.ImageDraw, row: Box, task: dict[str, Any], index: int,
                   ordered: bool) -> None:
    done = bool(task.get("done"))
    monster = task.get("monster")
    if done:
        draw.rounded_rectangle(row.rect(), radius=6, fill=DONE_BG)
    elif monster:
        draw.rounded_rectangle(row.rect(), radius=6, fill=(60, 30, 62))
    size = row.h - 4
    x = row.x + 4
    if ordered:
        draw_text(image, (x, row.y + row.h // 2), f"{index + 1}.", 18, Theme.FAINT if done else Theme.MUTED,
                  bold=True, anchor="lm")
        x += 22
    right_reserve = 30 if done else 0
    max_x = row.right - right_reserve - (96 if monster else 0)
    end = _draw_symbols(image, draw, x, row.y + 2, size, list(task.get("symbols") or []), int(task.get("clock") or 0),
                        int(task.get("sanity") or 0), int(task.get("stamina") or 0), done, max_x)
    if monster:
        label_x = end + 4
        label = ellipsize(str(monster), 17, row.right - label_x - 10 - right_reserve, True)
        w = text_width(label, 17, True) + 12
        draw.rounded_rectangle((label_x, row.y + 3, label_x + w, row.bottom - 4), radius=8,
                               fill=mix(MONSTER, DONE_BG, 0.6) if done else MONSTER)
        draw_text(image, (label_x + 6, row.y + row.h // 2), label, 17, (20, 10, 24), bold=True, anchor="lm")
    if done:
        # struck through and ticked: a finished task must not look like one still to roll for
        mid = row.y + row.h // 2
        draw.line([(row.x + 4, mid), (end, mid)], fill=Theme.GOOD, width=3)
        paste_icon(image, glyph("check", size - 2, Theme.GOOD), (row.right - size - 2, row.y + 2))


# ================================================================================================ header & status

def _draw_header(image: Image.Image, draw: ImageDraw.ImageDraw, lay: Layout, view: View,
                 seats: dict[int, dict[str, Any]]) -> None:
    ao = view["ancient_one"]
    panel(draw, lay.header, Theme.PANEL, outline=Theme.PANEL_EDGE)
    name_w = lay.doom_track.x - lay.header.x - 140
    size = fit_size(ao.get("name", "?"), name_w, (28, 24, 20), bold=True)
    draw_text(image, (lay.header.x + 14, lay.header.y + 6), ellipsize(ao.get("name", "?"), size, name_w, True),
              size, Theme.TEXT, bold=True)
    current = seats.get(view.get("current", -1), {})
    who = current.get("player")
    sub = f"Day {view.get('day', 1)} · Turn {view.get('turn', 1)}"
    if who and not view.get("over"):
        sub += f" · {who}'s turn"
    if view.get("phase") == "battle":
        sub += " · FINAL BATTLE"
    draw_text(image, (lay.header.x + 14, lay.header.y + 38), ellipsize(sub, 18, name_w), 18, Theme.MUTED)
    track = ao.get("doom_track") or []
    doom = int(ao.get("doom") or 0)
    label = f"Doom {doom}/{len(track)}"
    draw_text(image, (lay.doom_track.x - 12, lay.doom_track.y + 15), label, 20, DOOM if doom else Theme.MUTED,
              bold=True, anchor="rm")
    _draw_doom_track(image, draw, lay.doom_track, track, doom, 30)


def _draw_doom_track(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, track: list[str], doom: int,
                     d: int) -> None:
    """Spaces left to right; filled ones are solid doom-red discs (exactly DOOM, one blob each), monster
    spaces get a purple ring and, while empty, a small tentacle."""
    gap = (box.w - len(track) * d) // max(1, len(track) - 1) if len(track) > 1 else 0
    for i, kind in enumerate(track):
        x = box.x + i * (d + gap)
        rect = (x, box.y, x + d - 1, box.y + d - 1)
        if i < doom:
            draw.ellipse(rect, fill=DOOM)
        else:
            draw.ellipse(rect, fill=Theme.BAR_BACK, outline=Theme.FAINT, width=2)
        if kind == "monster":
            draw.ellipse((x - 3, box.y - 3, x + d + 2, box.y + d + 2), outline=MONSTER, width=3)
            if i >= doom:
                paste_icon(image, glyph("terror", d - 10, MONSTER), (x + 5, box.y + 5))


def _draw_clock(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, hours: int, day: int) -> None:
    cx, cy = box.center
    r = box.w // 2 - 4
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(30, 32, 44), outline=Theme.PANEL_EDGE, width=3)
    current = (hours // 3) % 4
    for i, label in enumerate(CLOCK_LABELS):
        a = math.pi / 2 * i
        tx, ty = cx + (r - 24) * math.sin(a), cy - (r - 24) * math.cos(a)
        colour = Theme.ACCENT if i == current else (Theme.BAD if i == 0 else Theme.MUTED)
        draw_text(image, (int(tx), int(ty)), label, 22 if i == current else 18, colour, bold=True, anchor="mm")
        # a tick between labels marks the 3-hour sectors a clock cost advances through
        ta = a + math.pi / 4
        draw.line([(cx + (r - 8) * math.sin(ta), cy - (r - 8) * math.cos(ta)),
                   (cx + (r - 1) * math.sin(ta), cy - (r - 1) * math.cos(ta))], fill=Theme.FAINT, width=3)
    a = math.pi / 2 * current
    hx, hy = cx + (r - 46) * math.sin(a), cy - (r - 46) * math.cos(a)
    draw.line([(cx, cy), (hx, hy)], fill=Theme.ACCENT, width=6)
    draw.ellipse((cx - 7, cy - 7, cx + 7, cy + 7), fill=Theme.ACCENT)


def _draw_status(image: Image.Image, draw: ImageDraw.ImageDraw, lay: Layout, view: View) -> None:
    panel(draw, lay.status, Theme.PANEL, outline=Theme.PANEL_EDGE)
    _draw_clock(image, draw, lay.clock, int(view.get("clock_hours") or 0), int(view.get("day") or 1))
    box = lay.elder_signs
    have = int(view.get("elder_signs") or 0)
    limit = int(view["ancient_one"].get("elder_sign_limit") or 0)
    paste_icon(image, glyph("wild", 52, ELDER), (box.x, box.y + 8))
    draw_text(image, (box.x + 60, box.y + 4), f"{have}", 44, ELDER, bold=True)
    draw_text(image, (box.x + 62 + text_width(f"{have}", 44, True), box.y + 24), f"/ {limit}", 24, Theme.MUTED,
              bold=True)
    draw_text(image, (box.x, box.y + 66), "Elder Signs", 20, Theme.TEXT, bold=True)
    # pips wrap to two rows for the longest tracks (14) so they stay large enough to count
    per_row = 7
    for row in range(math.ceil(max(limit, 1) / per_row)):
        n = min(per_row, limit - row * per_row)
        pips(draw, (box.x, box.y + 98 + row * 22), n, max(0, have - row * per_row), 8, ELDER, Theme.FAINT, gap=5)


def _draw_mythos(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, mythos: dict[str, Any] | None) -> None:
    panel(draw, box, (44, 34, 40), outline=(112, 70, 80))
    inner = box.inset(14, 10)
    draw_text(image, (inner.x, inner.y), "MYTHOS", 16, (230, 150, 150), bold=True)
    if not mythos:
        draw_text(image, (inner.x, inner.y + 26), "No Mythos card in play", 20, Theme.MUTED)
        return
    name_lines = wrap(mythos.get("name", ""), 21, inner.w, bold=True, max_lines=2)
    y = draw_lines(image, (inner.x, inner.y + 22), name_lines, 21, Theme.TEXT, bold=True, spacing=3)
    max_lines = max(1, (inner.bottom - y - 2) // 22)
    body = wrap(mythos.get("text", ""), 18, inner.w, max_lines=max_lines)
    draw_lines(image, (inner.x, y + 2), body, 18, (222, 210, 214), spacing=4)


# ================================================================================================ investigators

def _draw_seat(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, entry: dict[str, Any],
               is_current: bool) -> None:
    """One investigator. Full panels (up to four seats) have four lines; with five to eight seats the panel
    keeps two: who, then stamina, sanity, clues and trophies (locations show as markers on the cards)."""
    out = bool(entry.get("eliminated"))
    compact = box.h < COMPACT_SEAT
    fill = (30, 30, 34) if out else Theme.PANEL
    panel(draw, box, fill, outline=HIGHLIGHT if is_current else Theme.PANEL_EDGE, width=4 if is_current else 2,
          radius=10 if compact else 12)
    inner = box.inset(12, 5 if compact else 8)
    text = Theme.FAINT if out else Theme.TEXT
    muted = Theme.FAINT if out else Theme.MUTED
    seat = int(entry.get("seat", 0))
    line1 = inner.y + (11 if compact else 14)
    _token(image, draw, (inner.x + 13, line1), 12 if compact else 14, _seat_colour(seat), _initial(entry),
           faded=out)
    player = f"@{entry.get('player', '?')}"
    player_w = min(text_width(player, 18), inner.w // 3)
    right = inner.right
    if is_current:
        tag_w = text_width("TURN", 16, True) + 14
        draw.rounded_rectangle((right - tag_w, line1 - 11, right, line1 + 11), radius=8, fill=HIGHLIGHT)
        draw_text(image, (right - tag_w // 2, line1), "TURN", 16, (30, 24, 8), bold=True, anchor="mm")
        right -= tag_w + 8
    draw_text(image, (right, line1), ellipsize(player, 18, player_w), 18, muted, anchor="rm")
    name = entry.get("investigator") or entry.get("player") or "?"
    name_size = 19 if compact else 21
    name_w = right - player_w - 8 - (inner.x + 32)
    draw_text(image, (inner.x + 32, line1), ellipsize(name, name_size, name_w, True), name_size, text, bold=True,
              anchor="lm")
    if out:
        why = "Devoured" if entry.get("devoured") else "Eliminated"
        y = line1 + (13 if compact else 26)
        draw_text(image, (inner.x, y), why, 18 if compact else 20, Theme.BAD, bold=True)
        return
    clues, trophies = int(entry.get("clues") or 0), int(entry.get("trophy_total") or 0)
    if compact:
        # stamina and sanity bars, then a clue count (lens) and a trophy total (gold disc, as on the cards)
        bar_y, bar_h = line1 + 14, 20
        bar_w = (inner.w - 110) // 2
        bar(image, draw, Box(inner.x, bar_y, bar_w, bar_h), int(entry.get("stamina") or 0),
            int(entry.get("max_stamina") or 0), Theme.STAMINA, "STA", size=16)
        bar(image, draw, Box(inner.x + bar_w + 6, bar_y, bar_w, bar_h), int(entry.get("sanity") or 0),
            int(entry.get("max_sanity") or 0), Theme.SANITY, "SAN", size=16)
        x = inner.x + 2 * bar_w + 16
        paste_icon(image, inv_glyph("", 20, Theme.TEXT), (x, bar_y))
        draw_text(image, (x + 22, bar_y + bar_h // 2), str(clues), 18, Theme.TEXT, bold=True, anchor="lm")
        cx, cy, r = inner.right - 12, bar_y + bar_h // 2, 12
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(120, 92, 30), outline=Theme.ACCENT, width=2)
        draw_text(image, (cx, cy), str(trophies), 16, Theme.TEXT, bold=True, anchor="mm")
        return
    bar_y = inner.y + 32
    bar_w = (inner.w - 10) // 2
    bar(image, draw, Box(inner.x, bar_y, bar_w, 22), int(entry.get("stamina") or 0),
        int(entry.get("max_stamina") or 0), Theme.STAMINA, "STA", size=17)
    bar(image, draw, Box(inner.x + bar_w + 10, bar_y, bar_w, 22), int(entry.get("sanity") or 0),
        int(entry.get("max_sanity") or 0), Theme.SANITY, "SAN", size=17)
    y = bar_y + 28
    where = entry.get("location_name") or entry.get("location") or ""
    facts = f"Clues {clues} · Trophies {trophies}"
    draw_text(image, (inner.x, y), facts, 18, Theme.TEXT, bold=True)
    fw = text_width(facts, 18, True) + 10
    draw_text(image, (inner.x + fw, y), ellipsize(f"at {where}", 18, inner.w - fw), 18, muted)
    things = list(entry.get("items") or []) + list(entry.get("allies") or [])
    holding = entry.get("spells_holding") or {}
    things += [f"{k} ({v} held)" for k, v in holding.items() if v]
    line = ", ".join(things) if things else "no items"
    draw_text(image, (inner.x, y + 24), ellipsize(line, 18, inner.w), 18, muted)


# ================================================================================================ battle & band

def _draw_arena(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, view: View,
                seats: dict[int, dict[str, Any]]) -> None:
    ao = view["ancient_one"]
    panel(draw, box, ARENA_BG, outline=DOOM, width=4, radius=18)
    inner = box.inset(28, 22)
    draw_text(image, (inner.x, inner.y), "THE FINAL BATTLE", 22, Theme.ACCENT, bold=True)
    size = fit_size(ao.get("name", "?"), inner.w, (64, 56, 48, 40), bold=True)
    draw_text(image, (inner.x, inner.y + 30), ao.get("name", "?"), size, Theme.TEXT, bold=True)
    y = inner.y + 30 + size + 18
    draw_text(image, (inner.x, y), "Battle task", 22, Theme.MUTED, bold=True)
    symbols, clock, sanity, stamina = symbols_from_text(str(ao.get("battle_task") or ""))
    _draw_symbols(image, draw, inner.x + 150, y - 14, 56, symbols, clock, sanity, stamina, False, inner.right)
    y += 64
    track = ao.get("doom_track") or []
    doom = int(ao.get("doom") or 0)
    draw_text(image, (inner.x, y), f"Doom left: {doom} — remove every token to drive it back", 22, DOOM, bold=True)
    y += 36
    n = max(1, len(track))
    d = min(48, (inner.w - (n - 1) * 10) // n)
    _draw_doom_track(image, draw, Box(inner.x + 4, y + 4, n * d + (n - 1) * 10, d), track, doom, d)
    y += d + 24
    for label, text in (("Attack", ao.get("attack") or ""), ("Special", ao.get("special") or "")):
        if not text:
            continue
        lw = text_width(label, 20, True) + 12
        draw_text(image, (inner.x, y), label, 20, Theme.BAD if label == "Attack" else Theme.ACCENT, bold=True)
        lines = wrap(text, 20, inner.w - lw, max_lines=3)
        y = draw_lines(image, (inner.x + lw, y), lines, 20, Theme.TEXT, spacing=5) + 8
    here = [e for e in seats.values() if e.get("location") == "ao" and not e.get("eliminated")]
    tx = inner.right - 18
    for entry in reversed(here):
        _token(image, draw, (tx, inner.y + 12), 17, _seat_colour(int(entry["seat"])), _initial(entry))
        tx -= 40


def _tray_dice(view: View) -> list[dict[str, Any]]:
    """Dice with a face in play for the current roll, in the order a player reads them."""
    if not view.get("adventure") or view.get("over"):
        return []
    order = {"pool": 0, "focused": 1, "assisted": 2, "assigned": 3, "battle": 3}
    dice = [d for d in view.get("dice") or [] if d.get("face") and d.get("loc") in order]
    return sorted(dice, key=lambda d: order[d["loc"]])


def _draw_tray(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, view: View) -> None:
    panel(draw, box, Theme.PANEL, outline=Theme.PANEL_EDGE)
    inner = box.inset(14, 10)
    adv = view.get("adventure") or {}
    draw_text(image, (inner.x, inner.y), "Dice", 22, Theme.TEXT, bold=True)
    draw_text(image, (inner.x + 60, inner.y + 3), f"roll {adv.get('rolls', 0)}", 18, Theme.MUTED)
    dice = _tray_dice(view)
    size = 56 if len(dice) <= 8 else 44
    per_row = max(1, (inner.w + 8) // (size + 8))
    tags = {"focused": "F", "assisted": "A", "assigned": "•", "battle": "•"}
    meaning = {"F": "F focused", "A": "A assisting", "•": "• on a task"}
    shown: list[str] = []
    for i, die in enumerate(dice):
        r, c = divmod(i, per_row)
        x = inner.x + c * (size + 8)
        y = inner.y + 36 + r * (size + 14)
        if y + size > inner.bottom:
            break
        paste_icon(image, die_icon(die["color"], die["face"], size), (x, y))
        tag = tags.get(die.get("loc", ""))
        if tag:
            draw.ellipse((x + size - 18, y - 6, x + size + 4, y + 16), fill=HIGHLIGHT)
            draw_text(image, (x + size - 7, y + 5), tag, 14, (30, 24, 8), bold=True, anchor="mm")
            if meaning[tag] not in shown:
                shown.append(meaning[tag])
    if shown:
        draw_text(image, (inner.x, inner.bottom), " · ".join(shown), 17, Theme.MUTED, anchor="ld")


def _draw_banner(image: Image.Image, view: View) -> Image.Image:
    """Game over: darken the table and lay a banner across it."""
    shade = Image.new("RGB", image.size, (0, 0, 0))
    image = Image.blend(image, shade, 0.45)
    draw = ImageDraw.Draw(image)
    won = view.get("result") == "win"
    name = view["ancient_one"].get("name", "The Ancient One")
    box = Box(60, image.height // 2 - 110, image.width - 120, 220)
    colour = Theme.GOOD if won else DOOM
    panel(draw, box, (20, 40, 30) if won else (48, 14, 20), outline=colour, width=6, radius=20)
    title = "VICTORY" if won else "DEFEAT"
    draw_text(image, (box.center[0], box.y + 70), title, 72, colour, bold=True, anchor="mm")
    sub = (f"{name} is sealed away. The investigators win!" if won
           else f"{name} is loose upon the world. The investigators have lost.")
    size = fit_size(sub, box.w - 60, (32, 28, 24))
    draw_text(image, (box.center[0], box.y + 150), sub, size, Theme.TEXT, anchor="mm")
    return image


# ================================================================================================ public API

def render_table_image(view: View) -> Image.Image:
    lay = table_layout(view)
    image = Image.new("RGB", lay.size, Theme.BG)
    draw = ImageDraw.Draw(image)
    seat_entries = list(view.get("investigators") or [])
    seats = {int(e.get("seat", i)): e for i, e in enumerate(seat_entries)}

    _draw_header(image, draw, lay, view, seats)
    if lay.arena is not None:
        _draw_arena(image, draw, lay.arena, view, seats)
    else:
        adventures = list(view.get("adventures") or [])
        for i, box in enumerate(lay.cards):
            _draw_card(image, draw, box, adventures[i] if i < len(adventures) else None, view, seats)
    for box, (kind, item) in zip(lay.band, _band_items(view), strict=True):
        if kind == "ow":
            _draw_card(image, draw, box, item, view, seats)
        else:
            _draw_tray(image, draw, box, view)
    if not lay.band and lay.arena is None:
        draw_text(image, (MARGIN + 4, lay.grid.bottom + GAP + 4), "No Other Worlds open", 20, Theme.FAINT)

    _draw_status(image, draw, lay, view)
    _draw_mythos(image, draw, lay.mythos, view.get("mythos"))
    current = view.get("current")
    for box, entry in zip(lay.seats, seat_entries, strict=False):
        _draw_seat(image, draw, box, entry, entry.get("seat") == current and not view.get("over"))

    if view.get("over"):
        image = _draw_banner(image, view)
    return image


def render_table(view: View) -> bytes:
    """PNG of the whole table as `view` (from build_view) shows it."""
    return to_png(render_table_image(view))


DIE_SIZE = 120
DIE_GAP = 24


def render_dice_image(faces: list[tuple[str, str]]) -> Image.Image:
    n = max(1, len(faces))
    per_row = n if n <= 4 else math.ceil(n / 2)
    rows = math.ceil(n / per_row)
    cell_h = DIE_SIZE + 36
    width = per_row * DIE_SIZE + (per_row + 1) * DIE_GAP
    height = rows * cell_h + (rows + 1) * DIE_GAP - 12
    image = Image.new("RGB", (width, height), Theme.BG)
    for i, (colour, face) in enumerate(faces):
        r, c = divmod(i, per_row)
        x = DIE_GAP + c * (DIE_SIZE + DIE_GAP)
        y = DIE_GAP + r * (cell_h + DIE_GAP)
        paste_icon(image, die_icon(colour, face, DIE_SIZE), (x, y))
        label = FACE_LABELS.get(face or "", face or "—")
        if face and face.startswith("inv"):
            label = f"Inv {face[3:]}"
        draw_text(image, (x + DIE_SIZE // 2, y + DIE_SIZE + 8), label, 22, Theme.TEXT, bold=True, anchor="mt")
    return image


def render_dice(faces: list[tuple[str, str]]) -> bytes:
    """PNG of one roll: (die colour, face) per die, e.g. [("green", "inv3"), ("red", "wild")]."""
    return to_png(render_dice_image(faces))


def dice_from_event(data: dict[str, Any]) -> list[tuple[str, str]]:
    """(colour, face) pairs from a "dice.rolled"/"dice.rerolled" event's data, in die-id order."""
    dice = data.get("dice") or {}
    order = ("g1", "g2", "g3", "g4", "g5", "g6", "y", "r")
    ids = sorted(dice, key=lambda d: order.index(d) if d in order else len(order))
    return [(_die_colour(d), dice[d]) for d in ids]


def _die_colour(die_id: str) -> str:
    # mirrors engine.elder_sign.dice.color_of; kept local so rendering never imports the engine
    return "green" if die_id.startswith("g") else ("yellow" if die_id == "y" else "red")


def register() -> None:
    """Hook this renderer into bot.render's dispatch (call once at bot start-up)."""
    from bot.render import register_renderer

    register_renderer("elder-sign", render_table)
