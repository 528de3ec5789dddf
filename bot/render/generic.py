"""The fallback renderer: the view's top-level scalar fields as a two-column table on a dark background.

Plain, but readable on Discord's dark and light themes alike, and it needs nothing but Pillow.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from bot.render.kit import build_palette, mix, to_png

BACKGROUND = (30, 31, 38)
TITLE = (236, 200, 120)
KEY = (160, 170, 190)
VALUE = (240, 240, 240)
RULE = (70, 72, 84)

WIDTH = 640
MARGIN = 24
TITLE_SIZE = 28
ROW_SIZE = 20
ROW_HEIGHT = 30
MAX_VALUE_CHARS = 48


def scalar_rows(view: dict[str, Any]) -> list[tuple[str, str]]:
    """(label, value) for each top-level scalar; lists and dicts belong to a game's own renderer."""
    rows: list[tuple[str, str]] = []
    for key, value in view.items():
        if isinstance(value, bool):
            text = "yes" if value else "no"
        elif isinstance(value, int | float | str) or value is None:
            text = "—" if value is None else str(value)
        else:
            continue
        if len(text) > MAX_VALUE_CHARS:
            text = text[: MAX_VALUE_CHARS - 1] + "…"
        rows.append((key.replace("_", " "), text))
    return rows


def render_generic(game_type: str, view: dict[str, Any]) -> bytes:
    rows = scalar_rows(view)
    height = MARGIN * 2 + TITLE_SIZE + 16 + max(1, len(rows)) * ROW_HEIGHT
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    title_font = ImageFont.load_default(size=TITLE_SIZE)
    row_font = ImageFont.load_default(size=ROW_SIZE)
    draw.text((MARGIN, MARGIN), game_type.replace("-", " ").title(), fill=TITLE, font=title_font)
    top = MARGIN + TITLE_SIZE + 16
    draw.line([(MARGIN, top - 8), (WIDTH - MARGIN, top - 8)], fill=RULE, width=2)
    if not rows:
        draw.text((MARGIN, top), "(nothing to show)", fill=KEY, font=row_font)
    for i, (label, value) in enumerate(rows):
        y = top + i * ROW_HEIGHT
        draw.text((MARGIN, y), label, fill=KEY, font=row_font)
        draw.text((WIDTH // 2 - MARGIN, y), value, fill=VALUE, font=row_font)
    return to_png(image, palette=_palette())


@cache
def _palette() -> Image.Image:
    """The five colours this picture uses and their antialiased blends: encoded without per-image
    quantisation, like the games' own pictures."""
    inks = [TITLE, KEY, VALUE, RULE]
    steps = [t / 16 for t in range(1, 16)]
    return build_palette([BACKGROUND, *inks], [mix(BACKGROUND, ink, t) for ink in inks for t in steps])
