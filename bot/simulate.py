"""`miskatonic simulate`: play many complete games through the engine alone, as fast as it goes.

This is a robustness check (no game may crash or stall) and a throughput figure. It never touches the bot
or the database: engine.api with in_place=True on a state the simulator owns.

An agent decides one action from a state (`act(state) -> Action`). Agents draw from their own
random.Random seeded from --seed, never from the game's RNG, so an agent's choices cannot change the game's
dice. "random" picks a pending prompt, an asked seat and then a legal answer uniformly; any other name is
looked up with `engine.agents.get_agent(game, name, seed)`.
"""

from __future__ import annotations

import importlib
import json
import random
import sys
import time
import traceback
from collections.abc import Callable
from typing import Any, TextIO

from engine import api
from engine.core.game import GameState, SeatSpec
from engine.core.prompt import Action
from engine.games import get_game

Agent = Callable[[GameState], Action]
MAX_ACTIONS = 20_000


class SimulationError(Exception):
    pass


class RandomAgent:
    """Uniform over the pending prompts, their asked seats, then that seat's legal answers."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def __call__(self, state: GameState) -> Action:
        pending = api.prompts(state)
        if not pending:
            raise SimulationError(f"the game stalled at step {state.step}: not over, but nothing to decide")
        prompt = pending[0] if len(pending) == 1 else self.rng.choice(pending)
        seat = prompt.seats[0] if len(prompt.seats) == 1 else self.rng.choice(prompt.seats)
        legal = prompt.answers(seat)
        if not legal:
            raise SimulationError(f"prompt {prompt.seq} ({prompt.title}) has no legal answer for seat {seat}")
        return self.rng.choice(legal)


def load_agent(game_id: str, name: str, seed: int) -> Agent:
    if name == "random":
        return RandomAgent(random.Random(seed))
    try:
        agents = importlib.import_module("engine.agents")
    except ModuleNotFoundError as exc:
        raise SimulationError(f"There is no '{name}' agent: the engine has no agents module. "
                              f"Use --agent random.") from exc
    get_agent = getattr(agents, "get_agent", None)
    if get_agent is None:
        raise SimulationError("engine.agents has no get_agent(game, name, seed) function.")
    try:
        agent = get_agent(game_id, name, seed)
    except ValueError as exc:  # the engine's "no such agent" sentence
        raise SimulationError(str(exc)) from exc
    return agent.act


def seat_count(game_id: str, index: int) -> int:
    """1 to 4 players (within the game's limits), cycling with the game's index."""
    rules = get_game(game_id)
    low = max(1, rules.min_players)
    high = max(low, min(4, rules.max_players))
    return low + index % (high - low + 1)


def play_one(game_id: str, seed: int, players: int, agent: Agent,
             max_actions: int = MAX_ACTIONS) -> tuple[GameState, int]:
    """One complete game; (final state, actions taken). Raises on a crash, a stall or a runaway game."""
    seats = [SeatSpec(seat=i, name=f"Player {i + 1}") for i in range(players)]
    state, _ = api.new_game(game_id, seats, None, seed)
    actions = 0
    while not state.over:
        if not api.prompts(state):
            raise SimulationError(f"the game stalled at step {state.step}: not over, but nothing to decide")
        state, _ = api.apply(state, agent(state), in_place=True)
        actions += 1
        if actions >= max_actions and not state.over:
            raise SimulationError(f"the game did not end within {max_actions} actions")
    return state, actions


def simulate(game_id: str, games: int, seed: int, agent_name: str = "random", *,
             max_actions: int = MAX_ACTIONS, err: TextIO | None = None) -> dict[str, Any]:
    get_game(game_id)  # an unknown game fails here, once, with the engine's message
    agent = load_agent(game_id, agent_name, seed)
    wins = losses = errors = actions = 0
    started = time.perf_counter()
    for i in range(games):
        game_seed = seed + i
        try:
            state, taken = play_one(game_id, game_seed, seat_count(game_id, i), agent, max_actions)
        except Exception:
            errors += 1
            print(f"game {i} (seed {game_seed}) failed:\n{traceback.format_exc()}", file=err or sys.stderr)
            continue
        actions += taken
        wins += state.result == "win"
        losses += state.result == "loss"
    seconds = time.perf_counter() - started
    return {"game": game_id, "games": games, "wins": wins, "losses": losses, "errors": errors,
            "actions": actions, "seconds": round(seconds, 3),
            "games_per_s": round(games / seconds, 2) if seconds > 0 else None}


def main(game_id: str, games: int, seed: int, agent_name: str) -> int:
    try:
        result = simulate(game_id, games, seed, agent_name)
    except SimulationError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    print(json.dumps(result))
    return 1 if result["errors"] else 0
