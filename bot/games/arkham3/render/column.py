"""The right column of the Arkham Horror 3e board picture: the scenario, round and phase (or the game's end), the
scenario sheet's doom and clues with the codex conditions they race towards, the codex cards, the mythos cup,
the item display, and which monster each chip on the map is.

The column's sections keep their order and stack top-down; the codex takes what its cards need (its texts
shrink to one line each when the column runs short) and the monster list takes what is left.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.games.arkham3.render.map import Marker, draw_marker, initials
from bot.games.arkham3.render.style import (
    BIG,
    CLUE,
    CODEX_BG,
    DARK_INK,
    DOOM,
    EPIC,
    GAP,
    LOSS_BG,
    MONEY,
    MONSTER,
    MONSTER_EDGE,
    NAME,
    SHEET_BG,
    SIDE_BOX,
    TEXT,
    TITLE,
    UNSTABLE,
    WHITE,
    WIN_BG,
    cup_colour,
    cup_label,
)
from bot.render.kit import Box, Color, Theme, draw_text, ellipsize, mix, panel, text_width, wrap
from engine.arkham3.view import ArkhamView, CodexView

LINE = TEXT + 5  # the line height of 18 px text
PHASES = {"setup": "Setup", "action": "Action phase", "monster": "Monster phase", "encounter": "Encounter phase",
          "mythos": "Mythos phase", "over": "Game over"}
#: a codex condition as our scenario texts word it: "When there are 2 clues, plus 1 per investigator, ..."
THRESHOLD = re.compile(
    r"^When there (?:are|is) (\d+) (clues?|doom), plus (\d+) per investigator, on the scenario sheet")
SMALL_CHIP = 28
CUP_COLUMNS = 3
TITLE_H, SHEET_H = 94, 124
MONSTER_ROW = SMALL_CHIP + 4
MONSTERS_MIN = 8 + 28 + 2 * MONSTER_ROW + 6  # the monster list keeps at least two rows


def _seat_name(view: ArkhamView, seat: int | None) -> str:
    if seat is None or not 0 <= seat < len(view.investigators):
        return "—"
    return view.investigators[seat].player


# ================================================================================================ sheet

def threshold(view: ArkhamView, text: str | None, kind: str) -> int | None:
    """The count a codex condition names, for `kind` ("clues" or "doom"), when its text says it the way our
    scenarios do; None otherwise (the panel then shows only the card's own text)."""
    if not text:
        return None
    m = THRESHOLD.match(text)
    if m is None or not m.group(2).startswith(kind.rstrip("s")):
        return None
    return int(m.group(1)) + int(m.group(3)) * len(view.investigators)


def _next_threshold(view: ArkhamView, kind: str) -> tuple[int, int] | None:
    """(count, codex card number) of the first codex condition on `kind` not yet reached."""
    field = "objective" if kind == "clues" else "clock"
    have = view.sheet_clues if kind == "clues" else view.sheet_doom
    found = [(n, c.number) for c in view.codex if (n := threshold(view, getattr(c, field), kind)) is not None]
    ahead = [f for f in found if f[0] > have]
    return min(ahead) if ahead else None


def _counter(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, colour: Color, label: str, value: int,
             goal: tuple[int, int] | None) -> None:
    """A big number on the scenario sheet in its colour's disc, and the codex condition it races towards."""
    r = 24
    cx, cy = box.x + r + 2, box.y + box.h // 2
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=DARK_INK, width=2)
    draw_text(image, (cx, cy), str(value), BIG, WHITE if colour == DOOM else DARK_INK, bold=True, anchor="mm")
    x = box.x + 2 * r + 12
    draw_text(image, (x, box.y + 2), label, TITLE, Theme.TEXT, bold=True)
    sub = f"card {goal[1]} at {goal[0]}" if goal else "on the sheet"
    draw_text(image, (x, box.y + 30), ellipsize(sub, TEXT, box.right - x), TEXT, Theme.MUTED)


def _draw_title(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, view: ArkhamView) -> None:
    if view.over:
        _draw_result(image, draw, box, view)
        return
    panel(draw, box, Theme.PANEL, outline=Theme.PANEL_EDGE, radius=12)
    inner = box.inset(12, 8)
    draw_text(image, (inner.x, inner.y), ellipsize(view.scenario, TITLE + 2, inner.w, bold=True), TITLE + 2,
              Theme.TEXT, bold=True)
    phase = PHASES.get(view.phase, view.phase.capitalize())
    draw_text(image, (inner.x, inner.y + 30), f"Round {view.round} · {phase}", NAME, Theme.ACCENT, bold=True)
    who = f"Lead: {_seat_name(view, view.leader)}"
    if view.turn is not None:
        who += f" · Turn: {_seat_name(view, view.turn)}"
    draw_text(image, (inner.x, inner.y + 56), ellipsize(who, TEXT, inner.w), TEXT, Theme.MUTED)


def _draw_result(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, view: ArkhamView) -> None:
    """The game's end in place of the round and phase (the map and everything else stay readable)."""
    won = view.result == "win"
    colour = Theme.GOOD if won else DOOM
    panel(draw, box, WIN_BG if won else LOSS_BG, outline=colour, width=4, radius=12)
    inner = box.inset(14, 8)
    draw_text(image, (inner.x, inner.y - 2), "VICTORY" if won else "DEFEAT", 40, colour, bold=True)
    draw_text(image, (inner.x + text_width("VICTORY" if won else "DEFEAT", 40, True) + 14, inner.y + 4),
              ellipsize(f"after {view.round} rounds", TEXT, inner.w // 2), TEXT, Theme.TEXT)
    draw_text(image, (inner.x, inner.y + 52), ellipsize(view.scenario, NAME, inner.w, bold=True), NAME, Theme.TEXT,
              bold=True)


def _draw_sheet(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, view: ArkhamView) -> None:
    panel(draw, box, SHEET_BG, outline=Theme.PANEL_EDGE, radius=12)
    inner = box.inset(12, 8)
    draw_text(image, (inner.x, inner.y), "Scenario sheet", TEXT, Theme.MUTED, bold=True)
    half = inner.w // 2
    _counter(image, draw, Box(inner.x, inner.y + 24, half - 6, 54), DOOM, "Doom", view.sheet_doom,
             _next_threshold(view, "doom"))
    _counter(image, draw, Box(inner.x + half, inner.y + 24, half, 54), CLUE, "Clues", view.sheet_clues,
             _next_threshold(view, "clues"))
    names = {s.id: s.name for s in view.spaces}
    unstable = ", ".join(names.get(s, s) for s in view.unstable) or "none"
    y = inner.y + 84
    lead = f"Doom on the map: {view.board_doom}"
    draw_text(image, (inner.x, y), lead, TEXT, Theme.TEXT, bold=True)
    x = inner.x + text_width(lead, TEXT, True) + 8
    draw_text(image, (x, y), ellipsize(f"· Unstable: {unstable}", TEXT, inner.right - x), TEXT, UNSTABLE)


# ================================================================================================ codex

@dataclass(frozen=True)
class CodexPlan:
    """One codex card's lines, measured before drawing so the column can give the codex the room it needs."""

    rows: tuple[tuple[str, str, Color], ...]  # (kind, text, colour): kind title | clue | doom | action | text

    @property
    def height(self) -> int:
        return sum(26 if k == "title" else LINE for k, _, _ in self.rows) + 6


def plan_codex(card: CodexView, width: int, lines: int, reminder: bool = True) -> CodexPlan:
    """One codex card: its number and name, its clue and doom conditions wrapped to `lines` lines and its
    action on one; a card with none of those shows one line of its own text (a rules reminder) if `reminder`."""
    rows: list[tuple[str, str, Color]] = [("title", f"{card.number} · {card.name}", Theme.TEXT)]
    text_w = width - 26
    parts = [("clue", card.objective, CLUE), ("doom", card.clock, DOOM), ("action", card.action, Theme.ACCENT)]
    if not any(p[1] for p in parts):
        parts = [("text", card.text if reminder else None, Theme.MUTED)]
    for kind, text, colour in parts:
        if text:
            for line in wrap(text, TEXT, text_w, max_lines=1 if kind in ("action", "text") else lines):
                rows.append((kind, line, colour))
    return CodexPlan(tuple(rows))


def _codex_plans(view: ArkhamView, width: int, room: int) -> list[CodexPlan]:
    for lines, reminder in ((2, True), (1, True), (1, False)):
        plans = [plan_codex(c, width, lines, reminder) for c in view.codex]
        if sum(p.height for p in plans) <= room:
            return plans
    plans, used = [], 0
    for c in view.codex:  # even one line each does not fit: the newest cards keep their line, older ones a title
        p = plan_codex(c, width, 1, False)
        plans.append(p)
        used += p.height
    while used > room and any(len(p.rows) > 1 for p in plans):
        i = next(i for i, p in enumerate(plans) if len(p.rows) > 1)
        used -= plans[i].height
        plans[i] = CodexPlan(plans[i].rows[:1])
        used += plans[i].height
    return plans


def _draw_codex(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, view: ArkhamView,
                plans: list[CodexPlan]) -> None:
    panel(draw, box, CODEX_BG, outline=Theme.PANEL_EDGE, radius=12)
    inner = box.inset(12, 8)
    draw_text(image, (inner.x, inner.y), "Codex", TEXT, Theme.MUTED, bold=True)
    y = inner.y + 26
    for plan in plans:
        marked: set[str] = set()  # each kind of line gets its icon once, on its first line
        for kind, text, colour in plan.rows:
            if kind == "title":
                draw_text(image, (inner.x, y), ellipsize(text, NAME, inner.w, bold=True), NAME, Theme.TEXT, bold=True)
                y += 26
                continue
            if kind not in marked:
                marked.add(kind)
                _codex_icon(draw, kind, inner.x + 8, y + LINE // 2, colour)
            draw_text(image, (inner.x + 24, y), text, TEXT, mix(colour, Theme.TEXT, 0.55) if kind != "text"
                      else Theme.MUTED)
            y += LINE
        y += 6
        if y > box.bottom:
            break


def _codex_icon(draw: ImageDraw.ImageDraw, kind: str, cx: int, cy: int, colour: Color) -> None:
    if kind in ("clue", "doom"):
        draw.ellipse((cx - 7, cy - 7, cx + 7, cy + 7), fill=colour, outline=DARK_INK)
    elif kind == "action":
        draw.polygon([(cx - 6, cy - 7), (cx + 7, cy), (cx - 6, cy + 7)], fill=colour)


# ============================================================================================ cup, display, monsters

def _draw_cup(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, view: ArkhamView) -> None:
    panel(draw, box, Theme.PANEL, outline=Theme.PANEL_EDGE, radius=12)
    inner = box.inset(12, 8)
    drawn = Counter(view.cup_drawn)
    left = sum(view.cup_mix.values()) - len(view.cup_drawn)
    draw_text(image, (inner.x, inner.y), f"Mythos cup · {left} left of {sum(view.cup_mix.values())}", TEXT,
              Theme.MUTED, bold=True)
    cols = inner.split_cols(CUP_COLUMNS, 8)
    y0 = inner.y + 28
    for i, (kind, total) in enumerate(view.cup_mix.items()):
        col = cols[i % CUP_COLUMNS]
        y = y0 + (i // CUP_COLUMNS) * LINE
        colour = cup_colour(kind)
        draw.ellipse((col.x, y + 3, col.x + 16, y + 19), fill=colour, outline=DARK_INK)
        text = f"{cup_label(kind)} {total - drawn[kind]}/{total}"
        draw_text(image, (col.x + 21, y), ellipsize(text, TEXT, col.w - 21), TEXT, Theme.TEXT)
    y = y0 + _cup_rows(view) * LINE + 4
    draw_text(image, (inner.x, y), "Drawn:", TEXT, Theme.MUTED)
    x = inner.x + text_width("Drawn:", TEXT) + 10
    if not view.cup_drawn:
        draw_text(image, (x, y), "nothing since the cup was filled", TEXT, Theme.FAINT)
    for kind in view.cup_drawn:
        if x + 20 > inner.right:
            break
        draw.ellipse((x, y + 2, x + 18, y + 20), fill=cup_colour(kind), outline=DARK_INK)
        x += 22


def _cup_rows(view: ArkhamView) -> int:
    return -(-len(view.cup_mix) // CUP_COLUMNS)


def cup_height(view: ArkhamView) -> int:
    return 8 + 28 + _cup_rows(view) * LINE + 4 + LINE + 8


def _price(text: str) -> str:
    m = re.match(r"^\$(\d+):", text)
    return f"${m.group(1)}" if m else ""


def _draw_display(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, view: ArkhamView) -> None:
    panel(draw, box, Theme.PANEL, outline=Theme.PANEL_EDGE, radius=12)
    inner = box.inset(12, 8)
    draw_text(image, (inner.x, inner.y), "Item display", TEXT, Theme.MUTED, bold=True)
    if not view.display:
        draw_text(image, (inner.x, inner.y + 26), "empty", TEXT, Theme.FAINT)
        return
    cols = inner.split_cols(2, 12) if len(view.display) > 3 else [inner]
    per_col = -(-len(view.display) // len(cols))
    for i, item in enumerate(view.display):
        col = cols[i // per_col]
        y = inner.y + 26 + (i % per_col) * LINE
        price = _price(item.text)
        pw = text_width(price, TEXT, True)
        draw_text(image, (col.x, y), price, TEXT, MONEY, bold=True)
        draw_text(image, (col.x + pw + 6, y), ellipsize(item.name, TEXT, col.w - pw - 6), TEXT, Theme.TEXT)


def display_height(view: ArkhamView) -> int:
    rows = len(view.display) if len(view.display) <= 3 else -(-len(view.display) // 2)
    return 8 + 26 + max(1, rows) * LINE + 6


def monster_kinds(view: ArkhamView) -> list[tuple[str, int, bool]]:
    """(name, how many on the board, epic) per kind of monster, in the order they came into play."""
    kinds: dict[str, list[int | bool]] = {}
    for m in view.monsters:
        entry = kinds.setdefault(m.name, [0, m.epic])
        entry[0] = int(entry[0]) + 1
    return [(name, int(n), bool(epic)) for name, (n, epic) in kinds.items()]


def _draw_monsters(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, view: ArkhamView) -> None:
    """Which monster each chip on the map is: its letters, name and how many are on the board."""
    panel(draw, box, Theme.PANEL, outline=Theme.PANEL_EDGE, radius=12)
    inner = box.inset(12, 8)
    draw_text(image, (inner.x, inner.y), f"Monsters on the board · {len(view.monsters)}", TEXT, Theme.MUTED,
              bold=True)
    kinds = monster_kinds(view)
    if not kinds:
        draw_text(image, (inner.x, inner.y + 28), "none", TEXT, Theme.FAINT)
        return
    cols = inner.split_cols(2, 12)
    y0 = inner.y + 28
    per_col = max(1, (inner.bottom - y0 + 4) // MONSTER_ROW)
    room = per_col * 2
    shown = kinds if len(kinds) <= room else kinds[: room - 1]
    for i, (name, n, epic) in enumerate(shown):
        col, y = cols[i // per_col], y0 + (i % per_col) * MONSTER_ROW
        draw_marker(image, draw, Marker("monster", MONSTER, initials(name), EPIC if epic else MONSTER_EDGE), col.x, y,
                    SMALL_CHIP)
        text = name if n == 1 else f"{name} ×{n}"
        draw_text(image, (col.x + SMALL_CHIP + 8, y + SMALL_CHIP // 2), ellipsize(text, TEXT, col.w - SMALL_CHIP - 8),
                  TEXT, Theme.TEXT, anchor="lm")
    if len(shown) < len(kinds):
        y = y0 + (per_col - 1) * MONSTER_ROW
        draw_text(image, (cols[1].x, y + SMALL_CHIP // 2), f"+{len(kinds) - len(shown)} more kinds", TEXT,
                  Theme.MUTED, anchor="lm")


# ================================================================================================ the column

def side_boxes(view: ArkhamView) -> tuple[dict[str, Box], list[CodexPlan]]:
    """The column's sections top-down, and the codex cards' plans: the codex gets what it needs of the room
    the fixed sections leave (its texts shrink first), the monster list gets the rest."""
    col = SIDE_BOX
    fixed = TITLE_H + SHEET_H + cup_height(view) + display_height(view) + MONSTERS_MIN + 5 * GAP
    room = col.h - fixed - (8 + 26 + 6)
    plans = _codex_plans(view, col.w - 24, room)
    codex_h = 8 + 26 + (sum(p.height for p in plans) if plans else LINE) + 6
    heights = [("title", TITLE_H), ("sheet", SHEET_H), ("codex", codex_h), ("cup", cup_height(view)),
               ("display", display_height(view))]
    boxes: dict[str, Box] = {}
    y = col.y
    for name, h in heights:
        boxes[name] = Box(col.x, y, col.w, h)
        y += h + GAP
    boxes["monsters"] = Box(col.x, y, col.w, col.bottom - y)
    return boxes, plans


def draw_side(image: Image.Image, draw: ImageDraw.ImageDraw, view: ArkhamView) -> dict[str, Box]:
    """The right column; returns each section's box (tests look inside them)."""
    boxes, plans = side_boxes(view)
    _draw_title(image, draw, boxes["title"], view)
    _draw_sheet(image, draw, boxes["sheet"], view)
    _draw_codex(image, draw, boxes["codex"], view, plans)
    _draw_cup(image, draw, boxes["cup"], view)
    _draw_display(image, draw, boxes["display"], view)
    _draw_monsters(image, draw, boxes["monsters"], view)
    return boxes
