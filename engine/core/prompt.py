"""Prompts (a decision the engine waits for) and Actions (an answer to one).

Every decision in every game is a Prompt, so the bot can render any of them generically: buttons for a few
options, a select menu for many or for multi-choice. An Action always answers a specific prompt by its
`seq`, which is what makes stale clicks detectable: a prompt's seq is never reused within a game.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from functools import partial
from itertools import combinations, permutations
from typing import Any, Literal

from pydantic import BaseModel, Field

from engine.core.errors import IllegalAction
from engine.core.trusted import defaults, trusted


class PromptKind(StrEnum):
    ONE = "one"  # choose exactly one option
    MANY = "many"  # choose between min_choices and max_choices distinct options
    AMOUNT = "amount"  # choose an integer in [min_amount, max_amount]
    CONFIRM = "confirm"  # options are "yes" and "no"
    ORDER = "order"  # put every option in an order


OptionRole = Literal["main", "secondary", "danger", "pass"]


class Option(BaseModel):
    """One choice. `id` is an opaque key (stable for the same state, never parsed back); `data` is what the
    game's answer function reads; `then` holds steps (engine.core.flow.Step) the kernel pushes when the
    option is chosen. Neither `data` nor `then` is shown to players."""

    id: str
    label: str
    detail: str = ""
    data: Any = Field(default=None, exclude=True, repr=False)
    then: tuple[Any, ...] = Field(default=(), exclude=True, repr=False)  # a tuple: no list made per option
    #: what kind of choice it is, for front ends to tell apart at a glance: "main" (the choices of the
    #: moment), "secondary" (a detour: a lookup, an optional extra), "danger" (gives something up for good:
    #: abandon an adventure, resign) or "pass" (ends the turn, declines, is done)
    role: OptionRole = "main"
    #: it names what only the prompt's seats may see (a card in their hand): front ends show it to them
    #: alone, and the rest of the question in the open
    private: bool = False


class Unavailable(Option):
    """A choice a player may name that the rules do not open now, with why in a few player-facing words
    ("Lucky Penny costs 2 resources; you have 1."). It is never an answer (`validate_action` reads `options`
    only): a prompt carries these beside its options so that a front end told a name that is no option can
    say why instead of listing the options. Its `data` is shaped like the option it would be, so whatever
    tells options apart by their data (a game command's shortcut) tells these apart the same way."""

    why: str = ""


class Prompt(BaseModel):
    seq: int
    seats: list[int]
    kind: PromptKind
    title: str
    reason: str = ""
    options: list[Option] = Field(default_factory=list)
    min_choices: int = 1
    max_choices: int = 1
    min_amount: int = 0
    max_amount: int = 0
    default: list[str] | None = None  # the answer a moderator's "skip" gives; None = no safe default
    default_amount: int | None = None
    # The prompt shows something only its seats may see (a hand, a secret): front ends show it to them
    # privately, never in the channel.
    private: bool = False
    #: the choices a player may name that are closed now, each with why (filled where the builder knows the
    #: reason cheaply; a tuple so that the many prompts without any share one empty default)
    unavailable: tuple[Unavailable, ...] = ()

    def option(self, option_id: str) -> Option | None:
        for o in self.options:
            if o.id == option_id:
                return o
        return None

    def validate_action(self, action: Action) -> None:
        """Raise IllegalAction unless `action` is a well-formed answer to this prompt."""
        # the fields are read as plain values (one read of each model, then dict reads): every action of every
        # game is checked here
        a, p = action.__dict__, self.__dict__
        if a["prompt"] != p["seq"]:
            raise IllegalAction("That choice has passed: the game has moved on.")
        if a["seat"] not in p["seats"]:
            raise IllegalAction("This decision is not yours to make.")
        choice, kind = a["choice"], p["kind"]
        if len(choice) == 1 and (kind is PromptKind.ONE or kind is PromptKind.CONFIRM):
            # the usual answer, checked without building the set of ids (the checks below, in their order,
            # come to the same for one choice)
            chosen = choice[0]
            for o in p["options"]:
                if o.id == chosen:
                    return
            raise IllegalAction(f"'{chosen}' is not one of the options.")
        ids = {o.id for o in self.options}
        if self.kind is PromptKind.AMOUNT:
            if action.amount is None or not self.min_amount <= action.amount <= self.max_amount:
                raise IllegalAction(f"Choose a number from {self.min_amount} to {self.max_amount}.")
            return
        if len(set(action.choice)) != len(action.choice):
            raise IllegalAction("The same option was chosen twice.")
        unknown = [c for c in action.choice if c not in ids]
        if unknown:
            raise IllegalAction(f"'{unknown[0]}' is not one of the options.")
        n = len(action.choice)
        if self.kind in (PromptKind.ONE, PromptKind.CONFIRM) and n != 1:
            raise IllegalAction("Choose exactly one option.")
        if self.kind is PromptKind.MANY and not self.min_choices <= n <= self.max_choices:
            if self.min_choices == self.max_choices:
                raise IllegalAction(f"Choose exactly {self.min_choices} options.")
            raise IllegalAction(f"Choose from {self.min_choices} to {self.max_choices} options.")
        if self.kind is PromptKind.ORDER and n != len(self.options):
            raise IllegalAction("Put every option in order.")

    def answers(self, seat: int, limit: int = 4096) -> list[Action]:
        """Every legal answer for `seat` (MANY and ORDER are capped at `limit` answers)."""
        if seat not in self.seats:
            return []
        kind = self.kind
        if (kind is PromptKind.ONE or kind is PromptKind.CONFIRM) and _ONE_FAST:
            return self._one_answers(seat)
        ids = [o.id for o in self.options]
        seq = self.seq
        # The answers are built from checked values (ints and this prompt's own option ids) as
        # `Action(seat=..., prompt=..., choice=[...])` would build them, without validating them again: a random
        # playout asks for every answer of every prompt. (A field Action may gain with a default factory
        # would need calling per answer: then the answers are validated as before.)
        make: Callable[[dict[str, Any], set[str]], Action] = _action if not _ACTION_MAKE else _validated_action
        if self.kind is PromptKind.AMOUNT:
            return [make(dict(_ACTION, seat=seat, prompt=seq, choice=[], amount=a), {"seat", "prompt", "amount"})
                    for a in range(self.min_amount, self.max_amount + 1)]
        if self.kind in (PromptKind.ONE, PromptKind.CONFIRM):
            return [make(dict(_ACTION, seat=seat, prompt=seq, choice=[i], amount=None), {"seat", "prompt", "choice"})
                    for i in ids]
        out: list[Action] = []
        if self.kind is PromptKind.MANY:
            for k in range(self.min_choices, min(self.max_choices, len(ids)) + 1):
                for combo in combinations(ids, k):
                    out.append(make(dict(_ACTION, seat=seat, prompt=seq, choice=list(combo), amount=None),
                                    {"seat", "prompt", "choice"}))
                    if len(out) >= limit:
                        return out
            return out
        for perm in permutations(ids):
            out.append(make(dict(_ACTION, seat=seat, prompt=seq, choice=list(perm), amount=None),
                            {"seat", "prompt", "choice"}))
            if len(out) >= limit:
                break
        return out

    def one_answer(self, seat: int, option_id: str) -> Action:
        """`Action(seat=seat, prompt=self.seq, choice=[option_id])`, built as `answers` builds each (an agent that
        picks an option before building its answer makes only this one)."""
        if not _ONE_FAST:
            return Action(seat=seat, prompt=self.seq, choice=[option_id])
        a = _new(Action)
        _set(a, "__dict__", {"seat": seat, "prompt": self.seq, "choice": [option_id], "amount": None})
        _set_fields_set(a, {"seat", "prompt", "choice"})
        _set_extra(a, None)
        _set_private(a, None)
        return a

    def _one_answers(self, seat: int) -> list[Action]:
        """`answers` of a one-choice prompt: `Action(seat=seat, prompt=seq, choice=[id])` per option, built as
        `trusted` builds it, written out in one loop (a random playout asks this of nearly every prompt)."""
        seq = self.seq
        out = []
        for o in self.options:
            a = _new(Action)
            _set(a, "__dict__", {"seat": seat, "prompt": seq, "choice": [o.id], "amount": None})
            _set_fields_set(a, {"seat", "prompt", "choice"})
            _set_extra(a, None)
            _set_private(a, None)
            out.append(a)
        return out


class Action(BaseModel):
    """One answer to one prompt. This is what the action log stores."""

    seat: int
    prompt: int
    choice: list[str] = Field(default_factory=list)
    amount: int | None = None


#: every field of Action in order, with the defaults of those `Prompt.answers` does not set
_ACTION, _ACTION_MAKE = defaults(Action, {"seat", "prompt", "choice", "amount"})


_action: Callable[[dict[str, Any], set[str]], Action] = partial(trusted, Action)


#: whether Action has exactly the fields `Prompt._one_answers` writes, in this order, and no default to make per
#: answer (else the general path is taken)
_ONE_FAST = tuple(Action.model_fields) == ("seat", "prompt", "choice", "amount") and not _ACTION_MAKE
_new = object.__new__
_set = object.__setattr__
_set_fields_set = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__


def _validated_action(values: dict[str, Any], fields_set: set[str]) -> Action:
    return Action(**{k: values[k] for k in fields_set})
