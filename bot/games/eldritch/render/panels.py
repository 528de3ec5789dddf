"""The panels around the Eldritch Horror map: the column on the right (Ancient One, round and phase, doom
track, omen track, Mysteries, reserve, ongoing Mythos cards, legend) and one row per investigator under it.

The column's boxes never move (players learn where to look); `draw_static` draws their frames, titles and
the legend once into the cached background, `draw_side` and `draw_seats` fill them for one view.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.games.eldritch.render.map import draw_shape
from bot.games.eldritch.render.style import (
    AWAKE_BG,
    DOOM,
    DOOM_DIM,
    OMEN_COLOURS,
    PATH_COLOURS,
    SEAT_BG,
    SEAT_OUT,
    SEATS_BOX,
    SHAPE_EDGE,
    SIDE_BOX,
    TAG_DEFEATED,
    TAG_DELAYED,
    TAG_INK,
    TAG_LEAD,
    WIN_BG,
    omen_colour,
    seat_colour,
)
from bot.games.eldritch.render.tokens import (
    draw_clues,
    draw_defeated,
    draw_expedition,
    draw_investigator,
    draw_monsters,
    draw_rumor,
    gate_icon,
)
from bot.render.kit import (
    Box,
    Theme,
    bar,
    draw_text,
    ellipsize,
    fit_size,
    icon,
    mix,
    panel,
    paste_icon,
    pips,
    text_width,
    wrap,
)
from engine.eldritch.view import EldritchView, InvestigatorView

TITLE_SIZE = 20
TEXT_SIZE = 19
LINE = 23
PAD = 14
DOOM_CELLS = 21  # the printed doom track runs 0 to 20
PHASES = {"setup": "Setup", "action": "Action Phase", "encounter": "Encounter Phase", "mythos": "Mythos Phase"}


def _column() -> dict[str, Box]:
    """The right column's boxes, top to bottom; the legend takes what is left."""
    heights = (("header", 88), ("doom", 108), ("omen", 96), ("mystery", 148), ("reserve", 144),
               ("ongoing", 144))
    gap = 8
    boxes, y = {}, SIDE_BOX.y
    for name, h in heights:
        boxes[name] = Box(SIDE_BOX.x, y, SIDE_BOX.w, h)
        y += h + gap
    boxes["legend"] = Box(SIDE_BOX.x, y, SIDE_BOX.w, SIDE_BOX.bottom - y)
    return boxes


COLUMN = _column()
TITLES = {"doom": "Doom", "omen": "Omen", "mystery": "Mysteries", "reserve": "Reserve",
          "ongoing": "Ongoing Mythos"}


# ---------------------------------------------------------------------------------------------- static

def draw_static(image: Image.Image) -> None:
    """Frames, titles and the legend: what every picture of every game shares."""
    draw = ImageDraw.Draw(image)
    for name, box in COLUMN.items():
        if name == "header":
            continue  # its colour follows the game (awakened, won, lost)
        panel(draw, box, Theme.PANEL, outline=Theme.PANEL_EDGE)
        if name in TITLES:
            draw_text(image, (box.x + PAD, box.y + 10), TITLES[name], TITLE_SIZE, Theme.MUTED, bold=True)
    _draw_legend(image, draw, COLUMN["legend"])


def _shape_icon(kind: str, size: int) -> Image.Image:
    def paint(canvas: Image.Image) -> None:
        s = canvas.width
        draw_shape(ImageDraw.Draw(canvas), kind, s / 2, s / 2, s * 0.4, s * 0.07)
    return icon(("eh-shape", kind), size, paint)


def _draw_path_sample(draw: ImageDraw.ImageDraw, kind: str, x: int, y: int, w: int) -> None:
    colour = PATH_COLOURS[kind]
    if kind == "train":
        draw.line((x, y, x + w, y), fill=SHAPE_EDGE, width=7)
        draw.line((x, y, x + w, y), fill=colour, width=4)
    elif kind == "ship":
        for sx in range(x, x + w, 12):
            draw.line((sx, y, min(x + w, sx + 7), y), fill=colour, width=3)
    else:
        for sx in range(x + 2, x + w, 8):
            draw.ellipse((sx - 2, y - 2, sx + 2, y + 2), fill=colour)


def _draw_legend(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box) -> None:
    inner = box.inset(PAD, 8)
    left, right = inner.split_cols(2, 10)
    row = min(25, (inner.h - 4) // 7)
    cy = inner.y + row // 2 + 2
    for i, (kind, text) in enumerate((("city", "City"), ("wilderness", "Wilderness"), ("sea", "Sea"))):
        ico = _shape_icon(kind, 26)
        paste_icon(image, ico, (left.x + 14 - 13, cy + i * row - 13))
        draw_text(image, (left.x + 36, cy + i * row), text, 18, Theme.TEXT, anchor="lm")
    for i, (kind, text) in enumerate((("train", "Train path"), ("ship", "Ship path"), ("uncharted", "Uncharted"))):
        y = cy + (3 + i) * row
        _draw_path_sample(draw, kind, left.x, y, 28)
        draw_text(image, (left.x + 36, y), text, 18, Theme.TEXT, anchor="lm")
    y = cy + 6 * row
    draw_investigator(image, left.x + 14, y, seat_colour(0), "A", size=24, text_size=16)
    draw_text(image, (left.x + 36, y), "Investigator", 18, Theme.TEXT, anchor="lm")
    items = (("gate", "Open Gate (omen)"), ("monster", "Monsters (count)"), ("epic", "Epic Monster"),
             ("clue", "Clues (count)"), ("rumor", "Rumor"), ("expedition", "Active expedition"),
             ("defeated", "Defeated"))
    for i, (kind, text) in enumerate(items):
        x, y = right.x + 14, cy + i * row
        if kind == "gate":
            paste_icon(image, gate_icon(OMEN_COLOURS["red"], 30), (x - 15, y - 15))
        elif kind in ("monster", "epic"):
            draw_monsters(image, x, y, 2 if kind == "monster" else 1, kind == "epic")
        elif kind == "clue":
            draw_clues(image, x, y, 2)
        elif kind == "rumor":
            draw_rumor(image, x, y)
        elif kind == "expedition":
            draw_expedition(image, x, y)
        else:
            draw_defeated(image, x, y)
        draw_text(image, (right.x + 38, y), ellipsize(text, 18, right.w - 38), 18, Theme.TEXT, anchor="lm")


# ---------------------------------------------------------------------------------------------- column

def _tag(image: Image.Image, draw: ImageDraw.ImageDraw, x: int, y: int, text: str, fill: tuple[int, int, int],
         ink: tuple[int, int, int] = TAG_INK, right: bool = False) -> int:
    """A coloured pill with `text`; `right`: x is its right edge. Returns the x past it on the far side."""
    w = text_width(text, 18, True) + 16
    x0 = x - w if right else x
    draw.rounded_rectangle((x0, y, x0 + w, y + 26), radius=13, fill=fill)
    draw_text(image, (x0 + w // 2, y + 13), text, 18, ink, bold=True, anchor="mm")
    return x0 - 6 if right else x0 + w + 6


def _draw_header(image: Image.Image, draw: ImageDraw.ImageDraw, view: EldritchView) -> None:
    box = COLUMN["header"]
    fill = Theme.PANEL_ALT
    if view.over:
        fill = WIN_BG if view.result == "win" else AWAKE_BG
    elif view.awakened:
        fill = AWAKE_BG
    panel(draw, box, fill, outline=Theme.PANEL_EDGE)
    inner = box.inset(PAD, 10)
    name = view.ancient_one.name
    size = fit_size(name, inner.w, (30, 26, 22), bold=True)
    draw_text(image, (inner.x, inner.y), ellipsize(name, size, inner.w, True), size, Theme.TEXT, bold=True)
    if view.over:
        line = "Game over: the investigators win" if view.result == "win" else "Game over: the investigators lose"
        colour = Theme.GOOD if view.result == "win" else Theme.BAD
    else:
        line = f"Round {view.round} · {PHASES.get(view.phase, view.phase.title())}"
        colour = Theme.ACCENT
    draw_text(image, (inner.x, inner.y + 42), ellipsize(line, 21, inner.w, True), 21, colour, bold=True)


def _draw_doom(image: Image.Image, draw: ImageDraw.ImageDraw, view: EldritchView) -> None:
    box = COLUMN["doom"]
    inner = box.inset(PAD, 8)
    draw_text(image, (inner.right, inner.y - 2), str(view.doom), 40, DOOM, bold=True, anchor="ra")
    if view.awakened:
        _tag(image, draw, inner.x + text_width("Doom", TITLE_SIZE, True) + 12, inner.y + 1, "AWAKENED", DOOM,
             Theme.TEXT)
    gap = 3
    cell = (inner.w - gap * (DOOM_CELLS - 1)) // DOOM_CELLS
    x0 = inner.x + (inner.w - (cell * DOOM_CELLS + gap * (DOOM_CELLS - 1))) // 2
    top = inner.y + 44
    doom = max(0, min(DOOM_CELLS - 1, view.doom))
    for i in range(DOOM_CELLS):
        x = x0 + i * (cell + gap)
        if i == doom:
            draw.rounded_rectangle((x - 2, top - 5, x + cell + 1, top + 25), radius=4, fill=DOOM,
                                   outline=Theme.TEXT, width=2)
        elif i < doom:
            draw.rounded_rectangle((x, top, x + cell - 1, top + 20), radius=3, fill=DOOM_DIM)
        else:
            draw.rounded_rectangle((x, top, x + cell - 1, top + 20), radius=3, outline=Theme.FAINT, width=1)
        if i % 5 == 0:
            draw_text(image, (x + cell // 2, top + 30), str(i), 18, Theme.MUTED, anchor="mt")


def _draw_omen(image: Image.Image, draw: ImageDraw.ImageDraw, view: EldritchView) -> None:
    box = COLUMN["omen"]
    inner = box.inset(PAD, 10)
    name = view.omen.title()
    draw_text(image, (inner.x + text_width("Omen", TITLE_SIZE, True) + 10, inner.y), name, TITLE_SIZE,
              omen_colour(view.omen), bold=True)
    cy = inner.y + 52
    for i, colour in enumerate(view.omen_track):
        cx = inner.x + 20 + i * 46
        here = i == view.omen_index  # by place: blue is on the track twice
        if here:
            draw.ellipse((cx - 23, cy - 23, cx + 23, cy + 23), outline=Theme.TEXT, width=3)
        r = 17 if here else 13
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=omen_colour(colour), outline=SHAPE_EDGE, width=2)
    gates = {c: 0 for c in OMEN_COLOURS}
    for space in view.spaces:
        if space.gate in gates:
            gates[space.gate] += 1
    gx = inner.x + 210
    draw_text(image, (inner.right, inner.y), "Open Gates", 18, Theme.MUTED, bold=True, anchor="ra")
    for i, (colour, n) in enumerate(gates.items()):
        x = gx + i * 64
        paste_icon(image, gate_icon(OMEN_COLOURS[colour], 32), (x, cy - 16))
        draw_text(image, (x + 38, cy), str(n), 22, Theme.TEXT if n else Theme.FAINT, bold=True, anchor="lm")


def _draw_mystery(image: Image.Image, draw: ImageDraw.ImageDraw, view: EldritchView) -> None:
    box = COLUMN["mystery"]
    inner = box.inset(PAD, 10)
    solved = f"{len(view.solved)} of {view.mysteries_needed} solved"
    end = pips(draw, (inner.right - view.mysteries_needed * 22 + 4, inner.y + 2), view.mysteries_needed,
               len(view.solved), 9, Theme.ACCENT, Theme.FAINT)
    draw_text(image, (end - view.mysteries_needed * 22 - 8, inner.y + 1), solved, 18, Theme.TEXT, bold=True,
              anchor="ra")
    y = inner.y + 34
    if view.final_mystery:
        draw_text(image, (inner.x, y), "Final Mystery", TEXT_SIZE, DOOM, bold=True)
        y += LINE
        for line in wrap(view.final_mystery, 18, inner.w, max_lines=4):
            draw_text(image, (inner.x, y), line, 18, Theme.TEXT)
            y += 22
        return
    if view.mystery is None:
        draw_text(image, (inner.x, y), "No active Mystery", TEXT_SIZE, Theme.MUTED)
        y += LINE
    else:
        for line in wrap(view.mystery.name, 21, inner.w, bold=True, max_lines=2):
            draw_text(image, (inner.x, y), line, 21, Theme.TEXT, bold=True)
            y += 26
        progress = view.mystery_progress
        text = f"Progress {progress}" if progress[:1].isdigit() else f"To solve: {progress}"
        draw_text(image, (inner.x, y + 2), ellipsize(text, TEXT_SIZE, inner.w, True), TEXT_SIZE, Theme.ACCENT,
                  bold=True)
        y += LINE + 4
    if view.solved:
        names = "Solved: " + ", ".join(m.name for m in view.solved)
        for line in wrap(names, 18, inner.w, max_lines=max(1, (inner.bottom - y) // 22)):
            draw_text(image, (inner.x, y), line, 18, Theme.MUTED)
            y += 22


def _draw_list(image: Image.Image, box: Box, lines: list[tuple[str, str]], empty: str) -> None:
    """Card names one per line under the panel's title, each with an optional muted note after it; what
    does not fit becomes a last "+N more" line."""
    inner = box.inset(PAD, 10)
    y = inner.y + 32
    room = max(1, (inner.bottom - y) // LINE)
    shown = lines if len(lines) <= room else lines[: room - 1]
    if not lines:
        draw_text(image, (inner.x, y), empty, TEXT_SIZE, Theme.FAINT)
    for name, note in shown:
        note_w = text_width(note, 18) + 8 if note else 0
        name = ellipsize(name, TEXT_SIZE, max(80, inner.w - note_w))
        draw_text(image, (inner.x, y), name, TEXT_SIZE, Theme.TEXT)
        if note:
            x = inner.x + text_width(name, TEXT_SIZE) + 8
            draw_text(image, (x, y + 1), ellipsize(note, 18, inner.right - x), 18, Theme.MUTED)
        y += LINE
    if len(shown) < len(lines):
        draw_text(image, (inner.x, y), f"+{len(lines) - len(shown)} more", TEXT_SIZE, Theme.MUTED)


def draw_side(image: Image.Image, view: EldritchView, space_names: dict[str, str]) -> None:
    draw = ImageDraw.Draw(image)
    _draw_header(image, draw, view)
    _draw_doom(image, draw, view)
    _draw_omen(image, draw, view)
    _draw_mystery(image, draw, view)
    _draw_list(image, COLUMN["reserve"], [(c.name, "") for c in view.reserve], "Empty")
    rumors = {s.rumor: space_names.get(s.id, s.name) for s in view.spaces if s.rumor}
    ongoing = [(c.name, ", ".join(part for part in (f"rumor at {rumors[c.name]}" if c.name in rumors else "",
                                                      f"{c.tokens} token{'s' if c.tokens != 1 else ''}"
                                                      if c.tokens else "") if part))
               for c in view.ongoing]
    _draw_list(image, COLUMN["ongoing"], ongoing, "None")


# ---------------------------------------------------------------------------------------------- seats

@dataclass(frozen=True)
class SeatGrid:
    cells: tuple[Box, ...]

    @property
    def cell_h(self) -> int:
        return self.cells[0].h if self.cells else 0


def seat_grid(players: int) -> SeatGrid:
    """Two columns of rows, seat order across then down; rows share the height, so fewer players get
    taller rows (with room for possessions and Conditions)."""
    rows = max(1, (players + 1) // 2)
    gap = 8
    h = (SEATS_BOX.h - gap * (rows - 1)) // rows
    w = (SEATS_BOX.w - gap) // 2
    return SeatGrid(tuple(Box(SEATS_BOX.x + (i % 2) * (w + gap), SEATS_BOX.y + (i // 2) * (h + gap), w, h)
                          for i in range(players)))


def initial(inv: InvestigatorView) -> str:
    return (inv.name or inv.player or "?")[:1].upper()


def _draw_seat(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, inv: InvestigatorView,
               space_names: dict[str, str]) -> None:
    out = inv.eliminated
    colour = seat_colour(inv.seat)
    panel(draw, box, SEAT_OUT if out else SEAT_BG, outline=mix(colour, SEAT_OUT, 0.55) if out else colour,
          width=3, radius=10)
    inner = box.inset(12, 8)
    draw_investigator(image, inner.x + 20, inner.y + 22, mix(colour, SEAT_OUT, 0.55) if out else colour,
                      initial(inv), delayed=inv.delayed and not out, size=40, text_size=24)
    x = inner.x + 50
    tags = []
    if inv.lead:
        tags.append(("LEAD", TAG_LEAD, TAG_INK))
    if inv.delayed:
        tags.append(("DELAYED", TAG_DELAYED, TAG_INK))
    if inv.defeated:
        tags.append(("DEFEATED", TAG_DEFEATED, Theme.TEXT))
    if out:
        tags.append(("OUT", Theme.FAINT, Theme.TEXT))
    tx = inner.right
    for text, fill, ink in reversed(tags):
        tx = _tag(image, draw, tx, inner.y, text, fill, ink, right=True)
    name = inv.name or "choosing an investigator"
    handle = f"@{inv.player}"
    where = space_names.get(inv.space, inv.space) if inv.name and not out else ""
    room = tx - x - 8
    handle_w = min(text_width(handle, 18) + 10, room // 3)
    name = ellipsize(name, 21, room - handle_w, True)
    draw_text(image, (x, inner.y + 2), name, 21, Theme.TEXT if not out else Theme.MUTED, bold=True)
    hx = x + text_width(name, 21, True) + 10
    handle = ellipsize(handle, 18, max(20, tx - hx - 6))
    draw_text(image, (hx, inner.y + 5), handle, 18, Theme.MUTED)
    wx = hx + text_width(handle, 18) + 10
    if where and tx - wx > 60:
        draw_text(image, (wx, inner.y + 5), ellipsize(f"at {where}", 18, tx - wx - 6, True), 18, Theme.ACCENT,
                  bold=True)
    if not inv.name:
        return
    y = inner.y + 34
    bar(image, draw, Box(x, y, 132, 26), inv.health, inv.max_health, Theme.STAMINA, "Health", 18)
    bar(image, draw, Box(x + 140, y, 132, 26), inv.sanity, inv.max_sanity, Theme.SANITY, "Sanity", 18)
    facts = [f"Clues {inv.clues}"]
    tickets = [t for t in (f"{inv.train} train" if inv.train else "", f"{inv.ship} ship" if inv.ship else "") if t]
    if tickets:
        facts.append("Tickets " + ", ".join(tickets))
    fx = x + 284
    draw_text(image, (fx, y + 13), ellipsize(" · ".join(facts), TEXT_SIZE, inner.right - fx), TEXT_SIZE,
              Theme.TEXT, anchor="lm")
    y += 36
    extra = []
    if inv.skills:
        extra.append((" · ".join(f"{k.title()} {v}" for k, v in inv.skills.items()), Theme.MUTED))
    if inv.possessions:
        extra.append(("Has: " + ", ".join(p.name for p in inv.possessions), Theme.TEXT))
    if inv.conditions:
        extra.append(("Conditions: " + ", ".join(c.name for c in inv.conditions), TAG_DELAYED))
    for text, ink in extra:
        room_lines = (inner.bottom - y) // 22
        if room_lines < 1:
            break
        for line in wrap(text, 18, inner.right - x, max_lines=min(2, room_lines)):
            draw_text(image, (x, y), line, 18, ink)
            y += 22


def draw_seats(image: Image.Image, view: EldritchView, space_names: dict[str, str]) -> None:
    draw = ImageDraw.Draw(image)
    for box, inv in zip(seat_grid(len(view.investigators)).cells, view.investigators, strict=True):
        _draw_seat(image, draw, box, inv, space_names)

