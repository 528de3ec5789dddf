"""A small drawing kit shared by the game renderers: fonts, a dark theme, boxes, rounded panels, text
fitting and wrapping, stat bars, pips, smooth icons, a fixed-palette builder and PNG output.

Everything here is plain Pillow. Fonts and icons are cached because a table is redrawn after every turn
and FreeType font loading and supersampled icon drawing are the slow parts of a render.
"""

from __future__ import annotations

import hashlib
import io
import itertools
import re
import struct
import threading
import unicodedata
import weakref
import zlib
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from isal import isal_zlib
from PIL import Image, ImageDraw, ImageFont
from pydantic import BaseModel

Color = tuple[int, int, int]
RGBA = tuple[int, int, int, int]
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

FONT_DIR = Path(__file__).resolve().parents[2] / "assets" / "fonts"
REGULAR_FONT = FONT_DIR / "Lato-Regular.ttf"
BOLD_FONT = FONT_DIR / "Lato-Bold.ttf"
#: for the characters Lato lacks (Greek, Cyrillic, Hebrew … in player names): see assets/fonts/README.txt
FALLBACK_FONT = FONT_DIR / "DejaVuSans.ttf"
FALLBACK_BOLD_FONT = FONT_DIR / "DejaVuSans-Bold.ttf"
#: Chinese, Japanese and Korean (one weight: bold text in these scripts is drawn regular)
CJK_FONT = FONT_DIR / "DroidSansFallback.ttf"
#: emoji and pictographs, in one colour (one weight)
EMOJI_FONT = FONT_DIR / "SymbolaEmoji.ttf"

#: icons are drawn this many times larger and scaled down, because Pillow's primitives are not antialiased
SUPERSAMPLE = 4


class Theme:
    """The dark theme. Contrast is chosen for Discord's dark and light clients and for phone screens."""

    BG: Color = (22, 23, 30)
    PANEL: Color = (38, 40, 52)
    PANEL_ALT: Color = (48, 44, 66)
    PANEL_EDGE: Color = (78, 82, 102)
    TEXT: Color = (238, 238, 242)
    MUTED: Color = (160, 166, 184)
    FAINT: Color = (105, 108, 124)
    ACCENT: Color = (245, 196, 66)
    GOOD: Color = (104, 211, 120)
    BAD: Color = (240, 96, 96)
    STAMINA: Color = (214, 64, 64)
    SANITY: Color = (72, 130, 235)
    BAR_BACK: Color = (24, 25, 33)


class Box(NamedTuple):
    """An axis-aligned rectangle; (x, y) is the top-left corner."""

    x: int
    y: int
    w: int
    h: int

    @property
    def right(self) -> int:
        return self.x + self.w

    @property
    def bottom(self) -> int:
        return self.y + self.h

    @property
    def center(self) -> tuple[int, int]:
        return self.x + self.w // 2, self.y + self.h // 2

    def inset(self, dx: int, dy: int | None = None) -> Box:
        dy = dx if dy is None else dy
        return Box(self.x + dx, self.y + dy, max(0, self.w - 2 * dx), max(0, self.h - 2 * dy))

    def rect(self) -> tuple[int, int, int, int]:
        """Pillow's inclusive (x0, y0, x1, y1)."""
        return self.x, self.y, self.right - 1, self.bottom - 1

    def split_cols(self, n: int, gap: int) -> list[Box]:
        """n equal columns with `gap` between them; leftover pixels go to the last column."""
        w = (self.w - gap * (n - 1)) // n
        cols = [Box(self.x + i * (w + gap), self.y, w, self.h) for i in range(n)]
        last = cols[-1]
        cols[-1] = Box(last.x, last.y, self.right - last.x, last.h)
        return cols

    def split_rows(self, n: int, gap: int) -> list[Box]:
        h = (self.h - gap * (n - 1)) // n
        rows = [Box(self.x, self.y + i * (h + gap), self.w, h) for i in range(n)]
        last = rows[-1]
        rows[-1] = Box(last.x, last.y, last.w, self.bottom - last.y)
        return rows


# ---------------------------------------------------------------------------------------------- kept images

_KEPT: dict[int, tuple[weakref.ref[Image.Image], int]] = {}
_SERIALS = itertools.count(1)


class Surface(Protocol):
    """What drawing on a picture takes: an image, or a recorded picture (`bot.render.scene.Scene`), which
    is pasted on and drawn on (through `draw_of`) alike."""

    @property
    def size(self) -> tuple[int, int]: ...

    @property
    def width(self) -> int: ...

    @property
    def height(self) -> int: ...

    def paste(self, im: Any, box: Any = None, mask: Any = None) -> None: ...


def keep(image: Image.Image) -> Image.Image:
    """Mark `image` as one that is never drawn on again (a cached text mask, icon or part): a recorded
    picture (`bot.render.scene`) then knows it by a number instead of its pixels."""
    key = id(image)

    def gone(_ref: weakref.ref[Image.Image]) -> None:
        _KEPT.pop(key, None)

    _KEPT[key] = (weakref.ref(image, gone), next(_SERIALS))
    return image


def kept_serial(image: Image.Image) -> int | None:
    """The number `keep` gave `image` (numbers are never reused), or None."""
    entry = _KEPT.get(id(image))
    if entry is not None and entry[0]() is image:
        return entry[1]
    return None


def draw_of(image: Surface) -> ImageDraw.ImageDraw:
    """`ImageDraw.Draw(image)`, for a picture or a recorded one (which gives its own)."""
    if isinstance(image, Image.Image):
        return Draw(image)
    draw: ImageDraw.ImageDraw = image.draw()  # type: ignore[attr-defined]
    return draw


class Draw(ImageDraw.ImageDraw):
    """`ImageDraw.Draw` whose small rounded rectangles (chips and tags) are painted through masks kept by
    their size: Pillow draws one in Python from corner slices and strips, 30-60 µs where the mask takes 12.
    The pixels are the ones `ImageDraw.rounded_rectangle` sets: the masks are drawn by it, and filled as it
    fills (the fill, then the outline where its colour differs)."""

    def rounded_rectangle(self, xy: Any, radius: float = 0, fill: Any = None, outline: Any = None,
                          width: int = 1, *, corners: tuple[bool, bool, bool, bool] | None = None) -> None:
        box = _whole_box(xy)
        if (box is None or type(radius) is not int or corners is not None or self.mode != "RGB" or box[2] < box[0]
                or box[3] < box[1] or (box[2] - box[0]) * (box[3] - box[1]) > _MASKED_AREA
                or (fill is None and outline is None)):  # Pillow then draws an outline in its default ink
            super().rounded_rectangle(xy, radius, fill, outline, width, corners=corners)
            return
        x0, y0, x1, y1 = box
        size = (x1 - x0 + 1, y1 - y0 + 1)
        if fill is not None:
            self.bitmap((x0 - _MASK_PAD, y0 - _MASK_PAD), _rounded_mask(size, radius, 0), fill=fill)
        if outline is not None and outline != fill and width:
            self.bitmap((x0 - _MASK_PAD, y0 - _MASK_PAD), _rounded_mask(size, radius, width), fill=outline)


def _whole_box(xy: Any) -> tuple[int, int, int, int] | None:
    """(x0, y0, x1, y1) of a box given as four whole numbers or two whole-number points, else None."""
    try:
        flat = tuple(xy) if len(xy) == 4 else (*xy[0], *xy[1])
    except TypeError:
        return None
    if len(flat) == 4 and all(type(v) is int for v in flat):
        return flat[0], flat[1], flat[2], flat[3]
    return None


#: above this many pixels a panel is drawn by Pillow: filling through a mask costs more than its strips
_MASKED_AREA = 20_000
#: room around a rounded rectangle's mask: a thick outline of a very flat one reaches out of its box
_MASK_PAD = 8


@lru_cache(maxsize=4096)
def _rounded_mask(size: tuple[int, int], radius: float, width: int) -> Image.Image:
    """A rounded rectangle's filled area (`width` 0) or its outline `width` px wide, as a 1-bit mask with
    _MASK_PAD px of room on every side."""
    mask = Image.new("1", (size[0] + 2 * _MASK_PAD, size[1] + 2 * _MASK_PAD), 0)
    draw = ImageDraw.Draw(mask)
    box = (_MASK_PAD, _MASK_PAD, _MASK_PAD + size[0] - 1, _MASK_PAD + size[1] - 1)
    if width:
        draw.rounded_rectangle(box, radius, outline=1, width=width)
    else:
        draw.rounded_rectangle(box, radius, fill=1)
    return keep(mask)


# ---------------------------------------------------------------------------------------------- fonts

@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> Font:
    """The shipped Lato (OFL) at `size` px; Pillow's built-in font if the file is missing, so a broken
    install still renders a readable table instead of failing the turn."""
    path = BOLD_FONT if bold else REGULAR_FONT
    try:
        return ImageFont.truetype(str(path), size)
    except OSError:
        return ImageFont.load_default(size=size)


@lru_cache(maxsize=64)
def fallback_font(size: int, bold: bool = False) -> Font:
    """DejaVu Sans at `size` px, for the characters Lato has no glyph for; Lato itself if it is missing."""
    try:
        return ImageFont.truetype(str(FALLBACK_BOLD_FONT if bold else FALLBACK_FONT), size)
    except OSError:
        return font(size, bold)


@lru_cache(maxsize=64)
def _extra_font(path: Path, size: int, bold: bool) -> Font:
    try:
        return ImageFont.truetype(str(path), size)
    except OSError:
        return fallback_font(size, bold)


#: the fonts a character is looked for in, in order: Lato, then DejaVu, then the CJK and the emoji fonts.
#: A run's font is its index here (0 is Lato).
FONT_CHAIN = ("main", "fallback", "cjk", "emoji")


def chain_font(which: int, size: int, bold: bool = False) -> Font:
    """The `which`-th font of FONT_CHAIN at `size` px."""
    if which == 0:
        return font(size, bold)
    if which == 1:
        return fallback_font(size, bold)
    return _extra_font(CJK_FONT if which == 2 else EMOJI_FONT, size, bold)


#: a private-use code point no font here draws: its glyph is the font's "missing" box
_MISSING = "\U0010fffd"


@lru_cache(maxsize=8)
def _missing_glyph(which: int, bold: bool) -> bytes:
    return bytes(chain_font(which, 32, bold).getmask(_MISSING))


@lru_cache(maxsize=4096)
def _has_glyph(which: int, char: str, bold: bool) -> bool:
    """Whether the font draws `char` as itself: FreeType gives a missing character the font's box, which is
    the same mask for every missing character."""
    if char.isspace():
        return True
    return bytes(chain_font(which, 32, bold).getmask(char)) != _missing_glyph(which, bold)


def _invisible(char: str) -> bool:
    """Characters that only shape the one before them in an emoji (variation selectors, the zero-width
    joiner, skin-tone modifiers, tag characters): no font here uses them, and drawn alone each is a box."""
    code = ord(char)
    return (0xFE00 <= code <= 0xFE0F or 0x1F3FB <= code <= 0x1F3FF or 0xE0000 <= code <= 0xE007F
            or unicodedata.category(char) == "Cf")


@lru_cache(maxsize=4096)
def runs(text: str, bold: bool = False) -> tuple[tuple[str, int], ...]:
    """`text` cut into (piece, font) runs, the font an index into FONT_CHAIN. Plain text is one Lato run; a
    character Lato lacks goes to the first fallback that has it (else it stays a Lato box)."""
    if text.isascii():
        return ((text, 0),)
    out: list[tuple[str, int]] = []
    for char in text:
        if _invisible(char):
            continue
        which = 0
        if not _has_glyph(0, char, bold):
            which = next((i for i in range(1, len(FONT_CHAIN)) if _has_glyph(i, char, bold)), 0)
        if out and out[-1][1] == which:
            out[-1] = (out[-1][0] + char, which)
        else:
            out.append((char, which))
    return tuple(out) or (("", 0),)


@lru_cache(maxsize=4096)
def text_width(text: str, size: int, bold: bool = False) -> int:
    # Cached: card names and labels repeat on every render, and measuring is half the cost of drawing.
    pieces = runs(text, bold)
    if len(pieces) == 1 and not pieces[0][1]:
        return int(font(size, bold).getlength(pieces[0][0]))
    return int(sum(chain_font(which, size, bold).getlength(piece) for piece, which in pieces))


def ellipsize(text: str, size: int, width: int, bold: bool = False) -> str:
    """`text` cut with an ellipsis so it fits `width` px."""
    if text_width(text, size, bold) <= width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # binary search on the prefix length: long item lists would otherwise be slow
        mid = (lo + hi + 1) // 2
        if text_width(text[:mid].rstrip() + "…", size, bold) <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "…"


def fit_size(text: str, width: int, sizes: tuple[int, ...], bold: bool = False) -> int:
    """The first (largest) size in `sizes` at which `text` fits `width`; the last size otherwise."""
    for size in sizes:
        if text_width(text, size, bold) <= width:
            return size
    return sizes[-1]


def wrap(text: str, size: int, width: int, bold: bool = False, max_lines: int | None = None) -> list[str]:
    """Greedy word wrap to `width` px; the last allowed line is ellipsized when text is left over."""
    lines: list[str] = []
    current = ""
    words = text.split()
    for i, word in enumerate(words):
        trial = f"{current} {word}" if current else word
        if text_width(trial, size, bold) <= width or not current:
            current = trial
            continue
        if max_lines is not None and len(lines) >= max_lines - 1:
            # `current` is the last line allowed: it takes the rest of the text, cut to fit
            lines.append(ellipsize(" ".join([current, *words[i:]]), size, width, bold))
            return lines
        lines.append(ellipsize(current, size, width, bold))  # only a single over-long word needs cutting
        current = word
    if current:
        lines.append(ellipsize(current, size, width, bold))
    return lines


def fit_lines(text: str, width: int, sizes: tuple[int, ...], bold: bool = False,
              max_lines: int = 2) -> tuple[int, list[str]]:
    """`text` in `width` px, cut only as a last resort: on one line at the largest of `sizes` that holds it,
    else on up to `max_lines` lines at the largest size that holds it whole, else wrapped and cut at the last
    (smallest) size. Returns (size, lines)."""
    for size in sizes:
        if text_width(text, size, bold) <= width:
            return size, [text]
    whole = " ".join(text.split())
    for size in sizes:
        lines = wrap(text, size, width, bold, max_lines=max_lines)
        if " ".join(lines) == whole:
            return size, lines
    return sizes[-1], wrap(text, sizes[-1], width, bold, max_lines=max_lines)


@lru_cache(maxsize=8192)
def _text_mask(text: str, size: int, bold: bool, anchor: str, stroke: int) -> tuple[Image.Image, int, int]:
    """The coverage mask of `text` and its offset from the anchor point. Cached because FreeType
    rasterising is most of a render's time and card names, labels and numbers repeat turn after turn."""
    pieces = runs(text, bold)
    if len(pieces) > 1 or pieces[0][1]:
        return _mixed_mask(pieces, size, bold, anchor, stroke)
    text = pieces[0][0]
    f = font(size, bold)
    if isinstance(f, ImageFont.FreeTypeFont) and not stroke and len(_WORD.findall(text)) > 1:
        worded = _worded_mask(f, text, size, bold, anchor)
        if worded is not None:
            return keep(worded[0]), worded[1], worded[2]
    if isinstance(f, ImageFont.FreeTypeFont):
        # The mask `ImageDraw.text` would draw, taken as FreeType renders it: measuring the text first
        # (`getbbox`) loads every glyph once more, a quarter of the time of a text not drawn before
        core, (left, top) = f.getmask2(text, "L", stroke_width=stroke, anchor=anchor, stroke_filled=True)
        if core.size[0] and core.size[1]:
            return keep(Image.Image()._new(core)), left, top
    left, top, right, bottom = (int(v) for v in f.getbbox(text, anchor=anchor, stroke_width=stroke))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, fill=255, font=f, anchor=anchor, stroke_width=stroke)
    return keep(mask), left, top


_WORD = re.compile(r"\S+")


@lru_cache(maxsize=16384)
def _word_mask(word: str, size: int, bold: bool, phase: int) -> tuple[Image.Image, int, int]:
    """One word's mask and its offset from the pen's whole pixel on the baseline, the pen `phase` 64ths of
    a pixel further (FreeType places each glyph at its pen position rounded, so a word's pixels depend on
    where between two pixels it starts)."""
    f = font(size, bold)
    assert isinstance(f, ImageFont.FreeTypeFont)
    core, (left, top) = f.getmask2(word, "L", anchor="ls", start=(phase / 64, 0))
    return Image.Image()._new(core), left, top


def _worded_mask(f: ImageFont.FreeTypeFont, text: str, size: int, bold: bool,
                 anchor: str) -> tuple[Image.Image, int, int] | None:
    """A line of several words put together from the words' masks, each rasterised once per sub-pixel
    start: FreeType takes about 70 µs a glyph (Lato's hinting is interpreted each time), and a board's
    changing lines ("Round 9 · Encounter Phase · …") are made of words met before. Each word stands where
    the whole line puts it (advances in 64ths of a pixel, as FreeType counts), so the pixels are the line's
    own; None when two words' ink would touch (FreeType blends overlapping glyphs in its own way), and the
    line is rendered whole."""
    placed: list[tuple[int, int, Image.Image]] = []
    pen, at = 0, 0
    for match in _WORD.finditer(text):
        pen += _advance64(text[at:match.start()], size, bold)
        mask, left, top = _word_mask(match.group(), size, bold, pen % 64)
        if mask.width and mask.height:
            placed.append((pen // 64 + left, top, mask))
        pen += _advance64(match.group(), size, bold)
        at = match.end()
    pen += _advance64(text[at:], size, bold)
    if not placed:
        return None
    x0 = min(x for x, _, _ in placed)
    y0 = min(y for _, y, _ in placed)
    x1 = max(x + m.width for x, _, m in placed)
    y1 = max(y + m.height for _, y, m in placed)
    canvas = Image.new("L", (x1 - x0, y1 - y0), 0)
    for x, y, mask in placed:
        box = (x - x0, y - y0, x - x0 + mask.width, y - y0 + mask.height)
        if canvas.crop(box).getbbox() is not None:
            return None
        canvas.paste(mask, box[:2])
    ascent, descent = f.getmetrics()
    ax = {"l": 0, "m": (pen // 2 + 32) // 64, "r": (pen + 32) // 64}[anchor[0]]
    ay = {"a": -ascent, "t": y0, "m": -((ascent - descent + 1) // 2), "s": 0, "b": y1, "d": descent}[anchor[1]]
    return canvas, x0 - ax, y0 - ay


@lru_cache(maxsize=16384)
def _advance64(text: str, size: int, bold: bool) -> int:
    return round(font(size, bold).getlength(text) * 64) if text else 0


def _mixed_mask(pieces: tuple[tuple[str, int], ...], size: int, bold: bool, anchor: str,
                stroke: int) -> tuple[Image.Image, int, int]:
    """Text in two fonts, run after run on one baseline. The anchor is placed from Lato's metrics (a mixed
    line's "top" and "bottom" are taken as its ascender and descender)."""
    main = font(size, bold)
    if isinstance(main, ImageFont.FreeTypeFont):
        ascent, descent = main.getmetrics()
    else:  # Pillow's built-in bitmap font (the shipped fonts are missing): no metrics to ask
        ascent, descent = size, size // 4
    width = sum(chain_font(which, size, bold).getlength(p) for p, which in pieces)
    pad = stroke + size  # room for glyphs taller or deeper than Lato's
    mask = Image.new("L", (int(width) + 2 * pad, ascent + descent + 2 * pad), 0)
    draw = ImageDraw.Draw(mask)
    x = float(pad)
    for piece, which in pieces:
        f = chain_font(which, size, bold)
        draw.text((x, pad + ascent), piece, fill=255, font=f, anchor="ls", stroke_width=stroke)
        x += f.getlength(piece)
    horizontal, vertical = anchor[0], anchor[1]
    baseline = {"a": ascent, "t": ascent, "m": (ascent - descent) // 2, "s": 0, "b": -descent,
                "d": -descent}[vertical]
    start = {"l": 0, "m": -int(width) // 2, "r": -int(width)}[horizontal]
    # the mask's (pad, pad + ascent) is the text's left end on its baseline
    return keep(mask), start - pad, baseline - ascent - pad


#: while `record_text` is open: every text drawn, as (text, font size in px)
_RECORDED: ContextVar[list[tuple[str, int]] | None] = ContextVar("recorded_text", default=None)


@contextmanager
def record_text() -> Iterator[list[tuple[str, int]]]:
    """Every text `draw_text` draws inside the block, as (text, font size): tests read how small a picture's
    smallest text is and whether a value was written at all. Only text drawn inside the block is seen, so a
    renderer that caches drawn text must be measured cold."""
    recorded: list[tuple[str, int]] = []
    token = _RECORDED.set(recorded)
    try:
        yield recorded
    finally:
        _RECORDED.reset(token)


def draw_text(image: Surface, xy: tuple[int, int], text: str, size: int, fill: Color, bold: bool = False,
              anchor: str = "la", stroke: int = 0, stroke_fill: Color | None = None) -> None:
    """Text at `xy` (Pillow anchor semantics), drawn from a cached mask; `stroke` px outline in
    `stroke_fill` keeps text readable over a coloured fill."""
    if not text:
        return
    recorded = _RECORDED.get()
    if recorded is not None:
        recorded.append((text, size))
    x, y = int(xy[0]), int(xy[1])
    if stroke and stroke_fill is not None:
        mask, left, top = _text_mask(text, size, bold, anchor, stroke)
        image.paste(stroke_fill, (x + left, y + top), mask)
    mask, left, top = _text_mask(text, size, bold, anchor, 0)
    image.paste(fill, (x + left, y + top), mask)


def draw_lines(image: Surface, xy: tuple[int, int], lines: list[str], size: int, fill: Color,
               bold: bool = False, spacing: int = 4) -> int:
    """Draw lines top-down from `xy`; returns the y just below the last line."""
    x, y = xy
    for line in lines:
        draw_text(image, (x, y), line, size, fill, bold)
        y += size + spacing
    return y


# ---------------------------------------------------------------------------------------------- shapes

def panel(draw: ImageDraw.ImageDraw, box: Box, fill: Color, outline: Color | None = None, width: int = 2,
          radius: int = 12) -> None:
    draw.rounded_rectangle(box.rect(), radius=radius, fill=fill, outline=outline, width=width if outline else 0)


def bar(image: Surface, draw: ImageDraw.ImageDraw, box: Box, value: int, maximum: int, color: Color,
        label: str = "", size: int = 18) -> None:
    """A stat bar with `label value/max` written over it, so the number is readable without the fill."""
    draw.rounded_rectangle(box.rect(), radius=box.h // 2, fill=Theme.BAR_BACK, outline=dim(color, 0.6), width=2)
    if maximum > 0 and value > 0:
        frac = min(1.0, value / maximum)
        fill_w = max(box.h, int(box.w * frac))
        draw.rounded_rectangle((box.x, box.y, box.x + fill_w - 1, box.bottom - 1), radius=box.h // 2, fill=color)
    text = f"{label} {value}/{maximum}".strip()
    draw_text(image, (box.x + box.w // 2, box.y + box.h // 2), text, size, Theme.TEXT, bold=True, anchor="mm",
              stroke=2, stroke_fill=Theme.BAR_BACK)


def pips(draw: ImageDraw.ImageDraw, xy: tuple[int, int], total: int, filled: int, radius: int, on: Color,
         off: Color, gap: int = 4) -> int:
    """A row of `total` circles, the first `filled` of them in `on`; returns the x after the row."""
    x, y = xy
    for i in range(total):
        colour = on if i < filled else off
        draw.ellipse((x, y, x + 2 * radius, y + 2 * radius), fill=colour if i < filled else None,
                     outline=colour, width=2)
        x += 2 * radius + gap
    return x


def dim(color: Color, factor: float) -> Color:
    return (int(color[0] * factor), int(color[1] * factor), int(color[2] * factor))


def mix(a: Color, b: Color, t: float) -> Color:
    """`a` moved a fraction `t` of the way to `b` (used to grey out finished or eliminated things)."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


# ---------------------------------------------------------------------------------------------- icons

Painter = Callable[[Image.Image], None]

_ICONS: dict[Hashable, tuple[Image.Image, tuple[tuple[str, int], ...]]] = {}


def icon(key: Hashable, size: int, painter: Painter) -> Image.Image:
    """An RGBA icon `size` px square, drawn by `painter(canvas)` on a transparent canvas SUPERSAMPLE times
    larger and scaled down for smooth edges. Cached by (key, size): the painter must be pure."""
    cache_key = (key, size)
    cached = _ICONS.get(cache_key)
    if cached is None:
        big = size * SUPERSAMPLE
        canvas = Image.new("RGBA", (big, big), (0, 0, 0, 0))
        with record_text() as texts:
            painter(canvas)
        cached = (keep(canvas.resize((size, size), Image.Resampling.LANCZOS)), tuple(texts))
        if len(_ICONS) > 2048:  # the keys are a small closed set; this only guards against a runaway caller
            _ICONS.clear()
        _ICONS[cache_key] = cached
    recorded = _RECORDED.get()
    if recorded is not None:  # the texts painted into the icon, each time it is used (as Parts does)
        recorded.extend(cached[1])
    return cached[0]


def paste_icon(image: Surface, ico: Image.Image, xy: tuple[int, int]) -> None:
    image.paste(ico, xy, ico)


# ---------------------------------------------------------------------------------------------- output

#: how many blends are offered between each ink and each background (antialiased edges of text and icons)
RAMP_STEPS = (0.2, 0.4, 0.6, 0.8)
PALETTE_SIZE = 256


def blend_ramps(inks: Iterable[Color], backgrounds: Iterable[Color]) -> list[Color]:
    """The colours antialiasing makes where `inks` are drawn over `backgrounds`."""
    bgs = list(dict.fromkeys(backgrounds))
    return [mix(bg, ink, t) for ink in dict.fromkeys(inks) for bg in bgs for t in RAMP_STEPS]


def build_palette(colours: Iterable[Color], blends: Iterable[Color] = ()) -> Image.Image:
    """A fixed 256-colour palette (a "P" image for `to_png`): every one of `colours` exactly, and the rest
    of the entries spread over `blends` (Pillow's median cut, run once on the list of blends: a few
    milliseconds, where a pure-Python search took a quarter of a second).

    Built once per renderer from its named UI colours, so every picture is mapped to the same palette: no
    per-picture quantisation (the slow part of encoding) and no dithering (flat panels stay flat)."""
    chosen = list(dict.fromkeys(colours))
    if len(chosen) > PALETTE_SIZE:
        raise ValueError(f"{len(chosen)} UI colours do not fit a {PALETTE_SIZE}-colour palette")
    taken = set(chosen)
    pool = [c for c in dict.fromkeys(blends) if c not in taken]
    room = PALETTE_SIZE - len(chosen)
    if pool and room:
        strip = Image.new("RGB", (len(pool), 1))
        strip.putdata(pool)
        reduced = strip.quantize(min(room, len(pool)), method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
        flat_extra = (reduced.getpalette() or [])[: 3 * min(room, len(pool))]
        extra = [(flat_extra[i], flat_extra[i + 1], flat_extra[i + 2]) for i in range(0, len(flat_extra), 3)]
        chosen += [c for c in dict.fromkeys(extra) if c not in taken]
    flat = [v for c in chosen for v in c]
    flat += flat[-3:] * (PALETTE_SIZE - len(chosen))  # unused entries repeat the last colour
    image = Image.new("P", (1, 1))
    image.putpalette(flat)
    return image


def to_png(image: Image.Image, palette: Image.Image | None = None, compress_level: int = 3) -> bytes:
    """PNG bytes, built for speed: the render runs after every turn. With `palette` (from `build_palette`)
    each pixel takes the nearest palette colour, without dithering: about five times faster than
    quantising each picture, a third of the RGB file size, and exact for every named UI colour. `optimize`
    stays off and compression light: Discord re-encodes anyway. An RGB picture with a palette is encoded
    band by band (see `paletted_png`), and a band of RGB rows met before is neither mapped to the palette
    nor compressed again."""
    if palette is not None and image.mode == "RGB":
        return _rgb_paletted_png(image, palette, compress_level)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False, compress_level=compress_level)
    return out.getvalue()


#: Intel's ISA-L deflate (`isal`) for zlib's levels: its level 1 compresses a board's bands as small as zlib's
#: level 3 at a quarter of the time (tests/bench/bench_render_inline). Its output is a function of the input
#: alone (tests/bot/test_render_scene.py checks it across threads), which the publisher relies on: it tells an
#: unchanged board by its bytes.
_ISAL_LEVEL = (0, 1, 1, 1, 2, 2, 2, 3, 3, 3)
#: rows compressed together in `paletted_png`: small enough that a change (a token, a number) leaves most
#: bands as they were, large enough that each compresses well
BAND_ROWS = 16
#: how many bytes the kept bands may hold: each keeps the pixels it was made from (to be compared in full)
#: and its compressed rows; a channel board (1100 px wide, 4 bytes a pixel) holds about 4 MB of them
_BAND_BUDGET = 64 * 1024 * 1024
#: a band is looked up by every this-many-th byte of its pixels, then compared in full: reading the whole
#: band into a hash costs as much as mapping it to the palette. Odd, so the sample falls on every channel.
_SAMPLE_STRIDE = 61
#: versions of a band that share one sample (a change between sampled bytes) kept side by side
_VERSIONS = 4
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: a deflate stream's last block, empty (fixed codes, end of block)
_LAST_BLOCK = b"\x03\x00"
_ADLER_BASE = 65521


class _Band(NamedTuple):
    """One band of rows, compressed."""

    pixels: bytes  # what it was made from (RGBX or palette indices): a band is reused only if these are equal
    deflated: bytes  # its filtered rows as raw deflate, flushed to a byte boundary
    adler: int  # Adler-32 of the filtered rows
    length: int  # bytes of filtered rows

    def cost(self) -> int:
        return len(self.pixels) + len(self.deflated)


class _Bands:
    """Compressed bands of rows by their content (bounded LRU, thread-safe): one picture after the next
    differs in a few places, so most of its bands were made for the last one. A band is found by a sample
    of its pixels and taken only if all its pixels are equal: a sample shared by two bands never gives
    the wrong pixels, it only keeps the two side by side."""

    def __init__(self, budget: int = _BAND_BUDGET) -> None:
        self.budget = budget
        self._bands: OrderedDict[Hashable, list[_Band]] = OrderedDict()
        self._held = 0
        self._lock = threading.Lock()

    def find(self, key: Hashable, raw: bytes, start: int, end: int) -> _Band | None:
        """The band made from `raw[start:end]`, if kept (compared in place: no copy of the pixels)."""
        with self._lock:
            versions = self._bands.get(key)
            if versions is None:
                return None
            for i, band in enumerate(versions):
                if len(band.pixels) == end - start and raw.startswith(band.pixels, start):
                    self._bands.move_to_end(key)
                    if i:
                        versions.insert(0, versions.pop(i))
                    return band
            return None

    def put(self, key: Hashable, band: _Band) -> None:
        with self._lock:
            versions = self._bands.setdefault(key, [])
            self._bands.move_to_end(key)
            if any(kept.pixels == band.pixels for kept in versions):
                return
            versions.insert(0, band)
            self._held += band.cost()
            while len(versions) > _VERSIONS:
                self._held -= versions.pop().cost()
            while self._held > self.budget and len(self._bands) > 1:
                _, old = self._bands.popitem(last=False)
                self._held -= sum(kept.cost() for kept in old)

    def __len__(self) -> int:
        with self._lock:
            return sum(len(versions) for versions in self._bands.values())

    def clear(self) -> None:
        with self._lock:
            self._bands.clear()
            self._held = 0


BANDS = _Bands()


def _adler_combine(first: int, second: int, second_len: int) -> int:
    """The Adler-32 of two byte strings one after the other, from theirs (zlib's adler32_combine)."""
    rem = second_len % _ADLER_BASE
    sum1 = first & 0xFFFF
    sum2 = (rem * sum1) % _ADLER_BASE
    sum1 = (sum1 + (second & 0xFFFF) + _ADLER_BASE - 1) % _ADLER_BASE
    sum2 = (sum2 + ((first >> 16) & 0xFFFF) + ((second >> 16) & 0xFFFF) + _ADLER_BASE - rem) % _ADLER_BASE
    return sum1 | (sum2 << 16)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


def _deflated(indices: bytes | memoryview, width: int, compress_level: int, pixels: bytes) -> _Band:
    """The band of palette `indices` (`width` a row) compressed, kept under `pixels`."""
    rows = len(indices) // width
    # each row starts with its filter type, 0 (none): filters do not help a paletted picture
    filtered = b"".join(b"\x00" + indices[r * width:(r + 1) * width] for r in range(rows))
    packer = isal_zlib.compressobj(_ISAL_LEVEL[min(compress_level, 9)], isal_zlib.DEFLATED, -15)
    return _Band(pixels, packer.compress(filtered) + packer.flush(isal_zlib.Z_SYNC_FLUSH),
                 isal_zlib.adler32(filtered), len(filtered))


def _png(width: int, height: int, palette: list[int], bands: Iterable[_Band]) -> bytes:
    """The PNG file of a paletted picture from its bands of rows, top to bottom. Each band is a deflate
    stream of its own, flushed to a byte boundary, so the bands join into one valid zlib stream (as
    parallel compressors do); the checksum is combined from the bands'."""
    parts: list[bytes] = [b"\x78\x01"]  # zlib header: deflate, 32 KB window, no preset dictionary
    adler = 1
    for band in bands:
        parts.append(band.deflated)
        adler = _adler_combine(adler, band.adler, band.length)
    parts += [_LAST_BLOCK, struct.pack(">I", adler)]
    return b"".join([
        _PNG_SIGNATURE,
        _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)),
        _chunk(b"PLTE", bytes(palette[:3 * 256])),
        _chunk(b"IDAT", b"".join(parts)),
        _chunk(b"IEND", b""),
    ])


def paletted_png(image: Image.Image, compress_level: int = 3) -> bytes:
    """A "P" image as PNG bytes, its rows deflated in bands of BAND_ROWS that are kept by their content: a
    band unchanged since an earlier picture is not compressed again. Decoded, the pixels are the image's
    exactly."""
    width, height = image.size
    raw = _raw(image, "P", 1)
    bands: list[_Band] = []
    for top in range(0, height, BAND_ROWS):
        start, end = top * width, min(height, top + BAND_ROWS) * width
        key = ("P", compress_level, width, end - start, raw[start:end:_SAMPLE_STRIDE])
        band = BANDS.find(key, raw, start, end)
        if band is None:
            indices = raw[start:end]
            band = _deflated(indices, width, compress_level, indices)
            BANDS.put(key, band)
        bands.append(band)
    return _png(width, height, image.getpalette() or [0, 0, 0], bands)


def _raw(image: Image.Image, rawmode: str, pixel_bytes: int) -> bytes:
    """The image's pixels as `image.tobytes("raw", rawmode)` gives them, in one piece: `tobytes` packs them
    64 KB at a time and joins the pieces, which takes a picture's RGBX pixels three times as long."""
    image.load()
    encoder = Image._getencoder(image.mode, "raw", (rawmode, 0, 1))
    try:
        encoder.setimage(image.im, (0, 0, *image.size))
        # the whole picture fits the buffer, so one call packs it all and reports it finished (1)
        _, status, data = encoder.encode(pixel_bytes * image.width * image.height + 1)
    finally:
        encoder.cleanup()
    if status != 1:
        return image.tobytes("raw", rawmode)
    return data


def _rgb_paletted_png(image: Image.Image, palette: Image.Image, compress_level: int) -> bytes:
    """What `paletted_png(image.quantize(palette=palette, dither=NONE))` gives, byte for byte, with only the
    bands not met before mapped to the palette. Without dithering each pixel's index depends on its colour
    alone, so the new bands are mapped together, stacked in one picture (one palette lookup table is set
    up per mapping), and give the indices mapping the whole picture would."""
    width, height = image.size
    # Pillow holds an RGB pixel in four bytes: copying them out as they are is the fastest way to read them
    raw = _raw(image, "RGBX", 4)
    stride = 4 * width
    colours = palette.getpalette() or [0, 0, 0]
    kind = ("RGB", compress_level, bytes(colours))
    bands: list[_Band | None] = []
    new: list[tuple[int, Hashable, bytes]] = []
    for top in range(0, height, BAND_ROWS):
        start, end = top * stride, min(height, top + BAND_ROWS) * stride
        key = (kind, width, end - start, raw[start:end:_SAMPLE_STRIDE])
        band = BANDS.find(key, raw, start, end)
        if band is None:
            new.append((len(bands), key, raw[start:end]))
        bands.append(band)
    if 2 * len(new) > len(bands):
        # most of the picture is new (a first picture, a layout that moved): map it whole, as stacking the
        # new bands would copy most of it once more
        whole = memoryview(_raw(image.quantize(palette=palette, dither=Image.Dither.NONE), "P", 1))
        for i, new_key, pixels in new:
            start = i * BAND_ROWS * width
            band = _deflated(whole[start:start + len(pixels) // 4], width, compress_level, pixels)
            BANDS.put(new_key, band)
            bands[i] = band
    elif new:
        stacked = b"".join(pixels for _, _, pixels in new)
        mapped = Image.frombytes("RGB", (width, len(stacked) // stride), stacked, "raw", "RGBX")
        indices = memoryview(_raw(mapped.quantize(palette=palette, dither=Image.Dither.NONE), "P", 1))
        at = 0
        for i, new_key, pixels in new:
            size = len(pixels) // 4
            band = _deflated(indices[at:at + size], width, compress_level, pixels)
            at += size
            BANDS.put(new_key, band)
            bands[i] = band
    return _png(width, height, colours, [band for band in bands if band is not None])


class PictureCache:
    """The last few encoded pictures by the view they show: an unchanged view (a status request, a re-shown
    section) costs a hash, not a render. Thread-safe: renders run in worker threads."""

    def __init__(self, size: int = 32) -> None:
        self.size = size
        self._pictures: OrderedDict[str, bytes] = OrderedDict()
        self._lock = threading.Lock()

    @staticmethod
    def key(view: BaseModel) -> str:
        return hashlib.blake2b(view.model_dump_json().encode(), digest_size=16).hexdigest()

    def get_or_render(self, view: BaseModel, render: Callable[[], bytes]) -> bytes:
        key = self.key(view)
        with self._lock:
            hit = self._pictures.get(key)
            if hit is not None:
                self._pictures.move_to_end(key)
                return hit
        png = render()
        with self._lock:
            self._pictures[key] = png
            while len(self._pictures) > self.size:
                self._pictures.popitem(last=False)
        return png

    def clear(self) -> None:
        with self._lock:
            self._pictures.clear()


# ---------------------------------------------------------------------------------------------- drawn parts

#: how many bytes of pixels the kept parts may hold
_PART_BUDGET = 48 * 1024 * 1024

_Part = tuple[Image.Image, tuple[tuple[str, int], ...], Image.Image | None]


class Parts:
    """Drawn parts of a picture, kept and pasted again: a layer that does not change during a game (a map
    with its names) or a piece that often comes back the same (a seat's card, a location's tile), keyed by
    everything its drawing reads. Bounded by the pixels it holds (least recently used out first);
    thread-safe, since renders run in worker threads.

    A part is drawn alone on a canvas of its background colour, so pasting it gives the same pixels as
    drawing it in place, provided the drawing stays inside its box and the picture under the box is that
    colour (or, with a `shape`, under the pixels outside the shape). The texts drawn into a part are
    replayed to `record_text` each time it is used, so the tests that read a picture's texts see a kept
    part's too."""

    def __init__(self, budget: int = _PART_BUDGET) -> None:
        self.budget = budget
        self._parts: OrderedDict[Hashable, _Part] = OrderedDict()
        self._held = 0
        self._lock = threading.Lock()
        self._in_place: ContextVar[bool] = ContextVar(f"parts_in_place_{id(self)}", default=False)

    @contextmanager
    def drawing_in_place(self) -> Iterator[None]:
        """Inside the block every part is drawn where it goes, nothing kept (the tests compare the two)."""
        token = self._in_place.set(True)
        try:
            yield
        finally:
            self._in_place.reset(token)

    def get(self, key: Hashable, size: tuple[int, int], background: Color,
            paint: Callable[[Image.Image, ImageDraw.ImageDraw], None]) -> Image.Image:
        """The part under `key`, `size` px on `background`, drawn by `paint(canvas, draw)` on first use
        (shared: copy it before drawing on it)."""
        return self._get(key, size, background, paint, None)[0]

    def paste(self, image: Surface, box: Box, key: Hashable, background: Color,
              paint: Callable[[Image.Image, ImageDraw.ImageDraw, Box], None],
              shape: Callable[[ImageDraw.ImageDraw, Box], None] | None = None) -> None:
        """Draw the part `paint(canvas, draw, local_box)` would draw in `box`, from the kept copy. With `shape`
        (which fills, with 1, the pixels the part covers), only those pixels are pasted: for a part whose box
        shows what lies under it (a rounded tile's corners over a path)."""
        if self._in_place.get():
            if isinstance(image, Image.Image):
                paint(image, Draw(image), box)
            else:  # a recorded picture: the part is drawn in place when the picture is
                image.paint(box, paint)  # type: ignore[attr-defined]
            return
        local = Box(0, 0, box.w, box.h)
        part, mask = self._get(key, (box.w, box.h), background, lambda canvas, draw: paint(canvas, draw, local),
                               None if shape is None else lambda draw: shape(draw, local))
        image.paste(part, (box.x, box.y), mask)

    def clear(self) -> None:
        with self._lock:
            self._parts.clear()
            self._held = 0

    def _get(self, key: Hashable, size: tuple[int, int], background: Color,
             paint: Callable[[Image.Image, ImageDraw.ImageDraw], None],
             shape: Callable[[ImageDraw.ImageDraw], None] | None) -> tuple[Image.Image, Image.Image | None]:
        full_key = (key, size, background, shape is not None)
        with self._lock:
            hit = None if self._in_place.get() else self._parts.get(full_key)
            if hit is not None:
                self._parts.move_to_end(full_key)
        if hit is None:
            canvas = Image.new("RGB", (max(1, size[0]), max(1, size[1])), background)
            with record_text() as texts:
                paint(canvas, Draw(canvas))
            mask = None
            if shape is not None:
                mask = Image.new("1", canvas.size, 0)  # a 1-bit mask: pasted four times faster than an "L" one
                shape(ImageDraw.Draw(mask))
            hit = (keep(canvas), tuple(texts), None if mask is None else keep(mask))
            with self._lock:
                if full_key not in self._parts and not self._in_place.get():
                    self._parts[full_key] = hit
                    self._held += _cost(hit)
                while self._held > self.budget and len(self._parts) > 1:
                    _, old = self._parts.popitem(last=False)
                    self._held -= _cost(old)
        recorded = _RECORDED.get()
        if recorded is not None:
            recorded.extend(hit[1])
        return hit[0], hit[2]


def _cost(part: _Part) -> int:
    """The bytes a kept part holds: its RGB pixels and its 1-bit mask."""
    image, _texts, mask = part
    return image.width * image.height * 3 + (image.width * image.height // 8 if mask is not None else 0)


#: the parts every renderer shares (keys start with the part's kind, so renderers cannot collide)
PARTS = Parts()
