"""The smart agent explains its decisions (issue 32: AI teammates explain, item 3).

An AI teammate's narration shows one short reason after each decision that matters, and `/game why` its detail.
Seeded games played by the smart agent check that the decisions that matter carry a reason (where to go, which
roll to use, which dice to reroll, what to do at the Entrance), that every reason reads in players' words (short,
no engine ids, no copy numbers), that the figure a line gives is the odds solver's own for the same question, and
that a question with one answer gets none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

import pytest

from engine import api
from engine.agents import Reasoning, reasoning
from engine.core.game import SeatSpec
from engine.core.prompt import PromptKind
from engine.elder_sign import board
from engine.elder_sign.agent import SmartAgent
from engine.elder_sign.dice import color_of
from engine.elder_sign.odds import adventure_odds, best_use
from engine.elder_sign.state import ElderSignState
from engine.elder_sign.turn import held_dice
from tests.support.agent_reasons import ID_PATTERN, check_reason_words

#: (seed, players) of the games played, and how many decisions of each
GAMES = [(1, 2), (3, 4), (5, 1)]
DECISIONS = 220
#: the questions where the agent decides something: it goes, rolls, rerolls, discards, focuses, heals or buys
DECIDED = {"move", "post_roll", "entrance", "pick_dice", "discard_pick", "after_fail_ask", "choose_branch",
           "assist_consent"}
#: a copy number ("-2", "#0") or an id-like token the word detectors leave alone
COPY = re.compile(ID_PATTERN + r"|\bgo:|\btask:|\bslot:")
PERCENT = re.compile(r"(\d+)%")


@dataclass(frozen=True)
class Decision:
    op: str
    options: int
    kind: PromptKind
    choice: tuple[str, ...]
    reason: Reasoning | None
    #: the figure checked against the solver: (the percent the line gives, the solver's chance)
    check: tuple[str, float] | None


def _green(state: ElderSignState) -> int:
    return sum(1 for d, die in state.dice.items() if color_of(d) == "green" and die.loc in ("supply", "pool"))


def _solver_figure(state: ElderSignState, op: str, choice: tuple[str, ...], seat: int) -> float | None:
    """The solver's chance for the question, worked out here from the state (not from the agent): for a move to
    an adventure, the chance to complete it this turn with the green dice; for a roll, best_use's odds."""
    if op == "move" and choice[0] != "go:entrance":
        where = choice[0][3:]
        card = board.card_data(state, where)
        assert card is not None
        tasks = [t for _, t in board.task_list(state, where)]
        return adventure_odds(tasks, card.ordered, _green(state), focus=not board.modifier(state, "no_focus"))
    if op == "post_roll" and state.adventure is not None and state.adventure.where != "ao":
        adv = state.adventure
        card = board.card_data(state, adv.where)
        tasks = [t for k, t in board.task_list(state, adv.where) if k not in set(adv.completed)]
        rolled = [(d, state.dice[d].face or "") for d in board.dice_at(state, "pool") if state.dice[d].face]
        held = [(d, state.dice[d].face or "") for d in held_dice(state, seat) if state.dice[d].face]
        if len(tasks) < 2 or not rolled or choice[0] == "abandon":
            return None
        clue = "clue" in [o.id for o in api.prompts(state)[0].options]  # as the agent reads it
        cost = int(board.modifier(state, "clue_cost") or 1)
        clues = min(3, board.inv(state, seat).clues // cost) if clue else 0
        focus = adv.focus_used == 0 and state.phase == "normal" and not board.modifier(state, "no_focus")
        return best_use(tasks, rolled, held, clues=clues, focus=focus, ordered=bool(card and card.ordered)).odds
    return None


@cache
def played(seed: int, players: int) -> tuple[Decision, ...]:
    seats = [SeatSpec(seat=i, name=f"Player {i + 1}") for i in range(players)]
    state, _ = api.new_game("elder-sign", seats, None, seed)
    assert isinstance(state, ElderSignState)
    agent = SmartAgent(seed)
    out = []
    for _ in range(DECISIONS):
        if state.over:
            break
        prompt = api.prompts(state)[0]
        op = state.flow.stack[-1].op
        action = agent.act(state, prompt)
        choice = tuple(action.choice or ())
        why = reasoning(agent)
        check = None
        if why is not None and choice:
            figure = _solver_figure(state, op, choice, prompt.seats[0])
            found = PERCENT.search(why.line)
            if figure is not None and found:
                check = (found.group(0), figure)
        out.append(Decision(op, len(prompt.options), prompt.kind, choice, why, check))
        state, _ = api.apply(state, action, in_place=True, prompt=prompt)
    return tuple(out)


def _all() -> list[Decision]:
    return [d for seed, players in GAMES for d in played(seed, players)]


def test_the_decisions_that_matter_carry_a_reason() -> None:
    """Every move, roll and Entrance decision with a real choice explains itself; of the other decided questions
    (rerolls, discards, focus, help, which loss), a floor measured on these games (488 of 490 today: a discard
    the solver did not plan, such as a Terror effect's, takes the default answer and gives no reason)."""
    decided = [d for d in _all() if d.op in DECIDED and d.options > 1]
    assert len(decided) >= 150
    for op in ("move", "post_roll", "entrance"):
        mine = [d for d in decided if d.op == op]
        assert mine, op
        assert all(d.reason is not None for d in mine), [d for d in mine if d.reason is None][:3]
    share = sum(d.reason is not None for d in decided) / len(decided)
    assert share >= 0.95, share


def test_every_reason_reads_in_players_words() -> None:
    reasons = [d.reason for d in _all() if d.reason is not None]
    assert len(reasons) >= 150
    for r in reasons:
        check_reason_words(r, COPY)


def test_the_odds_a_line_gives_are_the_solvers() -> None:
    """The percent in a move's line is the chance the odds solver gives to complete that adventure this turn; in
    a roll's line, the chance best_use gives to finish from this roll (both worked out afresh by the test)."""
    checked = [d for d in _all() if d.check is not None]
    assert {d.op for d in checked} == {"move", "post_roll"}
    for d in checked:
        said, figure = d.check or ("", 0.0)
        if 0.005 <= figure < 0.995:
            assert said == f"{figure:.0%}", (d, figure)


def test_a_question_with_one_answer_gets_no_reason() -> None:
    single = [d for d in _all() if d.options == 1 and d.kind in (PromptKind.ONE, PromptKind.CONFIRM)]
    assert single
    assert all(d.reason is None for d in single), [d for d in single if d.reason is not None][:3]


@pytest.mark.parametrize("stamina", [2, 5])
def test_a_hurt_investigator_says_why_it_goes_back_to_the_entrance(stamina: int) -> None:
    """At 2 stamina the agent heads for First Aid and says so; at 5 it names the adventure's odds instead."""
    seats = [SeatSpec(seat=0, name="Player 1")]
    state, _ = api.new_game("elder-sign", seats, None, 1)
    assert isinstance(state, ElderSignState)
    agent = SmartAgent(1)
    while state.flow.stack[-1].op != "move":
        prompt = api.prompts(state)[0]
        state, _ = api.apply(state, agent.act(state, prompt), in_place=True, prompt=prompt)
    assert not board.modifier(state, "no_first_aid")  # this game's Mythos leaves First Aid open
    inv = board.inv(state, 0)
    inv.stamina = stamina
    inv.sanity = inv.max_sanity
    action = agent.act(state, api.prompts(state)[0])
    why = reasoning(agent)
    assert why is not None
    if stamina == 2:
        assert action.choice == ["go:entrance"]
        assert why.line == "low on stamina 2: first aid at the Entrance"
    else:
        assert "%" in why.line and why.detail
