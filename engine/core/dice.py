"""Dice with named faces. A die type is static rules data; a die's current face is game state."""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.rng import Rng


@dataclass(frozen=True)
class DieType:
    """A die: an id and its faces, each equally likely."""

    id: str
    faces: tuple[str, ...]

    def roll(self, rng: Rng) -> str:
        return self.faces[rng.below(len(self.faces))]

    def probability(self, face: str) -> float:
        return self.faces.count(face) / len(self.faces)


def roll_sum(rng: Rng, count: int, sides: int) -> list[int]:
    """Roll `count` plain dice numbered 1..sides."""
    return [rng.below(sides) + 1 for _ in range(count)]
