"""The recorded channel board (`bot/render/scene.py`, issue 29 item 5: "Cheaper pictures").

A channel board is recorded as drawing steps, and only the bands of rows whose steps were not met in an
earlier board are drawn, mapped to the palette and compressed. These tests hold it to the one promise that
matters to players: the file is the picture drawn whole, byte for byte, step after step of a game.
"""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from PIL import Image, ImageDraw, ImageFont

from bot.render import kit, scene
from bot.render.kit import BAND_ROWS, Theme
from tests.bot.test_render_inline import MODULES, views


def _forget() -> None:
    kit.PARTS.clear()
    kit.BANDS.clear()
    scene.SCENE_BANDS.clear()
    scene.PIECES.clear()


@pytest.mark.parametrize("game", sorted(MODULES))
def test_a_recorded_board_is_the_whole_picture_byte_for_byte(game: str) -> None:
    """Over a game's boards in a channel's order, the file made band by band from the recorded steps (kept
    bands taken, the rest drawn alone) is the very file the whole picture gives (`kit.to_png`), and kept
    bands were taken."""
    module = MODULES[game]
    palette = module._palette()
    _forget()
    taken = 0
    for view in views(game, 3):
        recorded = module._scene(module._as_view(view) if hasattr(module, "_as_view") else view)
        before = len(scene.SCENE_BANDS)
        png = recorded.png(palette)
        taken += len(scene.SCENE_BANDS) - before < -(-recorded.height // BAND_ROWS)
        whole = recorded.image()
        assert png == kit.to_png(whole, palette)
        assert Image.open(io.BytesIO(png)).convert("RGB").tobytes() == \
            whole.quantize(palette=palette, dither=Image.Dither.NONE).convert("RGB").tobytes()
    assert taken


def test_a_scene_draws_what_the_same_calls_draw_on_a_picture() -> None:
    """Pastes (a kept icon, a picture not kept, a colour through a text mask), shapes and text recorded in a
    scene give the picture the same calls give drawn directly, also when only some bands are drawn."""
    def paint(image: Any) -> None:
        draw = kit.draw_of(image)
        draw.rounded_rectangle((10, 5, 200, 60), radius=12, fill=Theme.PANEL, outline=Theme.ACCENT, width=3)
        draw.ellipse((150, 40, 190, 80), fill=Theme.GOOD, outline=Theme.TEXT, width=2)
        draw.line([(0, 90), (299, 20)], fill=Theme.BAD, width=4)
        draw.polygon([(20, 70), (60, 100), (5, 110)], fill=Theme.SANITY)
        kit.draw_text(image, (20, 20), "Round 3 · Action", 24, Theme.TEXT, bold=True)
        kit.paste_icon(image, kit.icon("test-dot", 24, lambda im: ImageDraw.Draw(im).ellipse(
            (0, 0, im.width - 1, im.height - 1), fill=(200, 50, 50, 255))), (250, 70))
        loose = Image.new("RGB", (30, 12), Theme.STAMINA)
        image.paste(loose, (260, 10))
    direct = Image.new("RGB", (300, 120), Theme.BG)
    paint(direct)
    recorded = scene.Scene((300, 120), Theme.BG)
    paint(recorded)
    assert recorded.image().tobytes() == direct.tobytes()
    palette = kit.build_palette([Theme.BG, Theme.PANEL, Theme.ACCENT, Theme.GOOD, Theme.TEXT, Theme.BAD,
                                 Theme.SANITY, Theme.STAMINA, (200, 50, 50)])
    _forget()
    assert recorded.png(palette) == kit.to_png(direct, palette)


def test_a_scene_refuses_a_drawing_call_it_cannot_record() -> None:
    recorded = scene.Scene((50, 50), Theme.BG)
    with pytest.raises(AttributeError, match="does not support"):
        kit.draw_of(recorded).text((0, 0), "x")  # text goes through kit.draw_text
    assert kit.draw_of(recorded).textlength("abc", font=kit.font(20)) > 0  # measuring is answered


def test_a_part_changed_in_one_band_keeps_the_other_bands_labels() -> None:
    """`scene.PIECES`: a new card pasted where another was takes the older card's label for every band of
    rows that is equal; a card equal to one seen a few steps before takes all of its labels again; the
    same card at another place is labelled apart."""
    _forget()
    place = (20, 40, 120, 5 * BAND_ROWS)
    first = kit.keep(Image.new("RGB", place[2:], Theme.PANEL))
    changed = first.copy()
    ImageDraw.Draw(changed).rectangle((10, 30, 30, 32), fill=Theme.BAD)  # rows 70-72 of the picture: band 4
    changed = kit.keep(changed)
    a = scene.PIECES.of(place, first, None)
    b = scene.PIECES.of(place, changed, None)
    differing = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
    assert differing == [2] and len(a) == 6  # rows 40-119 fall in bands 2 to 7
    again = kit.keep(first.copy())  # the first card drawn anew: a new image with the same pixels
    assert scene.PIECES.of(place, again, None) == a


def test_rounded_rectangles_from_kept_masks_have_pillows_pixels() -> None:
    """`kit.Draw.rounded_rectangle` (every panel, chip and tag of a card) sets the pixels
    `ImageDraw.rounded_rectangle` sets: any size, radius and outline, partly off the picture."""
    rnd = random.Random(11)
    for n in range(1500):
        x0, y0 = rnd.randint(-20, 100), rnd.randint(-20, 80)
        xy = (x0, y0, x0 + rnd.randint(0, 60), y0 + rnd.randint(0, 50))
        fill = rnd.choice([None, (200, 10, 10), (1, 2, 3)])
        options = dict(radius=rnd.choice([0, 1, 2, 5, 8, 12, 19, 40, rnd.uniform(0, 30)]), fill=fill,
                       outline=rnd.choice([None, (20, 200, 20), fill]), width=rnd.choice([0, 1, 2, 3, 4]))
        pillow = Image.new("RGB", (120, 90), (10, 20, 30))
        ours = pillow.copy()
        ImageDraw.Draw(pillow).rounded_rectangle(xy if n % 2 else (xy[:2], xy[2:]), **options)
        kit.Draw(ours).rounded_rectangle(xy if n % 2 else (xy[:2], xy[2:]), **options)
        assert ours.tobytes() == pillow.tobytes(), (xy, options)


def test_a_line_of_words_met_before_needs_no_glyph_drawn(monkeypatch: pytest.MonkeyPatch) -> None:
    """A board's round line changes at every step ("Round 7 · Action Phase · Alice"); it is put together
    from its words' masks, so a line with one new word asks FreeType for that word alone (the pixels are
    FreeType's own: test_render_fonts)."""
    kit._text_mask.cache_clear()
    kit._word_mask.cache_clear()
    image = Image.new("RGB", (700, 60), Theme.PANEL)
    kit.draw_text(image, (10, 10), "Round 6 · Action Phase · Alice", 26, Theme.TEXT, bold=True)
    rendered: list[str] = []
    original = ImageFont.FreeTypeFont.getmask2

    def counted(self: ImageFont.FreeTypeFont, text: str, *args: Any, **kwargs: Any) -> Any:
        rendered.append(text)
        return original(self, text, *args, **kwargs)

    monkeypatch.setattr(ImageFont.FreeTypeFont, "getmask2", counted)
    kit.draw_text(image, (10, 10), "Round 7 · Action Phase · Alice", 26, Theme.TEXT, bold=True)
    assert rendered == ["7"]  # Lato's digits are equally wide: the words after it stand where they stood


def test_a_band_compresses_to_the_same_bytes_whatever_ran_before_and_beside_it() -> None:
    """The publisher tells an unchanged board by its file's bytes ("not posted again"), so compressing a band
    must depend on the band alone: not on what was compressed before it, at another level, or at the same
    time in another thread (renders run in worker threads)."""
    from concurrent.futures import ThreadPoolExecutor

    module = MODULES["eldritch"]
    palette = module._palette()
    view = views("eldritch", 1)[-1]
    recorded = module._scene(module._as_view(view) if hasattr(module, "_as_view") else view)
    indices = recorded.image().quantize(palette=palette, dither=Image.Dither.NONE).tobytes()
    width, band_bytes = recorded.width, recorded.width * BAND_ROWS
    bands = [indices[at:at + band_bytes] for at in range(0, len(indices), band_bytes)]
    first = [kit._deflated(band, width, 3, b"").deflated for band in bands]
    rnd = random.Random(29)

    def again(seed: int) -> list[bool]:
        order = random.Random(seed).sample(range(len(bands)), len(bands))
        same = []
        for i in order:
            kit._deflated(rnd.randbytes(rnd.randint(1, 40_000)), 100, rnd.choice([1, 3, 6, 9]), b"")
            same.append(kit._deflated(bands[i], width, 3, b"").deflated == first[i])
        return same

    with ThreadPoolExecutor(4) as pool:
        results = [ok for same in pool.map(again, range(8)) for ok in same]
    assert len(results) == 8 * len(bands) and all(results)
