"""Test-only variants of the countdown game, for what the plain one does not exercise."""

from __future__ import annotations

from engine.core.events import Event
from engine.core.game import GameState
from engine.core.prompt import Action, Prompt
from tests.support.countdown import CountdownRules, CountdownState


class DuoCountdown(CountdownRules):
    """Needs two players: lets the tests see `/game start` refused for too few."""

    id = "countdown-duo"
    name = "Countdown for two"
    min_players = 2


class PeekCountdown(CountdownRules):
    """Every move also tells the mover their secret privately: hidden-information events for the log."""

    id = "countdown-peek"
    name = "Countdown with peeking"

    def apply(self, state: GameState, action: Action, prompt: Prompt) -> list[Event]:
        assert isinstance(state, CountdownState)
        events = super().apply(state, action, prompt)
        secret = state.secrets[action.seat]
        events.append(Event(kind="secret.peek", text=f"{state.seat_name(action.seat)} peeks: secret {secret}.",
                            seat=action.seat, private_to=action.seat))
        return events


class PairCountdown(CountdownRules):
    """A turn is two moves, by two players: the first player's move does not end the section, so the game
    starts waiting for someone else in the middle of one message (how a ping must reach them)."""

    id = "countdown-pair"
    name = "Countdown in pairs"

    def apply(self, state: GameState, action: Action, prompt: Prompt) -> list[Event]:
        assert isinstance(state, CountdownState)
        events = super().apply(state, action, prompt)
        if state.turn % 2 == 1 and not state.over:  # the pair's second mover is next: the section goes on
            events = [e for e in events if e.kind != "turn.ended"]
        return events


DUO = DuoCountdown()
PAIR = PairCountdown()
PEEK = PeekCountdown()
