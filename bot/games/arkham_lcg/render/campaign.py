"""The campaign picture, drawn between scenarios and when the game is over: the scenarios played with their
resolutions and outcomes, the campaign log (crossed-out entries struck through), each investigator's
experience and trauma, and the chaos bag the next scenario will use.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.games.arkham_lcg.render.map import draw_token
from bot.games.arkham_lcg.render.panels import draw_bag, draw_top, side_boxes
from bot.games.arkham_lcg.render.style import (
    GAP,
    LOSS_BG,
    MAP_BOX,
    NAME,
    SEAT_BG,
    SEAT_OUT,
    SIDE_BOX,
    SMALL,
    TEXT,
    WIN_BG,
    class_colour,
    initials,
)
from bot.render.kit import Box, Color, Theme, draw_text, ellipsize, panel, text_width, wrap
from engine.arkham_lcg.view import InvestigatorView, LcgView

PAD = 14
RESULT_H = 28
LOG_LINE = TEXT + 7
CARD_H = 118  # an investigator's record
LEFT = Box(MAP_BOX.x, MAP_BOX.y, MAP_BOX.w, SIDE_BOX.bottom - MAP_BOX.y)


def pretty(code: str) -> str:
    """A scenario id as words ("low_water" -> "Low water"): the view names only the current scenario."""
    words = code.replace("_", " ").replace("-", " ").strip()
    return words[:1].upper() + words[1:]


def result_line(result: str, view: LcgView) -> tuple[str, str, bool]:
    """A campaign result ("low_water:R1:win") as (scenario, resolution, won)."""
    scenario, _, rest = result.partition(":")
    resolution, _, outcome = rest.partition(":")
    name = view.scenario_names.get(scenario) or pretty(scenario)
    label = "no resolution" if resolution in ("", "none") else f"resolution {resolution.lstrip('R')}"
    return name, label, outcome == "win"


def campaign_boxes(view: LcgView) -> dict[str, Box]:
    """The results panel, the log panel and the investigators' column."""
    results_h = 50 + max(1, len(view.results)) * RESULT_H
    results = Box(LEFT.x, LEFT.y, LEFT.w, results_h)
    log = Box(LEFT.x, results.bottom + GAP, LEFT.w, LEFT.bottom - results.bottom - GAP)
    return {"results": results, "log": log, "investigators": SIDE_BOX}


def _results(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, view: LcgView) -> None:
    panel(draw, box, Theme.PANEL, outline=Theme.PANEL_EDGE, radius=10)
    inner = box.inset(PAD)
    draw_text(image, (inner.x, inner.y), "SCENARIOS PLAYED", SMALL, Theme.ACCENT, bold=True)
    y = inner.y + 28
    if not view.results:
        draw_text(image, (inner.x, y), "None yet", TEXT, Theme.FAINT)
    for result in view.results:
        name, label, won = result_line(result, view)
        tag = "Won" if won else "Lost"
        w = text_width(tag, SMALL, True) + 16
        draw.rounded_rectangle((inner.x, y, inner.x + w, y + 22), radius=11, fill=WIN_BG if won else LOSS_BG)
        draw_text(image, (inner.x + w // 2, y + 11), tag, SMALL, Theme.GOOD if won else Theme.BAD, bold=True,
                  anchor="mm")
        x = inner.x + w + 10
        draw_text(image, (x, y + 11), ellipsize(name, NAME, inner.right - x - 200, True), NAME, Theme.TEXT,
                  bold=True, anchor="lm")
        x += min(text_width(name, NAME, True), inner.right - x - 200) + 10
        draw_text(image, (x, y + 12), ellipsize(label, TEXT, inner.right - x), TEXT, Theme.MUTED, anchor="lm")
        y += RESULT_H


def _log(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, view: LcgView) -> None:
    panel(draw, box, Theme.PANEL, outline=Theme.PANEL_EDGE, radius=10)
    inner = box.inset(PAD)
    draw_text(image, (inner.x, inner.y), "CAMPAIGN LOG", SMALL, Theme.ACCENT, bold=True)
    entries = [(e, False) for e in view.log] + [(e, True) for e in view.crossed_out]
    y = inner.y + 28
    if not entries:
        draw_text(image, (inner.x, y), "Nothing recorded yet", TEXT, Theme.FAINT)
        return
    room = (inner.bottom - y) // LOG_LINE
    for k, (entry, crossed) in enumerate(entries):
        lines = wrap(entry, TEXT, inner.w - 18, max_lines=3)
        if len(lines) > room or (len(lines) == room and k < len(entries) - 1):
            draw_text(image, (inner.x, y), f"+{len(entries) - k} more entries", TEXT, Theme.MUTED)
            return
        colour: Color = Theme.FAINT if crossed else Theme.TEXT
        draw.ellipse((inner.x + 2, y + 7, inner.x + 8, y + 13), fill=colour)
        for line in lines:
            draw_text(image, (inner.x + 18, y), line, TEXT, colour)
            if crossed:
                mid = y + TEXT // 2 + 2
                draw.line((inner.x + 16, mid, inner.x + 20 + text_width(line, TEXT), mid), fill=colour, width=2)
            y += LOG_LINE
            room -= 1


def _record(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, inv: InvestigatorView) -> None:
    out = inv.status != "playing"
    panel(draw, box, SEAT_OUT if out else SEAT_BG, outline=Theme.PANEL_EDGE, radius=10)
    draw.rectangle((box.x + 3, box.y + 10, box.x + 8, box.bottom - 11), fill=class_colour(inv.cls))
    inner = Box(box.x + 18, box.y + 10, box.w - 28, box.h - 20)
    draw_token(image, draw, (inner.x, inner.y), inv.seat, initials(inv.player), 34)
    x = inner.x + 44
    draw_text(image, (x, inner.y - 3), ellipsize(inv.name, NAME, inner.right - x, True), NAME, Theme.TEXT, bold=True)
    cls = inv.cls.capitalize()
    player = ellipsize(inv.player, SMALL, max(20, inner.right - x - text_width(cls, SMALL, True) - 10))
    draw_text(image, (x, inner.y + 19), player, SMALL, Theme.MUTED)
    draw_text(image, (x + text_width(player, SMALL) + 8, inner.y + 19), cls, SMALL, class_colour(inv.cls),
              bold=True)
    y = inner.y + 44
    draw_text(image, (inner.x, y), f"{inv.xp} XP", NAME, Theme.ACCENT, bold=True)
    trauma = f"Trauma: {inv.physical_trauma} physical, {inv.mental_trauma} mental"
    tx = inner.x + 80
    draw_text(image, (tx, y + 2), ellipsize(trauma, TEXT, inner.right - tx), TEXT,
              Theme.BAD if inv.physical_trauma or inv.mental_trauma else Theme.MUTED)
    y += 28
    line = f"Health {inv.health} · Sanity {inv.sanity} · Deck {inv.deck_size + inv.hand_size + len(inv.discard)}"
    if out:
        line += f" · {inv.status.replace('_', ' ')}"
    draw_text(image, (inner.x, y), ellipsize(line, SMALL, inner.w), SMALL, Theme.MUTED)


def draw_campaign(image: Image.Image, draw: ImageDraw.ImageDraw, view: LcgView) -> dict[str, Box]:
    if view.over and view.campaign_over:
        right, colour = ("Campaign won", Theme.GOOD) if view.result == "win" else ("Campaign lost", Theme.BAD)
    elif view.over:  # a scenario of a channel campaign is over; the campaign goes on
        right, colour = ("Scenario won", Theme.GOOD) if view.result == "win" else ("Scenario lost", Theme.BAD)
    else:
        right, colour = "Between scenarios", Theme.ACCENT
    draw_top(image, draw, view, view.campaign, f"Campaign · {view.difficulty}", right, colour)
    boxes = campaign_boxes(view)
    _results(image, draw, boxes["results"], view)
    _log(image, draw, boxes["log"], view)
    y = SIDE_BOX.y
    bag = side_boxes()["bag"]
    bag = Box(SIDE_BOX.x, SIDE_BOX.bottom - bag.h, SIDE_BOX.w, bag.h)
    for inv in view.investigators:
        if y + CARD_H > bag.y - GAP:
            break
        _record(image, draw, Box(SIDE_BOX.x, y, SIDE_BOX.w, CARD_H), inv)
        y += CARD_H + GAP
    draw_bag(image, draw, bag, view)  # the same chaos bag panel as on the table
    boxes["bag"] = bag
    return boxes
