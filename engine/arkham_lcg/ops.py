"""The card game's op registry on the kernel (engine/core/flow.py) and the helpers every rules module shares:
pushing frames in order, narrating, and the generic "pick one" question (the lead settles group choices,
FAQ §1.5)."""

from __future__ import annotations

from typing import Any

from engine.arkham_lcg.state import LcgState
from engine.core.events import Event
from engine.core.flow import Answer, Flow, Frame
from engine.core.prompt import Option, Prompt, PromptKind

FLOW: Flow[LcgState] = Flow("arkham-lcg")
Events = list[Event]

auto = FLOW.auto
asks = FLOW.ask
answers = FLOW.answers


def push(state: LcgState, op: str, seat: int | None = None, source: str = "", /, **args: Any) -> Frame:
    """Push one frame: it runs before everything already on the stack."""
    return FLOW.push(state, op, seat, source, **args)


def seq(state: LcgState, steps: list[tuple[str, int | None, dict[str, Any]]], source: str = "") -> None:
    """Push several frames so that they run in the order given."""
    for op, seat, args in reversed(steps):
        FLOW.push(state, op, seat, source, **args)


def say(events: Events, text: str, kind: str = "note", seat: int | None = None, cause: str = "",
        render: bool = False, **data: Any) -> None:
    events.append(Event(kind=kind, text=text, seat=seat, cause=cause, render=render, data=data))


def pick(state: LcgState, seat: int, title: str, reason: str, choices: list[tuple[str, str, Any]],
         then: str, key: str, source: str = "", /, then_seat: int | None = None, **args: Any) -> None:
    """Ask `seat` to choose one of `choices` ((id, label, value)); then push `then` with `key` = the value.
    A single choice is taken without asking; no choice pushes nothing."""
    if not choices:
        return
    if len(choices) == 1:
        push(state, then, then_seat, source, **{**args, key: choices[0][2]})
        return
    push(state, "pick", seat, source, title=title, reason=reason, choices=[list(c) for c in choices], then=then,
         key=key, then_seat=then_seat, args=args)


@asks("pick")
def ask_pick(state: LcgState, frame: Frame) -> Prompt:
    a = frame.args
    options = [Option(id=str(cid), label=str(label), data=value) for cid, label, value in a["choices"]]
    return Prompt(seq=0, seats=[frame.owner], kind=PromptKind.ONE, title=a["title"], reason=a["reason"],
                  options=options, default=[options[0].id])


@answers("pick")
def answer_pick(state: LcgState, frame: Frame, answer: Answer, events: Events) -> None:
    a = frame.args
    push(state, a["then"], a["then_seat"], frame.source, **{**a["args"], a["key"]: answer.data})
