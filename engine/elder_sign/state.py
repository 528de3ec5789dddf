"""Elder Sign game state: plain data, JSON round-trip exact (digest 1.3, 1.4).

The pending resolution is the kernel's frame stack (`state.flow`, engine/core/flow.py). Nothing here is a
generator or a closure, so a game saved in the middle of an adventure resumes exactly there.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from pydantic import BaseModel, Field

from engine.core.deck import Deck
from engine.core.game import GameState
from engine.core.trusted import defaults, trusted

#: Literal strings, not enums: a saved game's JSON holds exactly these words, and reads back the same.
#: normal = the investigation; battle = the final battle against the awakened Ancient One (6)
Phase = Literal["normal", "battle"]
#: how a Resolution phase ended (None while it is under way): the card was resolved or failed; the attack
#: was stopped or ran out of dice ("done"); the investigator was devoured (7.5); the Ancient One awoke (6.1)
Outcome = Literal["success", "failure", "done", "devoured", "awakened"]
#: where a die is
DieLoc = Literal["supply", "pool", "assigned", "discarded", "focused", "assisted", "secured", "locked", "removed",
                 "battle"]
#: what put a lock icon in play
LockKind = Literal["adventure", "mythos", "monster"]


class Die(BaseModel):
    face: str | None = None  # None until first rolled this adventure
    loc: DieLoc = "supply"
    holder: str | None = None  # seat (focused/assisted), spell card id (secured), lock id (locked)


class Lock(BaseModel):
    """A lock icon in play. Locks of one colour are served first-in, first-out (digest 3.3)."""

    id: str
    color: str
    source: str  # the card or monster id whose icon it is
    kind: LockKind
    die: str | None = None  # None = waiting in the queue for a die of its colour


class MonsterOn(BaseModel):
    monster: str
    slot: int | None = None  # index of the printed task whose monster border it fills; None = below the card
    defeated_by: int | None = None  # seat that defeated it (collected at the end of the phase)


class CardInPlay(BaseModel):
    card: str
    monsters: list[MonsterOn] = Field(default_factory=list)


class Investigator(BaseModel):
    card: str
    sanity: int
    stamina: int
    max_sanity: int
    max_stamina: int
    clues: int = 0
    items: list[str] = Field(default_factory=list)  # commons, uniques, spells and one-shot allies in hand
    allies: list[str] = Field(default_factory=list)  # allies with lasting abilities, face-up
    cast: list[str] = Field(default_factory=list)  # securing spells in play (their dice: Die.holder)
    trophies: list[str] = Field(default_factory=list)  # adventure/other world card ids and monster ids
    location: str = "entrance"  # "entrance" | "slot:<i>" | "ow:<card id>" | "ao"
    used: dict[str, int] = Field(default_factory=dict)  # ability/source key -> roll/turn/day it was used


class Seat(BaseModel):
    investigator: Investigator | None = None
    eliminated: bool = False
    devoured: int = 0  # investigators lost by this seat
    pending_new: bool = False  # choose a new investigator at the end of this turn


class Adventure(BaseModel):
    """The transient state of one Resolution phase (digest 3.2 "per-turn transient state")."""

    where: str  # "slot:<i>" | "ow:<card id>" | "ao"
    completed: list[str] = Field(default_factory=list)  # task keys: "t<i>" printed, "m<monster id>" below
    focus_used: int = 0
    assist_this_roll: bool = False
    helpers: list[int] = Field(default_factory=list)
    item_dice_spent: list[str] = Field(default_factory=list)  # yellow/red discarded: not re-added this turn
    rolled: bool = False  # the pool shows a fresh roll that may complete a task
    rolls: int = 0
    outcome: Outcome | None = None


class ElderSignState(GameState):
    ao: str
    phase: Phase = "normal"
    clock: int = 0  # hours past XII: 0, 3, 6, 9
    midnights_pending: int = 0
    day: int = 1
    turn_number: int = 0
    roll_number: int = 0
    current: int = 0  # the seat whose turn it is
    first_player: int = 0
    doom: int = 0
    elder_signs: int = 0
    decks: dict[str, Deck] = Field(default_factory=dict)
    cup: list[str] = Field(default_factory=list)  # unordered: draws pick at random
    slots: list[CardInPlay | None] = Field(default_factory=list)
    other_worlds: list[CardInPlay] = Field(default_factory=list)
    mythos: str | None = None
    dice: dict[str, Die] = Field(default_factory=dict)
    locks: list[Lock] = Field(default_factory=list)
    lock_counter: int = 0
    table: list[Seat] = Field(default_factory=list)
    unused_investigators: list[str] = Field(default_factory=list)
    adventure: Adventure | None = None
    awaken_pending: bool = False
    midnight_now: bool = False  # true while a midnight resolves (an awakening then attacks at once, 6.1)
    anchors: list[int] = Field(default_factory=list)  # frame ids an awakening unwinds the stack to (6.1)
    after_fail_frame: int | None = None  # the pending "after a failed roll" frame, cancelled by id
    notices: list[str] = Field(default_factory=list)  # rules the engine could not apply, said to players


# ---------------------------------------------------------------- building parts of the state during play
# The rules make these from their own checked values, every turn of every game: `new_adventure(where)` is
# `Adventure(where=where)`, and so on, made without validating again (engine/core/trusted.py): the same field
# values, the same fields set, the same JSON.

_ADVENTURE, _ADVENTURE_MAKE = defaults(Adventure, {"where"})
_CARD, _CARD_MAKE = defaults(CardInPlay, {"card"})
_MONSTER, _MONSTER_MAKE = defaults(MonsterOn, {"monster", "slot"})
_LOCK, _LOCK_MAKE = defaults(Lock, {"id", "color", "source", "kind"})


def _made(template: dict[str, object], factories: tuple[tuple[str, Callable[[], object]], ...],
          given: dict[str, object]) -> dict[str, object]:
    values = template.copy()
    values.update(given)
    for name, make in factories:
        values[name] = make()
    return values


def new_adventure(where: str) -> Adventure:
    return trusted(Adventure, _made(_ADVENTURE, _ADVENTURE_MAKE, {"where": where}), {"where"})


def new_card_in_play(card: str) -> CardInPlay:
    return trusted(CardInPlay, _made(_CARD, _CARD_MAKE, {"card": card}), {"card"})


def new_monster_on(monster: str, slot: int | None) -> MonsterOn:
    return trusted(MonsterOn, _made(_MONSTER, _MONSTER_MAKE, {"monster": monster, "slot": slot}), {"monster", "slot"})


def new_lock(id: str, color: str, source: str, kind: LockKind) -> Lock:  # noqa: A002 - Lock's field
    return trusted(Lock, _made(_LOCK, _LOCK_MAKE, {"id": id, "color": color, "source": source, "kind": kind}),
                   {"id", "color", "source", "kind"})
