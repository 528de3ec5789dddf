"""`miskatonic simulate`: play many complete games through the engine alone, as fast as it goes.

This is a robustness check (no game may crash or stall) and a throughput figure. It never touches the bot
or the database: engine.api with in_place=True on a state the simulator owns.

Agents come from `engine.agents.get_agent(game, name, seed)` ("random" for every game; "smart" where a game
has one). They draw from their own random.Random seeded from --seed, never from the game's RNG, so an
agent's choices cannot change the game's dice.
"""

from __future__ import annotations

import json
import sys
import time
import traceback
from typing import Any, TextIO

from engine import api
from engine.agents import Agent, get_agent
from engine.core.game import GameState, SeatSpec
from engine.games import get_game

MAX_ACTIONS = 20_000


class SimulationError(Exception):
    pass


def load_agent(game_id: str, name: str, seed: int) -> Agent:
    try:
        agent = get_agent(game_id, name, seed)
    except ValueError as exc:  # the engine's "no such agent" sentence
        raise SimulationError(str(exc)) from exc
    return agent


def seat_count(game_id: str, index: int) -> int:
    """1 to 4 players (within the game's limits), cycling with the game's index."""
    rules = get_game(game_id)
    low = max(1, rules.min_players)
    high = max(low, min(4, rules.max_players))
    return low + index % (high - low + 1)


def play_one(game_id: str, seed: int, players: int, agent: Agent,
             max_actions: int = MAX_ACTIONS, options: dict[str, Any] | None = None) -> tuple[GameState, int]:
    """One complete game; (final state, actions taken). Raises on a crash, a stall or a runaway game."""
    seats = [SeatSpec(seat=i, name=f"Player {i + 1}") for i in range(players)]
    state, _ = api.new_game(game_id, seats, options or None, seed)
    actions = 0
    while not state.over:
        pending = api.prompts(state)
        if not pending:
            raise SimulationError(f"the game stalled at step {state.step}: not over, but nothing to decide")
        prompt = pending[0]  # built once per action: the agent answers it and apply checks against it
        state, _ = api.apply(state, agent.act(state, prompt), in_place=True, prompt=prompt)
        actions += 1
        if actions >= max_actions and not state.over:
            raise SimulationError(f"the game did not end within {max_actions} actions")
    return state, actions


def simulate(game_id: str, games: int, seed: int, agent_name: str = "random", *,
             max_actions: int = MAX_ACTIONS, err: TextIO | None = None,
             options: dict[str, Any] | None = None) -> dict[str, Any]:
    """`options` are the game's own options (e.g. {"scenario": "low-tide"}), the same for every game."""
    get_game(game_id)  # an unknown game fails here, once, with the engine's message
    agent = load_agent(game_id, agent_name, seed)
    wins = losses = errors = actions = 0
    started = time.perf_counter()
    for i in range(games):
        game_seed = seed + i
        try:
            state, taken = play_one(game_id, game_seed, seat_count(game_id, i), agent, max_actions,
                                    options)
        except Exception:
            errors += 1
            print(f"game {i} (seed {game_seed}) failed:\n{traceback.format_exc()}", file=err or sys.stderr)
            continue
        actions += taken
        wins += state.result == "win"
        losses += state.result == "loss"
    seconds = time.perf_counter() - started
    shown = {"options": options} if options else {}
    return {"game": game_id, **shown, "games": games, "wins": wins, "losses": losses, "errors": errors,
            "actions": actions, "seconds": round(seconds, 3),
            "games_per_s": round(games / seconds, 2) if seconds > 0 else None}


def main(game_id: str, games: int, seed: int, agent_name: str, options: dict[str, Any] | None = None) -> int:
    try:
        result = simulate(game_id, games, seed, agent_name, options=options)
    except SimulationError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    print(json.dumps(result))
    return 1 if result["errors"] else 0
