"""Helpers a game's rules modules share on top of its `Flow`: pushing frames in order, narrating, and the
generic "pick one" question (with a single candidate it goes on at once; with several it asks).

    FLOW = Flow("<game>")
    OPS = GameOps(FLOW)
    push, seq, pick = OPS.push, OPS.seq, OPS.pick
"""

from __future__ import annotations

from typing import Any

from engine.core.events import Event
from engine.core.flow import Answer, Flow, Frame
from engine.core.prompt import Option, Prompt, PromptKind

Events = list[Event]


def say(events: Events, text: str, kind: str = "note", seat: int | None = None, cause: str = "",
        render: bool = False, private_to: int | None = None, **data: Any) -> None:
    """Narrate one event. `private_to`: only that seat may read it (a card drawn into a hand)."""
    events.append(Event(kind=kind, text=text, seat=seat, cause=cause, render=render, private_to=private_to,
                        data=data))


class GameOps:
    """`push`, `seq` and `pick` bound to one game's flow (which gets the `pick` question registered)."""

    def __init__(self, flow: Flow[Any]) -> None:
        self.flow = flow

        @flow.ask("pick")
        def ask_pick(state: Any, frame: Frame) -> Prompt:
            a = frame.args
            options = [Option(id=str(cid), label=str(label), data=value) for cid, label, value in a["choices"]]
            return Prompt(seq=0, seats=[frame.owner], kind=PromptKind.ONE, title=a["title"], reason=a["reason"],
                          options=options, default=[options[0].id])

        @flow.answers("pick")
        def answer_pick(state: Any, frame: Frame, answer: Answer, events: Events) -> None:
            a = frame.args
            self.push(state, a["then"], a["then_seat"], frame.source, **{**a["args"], a["key"]: answer.data})

    def push(self, state: Any, op: str, seat: int | None = None, source: str = "", /, **args: Any) -> Frame:
        """Push one frame: it runs before everything already on the stack."""
        return self.flow.push(state, op, seat, source, **args)

    def seq(self, state: Any, steps: list[tuple[str, int | None, dict[str, Any]]], source: str = "") -> None:
        """Push several frames so that they run in the order given."""
        for op, seat, args in reversed(steps):
            self.flow.push(state, op, seat, source, **args)

    def pick(self, state: Any, seat: int, title: str, reason: str, choices: list[tuple[str, str, Any]],
             then: str, key: str, source: str = "", /, then_seat: int | None = None, **args: Any) -> None:
        """Ask `seat` to choose one of `choices` ((id, label, value)); then push `then` with `key` = the value.
        A single choice is taken without asking; no choice pushes nothing."""
        if not choices:
            return
        if len(choices) == 1:
            self.push(state, then, then_seat, source, **{**args, key: choices[0][2]})
            return
        self.push(state, "pick", seat, source, title=title, reason=reason, choices=[list(c) for c in choices],
                  then=then, key=key, then_seat=then_seat, args=args)
