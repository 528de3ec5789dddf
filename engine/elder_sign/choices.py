"""What Elder Sign's options carry (`Option.data`): the answer functions read these, never the option ids.

Option ids stay short readable keys (stable for the same state, so console scripts and posted buttons keep
their meaning), but no code parses them: the typed value below is the meaning of a choice.
"""

from __future__ import annotations

from typing import Literal, NamedTuple


class Go(NamedTuple):
    where: str  # "entrance" | "slot:<i>" | "ow:<card id>"


class UseItem(NamedTuple):
    card: str


class UseAbility(NamedTuple):
    n: int  # into items._ability_sources(state, seat) (not `index`: that is tuple.index)


class Release(NamedTuple):
    die: str


class DoTask(NamedTuple):
    key: str  # "t<i>" printed, "m<monster id>" below the card, "ao" the battle task
    dice: tuple[str, ...]


class Focus(NamedTuple):
    die: str


class AskHelp(NamedTuple):
    helper: int


AidKind = Literal["stamina", "sanity", "full_stamina", "full_sanity", "full_both"]


class FirstAid(NamedTuple):
    kind: AidKind


class Souvenir(NamedTuple):
    id: str


class Payment(NamedTuple):
    n: int  # into board.payments(state, seat, cost)


class Spot(NamedTuple):
    where: str
    slot: int | None  # a printed task's monster border, or None below the card


class MonsterAt(NamedTuple):
    where: str
    n: int  # into the card's monsters


Item = UseItem | UseAbility
