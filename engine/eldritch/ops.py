"""Eldritch Horror's op registry on the kernel (engine/core/flow.py), and the helpers every rules module uses.

`auto(name)` registers an automatic frame, `asks(name)` a question for one seat, `answers(name)` its answer.
Frames carry plain dict arguments (no model): they are built on every step of every game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from engine.core.errors import EngineError
from engine.core.events import Event
from engine.core.flow import Flow, Frame
from engine.core.prompt import Option, OptionRole, Prompt, PromptKind, Unavailable
from engine.core.text import played_by
from engine.core.text import plural as plural
from engine.core.trusted import defaults, trusted
from engine.eldritch.content import EldritchContent, content_of
from engine.eldritch.state import EldritchState

FLOW: Flow[EldritchState] = Flow("eldritch")

auto = FLOW.auto
asks = FLOW.ask
answers = FLOW.answers
Events = list[Event]

# engine/core/trusted.py's construction, inlined where the engine builds models by the thousand
_new = object.__new__
_set_dict = object.__setattr__
_set_fields_set = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__

#: frames that belong to the structure of a round, not to anyone's resolution: a defeat never cancels them
STRUCTURE_OPS = frozenset({
    "round_start", "turn", "action_phase_end", "encounter_turn", "encounter_phase", "mythos_phase",
    "mythos_end", "pick_investigator", "pass_lead", "round_end", "refill_reserve", "end_turn",
})


_FRAME_FIELDS: set[str] = set(Frame.model_fields)
_OPS = FLOW.ops


def push(state: EldritchState, op: str, seat: int | None = None, **args: Any) -> Frame:
    """Push a frame; it runs before everything already on the stack. Our ops take plain dict arguments (no
    model to check them against), so the frame is built without re-validation, as the kernel's `Flow.push`
    builds such frames, minus a call: several frames are pushed for every action of every game."""
    if op not in _OPS:
        raise EngineError(f"eldritch: no op '{op}'")
    fs = state.flow
    counter = fs.__dict__
    fid = counter["next_id"]
    counter["next_id"] = fid + 1  # a plain counter, as in Flow.frame
    source = args.get("source") or ""
    frame = _new(Frame)  # engine.core.trusted.trusted, inlined
    _set_dict(frame, "__dict__", {"id": fid, "op": op, "seat": seat, "source": source, "args": args, "seq": 0,
                                  "seqs": {}, "done": [], "cancelled": False, "linked": []})
    _set_fields_set(frame, _FRAME_FIELDS)
    _set_extra(frame, None)
    _set_private(frame, None)
    fs.stack.append(frame)
    return frame


def resolve(state: EldritchState, seat: int | None, effects: list[dict[str, Any]], source: str, *,
            card: str | None = None, monster: int | None = None, space: str | None = None) -> None:
    """Push an effect list to resolve next (before whatever is already pending): an `fx` frame, which the
    effect interpreter (effects.py) runs."""
    if effects:
        push(state, "fx", seat, effects=effects, source=source, card=card, monster=monster, space=space)


#: the effect interpreter's entry (effects.run_effects), registered by effects.py as it registers the `fx` op:
#: the rules modules resolve effect lists through it without importing the interpreter, which calls them
_interpreter: list[Callable[..., None]] = []


def interpreter(fn: Callable[..., None]) -> Callable[..., None]:
    """Register the effect interpreter `resolve_now` runs (effects.py does, once)."""
    _interpreter[:] = [fn]
    return fn


def resolve_now(state: EldritchState, seat: int | None, effects: list[dict[str, Any]], source: str, events: Events,
                *, card: str | None = None, monster: int | None = None, space: str | None = None) -> None:
    """Resolve an effect list at once: exactly what `resolve` and then running its frame does, for a caller
    whose `resolve` would be the last thing it pushes before the driver runs again (so that frame would run
    next). It saves a frame for most encounters and test results."""
    if effects:
        _interpreter[0](state, seat, effects, source, {"card": card, "monster": monster, "space": space}, events)


def push_seq(state: EldritchState, steps: list[tuple[str, int | None, dict[str, Any]]]) -> None:
    """Push several frames so that they run in the order given."""
    for op, seat, args in reversed(steps):
        push(state, op, seat, **args)


#: (version, content) last asked for: nearly every rules step asks, and a game keeps one version. One tuple,
#: read once, so a thread asking for another version meanwhile never mixes the two.
_last_content: tuple[str, EldritchContent] | None = None


def content(state: EldritchState) -> EldritchContent:
    global _last_content
    last = _last_content
    version = state.content_version
    if last is not None and last[0] == version:
        return last[1]
    found = content_of(version)
    _last_content = (version, found)
    return found


#: every narration Event is made with all its fields set, so they share one "fields set" (as frames do in
#: engine/core/flow.py: pydantic only ever adds names to it, and they are all in it already)
_EVENT_FIELDS: set[str] = set(Event.model_fields)


def say(events: Events, text: str, seat: int | None = None, cause: str = "", kind: str = "narration",
        **data: Any) -> None:
    """Narrate. Built without re-validation (engine/core/trusted.py, inlined): every value here is the
    engine's own, and a game narrates a thousand lines."""
    event = _new(Event)
    _set_dict(event, "__dict__", {"kind": kind, "text": text, "seat": seat, "cause": cause, "data": data,
                                  "private_to": None, "render": False})
    _set_fields_set(event, _EVENT_FIELDS)
    _set_extra(event, None)
    _set_private(event, None)
    events.append(event)


_OPTION_FIELDS: set[str] = set(Option.model_fields)
_PROMPT, _PROMPT_FACTORIES = defaults(Prompt, {"seq", "seats", "kind", "title", "reason", "options", "default"})


def option(oid: str, label: str, data: Any = None, detail: str = "", role: OptionRole = "main") -> Option:
    """An Option from the engine's own values, built without re-validation (engine/core/trusted.py): a random
    playout builds a dozen for every decision."""
    opt = _new(Option)  # engine.core.trusted.trusted, inlined
    _set_dict(opt, "__dict__", {"id": oid, "label": label, "detail": detail, "data": data, "then": (),
                                  "role": role, "private": False})
    _set_fields_set(opt, _OPTION_FIELDS)
    _set_extra(opt, None)
    _set_private(opt, None)
    return opt


def ask_one(frame: Frame, title: str, reason: str, options: list[Option], default: str | None = None,
            unavailable: tuple[Unavailable, ...] = ()) -> Prompt:
    """A choose-one question for the frame's seat (the engine's own values, built without re-validation).
    `default` is what a moderator's skip answers (the first option unless named); `unavailable` the choices
    closed now, with why."""
    values = dict(_PROMPT, seq=frame.seq, seats=[frame.owner], kind=PromptKind.ONE, title=title, reason=reason,
                  options=options,
                  default=[default] if default is not None else [options[0].id] if options else None)
    if unavailable:
        values["unavailable"] = unavailable
    for field, factory in _PROMPT_FACTORIES:
        values[field] = factory()
    return trusted(Prompt, values)


def name(state: EldritchState, seat: int) -> str:
    """'Ada Whitlock (Bob)': the investigator with the player who plays them."""
    inv = state.investigators[seat]
    who = state.seats[seat].name
    if inv.card is None:
        return who
    return played_by(content(state).investigators[inv.card].name, who)


def short(state: EldritchState, seat: int) -> str:
    inv = state.investigators[seat]
    if inv.card is None:
        return state.seats[seat].name
    return content(state).investigators[inv.card].name.split(" ")[0]


def seats_from_lead(state: EldritchState) -> list[int]:
    n = len(state.investigators)
    return [(state.lead + i) % n for i in range(n)]


def active_seats(state: EldritchState) -> list[int]:
    """Seats with an investigator in play, from the Lead clockwise (Investigator.active, inlined: this is
    asked at nearly every step)."""
    invs = state.investigators
    lead = state.lead
    return [s for s in (*range(lead, len(invs)), *range(lead))
            if invs[s].card is not None and not invs[s].defeated and not invs[s].eliminated]


#: version -> every card's name by id (ids are unique across a pack: content.load_pack checks it)
_CARD_NAMES: dict[str, dict[str, str]] = {}


def card_name(state: EldritchState, card: str) -> str:
    names = _CARD_NAMES.get(state.content_version)
    if names is None:
        c = content(state)
        names = {}
        for table in (c.assets, c.artifacts, c.spells, c.conditions, c.mythos, c.mysteries, c.monsters,
                      c.investigators, c.ancient_ones, c.other_worlds, c.expeditions, c.specials, c.locations,
                      c.research):
            names.update((k, v.name) for k, v in table.items())
        _CARD_NAMES[state.content_version] = names
    return names.get(card) or RULE_NAMES.get(card, card)


#: the rules that cause things when no card does, as players name them
RULE_NAMES = {"rule.acquire": "the Acquire Assets action", "rule.rest": "the Rest action",
              "rule.prepare": "the Prepare for Travel action", "rule.bank-loan": "a Bank Loan"}


