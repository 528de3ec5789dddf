"""Sizes and colours of the Arkham Horror 3e town board picture, shared by its modules (layout, map, panels).

Every colour the picture draws with is named here, because the PNG is encoded on one fixed palette built
from these lists (`palette`): a colour used anywhere else would be mapped to its nearest neighbour.
"""

from __future__ import annotations

from functools import cache

from PIL import Image

from bot.render.kit import Box, Color, Theme, blend_ramps, build_palette, dim, mix

WIDTH, HEIGHT = 1600, 1000
MARGIN = 12
GAP = 10
#: the town map on the left, the investigators' rows under it, the column of sheet, codex and cup on the right
MAP_W = 1100
SIDE_BOX = Box(MARGIN + MAP_W + GAP, MARGIN, WIDTH - 2 * MARGIN - MAP_W - GAP, HEIGHT - 2 * MARGIN)
#: investigator rows: two columns up to four seats, three beyond; each row this tall
SEAT_ROW_H = 106
KEY_H = 42  # the key strip along the map's bottom


def seat_columns(seats: int) -> int:
    return max(1, min(seats, 2 if seats <= 4 else 3))


def seats_height(seats: int) -> int:
    rows = -(-max(1, seats) // seat_columns(seats))
    return rows * SEAT_ROW_H + (rows - 1) * GAP


def map_box(seats: int) -> Box:
    """The map's panel: whatever the investigators' rows (fixed for a game) leave of the left column."""
    return Box(MARGIN, MARGIN, MAP_W, HEIGHT - 2 * MARGIN - GAP - seats_height(seats))


def layout_box(seats: int) -> Box:
    """Where tiles and streets go: the map's panel above its key strip."""
    m = map_box(seats)
    return Box(m.x, m.y, m.w, m.h - KEY_H)


def seats_box(seats: int) -> Box:
    top = map_box(seats).bottom + GAP
    return Box(MARGIN, top, MAP_W, HEIGHT - MARGIN - top)


# ---------------------------------------------------------------------------------------------- text sizes
TEXT = 18  # the smallest text anywhere
NAME = 20  # space and street names (18 when a name needs it to fit)
TITLE = 22  # neighborhood names, panel titles
BIG = 26

# ---------------------------------------------------------------------------------------------- markers
TOKEN = 40  # doom, investigator and monster markers on the map (smaller on a crowded map: TOKEN_SIZES)
TOKEN_SIZES = (40, 36, 32)
TOKEN_GAP = 4
BADGE = 38  # the clue and anomaly markers on a neighborhood's header

# ---------------------------------------------------------------------------------------------- the map
MAP_BG: Color = (27, 31, 40)
TILE: Color = (42, 47, 62)
TILE_EDGE: Color = (88, 96, 120)
TILE_HEAD: Color = (54, 60, 80)
PLATE: Color = (64, 70, 92)
PLATE_EDGE: Color = (112, 120, 148)
BORDER: Color = (140, 148, 172)  # the lines between adjacent spaces
STREET_FILL: dict[str, Color] = {"residential": (92, 70, 50), "bridge": (46, 74, 110), "scenic": (46, 88, 60)}
STREET_EDGE: dict[str, Color] = {"residential": (170, 132, 92), "bridge": (104, 150, 210),
                                 "scenic": (102, 176, 118)}
STREET_OTHER: Color = (70, 70, 78)  # a street with a type this renderer does not know
UNSTABLE: Color = (255, 160, 48)

DOOM: Color = (214, 34, 52)
CLUE: Color = (64, 214, 236)
ANOMALY: Color = (176, 88, 255)
ANOMALY_BG: Color = (62, 40, 92)
MONSTER: Color = (128, 66, 40)
MONSTER_EDGE: Color = (236, 170, 120)
EXHAUSTED: Color = (74, 70, 76)
EXHAUSTED_INK: Color = (160, 156, 164)
EPIC: Color = Theme.ACCENT
DAMAGE: Color = (255, 72, 72)
DARK_INK: Color = (14, 14, 20)
WHITE: Color = (250, 250, 252)

#: one colour per seat, in seat order (1-6 players; more wrap around), for markers and rows
SEAT_COLOURS: list[Color] = [(86, 166, 255), (255, 140, 70), (120, 220, 110), (255, 110, 170), (236, 222, 84),
                             (236, 236, 244)]

# ---------------------------------------------------------------------------------------------- panels
SHEET_BG: Color = (48, 30, 38)
CODEX_BG: Color = (40, 38, 56)
SEAT_BG: Color = Theme.PANEL
SEAT_OUT: Color = (30, 30, 36)
TAG_INK: Color = (28, 22, 8)
TAG_LEAD: Color = Theme.ACCENT
TAG_TURN: Color = (104, 211, 120)
TAG_DELAYED: Color = (236, 160, 60)
TAG_DEFEATED: Color = Theme.BAD
TAG_CONDITION: Color = (150, 140, 210)
MONEY: Color = (120, 200, 110)
REMNANT: Color = (200, 140, 240)
WIN_BG: Color = (22, 70, 40)
LOSS_BG: Color = (78, 16, 26)

#: mythos cup tokens: colour and the (short: three to a row) label the panel gives each kind
CUP_TOKENS: dict[str, tuple[Color, str]] = {
    "blank": ((140, 144, 156), "Blank"),
    "spread_doom": (DOOM, "Doom"),
    "spawn_clue": (CLUE, "Clue"),
    "spawn_monster": (MONSTER_EDGE, "Monster"),
    "gate_burst": (ANOMALY, "Gate burst"),
    "headline": ((226, 206, 150), "Headline"),
    "reckoning": ((250, 120, 60), "Reckoning"),
}
CUP_OTHER: Color = (110, 110, 120)


def seat_colour(seat: int) -> Color:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def street_fill(kind: str | None) -> Color:
    return STREET_FILL.get(kind or "", STREET_OTHER)


def street_edge(kind: str | None) -> Color:
    return STREET_EDGE.get(kind or "", Theme.PANEL_EDGE)


def cup_colour(kind: str) -> Color:
    return CUP_TOKENS.get(kind, (CUP_OTHER, ""))[0]


def cup_label(kind: str) -> str:
    label = CUP_TOKENS.get(kind, (CUP_OTHER, ""))[1]
    return label or kind.replace("_", " ").capitalize()


def _backgrounds() -> list[Color]:
    """Surfaces text and markers are drawn on (their blends with each ink go into the palette)."""
    return [Theme.BG, Theme.PANEL, Theme.PANEL_ALT, Theme.BAR_BACK, MAP_BG, TILE, TILE_HEAD, PLATE, ANOMALY_BG,
            SHEET_BG, CODEX_BG, SEAT_OUT, WIN_BG, LOSS_BG, *STREET_FILL.values()]


def _inks() -> list[Color]:
    return [Theme.TEXT, Theme.MUTED, Theme.FAINT, Theme.ACCENT, Theme.PANEL_EDGE, DARK_INK, WHITE, DOOM, CLUE,
            ANOMALY, MONSTER, MONSTER_EDGE, EXHAUSTED, EXHAUSTED_INK, UNSTABLE, BORDER, TILE_EDGE, PLATE_EDGE,
            DAMAGE, TAG_INK, MONEY, REMNANT, Theme.STAMINA, Theme.SANITY, *SEAT_COLOURS, *STREET_EDGE.values()]


def _extras() -> list[Color]:
    """Named colours drawn flat but never as ink over a surface, and colours made by mixing named ones."""
    return ([TAG_TURN, TAG_DELAYED, TAG_DEFEATED, TAG_CONDITION, Theme.GOOD, Theme.BAD, STREET_OTHER, CUP_OTHER]
            + [c for c, _ in CUP_TOKENS.values()]
            + [mix(c, SEAT_OUT, 0.55) for c in SEAT_COLOURS] + [dim(c, 0.6) for c in (Theme.STAMINA, Theme.SANITY)])


@cache
def palette() -> Image.Image:
    """The one palette every board picture is encoded with (built once: a few milliseconds)."""
    backgrounds, inks = _backgrounds(), _inks()
    colours = [*backgrounds, *inks, *_extras()]
    markers = [DOOM, CLUE, ANOMALY, MONSTER, EXHAUSTED, EPIC, *SEAT_COLOURS, *(c for c, _ in CUP_TOKENS.values())]
    # antialiased edges: every ink over every surface, and text over the markers' own fills
    ramps = blend_ramps(inks, backgrounds) + blend_ramps([WHITE, DARK_INK, Theme.TEXT, DAMAGE], markers)
    return build_palette(colours, ramps)
