"""Relay: a throwaway game that exists only to prove the kernel (issue "one engine for four games").

It is registered through the two manifests alone (engine and bot), like a real game, and plays in the console.
Rules: each round, every seat picks 1, 2 or 3 at the same time (a question for each seat, answered in any
order). The picks are added to the score; reaching `target` wins, and after `rounds` rounds the table loses.
Seat 0 holds a one-shot Ward: in the *when* window before a round is scored it may cancel that scoring (the
round still counts), and a forced Echo adds 1 after every scoring that happens.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from engine.core.events import Event
from engine.core.flow import Answer, Flow, Frame, Step
from engine.core.game import FlowRules, GameState, SeatSpec, Summary
from engine.core.manifest import GameManifest
from engine.core.prompt import Option, Prompt, PromptKind
from engine.core.rng import Rng
from engine.core.windows import Trigger, Window, around, cancel_event


class RelayState(GameState):
    score: int = 0
    round: int = 0
    picks: dict[int, int] = {}
    ward_used: bool = False
    target: int = 12
    rounds: int = 3


class RelayView(BaseModel):
    """The typed view a renderer would read."""

    score: int
    target: int
    round: int
    ward_ready: bool
    picked: list[int]  # seats that have picked this round (never what they picked)


FLOW: Flow[RelayState] = Flow("relay")


def triggers(state: RelayState, window: Window) -> list[Trigger]:
    out = []
    if window.event == "round.scored" and window.timing == "when" and not state.ward_used and window.target:
        out.append(Trigger(id="ward", source="relay.ward", seat=0, label="Raise the Ward: this round scores nothing",
                           steps=[Step(op="ward", seat=0, source="relay.ward", args={"target": window.target})]))
    if window.event == "round.scored" and window.timing == "after":
        out.append(Trigger(id="echo", source="relay.echo", seat=0, label="The Echo adds 1", forced=True,
                           steps=[Step(op="echo", source="relay.echo")]))
    return out


FLOW.triggers = triggers


@FLOW.auto("round")
def run_round(state: RelayState, frame: Frame, events: list[Event]) -> None:
    state.round += 1
    state.picks = {}
    events.append(Event(kind="round.started", text=f"Round {state.round}: everyone picks at once."))
    FLOW.push(state, "next")
    around(FLOW, state, "round.scored", Step(op="score"))
    FLOW.push(state, "pick")


def _all_seats(state: RelayState, frame: Frame) -> list[int]:
    return [s.seat for s in state.seats]


@FLOW.each("pick", seats=_all_seats)
def ask_pick(state: RelayState, frame: Frame, seat: int) -> Prompt:
    return Prompt(seq=0, seats=[seat], kind=PromptKind.ONE, title=f"{state.seat_name(seat)}: pick a number",
                  reason="Relay round", options=[Option(id=str(n), label=str(n), data=n) for n in (1, 2, 3)],
                  default=["1"])


@FLOW.answers("pick")
def answer_pick(state: RelayState, frame: Frame, answer: Answer, events: list[Event]) -> None:
    state.picks[answer.seat] = answer.data
    events.append(Event(kind="picked", text=f"{state.seat_name(answer.seat)} has picked.", seat=answer.seat))


@FLOW.auto("score")
def run_score(state: RelayState, frame: Frame, events: list[Event]) -> None:
    gained = sum(state.picks.values())
    state.score += gained
    events.append(Event(kind="round.scored", text=f"The round scores {gained}: {state.score}/{state.target}."))


@FLOW.auto("ward")
def run_ward(state: RelayState, frame: Frame, events: list[Event]) -> None:
    state.ward_used = True
    cancel_event(FLOW, state, frame.args["target"])
    events.append(Event(kind="ward", text="The Ward flares: this round scores nothing.", seat=0))


@FLOW.auto("echo")
def run_echo(state: RelayState, frame: Frame, events: list[Event]) -> None:
    state.score += 1
    events.append(Event(kind="echo", text=f"An echo adds 1: {state.score}/{state.target}."))


@FLOW.auto("next")
def run_next(state: RelayState, frame: Frame, events: list[Event]) -> None:
    if state.score >= state.target:
        state.over, state.result = True, "win"
        events.append(Event(kind="game.won", text="The relay is complete!", render=True))
    elif state.round >= state.rounds:
        state.over, state.result = True, "loss"
        events.append(Event(kind="game.lost", text="Out of rounds.", render=True))
    else:
        FLOW.push(state, "round")


class RelayRules(FlowRules):
    id = "relay"
    name = "Relay"
    min_players = 1
    max_players = 4
    state_type = RelayState
    flow = FLOW

    def new_game(self, seats: list[SeatSpec], options: dict[str, Any], seed: int) -> tuple[GameState, list[Event]]:
        state = RelayState(game=self.id, content_version="1", seed=seed, options=options, seats=seats,
                           rng=Rng.from_seed(seed))
        events = [Event(kind="setup", text="The relay begins.", render=True)]
        FLOW.push(state, "round")
        FLOW.run(state, events)
        return state, events

    def view(self, state: GameState, seat: int | None) -> RelayView:
        assert isinstance(state, RelayState)
        return RelayView(score=state.score, target=state.target, round=state.round, ward_ready=not state.ward_used,
                         picked=sorted(state.picks))

    def summary(self, state: GameState) -> Summary:
        assert isinstance(state, RelayState)
        waiting = sorted({s for p in self.prompts(state) for s in p.seats})
        return Summary(phase="over" if state.over else "round", round=state.round, waiting_for=waiting,
                       headline=f"Score {state.score}/{state.target}", over=state.over, result=state.result)


RULES = RelayRules()
MANIFEST = GameManifest(id="relay", name="Relay", rules="tests.kernel.relay:RULES")
