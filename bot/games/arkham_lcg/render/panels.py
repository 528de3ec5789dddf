"""The title strip and the side column of the card game's table picture: the act (objective, clues needed), the
agenda (doom in play against its threshold, as a bar of one segment per doom), the chaos bag's contents, the
last skill test (its tokens, value against difficulty), the victory display and the encounter deck.
"""

from __future__ import annotations

from collections.abc import Iterable

from PIL import Image, ImageDraw

from bot.games.arkham_lcg.render.style import (
    ACT_BG,
    AGENDA_BG,
    BIG,
    CLUE,
    DARK_INK,
    DOOM,
    GAP,
    NAME,
    SIDE_BOX,
    SMALL,
    TEXT,
    TITLE,
    TOKENS,
    TOP_BOX,
    WHITE,
    token_icon,
    token_name,
)
from bot.render.kit import (
    Box,
    Color,
    Theme,
    dim,
    draw_text,
    ellipsize,
    fit_size,
    panel,
    paste_icon,
    text_width,
    wrap,
)
from engine.arkham_lcg.view import LcgView, TestView

PAD = 12
CHIP = 28
SEG_GAP = 3
MAX_SEGMENTS = 24  # a longer agenda gets one continuous bar
EMPTY_EDGE: Color = dim(DOOM, 0.6)
PHASES = {"setup": "Setup", "mythos": "Mythos phase", "investigation": "Investigation phase",
          "enemy": "Enemy phase", "upkeep": "Upkeep phase", "between": "Between scenarios", "over": "Game over"}
SKILLS = {"willpower": "Willpower", "intellect": "Intellect", "combat": "Combat", "agility": "Agility"}


def side_boxes() -> dict[str, Box]:
    """The side column's panels, top to bottom."""
    heights = {"act": 160, "agenda": 116, "bag": 176, "test": 160}
    out: dict[str, Box] = {}
    y = SIDE_BOX.y
    for name, h in heights.items():
        out[name] = Box(SIDE_BOX.x, y, SIDE_BOX.w, h)
        y += h + GAP
    out["victory"] = Box(SIDE_BOX.x, y, SIDE_BOX.w, SIDE_BOX.bottom - y)
    return out


def doom_bar_box() -> Box:
    agenda = side_boxes()["agenda"].inset(PAD)
    return Box(agenda.x, agenda.y + 34, agenda.w, 24)


def doom_segments(view: LcgView) -> list[tuple[Box, bool]]:
    """The doom bar's segments and whether each is filled: one per doom of the threshold (a continuous bar,
    as one segment per pixel column group, past MAX_SEGMENTS); doom beyond the threshold fills them all."""
    bar = doom_bar_box()
    n = view.doom_threshold
    if n <= 0:
        return []
    if n > MAX_SEGMENTS:
        filled = bar.w * min(view.doom_in_play, n) // n
        out = [(Box(bar.x, bar.y, filled, bar.h), True)] if filled else []
        return out + ([(Box(bar.x + filled, bar.y, bar.w - filled, bar.h), False)] if filled < bar.w else [])
    segs = []
    for i in range(n):
        x0 = bar.x + i * (bar.w + SEG_GAP) // n
        x1 = bar.x + (i + 1) * (bar.w + SEG_GAP) // n - SEG_GAP
        segs.append((Box(x0, bar.y, x1 - x0, bar.h), i < view.doom_in_play))
    return segs


def _label(image: Image.Image, xy: tuple[int, int], text: str, colour: Color) -> int:
    draw_text(image, xy, text, SMALL, colour, bold=True)
    return xy[0] + text_width(text, SMALL, True) + 8


def draw_chip(image: Image.Image, xy: tuple[int, int], token: str, size: int = CHIP) -> None:
    """A chaos token: its face, and a number token's value written on it."""
    paste_icon(image, token_icon(token, size), xy)
    if token not in TOKENS:
        # a number shows its value; a kind this picture has no face for, its first letters
        text = token if token.lstrip("+-").isdigit() else token[:2].capitalize()
        draw_text(image, (xy[0] + size // 2, xy[1] + size // 2), text, max(SMALL - 2, size // 2), WHITE, bold=True,
                  anchor="mm")


def bag_order(tokens: Iterable[str]) -> list[str]:
    """Numbers from high to low, then the symbols in a fixed order, then anything else by name."""
    symbols = list(TOKENS)

    def key(t: str) -> tuple[int, float, str]:
        if t not in TOKENS:
            try:
                return (0, -int(t), t)
            except ValueError:
                return (2, 0, t)
        return (1, symbols.index(t), t)

    return sorted(tokens, key=key)


# ================================================================================================ the panels

def draw_top(image: Image.Image, draw: ImageDraw.ImageDraw, view: LcgView, title: str, subtitle: str,
             right_text: str, right_colour: Color = Theme.TEXT) -> None:
    panel(draw, TOP_BOX, Theme.PANEL, outline=Theme.PANEL_EDGE, radius=10)
    inner = TOP_BOX.inset(14, 0)
    mid = inner.y + inner.h // 2
    right_w = text_width(right_text, NAME, True)
    draw_text(image, (inner.right, mid), right_text, NAME, right_colour, bold=True, anchor="rm")
    room = inner.w - right_w - 24
    name = ellipsize(title, BIG, room, True)
    draw_text(image, (inner.x, mid), name, BIG, Theme.TEXT, bold=True, anchor="lm")
    x = inner.x + text_width(name, BIG, True) + 14
    if subtitle and x + 60 < inner.x + room:
        draw_text(image, (x, mid + 2), ellipsize(subtitle, TEXT, inner.x + room - x), TEXT, Theme.MUTED, anchor="lm")


def _title(image: Image.Image, xy: tuple[int, int], name: str, room: int) -> None:
    """An act's or agenda's name: smaller rather than cut (down to the body text's size)."""
    size = fit_size(name, room, (TITLE, TITLE - 2, NAME, TEXT), bold=True)
    draw_text(image, (xy[0], xy[1] + (TITLE - size) // 2), ellipsize(name, size, room, True), size, Theme.TEXT,
              bold=True)


def _act(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, view: LcgView) -> None:
    panel(draw, box, ACT_BG, outline=Theme.PANEL_EDGE, radius=10)
    inner = box.inset(PAD)
    x = _label(image, (inner.x, inner.y + 3), "ACT", Theme.ACCENT)
    _title(image, (x, inner.y), view.act or "No act", inner.right - x)
    y = inner.y + 32
    lines = wrap(view.act_objective, TEXT, inner.w, max_lines=3) if view.act_objective else []
    for line in lines:
        draw_text(image, (inner.x, y), line, TEXT, Theme.TEXT)
        y += TEXT + 5
    held = sum(i.clues for i in view.investigators if i.status == "playing")
    bottom = inner.bottom - 20
    if view.act_clues > 0:
        draw.ellipse((inner.x, bottom, inner.x + 19, bottom + 19), fill=CLUE, outline=DARK_INK, width=1)
        text = f"{view.act_clues} clue{'s' if view.act_clues != 1 else ''} needed · investigators hold {held}"
        draw_text(image, (inner.x + 27, bottom + 10), ellipsize(text, TEXT, inner.w - 27), TEXT,
                  Theme.GOOD if held >= view.act_clues else CLUE, bold=True, anchor="lm")
    elif view.act:
        draw_text(image, (inner.x, bottom + 10), "Advances by its objective", TEXT, Theme.MUTED, anchor="lm")


def _agenda(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, view: LcgView) -> None:
    panel(draw, box, AGENDA_BG, outline=Theme.PANEL_EDGE, radius=10)
    inner = box.inset(PAD)
    x = _label(image, (inner.x, inner.y + 3), "AGENDA", Theme.ACCENT)
    _title(image, (x, inner.y), view.agenda or "No agenda", inner.right - x)
    bar = doom_bar_box()
    draw.rounded_rectangle(bar.inset(-2).rect(), radius=5, fill=Theme.BAR_BACK)
    for seg, filled in doom_segments(view):
        draw.rounded_rectangle(seg.rect(), radius=3, fill=DOOM if filled else Theme.BAR_BACK, outline=EMPTY_EDGE,
                               width=1)
    over = view.doom_threshold > 0 and view.doom_in_play >= view.doom_threshold
    text = f"Doom {view.doom_in_play} of {view.doom_threshold}" if view.doom_threshold else "No doom threshold"
    elsewhere = view.doom_in_play - view.agenda_doom
    if view.doom_threshold and elsewhere > 0:
        text += f" · {view.agenda_doom} on the agenda, {elsewhere} elsewhere"
    draw_text(image, (inner.x, bar.bottom + 8), ellipsize(text, TEXT, inner.w), TEXT,
              Theme.BAD if over else Theme.TEXT, bold=over)


def draw_bag(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, view: LcgView) -> None:
    panel(draw, box, Theme.PANEL, outline=Theme.PANEL_EDGE, radius=10)
    inner = box.inset(PAD)
    total = sum(view.bag.values())
    x = _label(image, (inner.x, inner.y + 3), "CHAOS BAG", Theme.ACCENT)
    draw_text(image, (x, inner.y + 2), f"{total} token{'s' if total != 1 else ''}", TEXT, Theme.MUTED)
    x, y = inner.x, inner.y + 30
    for token in bag_order(view.bag):
        count = view.bag[token]
        label = f"×{count}" if token not in TOKENS else f"{token_name(token)} ×{count}"
        w = CHIP + 6 + text_width(label, SMALL) + 14
        if x + w > inner.right and x > inner.x:
            x, y = inner.x, y + CHIP + 6
        if y + CHIP > inner.bottom:
            break
        draw_chip(image, (x, y), token)
        draw_text(image, (x + CHIP + 5, y + CHIP // 2), label, SMALL, Theme.TEXT, anchor="lm")
        x += w


def _test(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, view: LcgView) -> None:
    panel(draw, box, Theme.PANEL, outline=Theme.PANEL_EDGE, radius=10)
    inner = box.inset(PAD)
    t = view.test or view.last_test  # the test under way, else the last one's result
    x = _label(image, (inner.x, inner.y + 3), "SKILL TEST" if view.test else "LAST TEST", Theme.ACCENT)
    if t is None:
        draw_text(image, (x, inner.y + 2), "none under way", TEXT, Theme.FAINT)
        return
    who = next((i for i in view.investigators if i.seat == t.seat), None)
    name = f"{who.player} ({who.name})" if who else f"Seat {t.seat + 1}"
    draw_text(image, (x, inner.y + 2), ellipsize(name, TEXT, inner.right - x), TEXT, Theme.TEXT, bold=True)
    what = SKILLS.get(t.skill, t.skill.capitalize()) + (f" ({t.action})" if t.action else "")
    draw_text(image, (inner.x, inner.y + 28), ellipsize(f"{what} against difficulty {t.difficulty}", TEXT,
                                                         inner.w), TEXT, Theme.TEXT)
    y = inner.y + 54
    x = inner.x
    for token in t.tokens:
        if x + CHIP > inner.right - 60:
            break
        draw_chip(image, (x, y), token)
        x += CHIP + 6
    names = ", ".join(token_name(tok) for tok in t.tokens) or "no token yet"
    draw_text(image, (x + 2, y + CHIP // 2), ellipsize(names, SMALL, max(10, inner.right - x - 2)), SMALL,
              Theme.MUTED, anchor="lm")
    y += CHIP + 8
    line, colour = verdict_line(t)
    draw_text(image, (inner.x, y), ellipsize(line, NAME, inner.w, True), NAME, colour, bold=True)
    if t.committed:
        line = "Committed: " + ", ".join(c.name for c in t.committed)
        draw_text(image, (inner.x, inner.bottom - SMALL - 2), ellipsize(line, SMALL, inner.w), SMALL, Theme.MUTED)


def verdict_line(t: TestView) -> tuple[str, Color]:
    """The test's last line: its modified value against the difficulty once a token has fixed the value (Rules
    Reference, Skill Tests: the value is known only after the token is revealed and resolved), before that
    what the test waits for."""
    if t.success is not None:
        ok = ("success", Theme.GOOD) if t.success else ("failure", Theme.BAD)
        return f"Value {t.value} vs {t.difficulty}: {ok[0]}", ok[1]
    if not t.tokens:
        return "Value known once the token is drawn", Theme.ACCENT
    return f"Value {t.value} vs {t.difficulty}: resolving", Theme.ACCENT


def _victory(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, view: LcgView) -> None:
    panel(draw, box, Theme.PANEL, outline=Theme.PANEL_EDGE, radius=10)
    inner = box.inset(PAD)
    deck = f"Encounter deck {view.encounter_deck} · discard {len(view.encounter_discard)}"
    draw_text(image, (inner.x, inner.bottom - TEXT - 2), ellipsize(deck, TEXT, inner.w), TEXT, Theme.MUTED)
    bottom = inner.bottom - TEXT - 10
    if view.encounter_discard:
        top = f"Last discarded: {view.encounter_discard[-1].name}"
        bottom -= SMALL + 6
        draw_text(image, (inner.x, bottom), ellipsize(top, SMALL, inner.w), SMALL, Theme.FAINT)
    x = _label(image, (inner.x, inner.y + 3), "VICTORY DISPLAY", Theme.ACCENT)
    if not view.victory:
        draw_text(image, (x, inner.y + 2), "empty", TEXT, Theme.FAINT)
        return
    y = inner.y + 30
    room = max(0, (bottom - 4 - y) // (TEXT + 5))
    cards = view.victory
    for k, card in enumerate(cards[:room]):
        if k == room - 1 and len(cards) > room:
            draw_text(image, (inner.x, y), f"+{len(cards) - k} more", TEXT, Theme.MUTED)
            break
        draw_text(image, (inner.x, y), ellipsize(card.name, TEXT, inner.w), TEXT, Theme.TEXT)
        y += TEXT + 5


def draw_side(image: Image.Image, draw: ImageDraw.ImageDraw, view: LcgView) -> dict[str, Box]:
    boxes = side_boxes()
    _act(image, draw, boxes["act"], view)
    _agenda(image, draw, boxes["agenda"], view)
    draw_bag(image, draw, boxes["bag"], view)
    _test(image, draw, boxes["test"], view)
    _victory(image, draw, boxes["victory"], view)
    return boxes


def phase_text(view: LcgView) -> str:
    phase = PHASES.get(view.phase, view.phase.capitalize())
    text = f"Round {view.round} · {phase}" if view.round else phase
    who = next((i for i in view.investigators if i.seat == view.turn), None)
    if who is not None and view.phase == "investigation":
        text += f" · {who.player}'s turn"
    return text

