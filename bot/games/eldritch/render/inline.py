"""Eldritch Horror's channel board: the world laid out for the size Discord shows it (see `bot.render.inline`).

    +--------------------------------------------------------------------------+
    | Ancient One                          [Doom 7][Omen ● Green][Gates 4][1/3] |
    | Round 5 · Action Phase · Alice                                           |
    +--------------------------------------------------------------------------+
    |                                                                          |
    |   the world map, full width: every space's number in its shape, short    |
    |   names for the named ones, Gates, Monsters, Clues, rumors, the          |
    |   expedition and the investigators' tokens, all big enough to read       |
    |                                                                          |
    +------------------+------------------+------------------+-----------------+
    | investigator: Health, Sanity, Clues, where                    (one each) |
    +--------------------------------------------------------------------------+

The map keeps the full board's geometry (`map_layout`), scaled to the picture's width, so a space is where
players saw it on the full board; a space's number is what the "Travel to space 10" buttons name. Mysteries,
the reserve, ongoing Mythos cards and possessions stay in the full board and the readers.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.games.eldritch.render.map import (
    BADGE_DX,
    CLUE_SLOT,
    INVESTIGATOR_DY,
    INVESTIGATOR_SLOTS,
    MONSTER_SLOT,
    SCALE,
    _draw_paths,
    _draw_world,
    compute_slots,
    map_layout,
    path_lines,
    shape_points,
    slot_of,
    tag_above,
)
from bot.games.eldritch.render.panels import PHASES, initial
from bot.games.eldritch.render.style import (
    CLUE,
    DEFEATED,
    DOOM,
    LABEL_HALO,
    LABEL_INK,
    MAP_BOX,
    OCEAN,
    SHAPE_EDGE,
    SHAPE_INK,
    SPACE_FILL,
    TAG_DEFEATED,
    TAG_DELAYED,
    TAG_LEAD,
    backgrounds,
    derived_colours,
    inks,
    marker_colours,
    omen_colour,
    seat_colour,
)
from bot.games.eldritch.render.tokens import (
    disc_icon,
    draw_wounds,
    expedition_icon,
    gate_icon,
    monster_icon,
    rumor_icon,
    star_icon,
    wounds_text,
)
from bot.render import inline
from bot.render.inline import GAP, MARGIN, SMALL, WIDTH, Colours, Seat, Stat, Tile
from bot.render.kit import PARTS, Box, Color, PictureCache, Surface, Theme, draw_text, paste_icon, text_width
from bot.render.scene import Scene
from engine.eldritch.view import EldritchView, MonsterView

__all__ = ["MAP", "WIDTH", "inline_space_xy", "inline_token_xy", "render_inline", "render_inline_image"]

#: the map's place in the picture: full width under the header, the full board's aspect kept
MAP = Box(MARGIN, MARGIN + inline.HEADER_H + GAP, WIDTH - 2 * MARGIN,
          round((WIDTH - 2 * MARGIN) * MAP_BOX.h / MAP_BOX.w))
#: picture px per full-board map px
K = MAP.w / MAP_BOX.w
#: a space's shape: big enough to hold its number at the smallest text size
SHAPE_R = 23
TOKEN = 38  # an investigator's token, a Clue disc, a Monster badge
TOKEN_STEP = TOKEN + 2
GATE = 2 * SHAPE_R + 22
#: the short names the map writes for the named spaces (players know them; the full board has the rest)
SHORT = {"San Francisco": "San Fran.", "Buenos Aires": "B. Aires", "The Heart of Africa": "Africa"}

_pictures = PictureCache(16)


@cache
def _palette() -> Image.Image:
    colours = Colours(surfaces=[*backgrounds()], inks=[*inks(), LABEL_INK, SHAPE_INK],
                      others=[*marker_colours(), *derived_colours()])
    return inline.palette_of(colours, chips=[Theme.STAMINA, Theme.SANITY, CLUE, *marker_colours()])


# ================================================================================================ the map

def _xy(x: float, y: float) -> tuple[int, int]:
    """A full-board picture point -> this picture."""
    return round(MAP.x + (x - MAP_BOX.x) * K), round(MAP.y + (y - MAP_BOX.y) * K)


def inline_space_xy(version: str, space_id: str) -> tuple[int, int]:
    """A space's centre in the channel board."""
    place = map_layout(version).places[space_id]
    return _xy(place.x, place.y)


def _label(name: str) -> str:
    return SHORT.get(name, inline.short_name(name))


@lru_cache(maxsize=4)  # a few content versions; kept apart from the map layer, which may be evicted
def _base(version: str) -> Image.Image:
    """Sea, coasts, paths and the spaces' shapes, at the map's size in this picture (drawn into the map
    layer, which is kept)."""
    lay = map_layout(version)
    big = Image.new("RGB", (MAP_BOX.w * SCALE, MAP_BOX.h * SCALE), OCEAN)
    draw = ImageDraw.Draw(big)
    _draw_world(draw)
    _draw_paths(draw, lay)
    r = SHAPE_R / K * SCALE
    for place in lay.places.values():
        cx, cy = (place.x - MAP_BOX.x) * SCALE, (place.y - MAP_BOX.y) * SCALE
        fill = SPACE_FILL.get(place.space.type, SPACE_FILL["city"])
        points = shape_points(place.space.type, cx, cy, r)
        if points is None:
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=SHAPE_EDGE, width=3 * SCALE)
        elif place.space.type == "sea":
            draw.rounded_rectangle((points[0], points[2]), radius=r * 0.3, fill=fill, outline=SHAPE_EDGE,
                                   width=3 * SCALE)
        else:
            draw.polygon(points, fill=fill, outline=SHAPE_EDGE, width=3 * SCALE)
    return big.resize((MAP.w, MAP.h), Image.Resampling.LANCZOS)


def _centred(image: Surface, ico: Image.Image, x: int, y: int) -> None:
    paste_icon(image, ico, (x - ico.width // 2, y - ico.height // 2))


def _overlap(a: Box, b: Box) -> int:
    w = min(a.right, b.right) - max(a.x, b.x)
    h = min(a.bottom, b.bottom) - max(a.y, b.y)
    return w * h if w > 0 and h > 0 else 0


@cache
def label_boxes(version: str) -> dict[str, Box]:
    """Where each named space's short name goes: under its shape where that is clear, else above it or
    beside it, away from every space's shape, the places its Clue disc and Monster badge go, and the names
    already placed. The map never changes during a game, so this is worked out once per content version."""
    lay = map_layout(version)
    dx = round(BADGE_DX * K) + 8
    centres = {k: _xy(p.x, p.y) for k, p in lay.places.items()}
    obstacles: list[tuple[Box, int]] = []
    for x, y in centres.values():
        obstacles.append((Box(x - SHAPE_R - 4, y - SHAPE_R - 4, 2 * SHAPE_R + 8, 2 * SHAPE_R + 8), 20))
        for bx in (x - dx, x + dx):
            obstacles.append((Box(bx - TOKEN // 2, y - TOKEN // 2, TOKEN, TOKEN), 2))
        ty = y + round(INVESTIGATOR_DY * K) - 8  # the investigators' row: covered for a moment, not for good
        obstacles.append((Box(x - TOKEN_STEP, ty - TOKEN // 2, 2 * TOKEN_STEP, TOKEN), 1))
    bounds = MAP.inset(4)
    placed: dict[str, Box] = {}
    named = sorted((k for k, p in lay.places.items() if p.label is not None), key=lambda k: centres[k][1])
    for k in named:
        x, y = centres[k]
        text = _label(lay.places[k].space.name)
        w, h = text_width(text, SMALL, True) + 8, SMALL + 8
        options = [(0, Box(x - w // 2, y + SHAPE_R + 4, w, h)),
                   (2500, Box(x - w // 2, y - SHAPE_R - 6 - h, w, h)),  # where its investigators stand
                   (500, Box(x + SHAPE_R + 6, y - h // 2, w, h)),
                   (500, Box(x - SHAPE_R - 6 - w, y - h // 2, w, h)),
                   (4000, Box(x + dx + TOKEN // 2 + 4, y - h // 2, w, h)),
                   (4000, Box(x - dx - TOKEN // 2 - 4 - w, y - h // 2, w, h)),
                   (300, Box(x - w // 2 + w // 3, y + SHAPE_R + 4, w, h)),
                   (300, Box(x - w // 2 - w // 3, y + SHAPE_R + 4, w, h))]
        best: tuple[int, Box] | None = None
        for handicap, box in options:
            cost = handicap + (box.w * box.h - _overlap(box, bounds)) * 50
            cost += sum(_overlap(box, o) * weight for o, weight in obstacles)
            cost += sum(_overlap(box, other) * 40 for other in placed.values())
            if best is None or cost < best[0]:
                best = (cost, box)
        assert best is not None
        placed[k] = best[1]
    return placed


def _draw_names(image: Image.Image, version: str, dx: int = 0, dy: int = 0) -> None:
    """Each space's number inside its shape; a named space's short name where `label_boxes` puts it (moved
    by (dx, dy): the map layer is drawn apart from the board)."""
    lay = map_layout(version)
    labels = label_boxes(version)
    for key, place in lay.places.items():
        x, y = _xy(place.x, place.y)
        if place.label is None:
            draw_text(image, (x + dx, y + 1 + dy), place.space.name, SMALL, SHAPE_INK, bold=True, anchor="mm")
            continue
        box = labels[key]
        draw_text(image, (box.x + box.w // 2 + dx, box.y + 4 + dy), _label(place.space.name), SMALL, LABEL_INK,
                  bold=True, anchor="mt", stroke=3, stroke_fill=LABEL_HALO)


def _map_layer(version: str) -> Image.Image:
    """The map as no step changes it: sea, land, paths, shapes and names (drawn once per content version;
    the tokens go on top)."""
    def paint(canvas: Image.Image, _draw: ImageDraw.ImageDraw) -> None:
        canvas.paste(_base(version), (0, 0))
        _draw_names(canvas, version, -MAP.x, -MAP.y)
    return PARTS.get(("eldritch map", version), (MAP.w, MAP.h), OCEAN, paint)


#: the ring the tokens sit on around a space here (clear of the shape and of an open Gate's ring)
SLOT_RING = SHAPE_R + TOKEN // 2 + 8


@cache
def token_slots(version: str) -> dict[str, tuple[tuple[int, int], ...]]:
    """Where each space's tokens go in this picture: the full board's rule (`compute_slots`) at this
    picture's sizes, clear of this picture's labels."""
    lay = map_layout(version)
    centres = {k: _xy(p.x, p.y) for k, p in lay.places.items()}
    segments = [(_xy(*a), _xy(*b)) for a, b in path_lines(lay)]
    return compute_slots(centres, segments, list(label_boxes(version).values()), MAP.inset(4), SLOT_RING,
                         TOKEN // 2 + 1, tag_h=SMALL - 2)


def inline_token_xy(version: str, space_id: str, kind: str, k: int = 0) -> tuple[int, int]:
    """Where a token of `kind` ("monsters", "clues", "investigator": the k-th person there) sits."""
    here = token_slots(version)[space_id]
    if kind == "monsters":
        return slot_of(here, MONSTER_SLOT)
    if kind == "clues":
        return slot_of(here, CLUE_SLOT)
    return slot_of(here, INVESTIGATOR_SLOTS[k % len(INVESTIGATOR_SLOTS)], k // len(INVESTIGATOR_SLOTS))


def _draw_tokens(image: Surface, view: EldritchView) -> None:
    lay = map_layout(view.content_version)
    places = lay.places
    slots = token_slots(view.content_version)
    monsters: dict[str, list[MonsterView]] = {}
    for m in view.monsters:
        monsters.setdefault(m.space, []).append(m)
    for space in view.spaces:
        place = places.get(space.id)
        if place is None:
            continue
        x, y = _xy(place.x, place.y)
        here = slots[space.id]
        if space.gate:
            _centred(image, gate_icon(omen_colour(space.gate), GATE), x, y)
            if place.label is None:  # the ring covers the shape's edge: write the number again on top
                draw_text(image, (x, y + 1), space.name, SMALL, SHAPE_INK, bold=True, anchor="mm")
        if space.clues:
            cx, cy = inline_token_xy(view.content_version, space.id, "clues")
            _centred(image, disc_icon(CLUE, size=TOKEN), cx, cy)
            draw_text(image, (cx, cy + 1), str(space.clues), SMALL, inline.DARK_INK, bold=True, anchor="mm")
        marks = [(rumor_icon(TOKEN - 4), "R")] if space.rumor else []
        if space.expedition:
            marks.append((expedition_icon(TOKEN - 4), ""))
        # rumor and expedition: on slots of their own, after the people's
        for k, (ico, letter) in enumerate(marks):
            mx, my = slot_of(here, len(here) - 1 - k)
            _centred(image, ico, mx, my)
            if letter:
                draw_text(image, (mx, my + 1), letter, SMALL, Theme.TEXT, bold=True, anchor="mm")
    for space_id, stack in monsters.items():
        place = places.get(space_id)
        if place is None:
            continue
        mx, my = inline_token_xy(view.content_version, space_id, "monsters")
        epic = any(m.epic for m in stack)
        _centred(image, monster_icon(epic, TOKEN), mx, my)
        draw_text(image, (mx, my + 1), str(len(stack)), SMALL, Theme.TEXT, bold=True, anchor="mm")
        if epic:
            _centred(image, star_icon(22), mx + TOKEN // 2, my - TOKEN // 2)
        dy = TOKEN // 2 + SMALL // 2 - 4
        draw_wounds(image, mx, my - dy if tag_above(my, _xy(place.x, place.y)[1]) else my + dy, wounds_text(stack),
                    SMALL)
    people: dict[str, list[tuple[Color | None, str, bool]]] = {}
    for inv in view.investigators:
        if inv.name and not inv.defeated and not inv.eliminated:
            people.setdefault(inv.space, []).append((seat_colour(inv.seat), initial(inv), inv.delayed))
    for space in view.spaces:  # investigators last: on top of whatever a crowded neighbour drew
        place = places.get(space.id)
        tokens = people.get(space.id, []) + [(None, "", False) for _ in space.defeated]
        if place is None or not tokens:
            continue
        for k, (colour, letter, delayed) in enumerate(tokens):
            tx, ty = inline_token_xy(view.content_version, space.id, "investigator", k)
            if colour is None:
                _centred(image, disc_icon(DEFEATED, size=TOKEN, cross=True), tx, ty)
                continue
            _centred(image, disc_icon(colour, TAG_DELAYED if delayed else SHAPE_EDGE, TOKEN), tx, ty)
            draw_text(image, (tx, ty + 1), letter, SMALL, inline.DARK_INK, bold=True, anchor="mm")


# ================================================================================================ the rest

def _where(view: EldritchView, space_id: str) -> str:
    space = next((s for s in view.spaces if s.id == space_id), None)
    if space is None:
        return ""
    return f"space {space.name}" if space.name.isdigit() else _label(space.name)


def _seat(view: EldritchView, inv: Any) -> Seat:
    tags: list[tuple[str, Color]] = []
    if view.current == inv.seat and not view.over:
        tags.append(("Turn", inline.TURN))
    if inv.lead:
        tags.append(("Lead", TAG_LEAD))
    if inv.delayed:
        tags.append(("Delayed", TAG_DELAYED))
    if inv.defeated:
        tags.append(("Defeated", TAG_DEFEATED))
    name = inv.name or inv.player
    if inv.eliminated or not inv.name:
        gone = "eliminated" if inv.eliminated else "no investigator"
        return Seat(seat_colour(inv.seat), name, inv.player, (), line=f"{inv.player} · {gone}", tags=tuple(tags),
                    out=True, mark=initial(inv))
    stats = (Stat("HP", f"{inv.health}/{inv.max_health}", Theme.STAMINA),
             Stat("SAN", f"{inv.sanity}/{inv.max_sanity}", Theme.SANITY),
             Stat("Clues", str(inv.clues), CLUE, inline.DARK_INK))
    return Seat(seat_colour(inv.seat), name, inv.player, stats, line=f"{inv.player} · {_where(view, inv.space)}",
                tags=tuple(tags), turn=view.current == inv.seat and not view.over, mark=initial(inv))


def _line(view: EldritchView) -> tuple[str, Color]:
    if view.over:
        won = view.result == "win"
        return ("The investigators win" if won else f"{view.ancient_one.name} prevails"), \
            (Theme.GOOD if won else Theme.BAD)
    phase = PHASES.get(view.phase, view.phase.capitalize())
    line = f"Round {view.round} · {phase}"
    current = next((i for i in view.investigators if i.seat == view.current), None)
    if current is not None:
        line += f" · {current.player}"
    if view.awakened:
        line += " · Awakened"
    return line, Theme.BAD if view.awakened else Theme.ACCENT


def _as_view(view: EldritchView | Mapping[str, Any]) -> EldritchView:
    return view if isinstance(view, EldritchView) else EldritchView.model_validate(view)


def _scene(v: EldritchView) -> Scene:
    seats = [_seat(v, inv) for inv in v.investigators]
    seats_top = MAP.bottom + GAP
    height = seats_top + inline.seat_height(WIDTH - 2 * MARGIN, seats) + MARGIN
    image = Scene((WIDTH, height), Theme.BG)
    draw = image.draw()
    gates = sum(1 for s in v.spaces if s.gate)
    tiles = [Tile("Doom", str(v.doom), DOOM),
             Tile("Omen", v.omen.capitalize(), Theme.TEXT, swatch=omen_colour(v.omen)),
             Tile("Gates", str(gates), Theme.TEXT),
             Tile("Mysteries", f"{len(v.solved)}/{v.mysteries_needed}", Theme.ACCENT)]
    line, colour = _line(v)
    inline.draw_header(image, draw, Box(MARGIN, MARGIN, WIDTH - 2 * MARGIN, inline.HEADER_H), v.ancient_one.name,
                       line, tiles, colour)
    image.paste(_map_layer(v.content_version), (MAP.x, MAP.y))
    draw.rectangle(MAP.inset(-2).rect(), outline=Theme.PANEL_EDGE, width=2)
    _draw_tokens(image, v)
    inline.draw_seats(image, draw, Box(MARGIN, seats_top, WIDTH - 2 * MARGIN, height - MARGIN - seats_top), seats)
    return image


def render_inline_image(view: EldritchView | Mapping[str, Any]) -> Image.Image:
    """The channel board for `view`, every part drawn."""
    return _scene(_as_view(view)).image()


def render_inline(view: EldritchView | Mapping[str, Any]) -> bytes:
    """PNG bytes of the channel board for `view` (the model or its JSON dict): only the bands of rows that
    changed since a picture drawn before are drawn and compressed; unchanged views are cached whole."""
    v = _as_view(view)
    return _pictures.get_or_render(v, lambda: _scene(v).png(_palette()))


def cache_clear() -> None:
    _pictures.clear()
