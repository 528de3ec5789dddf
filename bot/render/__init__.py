"""Table images. `render_table` is called in a worker thread (it is CPU-bound Pillow work).

A game registers its own renderer with `register_renderer`; any other game gets the generic one, so every
game has a board image from its first day.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from bot.render.generic import render_generic

Renderer = Callable[[Any], bytes]

RENDERERS: dict[str, Renderer] = {}


def register_renderer(game_type: str, renderer: Renderer) -> None:
    RENDERERS[game_type] = renderer


def render_table(game_type: str, view: Any) -> bytes | None:
    """PNG bytes of the table as `view` shows it (a spectator's view: no hidden information). A game's own
    renderer reads its typed view; the generic one lists any view's plain values."""
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
