"""The Arkham Horror 3e town board picture, checked on its pixels. States come from seeded games of every
shipped scenario played with random legal answers, some edited directly (doom, clues, an anomaly, monsters,
investigators moved) so each test knows exactly what must appear where. Regions come from the renderer's own
layout (`board_layout`, `space_xy`, `badge_xy`), so a layout change moves the tests with it. Every picture is
encoded on one fixed palette, so the named colours are exact in the PNG and can be counted.

Rule sources: sections of our rules summary ("§", rulings in docs/arkham3.md) and issue 13 (the picture's contents).
"""

from __future__ import annotations

import io
import random
import time
from functools import lru_cache
from typing import Any

import pytest
from PIL import Image

from bot.games.arkham3.render import board as arkham3
from bot.games.arkham3.render import layout as ah3_layout
from bot.games.arkham3.render import map as ah3_map
from bot.games.arkham3.render.board import HEIGHT, WIDTH, board_layout, render_board, render_board_image, space_xy
from bot.games.arkham3.render.column import side_boxes, threshold
from bot.games.arkham3.render.map import badge_xy, initials, marker_positions, markers_by_space
from bot.games.arkham3.render.seats import seat_boxes
from bot.games.arkham3.render.style import (
    ANOMALY,
    CLUE,
    DAMAGE,
    DOOM,
    EPIC,
    EXHAUSTED,
    LOSS_BG,
    MONSTER,
    UNSTABLE,
    palette,
    seat_colour,
)
from bot.render.kit import Box, Color, Theme
from engine import api
from engine.agents import RandomAgent
from engine.arkham3.content import default_content
from engine.arkham3.state import ArkhamState, Monster
from engine.arkham3.view import ArkhamView
from engine.core.game import SeatSpec

SCENARIOS = sorted(default_content().scenarios)


# ================================================================================================ games

def _new(scenario: str, seed: int, players: int = 2) -> ArkhamState:
    state, _ = api.new_game("arkham3", [SeatSpec(seat=i, name=f"P{i}") for i in range(players)],
                            {"scenario": scenario}, seed)
    assert isinstance(state, ArkhamState)
    return state


@lru_cache(maxsize=16)
def _phase_states(scenario: str, seed: int, players: int = 2) -> tuple[str, ...]:
    """The state (as JSON) at the start and after every phase of a game played with random legal answers."""
    agent = RandomAgent(seed)
    state = _new(scenario, seed, players)
    out = [api.to_json(state)]
    for _ in range(3000):
        if state.over:
            break
        after, events = api.apply(state, agent.act(state), in_place=True)
        assert isinstance(after, ArkhamState)
        state = after
        if any(e.kind == "phase.ended" for e in events) or state.over:
            out.append(api.to_json(state))
    return tuple(out)


def _state(scenario: str, seed: int, index: int, players: int = 2) -> ArkhamState:
    states = _phase_states(scenario, seed, players)
    state = api.from_json(states[min(index, len(states) - 1)])
    assert isinstance(state, ArkhamState)
    return state


def _view(state: ArkhamState) -> ArkhamView:
    view = api.view(state, None)
    assert isinstance(view, ArkhamView)
    return view


def _picture(view: ArkhamView) -> Image.Image:
    return Image.open(io.BytesIO(render_board(view))).convert("RGB")


def _count(image: Image.Image, box: Box, colour: Color) -> int:
    crop = image.crop((box.x, box.y, box.right, box.bottom))
    return sum(n for n, c in (crop.getcolors(crop.width * crop.height) or []) if c == colour)


def _empty_spaces(view: ArkhamView, neighborhood_only: bool = True) -> list[str]:
    """Spaces with nothing on them (no doom, investigator or monster), not unstable: a marker there is new."""
    busy = {m.space for m in view.monsters} | {i.space for i in view.investigators}
    return [s.id for s in view.spaces if s.doom == 0 and s.id not in busy and s.id not in view.unstable
            and (s.neighborhood is not None or not neighborhood_only)]


def _markers_area(view: ArkhamView, space: str) -> Box:
    return board_layout(view).plates[space].tokens


# ================================================================================================ the picture

@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_phase_renders_at_one_size_on_the_fixed_palette(scenario: str) -> None:
    """Issue 13: a board after every phase, of a stable size, encoded on the renderer's fixed palette (no
    per-picture quantising); markers never leave their space's plate however crowded the game gets."""
    states = _phase_states(scenario, 3)
    fixed = palette().getpalette()
    for text in states[:: max(1, len(states) // 8)] + states[-1:]:
        view = _view(api.from_json(text))  # type: ignore[arg-type]
        png = Image.open(io.BytesIO(render_board(view)))
        assert png.size == (WIDTH, HEIGHT)
        assert png.mode == "P" and png.getpalette() == fixed
        lay = board_layout(view)
        for sid, placed in marker_positions(view).items():
            plate = lay.plates[sid].box
            for _, x, y, size in placed:
                assert plate.x <= x and x + size <= plate.right and plate.y <= y and y + size <= plate.bottom, sid


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_doom_appears_on_its_space(scenario: str) -> None:
    """§2.2: doom tokens sit on neighborhood spaces; each space shows its doom where it is, and only there."""
    state = _new(scenario, 11)
    before = _view(state)
    target, other = _empty_spaces(before)[:2]
    assert _count(_picture(before), _markers_area(before, target), DOOM) == 0
    state.doom[target] = 2
    view = _view(state)
    image = _picture(view)
    assert _count(image, _markers_area(view, target), DOOM) > 200
    assert _count(image, _markers_area(view, other), DOOM) == 0
    x, y = space_xy(view, target)
    assert board_layout(view).plates[target].box.x < x < board_layout(view).plates[target].box.right
    assert any(m.kind == "doom" and m.label == "2" for m in markers_by_space(view)[target])


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_clues_and_anomaly_appear_on_their_neighborhood(scenario: str) -> None:
    """§2.1: clue tokens and the anomaly token sit in a neighborhood's central area (§8: at most one anomaly);
    the picture puts them on the neighborhood's header: the clue count in slot 0, the anomaly in slot 1."""
    state = _new(scenario, 12)
    a, b = state.tiles[0], state.tiles[1]
    state.clues[a], state.clues[b] = 3, 0
    state.anomalies = [b]
    view = _view(state)
    image = _picture(view)
    lay = board_layout(view)
    size = 38

    def slot(tile: str, k: int) -> Box:
        x, y = badge_xy(lay, tile, k)
        return Box(x, y, size, size)

    assert _count(image, slot(a, 0), CLUE) > 300
    assert _count(image, slot(b, 0), CLUE) == 0
    assert _count(image, slot(b, 1), ANOMALY) > 300
    assert _count(image, slot(a, 1), ANOMALY) == 0
    edge = lay.tiles[b]
    assert _count(image, Box(edge.x, edge.y + edge.h // 2, 4, 20), ANOMALY) > 40  # the tile is outlined too


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_investigators_appear_on_their_spaces_in_seat_colours(scenario: str) -> None:
    """§2.3: an investigator's location is a space; each is drawn there in its seat's colour (seat order) with
    its initials, and its row under the map carries the same colour."""
    state = _new(scenario, 13, players=3)
    free = _empty_spaces(_view(state), neighborhood_only=False)
    for seat, space in enumerate(free[:3]):
        inv = state.table[seat].inv
        assert inv is not None
        inv.space = space
    view = _view(state)
    image = _picture(view)
    for seat, space in enumerate(free[:3]):
        area = _markers_area(view, space)
        assert _count(image, area, seat_colour(seat)) > 300, (seat, space)
        for other in range(3):
            if other != seat:
                assert _count(image, area, seat_colour(other)) == 0
        marker = markers_by_space(view)[space][0]
        assert marker.kind == "investigator" and marker.label == initials(view.investigators[seat].name or "")
    for seat, box in enumerate(seat_boxes(view)):
        assert _count(image, box, seat_colour(seat)) > 300


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_monsters_ready_exhausted_engaged_and_damage_told_apart(scenario: str) -> None:
    """§7: ready, exhausted and engaged monsters are three states; §2.4: damage tokens stay on the monster;
    epic monsters are archive cards. The chips differ in fill (ready / exhausted), edge (the engaged seat's
    colour, gold for epic) and carry a damage pip per damage."""
    state = _new(scenario, 14)
    view = _view(state)
    ready_at, tired_at = _empty_spaces(view)[:2]
    inv = state.table[0].inv
    assert inv is not None
    card = "a3.monster.ghoul"
    state.monsters = [Monster(uid=101, card=card, space=ready_at, status="ready", damage=2),
                      Monster(uid=102, card=card, space=tired_at, status="exhausted"),
                      Monster(uid=103, card=card, space=None, status="engaged", engaged=[0])]
    state.next_uid = 104
    view = _view(state)
    image = _picture(view)
    ready, tired, home = (_markers_area(view, s) for s in (ready_at, tired_at, inv.space or ""))
    assert _count(image, ready, MONSTER) > 150 and _count(image, ready, EXHAUSTED) == 0
    assert _count(image, ready, DAMAGE) > 20
    assert _count(image, tired, EXHAUSTED) > 150 and _count(image, tired, MONSTER) == 0
    assert _count(image, tired, DAMAGE) == 0
    assert _count(image, home, MONSTER) > 150
    markers = markers_by_space(view)[inv.space or ""]
    kinds = [m.kind for m in markers]
    assert kinds.index("monster") == kinds.index("investigator") + 1  # the engaged chip follows its investigator
    assert markers[kinds.index("monster")].edge == seat_colour(0)
    monster = view.monsters[0]
    epic = ah3_map.monster_marker(monster.model_copy(update={"epic": True}))
    assert epic.edge == EPIC and ah3_map.monster_marker(monster).edge != EPIC


def test_a_crowded_space_shows_what_fits_and_a_count_of_the_rest() -> None:
    """Issue 13 (readable on a phone): markers keep their size; a space with more than fit shows "+N"."""
    state = _new(SCENARIOS[0], 15)
    space = _empty_spaces(_view(state))[0]
    state.monsters = [Monster(uid=200 + k, card="a3.monster.zoog", space=space, status="ready") for k in range(14)]
    view = _view(state)
    placed = marker_positions(view)[space]
    assert placed[-1][0].kind == "more" and placed[-1][0].label == f"+{14 - len(placed) + 1}"
    plate = board_layout(view).plates[space].box
    assert all(plate.x <= x and x + s <= plate.right and plate.y <= y and y + s <= plate.bottom
               for _, x, y, s in placed)


# ================================================================================================ the layout

def _boxes_apart(boxes: list[Box]) -> bool:
    return not any(a.x < b.right and b.x < a.right and a.y < b.bottom and b.y < a.bottom
                   for i, a in enumerate(boxes) for b in boxes[i + 1:])


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("players", [1, 4, 6])
def test_layout_is_tidy_and_the_same_every_time(scenario: str, players: int) -> None:
    """§2.1: the map is a graph of neighborhood spaces (on their tiles) and street spaces; with no coordinates in
    the content, the layout is computed: every space gets a plate inside the map, a neighborhood's spaces inside
    its tile, streets outside every tile, nothing overlapping; and the same map always lays out the same way."""
    view = _view(_new(scenario, 16, players))
    lay = board_layout(view)
    ah3_layout.compute_layout.cache_clear()
    again = board_layout(view)
    assert again == lay and again is not lay
    assert set(lay.plates) == {s.id for s in view.spaces}
    assert _boxes_apart([p.box for p in lay.plates.values()]) and _boxes_apart(list(lay.tiles.values()))
    for s in view.spaces:
        plate = lay.plates[s.id].box
        assert lay.box.x <= plate.x and plate.right <= lay.box.right and lay.box.y <= plate.y
        assert plate.bottom <= lay.box.bottom
        if s.neighborhood is not None:
            tile = lay.tiles[s.neighborhood]
            assert tile.x <= plate.x and plate.right <= tile.right and tile.y <= plate.y <= plate.bottom <= tile.bottom
        else:
            assert all(_boxes_apart([plate, tile]) for tile in lay.tiles.values()), s.id
    assert set(lay.links) == {(min(s.id, n), max(s.id, n)) for s in view.spaces for n in s.adjacent}
    centres = [space_xy(view, s.id) for s in view.spaces]
    assert len(set(centres)) == len(centres)


def _big_map(players: int, tiles: int) -> dict[str, Any]:
    """A view (as JSON) of a bigger map than the shipped scenarios start with: `tiles` of the content's
    neighborhood tiles joined in a ring by streets, one street across, two markers-heavy spaces."""
    content = default_content()
    view = _view(_new(SCENARIOS[0], 26, players)).model_dump(mode="json")
    chosen = sorted(content.tiles)[:tiles]
    spaces: dict[str, dict[str, Any]] = {}
    for t in chosen:
        tile = content.tiles[t]
        for sp in tile.spaces:
            inner = [f"{t}.{b if a == sp.id else a}" for a, b in tile.adjacent if sp.id in (a, b)]
            spaces[f"{t}.{sp.id}"] = {"id": f"{t}.{sp.id}", "name": sp.name, "neighborhood": t, "street": None,
                                      "doom": 0, "investigators": [], "monsters": [], "adjacent": inner}
    ring = [(chosen[k], chosen[(k + 1) % tiles]) for k in range(tiles)] + [(chosen[0], chosen[tiles // 2])]
    for k, (a, b) in enumerate(ring):
        ends = [f"{a}.{content.tiles[a].spaces[k % 3].id}", f"{b}.{content.tiles[b].spaces[(k + 1) % 3].id}"]
        sid = f"street.test-{k}"
        spaces[sid] = {"id": sid, "name": f"Test Street {k}", "neighborhood": None,
                       "street": ("residential", "bridge", "scenic")[k % 3], "doom": 0, "investigators": [],
                       "monsters": [], "adjacent": ends}
        for e in ends:
            spaces[e]["adjacent"].append(sid)
    crowded = f"{chosen[0]}.{content.tiles[chosen[0]].spaces[0].id}"
    spaces[crowded]["doom"] = 2
    view["spaces"] = sorted(spaces.values(), key=lambda sp: str(sp["id"]))
    view["neighborhoods"] = [{"id": t, "name": content.tiles[t].name, "clues": 2, "anomaly": True} for t in chosen]
    view["unstable"] = [crowded]
    for inv in view["investigators"]:
        inv["space"] = crowded
    monster = view["monsters"][0]
    view["monsters"] = [{**monster, "uid": 300 + k, "space": crowded, "damage": k % 3} for k in range(6)]
    return view


@pytest.mark.parametrize(("players", "tiles", "doom_ink"), [(6, 6, 100), (1, 5, 100), (4, 7, 40)])
def test_a_bigger_map_still_lays_out_and_keeps_markers_on_their_spaces(players: int, tiles: int,
                                                                       doom_ink: int) -> None:
    """§2.1/§9: maps grow (tiles join during play; other scenarios start bigger). With more tiles and the
    investigators' rows taking their room, every plate still sits in its tile, nothing overlaps, and a
    crowded space keeps its markers inside its plate (seven tiles, more than any shipped map, shrink them)."""
    view = ArkhamView.model_validate(_big_map(players, tiles))
    lay = board_layout(view)
    assert len(lay.tiles) == tiles and set(lay.plates) == {s.id for s in view.spaces}
    assert _boxes_apart([p.box for p in lay.plates.values()]) and _boxes_apart(list(lay.tiles.values()))
    for s in view.spaces:
        plate = lay.plates[s.id].box
        if s.neighborhood is not None:
            tile = lay.tiles[s.neighborhood]
            assert tile.x <= plate.x and plate.right <= tile.right and tile.y <= plate.y <= plate.bottom <= tile.bottom
        for _, x, y, size in marker_positions(view)[s.id]:
            assert plate.x <= x and x + size <= plate.right and plate.y <= y and y + size <= plate.bottom
    image = _picture(view)
    assert image.size == (WIDTH, HEIGHT)
    crowded = view.unstable[0]
    assert _count(image, _markers_area(view, crowded), DOOM) > doom_ink


def test_a_tile_joining_the_map_re_lays_it_out() -> None:
    """§9 (adding a tile): an archive card's map change adds a neighborhood, its streets and borders; the map is
    laid out again with the new tile, and the old scenario map keeps its own cached layout."""
    state = _new("low-tide", 17)
    before = board_layout(_view(state))
    pack = default_content().scenarios["low-tide"]
    number = next(n for n, card in pack.archive.items() if card.map is not None)
    change = pack.archive[number].map
    assert change is not None
    state.map_changes.append(number)
    state.tiles += [t for t in change.neighborhoods if t not in state.tiles]
    view = _view(state)
    after = board_layout(view)
    assert set(change.neighborhoods) <= set(after.tiles) and not set(change.neighborhoods) & set(before.tiles)
    assert {s.id for s in view.spaces} == set(after.plates)
    assert _boxes_apart([p.box for p in after.plates.values()])
    assert board_layout(_view(_new("low-tide", 18))) == before


# ================================================================================================ panels

def test_sheet_thresholds_are_read_from_the_codex_conditions() -> None:
    """§2.2: how much doom is too much, and how many clues are enough, is set by the codex cards: a condition
    "N, plus M per investigator" counts the investigators who started (here, every seat)."""
    view = _view(_new("witch-light", 19, players=3))
    objective = next(c.objective for c in view.codex if c.objective)
    assert objective is not None
    value = threshold(view, objective, "clues")
    assert value is not None and value > 3
    assert threshold(view, objective, "doom") is None
    assert threshold(view, "Something else entirely.", "clues") is None


def test_cup_panel_shows_the_tokens_drawn() -> None:
    """§2.2: drawn mythos tokens are not returned until the cup is empty: the panel shows them in draw order."""
    state = _new(SCENARIOS[0], 20)
    view = _view(state)
    box = side_boxes(view)[0]["cup"]
    strip = Box(box.x, box.bottom - 34, box.w, 34)
    assert _count(_picture(view), strip, DOOM) == 0
    state.cup.remove("spread_doom")
    state.cup_drawn.append("spread_doom")
    view = _view(state)
    assert _count(_picture(view), Box(box.x, side_boxes(view)[0]["cup"].bottom - 34, box.w, 34), DOOM) > 100


def test_unstable_spaces_are_outlined() -> None:
    """§2.1: the unstable space(s) come from the top event discard card; the picture outlines them."""
    view = _view(_new(SCENARIOS[0], 21))
    image = _picture(view)
    lay = board_layout(view)
    for sid in view.unstable:
        plate = lay.plates[sid].box
        assert _count(image, Box(plate.x, plate.y + 10, 3, plate.h - 20), UNSTABLE) > 20
    calm = next(s for s in _empty_spaces(view))
    assert _count(image, lay.plates[calm].box, UNSTABLE) == 0


def test_game_over_is_shown_in_place_of_the_round() -> None:
    """§10: the game ends in a win or a loss; the picture says which above the scenario sheet, the map visible."""
    seed = next(s for s in range(30, 60) if api.from_json(_phase_states("witch-light", s)[-1]).result == "loss")
    view = _view(api.from_json(_phase_states("witch-light", seed)[-1]))  # type: ignore[arg-type]
    assert view.over and view.result == "loss"
    image = _picture(view)
    assert _count(image, side_boxes(view)[0]["title"], LOSS_BG) > 5000
    playing = _picture(view.model_copy(update={"over": False, "result": None}))
    box = board_layout(view).box
    assert image.crop(box.rect()).tobytes() == playing.crop(box.rect()).tobytes()  # the map is not covered


# ================================================================================================ the API

def test_dict_and_model_views_render_the_same_bytes() -> None:
    view = _view(_state(SCENARIOS[-1], 22, 5))
    arkham3.clear_cache()
    from_model = render_board(view)
    arkham3.clear_cache()
    from_dict = render_board(view.model_dump(mode="json"))
    assert from_model == from_dict
    assert space_xy(view, view.spaces[0].id) == space_xy(view.model_dump(mode="json"), view.spaces[0].id)


def test_an_unchanged_view_is_served_from_the_cache() -> None:
    view = _view(_state(SCENARIOS[0], 23, 4))
    arkham3.clear_cache()
    start = time.perf_counter()
    first = render_board(view)
    cold = time.perf_counter() - start
    start = time.perf_counter()
    again = render_board(view.model_dump(mode="json"))
    warm = time.perf_counter() - start
    assert again is first  # the cached bytes themselves, not a new picture
    assert warm < cold
    changed = view.model_copy(update={"round": view.round + 1})
    assert render_board(changed) is not first


def test_the_renderer_is_pure() -> None:
    """The same view draws the same pixels whatever was drawn before (caches hold only shared static parts)."""
    view = _view(_state(SCENARIOS[0], 24, 6))
    first = render_board_image(view).tobytes()
    for text in random.Random(1).sample(_phase_states(SCENARIOS[-1], 25), 3):
        render_board_image(_view(api.from_json(text)))  # type: ignore[arg-type]
    assert render_board_image(view).tobytes() == first


def test_a_sealed_space_shows_its_seal() -> None:
    """The Sentinel Stones (our scenario sheet): a sealed space takes no doom; the board marks the seal on its
    space, and only there."""
    state = _new("sentinel-stones", 11)
    before = _view(state)
    target, other = _empty_spaces(before)[:2]
    state.seals.append(target)
    view = _view(state)
    image = _picture(view)
    assert any(m.kind == "seal" for m in markers_by_space(view)[target])
    assert _count(image, _markers_area(view, target), Theme.GOOD) > 200
    assert _count(image, _markers_area(view, other), Theme.GOOD) == 0
