"""Sizes and colours of the Eldritch Horror board picture, shared by its modules (map, tokens, panels).

Every colour the picture draws with is named here, because the PNG is encoded on one fixed palette built
from this list (`palette_colours`): a colour used elsewhere would be mapped to its nearest neighbour.
"""

from __future__ import annotations

from bot.render.kit import Box, Color, Theme, dim, mix

WIDTH, HEIGHT = 1600, 1000
MARGIN = 12
#: the world map, the investigators' rows under it and the column of tracks and cards to the right
MAP_BOX = Box(MARGIN, MARGIN, 1140, 656)
SEATS_BOX = Box(MARGIN, MAP_BOX.bottom + 10, MAP_BOX.w, HEIGHT - MARGIN - MAP_BOX.bottom - 10)
SIDE_BOX = Box(MAP_BOX.right + 12, MARGIN, WIDTH - MARGIN - MAP_BOX.right - 12, HEIGHT - 2 * MARGIN)

#: the equirectangular frame: the left edge's longitude (the map spans 360 degrees, so paths across the
#: Pacific leave one edge and come back at the other) and the latitudes of the top and bottom edges
LON_LEFT = -165.0
LAT_TOP, LAT_BOTTOM = 86.0, -80.0

# ---------------------------------------------------------------------------------------------- map
OCEAN: Color = (22, 36, 56)
GRID: Color = (30, 47, 70)
LAND: Color = (56, 62, 48)
LAND_EDGE: Color = (88, 96, 72)
REGION_INK: Color = (120, 132, 150)
LABEL_INK: Color = Theme.TEXT
LABEL_HALO: Color = (12, 16, 24)

CITY: Color = (228, 214, 180)
WILDERNESS: Color = (112, 184, 96)
SEA: Color = (104, 164, 232)
SHAPE_EDGE: Color = (12, 14, 20)
SHAPE_INK: Color = (16, 16, 22)
SPACE_FILL = {"city": CITY, "wilderness": WILDERNESS, "sea": SEA}

TRAIN: Color = (206, 178, 132)
SHIP: Color = (120, 182, 250)
UNCHARTED: Color = (244, 150, 70)
PATH_COLOURS = {"train": TRAIN, "ship": SHIP, "uncharted": UNCHARTED}

# ---------------------------------------------------------------------------------------------- tokens
OMEN_COLOURS: dict[str, Color] = {"green": (70, 206, 104), "blue": (80, 142, 255), "red": (238, 66, 66)}
MONSTER: Color = (150, 32, 52)
MONSTER_EDGE: Color = (255, 150, 160)
EPIC: Color = Theme.ACCENT
CLUE: Color = (64, 214, 236)
RUMOR: Color = (214, 84, 206)
EXPEDITION: Color = Theme.ACCENT
DEFEATED: Color = (128, 130, 140)
DARK_INK: Color = (14, 14, 20)

#: one colour per seat, in seat order, for the tokens on the map and the rows under it
SEAT_COLOURS: list[Color] = [(86, 166, 255), (255, 140, 70), (190, 120, 255), (120, 220, 110),
                             (255, 110, 170), (236, 222, 84), (240, 240, 246), (206, 154, 112)]

# ---------------------------------------------------------------------------------------------- panels
DOOM: Color = (214, 34, 52)
DOOM_DIM: Color = (96, 30, 40)
AWAKE_BG: Color = (92, 16, 28)
WIN_BG: Color = (22, 70, 40)
CARD_BG: Color = (44, 40, 60)
SEAT_BG: Color = Theme.PANEL
SEAT_OUT: Color = (30, 30, 36)
TAG_LEAD: Color = Theme.ACCENT
TAG_DELAYED: Color = (236, 160, 60)
TAG_DEFEATED: Color = Theme.BAD
TAG_INK: Color = (28, 22, 8)


def seat_colour(seat: int) -> Color:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def omen_colour(name: str | None) -> Color:
    return OMEN_COLOURS.get(name or "", DEFEATED)


def backgrounds() -> list[Color]:
    """Surfaces text and markers are drawn on (their blends with each ink go into the palette)."""
    return [Theme.BG, Theme.PANEL, Theme.PANEL_ALT, Theme.BAR_BACK, OCEAN, LAND, CARD_BG, AWAKE_BG, WIN_BG,
            SEAT_OUT, DOOM_DIM]


def inks() -> list[Color]:
    return [Theme.TEXT, Theme.MUTED, Theme.FAINT, Theme.ACCENT, Theme.GOOD, Theme.BAD, Theme.PANEL_EDGE,
            Theme.STAMINA, Theme.SANITY, DOOM, DARK_INK, TAG_INK, LABEL_HALO, TAG_DELAYED, REGION_INK]


def marker_colours() -> list[Color]:
    return [CITY, WILDERNESS, SEA, SHAPE_EDGE, SHAPE_INK, TRAIN, SHIP, UNCHARTED, GRID, LAND_EDGE,
            *OMEN_COLOURS.values(), MONSTER, MONSTER_EDGE, EPIC, CLUE, RUMOR, EXPEDITION, DEFEATED, *SEAT_COLOURS]


def derived_colours() -> list[Color]:
    """Colours made by mixing named ones (greyed seats, dimmed bars)."""
    return ([mix(c, SEAT_OUT, 0.55) for c in SEAT_COLOURS] + [dim(c, 0.6) for c in (Theme.STAMINA, Theme.SANITY)]
            + [mix(c, Theme.PANEL, 0.5) for c in OMEN_COLOURS.values()])
