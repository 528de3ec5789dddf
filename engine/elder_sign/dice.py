"""Elder Sign's three die types with their real faces (rules digest 1.2, rulebook "Dice").

Green: Inv1 Inv2 Inv3 Lore Peril Terror. Yellow: green with Terror replaced by Inv4. Red: yellow with Inv1
replaced by a Wildcard. A Wildcard counts as exactly one of Inv4 / Lore / Peril / Terror when assigned.
"""

from __future__ import annotations

from engine.core.dice import DieType

INV1, INV2, INV3, INV4 = "inv1", "inv2", "inv3", "inv4"
LORE, PERIL, TERROR, WILD = "lore", "peril", "terror", "wild"

GREEN = DieType("green", (INV1, INV2, INV3, LORE, PERIL, TERROR))
YELLOW = DieType("yellow", (INV1, INV2, INV3, INV4, LORE, PERIL))
RED = DieType("red", (WILD, INV2, INV3, INV4, LORE, PERIL))
DIE_TYPES = {"green": GREEN, "yellow": YELLOW, "red": RED}

#: investigation value of each face; a Wildcard counts as Inv4 (digest 11.3)
INV_VALUE = {INV1: 1, INV2: 2, INV3: 3, INV4: 4, WILD: 4}

FACE_LABEL = {INV1: "1🔍", INV2: "2🔍", INV3: "3🔍", INV4: "4🔍", LORE: "Lore", PERIL: "Peril",
              TERROR: "Terror", WILD: "Wild"}

#: die ids: six green (g1..g6), one yellow (y), one red (r)
DIE_IDS = ("g1", "g2", "g3", "g4", "g5", "g6", "y", "r")


def color_of(die_id: str) -> str:
    return DIE_COLOR.get(die_id) or ("green" if die_id.startswith("g") else ("yellow" if die_id == "y" else "red"))


#: each die's colour, by die id
DIE_COLOR = {d: "green" if d.startswith("g") else ("yellow" if d == "y" else "red") for d in DIE_IDS}
