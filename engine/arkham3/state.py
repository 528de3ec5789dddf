"""Arkham Horror 3e game state: plain data, JSON round-trip exact (digest 2, 14.1).

Decks are lists whose *end* is the top (a draw from the top is a pop; the monster deck is drawn from the
bottom, index 0). The pending resolution is the kernel's frame stack (`state.flow`).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from engine.core.game import GameState

Phase = Literal["setup", "action", "monster", "encounter", "mythos", "over"]
MonsterStatus = Literal["ready", "exhausted", "engaged"]
SeatStatus = Literal["playing", "joining", "out"]


class Asset(BaseModel):
    card: str
    damage: int = 0
    horror: int = 0
    used: bool = False  # its component action was used this action phase (stays used when traded, 12.8)


class Inv(BaseModel):
    card: str
    space: str | None  # None while not on the board
    damage: int = 0
    horror: int = 0
    money: int = 0
    clues: int = 0
    remnants: int = 0
    focus: list[str] = Field(default_factory=list)
    assets: list[Asset] = Field(default_factory=list)
    #: condition copy id -> the face up: "blessed" | "cursed" | "front" (a dark pact's hidden back never shows)
    conditions: dict[str, str] = Field(default_factory=dict)
    delayed: bool = False
    actions_used: list[str] = Field(default_factory=list)  # this round (4.1: each action once per round)
    acted: bool = False  # activation token inactive: took its action-phase turn
    encountered: bool = False


class SeatRow(BaseModel):
    inv: Inv | None = None
    status: SeatStatus = "playing"
    played: list[str] = Field(default_factory=list)  # investigators this seat has played (6.4)
    lost: list[str] = Field(default_factory=list)  # how each investigator left: "defeated" | "devoured" ...


class Monster(BaseModel):
    uid: int
    card: str  # a monster card id, or "archive:<n>" for an epic monster
    space: str | None  # None while engaged (except massive, which stays in its space)
    status: MonsterStatus = "ready"
    engaged: list[int] = Field(default_factory=list)  # seats (several only for massive)
    damage: int = 0
    prey: int | None = None
    evaded: list[int] = Field(default_factory=list)  # massive: seats that evaded it this turn (re-engages)


class Roll(BaseModel):
    """A skill test under way (digest 5)."""

    seat: int
    skill: str
    purpose: str
    dice: list[int]
    source: str = ""
    free_reroll: bool = False  # the investigator's once-per-test reroll is available
    min_face: int = 5  # 5: 5s and 6s succeed; blessed 4, cursed 6


class ArkhamState(GameState):
    scenario: str
    phase: Phase = "setup"
    round: int = 0
    leader: int = 0
    started_with: int = 0  # investigators who started the game (Elite X, thresholds)
    table: list[SeatRow] = Field(default_factory=list)
    unplayed: list[str] = Field(default_factory=list)
    # the map
    tiles: list[str] = Field(default_factory=list)  # the neighborhoods on the map now
    map_changes: list[int] = Field(default_factory=list)  # archive cards whose map change is in play
    doom: dict[str, int] = Field(default_factory=dict)  # space -> doom
    clues: dict[str, int] = Field(default_factory=dict)  # tile -> clues in its central area
    anomalies: list[str] = Field(default_factory=list)  # tiles with an anomaly token
    seals: list[str] = Field(default_factory=list)  # spaces holding a scenario's seal marker (no doom lands there)
    sheet_doom: int = 0
    sheet_clues: int = 0
    # decks: the end of each list is the top
    event_deck: list[str] = Field(default_factory=list)
    event_discard: list[str] = Field(default_factory=list)
    decks: dict[str, list[str]] = Field(default_factory=dict)
    headline_discard: list[str] = Field(default_factory=list)
    display: list[str] = Field(default_factory=list)
    conditions_pile: list[str] = Field(default_factory=list)
    special_pile: list[str] = Field(default_factory=list)
    cup: list[str] = Field(default_factory=list)
    cup_drawn: list[str] = Field(default_factory=list)
    # the codex
    codex: list[int] = Field(default_factory=list)
    fired: list[str] = Field(default_factory=list)  # "<n>:clue" / "<n>:doom" already resolved
    epic_defeated: list[int] = Field(default_factory=list)
    # monsters
    monsters: list[Monster] = Field(default_factory=list)
    next_uid: int = 1
    # resolution
    rolls: list[Roll] = Field(default_factory=list)
    turn: int | None = None  # the seat taking its action-phase turn
    actions_left: int = 0
    after_evade: int = -1  # actions completed since an evade this turn (massive re-engages after the next)
    activated: list[int] = Field(default_factory=list)  # monsters already activated this monster phase
    attacked: list[int] = Field(default_factory=list)  # monsters that attacked this seat in the attack step
    in_attack_step: bool = False
    clue_gained: bool = False  # the encounter under way gained its neighborhood's clue (event cards, 4.3)
    notices: list[str] = Field(default_factory=list)
