"""The game at a glance (issue 27, "a state line on the live message"): one shared format built from each
game's summary: the round (Elder Sign's day) and phase, whose turn, then the clock, each in a few words."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.games.manifest import bot_games
from bot.service_text import state_line
from engine import api
from engine.agents import get_agent
from engine.core.game import SeatSpec, Summary


def _played(game: str, steps: int, until: Callable[[Summary], bool] = lambda _: True) -> Summary:
    """The summary after `steps` random answers, or the first one after them that `until` accepts (a phase
    with nobody's turn, such as an encounter phase, is played on through)."""
    state, _ = api.new_game(game, [SeatSpec(seat=0, name="alice"), SeatSpec(seat=1, name="bob")], {}, seed=3)
    agent = get_agent(game, "random", 1)
    for n in range(steps + 400):
        prompts = api.prompts(state)
        if not prompts or (n >= steps and until(api.summary(state))):
            break
        state, _ = api.apply(state, agent.act(state, prompts[0]), in_place=True)
    return api.summary(state)


@pytest.mark.parametrize(("game", "clock"), [("elder-sign", "Doom "), ("eldritch", "Omen "),
                                             ("arkham3", "Doom "), ("arkham-lcg", "Doom ")])
def test_every_game_gives_whose_turn_and_its_clock(game: str, clock: str) -> None:
    manifest = bot_games()[game]
    summary = _played(game, 30, lambda s: any(p.endswith("'s turn") for p in state_line(
        s, round_word=manifest.stats.round_word if manifest.stats else "round", phase_word=manifest.phase_word
    ).split(" · ")))
    line = state_line(summary, round_word=manifest.stats.round_word if manifest.stats else "round",
                      phase_word=manifest.phase_word)
    parts = line.split(" · ")
    assert parts[0].split()[0] in ("Round", "Day") and parts[0].split()[1].isdigit(), line
    assert any(p.endswith("'s turn") for p in parts) and any(p.startswith(clock) for p in parts), line
    assert len(line) <= 120, "a glance, not a paragraph"


def test_the_format_is_shared() -> None:
    summary = Summary(phase="mythos", round=4, waiting_for=[], headline="", facts=["Doom 7/15", "Omen green"])
    assert state_line(summary) == "Round 4 · Mythos phase · Doom 7/15 · Omen green"
    assert state_line(summary, round_word="day", phase_word="") == "Day 4 · Mythos · Doom 7/15 · Omen green"
    assert state_line(Summary(phase="over", round=0, waiting_for=[], headline="")) == ""
