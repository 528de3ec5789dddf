"""Agents that play games through the public engine API (simulations, benchmarks, tests).

`RandomAgent` answers every prompt with a uniformly random legal answer; a game may register smarter
agents (Elder Sign's uses the exact odds solver). Agents own a `random.Random`, never the game's RNG, so an
agent's choices don't change what the game's dice do.
"""

from __future__ import annotations

import importlib
import random
from typing import Protocol

from engine import api
from engine.core.game import GameState
from engine.core.prompt import Action

_SMART = {"elder-sign": "engine.elder_sign.agent:SmartAgent"}


class Agent(Protocol):
    def act(self, state: GameState) -> Action:
        """An answer to the first pending prompt."""


class RandomAgent:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, state: GameState) -> Action:
        prompt = api.prompts(state)[0]
        return self.rng.choice(prompt.answers(prompt.seats[0], limit=256))


def agent_names(game_id: str) -> list[str]:
    return ["random", "smart"] if game_id in _SMART else ["random"]


def get_agent(game_id: str, name: str, seed: int) -> Agent:
    if name == "random":
        return RandomAgent(seed)
    if name == "smart" and game_id in _SMART:
        module, attr = _SMART[game_id].split(":")
        return getattr(importlib.import_module(module), attr)(seed)
    raise ValueError(f"No agent '{name}' for {game_id}; agents: {', '.join(agent_names(game_id))}.")
