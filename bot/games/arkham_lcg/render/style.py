"""Sizes, colours and chaos-token faces of the card game's table picture, shared by its modules.

Every colour the picture draws with is named here, because the PNG is encoded on one fixed palette built from
these lists (`palette`): a colour used anywhere else would be mapped to its nearest neighbour.
"""

from __future__ import annotations

import math
from functools import cache

from PIL import Image, ImageDraw

from bot.render.kit import Box, Color, Theme, blend_ramps, build_palette, dim, icon, mix

WIDTH, HEIGHT = 1600, 1000
MARGIN = 12
GAP = 10
TOP_H = 50  # the title strip: scenario, round and phase
LEFT_W = 1090  # the table (locations) and the investigators under it; the side column takes the rest
MAP_H = 540

TOP_BOX = Box(MARGIN, MARGIN, WIDTH - 2 * MARGIN, TOP_H)
MAP_BOX = Box(MARGIN, MARGIN + TOP_H + GAP, LEFT_W, MAP_H)
SEATS_BOX = Box(MARGIN, MAP_BOX.bottom + GAP, LEFT_W, HEIGHT - MARGIN - MAP_BOX.bottom - GAP)
SIDE_BOX = Box(MARGIN + LEFT_W + GAP, MAP_BOX.y, WIDTH - 2 * MARGIN - LEFT_W - GAP, HEIGHT - MARGIN - MAP_BOX.y)

# ---------------------------------------------------------------------------------------------- text sizes
SMALL = 15  # card lines in crowded panels (never smaller)
TEXT = 17
NAME = 19
TITLE = 22
BIG = 26

# ---------------------------------------------------------------------------------------------- the table
MAP_BG: Color = (26, 30, 40)
LINK: Color = (96, 104, 132)  # a connection between two locations
TILE: Color = (62, 68, 92)  # a revealed location
TILE_HEAD: Color = (80, 88, 118)
TILE_EDGE: Color = (134, 144, 176)
BACK: Color = (36, 33, 46)  # an unrevealed location (its darker back)
BACK_HEAD: Color = (48, 43, 62)
BACK_EDGE: Color = (86, 78, 106)
HERE_EDGE: Color = (236, 236, 244)  # the tile of the investigator whose turn it is

CLUE: Color = (64, 206, 228)
DOOM: Color = (214, 38, 58)
ENEMY: Color = (124, 40, 50)
ENEMY_EDGE: Color = (232, 128, 116)
EXHAUSTED: Color = (70, 66, 74)
EXHAUSTED_INK: Color = (168, 162, 172)
ATTACHMENT: Color = (204, 176, 112)
DARK_INK: Color = (14, 14, 20)
WHITE: Color = (250, 250, 252)
RESOURCE: Color = (226, 178, 82)

#: one colour per seat, in seat order, for the tokens on the table and the investigators' panels
SEAT_COLOURS: list[Color] = [(255, 148, 62), (124, 222, 112), (244, 116, 204), (246, 234, 118)]

#: the investigator classes' colours (our own scheme), for the panels' stripes and class names
CLASS_COLOURS: dict[str, Color] = {
    "guardian": (74, 140, 246),
    "seeker": (236, 168, 46),
    "rogue": (58, 178, 108),
    "mystic": (164, 104, 232),
    "survivor": (222, 76, 72),
    "neutral": (150, 152, 164),
}

# ---------------------------------------------------------------------------------------------- panels
ACT_BG: Color = (34, 48, 52)
AGENDA_BG: Color = (52, 32, 40)
SEAT_BG: Color = Theme.PANEL
SEAT_OUT: Color = (30, 30, 36)
TAG_INK: Color = (28, 22, 8)
TAG_LEAD: Color = Theme.ACCENT
TAG_TURN: Color = (104, 211, 120)
TAG_OUT: Color = Theme.BAD
THREAT: Color = (236, 120, 120)
WIN_BG: Color = (22, 70, 40)
LOSS_BG: Color = (78, 16, 26)
SKILL_COLOURS: dict[str, Color] = {"willpower": (150, 170, 250), "intellect": (236, 190, 110),
                                   "combat": (240, 130, 120), "agility": (130, 220, 150)}

# ---------------------------------------------------------------------------------------------- chaos tokens
NUMBER_TOKEN: Color = (72, 78, 100)
#: the token kinds' fills and names; the numbers share one fill and are named by their value
TOKENS: dict[str, tuple[Color, str]] = {
    "skull": ((206, 200, 186), "Skull"),
    "cultist": ((58, 124, 92), "Cultist"),
    "tablet": ((70, 112, 176), "Tablet"),
    "elder_thing": ((126, 78, 152), "Elder thing"),
    "auto_fail": ((176, 30, 36), "Auto-fail"),
    "elder_sign": ((242, 192, 62), "Elder sign"),
    "bless": ((250, 240, 204), "Bless"),
    "curse": ((58, 28, 70), "Curse"),
}
#: the mark drawn on each symbol token
TOKEN_MARK: dict[str, Color] = {"skull": DARK_INK, "cultist": (220, 236, 222), "tablet": (222, 232, 250),
                                "elder_thing": (236, 222, 246), "auto_fail": WHITE, "elder_sign": DARK_INK,
                                "bless": (214, 160, 30), "curse": (200, 150, 220)}


def seat_colour(seat: int) -> Color:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def class_colour(cls: str) -> Color:
    return CLASS_COLOURS.get(cls, CLASS_COLOURS["neutral"])


def token_colour(token: str) -> Color:
    return TOKENS.get(token, (NUMBER_TOKEN, ""))[0]


def token_name(token: str) -> str:
    """A token's name in words ("Elder sign", "-2")."""
    found = TOKENS.get(token)
    return found[1] if found else token


def initials(name: str) -> str:
    """Two letters for a seat's token: the first and last words' initials ("Inês Carvalho" -> "IC"), or the
    first two letters of a one-word name ("Ada" -> "Ad")."""
    words = [w for w in name.replace("-", " ").replace("_", " ").split() if w[:1].isalnum()]
    if not words:
        return "?"
    if len(words) == 1:
        return words[0][:2].capitalize()
    return (words[0][0] + words[-1][0]).upper()


# ---------------------------------------------------------------------------------------------- token faces

def _star(cx: float, cy: float, outer: float, inner: float, points: int = 5) -> list[tuple[float, float]]:
    out = []
    for k in range(points * 2):
        r = outer if k % 2 == 0 else inner
        a = -math.pi / 2 + k * math.pi / points
        out.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return out


def _paint_mark(draw: ImageDraw.ImageDraw, token: str, s: float, ink: Color) -> None:
    """The mark on a symbol token, drawn in a square of side `s` (already supersampled)."""
    c = s / 2
    w = max(2, int(s * 0.07))
    if token == "skull":
        draw.ellipse((c - s * 0.24, c - s * 0.27, c + s * 0.24, c + s * 0.15), fill=ink)
        draw.rectangle((c - s * 0.13, c + s * 0.08, c + s * 0.13, c + s * 0.25), fill=ink)
        bone = TOKENS["skull"][0]
        for dx in (-0.1, 0.1):
            draw.ellipse((c + s * dx - s * 0.07, c - s * 0.1, c + s * dx + s * 0.07, c + s * 0.04), fill=bone)
    elif token == "cultist":  # a hood over a shadowed face
        draw.polygon([(c, c - s * 0.3), (c + s * 0.26, c + s * 0.26), (c - s * 0.26, c + s * 0.26)], fill=ink)
        draw.ellipse((c - s * 0.1, c - s * 0.06, c + s * 0.1, c + s * 0.16), fill=TOKENS["cultist"][0])
    elif token == "tablet":
        draw.rounded_rectangle((c - s * 0.2, c - s * 0.27, c + s * 0.2, c + s * 0.27), radius=s * 0.08,
                               outline=ink, width=w)
        for dy in (-0.1, 0.02, 0.14):
            draw.line((c - s * 0.11, c + s * dy, c + s * 0.11, c + s * dy), fill=ink, width=max(1, w // 2))
    elif token == "elder_thing":  # five arms from a hub
        for k in range(5):
            a = -math.pi / 2 + k * 2 * math.pi / 5
            draw.line((c, c, c + s * 0.3 * math.cos(a), c + s * 0.3 * math.sin(a)), fill=ink, width=w)
        draw.ellipse((c - s * 0.08, c - s * 0.08, c + s * 0.08, c + s * 0.08), fill=ink)
    elif token == "auto_fail":
        r = s * 0.22
        draw.line((c - r, c - r, c + r, c + r), fill=ink, width=int(w * 1.6))
        draw.line((c - r, c + r, c + r, c - r), fill=ink, width=int(w * 1.6))
    elif token == "elder_sign":
        draw.polygon(_star(c, c + s * 0.02, s * 0.32, s * 0.13), fill=ink)
    elif token == "bless":  # a small sun
        for k in range(8):
            a = k * math.pi / 4
            draw.line((c + s * 0.16 * math.cos(a), c + s * 0.16 * math.sin(a), c + s * 0.32 * math.cos(a),
                       c + s * 0.32 * math.sin(a)), fill=ink, width=w)
        draw.ellipse((c - s * 0.13, c - s * 0.13, c + s * 0.13, c + s * 0.13), fill=ink)
    elif token == "curse":  # a crescent
        draw.ellipse((c - s * 0.26, c - s * 0.26, c + s * 0.26, c + s * 0.26), fill=ink)
        draw.ellipse((c - s * 0.14, c - s * 0.32, c + s * 0.32, c + s * 0.14), fill=TOKENS["curse"][0])


def token_icon(token: str, size: int) -> Image.Image:
    """A chaos token `size` px across: a disc in the token's colour, its mark on a symbol token (a number token
    is left blank: its value is written over it with `draw_text`)."""

    def paint(canvas: Image.Image) -> None:
        draw = ImageDraw.Draw(canvas)
        s = canvas.width
        edge = max(2, s // 16)
        draw.ellipse((edge // 2, edge // 2, s - edge // 2 - 1, s - edge // 2 - 1), fill=token_colour(token),
                     outline=DARK_INK, width=edge)
        if token in TOKEN_MARK:
            _paint_mark(draw, token, s, TOKEN_MARK[token])

    return icon(("lcg-token", token if token in TOKENS else "number"), size, paint)


# ---------------------------------------------------------------------------------------------- the palette

def _backgrounds() -> list[Color]:
    """Surfaces text and markers are drawn on (their blends with each ink go into the palette)."""
    return [Theme.BG, Theme.PANEL, Theme.PANEL_ALT, Theme.BAR_BACK, MAP_BG, TILE, TILE_HEAD, BACK, BACK_HEAD,
            ACT_BG, AGENDA_BG, SEAT_OUT, WIN_BG, LOSS_BG, ENEMY, EXHAUSTED]


def _inks() -> list[Color]:
    return [Theme.TEXT, Theme.MUTED, Theme.FAINT, Theme.ACCENT, Theme.PANEL_EDGE, Theme.GOOD, Theme.BAD, DARK_INK,
            WHITE, CLUE, DOOM, ENEMY_EDGE, EXHAUSTED_INK, ATTACHMENT, RESOURCE, THREAT, LINK, TILE_EDGE, BACK_EDGE,
            HERE_EDGE, Theme.STAMINA, Theme.SANITY, *SEAT_COLOURS, *CLASS_COLOURS.values(), *SKILL_COLOURS.values()]


def _extras() -> list[Color]:
    """Named colours drawn flat but never as ink over a surface, and colours made by mixing named ones."""
    return ([TAG_TURN, NUMBER_TOKEN, *(c for c, _ in TOKENS.values()), *TOKEN_MARK.values()]
            + [mix(c, SEAT_OUT, 0.55) for c in SEAT_COLOURS] + [dim(c, 0.6) for c in (Theme.STAMINA, Theme.SANITY)]
            + [dim(c, 0.35) for c in CLASS_COLOURS.values()] + [dim(DOOM, 0.6)])


@cache
def palette() -> Image.Image:
    """The one palette every picture of the card game is encoded with (built once: a few milliseconds)."""
    backgrounds, inks = _backgrounds(), _inks()
    colours = [*backgrounds, *inks, *_extras()]
    markers = [CLUE, DOOM, NUMBER_TOKEN, *SEAT_COLOURS, *(c for c, _ in TOKENS.values())]
    # antialiased edges: every ink over every surface, and text and marks over the markers' own fills
    ramps = (blend_ramps(inks, backgrounds) + blend_ramps([WHITE, DARK_INK, Theme.TEXT], markers)
             + blend_ramps(TOKEN_MARK.values(), [c for c, _ in TOKENS.values()]))
    return build_palette(colours, ramps)

