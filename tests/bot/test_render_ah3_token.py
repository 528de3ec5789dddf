"""Issue 13: the mythos tokens drawn are shown as pictures (the token just drawn, large, in its colour)."""

from __future__ import annotations

import io

from PIL import Image

from bot.games.arkham3.render.style import cup_colour
from bot.games.arkham3.render.token import BIG, HEIGHT, WIDTH
from bot.render import render_event
from engine import api
from engine.agents import RandomAgent
from engine.core.game import SeatSpec


def test_a_drawn_token_is_drawn_in_its_colour_and_other_events_have_no_picture() -> None:
    state, _ = api.new_game("arkham3", [SeatSpec(seat=0, name="a"), SeatSpec(seat=1, name="b")],
                            {"scenario": "witch-light"}, 2)
    agent = RandomAgent(2)
    drawn = None
    while not state.over and drawn is None:
        state, events = api.apply(state, agent.act(state, api.prompts(state)[0]))
        drawn = next((e for e in events if e.kind == "mythos.token"), None)
    assert drawn is not None
    png = render_event("arkham3", drawn.kind, drawn.data, api.view(state, None))
    assert png is not None
    image = Image.open(io.BytesIO(png)).convert("RGB")
    assert image.size == (WIDTH, HEIGHT)
    centre = image.getpixel((24 + BIG // 2, HEIGHT // 2))
    assert max(abs(a - b) for a, b in zip(centre, cup_colour(drawn.data["token"]), strict=True)) <= 12
    assert render_event("arkham3", "money", {"amount": 1}, None) is None
