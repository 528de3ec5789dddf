"""The service works from one object per step: a step's pending prompts are built by the engine once, and every
part of a click (the check that the prompt is still asked, the engine's validation, who is awaited next, the
prompt cards of the reply) reads them from there."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot import games
from bot.service import GameService
from engine import api
from engine.core.game import GameState
from engine.core.prompt import Prompt
from tests.bot.conftest import CHANNEL
from tests.bot.test_games_arkham3 import _to_first_action


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the engine's prompt builds, by the state's step they were built for."""
    built: list[int] = []
    real: Callable[[GameState], list[Prompt]] = api.prompts

    def counting(state: GameState) -> list[Prompt]:
        built.append(state.step)
        return real(state)
    monkeypatch.setattr(api, "prompts", counting)
    return built


async def test_a_game_command_builds_each_steps_prompts_once(service: GameService,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """`/ah focus skill:lore` takes two steps (Focus, then which skill) and tries the second on a copy first:
    three states, three builds (it took thirteen when each helper rebuilt them)."""
    state, actor = await _to_first_action(service)
    built = _counting(monkeypatch)
    await games.game_command(service, CHANNEL, actor, "ah", "focus", {"skill": "lore"})  # type: ignore[arg-type]
    assert sorted(built) == [state.step + 1, state.step + 1, state.step + 2]  # the trial, then each committed step


async def test_a_click_builds_the_new_steps_prompts_once(service: GameService,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    state, actor = await _to_first_action(service)
    prompt = api.prompts(state)[0]
    built = _counting(monkeypatch)
    reply = await service.choose(CHANNEL, actor, prompt.seq, [prompt.options[0].id],  # type: ignore[attr-defined]
                                 seat=prompt.seats[0])
    assert reply.applied and built == [state.step + 1]
    await service.pending(CHANNEL)  # read again from the cache: nothing rebuilt
    assert built == [state.step + 1]
