"""The picture of a chaos token as it is revealed (event `test.token`): the token, large, with its name, the
test it was drawn for (who, which skill, against what) and the tokens drawn for that test so far. It rides in
the skill test's message, as Arkham Horror 3e's mythos tokens do.
"""

from __future__ import annotations

from typing import Any

from PIL import Image

from bot.games.arkham_lcg.render.panels import SKILLS, draw_chip
from bot.games.arkham_lcg.render.style import TOKENS, WHITE, palette, token_icon, token_name
from bot.render.kit import Theme, draw_text, ellipsize, paste_icon, to_png
from engine.arkham_lcg.view import LcgView

WIDTH, HEIGHT = 640, 170
BIG = 112
SMALL_CHIP = 26


def _what(view: LcgView) -> str:
    t = view.test
    if t is None:
        return ""
    who = next((i.player for i in view.investigators if i.seat == t.seat), f"Seat {t.seat + 1}")
    action = f" ({t.action})" if t.action else ""
    return f"{who} tests {SKILLS.get(t.skill, t.skill)}{action} against {t.difficulty}"


def render_token(token: str, view: LcgView | None) -> bytes:
    image = Image.new("RGB", (WIDTH, HEIGHT), Theme.BG)
    x0, y0 = 24, (HEIGHT - BIG) // 2
    paste_icon(image, token_icon(token, BIG), (x0, y0))
    if token not in TOKENS:
        text = token if token.lstrip("+-").isdigit() else token[:2].capitalize()
        draw_text(image, (x0 + BIG // 2, y0 + BIG // 2), text, 46, WHITE, bold=True, anchor="mm")
    text_x = x0 + BIG + 24
    room = WIDTH - text_x - 16
    draw_text(image, (text_x, 20), ellipsize(f"Chaos token: {token_name(token)}", 32, room, True), 32, Theme.TEXT,
              bold=True)
    if view is None:
        return to_png(image, palette=palette())
    what = _what(view)
    if what:
        draw_text(image, (text_x, 64), ellipsize(what, 20, room), 20, Theme.MUTED)
    drawn = view.test.tokens if view.test is not None else []
    y = 100
    if len(drawn) > 1:
        draw_text(image, (text_x, y + SMALL_CHIP // 2), "Drawn:", 20, Theme.MUTED, anchor="lm")
        x = text_x + 72
        for kind in drawn:
            if x + SMALL_CHIP > WIDTH - 12:
                break
            draw_chip(image, (x, y), kind, SMALL_CHIP)
            x += SMALL_CHIP + 6
    else:
        total = sum(view.bag.values())
        draw_text(image, (text_x, y + SMALL_CHIP // 2), f"{total} tokens in the bag", 20, Theme.MUTED, anchor="lm")
    return to_png(image, palette=palette())


def render_event(kind: str, data: dict[str, Any], view: Any = None) -> bytes | None:
    """A game event's picture where the card game has one: a chaos token revealed for a skill test."""
    if kind != "test.token" or not data.get("token"):
        return None
    if isinstance(view, dict):
        view = LcgView.model_validate(view)
    return render_token(str(data["token"]), view if isinstance(view, LcgView) else None)
