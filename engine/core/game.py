"""What every game provides: its state type and its rules object.

A game's rules object is stateless; everything about one game lives in its `GameState` (pydantic, plain
data, JSON round-trip exact). `apply` validates an action completely before it changes anything, so a
rejected action leaves the state untouched.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Literal

from pydantic import BaseModel, Field

from engine.core.errors import IllegalAction
from engine.core.events import Event
from engine.core.flow import Flow, FlowState
from engine.core.prompt import Action, Option, Prompt
from engine.core.rng import Rng

#: how a game ended: the players won or lost by the rules, or a moderator ended it
Result = Literal["win", "loss", "ended"]


class SeatSpec(BaseModel):
    """A seat at the table. The bot maps seats to Discord users; one user may hold several seats."""

    seat: int
    name: str
    character: str | None = None  # an investigator id chosen before the start, or None for random


class OptionSpec(BaseModel):
    """A game option a table chooses at `/game new` (validated by `GameRules.validate_options`)."""

    id: str
    label: str
    kind: str = "choice"  # "choice" | "int" | "bool"
    choices: list[Option] = Field(default_factory=list)
    default: Any = None
    min: int | None = None
    max: int | None = None


class GameState(BaseModel):
    game: str
    content_version: str
    seed: int
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatSpec] = Field(default_factory=list)
    rng: Rng = Field(default_factory=Rng)
    step: int = 0  # actions applied so far
    prompt_seq: int = 0  # the last prompt sequence number handed out; never reused
    over: bool = False
    result: Result | None = None
    flow: FlowState = Field(default_factory=FlowState)  # the kernel's resolution stack (engine/core/flow.py)

    def next_seq(self) -> int:
        seq = self.prompt_seq + 1
        self.__dict__["prompt_seq"] = seq  # a plain counter: skip pydantic's assignment hook on this hot path
        return seq

    def seat_name(self, seat: int) -> str:
        return self.seats[seat].name


class Summary(BaseModel):
    """What `/game status` says: a line a player reads, plus who the game waits for."""

    phase: str
    round: int
    waiting_for: list[int]
    headline: str
    over: bool = False
    result: Result | None = None
    #: the game's state in a glance, for the line on top of its live message: whose turn, then the clock
    #: (doom, omen, agenda, the hour), each a few words ("Alice's turn", "Doom 7/15"), most telling first
    facts: list[str] = Field(default_factory=list)


class GameRules(ABC):
    id: str
    name: str
    min_players: int
    max_players: int
    state_type: type[GameState]

    def option_specs(self) -> list[OptionSpec]:
        return []

    def characters(self) -> list[Option]:
        """Selectable characters (investigators) for `/game join`."""
        return []

    def validate_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """Fill defaults and check values; raise IllegalAction with a readable sentence on a bad value."""
        specs = {s.id: s for s in self.option_specs()}
        unknown = [k for k in options if k not in specs]
        if unknown:
            raise IllegalAction(f"Unknown option '{unknown[0]}'. Options: {', '.join(specs) or 'none'}.")
        out: dict[str, Any] = {}
        for spec in specs.values():
            value = options.get(spec.id, spec.default)
            if spec.kind == "choice":
                ids = [c.id for c in spec.choices]
                if value not in ids:
                    raise IllegalAction(f"Option {spec.id} must be one of: {', '.join(ids)}.")
            elif spec.kind == "int":
                try:
                    value = int(value)
                except (TypeError, ValueError) as exc:
                    raise IllegalAction(f"Option {spec.id} must be a whole number.") from exc
                if (spec.min is not None and value < spec.min) or (spec.max is not None and value > spec.max):
                    raise IllegalAction(f"Option {spec.id} must be from {spec.min} to {spec.max}.")
            elif spec.kind == "bool":
                if isinstance(value, str):
                    if value.lower() not in ("true", "false", "yes", "no", "on", "off", "1", "0"):
                        raise IllegalAction(f"Option {spec.id} must be yes or no.")
                    value = value.lower() in ("true", "yes", "on", "1")
                value = bool(value)
            out[spec.id] = value
        return out

    def check_seats(self, seats: list[SeatSpec]) -> None:
        if not self.min_players <= len(seats) <= self.max_players:
            raise IllegalAction(
                f"{self.name} needs {self.min_players} to {self.max_players} investigators; "
                f"{len(seats)} {'is' if len(seats) == 1 else 'are'} seated."
            )

    @abstractmethod
    def new_game(self, seats: list[SeatSpec], options: dict[str, Any], seed: int) -> tuple[GameState, list[Event]]:
        """Set up a game. `options` are already validated."""

    @abstractmethod
    def prompts(self, state: GameState) -> list[Prompt]:
        """The decisions the game is waiting for now (empty when the game is over)."""

    @abstractmethod
    def apply(self, state: GameState, action: Action, prompt: Prompt) -> list[Event]:
        """Apply an action, already validated against `prompt` (one of `prompts(state)`), in place; return the
        events."""

    @abstractmethod
    def view(self, state: GameState, seat: int | None) -> BaseModel | dict[str, Any]:
        """What `seat` may see (None = a spectator), as the game's typed view model (a renderer's input).
        Deck order and hidden faces never appear."""

    @abstractmethod
    def summary(self, state: GameState) -> Summary:
        """Phase, round, who we wait for, one headline."""


class FlowRules(GameRules):
    """A game that runs on the resolution kernel (engine/core/flow.py): questions come from its flow's stack."""

    flow: Flow[Any]

    def prompts(self, state: GameState) -> list[Prompt]:
        return self.flow.prompts(state)

    def apply(self, state: GameState, action: Action, prompt: Prompt) -> list[Event]:
        return self.flow.apply(state, action, prompt)
