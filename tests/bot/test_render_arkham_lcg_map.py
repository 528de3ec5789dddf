"""The card game's map on the shipped scenarios (issue 30 item 16): the tiles of the locations in play keep their
places when a location set aside at setup enters play (Low Water's act puts a set-aside location into play)."""

from __future__ import annotations

from bot.games.arkham_lcg.render.board import location_boxes_of
from bot.games.arkham_lcg.render.inline import inline_location_boxes
from engine import api
from engine.agents import RandomAgent
from engine.arkham_lcg.state import LcgState
from engine.arkham_lcg.view import LcgView, LocationView
from engine.core.game import SeatSpec


def _first_table() -> LcgView:
    """The first scenario's table once its setup has put the locations into play."""
    state, _ = api.new_game("arkham-lcg", [SeatSpec(seat=0, name="P1"), SeatSpec(seat=1, name="P2")], {}, 5)
    agent = RandomAgent(5)
    for _ in range(200):
        view = api.view(state, None)
        assert isinstance(view, LcgView)
        if view.locations:
            return view
        state, _ = api.apply(state, agent.act(state), in_place=True)
        assert isinstance(state, LcgState)
    raise AssertionError("setup put no location into play")


def test_a_set_aside_location_has_its_place_before_it_enters_play() -> None:
    view = _first_table()
    in_play = {loc.code for loc in view.locations}
    later = [m for m in view.map_locations if m.code not in in_play]
    assert later, "the first scenario sets a location aside"
    for entering in later:
        grown = view.model_copy(deep=True)
        grown.locations.append(LocationView(code=entering.code, name="Entering", revealed=False,
                                            connections=entering.connections))
        for boxes_of in (location_boxes_of, inline_location_boxes):
            was, now = boxes_of(view), boxes_of(grown)
            assert entering.code in now and entering.code not in was
            assert {code: now[code] for code in was} == was, boxes_of.__name__
