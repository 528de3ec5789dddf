"""The whole state of one Eldritch Horror game: plain data, JSON round-trip exact.

Deck order, the Gate stack, the Clue pool and the Monster cup are here (the engine needs them) and never in a
view (view.py). Cards are ids into the game's content version (content.py).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from engine.core.deck import Deck
from engine.core.game import GameState

Phase = Literal["setup", "action", "encounter", "mythos"]
#: the omen track clockwise from its start (digest 1.1: green, blue, red, blue)
OMEN_TRACK: tuple[str, ...] = ("green", "blue", "red", "blue")
SKILL_NAMES = ("lore", "influence", "observation", "strength", "will")


class Investigator(BaseModel):
    """A seat's investigator. `card` is None before the first pick or after elimination."""

    card: str | None = None
    space: str = ""
    health: int = 0
    sanity: int = 0
    improve: dict[str, int] = Field(default_factory=dict)  # skill -> +1 / +2
    clues: int = 0
    train: int = 0
    ship: int = 0
    assets: list[str] = Field(default_factory=list)
    artifacts: list[str] = Field(default_factory=list)
    spells: list[str] = Field(default_factory=list)
    conditions: list[str] = Field(default_factory=list)
    delayed: bool = False
    actions_used: list[str] = Field(default_factory=list)  # this round: "travel", "rest", "component:<id>"...
    actions_left: int = 0
    defeated: bool = False  # awaiting a new investigator at the end of the Mythos Phase
    eliminated: bool = False  # out for good (after the awakening, or no investigator left to pick)
    past: list[str] = Field(default_factory=list)  # investigators this seat played before (never again)

    @property
    def active(self) -> bool:
        return self.card is not None and not self.defeated and not self.eliminated

    def possessions(self) -> list[str]:
        return [*self.assets, *self.artifacts, *self.spells]


class MonsterToken(BaseModel):
    uid: int
    kind: str  # a monster id
    space: str
    damage: int = 0


class DefeatedToken(BaseModel):
    """A defeated investigator lying on the board: what another investigator may find there (digest 6)."""

    card: str
    space: str
    track: Literal["health", "sanity"]
    assets: list[str] = Field(default_factory=list)
    artifacts: list[str] = Field(default_factory=list)
    spells: list[str] = Field(default_factory=list)
    clues: int = 0
    train: int = 0  # travel tickets are possessions too: they stay on the sheet (RB p.14, Defeated Investigators)
    ship: int = 0


class Ongoing(BaseModel):
    card: str
    tokens: int = 0


class EldritchState(GameState):
    ao: str = ""
    awakened: bool = False
    round: int = 0
    phase: Phase = "setup"
    lead: int = 0
    current: int | None = None  # the active investigator's seat
    doom: int = 0
    omen: int = 0  # index into OMEN_TRACK
    omen_tokens: dict[str, int] = Field(default_factory=dict)  # omen colour -> Eldritch tokens on it
    investigators: list[Investigator] = Field(default_factory=list)
    monsters: list[MonsterToken] = Field(default_factory=list)
    next_uid: int = 1
    gates: dict[str, str] = Field(default_factory=dict)  # space -> omen colour of its open Gate
    gate_stack: list[str] = Field(default_factory=list)  # space ids; the top is the end
    gate_discard: list[str] = Field(default_factory=list)
    revealed_gates: list[str] = Field(default_factory=list)
    clues: dict[str, int] = Field(default_factory=dict)  # space -> Clue tokens on it
    clue_pool: list[str] = Field(default_factory=list)
    clue_discard: list[str] = Field(default_factory=list)
    cup: list[str] = Field(default_factory=list)  # monster ids, one per token
    set_aside: list[str] = Field(default_factory=list)  # monster tokens kept out of the cup
    defeated: list[DefeatedToken] = Field(default_factory=list)
    decks: dict[str, Deck] = Field(default_factory=dict)
    reserve: list[str] = Field(default_factory=list)
    expedition: str | None = None  # the space of the active expedition (the top expedition card's site)
    mystery: str | None = None
    mystery_tokens: int = 0
    solved: list[str] = Field(default_factory=list)
    final_tokens: int = 0
    final_solved: bool = False
    ongoing: list[Ongoing] = Field(default_factory=list)
    rumors: dict[str, str] = Field(default_factory=dict)  # rumor card id -> its space
    used_components: list[str] = Field(default_factory=list)  # component cards used this round (anyone)
    flipped: list[str] = Field(default_factory=list)  # cards face down right now (resolving their back)
    notices: list[str] = Field(default_factory=list)
    players: int = 1  # investigators in play at the start (the reference card and "half" use it)

    def inv(self, seat: int) -> Investigator:
        return self.investigators[seat]

    @property
    def omen_colour(self) -> str:
        return OMEN_TRACK[self.omen]
