"""Arkham Horror 3e's op registry on the kernel (engine/core/flow.py), and the small helpers every rules module
shares (engine/core/game_ops.py): pushing frames in order, narrating, and the generic "pick one" question.

`pick(...)` is how the engine asks any "which one?" a rule leaves to the players (a tie between monster
destinations, whom a monster engages, which street neighbour takes the doom): with a single candidate it
goes on at once, with several it asks (the leader for group decisions, digest 14.2).
"""

from __future__ import annotations

from engine.arkham3.state import ArkhamState
from engine.core.flow import Flow
from engine.core.game_ops import Events, GameOps, say

FLOW: Flow[ArkhamState] = Flow("arkham3")
OPS = GameOps(FLOW)

auto = FLOW.auto
asks = FLOW.ask
answers = FLOW.answers
push = OPS.push
seq = OPS.seq
pick = OPS.pick

__all__ = ["FLOW", "Events", "answers", "asks", "auto", "pick", "push", "say", "seq"]
