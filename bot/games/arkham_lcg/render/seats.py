"""One panel per investigator under the table, in seat order: the seat's token (colour and initials as on the
table), the investigator and player, the class's colour as a stripe, tags (lead, turn, out of the scenario),
damage against health and horror against sanity, resources, clues, actions left, the four skills, hand, deck
and discard sizes (never the hand's cards: the picture is a spectator's), enemies engaged, then the play area
(assets with their uses, damage, horror, doom, exhausted) and the threat area.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.games.arkham_lcg.render.map import draw_token
from bot.games.arkham_lcg.render.style import (
    CLUE,
    ENEMY_EDGE,
    GAP,
    NAME,
    RESOURCE,
    SEAT_BG,
    SEAT_OUT,
    SEATS_BOX,
    SKILL_COLOURS,
    SMALL,
    TAG_INK,
    TAG_LEAD,
    TAG_OUT,
    TAG_TURN,
    TEXT,
    THREAT,
    class_colour,
    initials,
)
from bot.render.kit import Box, Color, Theme, bar, draw_text, ellipsize, fit_size, panel, pips, text_width
from engine.arkham_lcg.view import CardView, InvestigatorView, LcgView

STRIPE = 6
DISC = 34
LINE = 19  # a card line's height
WIDE = 500  # a panel at least this wide puts its cards in a second column
SKILL_SHORT = {"willpower": "Wil", "intellect": "Int", "combat": "Com", "agility": "Agi"}
STATUS = {"resigned": "Resigned", "defeated_damage": "Defeated (damage)", "defeated_horror": "Defeated (horror)",
          "defeated": "Defeated"}


def seat_boxes(view: LcgView) -> list[Box]:
    """Each investigator's panel, side by side in seat order."""
    n = len(view.investigators)
    return SEATS_BOX.split_cols(n, GAP) if n else []


def _tag(image: Image.Image, draw: ImageDraw.ImageDraw, right: int, y: int, text: str, fill: Color) -> int:
    w = text_width(text, SMALL, True) + 12
    draw.rounded_rectangle((right - w, y, right, y + 20), radius=10, fill=fill)
    draw_text(image, (right - w // 2, y + 10), text, SMALL, TAG_INK, bold=True, anchor="mm")
    return right - w - 5


def card_line(card: CardView) -> tuple[str, str]:
    """A card in play as (its name, what is on it): "3 uses, 1 damage, exhausted"."""
    bits = []
    if card.uses:
        bits.append(f"{card.uses} use{'s' if card.uses != 1 else ''}")
    if card.damage:
        bits.append(f"{card.damage} dmg")
    if card.horror:
        bits.append(f"{card.horror} hor")
    if card.doom:
        bits.append(f"{card.doom} doom")
    if card.exhausted:
        bits.append("exhausted")
    return card.name, ", ".join(bits)


def _cards(image: Image.Image, box: Box, y: int, title: str, cards: list[CardView], ink: Color,
           lines_left: int) -> tuple[int, int]:
    """A titled list of cards from `y`; returns the y after it and the lines still free."""
    if not cards or lines_left <= 0:
        return y, lines_left
    draw_text(image, (box.x, y), f"{title} ({len(cards)})", SMALL, Theme.MUTED, bold=True)
    y += LINE
    lines_left -= 1
    for k, card in enumerate(cards):
        if lines_left <= 0:
            break
        if lines_left == 1 and k < len(cards) - 1:
            draw_text(image, (box.x + 8, y), f"+{len(cards) - k} more", SMALL, Theme.MUTED)
            return y + LINE, 0
        name, extra = card_line(card)
        colour = Theme.MUTED if card.exhausted else ink
        extra_w = text_width(extra, SMALL - 1) + 8 if extra else 0
        shown = ellipsize(name, SMALL, max(30, box.w - 8 - extra_w))
        draw_text(image, (box.x + 8, y), shown, SMALL, colour)
        if extra:
            x = box.x + 8 + text_width(shown, SMALL) + 8
            draw_text(image, (x, y + 1), ellipsize(extra, SMALL - 1, max(10, box.right - x)), SMALL - 1,
                      Theme.FAINT if card.exhausted else Theme.MUTED)
        y += LINE
        lines_left -= 1
    return y + 3, lines_left


def _draw_panel(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, inv: InvestigatorView,
                view: LcgView) -> None:
    out = inv.status != "playing"
    colour = class_colour(inv.cls)
    turn = view.turn == inv.seat and not out
    panel(draw, box, SEAT_OUT if out else SEAT_BG, outline=Theme.TEXT if turn else Theme.PANEL_EDGE,
          width=3 if turn else 2, radius=10)
    draw.rectangle((box.x + 3, box.y + 10, box.x + 2 + STRIPE, box.bottom - 11), fill=colour)
    inner = Box(box.x + STRIPE + 10, box.y + 8, box.w - STRIPE - 20, box.h - 16)
    draw_token(image, draw, (inner.x, inner.y), inv.seat, initials(inv.player), DISC)
    right = inner.right
    tags: list[tuple[str, Color]] = []
    if inv.seat == view.lead:
        tags.append(("Lead", TAG_LEAD))
    if turn:
        tags.append(("Turn", TAG_TURN))
    if out:
        tags.append((STATUS.get(inv.status, inv.status.capitalize()), TAG_OUT))
    x = inner.x + DISC + 8
    for text, fill in tags:
        if right - text_width(text, SMALL, True) - 12 < x + 60:
            break
        right = _tag(image, draw, right, inner.y, text, fill)
    size = fit_size(inv.name, right - x - 4, (NAME, TEXT, SMALL), bold=True)
    draw_text(image, (x, inner.y - 3 + (NAME - size) // 2), ellipsize(inv.name, size, right - x - 4, True), size,
              Theme.MUTED if out else Theme.TEXT, bold=True)
    cls = inv.cls.capitalize()
    cls_w = text_width(cls, SMALL, True)
    player = ellipsize(inv.player, SMALL, max(20, inner.right - x - cls_w - 12))
    draw_text(image, (x, inner.y + 19), player, SMALL, Theme.MUTED)
    draw_text(image, (x + text_width(player, SMALL) + 8, inner.y + 19), cls, SMALL, colour, bold=True)
    y = inner.y + DISC + 8
    wide = inner.w >= WIDE
    stats = Box(inner.x, y, min(inner.w, 330) if wide else inner.w, inner.bottom - y)
    bw = (stats.w - 8) // 2
    bar(image, draw, Box(stats.x, y, bw, 22), inv.damage, inv.health, Theme.STAMINA, "Dmg", size=SMALL)
    bar(image, draw, Box(stats.x + bw + 8, y, bw, 22), inv.horror, inv.sanity, Theme.SANITY, "Hor", size=SMALL)
    y += 30
    x = stats.x
    for text, ink in ((f"{inv.resources} res", RESOURCE), (f"{inv.clues} clue{'s' if inv.clues != 1 else ''}", CLUE)):
        draw_text(image, (x, y), text, TEXT, ink, bold=True)
        x += text_width(text, TEXT, True) + 12
    if not out and x + 40 < stats.right:
        total = max(3, inv.actions)
        radius = 6 if x + total * 16 < stats.right else 4
        pips(draw, (x, y + 4), total, inv.actions, radius, Theme.ACCENT, Theme.FAINT, gap=3)
    y += 24
    x = stats.x
    for skill, short in SKILL_SHORT.items():
        draw_text(image, (x, y), short, SMALL, SKILL_COLOURS[skill])
        x += text_width(short, SMALL) + 4
        value = str(inv.skills.get(skill, 0))
        draw_text(image, (x, y - 1), value, TEXT, Theme.TEXT, bold=True)
        x += text_width(value, TEXT, True) + 12
    y += 23
    counts = f"Hand {inv.hand_size} · Deck {inv.deck_size} · Discard {len(inv.discard)}"
    draw_text(image, (stats.x, y), ellipsize(counts, SMALL, stats.w), SMALL, Theme.MUTED)
    y += 22
    engaged = [e for e in view.enemies if e.engaged == inv.seat]
    if engaged:
        line = "Engaged: " + ", ".join(f"{e.name} {e.damage}/{e.health}" for e in engaged)
        draw_text(image, (stats.x, y), ellipsize(line, SMALL, stats.w), SMALL, ENEMY_EDGE, bold=True)
        y += 22
    cards = Box(stats.right + 16, inner.y + DISC + 8, inner.right - stats.right - 16, 0) if wide else \
        Box(stats.x, y, stats.w, 0)
    y = cards.y
    lines = max(0, (inner.bottom - y) // LINE)
    if cards.w >= 2 * WIDE:  # a lone investigator's panel: the play and threat areas side by side
        half = (cards.w - 16) // 2
        _cards(image, Box(cards.x, y, half, 0), y, "In play", inv.play, Theme.TEXT, lines)
        _cards(image, Box(cards.x + half + 16, y, half, 0), y, "Threat area", inv.threat, THREAT, lines)
    else:
        y, lines = _cards(image, cards, y, "In play", inv.play, Theme.TEXT, lines)
        _cards(image, cards, y, "Threat area", inv.threat, THREAT, (inner.bottom - y) // LINE)
    if not inv.play and not inv.threat and lines > 0:
        draw_text(image, (cards.x, y), "Nothing in play", SMALL, Theme.FAINT)


def draw_seats(image: Image.Image, draw: ImageDraw.ImageDraw, view: LcgView) -> list[Box]:
    boxes = seat_boxes(view)
    for box, inv in zip(boxes, view.investigators, strict=True):
        _draw_panel(image, draw, box, inv, view)
    if not boxes:
        panel(draw, SEATS_BOX, SEAT_OUT, radius=10)
        draw_text(image, SEATS_BOX.center, "No investigators", TEXT, Theme.MUTED, anchor="mm")
    return boxes

