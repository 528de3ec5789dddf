"""Timing windows: "when" and "after" around a named game event, with the triggers of the cards in play.

    windows.around(flow, state, "test.failed", body, data={...})

pushes three frames: a *when* window, the body frame (the event itself), an *after* window. Each window asks
the game (`flow.triggers(state, window)`) for the triggers of every card in play that answer this window:

* **forced** triggers resolve first, in the order the game returns them (the rules' order);
* **optional** triggers become one prompt per seat that has any (the others auto-pass, so a chat table is not
  flooded with windows); a seat may use one or pass. Using one resolves it and opens a new priority round
  (everyone may respond again); the window closes when every seat with a response has passed.

A trigger may cancel the event or replace it ("instead") by the body frame's id, which the window carries as
`target`: `cancel_event` also closes the event's after window, since what did not happen has no "after".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, Field

from engine.core.events import Event
from engine.core.prompt import Option, Prompt, PromptKind

if TYPE_CHECKING:
    from engine.core.flow import Answer, Flow, Frame, Step

Timing = Literal["when", "after"]
PASS = "pass"


class Window(BaseModel):
    """What a trigger collector is told: which window is open, around which frame, with the event's data."""

    timing: Timing
    event: str
    target: int | None = None  # the id of the frame the window is around
    data: dict[str, Any] = Field(default_factory=dict)


class Trigger(BaseModel):
    """A card's response to a window. `id` is stable for one card ability (a trigger is used once per window)."""

    id: str
    source: str
    seat: int
    label: str
    forced: bool = False
    steps: list[Any] = Field(default_factory=list)  # engine.core.flow.Step: what it does
    private: bool = False  # offering it shows a hidden card (one in hand): the question is asked privately


class WindowArgs(BaseModel):
    window: Window
    used: list[str] = Field(default_factory=list)
    passed: list[int] = Field(default_factory=list)


def install(flow: Flow[Any]) -> None:
    """Register the window ops in a game's flow (every Flow does this when it is made)."""

    def pending(state: Any, args: WindowArgs) -> list[Trigger]:
        return [t for t in flow.triggers(state, args.window) if t.id not in args.used]

    @flow.auto("window", args=WindowArgs)
    def run_window(state: Any, frame: Frame, events: list[Event]) -> None:
        args = frame.arg(WindowArgs)
        triggers = pending(state, args)
        forced = [t for t in triggers if t.forced]
        if forced:
            flow.push(state, "window", frame.seat, frame.source, window=args.window,
                      used=[*args.used, *(t.id for t in forced)], passed=args.passed)
            for t in forced:
                events.append(Event(kind="window.forced", text=t.label, seat=t.seat, cause=t.source))
            flow.push_steps(state, [s for t in forced for s in t.steps])
            return
        if any(t.seat not in args.passed for t in triggers):
            flow.push(state, "window_ask", frame.seat, frame.source, window=args.window, used=args.used,
                      passed=args.passed)

    def seats(state: Any, frame: Frame) -> list[int]:
        args = frame.arg(WindowArgs)
        return sorted({t.seat for t in pending(state, args) if t.seat not in args.passed})

    @flow.each("window_ask", seats=seats, args=WindowArgs)
    def ask_window(state: Any, frame: Frame, seat: int) -> Prompt:
        args = frame.arg(WindowArgs)
        mine = [t for t in pending(state, args) if t.seat == seat]
        opts = [Option(id=t.id, label=t.label, data=t) for t in mine]
        opts.append(Option(id=PASS, label="Pass (no response)", data=None))
        moment = "before" if args.window.timing == "when" else "after"
        what = flow.window_words(state, args.window) or event_words(args.window.event)
        return Prompt(seq=0, seats=[seat], kind=PromptKind.ONE, title=f"Respond {moment} {what}?",
                      reason="A timing window: cards in play may respond", options=opts, default=[PASS],
                      private=any(t.private for t in mine))

    @flow.answers("window_ask")
    def answer_window(state: Any, frame: Frame, answer: Answer, events: list[Event]) -> None:
        args = frame.arg(WindowArgs)
        trigger = answer.data
        if trigger is None:
            frame.args["passed"] = [*args.passed, answer.seat]
            return
        # a response: this round of questions ends, and a new priority round opens after it resolves
        flow.cancel(state, frame.id)
        flow.push(state, "window", frame.seat, frame.source, window=args.window, used=[*args.used, trigger.id],
                  passed=[])
        events.append(Event(kind="window.response", text=trigger.label, seat=trigger.seat, cause=trigger.source))
        flow.push_steps(state, trigger.steps)


def event_words(event: str) -> str:
    """An event's name as words, for a game that gives none ("enemy.attack" -> "the enemy attack")."""
    return "the " + event.replace(".", " ").replace("_", " ")


def around(flow: Flow[Any], state: Any, event: str, body: Step, data: dict[str, Any] | None = None,
           seat: int | None = None, source: str = "") -> Frame:
    """Push a when window, the event's own frame, and an after window. Returns the event's frame."""
    target = flow.frame(state, body.op, body.seat, body.source, **body.args)
    after = flow.frame(state, "window", seat, source, window=Window(timing="after", event=event, target=target.id,
                                                                     data=data or {}))
    when = flow.frame(state, "window", seat, source, window=Window(timing="when", event=event, target=target.id,
                                                                    data=data or {}))
    target.linked.append(after.id)  # what did not happen has no "after"
    flow.push_frames(state, [when, target, after])
    return target


def cancel_event(flow: Flow[Any], state: Any, target: int) -> bool:
    """Cancel a pending event frame; its after window is linked to it (`around`), so it closes too."""
    return flow.cancel(state, target)
