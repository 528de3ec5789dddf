"""The locations in play, laid out by their connections (`lcg_layout`): one tile per location with what is on it.

A tile, top to bottom: its name on a header band; its shroud (or "Unrevealed") with a doom badge and a clue
badge at the right; the cards attached to it; a chip per enemy there (engaged ones marked with the seat's
colour, exhausted ones greyed, damage against health at the right); the investigators there as tokens in
their seats' colours with their players' initials. An unrevealed location shows its darker back.

The lines and tile shapes are drawn at twice the size and scaled down (smooth corners), and cached by which
locations are in play, connected and revealed; text, badges and chips are drawn over them each time.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.games.arkham_lcg.render.layout import Graph, Point, graph_of, link_routes, links_of, tile_boxes
from bot.games.arkham_lcg.render.style import (
    ATTACHMENT,
    BACK,
    BACK_EDGE,
    BACK_HEAD,
    CLUE,
    DARK_INK,
    DOOM,
    ENEMY,
    ENEMY_EDGE,
    EXHAUSTED,
    EXHAUSTED_INK,
    LINK,
    MAP_BG,
    MAP_BOX,
    SMALL,
    TILE,
    TILE_EDGE,
    TILE_HEAD,
    TITLE,
    WHITE,
    initials,
    seat_colour,
)
from bot.render.kit import Box, Color, Theme, draw_text, ellipsize, fit_lines, text_width
from engine.arkham_lcg.view import EnemyView, LcgView, LocationView

SCALE = 2
PAD = 12  # between the map panel's edge and the tiles
HEAD_H = 26
HEAD_H2 = 2 * 15 + 12  # a header whose name takes two lines
INFO_H = 22
BADGE = 22
CHIP_H = 18
CHIP_H2 = 2 * SMALL + 6  # a chip whose name takes two lines
CHIP_GAP = 2
TOKEN = 22
ENGAGED_DOT = 12


@dataclass(frozen=True)
class TileParts:
    """The regions of one tile (for drawing, and for tests that look at one part)."""

    box: Box
    head: Box
    clue: Box  # the clue badge (drawn when the location has clues)
    doom: Box  # the doom badge, left of the clue badge
    chips: Box  # where enemy chips go
    tokens: Box  # the investigators' row

    def token_xy(self, k: int) -> tuple[int, int]:
        """The top-left corner of the k-th investigator token."""
        return self.tokens.x + k * (TOKEN + 4), self.tokens.y


def map_area() -> Box:
    return MAP_BOX.inset(PAD)


@lru_cache(maxsize=64)
def _graph(locations: tuple[tuple[str, tuple[str, ...]], ...]) -> Graph:
    # cached: a render asks for its graphs several times, and they change only when a location enters play
    return graph_of(locations)


def map_graph(view: LcgView) -> Graph:
    """The locations in play and their connections (the lines drawn)."""
    return _graph(tuple((loc.code, tuple(loc.connections)) for loc in view.locations))


def layout_graph(view: LcgView) -> Graph:
    """The scenario's whole map: every location it can put into play and those in play now. Tiles are placed
    on it, so a location's place is a function of the scenario, not of which locations are in play: one that
    enters play takes its own place and moves nobody."""
    return _graph(tuple((m.code, tuple(m.connections)) for m in view.map_locations)
                  + tuple((loc.code, tuple(loc.connections)) for loc in view.locations))


def shown_routes(view: LcgView, area: Box) -> dict[tuple[str, str], tuple[Point, ...]]:
    """The lines between locations in play, routed on the scenario's whole map (a connection to a location not
    in play yet is not drawn)."""
    routes = link_routes(layout_graph(view), area)
    placed = tile_boxes(layout_graph(view), area)
    return {(a, b): routes.get((a, b)) or (placed[a].center, placed[b].center) for a, b in links_of(map_graph(view))}


def location_boxes(view: LcgView) -> dict[str, Box]:
    """Each location's tile in the picture (only the locations in play)."""
    in_play = {loc.code for loc in view.locations}
    return {code: box for code, box in tile_boxes(layout_graph(view), map_area()).items() if code in in_play}


def name_lines(name: str, box: Box) -> tuple[int, list[str]]:
    """A location's name on its tile's header: one line (17 px, else 15), or two rather than a cut name."""
    return fit_lines(name, box.w - 16, (17, 15), bold=True)


def head_height(name: str, box: Box) -> int:
    """The header band: one line, or two when the name takes two."""
    return HEAD_H if len(name_lines(name, box)[1]) == 1 else HEAD_H2


def tile_parts(box: Box, attachments: bool = False, investigators: bool = True, name: str = "") -> TileParts:
    """A tile's regions; enemy chips take the investigators' row too when nobody is there; the header takes a
    second line when the location's `name` needs it."""
    head_h = head_height(name, box)
    head = Box(box.x, box.y, box.w, head_h)
    info_y = box.y + head_h + 4
    clue = Box(box.right - 6 - BADGE, info_y, BADGE, BADGE)
    doom = Box(clue.x - 4 - BADGE, info_y, BADGE, BADGE)
    tokens = Box(box.x + 6, box.bottom - 5 - TOKEN, box.w - 12, TOKEN)
    top = info_y + INFO_H + 3 + (18 if attachments else 0)
    bottom = tokens.y - 2 if investigators else box.bottom - 6
    chips = Box(box.x + 6, top, box.w - 12, max(0, bottom - top))
    return TileParts(box, head, clue, doom, chips, tokens)


# ================================================================================================ the base

@lru_cache(maxsize=32)
def _base(boxes: tuple[tuple[str, Box, int], ...], routes: tuple[tuple[Point, ...], ...], revealed: frozenset[str]
          ) -> Image.Image:
    """The map panel with its connection lines and empty tiles (each with its header's height), smooth (drawn
    at SCALE)."""
    panel = MAP_BOX
    big = Image.new("RGB", (panel.w * SCALE, panel.h * SCALE), Theme.BG)
    draw = ImageDraw.Draw(big)

    def s(b: Box) -> tuple[int, int, int, int]:
        return ((b.x - panel.x) * SCALE, (b.y - panel.y) * SCALE, (b.right - panel.x) * SCALE - 1,
                (b.bottom - panel.y) * SCALE - 1)

    draw.rounded_rectangle((0, 0, panel.w * SCALE - 1, panel.h * SCALE - 1), radius=14 * SCALE, fill=MAP_BG)
    for route in routes:
        draw.line([((x - panel.x) * SCALE, (y - panel.y) * SCALE) for x, y in route], fill=LINK, width=4 * SCALE,
                  joint="curve")
    for code, box, head_h in boxes:
        up = code in revealed
        draw.rounded_rectangle(s(box), radius=10 * SCALE, fill=TILE if up else BACK,
                               outline=TILE_EDGE if up else BACK_EDGE, width=2 * SCALE)
        head = Box(box.x, box.y, box.w, head_h)
        x0, y0, x1, y1 = s(head)
        inset = 2 * SCALE  # the header sits inside the tile's edge
        draw.rounded_rectangle((x0 + inset, y0 + inset, x1 - inset, y1), radius=8 * SCALE,
                               fill=TILE_HEAD if up else BACK_HEAD, corners=(True, True, False, False))
        if not up:  # a card back's emblem: two rings under where enemy chips would go
            cx, cy = (box.center[0] - panel.x) * SCALE, (box.y + head_h + (box.h - head_h) // 2 - panel.y) * SCALE
            r = min(box.w, box.h - head_h) * SCALE // 4
            for k in (r, r * 2 // 3):
                draw.ellipse((cx - k, cy - k, cx + k, cy + k), outline=BACK_EDGE, width=2 * SCALE)
    return big.resize((panel.w, panel.h), Image.Resampling.LANCZOS)


# ================================================================================================ markers

def _badge(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, count: int, fill: Color, ink: Color) -> None:
    draw.ellipse(box.rect(), fill=fill, outline=DARK_INK, width=1)
    draw_text(image, box.center, str(count), SMALL, ink, bold=True, anchor="mm")


def draw_token(image: Image.Image, draw: ImageDraw.ImageDraw, xy: tuple[int, int], seat: int, label: str,
               size: int = TOKEN) -> None:
    """An investigator's token: a disc in the seat's colour with the player's initials."""
    x, y = xy
    draw.ellipse((x, y, x + size - 1, y + size - 1), fill=seat_colour(seat), outline=DARK_INK, width=2)
    draw_text(image, (x + size // 2, y + size // 2), label, max(10, size // 2), DARK_INK, bold=True, anchor="mm")


def _chip_parts(enemy: EnemyView, width: int) -> tuple[int, list[tuple[str, Color]], int, list[str]]:
    """How a chip `width` px wide lays out: where the name starts, the tags shown before the health (while
    they leave the name 80 px), the name's room and its lines: one, or two rather than a cut name."""
    x = 5 + (ENGAGED_DOT + 4 if enemy.engaged is not None else 0)
    right = width - 5 - text_width(f"{enemy.damage}/{enemy.health}", SMALL, True) - 5
    tired = enemy.exhausted
    extras = [("exh.", EXHAUSTED_INK)] if tired else []
    if enemy.doom:
        extras.append((f"{enemy.doom} doom", DOOM if not tired else EXHAUSTED_INK))
    shown = []
    for text, colour in extras:
        if right - text_width(text, SMALL - 2) - 4 < x + 80:  # the name comes first
            break
        shown.append((text, colour))
        right -= text_width(text, SMALL - 2) + 5
    room = max(10, right - x - 2)
    return x, shown, room, fit_lines(enemy.name, room, (SMALL,))[1]


def chip_height(enemy: EnemyView, width: int) -> int:
    """A chip's height: one line, or two when the name needs them."""
    return CHIP_H if len(_chip_parts(enemy, width)[3]) == 1 else CHIP_H2


def _chip(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, enemy: EnemyView) -> None:
    tired = enemy.exhausted
    draw.rounded_rectangle(box.rect(), radius=6, fill=EXHAUSTED if tired else ENEMY,
                           outline=EXHAUSTED_INK if tired else ENEMY_EDGE, width=1)
    ink = EXHAUSTED_INK if tired else WHITE
    name_x, extras, room, lines = _chip_parts(enemy, box.w)
    if box.h < CHIP_H2 and len(lines) > 1:  # no room for a second line here: the name is cut
        lines = [ellipsize(enemy.name, SMALL, room)]
    mid = box.y + box.h // 2
    if enemy.engaged is not None:
        x, top = box.x + 5, mid - ENGAGED_DOT // 2
        draw.ellipse((x, top, x + ENGAGED_DOT - 1, top + ENGAGED_DOT - 1), fill=seat_colour(enemy.engaged),
                     outline=DARK_INK, width=1)
    right = box.right - 5
    hp = f"{enemy.damage}/{enemy.health}"
    draw_text(image, (right, mid), hp, SMALL, Theme.BAD if enemy.damage and not tired else ink, bold=True,
              anchor="rm")
    right -= text_width(hp, SMALL, True) + 5
    for text, colour in extras:
        draw_text(image, (right, mid), text, SMALL - 2, colour, anchor="rm")
        right -= text_width(text, SMALL - 2) + 5
    y = mid - (len(lines) - 1) * (SMALL + 1) // 2
    for line in lines:
        draw_text(image, (box.x + name_x, y), line, SMALL, ink, anchor="lm")
        y += SMALL + 1


def _more_chip(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, count: int) -> None:
    draw.rounded_rectangle(box.rect(), radius=6, fill=ENEMY, outline=ENEMY_EDGE, width=1)
    draw_text(image, (box.x + 6, box.y + box.h // 2), f"+{count} more {'enemy' if count == 1 else 'enemies'}",
              SMALL, WHITE, anchor="lm")


def stack_chips(area: Box, here: list[EnemyView]) -> list[tuple[Box, EnemyView | None]]:
    """The enemy chips top-down in `area`, a chip two lines tall where its name needs them; when they do not
    all fit, as many as leave room for a last "+n more" chip (None). A two-line chip short of room is drawn
    one line tall, its name cut."""
    heights = [chip_height(e, area.w) for e in here]
    out: list[tuple[Box, EnemyView | None]] = []
    y = area.y
    if sum(heights) + CHIP_GAP * (len(here) - 1) <= area.h:
        for enemy, h in zip(here, heights, strict=True):
            out.append((Box(area.x, y, area.w, h), enemy))
            y += h + CHIP_GAP
        return out
    for enemy, h in zip(here, heights, strict=True):
        if y + h + CHIP_GAP + CHIP_H > area.bottom:
            h = CHIP_H
            if y + h + CHIP_GAP + CHIP_H > area.bottom:
                break
        out.append((Box(area.x, y, area.w, h), enemy))
        y += h + CHIP_GAP
    if y + CHIP_H <= area.bottom:
        out.append((Box(area.x, y, area.w, CHIP_H), None))
    return out


def _draw_tile(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, loc: LocationView,
               enemies: dict[int, EnemyView], view: LcgView) -> None:
    parts = tile_parts(box, bool(loc.attachments), bool(loc.investigators), loc.name)
    size, lines = name_lines(loc.name, box)
    y = parts.head.y + parts.head.h // 2 + 1 - (len(lines) - 1) * (size + 1) // 2
    for line in lines:
        draw_text(image, (box.x + 8, y), line, size, Theme.TEXT if loc.revealed else Theme.MUTED, bold=True,
                  anchor="lm")
        y += size + 1
    info_mid = parts.clue.y + BADGE // 2
    badge_left = parts.clue.right
    if loc.clues > 0:
        _badge(image, draw, parts.clue, loc.clues, CLUE, DARK_INK)
        badge_left = parts.clue.x
    if loc.doom > 0:
        doom = parts.doom if loc.clues > 0 else parts.clue
        _badge(image, draw, doom, loc.doom, DOOM, WHITE)
        badge_left = doom.x
    info = f"Shroud {loc.shroud}" if loc.revealed and loc.shroud is not None else "Unrevealed"
    draw_text(image, (box.x + 8, info_mid), ellipsize(info, SMALL, max(10, badge_left - box.x - 14)), SMALL,
              Theme.MUTED if loc.revealed else Theme.FAINT, anchor="lm")
    if loc.attachments:
        first = loc.attachments[0].name
        more = f" +{len(loc.attachments) - 1}" if len(loc.attachments) > 1 else ""
        text = ellipsize(f"◆ {first}", SMALL - 1, box.w - 16 - text_width(more, SMALL - 1)) + more
        draw_text(image, (box.x + 8, parts.clue.bottom + 2), text, SMALL - 1, ATTACHMENT)
    here = [enemies[u] for u in loc.enemies if u in enemies]
    fit = (parts.chips.h + CHIP_GAP) // (CHIP_H + CHIP_GAP)
    chips = stack_chips(parts.chips, here)
    for chip, enemy in chips:
        if enemy is None:
            _more_chip(image, draw, chip, len(here) - len(chips) + 1)
        else:
            _chip(image, draw, chip, enemy)
    by_seat = {i.seat: i for i in view.investigators}
    room = (parts.tokens.w + 4) // (TOKEN + 4)
    for k, seat in enumerate(loc.investigators[:room]):
        inv = by_seat.get(seat)
        draw_token(image, draw, parts.token_xy(k), seat, initials(inv.player if inv else str(seat + 1)))
    if len(here) and fit == 0:  # a tile too small for chips still says how many enemies are there
        label = f"{len(here)} {'enemy' if len(here) == 1 else 'enemies'}"
        draw_text(image, (parts.tokens.right, parts.tokens.y + TOKEN // 2), label, SMALL, ENEMY_EDGE, bold=True,
                  anchor="rm")


def draw_map(image: Image.Image, draw: ImageDraw.ImageDraw, view: LcgView) -> dict[str, Box]:
    revealed = frozenset(loc.code for loc in view.locations if loc.revealed)
    boxes = location_boxes(view)
    names = {loc.code: loc.name for loc in view.locations}
    base = _base(tuple((code, box, head_height(names[code], box)) for code, box in sorted(boxes.items())),
                 tuple(shown_routes(view, map_area()).values()), revealed)
    image.paste(base, (MAP_BOX.x, MAP_BOX.y))
    enemies = {e.uid: e for e in view.enemies}
    for loc in view.locations:
        _draw_tile(image, draw, boxes[loc.code], loc, enemies, view)
    if not view.locations:
        draw_text(image, MAP_BOX.center, "No locations in play", TITLE, Theme.MUTED, anchor="mm")
    return boxes
