"""Arkham Horror 3e's op registry on the kernel (engine/core/flow.py), and the small helpers every rules module
shares: pushing frames in order, narrating, and the generic "pick one" question.

`pick(...)` is how the engine asks any "which one?" a rule leaves to the players (a tie between monster
destinations, whom a monster engages, which street neighbour takes the doom): with a single candidate it
goes on at once, with several it asks (the leader for group decisions, digest 14.2).
"""

from __future__ import annotations

from typing import Any

from engine.arkham3.state import ArkhamState
from engine.core.events import Event
from engine.core.flow import Answer, Flow, Frame
from engine.core.prompt import Option, Prompt, PromptKind

FLOW: Flow[ArkhamState] = Flow("arkham3")
Events = list[Event]

auto = FLOW.auto
asks = FLOW.ask
answers = FLOW.answers


def push(state: ArkhamState, op: str, seat: int | None = None, source: str = "", /, **args: Any) -> Frame:
    """Push one frame: it runs before everything already on the stack."""
    return FLOW.push(state, op, seat, source, **args)


def seq(state: ArkhamState, steps: list[tuple[str, int | None, dict[str, Any]]], source: str = "") -> None:
    """Push several frames so that they run in the order given."""
    for op, seat, args in reversed(steps):
        FLOW.push(state, op, seat, source, **args)


def say(events: Events, text: str, kind: str = "note", seat: int | None = None, cause: str = "",
        render: bool = False, **data: Any) -> None:
    events.append(Event(kind=kind, text=text, seat=seat, cause=cause, render=render, data=data))


# ---------------------------------------------------------------- pick one

def pick(state: ArkhamState, seat: int, title: str, reason: str, choices: list[tuple[str, str, Any]],
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
def ask_pick(state: ArkhamState, frame: Frame) -> Prompt:
    a = frame.args
    options = [Option(id=str(cid), label=str(label), data=value) for cid, label, value in a["choices"]]
    return Prompt(seq=0, seats=[frame.owner], kind=PromptKind.ONE, title=a["title"], reason=a["reason"],
                  options=options, default=[options[0].id])


@answers("pick")
def answer_pick(state: ArkhamState, frame: Frame, answer: Answer, events: Events) -> None:
    a = frame.args
    push(state, a["then"], a["then_seat"], frame.source, **{**a["args"], a["key"]: answer.data})
