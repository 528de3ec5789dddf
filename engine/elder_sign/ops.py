"""Elder Sign's op registry on the kernel (engine/core/flow.py), and the short names the rules use.

`auto(name)` registers an automatic frame, `asks(name)` an "any one of these seats" question, `each(name, ...)`
a question every listed seat answers independently, `answers(name)` the answer of a question. The driver is the
kernel's; what is Elder Sign's is the ops themselves and the `lapse` hook in rules.py.
"""

from __future__ import annotations

from typing import Any

from engine.core.flow import Flow, Frame
from engine.elder_sign.state import ElderSignState

FLOW: Flow[ElderSignState] = Flow("elder-sign")

#: frames that outlive an early end of a resolution (an awakening unwinds the stack to the topmost one, 6.1)
ANCHOR_OPS = frozenset({"end_resolution", "clock", "next_turn", "new_investigator", "midnight_end", "assist_cost"})

auto = FLOW.auto
asks = FLOW.ask
each = FLOW.each
answers = FLOW.answers


def push(state: ElderSignState, op: str, seat: int | None = None, **args: Any) -> Frame:
    """Push a frame (it runs before everything already on the stack). A `source` argument names the card or
    rule that pushed it; it stays in the frame's arguments too, where the ops read it."""
    frame = FLOW.push(state, op, seat, str(args.get("source", "")), **args)
    if op in ANCHOR_OPS:
        _anchor(state, [frame.id])
    return frame


def _anchor(state: ElderSignState, ids: list[int]) -> None:
    if len(state.anchors) > 16:  # forget anchors that already ran, so the state does not grow
        live = {f.id for f in state.flow.stack}
        state.anchors = [a for a in state.anchors if a in live]
    state.anchors.extend(ids)


def push_all(state: ElderSignState, steps: list[tuple[str, int | None, dict[str, Any]]]) -> list[Frame]:
    """Push several frames so that they run in the order given."""
    frames = FLOW.push_all(state, steps)
    _anchor(state, [f.id for f in frames if f.op in ANCHOR_OPS])
    return frames
