"""Arkham Horror: The Card Game — game state: plain data, JSON round-trip exact.

A game is a whole campaign (`campaign`) and, while one is being played, its current scenario (`scenario`).
Every card in a scenario is a `CardInst` with a uid unique in the game; its zone says where it is. Decks and
piles are lists of uids whose *end* is the top. The pending resolution is the kernel's frame stack.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from engine.core.game import GameState

Phase = Literal["setup", "mythos", "investigation", "enemy", "upkeep", "between", "over"]
Zone = Literal["deck", "hand", "discard", "play", "threat", "location", "attached", "encounter_deck",
               "encounter_discard", "set_aside", "victory", "limbo", "removed", "committed", "act", "agenda"]


class CardInst(BaseModel):
    uid: int
    code: str  # the card id in the content
    owner: int | None = None  # the seat whose deck it came from (None: an encounter card)
    controller: int | None = None  # who controls it while in play (assets; attachments follow their host)
    zone: Zone = "deck"
    exhausted: bool = False
    damage: int = 0
    horror: int = 0
    doom: int = 0
    clues: int = 0
    uses: int = 0
    attached_to: int | None = None  # uid of the card (or location) it is attached to
    #: ability id -> times used in its limit's period (reset at that period's end)
    used: dict[str, int] = Field(default_factory=dict)


class LocationState(BaseModel):
    uid: int  # the location card's uid (its CardInst has zone "location")
    code: str
    revealed: bool = False
    clues: int = 0
    doom: int = 0


class EnemyState(BaseModel):
    uid: int  # the enemy card's uid
    code: str
    location: str | None  # location code (None while it is not on the board)
    engaged: int | None = None  # the seat it is engaged with
    exhausted: bool = False
    damage: int = 0
    doom: int = 0
    health: int = 1  # printed health, fixed when it spawns (per-investigator health counted then)


class InvState(BaseModel):
    """One investigator in the current scenario."""

    code: str  # investigator card id
    uid: int = 0  # the investigator card's CardInst (its abilities trigger like any card's)
    location: str | None = None
    resources: int = 0
    clues: int = 0
    damage: int = 0
    horror: int = 0
    actions: int = 0  # actions left this turn
    action_mod: int = 0  # the `actions` modifier already counted in `actions` this round (board.sync_actions)
    #: additional actions this turn, each usable only for one kind of action (FAQ §1.10: the first action that
    #: qualifies uses it)
    bonus_actions: list[str] = Field(default_factory=list)
    took_turn: bool = False
    status: Literal["playing", "resigned", "defeated_damage", "defeated_horror", "defeated"] = "playing"
    deck: list[int] = Field(default_factory=list)  # uids, end = top
    hand: list[int] = Field(default_factory=list)
    discard: list[int] = Field(default_factory=list)
    play: list[int] = Field(default_factory=list)  # assets in your play area
    threat: list[int] = Field(default_factory=list)  # treacheries (and weakness cards) in your threat area
    mulliganed: bool = False
    #: lasting effects on you: [{"end": "turn"|"round"|"phase"|"test", "stat": ..., "amount": ..., "during": ...}]
    lasting: list[dict[str, object]] = Field(default_factory=list)


class TokenUndo(BaseModel):
    """A skill test's token results before one token resolved (its modifier, automatic result, "if you fail"
    effects, elder sign effects)."""

    token_mod: int
    auto: Literal["", "succeed", "fail"]
    on_fail: int  # how many "if you fail" effects there were
    elder_on_success: list[dict[str, object]]


class SkillTest(BaseModel):
    """A skill test under way (steps ST.1–ST.8)."""

    seat: int
    skill: str
    difficulty: int
    action: str | None = None  # fight | evade | investigate | None (a test that is not an action's)
    source: str = ""  # the card or rule that asked for the test
    src: int | None = None  # that card's uid: its pass/fail effects act on "this card" (discard it ...)
    enemy: int | None = None  # fight/evade: the enemy's uid
    location: str | None = None  # investigate: the location
    committed: list[int] = Field(default_factory=list)  # uids of committed cards
    tokens: list[str] = Field(default_factory=list)  # tokens revealed (the last counts; earlier were ignored)
    bonus: int = 0  # +N to the skill value for this test
    token_mod: int = 0  # the revealed tokens' modifiers, summed (ST.4)
    ignored: int = 0  # tokens revealed and then ignored (a card's "ignore it and reveal another")
    #: what the test was before the last token resolved, so that a card that ignores that token takes it back
    before_token: TokenUndo | None = None
    damage_bonus: int = 0
    clue_bonus: int = 0
    auto: Literal["", "succeed", "fail"] = ""
    value: int = 0  # the modified skill value (ST.5)
    success: bool | None = None
    margin: int = 0  # by how much it succeeded (>= 0) or failed (> 0)
    #: what resolves at ST.7, per outcome (effect lists of the test's source)
    on_pass: list[dict[str, object]] = Field(default_factory=list)
    on_fail: list[dict[str, object]] = Field(default_factory=list)
    per_point: list[dict[str, object]] = Field(default_factory=list)
    token_on_fail: list[dict[str, object]] = Field(default_factory=list)  # a scenario symbol's "if you fail"
    elder_on_success: list[dict[str, object]] = Field(default_factory=list)


class ScenarioState(BaseModel):
    id: str
    locations: dict[str, LocationState] = Field(default_factory=dict)  # location code -> state
    enemies: dict[int, EnemyState] = Field(default_factory=dict)  # uid -> state
    act_deck: list[str] = Field(default_factory=list)  # act ids, first = current
    agenda_deck: list[str] = Field(default_factory=list)
    act_uid: int = 0  # the current act's and agenda's card instances (their abilities trigger like any card's)
    agenda_uid: int = 0
    agenda_doom: int = 0  # doom on the current agenda
    encounter_deck: list[int] = Field(default_factory=list)
    encounter_discard: list[int] = Field(default_factory=list)
    set_aside: list[int] = Field(default_factory=list)
    victory: list[int] = Field(default_factory=list)
    remembered: list[str] = Field(default_factory=list)
    resolution: str | None = None
    attachments: dict[str, list[int]] = Field(default_factory=dict)  # location code -> treachery uids


class InvestigatorRecord(BaseModel):
    """One investigator across the campaign (the campaign log's investigator section)."""

    seat: int
    code: str
    deck: dict[str, int] = Field(default_factory=dict)  # card id -> copies (signatures and weaknesses included)
    xp: int = 0  # unspent experience
    xp_earned: int = 0
    physical_trauma: int = 0
    mental_trauma: int = 0
    status: Literal["active", "killed", "insane", "retired"] = "active"  # retired: the player left the campaign


class CampaignState(BaseModel):
    id: str
    content_version: str = ""  # a campaign keeps the content it began with, across its games
    difficulty: Literal["easy", "standard", "hard", "expert"]
    scenario_index: int = 0  # the scenario being played (or next, between scenarios)
    log: list[str] = Field(default_factory=list)  # records, in the order written
    crossed_out: list[str] = Field(default_factory=list)
    bag: list[str] = Field(default_factory=list)  # the chaos bag carried between scenarios
    investigators: list[InvestigatorRecord] = Field(default_factory=list)
    results: list[str] = Field(default_factory=list)  # "<scenario id>:<resolution>" per scenario played
    weakness_pool: list[str] = Field(default_factory=list)  # basic weaknesses not yet dealt
    stop_after: int | None = None  # a standalone scenario: the campaign ends after this scenario index


class LcgState(GameState):
    campaign: CampaignState
    scenario: ScenarioState | None = None
    phase: Phase = "setup"
    round: int = 0
    lead: int = 0
    cards: dict[int, CardInst] = Field(default_factory=dict)
    next_uid: int = 1
    invs: list[InvState] = Field(default_factory=list)  # by seat, for the current scenario
    turn: int | None = None  # the seat taking its turn
    bag: list[str] = Field(default_factory=list)  # the chaos bag in play (campaign bag + bless/curse)
    sealed: list[str] = Field(default_factory=list)
    tests: list[SkillTest] = Field(default_factory=list)  # the test under way (one at a time, FAQ §1.17)
    last_test: SkillTest | None = None  # the last finished test (the table keeps showing its result)
    queued_tests: list[dict[str, object]] = Field(default_factory=list)  # tests waiting for the one under way
    limbo: list[int] = Field(default_factory=list)
    notices: list[str] = Field(default_factory=list)
