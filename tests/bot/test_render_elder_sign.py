"""The Elder Sign renderer, checked on its pixels: real views come from games played through the engine,
and each test looks at one region of the picture (regions come from `table_layout`, the renderer's own
layout, so a layout change moves the test with it)."""

from __future__ import annotations

import copy
import io
import random
from collections import deque
from functools import lru_cache
from typing import Any

import pytest
from PIL import Image

from bot.games.elder_sign.render.board import (
    ARENA_BG,
    CARD_BG,
    DIE_COLOURS,
    DOOM,
    HEIGHT,
    HIGHLIGHT,
    WIDTH,
    dice_from_event,
    render_dice,
    render_table,
    render_table_image,
    symbols_from_text,
    table_layout,
)
from bot.render import RENDERERS, kit
from bot.render import render_table as dispatch_render
from bot.render.kit import Box, Theme
from engine import api
from engine.core.game import SeatSpec

NAMES = ["alice", "bob", "carol", "dave", "eve", "fay", "gus", "hal"]


# ------------------------------------------------------------------------------------------------ games

@lru_cache(maxsize=8)
def _history(seed: int, players: int) -> tuple[tuple[dict[str, Any], tuple[Any, ...]], ...]:
    """(view, events) after every action of a game played with seeded random choices. The typed views are
    kept as plain data so tests can build variants; the renderer reads both (test_typed_and_plain_views_...)."""
    rng = random.Random(seed)
    seats = [SeatSpec(seat=i, name=NAMES[i]) for i in range(players)]
    state, events = api.new_game("elder-sign", seats, {}, seed=seed)
    out = [(api.view(state, None).model_dump(), tuple(events))]
    for _ in range(4000):
        pending = api.prompts(state)
        if not pending:
            break
        prompt = pending[0]
        state, events = api.apply(state, rng.choice(prompt.answers(prompt.seats[0])))
        out.append((api.view(state, None).model_dump(), tuple(events)))
    return tuple(out)


def _views(seed: int = 3, players: int = 3) -> list[dict[str, Any]]:
    return [copy.deepcopy(v) for v, _ in _history(seed, players)]


def _find(pred: Any, players: int = 3) -> dict[str, Any]:
    for seed in range(3, 30):
        for view in _views(seed, players):
            if pred(view):
                return view
    pytest.skip("no game reached the wanted situation")


def _normal_view() -> dict[str, Any]:
    return _find(lambda v: v["phase"] == "normal" and not v["over"] and all(v["adventures"]))


def _battle_view() -> dict[str, Any]:
    return _find(lambda v: v["phase"] == "battle" and not v["over"])


# ------------------------------------------------------------------------------------------------ pixels

def _image(png: bytes) -> Image.Image:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(png)).convert("RGB")


def _near(a: tuple[int, int, int], b: tuple[int, int, int], tol: int) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


def _count(image: Image.Image, box: Box, colour: tuple[int, int, int], tol: int = 18) -> int:
    region = image.crop((box.x, box.y, box.right, box.bottom))
    return sum(1 for p in region.get_flattened_data() if _near(p, colour, tol))


def _blobs(image: Image.Image, box: Box | None, colour: tuple[int, int, int], min_area: int,
           tol: int = 30) -> int:
    """Connected regions (4-neighbour) of pixels near `colour` with at least `min_area` pixels."""
    region = image if box is None else image.crop((box.x, box.y, box.right, box.bottom))
    w, h = region.size
    px = region.load()
    mask = [[_near(px[x, y], colour, tol) for x in range(w)] for y in range(h)]
    seen = [[False] * w for _ in range(h)]
    found = 0
    for y in range(h):
        for x in range(w):
            if not mask[y][x] or seen[y][x]:
                continue
            area, queue = 0, deque([(x, y)])
            seen[y][x] = True
            while queue:
                cx, cy = queue.popleft()
                area += 1
                for nx, ny in ((cx + 1, cy), (cx - 1, cy), (cx, cy + 1), (cx, cy - 1)):
                    if 0 <= nx < w and 0 <= ny < h and mask[ny][nx] and not seen[ny][nx]:
                        seen[ny][nx] = True
                        queue.append((nx, ny))
            if area >= min_area:
                found += 1
    return found


# ------------------------------------------------------------------------------------------------ table

def test_table_is_a_png_of_the_target_size() -> None:
    """1280 wide; at least 900 tall, taller only when the text needs it (the layout says how tall)."""
    view = _normal_view()
    image = _image(render_table(view))
    assert image.size == table_layout(view).size
    assert image.size[0] == WIDTH == 1280 and image.size[1] >= HEIGHT == 900


@pytest.mark.parametrize("doom", [0, 1, 4, 7])
def test_doom_track_shows_one_filled_token_per_doom(doom: int) -> None:
    view = _normal_view()
    view["ancient_one"]["doom"] = doom
    lay = table_layout(view)
    image = _image(render_table(view))
    track = Box(lay.doom_track.x - 4, lay.doom_track.y - 4, lay.doom_track.w + 8, lay.doom_track.h + 8)
    assert _blobs(image, track, DOOM, min_area=200) == doom


def test_completed_task_row_looks_different() -> None:
    view = _normal_view()
    slot = next(i for i, a in enumerate(view["adventures"]) if a and len(a["tasks"]) >= 2)
    box = table_layout(view).cards[slot]
    before = _image(render_table(view))
    view["adventures"][slot]["tasks"][0]["done"] = True
    after = _image(render_table(view))
    assert before.crop(box.rect()).tobytes() != after.crop(box.rect()).tobytes()
    # the strike line and the tick are drawn in the "good" green
    assert _count(after, box, Theme.GOOD, tol=20) > _count(before, box, Theme.GOOD, tol=20) + 60
    # and nothing outside that card changed (compared before PNG palette reduction, which is per picture)
    view["adventures"][slot]["tasks"][0]["done"] = False
    raw_before = render_table_image(view)
    view["adventures"][slot]["tasks"][0]["done"] = True
    raw_after = render_table_image(view)
    for i, other in enumerate(table_layout(view).cards):
        if i != slot:
            assert raw_before.crop(other.rect()).tobytes() == raw_after.crop(other.rect()).tobytes()


def test_current_player_panel_has_the_highlight() -> None:
    view = _normal_view()
    lay = table_layout(view)
    image = _image(render_table(view))
    for box, entry in zip(lay.seats, view["investigators"], strict=True):
        edge = Box(box.x, box.y + 16, 4, box.h - 32)  # the panel's left border, below the rounded corner
        lit = _count(image, edge, HIGHLIGHT, tol=24)
        if entry["seat"] == view["current"]:
            assert lit > edge.h * 2
        else:
            assert lit == 0


def test_monster_locks_and_markers_are_drawn_on_their_card() -> None:
    view = _normal_view()
    card = view["adventures"][0]
    box = table_layout(view).cards[0]
    plain = _image(render_table(view))
    card["locks"] = ["red"]
    card["tasks"][0]["monster"] = "A Test Horror"
    card["investigators"] = [view["investigators"][0]["seat"]]
    marked = _image(render_table(view))
    assert _blobs(marked, box, DIE_COLOURS["red"], min_area=150) == _blobs(plain, box, DIE_COLOURS["red"], 150) + 1
    assert _count(marked, box, (176, 92, 230), tol=20) > 300  # the monster's purple name tag


def test_battle_view_replaces_the_adventure_grid() -> None:
    normal, battle = _normal_view(), _battle_view()
    grid = table_layout(normal).grid
    normal_img, battle_img = _image(render_table(normal)), _image(render_table(battle))
    assert _count(normal_img, grid, CARD_BG, tol=3) > 100_000
    assert _count(battle_img, grid, CARD_BG, tol=3) < 500  # a few antialiased edges may map to it
    assert _count(battle_img, grid, ARENA_BG, tol=6) > 200_000
    assert table_layout(battle).cards == []


@pytest.mark.parametrize("result,colour", [("win", Theme.GOOD), ("loss", DOOM)])
def test_game_over_draws_a_banner(result: str, colour: tuple[int, int, int]) -> None:
    view = _normal_view()
    view["over"], view["result"] = True, result
    image = _image(render_table(view))
    band = Box(60, HEIGHT // 2 - 110, WIDTH - 120, 220)
    assert _count(image, band, colour, tol=20) > 5_000
    # the table behind is shaded down
    corner = image.getpixel((4, 4))
    assert all(c <= b - 6 for c, b in zip(corner, Theme.BG, strict=True))


def test_eight_investigators_fit_in_the_frame() -> None:
    view = _find(lambda v: not v["over"] and v["phase"] == "normal", players=8)
    lay = table_layout(view)
    image = _image(render_table(view))
    assert image.size == lay.size and image.size[0] == 1280
    assert len(lay.seats) == 8
    assert all(box.bottom <= lay.size[1] - 8 for box in lay.seats)
    assert all(a.bottom <= b.y for a, b in zip(lay.seats, lay.seats[1:], strict=False))


def test_many_other_worlds_grow_the_picture_instead_of_overlapping() -> None:
    view = _normal_view()
    first = next(a for a in view["adventures"] if a)
    view["other_worlds"] = [dict(first, other_world=True, where=f"ow:test{i}") for i in range(5)]
    lay = table_layout(view)
    image = _image(render_table(view))
    assert image.size[1] == lay.size[1] > 900
    assert all(box.bottom <= lay.size[1] for box in lay.band)


def test_every_view_of_whole_games_renders() -> None:
    """No view the engine can produce (start, adventures, monsters, battle, devoured seats, game over)
    breaks the renderer; every sixth step of three games keeps this quick."""
    count = 0
    for seed, players in ((3, 3), (5, 1), (8, 5)):
        for view in _views(seed, players)[::6] + _views(seed, players)[-1:]:
            image = _image(render_table(view))
            assert image.size[0] == 1280 and image.size[1] >= 900
            count += 1
    assert count > 30


def test_eliminated_investigator_is_greyed() -> None:
    view = _normal_view()
    entry = view["investigators"][0]
    box = table_layout(view).seats[0]
    before = _image(render_table(view))
    entry.update(eliminated=True)
    after = _image(render_table(view))
    # the stamina bar's red disappears from a greyed-out panel
    assert _count(before, box, Theme.STAMINA, tol=16) > 200
    assert _count(after, box, Theme.STAMINA, tol=16) == 0


# ------------------------------------------------------------------------------------------------ dice

def test_dice_image_has_one_square_per_die() -> None:
    faces = [("green", "inv1"), ("yellow", "lore"), ("red", "wild"), ("green", "peril"), ("green", "terror"),
             ("yellow", "inv4"), ("red", "inv2")]
    image = _image(render_dice(faces))
    small = image.resize((image.width // 2, image.height // 2), Image.Resampling.NEAREST)
    # a die's body is ~55×55 at half size; symbol holes are far smaller than a quarter of that
    assert _blobs(small, None, DIE_COLOURS["yellow"], min_area=800) == 2
    assert _blobs(small, None, DIE_COLOURS["red"], min_area=800) == 2
    assert _blobs(small, None, DIE_COLOURS["green"], min_area=800) == 3


@pytest.mark.parametrize("face", ["inv1", "inv2", "inv3", "inv4", "lore", "peril", "terror", "wild"])
def test_each_face_has_a_distinct_symbol(face: str) -> None:
    image = _image(render_dice([("red", face)]))
    others = [f for f in ("inv1", "inv2", "inv3", "inv4", "lore", "peril", "terror", "wild") if f != face]
    for other in others:
        assert _image(render_dice([("red", other)])).tobytes() != image.tobytes()
    # the symbol is drawn in the die's white ink
    assert _count(image, Box(0, 0, image.width, image.height - 40), (250, 250, 250), tol=10) > 300


def test_dice_from_a_real_roll_event() -> None:
    rolls = [e for _, evs in _history(3, 3) for e in evs if e.kind in ("dice.rolled", "dice.rerolled")]
    assert rolls
    faces = dice_from_event(rolls[0].data)
    assert len(faces) == len(rolls[0].data["dice"])
    assert {c for c, _ in faces} <= {"green", "yellow", "red"}
    assert _image(render_dice(faces)).size[0] > 0


# ------------------------------------------------------------------------------------------------ misc

def test_battle_task_text_is_read_back_into_symbols() -> None:
    assert symbols_from_text("Inv 4, Lore") == (["inv:4", "lore"], 0, 0, 0)
    assert symbols_from_text("[Inv 3], Lore Or Peril, Clock, -1 sanity, -2 stamina") == (
        ["inv:3", "lore/peril"], 1, 1, 2)
    assert symbols_from_text("Something new") == (["text:Something new"], 0, 0, 0)


def test_the_manifest_hooks_the_renderer_into_the_dispatch() -> None:
    assert "elder-sign" in RENDERERS  # from bot/games/elder_sign's BOT manifest
    view = _normal_view()
    png = dispatch_render("elder-sign", view)
    assert png is not None and _image(png).size == table_layout(view).size


def test_kit_wrap_and_ellipsize_respect_width_and_line_count() -> None:
    from bot.render.kit import ellipsize, text_width, wrap

    text = "The visiting professor's slides showed things that should not photograph. Each investigator loses 1."
    for max_lines in (1, 2, 3, None):
        lines = wrap(text, 18, 260, max_lines=max_lines)
        assert all(text_width(line, 18) <= 260 for line in lines)
        if max_lines is not None:
            assert len(lines) <= max_lines
    assert " ".join(wrap(text, 18, 260)) == text  # nothing lost when there is room
    assert wrap(text, 18, 260, max_lines=2)[-1].endswith("…")
    cut = ellipsize("Reporter's Notebook, Trench Knife, Circle of Salt and Iron", 18, 150)
    assert cut.endswith("…") and text_width(cut, 18) <= 150


# ------------------------------------------------------------------------------------------------ second pass
# Issue "Elder Sign, second pass" (images): no clipped text, a legend, the bottom space used, the roll picture
# saying who/where/what is left with held dice apart, spell dice on the table, one fixed palette.

def test_no_title_reward_or_seat_text_is_cut_in_whole_games() -> None:
    """Card titles wrap, rewards and penalties wrap, seat panels are as tall as their lines: across whole
    games with 1 to 8 players nothing of those is ellipsized (a player's own @name may be, in 8-seat panels)."""
    from bot.games.elder_sign.render import board as elder_sign

    elder_sign.clipped.clear()
    for seed, players in ((3, 3), (5, 1), (8, 5), (11, 4), (13, 8)):
        for view in _views(seed, players)[::3]:
            render_table_image(view)
    cut = {what for what, _ in elder_sign.clipped}
    assert cut <= {"player", "monster"}, elder_sign.clipped[:5]


def test_every_panel_holds_its_planned_lines() -> None:
    for seed, players in ((3, 3), (11, 4)):
        for view in _views(seed, players)[::5]:
            lay = table_layout(view)
            for box, plan in zip(lay.seats, lay.seat_plans, strict=True):
                assert box.h >= plan.height() and box.bottom <= lay.size[1]
            for box, card in zip(lay.cards, view["adventures"] if lay.cards else [], strict=True):
                if card is not None:
                    assert box.h >= lay.card_plans[card["where"]].height(), card["name"]


def _without_band(v: dict[str, Any]) -> bool:
    """No Other World, no roll, no die held by a lock: nothing for a lower band."""
    return (v["phase"] == "normal" and not v["over"] and not v["other_worlds"] and not v["adventure"]
            and all(v["adventures"]) and not any(lk["die"] for lk in v["locks"])
            and not any(d["loc"] == "secured" for d in v["dice"]))


def test_cards_grow_into_the_space_below_and_a_legend_closes_the_column() -> None:
    view = _find(_without_band)
    lay = table_layout(view)
    assert not lay.band and lay.legend is not None
    assert lay.legend.bottom == lay.size[1] - 16  # the strip sits on the bottom margin
    assert lay.grid.bottom + 10 == lay.legend.y  # and the cards reach down to it: no empty band
    image = _image(render_table(view))
    assert _blobs(image, lay.legend, DOOM, min_area=80) == 1  # the doom token of the legend
    assert _count(image, lay.legend, (176, 92, 230), tol=20) > 40  # the monster-space ring


def test_dice_on_spells_appear_on_the_table_when_no_roll_is_on() -> None:
    view = _normal_view()
    view["adventure"] = None
    view["dice"] = [dict(d, loc="supply", face=None) for d in view["dice"]]
    view["dice"][0].update(loc="secured", face="lore", holder="es.item.test-spell")
    seat = view["investigators"][0]
    seat["spells_holding"] = {"Test Spell": 1}
    lay = table_layout(view)
    kinds = [k for k, _ in lay.band_items]
    assert "dice" in kinds
    box = lay.band[kinds.index("dice")]
    assert _blobs(_image(render_table(view)), box, DIE_COLOURS["green"], min_area=400) == 1


def _roll_view() -> dict[str, Any]:
    return _find(lambda v: v["adventure"] and v["adventure"]["where"] != "ao" and not v["over"]
                 and any(d["loc"] == "focused" for d in v["dice"]) and any(d["loc"] == "pool" for d in v["dice"]))


def test_the_roll_picture_says_who_where_and_shows_held_dice_apart() -> None:
    from bot.games.elder_sign.render.board import render_event, roll_context

    view = _roll_view()
    rolled = {d["id"]: d["face"] for d in view["dice"] if d["loc"] == "pool" and d["face"]}
    ctx = roll_context(view)
    assert ctx is not None
    current = next(s for s in view["investigators"] if s["seat"] == view["current"])
    card = next(c for c in view["adventures"] + view["other_worlds"] if c and c["where"] == view["adventure"]["where"])
    assert current["player"] in ctx.who and ctx.where == card["name"]
    assert len(ctx.todo) == len([t for t in card["tasks"] if not t["done"]]) or card["ordered"]
    held = [d for d in view["dice"] if d["loc"] in ("focused", "assisted", "secured") and d["face"]]
    assert len(ctx.held) == len(held) >= 1
    plain = _image(render_dice(dice_from_event({"dice": rolled})))
    png = render_event("dice.rolled", {"dice": rolled}, view)
    assert png is not None
    full = _image(png)
    assert full.height > plain.height + 100  # the heading, the tasks, the held row
    # the rolled dice are large (≈120 px) and the held ones small (≈64 px): count each size apart
    green_big = _blobs(full, None, DIE_COLOURS["green"], min_area=6000)
    green_all = _blobs(full, None, DIE_COLOURS["green"], min_area=1500)
    assert green_big == sum(1 for d in rolled if d.startswith("g"))
    assert green_all - green_big == sum(1 for d in held if d["color"] == "green")


def test_pictures_use_one_fixed_palette_without_dithering() -> None:
    pngs = [render_table(v) for v in _views(3, 3)[5:40:7]] + [render_dice([("green", "lore"), ("red", "wild")])]
    palettes = set()
    for png in pngs:
        image = Image.open(io.BytesIO(png))
        assert image.mode == "P"
        palettes.add(bytes(image.getpalette() or []))
    assert len(palettes) == 1, "every picture shares the same palette (no per-image quantisation)"
    palette = palettes.pop()
    colours = {tuple(palette[i:i + 3]) for i in range(0, 768, 3)}
    for named in (CARD_BG, HIGHLIGHT, DOOM, Theme.BG, Theme.TEXT, Theme.PANEL, *DIE_COLOURS.values()):
        assert named in colours, named
    # flat panels stay flat: the inside of a card is one colour, not a dither of two
    view = _normal_view()
    box = table_layout(view).cards[0]
    image = _image(render_table(view))
    patch = image.crop((box.x + 8, box.bottom - 60, box.x + 20, box.bottom - 50))
    assert len(set(patch.get_flattened_data())) == 1


def test_typed_and_plain_views_draw_the_same_table() -> None:
    """The renderer's input is the engine's typed view (ElderSignView); a plain copy draws the same pixels."""
    state, _ = api.new_game("elder-sign", [SeatSpec(seat=0, name="alice"), SeatSpec(seat=1, name="bob")], {}, 3)
    typed = api.view(state, None)
    assert type(typed).__name__ == "ElderSignView"
    assert render_table(typed) == render_table(typed.model_dump())


# ------------------------------------------------------------------------------------------------ issue 30

#: player names in scripts Lato lacks: DejaVu's (Cyrillic), the CJK font's (Chinese, Korean), the emoji font's
WORLD_NAMES = ["Ærwyn", "Дмитрий", "李雷", "🐙 Octavia", "김민준"]


def _ink(text: str) -> bytes:
    image = Image.new("L", (120, 60), 0)
    kit.draw_text(image, (10, 45), text, 32, 255, anchor="ls")  # type: ignore[arg-type]
    return image.tobytes()


def _boxed(text: str) -> set[str]:
    """The characters of `text` drawn as a font's empty box (no font had them)."""
    box = _ink(kit._MISSING)
    return {c for c in text if not c.isspace() and _ink(c) == box}


def test_player_names_in_any_script_are_drawn_not_boxed_on_both_boards() -> None:
    """Issue 30 item 14: a Chinese, Korean, Cyrillic or emoji name was drawn as "@??" (empty boxes) in the
    investigator panel. Every text either board draws, names included, is drawn with glyphs: a character
    Lato lacks comes from the fallback fonts."""
    from bot.games.elder_sign.render.inline import cache_clear, render_inline

    seats = [SeatSpec(seat=i, name=n) for i, n in enumerate(WORLD_NAMES)]
    state, _ = api.new_game("elder-sign", seats, {}, seed=3)
    rng = random.Random(1)
    for _ in range(30):
        prompt = api.prompts(state)[0]
        state, _ = api.apply(state, rng.choice(prompt.answers(prompt.seats[0])))
    view = api.view(state, None).model_dump()
    cache_clear()
    with kit.record_text() as drawn:
        render_table(view)
        render_inline(view)
    texts = {t for t, _ in drawn}
    for name in WORLD_NAMES:
        assert any(name in t for t in texts), name  # each name is on the picture (whole, in one text)
    assert {t: _boxed(t) for t in texts if _boxed(t)} == {}


def _locked_view() -> dict[str, Any]:
    """A table between adventures whose Mythos card holds a green die (Rules of Play, "Locked Dice": a lock
    icon on a Mythos card or a monster takes a die out of every roll until freed)."""
    view = _normal_view()
    view["adventure"] = None
    view["dice"] = [dict(d, loc="supply", face=None, holder=None) for d in view["dice"]]
    view["dice"][0].update(loc="locked", holder="L1")
    view["locks"] = [{"color": "green", "source": "Visitors from Dunwich", "die": view["dice"][0]["id"]}]
    return view


def test_a_die_locked_by_a_mythos_card_or_a_monster_is_drawn_locked_on_the_dice_row() -> None:
    """Issue 30 item 14: a die locked by the Mythos card (or a monster) was not drawn anywhere: the table's
    dice cell shows it padlocked, with what holds it."""
    view = _locked_view()
    lay = table_layout(view)
    kinds = [k for k, _ in lay.band_items]
    assert "dice" in kinds
    box = lay.band[kinds.index("dice")]
    with kit.record_text() as drawn:
        image = _image(render_table(view))
    # the padlocked die: a green square (lock_icon) in the dice cell, its sources named under it
    assert _blobs(image, box, DIE_COLOURS["green"], min_area=400) == 1
    assert any("Visitors from Dunwich" in t and t.startswith("by ") for t, _ in drawn)
    # a lock still waiting for a die holds nothing: nothing is drawn for it
    view["locks"][0]["die"] = None
    view["dice"][0].update(loc="supply", holder=None)
    assert "dice" not in [k for k, _ in table_layout(view).band_items]


def test_the_legend_explains_a_cards_terror_line() -> None:
    """Issue 30 item 14: the "Terror" line at a card's foot was not explained. Both forms of the legend (a
    cell of the lower band, a strip along the bottom) say when it fires (Rules of Play, "Terror Effects": on
    a failed roll that shows a terror face), uncut."""
    from bot.games.elder_sign.render import board

    in_cell = _locked_view()
    assert "legend" in [k for k, _ in table_layout(in_cell).band_items]
    strip = _find(_without_band)
    assert table_layout(strip).legend is not None
    for view in (in_cell, strip):
        board.clipped.clear()
        with kit.record_text() as drawn:
            render_table(view)
        texts = [t for t, _ in drawn]
        assert board.TERROR_LINE in texts and "Terror" in texts
        assert not [c for c in board.clipped if c[0] == "legend"]
