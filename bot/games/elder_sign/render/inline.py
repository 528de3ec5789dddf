"""Elder Sign's channel board: the table laid out for the size Discord shows it (see `bot.render.inline`).

    +------------------------------------------------------------------------+
    | Ancient One                                 [Doom 7/10][Clock IX][ES 3/11]|
    | Day 7 · Turn 21 · Dmitri's turn                                          |
    +-----------------+-----------------+-----------------+------------------+
    | adventure       | adventure       | adventure       | adventure        |
    |  task chips     |  ...            |                 |                  |
    +-----------------+-----------------+-----------------+------------------+
    | adventure       | adventure       | Other World     | Other World      |
    +-----------------+-----------------+-----------------+------------------+
    | investigator: STA, SAN, clues, trophies | investigator ...               |
    +------------------------------------------------------------------------+

Cards show their name, trophy value, the investigators there and each task's symbols; rewards, penalties and
the Mythos card's text stay in the full board and in `/card`. In the final battle the cards give way to the
Ancient One's battle task.
"""

from __future__ import annotations

import math
from functools import cache, lru_cache, partial
from typing import Any

from PIL import Image, ImageDraw

from bot.games.elder_sign.render.board import (
    ARENA_BG,
    CARD_BG,
    DOOM,
    HIGHLIGHT,
    MONSTER,
    MONSTER_ROW,
    OW_BG,
    SEAT_COLOURS,
)
from bot.games.elder_sign.render.board import render_event as board_event
from bot.games.elder_sign.render.symbols import (
    CHIP_BG,
    DIE_COLOURS,
    DONE_BG,
    ELDER,
    FADED,
    SYMBOL_COLOURS,
    draw_chips,
    glyph,
    lock_icon,
)
from bot.games.elder_sign.render.view import CardInfo, SeatInfo, Table, TaskInfo, battle_task, read_table
from bot.render import inline
from bot.render.inline import GAP, MARGIN, NAME, SMALL, TEXT, WIDTH, Colours, Seat, Stat, Tile
from bot.render.kit import (
    PARTS,
    Box,
    Color,
    PictureCache,
    Surface,
    Theme,
    draw_text,
    mix,
    panel,
    paste_icon,
    record_text,
    text_width,
    wrap,
)
from bot.render.scene import Scene

__all__ = ["WIDTH", "card_boxes", "render_event", "render_inline", "render_inline_image"]

COLUMNS = 4
#: a task row's chips: 42 px squares put every chip's text at 26 px or more (draw_chips sizes it from this)
CHIP = 42
ROW = CHIP + 6
TITLE_H = NAME + 14
FOOT_H = 40
CARD_PAD = 10
TROPHY_BG: Color = (120, 92, 30)
WIN_BG: Color = (20, 40, 30)
LOSS_BG: Color = (48, 14, 20)
BATTLE_H = 124
CLOCK_NAMES = {0: "XII", 3: "III", 6: "VI", 9: "IX"}

_pictures = PictureCache(16)


def _seat_colour(seat: int) -> Color:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


@cache
def _palette() -> Image.Image:
    colours = Colours(
        surfaces=[CARD_BG, OW_BG, ARENA_BG, CHIP_BG, DONE_BG, TROPHY_BG, WIN_BG, LOSS_BG, MONSTER_ROW],
        inks=[ELDER, DOOM, MONSTER, HIGHLIGHT, *SYMBOL_COLOURS.values(), *SEAT_COLOURS],
        others=[mix(c, DONE_BG, FADED) for c in SYMBOL_COLOURS.values()]
        + [mix(c, inline.SEAT_OUT, 0.55) for c in SEAT_COLOURS] + list(DIE_COLOURS.values()))
    return inline.palette_of(colours, chips=[Theme.STAMINA, Theme.SANITY, TROPHY_BG, Theme.PANEL_EDGE,
                                             *SEAT_COLOURS])



# ================================================================================================ layout

def _cards(table: Table) -> list[CardInfo | None]:
    return [*table.adventures, *table.other_worlds]


#: more cards than two rows of COLUMNS hold (many Other Worlds open): five to a row
WIDE_COLUMNS = 5
#: the trophy badge's radius; the title's first line stops short of it
BADGE_R = (NAME + 8) // 2
TITLE_LINE = SMALL + 6
#: room for a task's number on a card whose tasks go in order
ORDER_W = 22


def _columns(table: Table) -> int:
    return COLUMNS if len(_cards(table)) <= 2 * COLUMNS else WIDE_COLUMNS


def _title_room(columns: int) -> int:
    card_w = (WIDTH - 2 * MARGIN - (columns - 1) * GAP) // columns
    return card_w - 2 * CARD_PAD - 2 * BADGE_R - 8


def _title(card: CardInfo | None, columns: int = COLUMNS) -> list[str]:
    """A card's name on one line, or two when it needs them (players move by adventure name)."""
    if card is None:
        return []
    name = inline.short_name(card.name)
    room = _title_room(columns)
    if text_width(name, SMALL + 2, True) <= room:
        return [name]
    return wrap(name, SMALL, room, bold=True, max_lines=2)


def _title_h(lines: int) -> int:
    return TITLE_H if lines <= 1 else TITLE_H + TITLE_LINE - 4


@lru_cache(maxsize=1024)
def _task_width(task: TaskInfo) -> int:
    """How wide a task's chips are drawn (measured by drawing them on a scratch picture, whose texts are not
    the board's: kept from `record_text`)."""
    scratch = Image.new("RGB", (1, 1))
    with record_text():
        end = draw_chips(scratch, ImageDraw.Draw(scratch), 0, 0, CHIP, list(task.symbols), task.clock,
                         task.sanity, task.stamina, task.done, 10_000)
    return end + (CHIP + 4 if task.done else 0)


def _task_columns(card: CardInfo, inner_w: int) -> int:
    """A card with more than four tasks lays them two to a row when each fits half the card (monsters'
    tasks can make six), so one long card does not make the whole board tall. Not a card whose tasks go in
    order: its tasks stay one under another."""
    half = (inner_w - GAP) // 2
    if len(card.tasks) > 4 and not card.ordered and all(_task_width(t) <= half for t in card.tasks):
        return 2
    return 1


def _card_need(card: CardInfo | None, title_h: int, inner_w: int) -> int:
    """A card's height: its title, its task rows and, when someone is there or a die is locked on it, a
    row for their markers."""
    if card is None:
        return 2 * CARD_PAD + title_h + ROW
    foot = FOOT_H if card.investigators or card.locks else 0
    rows = math.ceil(max(1, len(card.tasks)) / _task_columns(card, inner_w))
    return 2 * CARD_PAD + title_h + rows * ROW + foot


def card_boxes(view: Any) -> list[Box]:
    """Where each card goes (adventures in slot order, then Other Worlds); tests look at one card's pixels."""
    table = read_table(view)
    return _card_layout(table)[0]


def _card_layout(table: Table) -> tuple[list[Box], list[int], int]:
    """Each card's box and title height (a row's cards share both), and the bottom of the cards."""
    cards = _cards(table)
    cols = _columns(table)
    rows = math.ceil(max(1, len(cards)) / cols)
    y = MARGIN + inline.HEADER_H + GAP
    boxes: list[Box] = []
    titles: list[int] = []
    for r in range(rows):
        row_cards = cards[r * cols:(r + 1) * cols]
        title_h = _title_h(max([1, *(len(_title(c, cols)) for c in row_cards)]))
        inner_w = (WIDTH - 2 * MARGIN - (cols - 1) * GAP) // cols - 2 * CARD_PAD
        h = max(_card_need(c, title_h, inner_w) for c in row_cards) if row_cards else _card_need(None, title_h,
                                                                                                  inner_w)
        boxes += Box(MARGIN, y, WIDTH - 2 * MARGIN, h).split_cols(cols, GAP)[:len(row_cards)]
        titles += [title_h] * len(row_cards)
        y += h + GAP
    return boxes, titles, y - GAP


# ================================================================================================ drawing

def _draw_card(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, card: CardInfo | None,
               table: Table, title_h: int, columns: int) -> None:
    if card is None:
        panel(draw, box, Theme.BG, outline=Theme.PANEL_EDGE, width=2)
        draw_text(image, box.center, "empty", SMALL, Theme.FAINT, anchor="mm")
        return
    active = table.adventure_where == card.where
    panel(draw, box, OW_BG if card.other_world else CARD_BG, outline=HIGHLIGHT if active else Theme.PANEL_EDGE,
          width=5 if active else 2)
    inner = box.inset(CARD_PAD)
    # the trophy value at the right of the title's first line
    r = BADGE_R
    tx, ty = inner.right - r, inner.y + r
    draw.ellipse((tx - r, ty - r, tx + r, ty + r), fill=TROPHY_BG, outline=Theme.ACCENT, width=2)
    draw_text(image, (tx, ty + 1), str(card.trophy), SMALL, Theme.TEXT, bold=True, anchor="mm")
    lines = _title(card, columns)
    if len(lines) == 1:
        draw_text(image, (inner.x, ty + 1), lines[0], SMALL + 2, Theme.TEXT, bold=True, anchor="lm")
    else:
        for i, line in enumerate(lines):
            draw_text(image, (inner.x, ty + 1 + i * TITLE_LINE), line, SMALL, Theme.TEXT, bold=True, anchor="lm")
    y = inner.y + title_h
    per_row = _task_columns(card, inner.w)
    cell_w = (inner.w - (per_row - 1) * GAP) // per_row
    for i, task in enumerate(card.tasks):
        x = inner.x + (i % per_row) * (cell_w + GAP)
        if card.ordered:  # tasks done in order: numbered, as on the card
            draw_text(image, (x, y + CHIP // 2 + 1), f"{i + 1}", SMALL, Theme.MUTED, bold=True, anchor="lm")
            x += ORDER_W
        _draw_task(image, draw, x, y, task, inner.x + (i % per_row) * (cell_w + GAP) + cell_w)
        if i % per_row == per_row - 1 or i == len(card.tasks) - 1:
            y += ROW
    _draw_foot(image, draw, Box(inner.x, y + 2, inner.w, FOOT_H - 4), card, table)


def _draw_task(image: Image.Image, draw: ImageDraw.ImageDraw, x: int, y: int, task: TaskInfo, right: int) -> None:
    if task.monster and not task.done:
        # a monster sits on this task: the task is framed in the monster's colour (its name is in the full
        # board and /card)
        w = min(_task_width(task), right - x)
        draw.rounded_rectangle((x - 3, y - 3, x + w + 1, y + CHIP + 1), radius=10, fill=MONSTER_ROW, outline=MONSTER,
                               width=3)
    end = draw_chips(image, draw, x, y, CHIP, list(task.symbols), task.clock, task.sanity, task.stamina, task.done,
                     right)
    if task.done:
        paste_icon(image, glyph("check", CHIP - 8, Theme.GOOD), (min(end, right - CHIP), y + 4))


def _draw_foot(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, card: CardInfo, table: Table) -> None:
    """Investigators at the card (their discs), then the dice locked on it."""
    x = box.x
    d = box.h - 2
    for seat in card.investigators:
        letter = _initial(table, seat)
        draw.ellipse((x, box.y, x + d, box.y + d), fill=_seat_colour(seat), outline=inline.DARK_INK, width=2)
        draw_text(image, (x + d // 2, box.y + d // 2 + 1), letter, SMALL, inline.DARK_INK, bold=True, anchor="mm")
        x += d + 4
    for colour in card.locks:
        if x + d > box.right:
            break
        paste_icon(image, lock_icon(colour, d), (x + 4, box.y))
        x += d + 6


def _initial(table: Table, seat: int) -> str:
    info = table.seat(seat)
    return info.initial if info is not None else "?"


def _draw_battle(image: Surface, draw: ImageDraw.ImageDraw, box: Box, table: Table) -> None:
    panel(draw, box, ARENA_BG, outline=DOOM, width=3)
    inner = box.inset(16, 12)
    draw_text(image, (inner.x, inner.y), "Final battle: each success removes 1 doom", TEXT, Theme.TEXT,
              bold=True)
    draw_chips(image, draw, inner.x, inner.y + TEXT + 16, CHIP + 8, list(battle_task(table).symbols),
               battle_task(table).clock, battle_task(table).sanity, battle_task(table).stamina, False, inner.right)


def _seat(seat: SeatInfo, table: Table) -> Seat:
    out = seat.eliminated or seat.investigator is None
    tags: tuple[tuple[str, Color], ...] = ()
    if seat.seat == table.current and not table.over:
        tags = (("Turn", inline.TURN),)
    if out:
        return Seat(_seat_colour(seat.seat), seat.name, seat.player, (), line=f"{seat.player} · devoured"
                    if seat.devoured else f"{seat.player} · out", tags=tags, out=True, mark=seat.initial)
    stats = (Stat("STA", f"{seat.stamina}/{seat.max_stamina}", Theme.STAMINA),
             Stat("SAN", f"{seat.sanity}/{seat.max_sanity}", Theme.SANITY),
             Stat("Clues", str(seat.clues), Theme.PANEL_EDGE),
             Stat("Trophies", str(seat.trophy_total), TROPHY_BG))
    where = inline.short_name(seat.location_name)
    return Seat(_seat_colour(seat.seat), seat.name, seat.player, stats, line=f"{seat.player} · {where}", tags=tags,
                turn=seat.seat == table.current and not table.over, mark=seat.initial)


def _header_line(table: Table) -> tuple[str, Color]:
    if table.over:
        won = table.result == "win"
        return ("The investigators win" if won else "The investigators lose"), (Theme.GOOD if won else Theme.BAD)
    line = f"Day {table.day} · Turn {table.turn}"
    if table.battle:
        line += " · Final battle"
    current = table.seat(table.current)
    if current is not None:
        line += f" · {current.player}'s turn"
    return line, Theme.ACCENT


def _scene(view: Any) -> Scene:
    table = read_table(view)
    ao = table.ancient_one
    seats = [_seat(s, table) for s in table.seats]
    boxes, titles, cards_bottom = _card_layout(table)
    if table.battle:
        cards_bottom = MARGIN + inline.HEADER_H + GAP + BATTLE_H
    seats_top = cards_bottom + GAP
    height = seats_top + inline.seat_height(WIDTH - 2 * MARGIN, seats) + MARGIN
    image = Scene((WIDTH, height), Theme.BG)
    draw = image.draw()
    line, colour = _header_line(table)
    tiles = [Tile("Doom", f"{ao.doom}/{len(ao.doom_track)}", DOOM if ao.doom else Theme.MUTED),
             Tile("Clock", CLOCK_NAMES.get(table.clock_hours % 12, str(table.clock_hours)), Theme.ACCENT),
             Tile("Elder Signs", f"{table.elder_signs}/{ao.elder_sign_limit}", ELDER)]
    inline.draw_header(image, draw, Box(MARGIN, MARGIN, WIDTH - 2 * MARGIN, inline.HEADER_H), ao.name, line, tiles,
                       colour)
    if table.battle:
        _draw_battle(image, draw, Box(MARGIN, MARGIN + inline.HEADER_H + GAP, WIDTH - 2 * MARGIN, BATTLE_H), table)
    else:
        columns = _columns(table)
        for box, card, title_h in zip(boxes, _cards(table), titles, strict=True):
            # a card is kept by what it shows: most cards are unchanged from one step to the next
            active = card is not None and table.adventure_where == card.where
            marks = tuple(_initial(table, seat) for seat in card.investigators) if card is not None else ()
            PARTS.paste(image, box, ("elder sign card", card, active, marks, title_h, columns), Theme.BG,
                        partial(_draw_card, card=card, table=table, title_h=title_h, columns=columns))
    inline.draw_seats(image, draw, Box(MARGIN, seats_top, WIDTH - 2 * MARGIN, height - MARGIN - seats_top), seats)
    return image


def render_inline_image(view: Any) -> Image.Image:
    """The channel board for `view`, every part drawn."""
    return _scene(view).image()


def render_inline(view: Any) -> bytes:
    """PNG bytes of the channel board for `view` (the engine's view or its JSON dict)."""
    key_view = view if hasattr(view, "model_dump_json") else None
    if key_view is None:
        return _scene(view).png(_palette())
    return _pictures.get_or_render(key_view, lambda: _scene(view).png(_palette()))


def cache_clear() -> None:
    """Forget the encoded pictures (tests and benchmarks time cold renders)."""
    _pictures.clear()


def render_event(kind: str, data: dict[str, Any], view: Any = None) -> bytes | None:
    """Elder Sign's event pictures for the channel: the table after a phase that changes it is this channel
    board; each roll of the dice is the full renderer's roll picture (already drawn for the channel's size)."""
    if kind == "table.changed" and view is not None:
        return render_inline(view)
    return board_event(kind, data, view)
