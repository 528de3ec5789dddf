"""Campaigns: several games (scenarios) played one after another by the same group, with a record that carries
over (experience, trauma, decks, a log). The same contract for every game that has them; the bot's campaign
store and `/campaign` commands know nothing else about the game.

A game with campaigns sets `GameManifest.campaigns = True` and its rules implement `CampaignRules`:

    record = rules.new_campaign(seats, options, seed)        # before the first scenario
    state, events = rules.campaign_game(record, seats, seed)  # the next scenario, as an ordinary game
    ... the game is played to its end (state.over) ...
    record = rules.campaign_after(record, state)             # the scenario's outcome folded in
    rules.campaign_status(record)                            # over? won? what is next? the log
    # between scenarios:
    record = rules.campaign_seat(record, seat, character)    # join (a new seat) or replace an investigator
    record = rules.campaign_leave(record, seat)
    rules.campaign_upgrades(record, seat); record = rules.campaign_upgrade(record, seat, option_id)
    rules.campaign_deck_code(record, seat); record = rules.campaign_import_deck(record, seat, code)

A record is a plain JSON object (the game's own model, dumped): the store keeps it as it is. Seats in a record
are the campaign's seats (stable while the group changes); `campaign_game` takes the seats present now.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel, Field

from engine.core.events import Event
from engine.core.game import GameState, OptionSpec, SeatSpec
from engine.core.prompt import Option

Record = dict[str, Any]


class CampaignStatus(BaseModel):
    over: bool
    result: str | None = None  # "win" | "loss" once over
    played: int = 0  # scenarios played
    total: int = 0  # scenarios in the campaign
    next: str = ""  # the next scenario's name (empty when over)
    lines: list[str] = Field(default_factory=list)  # the campaign log as players read it
    seats: dict[int, str] = Field(default_factory=dict)  # campaign seat -> its investigator (still playing)
    experience: dict[int, int] = Field(default_factory=dict)  # campaign seat -> experience it may spend now


@runtime_checkable
class CampaignRules(Protocol):
    def campaign_options(self) -> list[OptionSpec]:
        """The choices made once for the whole campaign (difficulty ...)."""

    def new_campaign(self, seats: list[SeatSpec], options: dict[str, Any], seed: int) -> Record:
        """A campaign's record before its first scenario. `options` are validated against campaign_options."""

    def campaign_game(self, record: Record, seats: list[SeatSpec], seed: int) -> tuple[GameState, list[Event]]:
        """The next scenario as a game. `seats[i].seat` is the campaign seat of the i-th player present; every
        investigator of the record still in the campaign must have a seat."""

    def campaign_after(self, record: Record, state: GameState) -> Record:
        """The record once the scenario game `state` is over."""

    def campaign_status(self, record: Record) -> CampaignStatus: ...

    def campaign_seat(self, record: Record, seat: int, character: str | None) -> Record:
        """A player takes campaign seat `seat` with investigator `character`: a new investigator for a new seat
        or in place of one who was killed, driven insane or left; None keeps the seat's investigator."""

    def campaign_leave(self, record: Record, seat: int) -> Record: ...

    def campaign_upgrades(self, record: Record, seat: int) -> list[Option]:
        """What the investigator of `seat` may buy with experience now (opaque option ids)."""

    def campaign_upgrade(self, record: Record, seat: int, option_id: str) -> Record: ...

    def campaign_deck_code(self, record: Record, seat: int) -> str: ...

    def campaign_deck_lines(self, record: Record, seat: int) -> list[str]:
        """The seat's deck as players read it: a line per kind of card, each card with its copies."""

    def campaign_import_deck(self, record: Record, seat: int, code: str) -> Record: ...


def campaign_rules(rules: object) -> CampaignRules | None:
    """The rules object as a campaign game, or None if it has no campaigns."""
    return rules if isinstance(rules, CampaignRules) else None
