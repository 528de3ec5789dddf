"""Elder Sign's op registry on the kernel (engine/core/flow.py), and the short names the rules use.

`auto(name)` registers an automatic frame, `asks(name)` an "any one of these seats" question, `each(name, ...)`
a question every listed seat answers independently, `answers(name)` the answer of a question. The driver is the
kernel's; what is Elder Sign's is the ops themselves and the `lapse` hook in rules.py.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from engine.core.events import Event
from engine.core.flow import Flow, Frame
from engine.core.prompt import Option, OptionRole, Prompt, PromptKind, Unavailable
from engine.core.trusted import defaults
from engine.elder_sign.choices import DoTask
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
    frame = FLOW.push_args(state, op, seat, str(args.get("source", "")), args)
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


# ---------------------------------------------------------------- building prompts, options and events
# The rules build these from their own values, several per action of every game: `option(...)` is
# `Option(...)`, `event(...)` is `Event(...)` and `prompt(...)` is `Prompt(...)`, made without validating
# again what the engine produced (engine/core/trusted.py). mypy checks the argument types.

_new = object.__new__
_set = object.__setattr__
_set_fields_set = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__
_OPTION, _OPTION_MAKE = defaults(Option, {"id", "label", "detail", "data", "role"})
_EVENT, _EVENT_MAKE = defaults(Event, {"kind", "text", "seat", "cause", "data", "render"})
_PROMPT, _PROMPT_MAKE = defaults(Prompt, {"seq", "seats", "kind", "title", "reason", "options", "default",
                                          "min_choices", "max_choices"})


#: the fields these constructors know; while the models have exactly these, the values are written as one
#: literal (the common case, measured); a field added to a model later goes through its template instead
_OPTION_FAST = tuple(Option.model_fields) == ("id", "label", "detail", "data", "then", "role", "private")
_EVENT_FAST = tuple(Event.model_fields) == ("kind", "text", "seat", "cause", "data", "private_to", "render")
_PROMPT_FAST = (tuple(Prompt.model_fields) == ("seq", "seats", "kind", "title", "reason", "options", "min_choices",
                                               "max_choices", "min_amount", "max_amount", "default",
                                               "default_amount", "private", "unavailable")
                and (Prompt.model_fields["min_amount"].default, Prompt.model_fields["max_amount"].default,
                     Prompt.model_fields["default_amount"].default, Prompt.model_fields["private"].default,
                     Prompt.model_fields["unavailable"].default)
                == (0, 0, None, False, ()))
_PROMPT_FIELDS = set(Prompt.model_fields)


def option(*, id: str, label: str, data: Any = None, detail: str = "",  # noqa: A002 - Option's field
           role: OptionRole = "main") -> Option:
    # trusted(Option, ...) written out: this and `event` run several times per action of every game
    if _OPTION_FAST:
        values = {"id": id, "label": label, "detail": detail, "data": data, "then": (), "role": role,
                  "private": False}
    else:
        values = _OPTION.copy()  # every field, in the model's order
        values["id"], values["label"], values["detail"], values["data"] = id, label, detail, data
        values["role"] = role
        for name, make in _OPTION_MAKE:
            values[name] = make()
    o = _new(Option)
    _set(o, "__dict__", values)
    _set_fields_set(o, {"id", "label", "data", "detail"} if detail else {"id", "label", "data"})
    _set_extra(o, None)
    _set_private(o, None)
    return o


def event(*, kind: str, text: str, seat: int | None = None, cause: str = "", data: dict[str, Any] | None = None,
          render: bool = False) -> Event:
    if _EVENT_FAST:
        values = {"kind": kind, "text": text, "seat": seat, "cause": cause, "data": {} if data is None else data,
                  "private_to": None, "render": render}
    else:
        values = _EVENT.copy()
        values.update(kind=kind, text=text, seat=seat, cause=cause, data={} if data is None else data,
                      render=render)
        for name, make in _EVENT_MAKE:
            values[name] = make()
    e = _new(Event)
    _set(e, "__dict__", values)
    _set_fields_set(e, {"kind", "text", "seat", "cause", "data", "render"})
    _set_extra(e, None)
    _set_private(e, None)
    return e


def prompt(*, seq: int, seats: list[int], kind: PromptKind, title: str, reason: str = "", options: list[Option],
           default: list[str] | None = None, min_choices: int = 1, max_choices: int = 1,
           unavailable: tuple[Unavailable, ...] = ()) -> Prompt:
    if len({o.label for o in options}) != len(options):
        options = told_apart(options)
    if _PROMPT_FAST:
        values = {"seq": seq, "seats": seats, "kind": kind, "title": title, "reason": reason, "options": options,
                  "min_choices": min_choices, "max_choices": max_choices, "min_amount": 0, "max_amount": 0,
                  "default": default, "default_amount": None, "private": False,
                  "unavailable": unavailable}
    else:
        values = _PROMPT.copy()
        values.update(seq=seq, seats=seats, kind=kind, title=title, reason=reason, options=options,
                      min_choices=min_choices, max_choices=max_choices, default=default, unavailable=unavailable)
        for name, make in _PROMPT_MAKE:
            values[name] = make()
    p = _new(Prompt)
    _set(p, "__dict__", values)
    # every field is set (trusted(Prompt, values) would say so with a set of its own): one shared set serves,
    # since pydantic only ever adds names to it, and they are all in it already
    _set_fields_set(p, _PROMPT_FIELDS)
    _set_extra(p, None)
    _set_private(p, None)
    return p


def told_apart(options: list[Option]) -> list[Option]:
    """Options whose labels are the same get a suffix that tells them apart: the task's place on the card for
    ways to complete identical printed tasks, else a count ("green Lore (1)", "green Lore (2)"). Options with
    a label of their own are unchanged."""
    seen: dict[str, int] = {}
    for o in options:
        seen[o.label] = seen.get(o.label, 0) + 1
    count: dict[str, int] = {}
    out = []
    for o in options:
        if seen[o.label] == 1:
            out.append(o)
            continue
        count[o.label] = n = count.get(o.label, 0) + 1
        data = o.data
        if isinstance(data, DoTask) and data.key[:1] == "t" and data.key[1:].isdigit():
            suffix = f" (task {int(data.key[1:]) + 1})"
        else:
            suffix = f" ({n})"
        out.append(option(id=o.id, label=o.label[:100 - len(suffix)] + suffix, data=o.data, detail=o.detail))
    if len({o.label for o in out}) != len(out):  # two ways for one task that read the same: count them all
        out = [option(id=o.id, label=f"{o.label[:95]} ({n})", data=o.data, detail=o.detail)
               for n, o in enumerate(out, 1)]
    return out
