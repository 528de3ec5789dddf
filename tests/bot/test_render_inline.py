"""The channel boards, checked where players see them (issue 27, "Boards designed for Discord's inline size").

Discord shows an attached picture about 550 px wide in a channel. Every game's channel board is measured at
that scale: `kit.record_text` records each text's font size while the board is drawn, and the smallest one,
scaled to 550 px wide, must be at least 12 px. Then each board is checked for what players read off it at a
glance (doom, the clock, each investigator's numbers, the places and what is on them), on the recorded texts
and on the pixels. Views come from seeded games played by random agents (setup, play, the end).
"""

from __future__ import annotations

import io
from collections.abc import Callable
from functools import lru_cache
from typing import Any

import pytest
from PIL import Image

from bot.games.arkham3.render import inline as ah3
from bot.games.arkham_lcg.render import inline as lcg
from bot.games.elder_sign.render import inline as es
from bot.games.eldritch.render import inline as eh
from bot.games.eldritch.render.style import MONSTER
from bot.games.manifest import bot_games
from bot.render import INLINE_RENDERERS, kit, render_table
from bot.render import inline as kit_inline
from bot.render.kit import Box, Color, record_text
from engine import api
from engine.agents import get_agent
from engine.core.game import SeatSpec

NAMES = ["Alice", "Bob", "Carol", "Dmitri", "Eun-ji", "Farid"]
MODULES: dict[str, Any] = {"elder-sign": es, "eldritch": eh, "arkham3": ah3, "arkham-lcg": lcg}


@lru_cache(maxsize=16)
def _played(game: str, players: int, seed: int = 5) -> tuple[str, ...]:
    """The spectator's view (as JSON) at the start, after every step the bot draws a board for, and at the
    end of a seeded game played by random agents."""
    seats = [SeatSpec(seat=i, name=NAMES[i]) for i in range(players)]
    state, _ = api.new_game(game, seats, {}, seed)
    agents = [get_agent(game, "random", seed * 10 + i) for i in range(players)]
    views = [api.view(state, None).model_dump_json()]
    for _ in range(600):
        if state.over:
            break
        prompt = api.prompts(state)[0]
        state, events = api.apply(state, agents[prompt.seats[0]].act(state, prompt), in_place=True, prompt=prompt)
        if any(e.render for e in events) or state.over:
            views.append(api.view(state, None).model_dump_json())
    return tuple(views)


def views(game: str, players: int) -> list[Any]:
    model = type(api.view(_first_state(game), None))
    return [model.model_validate_json(v) for v in _played(game, players)]


@lru_cache(maxsize=8)
def _first_state(game: str) -> Any:
    state, _ = api.new_game(game, [SeatSpec(seat=0, name="Alice")], {}, 1)
    return state


def measured(module: Any, view: Any) -> tuple[Image.Image, list[tuple[str, int]]]:
    """The board and every text drawn on it with its font size."""
    with record_text() as texts:
        image = module.render_inline_image(view)
    return image, list(texts)


def count(image: Image.Image, box: Box, colour: Color) -> int:
    region = image.crop((max(0, box.x), max(0, box.y), min(image.width, box.right), min(image.height, box.bottom)))
    return sum(n for n, c in region.getcolors(region.width * region.height) or [] if c == colour)


def drawn(texts: list[tuple[str, int]], text: str) -> bool:
    return any(t == text for t, _ in texts)


# ================================================================================================ the size rule

@pytest.mark.parametrize("game", sorted(MODULES))
@pytest.mark.parametrize("players", [1, 2, 4, 6])
def test_every_text_reads_at_least_12_px_where_discord_shows_the_board(game: str, players: int) -> None:
    if game == "arkham-lcg" and players > 4:
        pytest.skip("the card game seats up to four")
    module = MODULES[game]
    for view in views(game, players)[:: 2 if players > 4 else 1]:
        image, texts = measured(module, view)
        assert texts, "the board drew no text"
        smallest = min(size for _, size in texts)
        shown = kit_inline.shown_px(smallest, image.width)
        small = [t for t, s in texts if s == smallest][:3]
        assert shown >= kit_inline.MIN_SHOWN_PX, f"{game}: {small} at {smallest} px is {shown:.1f} px inline"
        assert image.width == kit_inline.WIDTH
        # shown 550 px wide, the board is at most as tall as it is wide: no client shrinks it further to fit
        assert image.height <= image.width, f"{game}: {image.size}"


def test_the_size_rule_is_550_px_wide_and_12_px_text() -> None:
    assert kit_inline.min_text(1100) == 24 and kit_inline.min_text(550) == 12 and kit_inline.min_text(1600) == 35
    assert kit_inline.SMALL == kit_inline.min_text(kit_inline.WIDTH)
    assert kit_inline.shown_px(18, 1600) < 7  # the full board's body text, as the issue measured it


def test_recording_sees_only_the_text_drawn_inside_the_block() -> None:
    from bot.render.kit import draw_text

    image = Image.new("RGB", (200, 60))
    draw_text(image, (0, 0), "before", 30, (255, 255, 255))
    with record_text() as outer:
        draw_text(image, (0, 0), "one", 30, (255, 255, 255))
        with record_text() as inner:
            draw_text(image, (0, 0), "two", 20, (255, 255, 255))
        draw_text(image, (0, 0), "three", 26, (255, 255, 255), bold=True)
    draw_text(image, (0, 0), "after", 30, (255, 255, 255))
    assert outer == [("one", 30), ("three", 26)]
    assert inner == [("two", 20)]


# ================================================================================================ wiring

def test_every_game_with_a_board_names_its_channel_board_and_both_sizes_render() -> None:
    for game, manifest in bot_games().items():
        if manifest.renderer is None or game not in MODULES:
            continue
        assert manifest.inline_renderer, f"{game} has no channel board"
        assert game in INLINE_RENDERERS
        view = views(game, 2)[-1]
        MODULES[game].cache_clear()
        with record_text() as texts:  # the picture the channel gets, through the dispatch
            inline_png = render_table(game, view, "inline")
        full_png = render_table(game, view, "full")
        assert texts and min(s for _, s in texts) >= kit_inline.SMALL
        assert inline_png is not None and full_png is not None
        small, full = Image.open(io.BytesIO(inline_png)), Image.open(io.BytesIO(full_png))
        assert small.width == kit_inline.WIDTH and full.width > small.width
        assert small.mode == "P"  # encoded on the game's fixed palette, like the full board
        assert render_table(game, view) == full_png  # the full board stays the default


def test_elder_signs_table_picture_after_a_resolution_or_midnight_is_the_channel_board() -> None:
    from bot.render import render_event

    view = views("elder-sign", 2)[3]
    table = render_event("elder-sign", "table.changed", {"cause": "resolution"}, view)
    assert table is not None and Image.open(io.BytesIO(table)).width == kit_inline.WIDTH
    roll = render_event("elder-sign", "dice.rolled", {"dice": {"g1": "lore", "g2": "inv2"}}, view)
    assert roll is not None and Image.open(io.BytesIO(roll)).width < kit_inline.WIDTH  # the roll picture


def test_a_game_without_a_channel_board_shows_its_full_board_inline() -> None:
    assert render_table("no-such-game", {"round": 1}, "inline") == render_table("no-such-game", {"round": 1})


@pytest.mark.parametrize("game", ["eldritch", "arkham3", "arkham-lcg"])
def test_dict_and_model_views_give_the_same_bytes(game: str) -> None:
    module = MODULES[game]
    view = views(game, 2)[len(views(game, 2)) // 2]
    module.cache_clear()
    assert module.render_inline(view) == module.render_inline(view.model_dump(mode="json"))


# ================================================================================================ Elder Sign

def _mid(game: str, players: int, pick: Callable[[Any], bool]) -> Any:
    found = [v for v in views(game, players) if pick(v)]
    assert found, "no view of the seeded game fits the test"
    return found[len(found) // 2]


def test_elder_sign_shows_doom_clock_elder_signs_and_each_investigator_in_big_numbers() -> None:
    view = _mid("elder-sign", 4, lambda v: not v.over and v.ancient_one.doom > 0)
    image, texts = measured(es, view)
    ao = view.ancient_one
    for text in (f"{ao.doom}/{len(ao.doom_track)}", view.clock, f"{view.elder_signs}/{ao.elder_sign_limit}"):
        assert (text, kit_inline.BIG) in texts, text
    for seat in view.investigators:
        if seat.investigator is not None and not seat.eliminated:
            assert drawn(texts, f"STA {seat.stamina}/{seat.max_stamina}")
            assert drawn(texts, f"SAN {seat.sanity}/{seat.max_sanity}")
            assert drawn(texts, f"Clues {seat.clues}")
    # doom's red is on the header, where its tile is
    assert count(image, Box(0, 0, image.width, kit_inline.HEADER_H + 14), es.DOOM) > 200


def test_elder_sign_cards_show_their_investigation_numbers_and_who_is_there() -> None:
    view = _mid("elder-sign", 2, lambda v: not v.over and v.adventure is not None and v.phase != "battle")
    image, texts = measured(es, view)
    boxes = es.card_boxes(view)
    cards = [*view.adventures, *view.other_worlds]
    assert len(boxes) == len(cards)
    for box, card in zip(boxes, cards, strict=True):
        if card is None:
            continue
        for task in card.tasks:
            for sym in task.symbols:
                if sym.startswith("inv:"):
                    assert any(t == sym[4:] and s >= kit_inline.SMALL for t, s in texts), card.name
        for seat in card.investigators:  # a seat's disc in its colour on the card
            assert count(image, box, es.SEAT_COLOURS[seat % len(es.SEAT_COLOURS)]) > 100, card.name
        if card.where == view.adventure.where:  # the card being attempted is outlined
            assert count(image, box, es.HIGHLIGHT) > 2 * box.w


# ================================================================================================ Eldritch

def test_eldritch_writes_every_space_number_in_its_shape_at_the_readable_size() -> None:
    view = views("eldritch", 2)[1]
    image, texts = measured(eh, view)
    numbered = [s for s in view.spaces if s.name.isdigit()]
    assert len(numbered) >= 20
    for space in numbered:  # what the "Travel to space 10" buttons name
        assert (space.name, kit_inline.SMALL) in texts, space.name
        x, y = eh.inline_space_xy(view.content_version, space.id)
        assert count(image, Box(x - 16, y - 14, 32, 28), eh.SHAPE_INK) > 20, space.name
    for space in view.spaces:
        if not space.name.isdigit():
            assert drawn(texts, eh._label(space.name)), space.name


def test_eldritch_draws_gates_monsters_clues_and_investigators_where_they_are() -> None:
    """Each token on its space's slot (issue 30 item 15: tokens sit around their space, not between spaces)."""
    view = _mid("eldritch", 4, lambda v: not v.over and any(s.gate for s in v.spaces) and v.monsters)
    image, texts = measured(eh, view)
    version = view.content_version
    half = eh.TOKEN // 2
    for space in view.spaces:
        x, y = eh.inline_space_xy(version, space.id)
        if space.gate:
            ring = eh.omen_colour(space.gate)
            assert count(image, Box(x - eh.GATE // 2, y - eh.GATE // 2, eh.GATE, eh.GATE), ring) > 100, space.name
        if space.clues:
            x, y = eh.inline_token_xy(version, space.id, "clues")
            assert count(image, Box(x - half, y - half, eh.TOKEN, eh.TOKEN), eh.CLUE) > 100, space.name
    for m in view.monsters:
        x, y = eh.inline_token_xy(version, m.space, "monsters")
        assert count(image, Box(x - half, y - half, eh.TOKEN, eh.TOKEN), MONSTER) > 100
    people: dict[str, int] = {}
    for inv in view.investigators:
        if inv.name and not inv.defeated and not inv.eliminated:
            k = people[inv.space] = people.get(inv.space, -1) + 1
            x, y = eh.inline_token_xy(version, inv.space, "investigator", k)
            assert count(image, Box(x - half, y - half, eh.TOKEN, eh.TOKEN), eh.seat_colour(inv.seat)) > 150, inv.name
            assert drawn(texts, f"HP {inv.health}/{inv.max_health}")
            assert drawn(texts, f"SAN {inv.sanity}/{inv.max_sanity}")
    assert (str(view.doom), kit_inline.BIG) in texts
    assert (view.omen.capitalize(), kit_inline.BIG) in texts


def test_eldritch_names_sit_beside_their_spaces_apart_from_each_other_and_inside_the_map() -> None:
    view = views("eldritch", 2)[0]
    labels = eh.label_boxes(view.content_version)
    named = [s for s in view.spaces if not s.name.isdigit()]
    assert {s.id for s in named} == set(labels)
    boxes = list(labels.values())
    for i, a in enumerate(boxes):
        assert eh.MAP.x <= a.x and a.right <= eh.MAP.right and eh.MAP.y <= a.y and a.bottom <= eh.MAP.bottom
        for b in boxes[i + 1:]:
            assert a.right <= b.x or b.right <= a.x or a.bottom <= b.y or b.bottom <= a.y, (a, b)
    for space in named:  # a name is read as its space's: right next to it
        x, y = eh.inline_space_xy(view.content_version, space.id)
        box = labels[space.id]
        gap_x = max(box.x - x, x - box.right, 0)
        gap_y = max(box.y - y, y - box.bottom, 0)
        assert gap_x <= eh.SHAPE_R + 8 and gap_y <= eh.SHAPE_R + 8, space.name


# ================================================================================================ Arkham 3e

def test_arkham3_lists_each_neighborhood_with_doom_investigators_and_monsters_on_their_spaces() -> None:
    view = _mid("arkham3", 4, lambda v: not v.over and v.board_doom > 0)
    image, texts = measured(ah3, view)
    rows = ah3.space_rows(view)
    in_tiles = [s for s in view.spaces if s.neighborhood]
    assert set(rows) == {s.id for s in in_tiles}
    for space in in_tiles:
        row = rows[space.id]
        if space.doom:
            assert count(image, row, ah3.DOOM) > 200, space.name
            assert drawn(texts, str(space.doom))
        for seat in space.investigators:
            assert count(image, row, ah3.seat_colour(seat)) > 200, space.name
    for n in view.neighborhoods:
        assert any(t.rstrip("…") and n.name.startswith(t.rstrip("…")) for t, _ in texts), n.name
    assert (f"{view.board_doom}", kit_inline.BIG) in texts
    assert any(t.startswith(f"{view.sheet_doom}") and s == kit_inline.BIG for t, s in texts)
    for inv in view.investigators:
        if inv.name is not None:
            assert drawn(texts, f"HP {inv.health - inv.damage}/{inv.health}")
            assert drawn(texts, f"${inv.money} ".strip())


# ================================================================================================ the card game

def test_lcg_shows_each_location_with_its_clues_and_the_investigators_there() -> None:
    view = _mid("arkham-lcg", 4, lambda v: not lcg._is_campaign(v) and any(loc.clues for loc in v.locations))
    image, texts = measured(lcg, view)
    boxes = lcg.inline_location_boxes(view)
    assert set(boxes) == {loc.code for loc in view.locations}
    placed = list(boxes.values())
    for i, a in enumerate(placed):  # tiles never overlap
        for b in placed[i + 1:]:
            assert a.right <= b.x or b.right <= a.x or a.bottom <= b.y or b.bottom <= a.y
    for loc in view.locations:
        box = boxes[loc.code]
        if loc.clues:
            assert count(image, box, lcg.CLUE) > 200, loc.name
        for seat in loc.investigators:
            assert count(image, box, lcg.seat_colour(seat)) > 200, loc.name
    for inv in view.investigators:
        if inv.status == "playing":
            assert drawn(texts, f"HP {inv.health - inv.damage}/{inv.health}")
            assert drawn(texts, f"Res {inv.resources}")
    assert any(t.startswith(f"{view.doom_in_play}") and s == kit_inline.BIG for t, s in texts)


def test_lcg_between_scenarios_shows_the_results_and_each_investigators_experience() -> None:
    view = views("arkham-lcg", 2)[-1]
    assert lcg._is_campaign(view)
    image, texts = measured(lcg, view)
    for inv in view.investigators:
        assert drawn(texts, f"XP {inv.xp}")
    assert min(s for _, s in texts) >= kit_inline.SMALL


@pytest.mark.parametrize("game", sorted(MODULES))
def test_kept_parts_draw_what_drawing_in_place_draws(game: str) -> None:
    """A channel board is pasted together from kept parts (a seat's card, a header, a map, a card, a tile:
    `kit.PARTS`). Over a whole game, step after step as a channel renders it, every board has the pixels and
    the texts of the same board with each part drawn where it goes."""
    module = MODULES[game]
    kit.PARTS.clear()
    for view in views(game, 3):
        kept, kept_texts = measured(module, view)
        with kit.PARTS.drawing_in_place():
            drawn, drawn_texts = measured(module, view)
        assert kept.tobytes() == drawn.tobytes()
        assert sorted(kept_texts) == sorted(drawn_texts)


def test_paletted_png_keeps_bands_and_pixels() -> None:
    """The channel board's PNG is deflated in bands of rows kept by their content (`kit.paletted_png`): the
    file decodes to exactly the paletted picture; a picture changed in one place compresses only the bands
    the change touches, and gives the same file as a fresh encoding."""
    board = eh.render_inline_image(views("eldritch", 2)[-1])
    paletted = board.quantize(palette=eh._palette(), dither=Image.Dither.NONE)
    kit.BANDS.clear()
    png = kit.paletted_png(paletted)
    decoded = Image.open(io.BytesIO(png))
    decoded.load()
    assert decoded.mode == "P" and decoded.size == board.size
    assert decoded.convert("RGB").tobytes() == paletted.convert("RGB").tobytes()
    bands = len(kit.BANDS)
    changed = paletted.copy()
    top = 18 * kit.BAND_ROWS + 2
    changed.paste(3, (500, top, 520, top + kit.BAND_ROWS - 4))  # inside one band of rows
    again = kit.paletted_png(changed)
    assert len(kit.BANDS) == bands + 1
    kit.BANDS.clear()
    assert kit.paletted_png(changed) == again
    assert Image.open(io.BytesIO(again)).convert("RGB").tobytes() == changed.convert("RGB").tobytes()


def _indices(png: bytes) -> tuple[bytes, list[int] | None]:
    decoded = Image.open(io.BytesIO(png))
    decoded.load()
    assert decoded.mode == "P"
    return decoded.tobytes(), decoded.getpalette()


@pytest.mark.parametrize("game", sorted(MODULES))
def test_a_board_encoded_band_by_band_is_the_whole_picture_mapped_to_the_palette(game: str) -> None:
    """`kit.to_png` maps to the palette only the bands of RGB rows it has not met before, stacked together.
    Over a game's consecutive boards, as a channel encodes them, every file is the one the whole picture
    mapped to the palette gives (`image.quantize(palette)`, no dithering), byte for byte, and decodes to
    those indices."""
    module = MODULES[game]
    palette = module._palette()
    kit.BANDS.clear()
    kit.PARTS.clear()
    reused = 0
    for view in views(game, 3):
        board = module.render_inline_image(view)
        before = len(kit.BANDS)
        png = kit.to_png(board, palette)
        reused += len(kit.BANDS) - before < -(-board.height // kit.BAND_ROWS)
        whole = board.quantize(palette=palette, dither=Image.Dither.NONE)
        assert _indices(png) == (whole.tobytes(), whole.getpalette())
        assert png == kit.paletted_png(whole)
    assert reused  # the kept bands were used, not only made


def test_mapping_stacked_bands_gives_the_indices_of_the_whole_picture() -> None:
    """Without dithering a pixel's palette index depends on its colour alone: bands of rows cut from a
    picture, shuffled and stacked, map to the indices the same rows have when the whole picture is mapped."""
    board = ah3.render_inline_image(views("arkham3", 2)[-1])
    palette = ah3._palette()
    whole = board.quantize(palette=palette, dither=Image.Dither.NONE).tobytes()
    rows = kit.BAND_ROWS
    tops = list(range(0, board.height - rows + 1, rows))[::-3]
    stacked = Image.new("RGB", (board.width, rows * len(tops)))
    for i, top in enumerate(tops):
        stacked.paste(board.crop((0, top, board.width, top + rows)), (0, i * rows))
    mapped = stacked.quantize(palette=palette, dither=Image.Dither.NONE).tobytes()
    size = rows * board.width
    for i, top in enumerate(tops):
        assert mapped[i * size:(i + 1) * size] == whole[top * board.width:(top + rows) * board.width]


def test_a_band_is_reused_only_when_every_pixel_is_equal() -> None:
    """Bands are looked up by a sample of their bytes: pictures that differ only in pixels the sample skips
    share a lookup key, and each still encodes to its own pixels, however many such versions come and go."""
    palette = eh._palette()
    base = Image.new("RGB", (300, 2 * kit.BAND_ROWS + 5), kit.Theme.PANEL)
    kit.BANDS.clear()
    pictures = []
    for x in [1, 2, 3, 5, 7, 9, 1, 2]:  # pixel x of row 3 starts at byte 4x of its band's row: never sampled
        picture = base.copy()
        picture.putpixel((x, 3), kit.Theme.ACCENT)
        pictures.append(picture)
    pictures.append(base)
    for picture in pictures:
        png = kit.to_png(picture, palette)
        assert _indices(png)[0] == picture.quantize(palette=palette, dither=Image.Dither.NONE).tobytes()
