"""The card game's channel board: the table laid out for the size Discord shows it (see `bot.render.inline`).

    +--------------------------------------------------------------------------+
    | Scenario                                     [Doom 2/6][Act clues 5/8]    |
    | Round 2 · Investigation phase · Dmitri's turn                            |
    +--------------------------------------------------------------------------+
    |   [Location    ]----[Location    ]----[Location   ]                      |
    |   [Shroud 2 (4)]    [Unrevealed  ]    [...        ]   (the full board's  |
    |   [Enemy   0/3 ]    [            ]                      arrangement)     |
    |   [(Al)(Bo)    ]                                                         |
    +--------------------------------------------------------------------------+
    | investigator: HP, Sanity, resources, clues, where             (one each) |
    +--------------------------------------------------------------------------+

Locations keep the full board's arrangement (`lcg_layout`), so a location is where players saw it there.
The act and agenda texts, the chaos bag, the last test and the cards in play stay in the full board and in
the readers (`/lcg area`, `/lcg bag`, `/lcg card`). Between scenarios the board lists the campaign's results
and each investigator's experience and trauma.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache, partial
from typing import Any

from PIL import Image, ImageDraw

from bot.games.arkham_lcg.render.campaign import result_line
from bot.games.arkham_lcg.render.layout import GAP_X, placements
from bot.games.arkham_lcg.render.map import layout_graph, shown_routes
from bot.games.arkham_lcg.render.panels import PHASES
from bot.games.arkham_lcg.render.style import (
    BACK,
    BACK_EDGE,
    BACK_HEAD,
    CLUE,
    DOOM,
    ENEMY,
    ENEMY_EDGE,
    EXHAUSTED,
    EXHAUSTED_INK,
    HERE_EDGE,
    LINK,
    LOSS_BG,
    MAP_BG,
    RESOURCE,
    TAG_LEAD,
    TAG_OUT,
    TILE,
    TILE_EDGE,
    TILE_HEAD,
    WIN_BG,
    _backgrounds,
    _extras,
    _inks,
    initials,
    seat_colour,
)
from bot.render import inline
from bot.render.inline import GAP, MARGIN, SMALL, WIDTH, Colours, Seat, Stat, Tile
from bot.render.kit import (
    PARTS,
    Box,
    Color,
    PictureCache,
    Surface,
    Theme,
    draw_text,
    ellipsize,
    fit_lines,
    panel,
    text_width,
    wrap,
)
from bot.render.scene import Scene
from engine.arkham_lcg.view import EnemyView, InvestigatorView, LcgView, LocationView

__all__ = ["WIDTH", "inline_location_boxes", "render_inline", "render_inline_image"]

LINE = SMALL + 6
TOKEN = 42
CHIP_H = SMALL + 12
CHIP_H2 = CHIP_H + LINE  # a chip whose name takes two lines
TILE_PAD = 8
#: a tile's height: a two-line name, the shroud line, two enemies and the investigators' row
TILE_H = 2 * LINE + 8 + LINE + 6 + 2 * (CHIP_H + 4) + TOKEN + 2 * TILE_PAD
#: the least: room for one enemy chip
MIN_TILE_H = TILE_H - (CHIP_H + 4)
ROW_GAP = 16
STATUS = {"resigned": "Resigned", "defeated_damage": "Defeated", "defeated_horror": "Defeated",
          "defeated": "Defeated"}

_pictures = PictureCache(16)


@cache
def _palette() -> Image.Image:
    colours = Colours(surfaces=_backgrounds(), inks=_inks(), others=_extras())
    return inline.palette_of(colours, chips=[Theme.STAMINA, Theme.SANITY, RESOURCE, CLUE, DOOM, ENEMY, EXHAUSTED])


def _is_campaign(view: LcgView) -> bool:
    return view.scenario is None or view.over or view.phase in ("between", "over")


# ================================================================================================ the table

def _rows(view: LcgView) -> int:
    """How many rows of tiles the full board's arrangement has (bands stacked)."""
    probe = placements(layout_graph(view), Box(0, 0, 4000, 4000))
    bands: dict[int, int] = {}
    for p in probe.values():
        bands[p.band] = max(bands.get(p.band, 0), p.index + 1)
    return max(1, sum(bands.values()))


def _area(view: LcgView, seats_h: int = 0) -> Box:
    """The locations' area: the picture's width, each row of tiles TILE_H tall, or shorter when the rows
    would make the picture taller than it is wide (a tile then shows fewer enemy chips)."""
    rows = _rows(view)
    top = MARGIN + inline.HEADER_H + GAP
    want = rows * TILE_H + (rows - 1) * ROW_GAP + 2 * 12
    room = WIDTH - top - GAP - seats_h - MARGIN
    return Box(MARGIN, top, WIDTH - 2 * MARGIN, max(min(want, room), rows * MIN_TILE_H + (rows - 1) * ROW_GAP + 24))


def inline_location_boxes(view: LcgView | Mapping[str, Any]) -> dict[str, Box]:
    """Each location's tile in the channel board."""
    v = _as_view(view)
    return _tiles(v, _area(v, _seats_h(v)))


def _tiles(view: LcgView, area: Box) -> dict[str, Box]:
    """Tiles as wide as the column allows (the full board caps them smaller), the rows sharing the height."""
    inner = area.inset(12)
    # placed on the scenario's whole map, so a location entering play moves no other tile
    placed = placements(layout_graph(view), inner)
    in_play = {loc.code for loc in view.locations}
    if not in_play:
        return {}
    rows = _rows(view)
    tile_h = min(TILE_H, (inner.h - (rows - 1) * ROW_GAP) // rows)
    cols = max(p.col for p in placed.values()) + 1
    bands = max(p.band for p in placed.values()) + 1
    cell_w = (inner.w - (cols - 1) * GAP_X) // cols if bands == 1 else min(p.box.w for p in placed.values())
    out = {}
    for code, p in placed.items():
        if code not in in_play:
            continue
        cx, cy = p.box.center
        w = max(p.box.w, min(cell_w, 300))
        out[code] = Box(cx - w // 2, cy - tile_h // 2, w, tile_h)
    return out


def _draw_links(draw: ImageDraw.ImageDraw, view: LcgView, area: Box, tiles: dict[str, Box]) -> None:
    inner = area.inset(12)
    for (a, b), route in shown_routes(view, inner).items():
        if a in tiles and b in tiles and len(route) == 2:
            draw.line([tiles[a].center, tiles[b].center], fill=LINK, width=5)
        else:
            draw.line(list(route), fill=LINK, width=5, joint="curve")


def _chip_lines(enemy: EnemyView, width: int) -> list[str]:
    """The enemy's name in a chip `width` px wide: on one line, or on two rather than cut (its health is at
    the right)."""
    return fit_lines(inline.short_name(enemy.name), _name_room(enemy, width), (SMALL,), bold=True)[1]


def _name_room(enemy: EnemyView, width: int) -> int:
    """A chip's room for the name: 8 px in from the left, 6 px short of the health at the right."""
    return width - 16 - text_width(f"{enemy.health - enemy.damage}", SMALL, True) - 6


def _chip(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, enemy: EnemyView) -> None:
    tired = enemy.exhausted
    draw.rounded_rectangle(box.rect(), radius=8, fill=EXHAUSTED if tired else ENEMY,
                           outline=seat_colour(enemy.engaged) if enemy.engaged is not None else
                           (EXHAUSTED_INK if tired else ENEMY_EDGE), width=3 if enemy.engaged is not None else 2)
    ink = EXHAUSTED_INK if tired else inline.WHITE
    hp = f"{enemy.health - enemy.damage}"
    mid = box.y + box.h // 2 + 1
    draw_text(image, (box.right - 8, mid), hp, SMALL, ink, bold=True, anchor="rm")
    lines = _chip_lines(enemy, box.w)
    if box.h < CHIP_H2 and len(lines) > 1:  # no room for a second line here: the name is cut
        lines = [ellipsize(inline.short_name(enemy.name), SMALL, _name_room(enemy, box.w), True)]
    y = mid - (len(lines) - 1) * LINE // 2
    for line in lines:
        draw_text(image, (box.x + 8, y), line, SMALL, ink, bold=True, anchor="lm")
        y += LINE


def _stack_chips(area: Box, here: list[EnemyView]) -> list[tuple[Box, EnemyView]]:
    """The chips that fit `area` top-down, two lines tall where a name needs them; when not all fit, the last
    row is left for "+n enemies" (a two-line chip short of room is drawn one line tall, its name cut)."""
    heights = [CHIP_H if len(_chip_lines(e, area.w)) == 1 else CHIP_H2 for e in here]
    out: list[tuple[Box, EnemyView]] = []
    y = area.y
    if sum(heights) + 4 * (len(here) - 1) <= area.h:
        for enemy, h in zip(here, heights, strict=True):
            out.append((Box(area.x, y, area.w, h), enemy))
            y += h + 4
        return out
    for enemy, h in zip(here, heights, strict=True):
        if y + h + 4 + CHIP_H > area.bottom:
            h = CHIP_H
            if y + h + 4 + CHIP_H > area.bottom:
                break
        out.append((Box(area.x, y, area.w, h), enemy))
        y += h + 4
    return out


def _draw_tile(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, loc: LocationView,
               enemies: dict[int, EnemyView], view: LcgView) -> None:
    up = loc.revealed
    here_turn = view.turn is not None and view.turn in loc.investigators
    draw.rounded_rectangle(box.rect(), radius=12, fill=TILE if up else BACK,
                           outline=HERE_EDGE if here_turn else (TILE_EDGE if up else BACK_EDGE),
                           width=4 if here_turn else 2)
    inner = box.inset(TILE_PAD)
    head_h = 2 * LINE + 4
    draw.rounded_rectangle((box.x + 2, box.y + 2, box.right - 3, box.y + head_h + TILE_PAD), radius=10,
                           fill=TILE_HEAD if up else BACK_HEAD, corners=(True, True, False, False))
    lines = wrap(inline.short_name(loc.name), SMALL, inner.w, bold=True, max_lines=2)
    y = inner.y + (0 if len(lines) == 2 else LINE // 2)
    for line in lines:
        draw_text(image, (inner.x, y), line, SMALL, Theme.TEXT if up else Theme.MUTED, bold=True)
        y += LINE
    y = inner.y + head_h + 8
    info = f"Shroud {loc.shroud}" if up and loc.shroud is not None else "Unrevealed"
    right = inner.right
    for value, fill, ink in ((loc.clues, CLUE, inline.DARK_INK), (loc.doom, DOOM, inline.WHITE)):
        if value:
            b = inline.draw_count(image, draw, (right - 18, y + LINE // 2), value, fill, ink, size=SMALL)
            right = b.x - 6
    draw_text(image, (inner.x, y + LINE // 2), ellipsize(info, SMALL, right - inner.x - 4), SMALL,
              Theme.MUTED if up else Theme.FAINT, anchor="lm")
    y += LINE + 6
    here = [enemies[u] for u in loc.enemies if u in enemies]
    shown = _stack_chips(Box(inner.x, y, inner.w, max(CHIP_H, inner.bottom - TOKEN - 4 - y)), here)
    for chip in shown:
        _chip(image, draw, chip[0], chip[1])
        y = chip[0].bottom + 4
    if len(shown) < len(here):
        more = len(here) - len(shown)
        # "+2 enemies" takes the last chip's row
        draw.rounded_rectangle((inner.x, y, inner.right, y + CHIP_H), radius=8, fill=ENEMY, outline=ENEMY_EDGE,
                               width=2)
        draw_text(image, (inner.x + 8, y + CHIP_H // 2 + 1), f"+{inline.plural(more, 'enemy', 'enemies')}", SMALL,
                  inline.WHITE, bold=True, anchor="lm")
    by_seat = {i.seat: i for i in view.investigators}
    x = inner.x
    ty = inner.bottom - TOKEN
    for seat in loc.investigators:
        inv = by_seat.get(seat)
        label = initials(inv.player if inv else str(seat + 1))
        w = inline.disc_width(label, TOKEN)
        if x + w > inner.right:
            break
        draw.ellipse((x, ty, x + w - 1, ty + TOKEN - 1), fill=seat_colour(seat), outline=inline.DARK_INK, width=2)
        draw_text(image, (x + w // 2, ty + TOKEN // 2 + 1), label, SMALL, inline.DARK_INK, bold=True, anchor="mm")
        x += w + 4


def _tile_shape(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """The pixels a tile covers (its rounded rectangle, as `_draw_tile` draws it)."""
    draw.rounded_rectangle(box.rect(), radius=12, fill=1)


def _draw_table(image: Surface, draw: ImageDraw.ImageDraw, view: LcgView, area: Box) -> None:
    panel(draw, area, MAP_BG, radius=14)
    tiles = _tiles(view, area)
    _draw_links(draw, view, area, tiles)
    enemies = {e.uid: e for e in view.enemies}
    players = {i.seat: i.player for i in view.investigators}
    for loc in view.locations:
        box = tiles.get(loc.code)
        if box is not None:
            # a tile is kept by what it shows (most tiles are unchanged from one step to the next), and pasted
            # in its rounded shape: its corners show the paths under them
            key = ("lcg tile", loc.model_dump_json(), tuple(enemies[u].model_dump_json() for u in loc.enemies
                                                            if u in enemies),
                   view.turn is not None and view.turn in loc.investigators,
                   tuple(players.get(seat) for seat in loc.investigators))
            PARTS.paste(image, box, key, MAP_BG, partial(_draw_tile, loc=loc, enemies=enemies, view=view),
                        shape=_tile_shape)
    if not view.locations:
        draw_text(image, area.center, "No locations in play", SMALL + 4, Theme.MUTED, anchor="mm")


# ================================================================================================ seats

def _seats_h(view: LcgView) -> int:
    campaign = _is_campaign(view)
    seats = [_seat(view, inv, campaign) for inv in view.investigators]
    return inline.seat_height(WIDTH - 2 * MARGIN, seats) if seats else 0


def _location_name(view: LcgView, code: str | None) -> str:
    loc = next((x for x in view.locations if x.code == code), None)
    return inline.short_name(loc.name) if loc is not None else ""


def _seat(view: LcgView, inv: InvestigatorView, campaign: bool) -> Seat:
    tags: list[tuple[str, Color]] = []
    turn = view.turn == inv.seat and view.phase == "investigation" and not campaign
    if turn:
        tags.append((inline.plural(inv.actions, "action"), inline.TURN))
    if inv.seat == view.lead and not campaign:
        tags.append(("Lead", TAG_LEAD))
    out = inv.status != "playing" and not campaign
    if out:
        tags.append((STATUS.get(inv.status, "Out"), TAG_OUT))
    if campaign:
        stats: tuple[Stat, ...] = (Stat("XP", str(inv.xp), RESOURCE, inline.DARK_INK),
                                   Stat("Physical trauma", str(inv.physical_trauma), Theme.STAMINA),
                                   Stat("Mental trauma", str(inv.mental_trauma), Theme.SANITY))
        return Seat(seat_colour(inv.seat), inv.name, inv.player, stats, line=inv.player,
                    mark=initials(inv.player))
    stats = (Stat("HP", f"{inv.health - inv.damage}/{inv.health}", Theme.STAMINA),
             Stat("SAN", f"{inv.sanity - inv.horror}/{inv.sanity}", Theme.SANITY),
             Stat("Res", str(inv.resources), RESOURCE, inline.DARK_INK),
             Stat("Clues", str(inv.clues), CLUE, inline.DARK_INK))
    where = _location_name(view, inv.location)
    return Seat(seat_colour(inv.seat), inv.name, inv.player, () if out else stats,
                line=f"{inv.player} · {where}" if where else inv.player, tags=tuple(tags), turn=turn, out=out,
                mark=initials(inv.player))


# ================================================================================================ header

def _line(view: LcgView) -> str:
    phase = PHASES.get(view.phase, view.phase.capitalize())
    text = f"Round {view.round} · {phase}" if view.round else phase
    who = next((i for i in view.investigators if i.seat == view.turn), None)
    if who is not None and view.phase == "investigation":
        text += f" · {who.player}'s turn"
    return text


def _tiles_of(view: LcgView) -> list[Tile]:
    tiles = [Tile("Doom", f"{view.doom_in_play}/{view.doom_threshold}" if view.doom_threshold else
                  str(view.doom_in_play), DOOM)]
    if view.act_clues:
        have = sum(i.clues for i in view.investigators if i.status == "playing")
        tiles.append(Tile("Act clues", f"{have}/{view.act_clues}", CLUE))
    return tiles


def _draw_results(image: Surface, draw: ImageDraw.ImageDraw, box: Box, view: LcgView) -> None:
    panel(draw, box, Theme.PANEL, outline=Theme.PANEL_EDGE, radius=12)
    inner = box.inset(14, 10)
    y = inner.y
    if not view.results:
        draw_text(image, (inner.x, y), "No scenario played yet", SMALL + 2, Theme.MUTED)
    for result in view.results:
        name, label, won = result_line(result, view)
        tag = "Won" if won else "Lost"
        w = text_width(tag, SMALL, True) + 20
        draw.rounded_rectangle((inner.x, y, inner.x + w, y + LINE + 4), radius=12, fill=WIN_BG if won else LOSS_BG)
        draw_text(image, (inner.x + w // 2, y + (LINE + 4) // 2 + 1), tag, SMALL, Theme.GOOD if won else Theme.BAD,
                  bold=True, anchor="mm")
        draw_text(image, (inner.x + w + 12, y + (LINE + 4) // 2 + 1),
                  ellipsize(f"{name} · {label}", SMALL + 2, inner.right - inner.x - w - 12, True), SMALL + 2,
                  Theme.TEXT, bold=True, anchor="lm")
        y += LINE + 12


# ================================================================================================ API

def _as_view(view: LcgView | Mapping[str, Any]) -> LcgView:
    return view if isinstance(view, LcgView) else LcgView.model_validate(view)


def _scene(view: LcgView | Mapping[str, Any]) -> Scene:
    v = _as_view(view)
    campaign = _is_campaign(v)
    seats = [_seat(v, inv, campaign) for inv in v.investigators]
    seats_h = inline.seat_height(WIDTH - 2 * MARGIN, seats) if seats else 0
    if campaign:
        body = Box(MARGIN, MARGIN + inline.HEADER_H + GAP, WIDTH - 2 * MARGIN,
                   max(1, len(v.results)) * (LINE + 12) + 16)
    else:
        body = _area(v, seats_h)
    seats_top = body.bottom + GAP
    height = seats_top + seats_h + MARGIN
    image = Scene((WIDTH, height), Theme.BG)
    draw = image.draw()
    header = Box(MARGIN, MARGIN, WIDTH - 2 * MARGIN, inline.HEADER_H)
    if campaign:
        if v.over:
            won = v.result == "win"
            what = "campaign" if v.campaign_over else "scenario"  # a channel campaign goes on after a scenario
            line, colour = (f"The {what} is won" if won else f"The {what} is lost"), (Theme.GOOD if won else
                                                                                   Theme.BAD)
        else:
            line, colour = f"Between scenarios · {inline.plural(len(v.results), 'scenario')} played", Theme.ACCENT
        inline.draw_header(image, draw, header, v.campaign, line, [], colour)
        _draw_results(image, draw, body, v)
    else:
        inline.draw_header(image, draw, header, v.scenario_name or v.campaign, _line(v), _tiles_of(v))
        _draw_table(image, draw, v, body)
    if seats:
        inline.draw_seats(image, draw, Box(MARGIN, seats_top, WIDTH - 2 * MARGIN, height - MARGIN - seats_top), seats)
    return image


def render_inline_image(view: LcgView | Mapping[str, Any]) -> Image.Image:
    """The channel board for `view`, every part drawn."""
    return _scene(view).image()


def render_inline(view: LcgView | Mapping[str, Any]) -> bytes:
    """PNG bytes of the channel board for `view` (the model or its JSON dict); unchanged views are cached."""
    v = _as_view(view)
    return _pictures.get_or_render(v, lambda: _scene(v).png(_palette()))


def cache_clear() -> None:
    _pictures.clear()
