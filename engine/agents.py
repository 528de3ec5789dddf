"""Agents that play games through the public engine API (simulations, benchmarks, tests).

`RandomAgent` answers every prompt with a uniformly random legal answer; a game may register smarter
agents (Elder Sign's uses the exact odds solver). Agents own a `random.Random`, never the game's RNG, so an
agent's choices don't change what the game's dice do.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol

from engine import api
from engine.core.game import GameState
from engine.core.manifest import load_target
from engine.core.prompt import Action, Prompt, PromptKind
from engine.games import manifest


@dataclass(frozen=True)
class Reasoning:
    """Why an agent answered as it did, in players' words, for an AI teammate's narration.

    `line` is one short clause shown after the step's narration ("best odds: 72% to complete it"); `detail`
    is what `/game why` adds (the alternatives it weighed, with their figures). Neither names an engine id.
    """

    line: str
    detail: tuple[str, ...] = ()


class Agent(Protocol):
    def act(self, state: GameState, prompt: Prompt | None = None) -> Action:
        """An answer to `prompt` (one of `api.prompts(state)`; by default the first)."""


def reasoning(agent: Agent) -> Reasoning | None:
    """The reason an agent gives for its last `act` (None: a routine answer, or an agent that gives none).
    A smart agent sets `self.reasoning` at each `act`: None first, a `Reasoning` where the decision mattered."""
    found = getattr(agent, "reasoning", None)
    return found if isinstance(found, Reasoning) else None


class RandomAgent:
    """Uniform over the pending prompts, then the prompt's asked seats, then that seat's legal answers."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, state: GameState, prompt: Prompt | None = None) -> Action:
        if prompt is None:
            pending = api.prompts(state)
            prompt = pending[0] if len(pending) == 1 else self.rng.choice(pending)
        seat = prompt.seats[0] if len(prompt.seats) == 1 else self.rng.choice(prompt.seats)
        kind = prompt.kind
        if (kind is PromptKind.ONE or kind is PromptKind.CONFIRM) and prompt.options:
            # one answer per option, in order: the same draw as choosing among every answer, without making them
            return prompt.one_answer(seat, self.rng.choice(prompt.options).id)
        return self.rng.choice(prompt.answers(seat, limit=256))


def agent_names(game_id: str) -> list[str]:
    return ["random", *manifest(game_id).agents]


def get_agent(game_id: str, name: str, seed: int) -> Agent:
    if name == "random":
        return RandomAgent(seed)
    target = manifest(game_id).agents.get(name)
    if target is not None:
        return load_target(target)(seed)  # type: ignore[no-any-return]
    raise ValueError(f"No agent '{name}' for {game_id}; agents: {', '.join(agent_names(game_id))}.")
