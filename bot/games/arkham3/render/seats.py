"""One row per investigator under the Arkham Horror 3e map, in seat order (two columns up to four seats, three
beyond): the seat's colour and initials as on the map, the investigator and player, tags (lead, turn, acted,
delayed, defeated, conditions' public faces), health and sanity left, money, clues, remnants, focus and the
monsters engaged with them.
"""

from __future__ import annotations

from collections import Counter

from PIL import Image, ImageDraw

from bot.games.arkham3.render.map import initials
from bot.games.arkham3.render.style import (
    CLUE,
    DARK_INK,
    GAP,
    MONEY,
    NAME,
    REMNANT,
    SEAT_BG,
    SEAT_OUT,
    SEAT_ROW_H,
    TAG_CONDITION,
    TAG_DEFEATED,
    TAG_DELAYED,
    TAG_INK,
    TAG_LEAD,
    TAG_TURN,
    TEXT,
    seat_colour,
    seat_columns,
    seats_box,
)
from bot.render.kit import Box, Color, Theme, bar, draw_text, ellipsize, mix, panel, text_width
from engine.arkham3.view import ArkhamView, InvestigatorView

SKILLS = {"lore": "Lore", "influence": "Influence", "observation": "Observation", "strength": "Strength",
          "will": "Will"}


def seat_boxes(view: ArkhamView) -> list[Box]:
    """Each seat's row, in seat order, filling the band under the map row by row."""
    n = len(view.investigators)
    area = seats_box(n)
    cols = seat_columns(n)
    widths = area.split_cols(cols, GAP)
    return [Box(widths[i % cols].x, area.y + (i // cols) * (SEAT_ROW_H + GAP), widths[i % cols].w, SEAT_ROW_H)
            for i in range(n)]


def _tag(image: Image.Image, draw: ImageDraw.ImageDraw, right: int, y: int, text: str, fill: Color) -> int:
    """A small filled tag ending at `right`; returns its left edge."""
    w = text_width(text, TEXT, True) + 14
    draw.rounded_rectangle((right - w, y, right, y + 24), radius=12, fill=fill)
    draw_text(image, (right - w // 2, y + 12), text, TEXT, TAG_INK, bold=True, anchor="mm")
    return right - w - 6


def _draw_seat(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, inv: InvestigatorView,
               view: ArkhamView) -> None:
    out = inv.name is None or inv.status == "out"
    colour = seat_colour(inv.seat)
    panel(draw, box, SEAT_OUT if out else SEAT_BG, outline=colour if view.turn == inv.seat else Theme.PANEL_EDGE,
          width=3 if view.turn == inv.seat else 2, radius=12)
    inner = box.inset(10, 8)
    disc = 40
    ring = mix(colour, SEAT_OUT, 0.55) if out else colour
    draw.ellipse((inner.x, inner.y, inner.x + disc, inner.y + disc), fill=ring, outline=DARK_INK, width=2)
    draw_text(image, (inner.x + disc // 2, inner.y + disc // 2), initials(inv.name or inv.player), TEXT, DARK_INK,
              bold=True, anchor="mm")
    # tags right-aligned on the first line: lead, turn, delayed, defeated, conditions
    tags: list[tuple[str, Color]] = []
    if inv.seat == view.leader:
        tags.append(("Lead", TAG_LEAD))
    if inv.seat == view.turn:
        tags.append(("Turn", TAG_TURN))
    if inv.delayed:
        tags.append(("Delayed", TAG_DELAYED))
    if out:  # a seat whose investigator was lost plays on with a new one: only an empty seat is tagged
        tags.append((inv.lost[-1].capitalize() if inv.lost else "Out", TAG_DEFEATED))
    if view.phase == "action" and inv.acted and not out:
        tags.append(("Acted", Theme.MUTED))
    tags += [(c, TAG_CONDITION) for c in inv.conditions]
    right = inner.right
    for text, fill in tags:
        right = _tag(image, draw, right, inner.y, text, fill)
    x = inner.x + disc + 10
    title, second = (inv.name, inv.player) if inv.name else (inv.player, "no investigator now")
    name = ellipsize(title, NAME, max(40, right - x - 4), bold=True)
    draw_text(image, (x, inner.y - 2), name, NAME, Theme.TEXT if not out else Theme.MUTED, bold=True)
    second = ellipsize(second, TEXT, max(40, right - x - 4))
    draw_text(image, (x, inner.y + 21), second, TEXT, mix(colour, Theme.TEXT, 0.4) if inv.name else Theme.MUTED)
    y = inner.y + disc + 4
    if inv.name is None:
        return
    stats = [(f"${inv.money}", MONEY), (_count(inv.clues, "clue"), CLUE), (_count(inv.remnants, "remnant"), REMNANT)]
    stats_w = sum(text_width(t, TEXT, True) + 14 for t, _ in stats)
    wide = inner.w - stats_w >= 2 * 130 + 8  # the stats fit beside the bars; else they open the third line
    bw = min(170, (inner.w - stats_w - 8) // 2) if wide else min(200, (inner.w - 8) // 2)
    bar(image, draw, Box(inner.x, y, bw, 24), inv.health - inv.damage, inv.health, Theme.STAMINA, "HP", size=TEXT)
    bar(image, draw, Box(inner.x + bw + 8, y, bw, 24), inv.sanity - inv.horror, inv.sanity, Theme.SANITY, "San",
        size=TEXT)
    x, sy = (inner.x + 2 * bw + 20, y + 12) if wide else (inner.x, y + 28 + 11)
    for text, ink in stats:
        draw_text(image, (x, sy), text, TEXT, ink, bold=True, anchor="lm")
        x += text_width(text, TEXT, True) + 14
    y += 28
    x = inner.x if wide else x
    focus = Counter(inv.focus)
    focus_text = ", ".join(f"{SKILLS.get(k, k)} {n}" for k, n in focus.items()) or "none"
    engaged = [m for m in view.monsters if inv.seat in m.engaged]
    line = f"Focus: {focus_text}"
    if engaged:
        line += " · Engaged: " + ", ".join(f"{m.name} {m.damage}/{m.health}" for m in engaged)
    draw_text(image, (x, y), ellipsize(line, TEXT, inner.right - x), TEXT, Theme.TEXT if engaged else Theme.MUTED)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def draw_seats(image: Image.Image, draw: ImageDraw.ImageDraw, view: ArkhamView) -> list[Box]:
    boxes = seat_boxes(view)
    for box, inv in zip(boxes, view.investigators, strict=True):
        _draw_seat(image, draw, box, inv, view)
    return boxes

