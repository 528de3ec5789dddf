"""The Arkham Horror 3e town board picture, drawn after every phase.

`render_board(view)` draws the spectator's view (`engine.arkham3.view.ArkhamView`, or its JSON dict) on a
fixed 1600x1000 canvas:

    +----------------------------------------------+----------------+
    | the town map: a tile per neighborhood with   | scenario, round|
    | its spaces, street plates between the tiles, | scenario sheet |
    | borders as lines; doom, clues, anomalies,    | codex          |
    | investigators and monsters on their spaces   | mythos cup     |
    | (a key to the markers along its bottom)      | item display   |
    +----------------------------------------------+ monsters on    |
    | one row per investigator (2 or 3 columns)    | the board      |
    +----------------------------------------------+----------------+

The map's geometry is computed from the graph (`ah3_layout`) and cached per map, its static drawing too
(`ah3_map.base_map`); a finished picture is cached by a hash of the view's JSON, so an unchanged view costs a
lookup. Every picture is encoded on one fixed palette (`ah3_style.palette`), without per-picture quantising.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from bot.games.arkham3.render.column import draw_side
from bot.games.arkham3.render.layout import MapLayout
from bot.games.arkham3.render.map import draw_map, layout_of
from bot.games.arkham3.render.seats import draw_seats
from bot.games.arkham3.render.style import HEIGHT, WIDTH, palette
from bot.render.kit import PictureCache, Theme, to_png
from engine.arkham3.view import ArkhamView

__all__ = ["HEIGHT", "WIDTH", "board_layout", "read_view", "register", "render_board", "render_board_image",
           "space_xy"]

CACHE_SIZE = 32
_pictures = PictureCache(CACHE_SIZE)


def read_view(view: ArkhamView | dict[str, Any]) -> ArkhamView:
    """The typed view, from the model itself or from its `model_dump(mode="json")`."""
    return view if isinstance(view, ArkhamView) else ArkhamView.model_validate(view)


def board_layout(view: ArkhamView | dict[str, Any]) -> MapLayout:
    """The map's geometry for this view (tiles, headers, each space's plate and marker area)."""
    return layout_of(read_view(view))


def space_xy(view: ArkhamView | dict[str, Any], space_id: str) -> tuple[int, int]:
    """The pixel centre of a space (its plate) in the picture."""
    plate = board_layout(view).plates.get(space_id)
    if plate is None:
        raise KeyError(f"no space {space_id!r} on this map")
    return plate.centre


def render_board_image(view: ArkhamView | dict[str, Any]) -> Image.Image:
    """The board as an RGB picture (not cached; `render_board` encodes and caches it)."""
    v = read_view(view)
    image = Image.new("RGB", (WIDTH, HEIGHT), Theme.BG)
    draw = ImageDraw.Draw(image)
    draw_map(image, draw, v)
    draw_seats(image, draw, v)
    draw_side(image, draw, v)
    return image


def render_board(view: ArkhamView | dict[str, Any]) -> bytes:
    """PNG bytes of the board as `view` shows it; an unchanged view is served from a small LRU cache."""
    v = read_view(view)
    return _pictures.get_or_render(v, lambda: to_png(render_board_image(v), palette=palette()))


def clear_cache() -> None:
    """Forget every finished picture (tests and benchmarks measure renders that miss the cache)."""
    _pictures.clear()


def register() -> None:
    """Hook this renderer into bot.render's dispatch (the game's bot manifest names it)."""
    from bot.render import register_renderer

    register_renderer("arkham3", render_board)
