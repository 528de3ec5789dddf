"""The game's random number generator: SplitMix64, whose whole state is one 64-bit integer.

Why SplitMix64: the state is a single int that lives inside the game state (so a save/load in the middle of
a game continues the exact same sequence), each step is a handful of integer operations (fast enough for
simulation in pure Python), and its output passes BigCrush. It is not cryptographic, and does not need to be:
the seed is secret only in the sense that views never show it.

Reference: Steele, Lea, Flood, "Fast splittable pseudorandom number generators" (OOPSLA 2014); the constants
are the standard ones (golden-ratio increment, Stafford's mix 13).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from pydantic import BaseModel

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


class Rng(BaseModel):
    """SplitMix64 state. Mutated in place by every draw; round-trips through JSON exactly."""

    state: int = 0

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        return cls(state=seed & _MASK)

    def next_u64(self) -> int:
        d: dict[str, int] = self.__dict__  # a plain write of the one int field: every die roll comes here
        s = (d["state"] + _GAMMA) & _MASK
        d["state"] = s
        z = s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias (rejection sampling)."""
        if n <= 0:
            raise ValueError("below() needs n > 0")
        limit = _MASK - (_MASK % n) - 1 if n & (n - 1) else _MASK
        d: dict[str, int] = self.__dict__
        while True:
            s = (d["state"] + _GAMMA) & _MASK  # next_u64, inlined
            d["state"] = s
            z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            x = z ^ (z >> 31)
            if x <= limit:
                return x % n

    def below_each(self, n: int, count: int) -> list[int]:
        """`count` draws of `below(n)`, in order (the same numbers, the same state after): a roll of several
        dice at once."""
        if n <= 0:
            raise ValueError("below() needs n > 0")
        limit = _MASK - (_MASK % n) - 1 if n & (n - 1) else _MASK
        d: dict[str, int] = self.__dict__
        s = d["state"]
        out: list[int] = []
        while len(out) < count:
            s = (s + _GAMMA) & _MASK
            z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            x = z ^ (z >> 31)
            if x <= limit:
                out.append(x % n)
        d["state"] = s
        return out

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: list[T]) -> None:
        """Fisher-Yates, in place: for i from the end, swap with `below(i + 1)` (inlined: a game's setup
        shuffles every deck)."""
        d: dict[str, int] = self.__dict__
        s = d["state"]
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = _MASK - (_MASK % n) - 1 if n & (n - 1) else _MASK
            while True:
                s = (s + _GAMMA) & _MASK
                z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
                x = z ^ (z >> 31)
                if x <= limit:
                    break
            j = x % n
            items[i], items[j] = items[j], items[i]
        d["state"] = s

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        pool = list(items)
        self.shuffle(pool)
        return pool[:k]
