"""The card game's op registry on the kernel (engine/core/flow.py) and the shared helpers bound to it:
pushing frames in order, narrating, and the generic "pick one" question (the lead settles group choices,
FAQ §1.5).

`say`, `option` and `step` build their models from the engine's own values without validating them again
(engine/core/trusted.py): a random playout narrates, offers and pushes several of each per action. Each makes
the model its class would make from the same values (every field set, as the other games' fast constructors
do)."""

from __future__ import annotations

from typing import Any

from engine.arkham_lcg.state import LcgState
from engine.core.events import Event
from engine.core.flow import Flow, Step
from engine.core.game_ops import Events, GameOps
from engine.core.prompt import Option, OptionRole
from engine.core.trusted import trusted

FLOW: Flow[LcgState] = Flow("arkham-lcg")
OPS = GameOps(FLOW)

auto = FLOW.auto
asks = FLOW.ask
answers = FLOW.answers
push = OPS.push
seq = OPS.seq
pick = OPS.pick

_EVENT_FIELDS = frozenset(Event.model_fields)
_OPTION_FIELDS = frozenset(Option.model_fields)
_STEP_FIELDS = frozenset(Step.model_fields)


def say(events: Events, text: str, kind: str = "note", seat: int | None = None, cause: str = "",
        render: bool = False, private_to: int | None = None, **data: Any) -> None:
    """Narrate one event (engine.core.game_ops.say). `private_to`: only that seat may read it (a card drawn
    into a hand)."""
    events.append(trusted(Event, {"kind": kind, "text": text, "seat": seat, "cause": cause, "data": data,
                                  "private_to": private_to, "render": render}, set(_EVENT_FIELDS)))


def option(oid: str, label: str, data: Any = None, detail: str = "", role: OptionRole = "main",
           private: bool = False) -> Option:
    """An Option (no `then`: the card game's options carry their steps in `data`)."""
    return trusted(Option, {"id": oid, "label": label, "detail": detail, "data": data, "then": (), "role": role,
                            "private": private}, set(_OPTION_FIELDS))


def step(op: str, seat: int | None = None, source: str = "", args: dict[str, Any] | None = None) -> Step:
    """A Step; `args` becomes the step's own (pass a dict nobody else holds)."""
    return trusted(Step, {"op": op, "seat": seat, "source": source, "args": {} if args is None else args},
                   set(_STEP_FIELDS))


__all__ = ["FLOW", "Events", "answers", "asks", "auto", "option", "pick", "push", "say", "seq", "step"]
