"""The card game's table picture, checked on its pixels. Views come from seeded games on the rules tests' pack
(`tests/engine/arkham_lcg/pack`) played with random legal answers, some edited (clues, doom, an enemy moved,
investigators placed) so each test knows exactly what must appear where. Regions come from the renderer's
own layout (`location_boxes_of`, `tile_parts`, `seat_boxes`, `side_boxes`, `doom_segments`), so a layout
change moves the tests with it. Every picture is encoded on one fixed palette, so the named colours are exact
in the PNG and can be counted.

What the picture must show: the issue "Table images after every phase" (locations by their connections,
act and agenda, investigators, chaos bag, victory display, the last test, the campaign between scenarios);
what it must not: any hand's cards (the view given to the renderer is a spectator's).
"""

from __future__ import annotations

import io
from functools import lru_cache

import pytest
from PIL import Image

from bot.games.arkham_lcg.render import layout as lcg_layout
from bot.games.arkham_lcg.render.board import (
    HEIGHT,
    WIDTH,
    clear_cache,
    is_campaign,
    location_boxes_of,
    render_board,
    render_board_image,
)
from bot.games.arkham_lcg.render.campaign import campaign_boxes
from bot.games.arkham_lcg.render.map import TOKEN, map_area, tile_parts
from bot.games.arkham_lcg.render.panels import doom_bar_box, doom_segments, side_boxes
from bot.games.arkham_lcg.render.seats import seat_boxes
from bot.games.arkham_lcg.render.style import (
    BACK,
    CLUE,
    DOOM,
    ENEMY,
    EXHAUSTED,
    LOSS_BG,
    MAP_BG,
    TILE,
    TOKENS,
    WIN_BG,
    palette,
    seat_colour,
    token_colour,
)
from bot.games.arkham_lcg.render.token import BIG, render_event
from bot.games.arkham_lcg.render.token import HEIGHT as TOKEN_H
from bot.games.arkham_lcg.render.token import WIDTH as TOKEN_W
from bot.render import kit
from bot.render.kit import Box, Color, Theme
from engine import api
from engine.agents import RandomAgent
from engine.arkham_lcg.state import LcgState
from engine.arkham_lcg.view import CardView, EnemyView, LcgView
from engine.arkham_lcg.view import TestView as SkillTest  # (not a pytest class)
from tests.engine.arkham_lcg.conftest import lcg_pack  # noqa: F401
from tests.engine.arkham_lcg.helpers import new

pytestmark = pytest.mark.usefixtures("lcg_pack")


# ================================================================================================ games

@lru_cache(maxsize=8)
def _played(seed: int, players: int = 2) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
    """A seeded game with random legal answers: the spectator's view (as JSON) at the start and after every
    phase, and each chaos token revealed with the view after it. Views are plain data: cached across tests."""
    state = new(players=players, seed=seed)
    agent = RandomAgent(seed)
    views = [api.view(state, None).model_dump_json()]
    tokens: list[tuple[str, str]] = []
    for _ in range(5000):
        if state.over:
            break
        after, events = api.apply(state, agent.act(state), in_place=True)
        assert isinstance(after, LcgState)
        state = after
        view = api.view(state, None)
        tokens += [(e.data["token"], view.model_dump_json()) for e in events if e.kind == "test.token"]
        if any(e.kind == "phase.ended" for e in events) or state.over:
            views.append(view.model_dump_json())
    assert state.over, "the seeded game did not finish"
    return tuple(views), tuple(tokens)


def _views(seed: int = 7) -> list[LcgView]:
    return [LcgView.model_validate_json(v) for v in _played(seed)[0]]


def _table(seed: int = 7) -> LcgView:
    """The first view after setup with a scenario on the table: three locations, the start one revealed."""
    view = next(v for v in _views(seed) if not is_campaign(v) and len(v.locations) >= 3)
    return view.model_copy(deep=True)


def _picture(view: LcgView) -> Image.Image:
    return Image.open(io.BytesIO(render_board(view))).convert("RGB")


def _count(image: Image.Image, box: Box, colour: Color) -> int:
    crop = image.crop((box.x, box.y, box.right, box.bottom))
    return sum(n for n, c in (crop.getcolors(crop.width * crop.height) or []) if c == colour)


def _luma(c: Color) -> float:
    return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]


def _clear_table(view: LcgView) -> LcgView:
    """The same table with nobody and nothing on the locations (so each test places what it checks)."""
    for loc in view.locations:
        loc.investigators, loc.enemies, loc.clues, loc.doom, loc.attachments = [], [], 0, 0, []
    view.enemies = []
    return view


def _boxes_apart(boxes: list[Box]) -> bool:
    return not any(a.x < b.right and b.x < a.right and a.y < b.bottom and b.y < a.bottom
                   for i, a in enumerate(boxes) for b in boxes[i + 1:])


# ================================================================================================ the picture

def test_every_phase_renders_at_one_size_on_the_fixed_palette() -> None:
    """A picture after every phase, of one size, encoded on the renderer's fixed palette; the table while a
    scenario is played, the campaign between scenarios and at the end."""
    views = _views()
    fixed = palette().getpalette()
    kinds = set()
    for view in views:
        png = Image.open(io.BytesIO(render_board(view)))
        assert png.size == (WIDTH, HEIGHT)
        assert png.mode == "P" and png.getpalette() == fixed
        kinds.add(is_campaign(view))
        if not is_campaign(view):
            boxes = list(location_boxes_of(view).values())
            assert len(boxes) == len(view.locations) and _boxes_apart(boxes)
            area = map_area()
            assert all(area.x <= b.x and b.right <= area.right and area.y <= b.y and b.bottom <= area.bottom
                       for b in boxes)
    assert kinds == {True, False}
    assert is_campaign(views[-1]) and views[-1].over
    # the same view, typed or as JSON, is the same picture, and an unchanged view comes from the cache
    clear_cache()
    assert render_board(views[1]) == render_board(views[1].model_dump(mode="json"))


def test_each_tile_is_at_its_layout_place_and_an_unrevealed_one_is_darker() -> None:
    """Each location's tile is drawn where the layout puts it; an unrevealed location shows a darker back,
    and the same tile revealed shows the lighter face."""
    view = _clear_table(_table())
    boxes = location_boxes_of(view)
    image = _picture(view)
    revealed = [loc for loc in view.locations if loc.revealed]
    hidden = [loc for loc in view.locations if not loc.revealed]
    assert revealed and hidden
    assert _luma(BACK) < _luma(TILE) - 20

    def face(box: Box) -> Color:
        px = image.getpixel((box.x + box.w * 3 // 4, box.bottom - box.h // 4))  # clear of marks and rings
        assert isinstance(px, tuple)
        return (px[0], px[1], px[2])

    for loc in revealed:
        assert face(boxes[loc.code]) == TILE, loc.code
    for loc in hidden:
        assert face(boxes[loc.code]) == BACK, loc.code
        assert _count(image, boxes[loc.code], BACK) > boxes[loc.code].w * boxes[loc.code].h // 3
    # just outside a tile is the table, not the tile
    first = boxes[view.locations[0].code]
    px = image.getpixel((first.x - 6, first.y + 4))
    assert px != TILE and px != BACK
    hidden[0].revealed, hidden[0].shroud = True, 2
    image = _picture(view)
    assert face(boxes[hidden[0].code]) == TILE


def test_a_clue_badge_shows_only_where_there_are_clues() -> None:
    view = _clear_table(_table())
    a, b = view.locations[0], view.locations[1]
    a.clues = 3
    image = _picture(view)
    boxes = location_boxes_of(view)
    badge_a = tile_parts(boxes[a.code], investigators=False).clue
    badge_b = tile_parts(boxes[b.code], investigators=False).clue
    assert _count(image, badge_a, CLUE) > 150
    assert _count(image, badge_b, CLUE) == 0
    assert _count(image, boxes[b.code], CLUE) == 0
    a.doom = 2  # doom on a location: a red badge beside the clues
    image = _picture(view)
    assert _count(image, tile_parts(boxes[a.code], investigators=False).doom, DOOM) > 150


def test_an_enemy_is_drawn_at_its_location_exhausted_and_engaged_told_apart() -> None:
    """An enemy's chip sits on its location's tile (and only there); exhausted, it is greyed; engaged, it
    carries the engaged investigator's seat colour."""
    base = _clear_table(_table())
    a, b = base.locations[0].code, base.locations[1].code
    enemy = EnemyView(uid=900, code="e.stalker", name="Test Stalker", location=a, engaged=None, exhausted=False,
                      damage=1, health=2, fight=3, evade=2, attack_damage=1, attack_horror=1, doom=0)
    view = base.model_copy(deep=True)
    view.enemies = [enemy]
    view.locations[0].enemies = [900]
    boxes = location_boxes_of(view)
    image = _picture(view)
    chips_a = tile_parts(boxes[a], investigators=False).chips
    assert _count(image, chips_a, ENEMY) > 400
    assert _count(image, boxes[b], ENEMY) == 0
    assert _count(image, chips_a, EXHAUSTED) == 0
    assert all(_count(image, chips_a, seat_colour(s)) == 0 for s in range(4))
    view.enemies = [enemy.model_copy(update={"exhausted": True, "engaged": 1})]
    image = _picture(view)
    assert _count(image, chips_a, EXHAUSTED) > 400 and _count(image, chips_a, ENEMY) == 0
    assert _count(image, chips_a, seat_colour(1)) > 40
    # more enemies than the tile has room for: as many as fit and a count of the rest, never outside the tile
    crowd = [enemy.model_copy(update={"uid": 900 + k}) for k in range(12)]
    view.enemies, view.locations[0].enemies = crowd, [e.uid for e in crowd]
    image = _picture(view)
    below = Box(boxes[a].x, boxes[a].bottom + 2, boxes[a].w, 6)
    assert _count(image, below, ENEMY) == 0


def test_investigators_are_tokens_in_their_seat_colours_on_their_locations() -> None:
    view = _clear_table(_table())
    a, b = view.locations[0], view.locations[2]
    a.investigators, b.investigators = [0], [1]
    boxes = location_boxes_of(view)
    image = _picture(view)
    for seat, loc in ((0, a), (1, b)):
        row = tile_parts(boxes[loc.code]).tokens
        assert _count(image, row, seat_colour(seat)) > TOKEN * TOKEN // 3, seat
        assert _count(image, row, seat_colour(1 - seat)) == 0
    # each investigator's panel carries the same colour (its token) as on the table
    for seat, panel in enumerate(seat_boxes(view)):
        assert _count(image, panel, seat_colour(seat)) > 300


def test_the_doom_bar_fills_in_proportion_to_doom_in_play() -> None:
    view = _table()
    bar = doom_bar_box()
    for threshold, doom in ((5, 0), (5, 2), (5, 5), (7, 3), (40, 10), (40, 30)):
        view.doom_threshold, view.doom_in_play, view.agenda_doom = threshold, doom, doom
        image = _picture(view)
        red, empty = _count(image, bar, DOOM), _count(image, bar, Theme.BAR_BACK)
        assert abs(red / (red + empty) - doom / threshold) < 0.04, (threshold, doom)
        for seg, filled in doom_segments(view):
            centre = image.getpixel(seg.center)
            assert centre == (DOOM if filled else Theme.BAR_BACK)
    view.doom_threshold, view.doom_in_play = 3, 5  # more doom than the threshold: full, not past the bar
    image = _picture(view)
    assert _count(image, bar, Theme.BAR_BACK) < bar.w * bar.h // 10
    assert _count(image, Box(bar.right + 4, bar.y, 20, bar.h), DOOM) == 0


def test_a_non_latin_player_name_is_drawn_not_boxed() -> None:
    """Player names in Cyrillic or Greek are drawn with the fallback font, not as missing-glyph boxes."""
    view = _table()
    view.investigators[0].player = "Иван Петров"
    view.investigators[1].player = "Σοφία"
    boxed = view.model_copy(deep=True)
    boxed.investigators[0].player = kit._MISSING * len("Иван Петров")
    boxed.investigators[1].player = kit._MISSING * len("Σοφία")
    assert all(other for _, other in kit.runs("Иван")) and all(other for _, other in kit.runs("Σοφία"))
    image, tofu = _picture(view), _picture(boxed)
    for panel in seat_boxes(view):
        line = Box(panel.x + 60, panel.y + 24, panel.w - 70, 22)  # the player's name under the investigator's
        assert image.crop(line.rect()).tobytes() != tofu.crop(line.rect()).tobytes()
        assert _count(image, line, Theme.MUTED) > 20  # the name is drawn (in the muted ink)


def test_a_hand_is_never_drawn() -> None:
    """Even given the owner's view, the picture shows only the hand's size."""
    view = _table()
    owner = view.model_copy(deep=True)
    owner.investigators[0].hand = [CardView(uid=999, code="p.secret", name="A Secret Plan")]
    assert render_board_image(owner).tobytes() == render_board_image(view).tobytes()


def test_long_names_stay_inside_their_tile() -> None:
    """Text is cut to fit (with an ellipsis), never drawn past its tile."""
    view = _clear_table(_table())
    for loc in view.locations:
        loc.connections = []  # no connection lines: around the tiles is bare table
    long = "The Exceedingly Long-Named and Thoroughly Flooded Harbourmaster's Counting Room"
    first = view.locations[0]
    first.name = long
    first.attachments = [CardView(uid=901, code="x", name=long)]
    view.enemies = [EnemyView(uid=902 + k, code="e", name=long, location=first.code, engaged=0 if k else None,
                              exhausted=bool(k), damage=12, health=14, fight=1, evade=1, attack_damage=1,
                              attack_horror=1, doom=3) for k in range(2)]
    first.enemies = [902, 903]
    first.investigators = [0, 1]
    box = location_boxes_of(view)[first.code]
    image = _picture(view)
    # (3 px off: the tiles' smooth edges spill a pixel or two)
    around = [Box(box.right + 3, box.y, 8, box.h), Box(box.x - 11, box.y, 8, box.h), Box(box.x, box.bottom + 3,
                                                                                         box.w, 6)]
    for strip in around:
        assert _count(image, strip, MAP_BG) == strip.w * strip.h


def test_the_side_column_shows_the_bag_and_the_last_test() -> None:
    view = _table()
    view.bag = {"+1": 1, "0": 2, "skull": 2, "cultist": 1, "tablet": 1, "elder_thing": 1, "auto_fail": 1,
                "elder_sign": 1, "bless": 1, "curse": 1}
    view.test = SkillTest(seat=0, skill="combat", difficulty=3, action="fight", tokens=["tablet", "-1"],
                         committed=[], value=4, success=True)
    image = _picture(view)
    boxes = side_boxes()
    for token in TOKENS:
        assert _count(image, boxes["bag"], token_colour(token)) > 100, token
    assert _count(image, boxes["test"], token_colour("tablet")) > 100
    assert _count(image, boxes["test"], Theme.GOOD) > 50 and _count(image, boxes["test"], Theme.BAD) == 0
    view.test = view.test.model_copy(update={"success": False, "value": 1})
    image = _picture(view)
    assert _count(image, boxes["test"], Theme.BAD) > 50 and _count(image, boxes["test"], Theme.GOOD) == 0


def test_the_campaign_picture_lists_results_and_log() -> None:
    last = _views()[-1]
    assert last.over and last.results
    image = _picture(last)
    results = campaign_boxes(last)["results"]
    won = sum(r.endswith(":win") for r in last.results)
    assert (_count(image, results, WIN_BG) > 0) == (won > 0)
    assert (_count(image, results, LOSS_BG) > 0) == (won < len(last.results))
    edited = last.model_copy(deep=True)
    edited.log = [*edited.log, "the lighthouse keeper was never found"]
    assert render_board_image(edited).tobytes() != render_board_image(last).tobytes()


# ================================================================================================ the layout

def _graph(edges: dict[str, list[str]]) -> lcg_layout.Graph:
    return lcg_layout.graph_of(list(edges.items()))


GRAPHS: dict[str, dict[str, list[str]]] = {
    "harbour": {"depot": ["front"], "front": ["depot", "house", "star", "customs", "lofts"], "house": ["star"],
                "star": [], "customs": ["lofts", "harbour"], "lofts": ["harbour"], "harbour": ["hut"], "hut": []},
    "chain": {f"l{k}": [f"l{k + 1}"] for k in range(9)} | {"l9": []},
    "star": {"hub": [f"s{k}" for k in range(9)]} | {f"s{k}": [] for k in range(9)},
    "apart": {"a": ["b"], "b": [], "c": [], "d": [], "e": ["f"], "f": []},
    "one": {"alone": []},
}


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_layout_is_tidy_and_the_same_every_time(name: str) -> None:
    """Every location gets a tile inside the map, no two overlap, and the same graph lays out the same."""
    graph = _graph(GRAPHS[name])
    area = map_area()
    boxes = lcg_layout.tile_boxes(graph, area)
    assert set(boxes) == {code for code, _ in graph}
    assert _boxes_apart(list(boxes.values()))
    assert all(area.x <= b.x and b.right <= area.right and area.y <= b.y and b.bottom <= area.bottom
               for b in boxes.values())
    lcg_layout.placements.cache_clear()
    assert lcg_layout.tile_boxes(graph, area) == boxes
    # each connection's line starts and ends on its two tiles' edges
    for (a, b), route in lcg_layout.link_routes(graph, area).items():
        for end, code in ((route[0], a), (route[-1], b)):
            box = boxes[code]
            assert box.x <= end[0] <= box.right and box.y <= end[1] <= box.bottom, (a, b)


def test_layout_reads_along_the_connections() -> None:
    """Breadth-first from an outermost location: a chain runs left to right, wrapping into a second band
    when longer than the map is wide; connected locations sit in neighbouring columns."""
    area = map_area()
    chain = lcg_layout.placements(_graph(GRAPHS["chain"]), area)
    order = sorted(chain, key=lambda c: (chain[c].band, chain[c].col))
    assert order == [f"l{k}" for k in range(10)] or order == [f"l{k}" for k in reversed(range(10))]
    assert {p.band for p in chain.values()} == {0, 1}
    harbour = lcg_layout.placements(_graph(GRAPHS["harbour"]), area)
    for a, b in lcg_layout.links_of(_graph(GRAPHS["harbour"])):
        assert abs(harbour[a].col - harbour[b].col) <= 1, (a, b)


# ================================================================================================ the token

def test_a_revealed_chaos_token_is_drawn_in_its_colour() -> None:
    _, tokens = _played(7)
    assert tokens, "no skill test in the seeded game"
    for token, view_json in tokens[:6]:
        png = render_event("test.token", {"token": token}, LcgView.model_validate_json(view_json))
        assert png is not None
        image = Image.open(io.BytesIO(png)).convert("RGB")
        assert image.size == (TOKEN_W, TOKEN_H)
        y0 = (TOKEN_H - BIG) // 2
        edge = image.getpixel((24 + 12, y0 + BIG // 2))  # inside the disc, left of any mark or number
        assert edge == token_colour(token), token
    assert render_event("test.token", {"token": "skull"}, None) is not None
    assert render_event("enemy.attack", {"enemy": 3}, None) is None


# ================================================================================================ issue 30 item 16

def test_a_location_entering_play_moves_no_tile_already_in_play() -> None:
    """Issue 30 item 16: the map re-laid itself out when a location entered play. Tiles are placed on the
    scenario's whole map (every location it can put into play, `map_locations`), so the locations already in
    play keep their tiles, on both boards, when another enters."""
    from bot.games.arkham_lcg.render.inline import inline_location_boxes

    after = _table()
    assert {m.code for m in after.map_locations} >= {loc.code for loc in after.locations}
    start = next(loc.code for loc in after.locations if loc.investigators)
    for entering in [loc for loc in after.locations if loc.code != start]:
        before = after.model_copy(deep=True)
        before.locations = [loc for loc in before.locations if loc.code != entering.code]
        for boxes_of in (location_boxes_of, inline_location_boxes):
            was, now = boxes_of(before), boxes_of(after)
            assert entering.code not in was and entering.code in now
            assert {code: now[code] for code in was} == was, (boxes_of.__name__, entering.code)


def test_an_enemy_name_takes_a_second_line_before_it_is_cut() -> None:
    """Issue 30 item 16: "The Barnacled Thi…" was cut where the tile had room below. A name too long for one
    line of its chip is wrapped on two (full board and channel board), and so is a location's name on its
    tile's header; only a name longer than two lines is cut."""
    from bot.games.arkham_lcg.render.inline import cache_clear, render_inline

    view = _clear_table(_table())
    first = view.locations[0]
    first.name = "Achterberg Boarding House of the Drowned"
    name = "The Barnacled Thing from the Harbour"
    view.enemies = [EnemyView(uid=902, code="e", name=name, location=first.code, engaged=None, exhausted=False,
                              damage=1, health=4, fight=1, evade=1, attack_damage=1, attack_horror=1, doom=0)]
    first.enemies = [902]
    cache_clear()
    for render in (render_board, render_inline):
        with kit.record_text() as drawn:
            render(view)
        texts = [t for t, _ in drawn]
        assert not [t for t in texts if t.endswith("…")], render.__name__
        lines = [t for t in texts if t and t in name]
        assert len(lines) == 2 and " ".join(lines) in name, (render.__name__, lines)
        header = [t for t in texts if t and t in first.name and t not in name]
        assert " ".join(header) == first.name, (render.__name__, header)


def test_fit_lines_shrinks_then_wraps_then_cuts() -> None:
    sizes = (20, 16)
    assert kit.fit_lines("Short", 200, sizes) == (20, ["Short"])
    wide = kit.text_width("The Barnacled Thing", 20)
    assert kit.fit_lines("The Barnacled Thing", wide - 5, sizes) == (16, ["The Barnacled Thing"])
    size, lines = kit.fit_lines("The Barnacled Thing from the Harbour", 190, sizes)
    assert len(lines) == 2 and not lines[-1].endswith("…") and " ".join(lines).startswith("The Barnacled")
    size, lines = kit.fit_lines("The Barnacled Thing from the Harbour of the Deepest Sea", 120, sizes)
    assert size == 16 and len(lines) == 2 and lines[-1].endswith("…")


def test_the_skill_test_panel_shows_a_value_only_once_a_token_is_drawn() -> None:
    """Issue 30 item 16: the panel said "Value 0 vs 2: in progress" before any token was drawn. It says what is
    tested against which difficulty, and the value only once a token has fixed it (Rules Reference, Skill
    Tests: the modified skill value is determined after the chaos token is revealed)."""
    view = _table()
    view.test = SkillTest(seat=0, skill="intellect", difficulty=2, action="investigate", tokens=[], committed=[],
                          value=0, success=None)
    with kit.record_text() as drawn:
        render_board(view)
    texts = [t for t, _ in drawn]
    assert "Intellect (investigate) against difficulty 2" in texts
    assert not [t for t in texts if t.startswith("Value 0")]
    assert "Value known once the token is drawn" in texts
    view.test = view.test.model_copy(update={"tokens": ["-1"], "value": 3})
    with kit.record_text() as drawn:
        render_board(view)
    assert "Value 3 vs 2: resolving" in [t for t, _ in drawn]
