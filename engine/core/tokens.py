"""Token pools: named counters with an optional supply limit."""

from __future__ import annotations

from pydantic import BaseModel, Field

from engine.core.errors import EngineError


class TokenPool(BaseModel):
    counts: dict[str, int] = Field(default_factory=dict)
    limits: dict[str, int] = Field(default_factory=dict)

    def get(self, kind: str) -> int:
        return self.counts.get(kind, 0)

    def add(self, kind: str, n: int = 1) -> int:
        """Add up to n tokens (capped by the limit, if any); returns how many were added."""
        have = self.counts.get(kind, 0)
        cap = self.limits.get(kind)
        added = n if cap is None else max(0, min(n, cap - have))
        self.counts[kind] = have + added
        return added

    def remove(self, kind: str, n: int = 1) -> None:
        have = self.counts.get(kind, 0)
        if n > have:
            raise EngineError(f"not enough {kind} tokens ({have} < {n})")
        self.counts[kind] = have - n
