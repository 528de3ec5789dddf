"""The card game's table picture, drawn after every phase.

`render_board(view)` draws a spectator's view (`engine.arkham_lcg.view.LcgView`, or its JSON dict) on a fixed
1600x1000 canvas:

    +---------------------------------------------------------------+
    | scenario · campaign, difficulty              round · phase    |
    +------------------------------------------+--------------------+
    | the locations, laid out by their         | act (objective,    |
    | connections: shroud, clues, doom,        |   clues needed)    |
    | attachments, enemies and investigators   | agenda (doom bar)  |
    | on each tile (lcg_map)                   | chaos bag          |
    +------------------------------------------+ last skill test    |
    | one panel per investigator (lcg_seats)   | victory display,   |
    |                                          | encounter deck     |
    +------------------------------------------+--------------------+

Between scenarios and when the game is over it draws the campaign instead (`lcg_campaign`): results, log,
experience and trauma. The tiles' layout and smooth shapes are cached per set of locations; a finished
picture is cached by a hash of the view's JSON, so an unchanged view costs a lookup. Every picture is encoded
on one fixed palette (`lcg_style.palette`), without per-picture quantising.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from bot.games.arkham_lcg.render.campaign import draw_campaign
from bot.games.arkham_lcg.render.map import draw_map, location_boxes
from bot.games.arkham_lcg.render.panels import draw_side, draw_top, phase_text
from bot.games.arkham_lcg.render.seats import draw_seats
from bot.games.arkham_lcg.render.style import HEIGHT, WIDTH, palette
from bot.render.kit import Box, PictureCache, Theme, to_png
from engine.arkham_lcg.view import LcgView

__all__ = ["HEIGHT", "WIDTH", "clear_cache", "is_campaign", "location_boxes_of", "read_view", "register",
           "render_board", "render_board_image"]

CACHE_SIZE = 32
_pictures = PictureCache(CACHE_SIZE)


def read_view(view: LcgView | dict[str, Any]) -> LcgView:
    """The typed view, from the model itself or from its `model_dump(mode="json")`."""
    return view if isinstance(view, LcgView) else LcgView.model_validate(view)


def is_campaign(view: LcgView) -> bool:
    """Whether the picture is the campaign's (no scenario on the table, between scenarios, or over)."""
    return view.scenario is None or view.over or view.phase in ("between", "over")


def location_boxes_of(view: LcgView | dict[str, Any]) -> dict[str, Box]:
    """Each location's tile in the table picture (empty for the campaign picture)."""
    v = read_view(view)
    return {} if is_campaign(v) else location_boxes(v)


def render_board_image(view: LcgView | dict[str, Any]) -> Image.Image:
    """The picture as RGB (not cached; `render_board` encodes and caches it)."""
    v = read_view(view)
    image = Image.new("RGB", (WIDTH, HEIGHT), Theme.BG)
    draw = ImageDraw.Draw(image)
    if is_campaign(v):
        draw_campaign(image, draw, v)
        return image
    draw_top(image, draw, v, v.scenario_name or v.campaign, f"{v.campaign} · {v.difficulty}", phase_text(v))
    draw_map(image, draw, v)
    draw_seats(image, draw, v)
    draw_side(image, draw, v)
    return image


def render_board(view: LcgView | dict[str, Any]) -> bytes:
    """PNG bytes of the table as `view` shows it; an unchanged view is served from a small LRU cache."""
    v = read_view(view)
    return _pictures.get_or_render(v, lambda: to_png(render_board_image(v), palette=palette()))


def clear_cache() -> None:
    """Forget every finished picture (tests and benchmarks measure renders that miss the cache)."""
    _pictures.clear()


def register() -> None:
    """Hook this renderer into bot.render's dispatch (the game's bot manifest names it)."""
    from bot.render import register_renderer

    register_renderer("arkham-lcg", render_board)
