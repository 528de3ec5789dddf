"""The engine's public functions: everything the bot, the console and the simulator call.

    state, events = new_game(game_id, seats, options, seed)
    prompts(state)                    -> what the game waits for
    legal_actions(state, seat)        -> every answer `seat` may give now
    state, events = apply(state, action)          (a copy; the input is untouched)
    view(state, seat)                 -> what that seat may see
    to_json(state) / from_json(text[, game_id])  -> exact round trip
    replay(game, seats, options, seed, actions)   -> the same state again
"""

from __future__ import annotations

import json
from typing import Any

from engine.core.content import CONTENT
from engine.core.errors import IllegalAction
from engine.core.events import Event
from engine.core.game import GameState, SeatSpec, Summary
from engine.core.prompt import Action, Prompt
from engine.games import get_game


def new_game(
    game_id: str, seats: list[SeatSpec], options: dict[str, Any] | None = None, seed: int = 0
) -> tuple[GameState, list[Event]]:
    rules = get_game(game_id)
    rules.check_seats(seats)
    opts = rules.validate_options(dict(options or {}))
    return rules.new_game(seats, opts, seed)


def prompts(state: GameState) -> list[Prompt]:
    if state.over:
        return []
    return get_game(state.game).prompts(state)


def prompt_for(state: GameState, seat: int) -> Prompt | None:
    for p in prompts(state):
        if seat in p.seats:
            return p
    return None


def legal_actions(state: GameState, seat: int) -> list[Action]:
    out: list[Action] = []
    for p in prompts(state):
        out.extend(p.answers(seat))
    return out


def validate(state: GameState, action: Action) -> Prompt:
    """The prompt `action` answers, or IllegalAction. Changes nothing."""
    if state.over:
        raise IllegalAction("This game is over.")
    pending = prompts(state)
    for p in pending:
        if p.seq == action.prompt:
            p.validate_action(action)
            return p
    raise IllegalAction("That choice has passed: the game has moved on.")


def apply(state: GameState, action: Action, *, in_place: bool = False,
          prompt: Prompt | None = None) -> tuple[GameState, list[Event]]:
    """Apply one action. By default works on a copy, so the caller's state never changes.

    `in_place=True` is for simulations that own their state; the action is validated before any change
    either way, so an IllegalAction never leaves a half-applied state behind. A caller may also pass the
    `prompt` it took from `prompts(state)` for this very state, which spares rebuilding it: simulations do,
    and so does the bot's service (the prompt it built for the step it holds, on a working copy of it).
    """
    if prompt is None or state.over:
        prompt = validate(state, action)
    else:
        prompt.validate_action(action)
    rules = get_game(state.game)
    check_content(state)
    target = state if in_place else state.model_copy(deep=True)
    events = rules.apply(target, action, prompt)
    target.__dict__["step"] += 1  # a plain counter: pydantic's assignment hook is a step's worth of time here
    return target, events


def warm(game_id: str) -> None:
    """Load and check a game's content, and everything its first table needs (a game set up, its prompts and
    its view), so that the first game of it played costs no more than any other: a bot calls this for every
    game at start-up."""
    rules = get_game(game_id)
    seats = [SeatSpec(seat=i, name=f"seat {i + 1}") for i in range(rules.min_players)]
    state, _ = rules.new_game(seats, rules.validate_options({}), 0)
    prompts(state)
    view(state, None)


def check_content(state: GameState) -> None:
    """Raise ContentVersionError (a sentence for the moderator) when this build lacks the game's content
    version: a game never continues on other cards than it began with."""
    if not CONTENT.has(state.game, state.content_version) and CONTENT.versions(state.game):
        CONTENT.get(state.game, state.content_version)


def view(state: GameState, seat: int | None) -> Any:
    return get_game(state.game).view(state, seat)


def summary(state: GameState) -> Summary:
    return get_game(state.game).summary(state)


def to_json(state: GameState) -> str:
    return state.model_dump_json()


def from_json(text: str, game_id: str | None = None) -> GameState:
    """The state `to_json` wrote. `game_id`, when the caller knows it, spares reading the text twice."""
    if game_id is None:
        game_id = json.loads(text)["game"]
    return get_game(game_id).state_type.model_validate_json(text)


def replay(
    game_id: str, seats: list[SeatSpec], options: dict[str, Any] | None, seed: int, actions: list[Action]
) -> tuple[GameState, list[Event]]:
    state, events = new_game(game_id, seats, options, seed)
    for action in actions:
        state, more = apply(state, action, in_place=True)
        events.extend(more)
    return state, events
