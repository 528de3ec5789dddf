"""The Elder Sign table image and the dice-roll image.

`render_table(view)` draws the view from `engine.elder_sign.view.build_view` (read once by `es_view`);
`render_roll` draws one roll with who rolled, where, the tasks still to do and the dice held aside. The
symbols are drawn in `es_symbols` with Pillow primitives, so no card art or icon font ships with the bot.

Layout (1280 wide; 900 tall or taller, never clipped: every panel is as tall as its text needs):

    +---------------------------------------------+-------------------+
    | Ancient One, day/turn            doom track | clock  Elder Signs |
    +---------------------------------------------+-------------------+
    | adventure | adventure | adventure           | Mythos            |
    | adventure | adventure | adventure           +-------------------+
    |   (or, in battle, the Ancient One arena)    | investigator ...  |
    +---------------------------------------------+ investigator ...  |
    | Other World | Other World | dice / legend   | ...               |
    +---------------------------------------------+                   |
    | legend of the symbols and the doom track    |                   |
    +---------------------------------------------+-------------------+

Cards grow into the room below them when there is no lower band. The legend takes a free cell of the lower
band, or a strip along the bottom. Every picture is encoded with one fixed palette built from the colours
named here (`PALETTE`), without dithering.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from PIL import Image, ImageDraw

from bot.games.elder_sign.render.symbols import (
    CHIP_BG,
    DIE_COLOURS,
    DIE_INK,
    DIE_RIMS,
    DONE_BG,
    ELDER,
    FACE_LABELS,
    FADED,
    SYMBOL_COLOURS,
    die_icon,
    draw_chips,
    glyph,
    inv_glyph,
    lock_icon,
)
from bot.games.elder_sign.render.view import (
    CardInfo,
    SeatInfo,
    Table,
    TaskInfo,
    battle_task,
    read_table,
    roll_dice,
    symbols_from_text,
)
from bot.render.kit import (
    Box,
    Color,
    Theme,
    bar,
    blend_ramps,
    build_palette,
    dim,
    draw_lines,
    draw_text,
    ellipsize,
    fit_size,
    mix,
    panel,
    paste_icon,
    pips,
    text_width,
    to_png,
    wrap,
)

__all__ = ["ARENA_BG", "CARD_BG", "DIE_COLOURS", "DOOM", "HEIGHT", "HIGHLIGHT", "WIDTH", "Layout", "dice_from_event",
           "encode", "register", "render_dice", "render_event", "render_roll", "render_table", "render_table_image",
           "symbols_from_text", "table_layout"]

View = Any  # the engine's view: a dict today, a typed model later; only es_view reads it

WIDTH, HEIGHT = 1280, 900  # HEIGHT is the least height; content may make the picture taller
MARGIN, GAP = 16, 10
LEFT_W = 880
RIGHT_X = MARGIN + LEFT_W + 12
RIGHT_W = WIDTH - MARGIN - RIGHT_X
HEADER_H = 64
MIN_CARD_H = 250
MIN_BAND_H = 250
STATUS_H = 176
#: task rows: never smaller than MIN_ROW, never taller than MAX_ROW
MIN_ROW, MAX_ROW = 36, 46
#: card text sizes and line heights
TITLE_SIZES = (22, 20)
TITLE_WRAP = 19
FOOT_SIZE, FOOT_LINE = 17, 21
CARD_PAD = 10
#: investigator panels: four or fewer seats get the full panel, more get two lines each
FULL_SEATS = 4
COMPACT_SEAT_H = 64
SEAT_TEXT, SEAT_LINE = 17, 21
#: dice in the table's dice cell
TRAY_DIE, TRAY_GAP = 40, 6
LEGEND_SIZE = 16

CARD_BG: Color = (36, 42, 58)
OW_BG: Color = (50, 36, 70)
ARENA_BG: Color = (58, 24, 40)
MONSTER_ROW: Color = (60, 30, 62)
MYTHOS_BG: Color = (44, 34, 40)
MYTHOS_EDGE: Color = (112, 70, 80)
MYTHOS_TITLE: Color = (230, 150, 150)
MYTHOS_TEXT: Color = (222, 210, 214)
OUT_BG: Color = (30, 30, 34)
TROPHY_BG: Color = (120, 92, 30)
DARK_INK: Color = (16, 16, 22)
TAG_INK: Color = (30, 24, 8)
MONSTER_INK: Color = (20, 10, 24)
CLOCK_FACE: Color = (30, 32, 44)
WIN_BG: Color = (20, 40, 30)
LOSS_BG: Color = (48, 14, 20)
DOOM: Color = (214, 34, 52)
MONSTER: Color = (176, 92, 230)
HIGHLIGHT: Color = Theme.ACCENT
#: the game-over banner darkens the table by this much
SHADE = 0.45

#: one colour per seat for the investigator markers on cards and in the panels
SEAT_COLOURS: list[Color] = [(86, 166, 255), (255, 140, 70), (190, 120, 255), (70, 205, 175),
                             (255, 110, 170), (215, 215, 90), (140, 225, 95), (225, 225, 230)]

CLOCK_LABELS = ("XII", "III", "VI", "IX")
#: the footer lines of a card: label, colour; the text is tinted towards white for reading
FOOTERS = {"terror": ("Terror", SYMBOL_COLOURS["terror"]), "rewards": ("+", Theme.GOOD),
           "penalties": ("−", Theme.BAD), "midnight": ("XII", SYMBOL_COLOURS["clock"])}
FOOT_TINT = 0.55
#: what a card's Terror line means (Rules of Play, "Terror Effects": a failed roll that shows a terror face
#: resolves the card's terror effects, and the Mythos card's, before a die is discarded)
TERROR_LINE = "on a failed roll showing Terror"

#: texts the renderer had to cut to fit, as (what, text); tests check that titles, card footers and the
#: investigator panels never appear here (a player name, typed by anyone, may)
clipped: list[tuple[str, str]] = []


def _cut(what: str, text: str, size: int, width: int, bold: bool = False) -> str:
    out = ellipsize(text, size, width, bold)
    if out != text:
        clipped.append((what, text))
    return out


def _wrap(what: str, text: str, size: int, width: int, bold: bool = False, max_lines: int | None = None) -> list[str]:
    lines = wrap(text, size, width, bold, max_lines=max_lines)
    if lines and lines[-1].endswith("…") and not text.endswith("…"):
        clipped.append((what, text))
    return lines


# ================================================================================================ palette

def _seat_colour(seat: int) -> Color:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


@cache
def _palette(shaded: bool) -> Image.Image:
    """Every colour the table and the dice pictures use, and the blends antialiasing makes between them.
    The game-over picture is the table shaded down under a banner: `shaded` builds that variant."""
    backgrounds = [Theme.BG, Theme.PANEL, Theme.PANEL_ALT, Theme.BAR_BACK, CARD_BG, OW_BG, ARENA_BG, MONSTER_ROW,
                   MYTHOS_BG, OUT_BG, DONE_BG, CHIP_BG, CLOCK_FACE, TROPHY_BG, HIGHLIGHT, MONSTER, DOOM,
                   Theme.STAMINA, Theme.SANITY, *DIE_COLOURS.values(), *SEAT_COLOURS]
    inks = [Theme.TEXT, Theme.MUTED, Theme.FAINT, Theme.ACCENT, Theme.GOOD, Theme.BAD, Theme.PANEL_EDGE,
            MYTHOS_TEXT, MYTHOS_TITLE, MYTHOS_EDGE, DARK_INK, TAG_INK, MONSTER_INK, ELDER, DOOM, MONSTER,
            *SYMBOL_COLOURS.values(), *DIE_INK.values(), *DIE_RIMS.values(), *SEAT_COLOURS]
    derived = ([mix(c, DONE_BG, FADED) for c in SYMBOL_COLOURS.values()]
               + [mix(c, Theme.TEXT, FOOT_TINT) for _, c in FOOTERS.values()]
               + [mix(c, Theme.PANEL, 0.6) for c in SEAT_COLOURS] + [mix(MONSTER, DONE_BG, FADED)]
               + [mix(Theme.STAMINA, DONE_BG, FADED), mix(Theme.SANITY, DONE_BG, FADED)]
               + [dim(c, 0.6) for c in (Theme.STAMINA, Theme.SANITY)])
    colours = [*backgrounds, *inks, *derived]
    ramps = blend_ramps(inks[:14], backgrounds[:14]) + blend_ramps(inks[14:], backgrounds)
    if not shaded:
        return build_palette(colours, ramps)
    keep = 1 - SHADE
    banner = [WIN_BG, LOSS_BG, Theme.GOOD, DOOM, Theme.TEXT]
    return build_palette([*banner, *(dim(c, keep) for c in colours)],
                         blend_ramps(banner, [dim(c, keep) for c in backgrounds]) + [dim(c, keep) for c in ramps])


# ================================================================================================ plans
# A plan measures a panel's text before anything is drawn, so the layout can give each panel the height
# it needs; drawing then follows the plan.

@dataclass(frozen=True)
class CardPlan:
    title: tuple[str, ...]
    title_size: int
    status: bool
    footer: tuple[tuple[str, tuple[str, ...], Color], ...]
    n_tasks: int

    @property
    def title_h(self) -> int:
        return 30 if len(self.title) == 1 else len(self.title) * (self.title_size + 4) + 4

    @property
    def footer_h(self) -> int:
        return sum(len(lines) for _, lines, _ in self.footer) * FOOT_LINE

    def height(self) -> int:
        return 2 * CARD_PAD + self.title_h + (30 if self.status else 0) + max(1, self.n_tasks) * MIN_ROW + 4 + \
            self.footer_h


def _title_width(inner_w: int, markers: int) -> int:
    """Room for the title beside the trophy badge and the investigator markers."""
    return inner_w - 30 - (24 * markers + 8 if markers else 0) - 8


def plan_card(card: CardInfo, width: int, active: bool) -> CardPlan:
    inner_w = width - 24
    name_w = _title_width(inner_w, len(card.investigators))
    size = fit_size(card.name, name_w, TITLE_SIZES, bold=True)
    if text_width(card.name, size, True) <= name_w:
        title: tuple[str, ...] = (card.name,)
    else:
        size = TITLE_WRAP
        title = tuple(_wrap("title", card.name, size, name_w, bold=True, max_lines=3))
    parts = [("terror", card.terror)] if active and card.terror else []
    parts += [("rewards", card.rewards), ("penalties", card.penalties), ("midnight", card.midnight)]
    footer = []
    for kind, text in parts:
        if not text:
            continue
        label, colour = FOOTERS[kind]
        lw = text_width(label, FOOT_SIZE, True) + 8
        footer.append((label, tuple(_wrap("footer", text, FOOT_SIZE, inner_w - lw)), colour))
    status = bool(card.locks) or card.other_world or active
    return CardPlan(title, size, status, tuple(footer), len(card.tasks))


@dataclass(frozen=True)
class SeatPlan:
    compact: bool
    facts: tuple[str, ...] = ()
    things: tuple[str, ...] = ()
    handle_on_top: bool = True  # False: a long name takes the whole top line and @player joins the facts

    def height(self) -> int:
        if self.compact:
            return COMPACT_SEAT_H
        return 8 + 28 + 30 + (len(self.facts) + len(self.things)) * SEAT_LINE + 10


NAME_SIZES = (21, 19, 17)
TURN_TAG_W = 66  # the TURN tag and the gap before it


def _name_room(inner_w: int, handle_w: int) -> int:
    """Room for the investigator's name on a panel's top line: after the marker, before @player and the
    TURN tag (always counted, so a panel does not change shape when the turn passes)."""
    return inner_w - 32 - TURN_TAG_W - (handle_w + 8 if handle_w else 0)


def _handle_width(seat: SeatInfo, inner_w: int) -> int:
    return min(text_width(f"@{seat.player}", 18), inner_w // 3)


def plan_seat(seat: SeatInfo, compact: bool) -> SeatPlan:
    inner_w = RIGHT_W - 24
    on_top = text_width(seat.name, NAME_SIZES[-1], True) <= _name_room(inner_w, _handle_width(seat, inner_w))
    if compact:
        return SeatPlan(compact=True, handle_on_top=on_top)
    if seat.eliminated:
        return SeatPlan(False, ("",), (), on_top)
    handle = "" if on_top else f"@{seat.player} · "
    facts = f"{handle}Clues {seat.clues} · Trophies {seat.trophy_total} · at {seat.location_name}"
    things = list(seat.items) + list(seat.allies)
    things += [f"{name} (holds {n} {'die' if n == 1 else 'dice'})" for name, n in seat.spells_holding if n]
    line = ", ".join(things) if things else "no items"
    return SeatPlan(False, tuple(_wrap("seat", facts, SEAT_TEXT, inner_w, bold=True)),
                    tuple(_wrap("seat", line, SEAT_TEXT, inner_w)), on_top)


def plan_mythos(mythos: tuple[str, str] | None) -> tuple[tuple[str, ...], tuple[str, ...], int]:
    """(name lines, body lines, height) of the Mythos panel."""
    inner_w = RIGHT_W - 28
    if mythos is None:
        return (), ("No Mythos card in play",), 84
    name = tuple(_wrap("mythos", mythos[0], 21, inner_w, bold=True))
    body = tuple(_wrap("mythos", mythos[1], 18, inner_w))
    return name, body, 20 + 22 + len(name) * 24 + 4 + len(body) * 22 + 6


# ================================================================================================ dice cell

@dataclass(frozen=True)
class DiceSection:
    label: str
    dice: tuple[tuple[str, str, str], ...]  # (colour, face, tag letter or "")
    note: str = ""  # a line under the dice (which spells hold them, what locked them)
    locked: bool = False  # the dice are held by locks: drawn as padlocked dice, no face


def dice_sections(table: Table) -> list[DiceSection]:
    """The dice in play, apart by where they are: rolled, kept aside (focus, assistance), held on spells,
    used on tasks, locked. Spell dice and locked dice stay out of the pool between turns, so they show even
    when no roll is on."""
    rolling = table.adventure_where is not None and not table.over
    out = []
    if rolling:
        rolled = tuple((d.colour, d.face or "", "") for d in table.dice_at("pool"))
        if rolled:
            out.append(DiceSection(f"Rolled (roll {table.rolls})", rolled))
        kept = tuple((d.colour, d.face or "", "F" if d.loc == "focused" else "A")
                     for d in table.dice_at("focused", "assisted"))
        if kept:
            out.append(DiceSection("Kept aside (F focused, A assisting)", kept))
    spells = tuple((d.colour, d.face or "", "S") for d in table.dice_at("secured"))
    if spells:
        holders = [f"{name} ({s.initial})" for s in table.seats for name, n in s.spells_holding if n]
        out.append(DiceSection("On spells", spells, ", ".join(holders)))
    if rolling:
        used = tuple((d.colour, d.face or "", "") for d in table.dice_at("assigned", "battle"))
        if used:
            out.append(DiceSection("Used on tasks", used))
    # a lock (an adventure's, a monster's or the Mythos card's) takes a die out of every roll until it
    # leaves play (Rules of Play, "Locked Dice"): the die is shown padlocked, with what holds it
    held = [lk for lk in table.locks if lk.die]
    if held:
        sources = ", ".join(dict.fromkeys(lk.source for lk in held if lk.source))
        out.append(DiceSection("Locked, out of every roll", tuple((lk.colour, "", "") for lk in held),
                               f"by {sources}" if sources else "", locked=True))
    return out


def _per_row(width: int) -> int:
    return max(1, (width + TRAY_GAP) // (TRAY_DIE + TRAY_GAP))


def _section_lines(section: DiceSection, width: int) -> list[str]:
    return _wrap("dice", section.note, 15, width) if section.note else []


def tray_height(sections: list[DiceSection], width: int) -> int:
    inner_w = width - 28
    h = 20 + 30
    for s in sections:
        rows = math.ceil(len(s.dice) / _per_row(inner_w))
        h += 22 + rows * (TRAY_DIE + TRAY_GAP) + len(_section_lines(s, inner_w)) * 18 + 4
    return h


# ================================================================================================ legend

#: the legend, as the strip shows it: a row of task symbols, then the doom track and the cards' badges and
#: lines (a card's "Terror" line is the one players asked about: it is not a task, it fires on a failed roll)
LEGEND_ROWS: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    ("Tasks", (("inv", "Investigation (add up)"), ("lore", "Lore"), ("peril", "Peril"), ("terror", "Terror"),
               ("wild", "Wildcard (any one)"), ("clock", "Clock cost"), ("lock", "Locked die"))),
    ("Doom track", (("doom", "Doom"), ("monster", "Monster space: a monster appears"))),
    ("Cards", (("trophy", "Trophy value"), ("terror_line", TERROR_LINE))),
)


def _legend_entries() -> list[tuple[str, str]]:
    """The cell's entries, labels cut to their first words; the Terror line is drawn apart, on a row of its
    own (its words are the explanation)."""
    return [(k, label.split(" (")[0].split(":")[0]) for _, row in LEGEND_ROWS for k, label in row
            if k != "terror_line"]


def _legend_icon_w(kind: str, s: int) -> int:
    return text_width(FOOTERS["terror"][0], LEGEND_SIZE, True) if kind == "terror_line" else s


def _legend_icon(image: Image.Image, draw: ImageDraw.ImageDraw, kind: str, x: int, y: int, s: int) -> None:
    if kind == "inv":
        paste_icon(image, inv_glyph("", s, SYMBOL_COLOURS["inv"]), (x, y))
    elif kind == "lock":
        paste_icon(image, lock_icon("green", s), (x, y))
    elif kind == "doom":
        draw.ellipse((x + 1, y + 1, x + s - 2, y + s - 2), fill=DOOM)
    elif kind == "monster":
        draw.ellipse((x + 1, y + 1, x + s - 2, y + s - 2), fill=Theme.BAR_BACK, outline=MONSTER, width=3)
    elif kind == "trophy":
        draw.ellipse((x + 1, y + 1, x + s - 2, y + s - 2), fill=TROPHY_BG, outline=Theme.ACCENT, width=2)
    elif kind == "terror_line":  # the word as a card's footer writes it, in its colour
        label, colour = FOOTERS["terror"]
        draw_text(image, (x, y + s // 2), label, LEGEND_SIZE, colour, bold=True, anchor="lm")
    else:
        paste_icon(image, glyph(kind, s, SYMBOL_COLOURS.get(kind, Theme.TEXT)), (x, y))


LEGEND_LINE = 26


def legend_strip_height() -> int:
    return len(LEGEND_ROWS) * LEGEND_LINE + 10


def draw_legend_strip(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box) -> None:
    """A line a row along the bottom: the task symbols, the doom track's spaces, the cards' marks."""
    panel(draw, box, Theme.BG, outline=Theme.PANEL_EDGE, width=1, radius=8)
    lines = [LEGEND_ROWS[i:i + 1] for i in range(len(LEGEND_ROWS))]
    for n, groups in enumerate(lines):
        x, cy = box.x + 12, box.y + 5 + n * LEGEND_LINE + LEGEND_LINE // 2
        for title, entries in groups:
            draw_text(image, (x, cy), title, LEGEND_SIZE, Theme.TEXT, bold=True, anchor="lm")
            x += text_width(title, LEGEND_SIZE, True) + 10
            for kind, label in entries:
                _legend_icon(image, draw, kind, x, cy - 9, 18)
                x += _legend_icon_w(kind, 18) + 5
                draw_text(image, (x, cy), _cut("legend", label, LEGEND_SIZE, box.right - 12 - x), LEGEND_SIZE,
                          Theme.MUTED, anchor="lm")
                x += text_width(label, LEGEND_SIZE) + 14
            x += 16


def draw_legend_cell(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box) -> None:
    panel(draw, box, Theme.BG, outline=Theme.PANEL_EDGE, width=1, radius=12)
    inner = box.inset(14, 10)
    draw_text(image, (inner.x, inner.y), "Symbols", 18, Theme.MUTED, bold=True)
    entries = _legend_entries()
    half = math.ceil(len(entries) / 2)
    first_w = max(text_width(label, 16) for _, label in entries[:half]) + 28 + 12
    step = min(34, (inner.h - 28) // (half + 1))  # a last row for the Terror line
    for i, (kind, label) in enumerate(entries):
        c, r = divmod(i, half)
        x, y = inner.x + c * first_w, inner.y + 28 + r * step
        room = (first_w if c == 0 else inner.right - x) - 28
        _legend_icon(image, draw, kind, x, y, 22)
        size = fit_size(label, room, (16, 15, 14))
        draw_text(image, (x + 28, y + 11), _cut("legend", label, size, room), size, Theme.MUTED, anchor="lm")
    y = inner.y + 28 + half * step
    _legend_icon(image, draw, "terror_line", inner.x, y, 22)
    x = inner.x + _legend_icon_w("terror_line", 22) + 8
    size = fit_size(TERROR_LINE, inner.right - x, (16, 15, 14))
    draw_text(image, (x, y + 11), _cut("legend", TERROR_LINE, size, inner.right - x), size, Theme.MUTED,
              anchor="lm")


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
    band_items: list[tuple[str, Any]]  # ("ow", CardInfo) | ("dice", sections) | ("legend", None)
    legend: Box | None  # the strip along the bottom, when the legend has no band cell
    status: Box
    clock: Box
    elder_signs: Box
    mythos: Box
    seats: list[Box] = field(default_factory=list)
    card_plans: dict[str, CardPlan] = field(default_factory=dict)
    seat_plans: list[SeatPlan] = field(default_factory=list)
    mythos_plan: tuple[tuple[str, ...], tuple[str, ...], int] = ((), (), 0)


def _col_width(n: int = 3) -> int:
    return (LEFT_W - GAP * (n - 1)) // n


def _band(table: Table) -> list[tuple[str, Any]]:
    items: list[tuple[str, Any]] = []
    if not table.battle:
        items += [("ow", ow) for ow in table.other_worlds]
    sections = dice_sections(table)
    if sections:
        items.append(("dice", sections))
    if items and len(items) % 3:
        items.append(("legend", None))  # a free cell in the last row holds the legend
    return items


def _band_height(items: list[tuple[str, Any]], plans: dict[str, CardPlan]) -> int:
    w = _col_width()
    need = MIN_BAND_H
    for kind, item in items:
        if kind == "ow":
            need = max(need, plans[item.where].height())
        elif kind == "dice":
            need = max(need, tray_height(item, w))
    return need


def table_layout(view: View) -> Layout:
    return _layout(read_table(view))


def _layout(table: Table) -> Layout:
    w = _col_width()
    cards = [c for c in (*table.adventures, *table.other_worlds) if c is not None]
    plans = {c.where: plan_card(c, w, c.where == table.adventure_where) for c in cards}
    band_items = _band(table)
    band_rows = math.ceil(len(band_items) / 3)
    band_h = _band_height(band_items, plans) if band_items else 0
    legend_h = 0 if any(k == "legend" for k, _ in band_items) else legend_strip_height()
    grid_cards = [c for c in table.adventures if c is not None]
    card_need = max([MIN_CARD_H, *(plans[c.where].height() for c in grid_cards)])
    below = (GAP + band_rows * (band_h + GAP) - GAP if band_rows else 0) + (GAP + legend_h if legend_h else 0)
    left_fixed = MARGIN + HEADER_H + GAP + GAP + below + MARGIN  # + two card rows

    compact = len(table.seats) > FULL_SEATS
    seat_plans = [plan_seat(s, compact) for s in table.seats]
    mythos_plan = plan_mythos(table.mythos)
    seat_gap = 8 if not compact else 5
    right_need = (MARGIN + STATUS_H + GAP + mythos_plan[2] + GAP + sum(p.height() for p in seat_plans)
                  + seat_gap * max(0, len(seat_plans) - 1) + MARGIN)
    height = max(HEIGHT, left_fixed + 2 * card_need, right_need)
    card_h = (height - left_fixed) // 2  # cards take the room the rest leaves (at least what they need)

    header = Box(MARGIN, MARGIN, LEFT_W, HEADER_H)
    n_doom = len(table.ancient_one.doom_track) or 1
    track_w = n_doom * 30 + (n_doom - 1) * 6
    doom_track = Box(header.right - track_w - 12, header.y + 17, track_w, 30)
    grid = Box(MARGIN, header.bottom + GAP, LEFT_W, 2 * card_h + GAP)
    card_boxes: list[Box] = []
    if not table.battle:
        for row in grid.split_rows(2, GAP):
            card_boxes += row.split_cols(3, GAP)
    band_top = grid.bottom + GAP
    band = []
    for i in range(len(band_items)):
        r, c = divmod(i, 3)
        band.append(Box(MARGIN, band_top + r * (band_h + GAP), LEFT_W, band_h).split_cols(3, GAP)[c])
    legend = Box(MARGIN, height - MARGIN - legend_h, LEFT_W, legend_h) if legend_h else None

    status = Box(RIGHT_X, MARGIN, RIGHT_W, STATUS_H)
    clock = Box(status.x + 8, status.y + 8, 160, 160)
    elder = Box(clock.right + 8, status.y + 8, status.right - clock.right - 16, 160)
    mythos = Box(RIGHT_X, status.bottom + GAP, RIGHT_W, mythos_plan[2])
    y = mythos.bottom + GAP
    seats = []
    for p in seat_plans:
        seats.append(Box(RIGHT_X, y, RIGHT_W, p.height()))
        y += p.height() + seat_gap
    return Layout(size=(WIDTH, height), header=header, doom_track=doom_track, grid=grid, cards=card_boxes,
                  arena=grid if table.battle else None, band=band, band_items=band_items, legend=legend,
                  status=status, clock=clock, elder_signs=elder, mythos=mythos, seats=seats, card_plans=plans,
                  seat_plans=seat_plans, mythos_plan=mythos_plan)


# ================================================================================================ markers

def _token(image: Image.Image, draw: ImageDraw.ImageDraw, center: tuple[int, int], radius: int, colour: Color,
           letter: str, faded: bool = False) -> None:
    """An investigator marker: a disc in the seat's colour with the investigator's initial."""
    cx, cy = center
    fill = mix(colour, Theme.PANEL, 0.6) if faded else colour
    draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=fill, outline=Theme.BG, width=2)
    draw_text(image, (cx, cy + 1), letter, int(radius * 1.25), DARK_INK, bold=True, anchor="mm")


def _trophy_badge(image: Image.Image, draw: ImageDraw.ImageDraw, center: tuple[int, int], r: int, value: int,
                  size: int) -> None:
    cx, cy = center
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=TROPHY_BG, outline=Theme.ACCENT, width=2)
    draw_text(image, center, str(value), size, Theme.TEXT, bold=True, anchor="mm")


# ================================================================================================ cards

def _draw_card(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, card: CardInfo | None, plan: CardPlan | None,
               table: Table) -> None:
    if card is None or plan is None:
        panel(draw, box, Theme.BG, outline=Theme.PANEL_EDGE, width=2)
        draw_text(image, box.center, "(empty)", 20, Theme.FAINT, anchor="mm")
        return
    active = table.adventure_where == card.where
    fill = OW_BG if card.other_world else CARD_BG
    panel(draw, box, fill, outline=HIGHLIGHT if active else Theme.PANEL_EDGE, width=4 if active else 2)
    inner = box.inset(12, CARD_PAD)
    y = _draw_card_title(image, draw, inner, card, plan, table)
    if plan.status:
        y = _draw_card_status(image, inner, y, card, active)
    footer_top = inner.bottom - plan.footer_h
    n = max(1, len(card.tasks))
    row_h = max(MIN_ROW, min(MAX_ROW, (footer_top - y - 4) // n))
    for i, task in enumerate(card.tasks):
        _draw_task_row(image, draw, Box(inner.x, y + i * row_h, inner.w, row_h - 4), task, i, card.ordered)
    fy = footer_top + 2
    for label, lines, colour in plan.footer:
        lw = text_width(label, FOOT_SIZE, True) + 8
        draw_text(image, (inner.x, fy), label, FOOT_SIZE, colour, bold=True)
        fy = draw_lines(image, (inner.x + lw, fy), list(lines), FOOT_SIZE, mix(colour, Theme.TEXT, FOOT_TINT),
                        spacing=FOOT_LINE - FOOT_SIZE)


def _draw_card_title(image: Image.Image, draw: ImageDraw.ImageDraw, inner: Box, card: CardInfo, plan: CardPlan,
                     table: Table) -> int:
    """Name on the left (one or two lines), markers of the investigators here, the trophy value on the right;
    returns the y below the title."""
    badge_r = 15
    badge_c = (inner.right - badge_r, inner.y + badge_r)
    _trophy_badge(image, draw, badge_c, badge_r, card.trophy, 18)
    tx = badge_c[0] - badge_r - 18
    for seat in reversed(card.investigators):
        who = table.seat(seat)
        _token(image, draw, (tx, badge_c[1]), 14, _seat_colour(seat), who.initial if who else "?")
        tx -= 24  # markers overlap a little so four of them still leave room for the name
    if len(plan.title) == 1:
        draw_text(image, (inner.x, inner.y + 2), plan.title[0], plan.title_size, Theme.TEXT, bold=True)
    else:
        draw_lines(image, (inner.x, inner.y), list(plan.title), plan.title_size, Theme.TEXT, bold=True, spacing=4)
    return inner.y + plan.title_h


def _draw_card_status(image: Image.Image, inner: Box, y: int, card: CardInfo, active: bool) -> int:
    """Lock dice, the kind of card, whether a roll is on here (an ordered card numbers its rows instead)."""
    x = inner.x
    for colour in card.locks:
        paste_icon(image, lock_icon(colour, 24), (x, y))
        x += 28
    tags = (["Other World"] if card.other_world else []) + (["rolling here"] if active else [])
    if tags:
        draw_text(image, (x + (4 if card.locks else 0), y + 12), " · ".join(tags), 17,
                  HIGHLIGHT if active else Theme.MUTED, anchor="lm")
    return y + 30


def _draw_task_row(image: Image.Image, draw: ImageDraw.ImageDraw, row: Box, task: TaskInfo, index: int,
                   ordered: bool) -> None:
    if task.done:
        draw.rounded_rectangle(row.rect(), radius=6, fill=DONE_BG)
    elif task.monster:
        draw.rounded_rectangle(row.rect(), radius=6, fill=MONSTER_ROW)
    size = row.h - 4
    x = row.x + 4
    if ordered:
        draw_text(image, (x, row.y + row.h // 2), f"{index + 1}.", 18, Theme.FAINT if task.done else Theme.MUTED,
                  bold=True, anchor="lm")
        x += 22
    right_reserve = 30 if task.done else 0
    max_x = row.right - right_reserve - (96 if task.monster else 0)
    end = draw_chips(image, draw, x, row.y + 2, size, list(task.symbols), task.clock, task.sanity, task.stamina,
                     task.done, max_x)
    if task.monster:
        label_x = end + 4
        room = row.right - label_x - 10 - right_reserve
        size = fit_size(task.monster, room, (17, 15, 14), bold=True)
        label = _cut("monster", task.monster, size, room, True)
        w = text_width(label, size, True) + 12
        draw.rounded_rectangle((label_x, row.y + 3, label_x + w, row.bottom - 4), radius=8,
                               fill=mix(MONSTER, DONE_BG, FADED) if task.done else MONSTER)
        draw_text(image, (label_x + 6, row.y + row.h // 2), label, size, MONSTER_INK, bold=True, anchor="lm")
    if task.done:
        # struck through and ticked: a finished task must not look like one still to roll for
        mid = row.y + row.h // 2
        draw.line([(row.x + 4, mid), (end, mid)], fill=Theme.GOOD, width=3)
        paste_icon(image, glyph("check", size - 2, Theme.GOOD), (row.right - size - 2, row.y + 2))


# ================================================================================================ header & status

def _draw_header(image: Image.Image, draw: ImageDraw.ImageDraw, lay: Layout, table: Table) -> None:
    ao = table.ancient_one
    panel(draw, lay.header, Theme.PANEL, outline=Theme.PANEL_EDGE)
    label = f"Doom {ao.doom}/{len(ao.doom_track)}"
    label_x = lay.doom_track.x - 12
    name_w = label_x - text_width(label, 20, True) - 16 - (lay.header.x + 14)
    size = fit_size(ao.name, name_w, (28, 24, 20), bold=True)
    draw_text(image, (lay.header.x + 14, lay.header.y + 6), _cut("ao", ao.name, size, name_w, True), size,
              Theme.TEXT, bold=True)
    current = table.seat(table.current)
    sub = f"Day {table.day} · Turn {table.turn}"
    if table.battle:
        sub += " · battle"
    if current is not None and not table.over:
        sub += f" · {current.player}'s turn"
    sub_size = fit_size(sub, name_w, (18, 16, 15))
    draw_text(image, (lay.header.x + 14, lay.header.y + 38), _cut("player", sub, sub_size, name_w), sub_size,
              Theme.MUTED)
    draw_text(image, (label_x, lay.doom_track.y + 15), label, 20, DOOM if ao.doom else Theme.MUTED, bold=True,
              anchor="rm")
    _draw_doom_track(image, draw, lay.doom_track, list(ao.doom_track), ao.doom, 30)


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


def _draw_clock(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, hours: int) -> None:
    cx, cy = box.center
    r = box.w // 2 - 4
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=CLOCK_FACE, outline=Theme.PANEL_EDGE, width=3)
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


def _draw_status(image: Image.Image, draw: ImageDraw.ImageDraw, lay: Layout, table: Table) -> None:
    panel(draw, lay.status, Theme.PANEL, outline=Theme.PANEL_EDGE)
    _draw_clock(image, draw, lay.clock, table.clock_hours)
    box = lay.elder_signs
    have, limit = table.elder_signs, table.ancient_one.elder_sign_limit
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


def _draw_mythos(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box,
                 plan: tuple[tuple[str, ...], tuple[str, ...], int]) -> None:
    panel(draw, box, MYTHOS_BG, outline=MYTHOS_EDGE)
    inner = box.inset(14, 10)
    draw_text(image, (inner.x, inner.y), "MYTHOS", 16, MYTHOS_TITLE, bold=True)
    name, body, _ = plan
    if not name:
        draw_text(image, (inner.x, inner.y + 26), body[0], 20, Theme.MUTED)
        return
    y = draw_lines(image, (inner.x, inner.y + 22), list(name), 21, Theme.TEXT, bold=True, spacing=3)
    draw_lines(image, (inner.x, y + 4), list(body), 18, MYTHOS_TEXT, spacing=4)


# ================================================================================================ investigators

def _draw_seat(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, seat: SeatInfo, plan: SeatPlan,
               is_current: bool) -> None:
    """One investigator. Full panels (up to four seats): who, the stamina and sanity bars, clues, trophies
    and where, then items, allies and spells, as many lines as they need. With five to eight seats each
    panel keeps two lines: who, then the bars, clues and trophies (locations show as markers on cards)."""
    out = seat.eliminated
    panel(draw, box, OUT_BG if out else Theme.PANEL, outline=HIGHLIGHT if is_current else Theme.PANEL_EDGE,
          width=4 if is_current else 2, radius=10 if plan.compact else 12)
    inner = box.inset(12, 5 if plan.compact else 8)
    line1 = inner.y + (11 if plan.compact else 14)
    _draw_seat_name(image, draw, inner, line1, seat, plan, is_current)
    if out:
        why = "Devoured" if seat.devoured else "Eliminated"
        draw_text(image, (inner.x, line1 + (13 if plan.compact else 26)), why, 18 if plan.compact else 20,
                  Theme.BAD, bold=True)
        return
    if plan.compact:
        _draw_seat_compact(image, draw, inner, line1 + 14, seat)
        return
    bar_y = inner.y + 32
    bar_w = (inner.w - 10) // 2
    bar(image, draw, Box(inner.x, bar_y, bar_w, 22), seat.stamina, seat.max_stamina, Theme.STAMINA, "STA", size=17)
    bar(image, draw, Box(inner.x + bar_w + 10, bar_y, bar_w, 22), seat.sanity, seat.max_sanity, Theme.SANITY,
        "SAN", size=17)
    y = draw_lines(image, (inner.x, bar_y + 30), list(plan.facts), SEAT_TEXT, Theme.TEXT, bold=True,
                   spacing=SEAT_LINE - SEAT_TEXT)
    draw_lines(image, (inner.x, y), list(plan.things), SEAT_TEXT, Theme.MUTED, spacing=SEAT_LINE - SEAT_TEXT)


def _draw_seat_name(image: Image.Image, draw: ImageDraw.ImageDraw, inner: Box, line1: int, seat: SeatInfo,
                    plan: SeatPlan, is_current: bool) -> None:
    """Marker, name, @player (unless the plan moved it to the facts line) and the TURN tag."""
    muted = Theme.FAINT if seat.eliminated else Theme.MUTED
    _token(image, draw, (inner.x + 13, line1), 12 if plan.compact else 14, _seat_colour(seat.seat), seat.initial,
           faded=seat.eliminated)
    if is_current:
        tag_w = TURN_TAG_W - 8
        draw.rounded_rectangle((inner.right - tag_w, line1 - 11, inner.right, line1 + 11), radius=8,
                               fill=HIGHLIGHT)
        draw_text(image, (inner.right - tag_w // 2, line1), "TURN", 16, TAG_INK, bold=True, anchor="mm")
    handle_w = _handle_width(seat, inner.w) if plan.handle_on_top else 0
    if plan.compact and not plan.handle_on_top:
        # two-line panels have no facts line to take the handle: the name keeps its room, @player is cut
        handle_w = max(40, _name_room(inner.w, 0) - text_width(seat.name, NAME_SIZES[-1], True) - 8)
    if handle_w:
        draw_text(image, (inner.right - TURN_TAG_W, line1), _cut("player", f"@{seat.player}", 18, handle_w), 18,
                  muted, anchor="rm")
    name_w = _name_room(inner.w, handle_w)
    size = fit_size(seat.name, name_w, NAME_SIZES, bold=True)
    draw_text(image, (inner.x + 32, line1), _cut("seat", seat.name, size, name_w, True), size,
              Theme.FAINT if seat.eliminated else Theme.TEXT, bold=True, anchor="lm")


def _draw_seat_compact(image: Image.Image, draw: ImageDraw.ImageDraw, inner: Box, bar_y: int, seat: SeatInfo) -> None:
    """Stamina and sanity bars, then a clue count (lens) and a trophy total (gold disc, as on the cards)."""
    bar_h = 20
    bar_w = (inner.w - 110) // 2
    bar(image, draw, Box(inner.x, bar_y, bar_w, bar_h), seat.stamina, seat.max_stamina, Theme.STAMINA, "STA",
        size=16)
    bar(image, draw, Box(inner.x + bar_w + 6, bar_y, bar_w, bar_h), seat.sanity, seat.max_sanity, Theme.SANITY,
        "SAN", size=16)
    x = inner.x + 2 * bar_w + 16
    paste_icon(image, inv_glyph("", 20, Theme.TEXT), (x, bar_y))
    draw_text(image, (x + 22, bar_y + bar_h // 2), str(seat.clues), 18, Theme.TEXT, bold=True, anchor="lm")
    _trophy_badge(image, draw, (inner.right - 12, bar_y + bar_h // 2), 12, seat.trophy_total, 16)


# ================================================================================================ battle & band

def _draw_arena(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, table: Table) -> None:
    ao = table.ancient_one
    panel(draw, box, ARENA_BG, outline=DOOM, width=4, radius=18)
    inner = box.inset(28, 22)
    draw_text(image, (inner.x, inner.y), "THE FINAL BATTLE", 22, Theme.ACCENT, bold=True)
    size = fit_size(ao.name, inner.w, (64, 56, 48, 40), bold=True)
    draw_text(image, (inner.x, inner.y + 30), _cut("ao", ao.name, size, inner.w, True), size, Theme.TEXT, bold=True)
    y = inner.y + 30 + size + 18
    draw_text(image, (inner.x, y), "Battle task", 22, Theme.MUTED, bold=True)
    task = battle_task(table)
    draw_chips(image, draw, inner.x + 150, y - 14, 56, list(task.symbols), task.clock, task.sanity, task.stamina,
               False, inner.right)
    y += 64
    draw_text(image, (inner.x, y), f"Doom left: {ao.doom} — remove every token to drive it back", 22, DOOM,
              bold=True)
    y += 36
    n = max(1, len(ao.doom_track))
    d = min(48, (inner.w - (n - 1) * 10) // n)
    _draw_doom_track(image, draw, Box(inner.x + 4, y + 4, n * d + (n - 1) * 10, d), list(ao.doom_track), ao.doom, d)
    y += d + 24
    for label, text in (("Attack", ao.attack), ("Special", ao.special)):
        if not text:
            continue
        lw = text_width(label, 20, True) + 12
        draw_text(image, (inner.x, y), label, 20, Theme.BAD if label == "Attack" else Theme.ACCENT, bold=True)
        y = draw_lines(image, (inner.x + lw, y), _wrap("arena", text, 20, inner.w - lw), 20, Theme.TEXT,
                       spacing=5) + 8
    here = [s for s in table.seats if s.location == "ao" and not s.eliminated]
    tx = inner.right - 18
    for seat in reversed(here):
        _token(image, draw, (tx, inner.y + 12), 17, _seat_colour(seat.seat), seat.initial)
        tx -= 40


def _draw_tray(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, table: Table,
               sections: list[DiceSection]) -> None:
    panel(draw, box, Theme.PANEL, outline=Theme.PANEL_EDGE)
    inner = box.inset(14, 10)
    title = "Dice" if table.adventure_where or len(sections) > 1 or sections[0].locked else "Dice on spells"
    draw_text(image, (inner.x, inner.y), title, 22, Theme.TEXT, bold=True)
    y = inner.y + 30
    per_row = _per_row(inner.w)
    for section in sections:
        draw_text(image, (inner.x, y), section.label, 16, Theme.MUTED, bold=True)
        y += 22
        for i, (colour, face, tag) in enumerate(section.dice):
            r, c = divmod(i, per_row)
            x, dy = inner.x + c * (TRAY_DIE + TRAY_GAP), y + r * (TRAY_DIE + TRAY_GAP)
            paste_icon(image, lock_icon(colour, TRAY_DIE) if section.locked else die_icon(colour, face, TRAY_DIE),
                       (x, dy))
            if tag:
                _die_tag(image, draw, x + TRAY_DIE, dy, tag)
        y += math.ceil(len(section.dice) / per_row) * (TRAY_DIE + TRAY_GAP)
        for line in _section_lines(section, inner.w):
            draw_text(image, (inner.x, y), line, 15, Theme.MUTED)
            y += 18
        y += 4


def _die_tag(image: Image.Image, draw: ImageDraw.ImageDraw, right: int, top: int, tag: str) -> None:
    """A letter in a gold disc on a die's top-right corner: F focused, A assisting, S on a spell."""
    draw.ellipse((right - 14, top - 5, right + 4, top + 13), fill=HIGHLIGHT)
    draw_text(image, (right - 5, top + 4), tag, 13, TAG_INK, bold=True, anchor="mm")


def _draw_banner(image: Image.Image, table: Table) -> Image.Image:
    """Game over: darken the table and lay a banner across it."""
    shade = Image.new("RGB", image.size, (0, 0, 0))
    image = Image.blend(image, shade, SHADE)
    draw = ImageDraw.Draw(image)
    won = table.result == "win"
    name = table.ancient_one.name
    box = Box(60, image.height // 2 - 110, image.width - 120, 220)
    colour = Theme.GOOD if won else DOOM
    panel(draw, box, WIN_BG if won else LOSS_BG, outline=colour, width=6, radius=20)
    draw_text(image, (box.center[0], box.y + 70), "VICTORY" if won else "DEFEAT", 72, colour, bold=True,
              anchor="mm")
    sub = (f"{name} is sealed away. The investigators win!" if won
           else f"{name} is loose upon the world. The investigators have lost.")
    size = fit_size(sub, box.w - 60, (32, 28, 24))
    draw_text(image, (box.center[0], box.y + 150), sub, size, Theme.TEXT, anchor="mm")
    return image


# ================================================================================================ public API

def render_table_image(view: View) -> Image.Image:
    table = read_table(view)
    lay = _layout(table)
    image = Image.new("RGB", lay.size, Theme.BG)
    draw = ImageDraw.Draw(image)
    _draw_header(image, draw, lay, table)
    if lay.arena is not None:
        _draw_arena(image, draw, lay.arena, table)
    else:
        for i, box in enumerate(lay.cards):
            card = table.adventures[i] if i < len(table.adventures) else None
            _draw_card(image, draw, box, card, lay.card_plans.get(card.where) if card else None, table)
    for box, (kind, item) in zip(lay.band, lay.band_items, strict=True):
        if kind == "ow":
            _draw_card(image, draw, box, item, lay.card_plans[item.where], table)
        elif kind == "dice":
            _draw_tray(image, draw, box, table, item)
        else:
            draw_legend_cell(image, draw, box)
    if lay.legend is not None:
        draw_legend_strip(image, draw, lay.legend)
    _draw_status(image, draw, lay, table)
    _draw_mythos(image, draw, lay.mythos, lay.mythos_plan)
    for box, seat, plan in zip(lay.seats, table.seats, lay.seat_plans, strict=True):
        _draw_seat(image, draw, box, seat, plan, seat.seat == table.current and not table.over)
    if table.over:
        image = _draw_banner(image, table)
    return image


def render_table(view: View) -> bytes:
    """PNG of the whole table as `view` (from build_view) shows it."""
    return encode(render_table_image(view), shaded=bool(read_table(view).over))


def encode(image: Image.Image, shaded: bool = False) -> bytes:
    """PNG bytes of a picture drawn here, on the fixed palette (`shaded`: the game-over variant)."""
    return to_png(image, palette=_palette(shaded))


# ================================================================================================ the roll

DIE_SIZE = 120
DIE_GAP = 24
HELD_DIE = 64


@dataclass(frozen=True)
class RollContext:
    """What the roll picture says around the dice, from the view after the roll (see `roll_context`)."""

    who: str  # "alice (Ada Whitcombe)"
    where: str  # the card's name
    todo: tuple[TaskInfo, ...]  # the tasks still to do there
    held: tuple[tuple[str, str, str], ...]  # (colour, face, why: "focused", "assisting", "on a spell")


def roll_context(view: View) -> RollContext | None:
    """Who is rolling, where, what is left to do and which dice wait aside, read from the table as it stands
    after the roll; None when no roll is on any more (the adventure ended in the same step)."""
    table = read_table(view)
    seat = table.seat(table.current)
    if table.adventure_where is None or seat is None:
        return None
    who = f"{seat.player} ({seat.investigator})" if seat.investigator else seat.player
    todo: tuple[TaskInfo, ...]
    if table.adventure_where == "ao":
        where, todo = table.ancient_one.name, (battle_task(table),)
    else:
        card = table.card_at(table.adventure_where)
        if card is None:
            return None
        where = card.name
        todo = card.open_tasks()[:1] if card.ordered else card.open_tasks()
    why = {"focused": "focused", "assisted": "assisting", "secured": "on a spell"}
    held = tuple((d.colour, d.face or "", why[d.loc]) for d in table.dice_at("focused", "assisted", "secured"))
    return RollContext(who, where, todo, held)


ROLL_HEAD_H = 112  # who/where, then the tasks to do on a card-coloured strip
HELD_ROW_H = HELD_DIE + 64


def render_dice_image(faces: list[tuple[str, str]], context: RollContext | None = None) -> Image.Image:
    """The rolled dice large with their names; with a context, a heading (who, where) and the tasks to do
    above them, and the dice held aside below, small and labelled, so they are never taken for rolled ones."""
    n = max(1, len(faces))
    per_row = n if n <= 4 else math.ceil(n / 2)
    rows = math.ceil(n / per_row)
    cell_h = DIE_SIZE + 36
    width = per_row * DIE_SIZE + (per_row + 1) * DIE_GAP
    top = 0
    if context is not None:
        width = max(width, 640)
        top = ROLL_HEAD_H
    dice_h = rows * cell_h + (rows + 1) * DIE_GAP - 12
    held_h = HELD_ROW_H if context is not None and context.held else 0
    image = Image.new("RGB", (width, top + dice_h + held_h), Theme.BG)
    draw = ImageDraw.Draw(image)
    if context is not None:
        _draw_roll_heading(image, draw, width, context)
    x0 = (width - (per_row * DIE_SIZE + (per_row - 1) * DIE_GAP)) // 2
    for i, (colour, face) in enumerate(faces):
        r, c = divmod(i, per_row)
        x = x0 + c * (DIE_SIZE + DIE_GAP)
        y = top + DIE_GAP + r * (cell_h + DIE_GAP)
        paste_icon(image, die_icon(colour, face, DIE_SIZE), (x, y))
        label = FACE_LABELS.get(face or "", face or "—")
        draw_text(image, (x + DIE_SIZE // 2, y + DIE_SIZE + 8), label, 22, Theme.TEXT, bold=True, anchor="mt")
    if held_h and context is not None:
        _draw_held_row(image, draw, Box(DIE_GAP // 2, top + dice_h, width - DIE_GAP, held_h - DIE_GAP // 2),
                       context)
    return image


def _draw_roll_heading(image: Image.Image, draw: ImageDraw.ImageDraw, width: int, ctx: RollContext) -> None:
    x, w = DIE_GAP, width - 2 * DIE_GAP
    head = f"{ctx.who} rolls at {ctx.where}"
    size = fit_size(head, w, (26, 23, 20), bold=True)
    draw_text(image, (x, 14), _cut("roll", head, size, w, True), size, Theme.TEXT, bold=True)
    strip = Box(DIE_GAP // 2, 52, width - DIE_GAP, 52)
    panel(draw, strip, CARD_BG, outline=Theme.PANEL_EDGE, radius=10)
    draw_text(image, (strip.x + 12, strip.y + strip.h // 2), "To do", 18, Theme.MUTED, bold=True, anchor="lm")
    cx = strip.x + 12 + text_width("To do", 18, True) + 12
    for i, task in enumerate(ctx.todo):
        if i:
            draw_text(image, (cx + 4, strip.y + strip.h // 2), "|", 24, Theme.FAINT, anchor="mm")
            cx += 14
        cx = draw_chips(image, draw, cx, strip.y + 8, 36, list(task.symbols), task.clock, task.sanity,
                        task.stamina, False, strip.right - 8)


def _draw_held_row(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, ctx: RollContext) -> None:
    panel(draw, box, Theme.PANEL, outline=Theme.PANEL_EDGE, radius=10)
    draw_text(image, (box.x + 12, box.y + 8), "Held aside, not rolled (usable in a completion)", 17, Theme.MUTED,
              bold=True)
    hx = box.x + 12
    for colour, face, why in ctx.held:
        paste_icon(image, die_icon(colour, face, HELD_DIE), (hx, box.y + 32))
        label_w = max(HELD_DIE, text_width(why, 15) + 4)
        draw_text(image, (hx + HELD_DIE // 2, box.y + 32 + HELD_DIE + 2), why, 15, Theme.MUTED, anchor="mt")
        hx += label_w + 14


def render_dice(faces: list[tuple[str, str]], context: RollContext | None = None) -> bytes:
    """PNG of one roll: (die colour, face) per die, e.g. [("green", "inv3"), ("red", "wild")]."""
    return encode(render_dice_image(faces, context))


def render_roll(data: Any, view: View | None = None) -> bytes:
    """PNG of a roll event; with the view after it, the picture also says who rolled, where, what is left
    to do, and shows the dice held aside apart from the rolled ones."""
    faces = [(colour, face) for _, colour, face in roll_dice(data)]
    return render_dice(faces, roll_context(view) if view is not None else None)


def dice_from_event(data: dict[str, Any]) -> list[tuple[str, str]]:
    """(colour, face) pairs from a "dice.rolled"/"dice.rerolled" event's data, in die-id order."""
    return [(colour, face) for _, colour, face in roll_dice(data)]


def render_event(kind: str, data: dict[str, Any], view: View | None = None) -> bytes | None:
    """A picture of one event, where Elder Sign has one: each roll of the dice (given the view after the step
    as well, the roll picture names who rolled where), and the table when a phase that changes it is over
    (`engine.elder_sign.turn.TABLE_CHANGED`: the end of a Resolution phase, the end of a midnight)."""
    if kind in ("dice.rolled", "dice.rerolled") and data.get("dice"):
        return render_roll(data, view)
    if kind == "table.changed" and view is not None:
        return render_table(view)
    return None


def register() -> None:
    """Hook this renderer into bot.render's dispatch (the game's bot manifest does this at start-up)."""
    from bot.render import register_renderer

    register_renderer("elder-sign", render_table)

