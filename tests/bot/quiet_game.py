"""A countdown whose moves never ask for a picture: no phase ends, so snapshots are kept only at the start,
every N steps and at the end (the snapshot policy of issue "Reliability and security" item 8)."""

from __future__ import annotations

from typing import Any

from engine.core.events import Event
from engine.core.game import GameState
from engine.core.prompt import Action
from tests.support.countdown import CountdownRules


class QuietCountdown(CountdownRules):
    id = "countdown-quiet"
    name = "Quiet countdown"

    def apply(self, state: GameState, action: Action, *args: Any, **kwargs: Any) -> list[Event]:
        events = super().apply(state, action, *args, **kwargs)
        return [e.model_copy(update={"render": False}) for e in events]


QUIET = QuietCountdown()
