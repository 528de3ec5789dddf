"""What a space's plate on the Arkham Horror 3e map holds: its name (one or two lines, as large as fits) and the
room its markers flow in; a plate too short for a name above its markers puts them side by side.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.arkham3.render.style import NAME, TEXT, TOKEN_SIZES
from bot.render.kit import Box, wrap


@dataclass(frozen=True)
class Plate:
    """A space's rectangle, its name's lines and the rectangle its markers flow in."""

    box: Box
    lines: tuple[str, ...]
    name_size: int
    tokens: Box  # the room under the name that markers flow in
    token: int  # the markers' largest size here (they shrink to TOKEN_SIZES[-1] to fit a crowd)
    side: bool = False  # the name left of the markers (a short plate), not above them

    @property
    def centre(self) -> tuple[int, int]:
        return self.box.center


def plan_plate(box: Box, name: str) -> Plate:
    """Where a plate's name and markers go: the name on top (two lines at most, or one cut short when two
    leave no room), the markers below it; a plate too short for that puts them side by side."""
    inner = box.inset(6, 4)
    size, lines = NAME, wrap(name, NAME, inner.w, bold=True, max_lines=2)
    if len(lines) > 1 or lines[0].endswith("…"):
        small = wrap(name, TEXT, inner.w, bold=True, max_lines=2)
        if len(small) < len(lines) or (lines[-1].endswith("…") and not small[-1].endswith("…")):
            size, lines = TEXT, small
    if len(lines) > 1 and inner.h - _name_h(lines, size) < TOKEN_SIZES[-1]:
        size, lines = TEXT, wrap(name, TEXT, inner.w, bold=True, max_lines=1)
    room = inner.h - _name_h(lines, size)
    if room < TOKEN_SIZES[-1]:
        return _side_plate(box, name)
    token = next(t for t in TOKEN_SIZES if t <= room)
    return Plate(box, tuple(lines), size, Box(inner.x, inner.y + _name_h(lines, size), inner.w, room), token)


def _name_h(lines: list[str], size: int) -> int:
    return len(lines) * (size + 2) + 2


def _side_plate(box: Box, name: str) -> Plate:
    """A plate too short for a name above its markers (a four-space tile on a crowded map): the name on the
    left half, the markers in one row on the right."""
    inner = box.inset(6, 3)
    token = max(16, next((t for t in TOKEN_SIZES if t <= inner.h), inner.h))
    name_w = inner.w // 2
    lines = wrap(name, TEXT, name_w, bold=True, max_lines=max(1, min(2, inner.h // (TEXT + 2))))
    tokens = Box(inner.x + name_w + 4, inner.y + (inner.h - token) // 2, inner.w - name_w - 4, token)
    return Plate(box, tuple(lines), TEXT, tokens, token, side=True)
