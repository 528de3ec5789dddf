"""The fallback renderer: a readable table of the view's scalars on a dark background."""

from __future__ import annotations

import io

from PIL import Image

from bot.render import RENDERERS, register_renderer, render_table
from bot.render.generic import BACKGROUND, WIDTH, scalar_rows


def test_scalar_rows_keep_scalars_only() -> None:
    view = {"counter": 7, "hand": [1, 2], "flag": False, "note": None, "board": {"a": 1}, "ratio": 0.5}
    assert scalar_rows(view) == [("counter", "7"), ("flag", "no"), ("note", "—"), ("ratio", "0.5")]


def test_generic_image_grows_with_rows_and_has_text_on_dark() -> None:
    small = Image.open(io.BytesIO(render_table("no-such-renderer", {"a": 1})))
    big = Image.open(io.BytesIO(render_table("no-such-renderer", {f"k{i}": i for i in range(10)})))
    assert small.format == "PNG" and small.width == WIDTH == big.width and big.height > small.height
    rgb = big.convert("RGB")
    assert rgb.getpixel((2, 2)) == BACKGROUND
    # The value column of the first row holds light text pixels.
    row = [rgb.getpixel((x, y)) for x in range(WIDTH // 2 - 30, WIDTH // 2 + 10) for y in range(70, 95)]
    assert any(sum(p) > 500 for p in row)


def test_a_registered_renderer_wins() -> None:
    register_renderer("test-game", lambda view: b"custom:" + str(view["x"]).encode())
    try:
        assert render_table("test-game", {"x": 3}) == b"custom:3"
    finally:
        RENDERERS.pop("test-game")
