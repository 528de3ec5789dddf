"""Player names in any script the shipped fonts cover are drawn, not boxed (issue 8, "Names"): Lato draws
Latin; DejaVu Sans draws what Lato lacks (Greek, Cyrillic, Hebrew …), on the same baseline."""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.render import kit


def _ink(text: str) -> bytes:
    image = Image.new("L", (400, 80), 0)
    kit.draw_text(image, (10, 60), text, 32, 255, anchor="ls")  # type: ignore[arg-type]
    return image.tobytes()


def test_plain_latin_text_is_one_lato_run() -> None:
    assert kit.runs("Ada Whitcombe") == (("Ada Whitcombe", False),)
    assert kit.runs("Łódź Tomás") == (("Łódź Tomás", False),)  # Lato's Western+Polish set


def test_letters_lato_lacks_go_to_the_fallback_font() -> None:
    assert kit.runs("Иван and Σοφία") == (("Иван", True), (" and ", False), ("Σοφία", True))
    boxes = _ink(kit._MISSING * 4)
    assert _ink("Иван") != boxes and _ink("Σοφία") != boxes
    assert kit.text_width("Иван", 32) > 0


def test_mixed_text_keeps_one_baseline_and_its_anchor() -> None:
    # the same word drawn alone and after a Latin prefix sits on the same baseline: equal bottom rows of ink
    def lowest_row(text: str) -> int:
        image = Image.new("L", (600, 120), 0)
        kit.draw_text(image, (10, 80), text, 32, 255, anchor="ls")  # type: ignore[arg-type]
        box = image.getbbox()
        assert box is not None
        return box[3]

    assert abs(lowest_row("Иван") - lowest_row("Ivan Иван")) <= 1
    centred = Image.new("L", (600, 120), 0)
    kit.draw_text(centred, (300, 60), "Σοφία", 32, 255, anchor="mm")  # type: ignore[arg-type]
    box = centred.getbbox()
    assert box is not None and abs((box[0] + box[2]) / 2 - 300) <= 3 and abs((box[1] + box[3]) / 2 - 60) <= 6


def test_chinese_korean_and_emoji_names_come_from_the_cjk_and_emoji_fonts() -> None:
    """Issue 30 item 14: "李雷" was drawn as two empty boxes ("@??"). Characters neither Lato nor DejaVu has go
    to the CJK font (Chinese, Japanese, Korean) or the emoji font; the invisible characters that only shape
    an emoji (variation selector, skin tone) are left out rather than boxed."""
    assert kit.runs("李雷") == (("李雷", kit.FONT_CHAIN.index("cjk")),)
    assert kit.runs("김민준")[0][1] == kit.FONT_CHAIN.index("cjk")
    assert kit.runs("🐙 Octavia") == (("🐙", kit.FONT_CHAIN.index("emoji")), (" Octavia", 0))
    assert kit.runs("👍🏽") == kit.runs("👍") and kit.runs("❤️") == kit.runs("❤")
    boxes = _ink(kit._MISSING * 2)
    for name in ("李雷", "김민준", "🐙"):
        assert _ink(name) != boxes and _ink(name).count(0) < len(_ink("")), name


def test_a_text_is_drawn_with_the_pixels_pillow_draws_it_with() -> None:
    """Text masks are taken straight from FreeType's rendering (`kit._text_mask`), not measured first and
    drawn with `ImageDraw.text`: every size, weight, anchor and outline the boards use gives the very pixels
    `ImageDraw.text` gives, on a panel colour, kerned pairs, ligature candidates and accents included."""
    kit._text_mask.cache_clear()
    texts = ["Round 10 · Action Phase · Alice · Awakened", "fi fl ffi Wave AV To.", "12", "g", "Ág ÿ", "…", "1/3"]
    for text in texts:
        for size in (12, 18, 24, 26, 46):
            for bold in (False, True):
                for anchor in ("la", "mm", "mt", "lm", "rs", "ms", "ls", "rb", "md"):
                    for stroke in (0, 3):
                        ours = Image.new("RGB", (900, 120), kit.Theme.PANEL)
                        kit.draw_text(ours, (450, 60), text, size, kit.Theme.TEXT, bold, anchor, stroke,
                                      kit.Theme.BG if stroke else None)
                        pillows = Image.new("RGB", (900, 120), kit.Theme.PANEL)
                        font = kit.font(size, bold)
                        draw = ImageDraw.Draw(pillows)
                        if stroke:
                            draw.text((450, 60), text, fill=kit.Theme.BG, font=font, anchor=anchor,
                                      stroke_width=stroke)
                        draw.text((450, 60), text, fill=kit.Theme.TEXT, font=font, anchor=anchor)
                        assert ours.tobytes() == pillows.tobytes(), (text, size, bold, anchor, stroke)
