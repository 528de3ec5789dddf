"""AI teammates decide only from what their seat may see (issue 32, item 5; design: "Hidden information by
view").

In seeded games with one, two and four seats, played by the smart agent (and by the random one), every few
decisions each pending question is asked twice: of the state as it is, and of the state with everything hidden
from the asked seat scrambled (tests/support/hidden_info.py: deck orders, cups, the chaos bag, other
investigators' hands in the card game, the hidden backs of Spells, Conditions and dark pacts, the game's RNG).
Each time a fresh copy of the agent as it stood answers (its memory and its own RNG the same). The answers, and
what the agent remembers afterwards, must be identical; so must the question itself (a prompt that changed
would show the seat something hidden), and the seat's view (the scramble touches only what the view hides).
A cheat that reads a deck or another hand is caught (last test). HYPOTHESIS_PROFILE=thorough plays twelve whole
games of each, checking every third decision.

Judgements in the scramble (the rules leave them to us):
* A card game investigator's hand is hidden from the other seats even where it was once shown; its size is
  public, so the same number of cards is dealt back.
* A card game investigator's own deck order is hidden from them too, but for the top cards a search of it is
  showing them right now: those stay on top, in order (the search prompt lists them).
* The Eldritch Gates an effect revealed stay on top of the Gate stack, in order; the rest is shuffled below.
* A Spell's or Condition's back, and an Arkham 3e dark pact's back, is hidden from its holder too (the view
  shows the front only); a card turned over right now shows its back and is left as it is.
* Arkham 3e: a neighborhood deck is shuffled whole, although the rules put a Clue's event card among its top
  cards: the agent may use that knowledge only through the public Clue on the board.
"""

from __future__ import annotations

import copy
import os
import random
import zlib
from collections.abc import Callable
from typing import Any

import pytest

from engine import api
from engine.agents import Agent, RandomAgent, get_agent
from engine.core.game import GameState, SeatSpec
from engine.core.prompt import Action, Prompt
from tests.support.hidden_info import renamer, scramble

#: game -> (its seeded games as (seed, seats), check every n-th decision, play at most this many decisions of
#: a game): whole games where a decision is fast, the opening of Elder Sign's (its agent solves exact odds)
CASES: dict[str, tuple[list[tuple[int, int]], int, int]] = {
    "elder-sign": ([(2, 2), (3, 4)], 4, 40),
    "eldritch": ([(1, 1), (2, 2), (3, 4)], 10, 400),
    "arkham3": ([(1, 1), (2, 2), (3, 4)], 5, 400),
    "arkham-lcg": ([(1, 1), (2, 2), (3, 4)], 10, 150),
}
#: the random agent's games (trivially fair: it reads only the prompt) are played shorter
RANDOM_PLAY = 60
if os.environ.get("HYPOTHESIS_PROFILE") == "thorough":  # a long local run: more seeds, whole games
    CASES = {game: ([(seed, 1 + seed % 4) for seed in range(1, 13)], 3, 3000) for game in CASES}


def _question(prompt: Prompt, rename: Any) -> tuple[Any, ...]:
    return (prompt.seq, tuple(prompt.seats), prompt.kind, prompt.title, prompt.min_choices, prompt.max_choices,
            prompt.min_amount, prompt.max_amount,
            tuple((rename(o.id), o.label, o.detail) for o in prompt.options))


def _answer(action: Action, rename: Any) -> tuple[Any, ...]:
    return (action.seat, action.prompt, tuple(rename(c) for c in action.choice or ()), action.amount)


def _memory(agent: Agent) -> dict[str, Any]:
    return {k: v.getstate() if isinstance(v, random.Random) else v for k, v in vars(agent).items()}


def _check(game: str, agent: Agent, state: GameState, prompt: Prompt, salt: int) -> None:
    seat = prompt.seats[0]
    renamed: dict[str, str] = {}
    hidden = scramble(state, seat, random.Random(salt), renamed)
    rename = renamer(renamed)
    assert rename(api.view(state, seat).model_dump_json()) == api.view(hidden, seat).model_dump_json(), (
        f"{game} step {state.step}: the scramble changed what seat {seat} sees")
    pending = api.prompts(hidden)
    asked = next((p for p in pending if p.seq == prompt.seq), None)
    assert asked is not None, f"{game} step {state.step}: the question to seat {seat} depends on hidden things"
    assert _question(asked, lambda t: t) == _question(prompt, rename), (
        f"{game} step {state.step}: the question to seat {seat} shows hidden things")
    mine, theirs = copy.deepcopy(agent), copy.deepcopy(agent)
    before = state.model_dump_json()
    answer = mine.act(state, prompt)
    assert state.model_dump_json() == before, "the agent changed the state it was shown"
    other = theirs.act(hidden, asked)
    assert _answer(answer, rename) == _answer(other, lambda t: t), (
        f"{game} step {state.step} ({prompt.title}): the agent's answer for seat {seat} depends on hidden things")
    assert _memory(mine) == _memory(theirs), f"{game} step {state.step}: the agent remembers hidden things"


def _play_and_check(game: str, agent: Agent, seed: int, players: int, every: int, most: int) -> int:
    """Play one seeded game with `agent`, checking every `every`-th decision; how many were checked."""
    seats = [SeatSpec(seat=i, name=f"Player {i + 1}") for i in range(players)]
    state, _ = api.new_game(game, seats, None, seed)
    checked = 0
    for n in range(most):
        if state.over:
            break
        pending = api.prompts(state)
        prompt = pending[0]
        if n % every == 0:
            for asked in pending:  # a question to several seats at once: each is asked what it sees
                _check(game, agent, state, asked, seed * 100_003 + n)
                checked += 1
        state, _ = api.apply(state, agent.act(state, prompt), in_place=True, prompt=prompt)
    return checked


@pytest.mark.parametrize("agent_name", ["smart", "random"])
@pytest.mark.parametrize("game", list(CASES))
def test_agent_decides_from_what_its_seat_sees(game: str, agent_name: str) -> None:
    games, every, most = CASES[game]
    if agent_name == "random":
        most = min(most, RANDOM_PLAY)
    checked = sum(_play_and_check(game, get_agent(game, agent_name, seed), seed, players, every, most)
                  for seed, players in games)
    assert checked >= 10


# ------------------------------------------------------------------ the check catches an agent that peeks

#: game -> something hidden from `seat` that a cheating agent might read
PEEKS: dict[str, Callable[[Any, int], object]] = {
    "elder-sign": lambda state, seat: state.decks["adventure"].draw_pile[-3:],
    "eldritch": lambda state, seat: state.decks["mythos"].draw_pile[-3:],
    "arkham3": lambda state, seat: (state.event_deck[-3:], state.cup),
    "arkham-lcg": lambda state, seat: [sorted(inv.hand) for n, inv in enumerate(state.invs) if n != seat],
}


class Peeker:
    """A cheat: answers by what `look` reads of the hidden state (the same each time it is asked)."""

    def __init__(self, seed: int, look: Callable[[Any, int], object]) -> None:
        self.rng = random.Random(seed)
        self.look = look

    def act(self, state: GameState, prompt: Prompt | None = None) -> Action:
        prompt = prompt or api.prompts(state)[0]
        seat = prompt.seats[0]
        answers = prompt.answers(seat, limit=64)
        return answers[zlib.crc32(repr(self.look(state, seat)).encode()) % len(answers)]


@pytest.mark.parametrize("game", list(PEEKS))
def test_the_check_catches_an_agent_that_peeks(game: str) -> None:
    """Positions of a random game with two seats; the cheat must be caught at one of them at least."""
    seats = [SeatSpec(seat=i, name=f"Player {i + 1}") for i in range(2)]
    state, _ = api.new_game(game, seats, None, 5)
    walker, cheat = RandomAgent(5), Peeker(5, PEEKS[game])
    caught = 0
    for n in range(60):
        if state.over:
            break
        prompt = api.prompts(state)[0]
        if len(prompt.answers(prompt.seats[0], limit=2)) > 1:
            try:
                _check(game, cheat, state, prompt, n)
            except AssertionError as exc:
                assert "depends on hidden things" in str(exc)
                caught += 1
        state, _ = api.apply(state, walker.act(state, prompt), in_place=True, prompt=prompt)
    assert caught >= 3
