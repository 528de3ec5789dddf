"""A card as a picture, for `/card`: its name, its kind and game, and its text, in the shared dark theme.

Any game's card draws the same way, from the text its `CardBook` gives (Markdown bold and italics are
dropped, lines kept); nothing here knows a game.
"""

from __future__ import annotations

import re

from PIL import Image, ImageDraw

from bot.render.kit import Box, Theme, draw_text, fit_size, panel, to_png, wrap

WIDTH, HEIGHT = 480, 672  # a poker card's proportions
MARGIN = 18
TITLE_SIZES = (34, 30, 26, 22)
KIND_SIZE = 18
TEXT_SIZES = (20, 18, 16, 14)
LINE_GAP = 5

_MARKS = re.compile(r"(\*\*|__|\*|_)")


def plain_lines(text: str) -> list[str]:
    return [_MARKS.sub("", line).strip() for line in text.splitlines() if line.strip()]


def _layout(paragraphs: list[str], width: int, height: int) -> tuple[int, list[list[str]]]:
    """The largest text size at which every paragraph fits the box (the smallest, ellipsized, otherwise)."""
    for size in TEXT_SIZES:
        wrapped = [wrap(p, size, width) for p in paragraphs]
        needed = sum(len(w) * (size + LINE_GAP) + size // 2 for w in wrapped)
        if needed <= height:
            return size, wrapped
    size = TEXT_SIZES[-1]
    room = max(1, height // (size + LINE_GAP))
    out: list[list[str]] = []
    for p in paragraphs:
        if room <= 0:
            break
        lines = wrap(p, size, width, max_lines=room)
        out.append(lines)
        room -= len(lines) + 1
    return size, out


def render_card(name: str, kind: str, game: str, text: str) -> bytes:
    """PNG bytes of the card `name` (of `kind`, in `game`) with `text` (its first line, the name in bold,
    is not repeated)."""
    image = Image.new("RGB", (WIDTH, HEIGHT), Theme.BG)
    draw = ImageDraw.Draw(image)
    frame = Box(0, 0, WIDTH, HEIGHT).inset(8)
    panel(draw, frame, Theme.PANEL, Theme.ACCENT, width=3, radius=20)
    inner = frame.inset(MARGIN)
    title = Box(inner.x, inner.y, inner.w, 64)
    panel(draw, title, Theme.PANEL_ALT, Theme.PANEL_EDGE, radius=12)
    size = fit_size(name, title.w - 24, TITLE_SIZES, bold=True)
    shown = wrap(name, size, title.w - 24, bold=True, max_lines=1)[0]
    draw_text(image, (title.x + 12, title.y + title.h // 2), shown, size, Theme.ACCENT, bold=True, anchor="lm")
    draw_text(image, (inner.x + 4, title.bottom + 12), f"{kind} · {game}" if kind else game, KIND_SIZE,
              Theme.MUTED, anchor="la")
    body = Box(inner.x, title.bottom + 44, inner.w, inner.bottom - title.bottom - 44)
    panel(draw, body, Theme.BG, Theme.PANEL_EDGE, radius=12)
    lines = plain_lines(text)
    if lines and lines[0] == name:
        lines = lines[1:]
    if lines and lines[0] == kind:
        lines = lines[1:]
    text_box = body.inset(14)
    size, wrapped = _layout(lines, text_box.w, text_box.h)
    y = text_box.y
    for paragraph in wrapped:
        for line in paragraph:
            draw_text(image, (text_box.x, y), line, size, Theme.TEXT)
            y += size + LINE_GAP
        y += size // 2
    return to_png(image)
