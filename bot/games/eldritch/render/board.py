"""The Eldritch Horror board picture, drawn after every phase for the channel.

`render_board(view)` takes the spectator's view (`engine.eldritch.view.EldritchView`, or its JSON dict) and
returns PNG bytes. Layout (1600 x 1000, the same for every game and every phase):

    +------------------------------------------------------+-------------------+
    |                                                      | Ancient One       |
    |   the world map: spaces, paths, Gates, Monsters,     | round · phase     |
    |   Clues, rumors, the expedition, investigators       | doom track        |
    |   (eh_map lays it out, eh_tokens draws the tokens)   | omen · open Gates |
    |                                                      | Mysteries         |
    +--------------------------+---------------------------+ reserve           |
    | investigator (seat 0)    | investigator (seat 1)     | ongoing Mythos    |
    | ...                      | ...                       | legend            |
    +--------------------------+---------------------------+-------------------+

What never changes during a game (map, frames, legend) is drawn once per content version and copied; an
unchanged view is answered from a small cache of encoded pictures. Every picture is encoded on one fixed
palette built from the named colours (`eh_style`), without dithering.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from PIL import Image, ImageDraw

from bot.games.eldritch.render.map import SpacePlace, map_image, map_layout, tag_above
from bot.games.eldritch.render.panels import draw_seats, draw_side, draw_static, initial
from bot.games.eldritch.render.style import (
    AWAKE_BG,
    HEIGHT,
    MAP_BOX,
    WIDTH,
    WIN_BG,
    backgrounds,
    derived_colours,
    inks,
    marker_colours,
    seat_colour,
)
from bot.games.eldritch.render.tokens import (
    BADGE_SIZE,
    draw_clues,
    draw_defeated,
    draw_expedition,
    draw_gate,
    draw_investigator,
    draw_monsters,
    draw_rumor,
    wounds_text,
)
from bot.render.kit import (
    Box,
    Color,
    PictureCache,
    Theme,
    blend_ramps,
    build_palette,
    draw_text,
    ellipsize,
    fit_size,
    panel,
    to_png,
)
from engine.eldritch.view import EldritchView, MonsterView

__all__ = ["HEIGHT", "WIDTH", "render_board", "render_board_image", "space_xy"]

#: encoded pictures kept for unchanged views (a re-shown board, a second channel message)
CACHE_SIZE = 32
_pictures = PictureCache(CACHE_SIZE)


# ================================================================================================ palette

@cache
def _palette() -> Image.Image:
    bgs, ink = backgrounds(), inks()
    markers = marker_colours()
    colours = [*bgs, *ink, *markers, *derived_colours()]
    # antialiased edges: text over every surface, markers over the sea, the land and the panels
    ramps = blend_ramps(ink, bgs) + blend_ramps(markers, bgs[:7])
    return build_palette(colours, ramps)


# ================================================================================================ layout

def space_xy(version: str, space_id: str) -> tuple[int, int]:
    """The pixel centre of a space in the final picture (content `version`'s board)."""
    return map_layout(version).places[space_id].centre


@cache
def _background(version: str) -> Image.Image:
    """The map and the panels' frames, titles and legend for content `version` (shared: copy it)."""
    image = Image.new("RGB", (WIDTH, HEIGHT), Theme.BG)
    image.paste(map_image(version), (MAP_BOX.x, MAP_BOX.y))
    ImageDraw.Draw(image).rectangle(MAP_BOX.inset(-2).rect(), outline=Theme.PANEL_EDGE, width=2)
    draw_static(image)
    return image


@cache
def _space_names(version: str) -> dict[str, str]:
    """How a space is named in text: its name, or "space 5" for a numbered one."""
    return {k: (f"space {p.space.name}" if p.space.name.isdigit() else p.space.name)
            for k, p in map_layout(version).places.items()}


# ================================================================================================ tokens

def _draw_people(image: Image.Image, place: SpacePlace, tokens: list[tuple[Color | None, str, bool]]) -> None:
    """Investigator tokens at their space's slots, in seat order. A token without a colour is a defeated
    investigator lying there."""
    for k, (colour, letter, delayed) in enumerate(tokens):
        tx, ty = place.investigator(k)
        if colour is None:
            draw_defeated(image, tx, ty)
        else:
            draw_investigator(image, tx, ty, colour, letter, delayed)


def _draw_tokens(image: Image.Image, view: EldritchView) -> None:
    places = map_layout(view.content_version).places
    monsters: dict[str, list[MonsterView]] = {}
    for m in view.monsters:
        monsters.setdefault(m.space, []).append(m)
    people: dict[str, list[tuple[Color | None, str, bool]]] = {}
    for inv in view.investigators:
        if inv.name and not inv.defeated and not inv.eliminated:
            people.setdefault(inv.space, []).append((seat_colour(inv.seat), initial(inv), inv.delayed))
    for space in view.spaces:
        place = places.get(space.id)
        if place is None:
            continue
        if space.gate:
            draw_gate(image, place.x, place.y, space.gate)
        if space.clues:
            draw_clues(image, *place.clues, space.clues)
        mx, my = place.marks
        for shown, draw in ((space.rumor, draw_rumor), (space.expedition, draw_expedition)):
            if shown:
                draw(image, mx + BADGE_SIZE // 2, my)
                mx += BADGE_SIZE + 4
    for space_id, here in monsters.items():
        place = places.get(space_id)
        if place is not None:
            draw_monsters(image, *place.monsters, len(here), any(m.epic for m in here), wounds_text(here),
                          tag_above(place.monsters[1], place.y))
    for space in view.spaces:  # investigators last: on top of anything a crowded neighbour drew
        place = places.get(space.id)
        tokens = people.get(space.id, []) + [(None, "", False) for _ in space.defeated]
        if place is not None and tokens:
            _draw_people(image, place, tokens)


def _draw_result(image: Image.Image, view: EldritchView) -> None:
    """Game over: a banner over the southern ocean, the emptiest band of the map."""
    won = view.result == "win"
    draw = ImageDraw.Draw(image)
    box = Box(MAP_BOX.x + MAP_BOX.w // 2 - 300, MAP_BOX.bottom - 84, 600, 70)
    panel(draw, box, WIN_BG if won else AWAKE_BG, outline=Theme.GOOD if won else Theme.BAD, width=4, radius=16)
    text = "The investigators win" if won else f"{view.ancient_one.name} prevails: the investigators lose"
    size = fit_size(text, box.w - 32, (28, 24, 20), bold=True)
    draw_text(image, box.center, ellipsize(text, size, box.w - 32, True), size, Theme.TEXT, bold=True, anchor="mm")


# ================================================================================================ API

def _as_view(view: EldritchView | Mapping[str, Any]) -> EldritchView:
    return view if isinstance(view, EldritchView) else EldritchView.model_validate(view)


def render_board_image(view: EldritchView | Mapping[str, Any]) -> Image.Image:
    """The board as an RGB picture (before encoding)."""
    v = _as_view(view)
    image = _background(v.content_version).copy()
    _draw_tokens(image, v)
    names = _space_names(v.content_version)
    draw_side(image, v, names)
    draw_seats(image, v, names)
    if v.over:
        _draw_result(image, v)
    return image


def render_board(view: EldritchView | Mapping[str, Any]) -> bytes:
    """PNG bytes of the board as `view` shows it (the model or its `model_dump(mode="json")` dict).
    The same view, in either form, gives the same bytes; an unchanged view is served from the cache."""
    v = _as_view(view)
    return _pictures.get_or_render(v, lambda: to_png(render_board_image(v), palette=_palette()))


def cache_clear() -> None:
    """Forget the encoded pictures (tests and benchmarks time cold renders with it)."""
    _pictures.clear()
