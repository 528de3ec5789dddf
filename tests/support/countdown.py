"""A tiny complete game used only by infrastructure tests (store, service, console, fake Discord).

Rules: a shared counter starts at `start` (option, default 10). Seats take turns; on your turn you remove
1, 2 or 3. Whoever takes the counter to exactly 0 makes the table win; if the counter would go below 0 the
move is refused. A seat may instead "pass" once per game, which costs the table 1 doom; 3 doom is a loss.
It exercises every engine feature the bot needs (prompts with options and defaults, events that ask for a
render, hidden information: each seat has a private "secret" number only it may see).
"""

from __future__ import annotations

from typing import Any

from engine.core.events import Event
from engine.core.game import GameRules, GameState, OptionSpec, SeatSpec, Summary
from engine.core.prompt import Action, Option, Prompt, PromptKind
from engine.core.rng import Rng


class CountdownState(GameState):
    counter: int = 10
    doom: int = 0
    turn: int = 0  # index into seats
    passed: list[int] = []
    secrets: list[int] = []
    current_seq: int = 0


class CountdownRules(GameRules):
    id = "countdown"
    name = "Countdown"
    min_players = 1
    max_players = 4
    state_type = CountdownState

    def option_specs(self) -> list[OptionSpec]:
        return [OptionSpec(id="start", label="Starting counter", kind="int", default=10, min=3, max=30)]

    def characters(self) -> list[Option]:
        return [Option(id="fox", label="Fox"), Option(id="owl", label="Owl")]

    def new_game(self, seats: list[SeatSpec], options: dict[str, Any], seed: int) -> tuple[GameState, list[Event]]:
        rng = Rng.from_seed(seed)
        state = CountdownState(game=self.id, content_version="1", seed=seed, options=options, seats=seats,
                               rng=rng, counter=options["start"])
        state.secrets = [rng.below(100) for _ in seats]
        state.current_seq = state.next_seq()
        return state, [Event(kind="game.started", text=f"The counter starts at {state.counter}.", render=True)]

    def prompts(self, state: GameState) -> list[Prompt]:
        assert isinstance(state, CountdownState)
        if state.over:
            return []
        opts = [Option(id=str(n), label=f"Take {n}") for n in (1, 2, 3) if n <= state.counter]
        if state.turn not in state.passed:
            opts.append(Option(id="pass", label="Pass (1 doom)"))
        return [Prompt(seq=state.current_seq, seats=[state.turn], kind=PromptKind.ONE,
                       title=f"{state.seat_name(state.turn)}: take how many?", reason="Countdown turn",
                       options=opts, default=["1"])]

    def apply(self, state: GameState, action: Action, prompt: Prompt) -> list[Event]:
        assert isinstance(state, CountdownState)
        who = state.seat_name(action.seat)
        choice = action.choice[0]
        events: list[Event] = []
        if choice == "pass":
            state.passed.append(action.seat)
            state.doom += 1
            events.append(Event(kind="doom.added", text=f"{who} passes; doom is {state.doom}.", seat=action.seat))
            if state.doom >= 3:
                state.over, state.result = True, "loss"
        else:
            state.counter -= int(choice)
            events.append(Event(kind="counter", text=f"{who} takes {choice}; {state.counter} left.",
                                seat=action.seat))
            if state.counter == 0:
                state.over, state.result = True, "win"
        state.turn = (state.turn + 1) % len(state.seats)
        state.current_seq = state.next_seq()
        events.append(Event(kind="turn.ended", text="Turn over.", render=True))
        return events

    def view(self, state: GameState, seat: int | None) -> dict[str, Any]:
        assert isinstance(state, CountdownState)
        out: dict[str, Any] = {"counter": state.counter, "doom": state.doom, "turn": state.turn}
        if seat is not None:
            out["secret"] = state.secrets[seat]
        return out

    def summary(self, state: GameState) -> Summary:
        assert isinstance(state, CountdownState)
        return Summary(phase="play", round=state.step // max(1, len(state.seats)) + 1,
                       waiting_for=[] if state.over else [state.turn],
                       headline=f"Counter {state.counter}, doom {state.doom}", over=state.over,
                       result=state.result)


RULES = CountdownRules()
