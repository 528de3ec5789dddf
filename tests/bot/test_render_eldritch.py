"""The Eldritch Horror board picture, checked on its pixels.

A seeded two-player game (Azathoth) is played by the engine's agent into its first Action Phase; tests then
put Gates, Clues, Monsters, rumors and investigators where they want them on a copy of the state, build the
spectator's view and look for each token's colour where `space_xy` (and the layout's token slots) say it
is. Rules cited are sections of our Eldritch Horror rules summary ("digest", rulings in docs/eldritch.md).
"""

from __future__ import annotations

import io
import math
import time
from functools import lru_cache

import pytest
from PIL import Image

from bot.games.eldritch.render.board import HEIGHT, WIDTH, cache_clear, render_board, render_board_image, space_xy
from bot.games.eldritch.render.map import map_layout
from bot.games.eldritch.render.panels import COLUMN, seat_grid
from bot.games.eldritch.render.style import (
    CLUE,
    DEFEATED,
    EPIC,
    EXPEDITION,
    MAP_BOX,
    MONSTER,
    OMEN_COLOURS,
    RUMOR,
    SEAT_COLOURS,
    TAG_DELAYED,
    backgrounds,
    inks,
    marker_colours,
)
from bot.render.kit import Color
from engine import api
from engine.core.game import SeatSpec
from engine.eldritch.agent import SmartAgent
from engine.eldritch.content import content_of
from engine.eldritch.state import DefeatedToken, EldritchState, MonsterToken
from engine.eldritch.view import EldritchView, world_map

GATE_RING_R = 24  # between the ring's dark inner and outer edges (eh_tokens.gate_icon at 60 px)


# ------------------------------------------------------------------------------------------------ games

@lru_cache(maxsize=4)
def _started(players: int = 2, seed: int = 1) -> str:
    """A seeded game played by the smart agent until its first Action Phase (every investigator placed),
    as JSON so each test edits its own copy."""
    seats = [SeatSpec(seat=i, name=f"P{i}") for i in range(players)]
    state, _ = api.new_game("eldritch", seats, {"ancient_one": "azathoth"}, seed)
    agents = [SmartAgent(seed * 10 + i) for i in range(players)]
    for _ in range(500):
        assert isinstance(state, EldritchState)
        if state.phase == "action" and all(inv.space for inv in state.investigators):
            break
        prompt = api.prompts(state)[0]
        state, _ = api.apply(state, agents[prompt.seats[0]].act(state, prompt), in_place=True, prompt=prompt)
    assert isinstance(state, EldritchState) and state.phase == "action"
    return api.to_json(state)


def started(players: int = 2) -> EldritchState:
    state = api.from_json(_started(players))
    assert isinstance(state, EldritchState)
    return state


def played_views(players: int, seed: int, limit: int = 400) -> list[EldritchView]:
    """Views after each phase change of a game played by the agent (at most `limit` actions)."""
    seats = [SeatSpec(seat=i, name=f"P{i}") for i in range(players)]
    state, _ = api.new_game("eldritch", seats, {}, seed)
    agents = [SmartAgent(seed * 10 + i) for i in range(players)]
    views = [api.view(state, None)]
    for _ in range(limit):
        if state.over:
            break
        prompt = api.prompts(state)[0]
        state, events = api.apply(state, agents[prompt.seats[0]].act(state, prompt), in_place=True, prompt=prompt)
        if any(e.render for e in events):
            views.append(api.view(state, None))
    return views


def view_of(state: EldritchState) -> EldritchView:
    view = api.view(state, None)
    assert isinstance(view, EldritchView)
    return view


def picture(view: EldritchView) -> Image.Image:
    image = Image.open(io.BytesIO(render_board(view)))
    return image.convert("RGB")


def kinds(version: str) -> tuple[str, str]:
    """A plain Monster and an Epic Monster of the content."""
    monsters = content_of(version).monsters
    plain = next(k for k, m in monsters.items() if not m.epic)
    epic = next(k for k, m in monsters.items() if m.epic)
    return plain, epic


# ------------------------------------------------------------------------------------------------ pixels

def pixel(image: Image.Image, xy: tuple[int, int]) -> Color:
    r, g, b = image.getpixel(xy)  # type: ignore[misc]  # an RGB picture: always three channels
    return r, g, b


def near(a: Color, b: Color, tol: int = 12) -> bool:
    return max(abs(x - y) for x, y in zip(a, b, strict=True)) <= tol


def share(image: Image.Image, centre: tuple[int, int], radius: int, colour: Color, tol: int = 12) -> float:
    """The fraction of pixels in the square of `radius` around `centre` that are `colour`."""
    x, y = centre
    hits = total = 0
    for px in range(x - radius, x + radius + 1):
        for py in range(y - radius, y + radius + 1):
            total += 1
            hits += near(pixel(image, (px, py)), colour, tol)
    return hits / total


def ring_samples(image: Image.Image, space: str, version: str) -> list[Color]:
    x, y = space_xy(version, space)
    r = GATE_RING_R
    d = round(r / math.sqrt(2))
    return [pixel(image, p) for p in ((x - r, y), (x + r, y), (x, y + r), (x, y - r), (x + d, y + d),
                                         (x - d, y + d))]


# ------------------------------------------------------------------------------------------------ layout

def test_every_space_has_a_stable_place_on_the_map_apart_from_the_others() -> None:
    """Digest 1.2: 36 spaces (named and numbered), each drawn where the layout puts it, inside the map and
    far enough from every other space for its tokens."""
    version = started().content_version
    spaces = [s.id for s in world_map(version).spaces]
    assert len(spaces) == 36
    places = {s: space_xy(version, s) for s in spaces}
    for x, y in places.values():
        assert MAP_BOX.x + 40 <= x <= MAP_BOX.right - 40 and MAP_BOX.y + 40 <= y <= MAP_BOX.bottom - 40
    ids = sorted(places)
    closest = min(math.dist(places[a], places[b]) for i, a in enumerate(ids) for b in ids[i + 1:])
    assert closest >= 75
    map_layout.cache_clear()
    assert {s: space_xy(version, s) for s in spaces} == places  # recomputed: the same layout


def test_named_spaces_are_labelled_without_overlaps_and_numbered_ones_carry_their_number() -> None:
    """Digest 1.2: named spaces are named, numbered spaces show their number (drawn inside the shape)."""
    lay = map_layout(started().content_version)
    labels = [p.label for p in lay.places.values() if p.label is not None]
    named = [p for p in lay.places.values() if not p.space.name.isdigit()]
    assert len(labels) == len(named) == 15
    for i, a in enumerate(labels):
        assert MAP_BOX.x <= a.box.x and a.box.right <= MAP_BOX.right and a.box.bottom <= MAP_BOX.bottom
        for b in labels[i + 1:]:
            overlap_w = min(a.box.right, b.box.right) - max(a.box.x, b.box.x)
            overlap_h = min(a.box.bottom, b.box.bottom) - max(a.box.y, b.box.y)
            assert overlap_w <= 0 or overlap_h <= 0, (a.lines, b.lines)
        for p in lay.places.values():  # no label covers another space's shape
            if p.label is not a:
                assert not (a.box.x < p.x < a.box.right and a.box.y < p.y < a.box.bottom), (a.lines, p.space.id)


def test_the_picture_has_one_size_for_every_view() -> None:
    views = played_views(players=3, seed=5, limit=300)
    assert len(views) >= 3
    for view in (views[0], views[len(views) // 2], views[-1]):
        assert Image.open(io.BytesIO(render_board(view))).size == (WIDTH, HEIGHT) == (1600, 1000)


# ------------------------------------------------------------------------------------------------ tokens

def test_each_open_gate_rings_its_space_in_its_omen_colour() -> None:
    """Digest 1.3: each Gate names a space and shows an omen icon; an open Gate is drawn in that colour."""
    state = started()
    state.gates = {"arkham": "red", "london": "blue", "tokyo": "green"}
    image = picture(view_of(state))
    version = state.content_version
    for space, omen in state.gates.items():
        samples = ring_samples(image, space, version)
        assert all(near(c, OMEN_COLOURS[omen]) for c in samples), (space, samples)
    for space in ("rome", "shanghai", "sydney"):  # no Gate: no ring colour around the space
        assert not any(near(c, OMEN_COLOURS[o]) for c in ring_samples(image, space, version) for o in OMEN_COLOURS)


def test_clues_show_their_count_beside_their_space() -> None:
    """Digest 1.2: Clues lie on spaces (any number); the badge sits on the space's left."""
    state = started()
    state.clues = {"space-5": 1, "the-amazon": 3, "sydney": 2}
    image = picture(view_of(state))
    lay = map_layout(state.content_version)
    for space in state.clues:
        assert share(image, lay.places[space].clues, 9, CLUE) > 0.4, space
    for space in ("space-6", "rome"):
        assert share(image, lay.places[space].clues, 9, CLUE) == 0


def test_each_investigator_stands_on_their_space_in_their_seat_colour() -> None:
    """Digest 1.2: investigator tokens stand on spaces; one colour per seat, in seat order."""
    state = started(players=3)
    state.investigators[0].space = "london"
    state.investigators[1].space = "space-17"
    state.investigators[2].space = "space-17"
    image = picture(view_of(state))
    lay = map_layout(state.content_version)
    # sampled just above the initial letter, inside the disc
    x, y = lay.places["london"].investigators
    assert share(image, (x, y - 10), 1, SEAT_COLOURS[0]) == 1
    # two on one space: each at its own slot around it, in seat order
    for k, seat in enumerate((1, 2)):
        x, y = lay.places["space-17"].investigator(k)
        assert share(image, (x, y - 10), 1, SEAT_COLOURS[seat]) == 1
    x, y = lay.places["tokyo"].investigators
    assert not any(share(image, (x, y - 10), 1, c) for c in SEAT_COLOURS[:3])


def test_a_delayed_investigator_has_an_orange_rim_and_a_defeated_one_lies_grey() -> None:
    """Digest 1.2: a Delayed investigator's token is tipped (an orange rim here); a defeated one lies down
    on the board (a grey token) until someone encounters it (digest 6)."""
    state = started()
    state.investigators[0].space = "rome"
    state.investigators[0].delayed = True
    state.defeated = [DefeatedToken(card=state.investigators[1].card or "", space="buenos-aires",
                                    track="health")]
    state.investigators[1].defeated = True
    image = picture(view_of(state))
    lay = map_layout(state.content_version)
    x, y = lay.places["rome"].investigators
    assert share(image, (x, y - 13), 1, TAG_DELAYED, tol=20) > 0.5
    x, y = lay.places["buenos-aires"].investigators
    assert share(image, (x - 7, y), 2, DEFEATED) > 0.5


def test_monsters_are_counted_per_space_and_an_epic_monster_is_marked() -> None:
    """Digest 1.6: Monsters stack on spaces; Epic Monsters are set apart (a gold rim and star here)."""
    state = started()
    plain, epic = kinds(state.content_version)
    state.monsters = [MonsterToken(uid=900 + i, kind=plain, space="istanbul") for i in range(3)]
    state.monsters.append(MonsterToken(uid=990, kind=epic, space="the-himalayas"))
    view = view_of(state)
    assert sum(m.space == "istanbul" for m in view.monsters) == 3
    image = picture(view)
    lay = map_layout(state.content_version)
    x, y = lay.places["istanbul"].monsters
    assert share(image, (x - 9, y), 1, MONSTER) == 1
    assert share(image, (x + 12, y - 12), 2, EPIC) == 0
    x, y = lay.places["the-himalayas"].monsters
    assert share(image, (x - 9, y), 1, MONSTER) == 1
    assert share(image, (x - 13, y), 1, EPIC) > 0.5  # the gold rim


def test_the_count_on_a_monster_badge_changes_with_the_stack() -> None:
    state = started()
    plain, _ = kinds(state.content_version)
    state.monsters = [MonsterToken(uid=900, kind=plain, space="istanbul")]
    one = render_board_image(view_of(state))
    state.monsters.append(MonsterToken(uid=901, kind=plain, space="istanbul"))
    two = render_board_image(view_of(state))
    x, y = map_layout(state.content_version).places["istanbul"].monsters
    box = (x - 8, y - 10, x + 8, y + 11)
    assert one.crop(box).tobytes() != two.crop(box).tobytes()


def test_rumors_and_the_active_expedition_are_marked_after_the_space_name() -> None:
    """Digest 1.1 / 1.2: the Active Expedition token and Rumor tokens lie on spaces."""
    state = started()
    card = next(k for k, c in content_of(state.content_version).mythos.items() if c.kind == "rumor")
    state.rumors = {card: "space-8"}
    state.ongoing = []
    state.expedition = "tunguska"
    image = picture(view_of(state))
    lay = map_layout(state.content_version)
    mx, my = lay.places["space-8"].marks
    assert share(image, (mx + 8, my), 1, RUMOR) == 1  # left of the letter
    mx, my = lay.places["tunguska"].marks
    assert share(image, (mx + 15 + 3, my - 5), 2, EXPEDITION, tol=20) > 0.3
    mx, my = lay.places["the-amazon"].marks  # another expedition site, not the active one
    assert share(image, (mx + 18, my - 5), 2, EXPEDITION, tol=20) == 0


# ------------------------------------------------------------------------------------------------ panels

def test_each_investigator_has_a_row_in_their_colour() -> None:
    state = started(players=3)
    image = picture(view_of(state))
    for seat, box in enumerate(seat_grid(3).cells):
        edge = (box.x + box.w // 2, box.y + 1)  # the row's frame is drawn in the seat's colour
        assert share(image, edge, 1, SEAT_COLOURS[seat], tol=30) > 0.3, seat


def test_the_doom_track_marks_the_doom_value() -> None:
    """Digest 1.1: doom starts at the Ancient One's value (Azathoth 15) and advances towards 0."""
    state = started()
    state.doom = 15
    high = render_board_image(view_of(state))
    state.doom = 3
    low = render_board_image(view_of(state))
    box = COLUMN["doom"]
    assert high.crop(box.rect()).tobytes() != low.crop(box.rect()).tobytes()
    assert high.crop(COLUMN["reserve"].rect()).tobytes() == low.crop(COLUMN["reserve"].rect()).tobytes()


def test_open_gates_are_counted_by_omen_colour() -> None:
    """Digest 3.3: when the omen advances, doom advances once per open Gate of the new omen's colour, so the
    omen panel counts open Gates by colour."""
    state = started()
    state.gates = {"arkham": "red"}
    one = render_board_image(view_of(state))
    state.gates = {"arkham": "red", "rome": "red"}
    two = render_board_image(view_of(state))
    omen = COLUMN["omen"].rect()
    assert one.crop(omen).tobytes() != two.crop(omen).tobytes()


def test_a_finished_game_says_who_won_on_the_map() -> None:
    """Digest 7: the game ends in a win or a loss."""
    state = started()
    top = (MAP_BOX.x + MAP_BOX.w // 2 - 280, MAP_BOX.bottom - 30)
    state.over, state.result = True, "loss"
    lost = picture(view_of(state))
    state.over, state.result = False, None
    playing = picture(view_of(state))
    assert lost.getpixel(top) != playing.getpixel(top)


# ------------------------------------------------------------------------------------------------ encoding

def test_a_dict_view_and_a_model_view_give_the_same_bytes() -> None:
    state = started()
    state.gates = {"sydney": "red"}
    view = view_of(state)
    cache_clear()
    from_dict = render_board(view.model_dump(mode="json"))
    cache_clear()
    assert render_board(view) == from_dict


def test_an_unchanged_view_is_served_from_the_cache() -> None:
    state = started()
    view = view_of(state)
    cache_clear()
    first = render_board(view)
    start = time.perf_counter()
    again = render_board(view_of(state))  # an equal view, built again
    elapsed_ms = (time.perf_counter() - start) * 1000
    assert again is first
    assert elapsed_ms < 50  # the budget is 5 ms; the margin keeps a loaded test machine green
    state.clues = {"space-1": 1}
    assert render_board(view_of(state)) != first


def test_the_png_uses_the_fixed_palette_with_every_named_colour() -> None:
    image = Image.open(io.BytesIO(render_board(view_of(started()))))
    assert image.mode == "P"
    flat = image.getpalette() or []
    palette = {tuple(flat[i:i + 3]) for i in range(0, len(flat), 3)}
    for colour in [*backgrounds(), *inks(), *marker_colours()]:
        assert colour in palette, colour


def test_a_view_with_unknown_spaces_still_renders() -> None:
    """A monster or investigator off the board (an Other World, say) is simply not drawn on the map."""
    state = started()
    plain, _ = kinds(state.content_version)
    state.monsters = [MonsterToken(uid=901, kind=plain, space="nowhere")]
    state.investigators[0].space = "nowhere"
    assert Image.open(io.BytesIO(render_board(view_of(state)))).size == (WIDTH, HEIGHT)


@pytest.mark.parametrize("players", [1, 8])
def test_one_and_eight_investigators_fit(players: int) -> None:
    state = started(players=players)
    image = picture(view_of(state))
    cells = seat_grid(players).cells
    assert len(cells) == players and all(c.h >= 70 for c in cells)
    assert image.size == (WIDTH, HEIGHT)


# ------------------------------------------------------------------------------------------------ issue 30

def _path_midpoints(version: str) -> list[tuple[float, float]]:
    from bot.games.eldritch.render.map import path_lines

    return [((a[0] + b[0]) / 2, (a[1] + b[1]) / 2) for a, b in path_lines(map_layout(version))]


def test_every_token_sits_on_its_own_space_never_between_two() -> None:
    """Issue 30 item 15: tokens floated between spaces, on the paths. Every space's token slots (full board
    and channel board) lie on a ring around it: within a token's reach of its shape, nearer its own centre
    than any other space's, never on a path's midpoint; every space has at least three (the first
    investigator, the Monsters, the Clues)."""
    from bot.games.eldritch.render import inline as eh_inline
    from bot.games.eldritch.render.map import MIN_SLOTS, SLOT_RING, TOKEN_R

    version = started().content_version
    lay = map_layout(version)
    boards = [({k: p.centre for k, p in lay.places.items()}, {k: p.slots for k, p in lay.places.items()},
               SLOT_RING, TOKEN_R + 1, _path_midpoints(version))]
    xy = eh_inline.inline_space_xy
    midpoints = [eh_inline._xy(*m) for m in _path_midpoints(version)]
    boards.append(({k: xy(version, k) for k in lay.places}, eh_inline.token_slots(version), eh_inline.SLOT_RING,
                   eh_inline.TOKEN // 2 + 1, midpoints))
    for centres, slots, ring, token_r, mids in boards:
        for space, centre in centres.items():
            assert len(slots[space]) >= MIN_SLOTS, space
            for slot in slots[space]:
                own = math.dist(slot, centre)
                assert own <= ring + 2 * token_r + 1, (space, slot)
                nearest_other = min(math.dist(slot, c) for k, c in centres.items() if k != space)
                assert own < nearest_other, (space, slot)
                assert all(math.dist(slot, m) >= token_r for m in mids), (space, slot)


def test_tokens_of_one_space_do_not_cover_each_other() -> None:
    lay = map_layout(started().content_version)
    for space, place in lay.places.items():
        for i, a in enumerate(place.slots):
            for b in place.slots[i + 1:]:
                assert math.dist(a, b) >= 29, space


def test_a_wounded_monster_shows_its_wounds_on_its_badge() -> None:
    """Issue 30 item 15: damage on a Monster stays until it is defeated (Rules Reference, Monsters), so the
    board shows it: wounds against toughness ("2/7") on a tag at the Monster's badge, on both boards; an
    unwounded Monster has no tag."""
    from bot.games.eldritch.render.inline import cache_clear as inline_clear
    from bot.games.eldritch.render.inline import render_inline
    from bot.render import kit

    state = started()
    plain, epic = kinds(state.content_version)
    state.monsters = [MonsterToken(uid=900, kind=plain, space="istanbul", damage=1),
                      MonsterToken(uid=901, kind=plain, space="istanbul"),
                      MonsterToken(uid=990, kind=epic, space="rome", damage=2),
                      MonsterToken(uid=991, kind=plain, space="tokyo")]
    view = view_of(state)
    toughness = {m.uid: m.toughness for m in view.monsters}
    cache_clear()
    inline_clear()
    for render in (render_board, render_inline):
        with kit.record_text() as drawn:
            render(view)
        texts = [t for t, _ in drawn]
        assert f"1/{toughness[900]}" in texts and f"2/{toughness[990]}" in texts, render.__name__
        assert f"0/{toughness[901]}" not in texts and f"0/{toughness[991]}" not in texts
    # the tag is drawn at the badge: the picture differs there from the same table without wounds
    lay = map_layout(state.content_version)
    x, y = lay.places["rome"].monsters
    wounded = render_board_image(view)
    state.monsters[2].damage = 0
    cache_clear()
    whole = render_board_image(view_of(state))
    box = (x - 24, y - 34, x + 24, y + 34)
    assert wounded.crop(box).tobytes() != whole.crop(box).tobytes()


def test_the_asia_region_name_lies_on_land_clear_of_every_space_and_name() -> None:
    """Issue 30 item 15: "ASIA & AUSTRALIA" sat over the Indian Ocean, where it read as a sea's name. Its box
    lies on land (nine points in ten of it, by the coastlines drawn), on no space, no space's name and no
    token slot of the first three."""
    from PIL import ImageDraw

    from bot.games.eldritch.render.geo import LAKES, LAND
    from bot.games.eldritch.render.map import MIN_SLOTS, REGION_LABELS, REGION_SIZE, _coast
    from bot.render.kit import text_width

    lay = map_layout(started().content_version)
    land = Image.new("L", (MAP_BOX.w, MAP_BOX.h), 0)
    draw = ImageDraw.Draw(land)
    for shift in (-MAP_BOX.w, 0, MAP_BOX.w):
        for polygon, fill in [(p, 255) for p in LAND] + [(p, 0) for p in LAKES]:
            draw.polygon([(x + shift, y) for x, y in _coast(polygon)], fill=fill)
    name, (cx, cy) = next(r for r in REGION_LABELS if r[0].startswith("ASIA"))
    w, h = text_width(name, REGION_SIZE, True), REGION_SIZE
    points = [(x, y) for x in range(cx - w // 2, cx + w // 2, 6) for y in range(cy - h // 2, cy + h // 2, 4)]
    on_land = sum(1 for p in points if land.getpixel(p))
    assert on_land >= 0.9 * len(points)
    box = (cx - w // 2 + MAP_BOX.x, cy - h // 2 + MAP_BOX.y, cx + w // 2 + MAP_BOX.x, cy + h // 2 + MAP_BOX.y)

    def clear(x0: float, y0: float, x1: float, y1: float) -> bool:
        return x1 <= box[0] or box[2] <= x0 or y1 <= box[1] or box[3] <= y0

    for place in lay.places.values():
        assert clear(place.x - 20, place.y - 20, place.x + 20, place.y + 20), place.space.id
        if place.label is not None:
            b = place.label.box
            assert clear(b.x, b.y, b.right, b.bottom), place.space.id
        for sx, sy in place.slots[:MIN_SLOTS]:
            assert clear(sx - 15, sy - 15, sx + 15, sy + 15), place.space.id
