"""The picture of a mythos token as it is drawn (issue 13: "the mythos tokens drawn shown as images"): the
token just drawn, large, with its name and who drew it, and the tokens drawn since the cup was last filled,
in order. It rides in the phase's living message, as Elder Sign's dice do."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from bot.games.arkham3.render.style import DARK_INK, cup_colour, cup_label, palette
from bot.render.kit import Theme, draw_text, ellipsize, to_png
from engine.arkham3.view import ArkhamView

WIDTH, HEIGHT = 640, 170
BIG = 104
SMALL = 26


def render_token(token: str, view: ArkhamView | None) -> bytes:
    image = Image.new("RGB", (WIDTH, HEIGHT), Theme.BG)
    draw = ImageDraw.Draw(image)
    x0, y0 = 24, (HEIGHT - BIG) // 2
    draw.ellipse((x0, y0, x0 + BIG, y0 + BIG), fill=cup_colour(token), outline=DARK_INK, width=4)
    text_x = x0 + BIG + 24
    draw_text(image, (text_x, 22), cup_label(token), 34, Theme.TEXT, bold=True)
    if view is not None:
        total = sum(view.cup_mix.values())
        left = total - len(view.cup_drawn)
        draw_text(image, (text_x, 66), ellipsize(f"Round {view.round} · {left} of {total} tokens left in the cup",
                                                  22, WIDTH - text_x - 16), 22, Theme.MUTED)
        x = text_x
        draw_text(image, (x, 104), "Drawn:", 22, Theme.MUTED)
        x += 78
        for kind in view.cup_drawn:
            if x + SMALL > WIDTH - 12:
                break
            draw.ellipse((x, 104, x + SMALL, 104 + SMALL), fill=cup_colour(kind), outline=DARK_INK, width=2)
            x += SMALL + 6
    return to_png(image, palette=palette())


def render_event(kind: str, data: dict[str, Any], view: Any = None) -> bytes | None:
    """A game event's picture where Arkham Horror 3e has one: a mythos token drawn from the cup."""
    if kind != "mythos.token" or not data.get("token"):
        return None
    if isinstance(view, dict):
        view = ArkhamView.model_validate(view)
    return render_token(str(data["token"]), view if isinstance(view, ArkhamView) else None)
