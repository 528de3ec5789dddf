"""The step registry. A step op is either automatic (`run`) or a prompt (`prompt` + `answer`).

Ops register themselves with the decorators below; `engine/elder_sign/rules.py` drives the stack.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.core.events import Event
from engine.core.prompt import Action, Prompt
from engine.elder_sign.state import ElderSignState, Step

Events = list[Event]
RunFn = Callable[[ElderSignState, Step, Events], None]
PromptFn = Callable[[ElderSignState, Step], Prompt]
AnswerFn = Callable[[ElderSignState, Step, Action, Events], None]


@dataclass
class Op:
    run: RunFn | None = None
    prompt: PromptFn | None = None
    answer: AnswerFn | None = None


OPS: dict[str, Op] = {}


def auto(name: str) -> Callable[[RunFn], RunFn]:
    def deco(fn: RunFn) -> RunFn:
        OPS[name] = Op(run=fn)
        return fn
    return deco


def asks(name: str) -> Callable[[PromptFn], PromptFn]:
    def deco(fn: PromptFn) -> PromptFn:
        OPS.setdefault(name, Op()).prompt = fn
        return fn
    return deco


def answers(name: str) -> Callable[[AnswerFn], AnswerFn]:
    def deco(fn: AnswerFn) -> AnswerFn:
        OPS.setdefault(name, Op()).answer = fn
        return fn
    return deco


def push(state: ElderSignState, op: str, seat: int | None = None, **args: Any) -> None:
    """Push a step (it runs before everything already on the stack)."""
    waiting = OPS[op].prompt is not None
    state.stack.append(Step(op=op, seat=seat, args=args, waiting=waiting))


def push_all(state: ElderSignState, steps: list[tuple[str, int | None, dict[str, Any]]]) -> None:
    """Push several steps so that they run in the order given."""
    for op, seat, args in reversed(steps):
        push(state, op, seat, **args)
