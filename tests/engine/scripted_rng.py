"""Fixed dice for rules tests: the game's Rng, except that six-sided rolls come from a script."""

from __future__ import annotations

from engine.core.rng import Rng


class ScriptedRng(Rng):
    """Six-sided rolls come from `script` (faces 1-6, in order) while it lasts; every other draw is the real
    generator's."""

    script: list[int] = []

    def below(self, n: int) -> int:
        if n == 6 and self.script:
            return self.script.pop(0) - 1
        return super().below(n)
