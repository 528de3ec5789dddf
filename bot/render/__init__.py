"""Table images. `render_table` is called in a worker thread (it is CPU-bound Pillow work).

A game registers its own renderer with `register_renderer`; any other game gets the generic one, so every
game has a board image from its first day.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.render.generic import render_generic

Renderer = Callable[[dict[str, Any]], bytes]

RENDERERS: dict[str, Renderer] = {}


def register_renderer(game_type: str, renderer: Renderer) -> None:
    RENDERERS[game_type] = renderer


def render_table(game_type: str, view: dict[str, Any]) -> bytes | None:
    """PNG bytes of the table as `view` shows it (a spectator's view: no hidden information)."""
    renderer = RENDERERS.get(game_type)
    if renderer is not None:
        return renderer(view)
    return render_generic(game_type, view)


def _register_builtin() -> None:
    from bot.render import elder_sign

    elder_sign.register()


_register_builtin()
