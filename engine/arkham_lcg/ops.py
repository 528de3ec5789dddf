"""The card game's op registry on the kernel (engine/core/flow.py) and the shared helpers bound to it:
pushing frames in order, narrating, and the generic "pick one" question (the lead settles group choices,
FAQ §1.5)."""

from __future__ import annotations

from engine.arkham_lcg.state import LcgState
from engine.core.flow import Flow
from engine.core.game_ops import Events, GameOps, say

FLOW: Flow[LcgState] = Flow("arkham-lcg")
OPS = GameOps(FLOW)

auto = FLOW.auto
asks = FLOW.ask
answers = FLOW.answers
push = OPS.push
seq = OPS.seq
pick = OPS.pick

__all__ = ["FLOW", "Events", "answers", "asks", "auto", "pick", "push", "say", "seq"]
