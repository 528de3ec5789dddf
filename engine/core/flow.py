"""The resolution kernel every game runs on: a stack of typed frames, a per-game op registry, one driver.

A pending resolution is a stack of `Frame`s kept in the game state (the last one is next). A frame names an
op registered with the game's `Flow`, carries its arguments (validated by the op's model when pushed), the seat
it belongs to, the card or rule that pushed it and an id unique in the game, so other effects can name it
("cancel that test", "instead of that damage") without searching the stack by op name.

An op is one of three kinds:

* **auto** — runs at once (`run(state, frame, events)`), usually pushing more frames;
* **ask** — a question for *any one* of some seats: one `Prompt`; the first valid answer resolves it;
* **each** — a question for *each* of some seats, independently: one `Prompt` per seat, all pending at once,
  answerable in any order; the frame completes when every seat has answered.

Options carry their continuation: an `Option` may hold typed `data` (read by the op's answer function) and
`then` (steps the kernel pushes when it is chosen). Option ids are opaque keys: stable for the same state
(so a button posted earlier still means the same thing) and never parsed back.

The driver (`Flow.run`) runs automatic frames until one asks or the game ends. It knows nothing about any
game: a game plugs in through its ops and two hooks (`triggers` for timing windows, `lapse` for a question
whose seat can no longer answer).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel, Field, ValidationError

from engine.core.errors import EngineError, IllegalAction
from engine.core.events import Event
from engine.core.prompt import Action, Option, Prompt

S = TypeVar("S")  # a game's state type
A = TypeVar("A", bound=BaseModel)
Events = list[Event]

#: a rules loop (automatic frames that never ask and never end) is a bug; stop it loudly
MAX_AUTO_STEPS = 100_000


class Frame(BaseModel):
    """One pending step of resolution. Plain data: the stack round-trips through JSON exactly."""

    id: int
    op: str
    seat: int | None = None
    source: str = ""  # the card id or rule that pushed it ("why is this happening?")
    args: dict[str, Any] = Field(default_factory=dict)
    seq: int = 0  # an "ask" frame: the sequence number of its prompt, once asked
    seqs: dict[int, int] = Field(default_factory=dict)  # an "each" frame: seat -> its prompt's seq
    done: list[int] = Field(default_factory=list)  # an "each" frame: seats that have answered
    cancelled: bool = False
    linked: list[int] = Field(default_factory=list)  # frames that only make sense with this one: cancelled with it

    def arg(self, model: type[A]) -> A:
        """The arguments as the op's model (they were checked against it when the frame was pushed)."""
        return model.model_validate(self.args)

    @property
    def owner(self) -> int:
        """The seat of a frame that always belongs to one (a question, a step of someone's turn). A frame
        pushed without a seat where its op needs one is a bug in the game: it says so, naming the op."""
        seat: int | None = self.__dict__["seat"]  # one read of the model: asked several times per action
        if seat is None:
            raise EngineError(f"frame {self.id} ('{self.op}', from '{self.source}') has no seat, but its op "
                              "acts for one")
        return seat


#: every Frame is made with all its fields set, so all frames can share one "fields set" (pydantic only ever
#: adds names to it, and they are all in it already)
_FRAME_FIELDS: set[str] = set(Frame.model_fields)


_object_new = object.__new__
_set_dict = object.__setattr__
_set_fields_set = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__


def _new_frame(values: dict[str, Any]) -> Frame:
    """A Frame from already-checked values, without pydantic's construction overhead: frames are made on every
    step of every game, and `model_construct` was a tenth of a random playout's time. Equivalent to
    `Frame.model_construct(**values)` with every field given."""
    frame = _object_new(Frame)
    _set_dict(frame, "__dict__", values)
    _set_fields_set(frame, _FRAME_FIELDS)
    _set_extra(frame, None)
    _set_private(frame, None)
    return frame


class Step(BaseModel):
    """A frame not yet on the stack (no id): what an option or a trigger will push when chosen. Building a
    prompt must not change the state, so options carry steps, and ids are given only when they are pushed."""

    op: str
    seat: int | None = None
    source: str = ""
    args: dict[str, Any] = Field(default_factory=dict)


class OpKind(StrEnum):
    AUTO = "auto"
    ASK = "ask"
    EACH = "each"


RunFn = Callable[[Any, Frame, Events], None]
AskFn = Callable[[Any, Frame], Prompt]
EachAskFn = Callable[[Any, Frame, int], Prompt]
SeatsFn = Callable[[Any, Frame], list[int]]
AnswerFn = Callable[[Any, Frame, "Answer", Events], None]
DoneFn = Callable[[Any, Frame, Events], None]


@dataclass(kw_only=True)
class Op:
    """A registered op; one subclass per kind, so each carries exactly the functions its kind needs."""

    kind: ClassVar[OpKind]
    name: str
    args: type[BaseModel] | None = None
    answer: AnswerFn | None = None  # a question's answer (registered by `Flow.answers`)


@dataclass(kw_only=True)
class AutoOp(Op):
    kind: ClassVar[OpKind] = OpKind.AUTO
    run: RunFn


@dataclass(kw_only=True)
class AskOp(Op):
    kind: ClassVar[OpKind] = OpKind.ASK
    ask: AskFn


@dataclass(kw_only=True)
class EachOp(Op):
    kind: ClassVar[OpKind] = OpKind.EACH
    ask: EachAskFn
    seats: SeatsFn  # who is asked (fixed when the frame is first reached)
    done: DoneFn | None = None  # after the last seat answered


@dataclass
class Answer:
    """What an answer function receives: the action, the seat that gave it and the options it chose."""

    action: Action
    seat: int
    options: list[Option] = field(default_factory=list)

    @property
    def option(self) -> Option:
        return self.options[0]

    @property
    def data(self) -> Any:
        """The chosen option's data (a one-option answer)."""
        return self.options[0].data

    @property
    def amount(self) -> int:
        return self.action.amount if self.action.amount is not None else 0


class FlowState(BaseModel):
    """The part of a game's state the kernel owns. A game state includes it (`GameState.flow`)."""

    stack: list[Frame] = Field(default_factory=list)
    next_id: int = 1


class Flow(Generic[S]):
    """One game's op registry and its driver. Each game makes its own (`FLOW = Flow("<game id>")`)."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.ops: dict[str, Op] = {}
        #: a question whose seat can no longer answer: return True to drop the frame (it may also fix the
        #: frame, e.g. hand it to another seat, and return False)
        self.lapse: Callable[[Any, Frame], bool] = lambda state, frame: False
        #: timing windows: the triggers of every card in play for one window (engine/core/windows.py)
        self.triggers: Callable[[Any, Any], list[Any]] = lambda state, window: []
        #: timing windows: what a window is around, in players' words ("Lantern Watchman attacks Roland"), for
        #: the title of its question; "" falls back to the event's name written as words
        self.window_words: Callable[[Any, Any], str] = lambda state, window: ""
        from engine.core import windows  # the kernel's own ops live in every game's registry

        windows.install(self)

    # ------------------------------------------------------------------ registration

    def _add(self, op: Op) -> None:
        if op.name in self.ops:
            raise EngineError(f"{self.game}: op '{op.name}' registered twice")
        self.ops[op.name] = op

    def auto(self, name: str, args: type[BaseModel] | None = None) -> Callable[[RunFn], RunFn]:
        def deco(fn: RunFn) -> RunFn:
            self._add(AutoOp(name=name, args=args, run=fn))
            return fn
        return deco

    def ask(self, name: str, args: type[BaseModel] | None = None) -> Callable[[AskFn], AskFn]:
        """Register the prompt of an "any one of these seats" question; pair it with `answers(name)`."""
        def deco(fn: AskFn) -> AskFn:
            self._add(AskOp(name=name, args=args, ask=fn))
            return fn
        return deco

    def each(self, name: str, seats: SeatsFn, args: type[BaseModel] | None = None,
             done: DoneFn | None = None) -> Callable[[EachAskFn], EachAskFn]:
        """Register a question asked of each of `seats(state, frame)` at once (prompt built per seat)."""
        def deco(fn: EachAskFn) -> EachAskFn:
            self._add(EachOp(name=name, args=args, ask=fn, seats=seats, done=done))
            return fn
        return deco

    def answers(self, name: str) -> Callable[[AnswerFn], AnswerFn]:
        def deco(fn: AnswerFn) -> AnswerFn:
            self.ops[name].answer = fn
            return fn
        return deco

    # ------------------------------------------------------------------ the stack

    def frame(self, state: Any, op: str, seat: int | None = None, source: str = "", /, **args: Any) -> Frame:
        """A new frame (not yet on the stack), its arguments checked against the op's model."""
        spec = self.ops.get(op)
        if spec is None:
            raise EngineError(f"{self.game}: no op '{op}'")
        if spec.args is not None:
            try:
                args = spec.args.model_validate(args).model_dump()
            except ValidationError as exc:
                raise EngineError(f"{self.game}: bad arguments for '{op}': {exc}") from exc
        fs: FlowState = state.flow
        fid = fs.next_id
        fs.__dict__["next_id"] = fid + 1  # a plain counter: skip pydantic's assignment hook on this hot path
        return _new_frame({"id": fid, "op": op, "seat": seat, "source": source, "args": args, "seq": 0, "seqs": {},
                           "done": [], "cancelled": False, "linked": []})

    def push(self, state: Any, op: str, seat: int | None = None, source: str = "", /, **args: Any) -> Frame:
        """Push a frame: it runs before everything already on the stack."""
        return self.push_args(state, op, seat, source, args)

    def push_args(self, state: Any, op: str, seat: int | None, source: str, args: dict[str, Any]) -> Frame:
        """`push` with the arguments as a dict, which the frame keeps (the caller gives it up): a game's own
        push helper that already holds its arguments as a dict saves building another."""
        spec = self.ops.get(op)
        fs = state.flow.__dict__  # plain reads and writes of the counter and the stack (see `run`)
        if spec is None or spec.args is not None:
            f = self.frame(state, op, seat, source, **args)
        else:  # the common case, inlined (with _new_frame): this runs several times per action of every game
            fid = fs["next_id"]
            fs["next_id"] = fid + 1
            f = _object_new(Frame)
            _set_dict(f, "__dict__", {"id": fid, "op": op, "seat": seat, "source": source, "args": args, "seq": 0,
                                      "seqs": {}, "done": [], "cancelled": False, "linked": []})
            _set_fields_set(f, _FRAME_FIELDS)
            _set_extra(f, None)
            _set_private(f, None)
        fs["stack"].append(f)
        return f

    def push_frames(self, state: Any, frames: Iterable[Frame]) -> None:
        """Push ready-made frames so that they run in the order given."""
        state.flow.stack.extend(reversed(frames if isinstance(frames, list) else list(frames)))

    def push_steps(self, state: Any, steps: Iterable[Step]) -> list[Frame]:
        """Push steps (an option's or a trigger's continuation) so that they run in the order given."""
        frames = [self.frame(state, s.op, s.seat, s.source, **s.args) for s in steps]
        self.push_frames(state, frames)
        return frames

    def push_all(self, state: Any, steps: list[tuple[str, int | None, dict[str, Any]]]) -> list[Frame]:
        """Push several frames so that they run in the order given."""
        frames = [self.frame(state, op, seat, **args) for op, seat, args in steps]
        state.flow.stack.extend(reversed(frames))
        return frames

    @staticmethod
    def find(state: Any, frame_id: int) -> Frame | None:
        stack: list[Frame] = state.flow.stack
        for f in stack:
            if f.id == frame_id:
                return f
        return None

    def cancel(self, state: Any, frame_id: int) -> bool:
        """Cancel a pending frame by id, and the frames linked to it: each is dropped unrun when reached. False
        if the frame is not pending."""
        f = self.find(state, frame_id)
        if f is None:
            return False
        f.cancelled = True
        for linked in f.linked:
            self.cancel(state, linked)
        return True

    def instead(self, state: Any, frame_id: int, frames: list[Frame]) -> bool:
        """Replace a pending frame: it is cancelled and `frames` run where it would have run."""
        stack: list[Frame] = state.flow.stack
        for i, f in enumerate(stack):
            if f.id == frame_id and not f.cancelled:
                f.cancelled = True
                stack[i + 1:i + 1] = list(reversed(frames))
                return True
        return False

    def unwind_to(self, state: Any, frame_id: int) -> None:
        """Drop every frame above the frame `frame_id` (it stays). Used when a rule ends a resolution early."""
        stack: list[Frame] = state.flow.stack
        for i in range(len(stack) - 1, -1, -1):
            if stack[i].id == frame_id:
                del stack[i + 1:]
                return
        raise EngineError(f"{self.game}: frame {frame_id} is not on the stack")

    @staticmethod
    def clear(state: Any) -> None:
        state.flow.stack.clear()

    # ------------------------------------------------------------------ the driver

    def run(self, state: Any, events: Events) -> None:
        """Run automatic frames until one asks a question or the game ends."""
        stack: list[Frame] = state.flow.stack
        ops = self.ops
        # `over` and the frames' fields are read as plain values: this loop runs for every step of every game
        # (a pydantic model's attribute read costs several dict reads), and every write lands in `__dict__`
        values = state.__dict__
        for _ in range(MAX_AUTO_STEPS):
            if values["over"] or not stack:
                return
            # a question stays on the stack while it waits; everything else is popped, then run
            top = stack[-1]
            frame = top.__dict__
            if frame["cancelled"]:
                stack.pop()
                continue
            op = ops[frame["op"]]
            if isinstance(op, AutoOp):
                stack.pop()
                op.run(state, top, events)
                continue
            if self.lapse(state, top):
                if stack and stack[-1] is top:
                    stack.pop()
                continue
            if not isinstance(op, EachOp):  # an "ask": one prompt, numbered when first reached
                if frame["seq"] == 0:
                    # state.next_seq(), written out (a plain counter); a plain write too: every Frame field is set
                    frame["seq"] = values["prompt_seq"] = values["prompt_seq"] + 1
                return
            if not top.seqs:
                seats = op.seats(state, top)
                if not seats:
                    stack.pop()
                    if op.done is not None:
                        op.done(state, top, events)
                    continue
                top.seqs = {s: state.next_seq() for s in seats}
            return
        raise EngineError(f"{self.game}: too many automatic steps without a decision (a rules loop)")

    def prompts(self, state: Any) -> list[Prompt]:
        """The questions pending now: one prompt for an "ask" frame, one per unanswered seat for "each"."""
        stack: list[Frame] = state.flow.stack
        if state.over or not stack:
            return []
        top = stack[-1]
        frame = top.__dict__  # plain reads, as in `run`
        op = self.ops[frame["op"]]
        if isinstance(op, AskOp):
            seq = frame["seq"]
            if seq == 0:
                return []
            p = op.ask(state, top)
            if p.seq != seq:
                p.seq = seq
            return [p]
        if isinstance(op, EachOp):
            out = []
            for seat, seq in top.seqs.items():
                if seat not in top.done:
                    p = op.ask(state, top, seat)
                    p.seq, p.seats = seq, [seat]
                    out.append(p)
            return out
        return []

    def apply(self, state: Any, action: Action, prompt: Prompt) -> Events:
        """Apply an answer to `prompt` (already validated against it) and run on until the next question."""
        stack: list[Frame] = state.flow.stack
        top = stack[-1]
        op = self.ops[top.__dict__["op"]]
        choice = action.choice
        if len(choice) == 1:  # the usual answer: one option
            one = choice[0]
            chosen = [o for o in prompt.options if o.id == one]
        else:
            chosen = [o for c in choice for o in prompt.options if o.id == c]
        answer = Answer(action=action, seat=action.seat, options=chosen)
        events: Events = []
        if isinstance(op, EachOp):
            top.done.append(action.seat)
            finished = len(top.done) >= len(top.seqs)
            if finished:
                stack.pop()
        elif isinstance(op, AskOp):
            stack.pop()
            finished = True
        else:
            raise IllegalAction("That choice has passed: the game has moved on.")
        for o in reversed(chosen):
            if o.then:
                self.push_steps(state, o.then)
        if op.answer is not None:
            op.answer(state, top, answer, events)
        if isinstance(op, EachOp) and finished and op.done is not None:
            op.done(state, top, events)
        self.run(state, events)
        return events
