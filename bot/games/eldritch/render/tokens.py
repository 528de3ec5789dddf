"""The tokens laid on the Eldritch Horror map: open Gates (a ring in the omen colour around the space),
investigators (a disc in the seat's colour with an initial), defeated investigators (grey discs), Monsters
(a counted badge, starred when an Epic Monster is there, with a tag of the wounds on them), Clues (a counted
disc), rumors and the active expedition (small badges after the space's name). A space's tokens sit at its
slots around its shape (`map.compute_slots`).

Icons are drawn supersampled once and cached by `kit.icon`; numbers and letters are drawn on top from the
glyph cache. Every function here draws on the final picture at a point from `eh_map.MapLayout`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.games.eldritch.render.style import (
    CLUE,
    DARK_INK,
    DEFEATED,
    EPIC,
    EXPEDITION,
    MONSTER,
    MONSTER_EDGE,
    RUMOR,
    SHAPE_EDGE,
    TAG_DELAYED,
    omen_colour,
)
from bot.render.kit import Color, Surface, Theme, draw_of, draw_text, icon, paste_icon, text_width
from engine.eldritch.view import MonsterView

GATE_SIZE = 60
TOKEN_SIZE = 30
BADGE_SIZE = 30
STAR_SIZE = 20
TEXT_SIZE = 18
WOUND_SIZE = 14


def _star_points(cx: float, cy: float, outer: float, inner: float) -> list[tuple[float, float]]:
    return [(cx + (outer if i % 2 == 0 else inner) * math.sin(i * math.pi / 5),
             cy - (outer if i % 2 == 0 else inner) * math.cos(i * math.pi / 5)) for i in range(10)]


def gate_icon(colour: Color, size: int = GATE_SIZE) -> Image.Image:
    def paint(canvas: Image.Image) -> None:
        s = canvas.width
        d = ImageDraw.Draw(canvas)
        d.ellipse((0, 0, s - 1, s - 1), fill=SHAPE_EDGE)
        k = s * 0.045
        d.ellipse((k, k, s - 1 - k, s - 1 - k), fill=colour)
        hole = s * 0.185  # the ring's inside stays clear, so the space's own shape shows through
        d.ellipse((hole - k, hole - k, s - 1 - hole + k, s - 1 - hole + k), fill=SHAPE_EDGE)
        d.ellipse((hole, hole, s - 1 - hole, s - 1 - hole), fill=(0, 0, 0, 0))
    return icon(("eh-gate", colour), size, paint)


def disc_icon(fill: Color, edge: Color = SHAPE_EDGE, size: int = TOKEN_SIZE, cross: bool = False) -> Image.Image:
    def paint(canvas: Image.Image) -> None:
        s = canvas.width
        d = ImageDraw.Draw(canvas)
        d.ellipse((0, 0, s - 1, s - 1), fill=edge)
        k = s * 0.1
        d.ellipse((k, k, s - 1 - k, s - 1 - k), fill=fill)
        if cross:
            m, w = s * 0.3, round(s * 0.09)
            d.line((m, m, s - m, s - m), fill=DARK_INK, width=w)
            d.line((m, s - m, s - m, m), fill=DARK_INK, width=w)
    return icon(("eh-disc", fill, edge, cross), size, paint)


def monster_icon(epic: bool, size: int = BADGE_SIZE) -> Image.Image:
    def paint(canvas: Image.Image) -> None:
        s = canvas.width
        d = ImageDraw.Draw(canvas)
        d.rounded_rectangle((0, 0, s - 1, s - 1), radius=s * 0.22, fill=EPIC if epic else MONSTER_EDGE)
        k = s * (0.14 if epic else 0.08)
        d.rounded_rectangle((k, k, s - 1 - k, s - 1 - k), radius=s * 0.16, fill=MONSTER)
    return icon(("eh-monster", epic), size, paint)


def star_icon(size: int = STAR_SIZE) -> Image.Image:
    def paint(canvas: Image.Image) -> None:
        s = canvas.width
        d = ImageDraw.Draw(canvas)
        d.polygon(_star_points(s / 2, s / 2 + s * 0.04, s * 0.5, s * 0.22), fill=SHAPE_EDGE)
        d.polygon(_star_points(s / 2, s / 2 + s * 0.04, s * 0.38, s * 0.16), fill=EPIC)
    return icon("eh-star", size, paint)


def rumor_icon(size: int = BADGE_SIZE) -> Image.Image:
    def paint(canvas: Image.Image) -> None:
        s = canvas.width
        d = ImageDraw.Draw(canvas)
        d.polygon([(s / 2, 0), (s, s / 2), (s / 2, s), (0, s / 2)], fill=SHAPE_EDGE)
        k = s * 0.12
        d.polygon([(s / 2, k), (s - k, s / 2), (s / 2, s - k), (k, s / 2)], fill=RUMOR)
    return icon("eh-rumor", size, paint)


def expedition_icon(size: int = BADGE_SIZE) -> Image.Image:
    def paint(canvas: Image.Image) -> None:
        s = canvas.width
        d = ImageDraw.Draw(canvas)
        d.ellipse((0, 0, s - 1, s - 1), fill=SHAPE_EDGE)
        pole = s * 0.34
        d.line((pole, s * 0.2, pole, s * 0.82), fill=EXPEDITION, width=round(s * 0.08))
        d.polygon([(pole, s * 0.2), (s * 0.8, s * 0.36), (pole, s * 0.52)], fill=EXPEDITION)
    return icon("eh-expedition", size, paint)


# ---------------------------------------------------------------------------------------------- placing

def _paste_centred(image: Image.Image, ico: Image.Image, x: int, y: int) -> None:
    paste_icon(image, ico, (x - ico.width // 2, y - ico.height // 2))


def draw_gate(image: Image.Image, x: int, y: int, omen: str) -> None:
    _paste_centred(image, gate_icon(omen_colour(omen)), x, y)


def draw_investigator(image: Image.Image, x: int, y: int, colour: Color, letter: str, delayed: bool = False,
                      size: int = TOKEN_SIZE, text_size: int = TEXT_SIZE) -> None:
    """A seat's token; a Delayed investigator's disc has an orange rim."""
    _paste_centred(image, disc_icon(colour, TAG_DELAYED if delayed else SHAPE_EDGE, size), x, y)
    draw_text(image, (x, y + 1), letter, text_size, DARK_INK, bold=True, anchor="mm")


def draw_defeated(image: Image.Image, x: int, y: int) -> None:
    _paste_centred(image, disc_icon(DEFEATED, cross=True), x, y)


def wounds_text(monsters: Sequence[MonsterView]) -> str:
    """The wounds on a space's Monsters, as damage/toughness of each wounded one ("2/3"; "1/2 2/3" for two):
    damage stays on a Monster until it is defeated (Rules Reference, Monsters), so it is part of the board."""
    return " ".join(f"{m.damage}/{m.toughness}" for m in monsters if m.damage > 0)


def draw_wounds(image: Surface, x: int, y: int, text: str, size: int = WOUND_SIZE) -> None:
    """A Monster badge's wounds: a dark tag across the badge's lower edge, centred on (x, y)."""
    if not text:
        return
    draw = draw_of(image)
    w, h = text_width(text, size, True) + 8, size + 4
    draw.rounded_rectangle((x - w // 2, y - h // 2, x + w // 2, y + h // 2), radius=h // 2, fill=Theme.BAR_BACK,
                           outline=MONSTER_EDGE, width=1)
    draw_text(image, (x, y + 1), text, size, Theme.TEXT, bold=True, anchor="mm")


def draw_monsters(image: Image.Image, x: int, y: int, count: int, epic: bool, wounds: str = "",
                  above: bool = False) -> None:
    """The Monsters' badge with their count; their wounds on a tag under it (`above`: over it)."""
    _paste_centred(image, monster_icon(epic), x, y)
    draw_text(image, (x, y + 1), str(count), TEXT_SIZE, Theme.TEXT, bold=True, anchor="mm")
    if epic:
        _paste_centred(image, star_icon(), x + BADGE_SIZE // 2, y - BADGE_SIZE // 2)
    dy = BADGE_SIZE // 2 + WOUND_SIZE // 2 - 2
    draw_wounds(image, x, y - dy if above else y + dy, wounds)


def draw_clues(image: Image.Image, x: int, y: int, count: int) -> None:
    _paste_centred(image, disc_icon(CLUE), x, y)
    draw_text(image, (x, y + 1), str(count), TEXT_SIZE, DARK_INK, bold=True, anchor="mm")


def draw_rumor(image: Image.Image, x: int, y: int) -> None:
    _paste_centred(image, rumor_icon(), x, y)
    draw_text(image, (x, y + 1), "R", TEXT_SIZE, Theme.TEXT, bold=True, anchor="mm")


def draw_expedition(image: Image.Image, x: int, y: int) -> None:
    _paste_centred(image, expedition_icon(), x, y)
