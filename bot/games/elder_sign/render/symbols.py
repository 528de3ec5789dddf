"""Elder Sign's symbols, drawn with Pillow primitives on a supersampled canvas (`kit.icon`): the
magnifier, eye, skull, tentacle, elder sign, clock and padlock, the dice, and the task chips built from
them. No card art or icon font is needed, and nothing copyrighted ships with the bot."""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from bot.render.kit import Color, Surface, Theme, dim, draw_text, ellipsize, font, icon, mix, paste_icon, text_width

ELDER: Color = (120, 226, 200)
DONE_BG: Color = (28, 30, 38)
CHIP_BG: Color = (22, 24, 32)

#: the die bodies; tests count blobs of exactly these colours, so change them together with the tests
DIE_COLOURS: dict[str, Color] = {"green": (44, 160, 72), "yellow": (240, 200, 40), "red": (206, 40, 44)}
#: symbol ink on each die: dark on yellow, white on the darker dice, for contrast
DIE_INK: dict[str, Color] = {"green": (250, 250, 250), "yellow": (30, 26, 20), "red": (250, 250, 250)}
#: a die's darker rim
DIE_RIMS: dict[str, Color] = {c: dim(b, 0.7) for c, b in DIE_COLOURS.items()}

SYMBOL_COLOURS: dict[str, Color] = {"inv": (236, 236, 240), "lore": (120, 186, 255), "peril": (255, 150, 64),
                                    "terror": (186, 120, 255), "wild": ELDER, "clock": (250, 206, 96)}
#: a finished task's symbols fade towards the finished row's background
FADED = 0.6

FACE_LABELS = {"inv1": "Inv 1", "inv2": "Inv 2", "inv3": "Inv 3", "inv4": "Inv 4", "lore": "Lore",
               "peril": "Peril", "terror": "Terror", "wild": "Wild"}


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
        d.rounded_rectangle((0, 0, s - 1, s - 1), radius=s // 6, fill=DIE_RIMS.get(colour, dim(body, 0.7)))
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


# ================================================================================================ task chips

def draw_chips(image: Surface, draw: ImageDraw.ImageDraw, x: int, y: int, size: int,
                  symbols: list[str], clock: int, sanity: int, stamina: int, faded: bool, max_x: int) -> int:
    """One task's requirements as chips, left to right from (x, y); returns the x after the last chip."""
    text_size = max(16, int(size * 0.62))

    def ink(kind: str) -> Color:
        base = SYMBOL_COLOURS.get(kind, Theme.TEXT)
        return mix(base, DONE_BG, FADED) if faded else base

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
        fill = mix(colour, DONE_BG, FADED) if faded else colour
        draw.rounded_rectangle((x, y + 3, x + w - 1, y + size - 4), radius=(size - 7) // 2, fill=fill)
        draw_text(image, (x + w // 2, y + size // 2), text, text_size, Theme.TEXT, bold=True, anchor="mm")
        x += w + 4
    return x
