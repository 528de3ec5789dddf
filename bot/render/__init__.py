"""Table images. `render_table` is called in a worker thread (it is CPU-bound Pillow work).

A game registers its own renderer with `register_renderer`; any other game gets the generic one, so every
game has a board image from its first day.

Two sizes of one table: the "full" board (1600 px wide, every detail: sent privately on request) and the
"inline" board, laid out for the ~550 px Discord shows a picture at in the channel (`bot.render.inline`:
no text under 12 px there). A game without an inline renderer shows its full board in both places.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel

from bot.render.generic import render_generic

Renderer = Callable[[Any], bytes]

Size = Literal["full", "inline"]

RENDERERS: dict[str, Renderer] = {}
INLINE_RENDERERS: dict[str, Renderer] = {}


def register_renderer(game_type: str, renderer: Renderer) -> None:
    RENDERERS[game_type] = renderer


def register_inline_renderer(game_type: str, renderer: Renderer) -> None:
    """A game's channel board: the table laid out for the size Discord shows a picture inline."""
    INLINE_RENDERERS[game_type] = renderer


def render_table(game_type: str, view: Any, size: Size = "full") -> bytes | None:
    """PNG bytes of the table as `view` shows it (a spectator's view: no hidden information). A game's own
    renderer reads its typed view; the generic one lists any view's plain values.

    `size="inline"` is the channel's board (readable where Discord shows it, about 550 px wide); "full" is
    the detailed board. A game without an inline board answers both with its full one."""
    if size == "inline":
        inline = INLINE_RENDERERS.get(game_type)
        if inline is not None:
            return inline(view)
    renderer = RENDERERS.get(game_type)
    if renderer is not None:
        return renderer(view)
    return render_generic(game_type, plain(view))


def plain(view: Any) -> dict[str, Any]:
    """A view as plain JSON-able data (for the generic picture, listings and exports)."""
    return view.model_dump(mode="json") if isinstance(view, BaseModel) else view


EventRenderer = Callable[[str, dict[str, Any], Any], bytes | None]
EVENT_RENDERERS: dict[str, EventRenderer] = {}


def register_event_renderer(game_type: str, renderer: EventRenderer) -> None:
    """A game's pictures of single events (Elder Sign: each roll of the dice)."""
    EVENT_RENDERERS[game_type] = renderer


def render_event(game_type: str, kind: str, data: dict[str, Any], view: Any = None) -> bytes | None:
    """A picture of one event; `view` is the spectator's view after the step (who rolled where, what is left)."""
    renderer = EVENT_RENDERERS.get(game_type)
    return renderer(kind, data, view) if renderer is not None else None


def _register_from_manifests() -> None:
    """Each game's renderers, as its bot manifest names them (bot/games/<game>/__init__.py)."""
    from bot.games.manifest import bot_games

    for game in bot_games().values():
        if game.renderer and game.game not in RENDERERS:
            register_renderer(game.game, _lazy(game.renderer))
        if game.inline_renderer and game.game not in INLINE_RENDERERS:
            register_inline_renderer(game.game, _lazy(game.inline_renderer))
        if game.event_renderer and game.game not in EVENT_RENDERERS:
            register_event_renderer(game.game, _lazy(game.event_renderer))


def _lazy(target: str) -> Any:
    """Import the renderer on its first use (Pillow work stays out of startup)."""
    from engine.core.manifest import load_target

    loaded: list[Any] = []

    def call(*args: Any) -> Any:
        if not loaded:
            loaded.append(load_target(target))
        return loaded[0](*args)
    return call


_register_from_manifests()
