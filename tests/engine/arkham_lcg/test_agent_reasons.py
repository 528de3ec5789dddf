"""The smart agent says why it answered as it did (issue 32: AI teammates explain).

The opening decisions of seeded card game campaigns, played by the smart agent: the decisions that matter (the
turn's action, where to move, what to fight or evade, which cards to commit, who soaks harm, which upgrade)
carry a one-line reason in players' words; a question with a single answer carries none; and the chances in a
commit line are the test's own: what the chaos bag gives the test's value before the cards, and after them as the
engine counts the committed cards.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from functools import cache

from engine import api
from engine.agents import Reasoning, reasoning
from engine.arkham_lcg import skilltest
from engine.arkham_lcg.agent import SmartAgent, pct
from engine.arkham_lcg.odds import pass_chance
from engine.arkham_lcg.state import LcgState
from engine.core.game import SeatSpec
from engine.core.prompt import Action, Prompt, PromptKind
from tests.support.agent_reasons import tally

#: (seed, seats) of the campaigns, and how many decisions of each: about 1,000 decisions together
GAMES, DECISIONS = [(1, 1), (2, 2), (3, 4)], 350
#: the questions where the agent decides something a player would ask about
MATTERS = {"turn", "test_commit", "assign", "upgrade", "mulligan", "hand_discard", "pw"}


@dataclass
class Step:
    op: str
    prompt: Prompt
    action: Action
    reason: Reasoning | None
    own_test: bool = False  # a commit to the investigator's own test
    before: float = -1.0  # the test's chance before the commit, from its value
    after: float = -1.0  # its chance after, from the value the engine then counts (-1: the test is over)


@cache
def _played() -> list[Step]:
    out: list[Step] = []
    for seed, players in GAMES:
        seats = [SeatSpec(seat=n, name=f"P{n + 1}") for n in range(players)]
        state, _ = api.new_game("arkham-lcg", seats, None, seed)
        agent = SmartAgent(seed)
        for _ in range(DECISIONS):
            if state.over:
                break
            assert isinstance(state, LcgState)
            prompt = api.prompts(state)[0]
            op = state.flow.stack[-1].op
            action = agent.act(state, prompt)
            step = Step(op, prompt, action, reasoning(agent))
            seat = prompt.seats[0]
            test = skilltest.current(state) if op == "test_commit" else None
            if test is not None and test.seat == seat:
                step.own_test = True
                step.before = pass_chance(state, seat, skilltest.test_value(state, test), test.difficulty)
            state, _ = api.apply(state, action, in_place=True, prompt=prompt)
            now = skilltest.current(state) if state.tests else None
            if test is not None and step.own_test and now is not None and now.seat == seat and \
                    now.skill == test.skill and not now.tokens:  # the same test, its token not yet drawn
                step.after = pass_chance(state, seat, skilltest.test_value(state, now), now.difficulty)
            out.append(step)
    return out


def _a_choice(prompt: Prompt) -> bool:
    if prompt.kind is PromptKind.AMOUNT:
        return prompt.max_amount > prompt.min_amount
    return len(prompt.options) > 1 or prompt.kind is PromptKind.MANY and bool(prompt.options)


def test_decisions_that_matter_say_why_in_players_words() -> None:
    counted = tally(_played(), MATTERS, _a_choice)
    asked, told, lines = counted.asked, counted.told, counted.lines
    assert sum(asked.values()) >= 500, asked
    # every turn action (where to move, what to fight, evade or investigate) and every commit is explained
    for op in ("turn", "test_commit"):
        assert told[op] == asked[op] > 50, (op, told[op], asked[op])
    assert sum(told.values()) >= 0.95 * sum(asked.values()), (told, asked)
    assert len(set(lines)) >= 60, "the lines say what decided, not one stock phrase"


def test_a_commit_line_gives_the_tests_own_chances() -> None:
    """"56% to pass without, 81% with 1 card": the first figure is the chaos bag's chance for the test's value
    as it stood, the second for the value the engine counts once the cards are committed."""
    checked = 0
    for step in _played():
        if step.op != "test_commit" or not step.own_test or step.after < 0 or step.reason is None:
            continue
        said = re.fullmatch(r"(.+) to pass without, (.+) with (\d+) cards?", step.reason.line)
        if said is None:
            continue
        assert said.group(1) == pct(step.before), (step.reason.line, step.before)
        assert said.group(2) == pct(step.after), (step.reason.line, step.after)
        assert int(said.group(3)) == len(step.action.choice or []) > 0
        checked += 1
    assert checked >= 10


def test_a_fight_or_evade_line_names_the_enemy_it_chose() -> None:
    """Engaged, the agent weighs each enemy's fight and evade; its line gives the chance of the one it took and
    names that enemy, as the option does."""
    checked = 0
    for step in _played():
        if step.op != "turn" or step.reason is None:
            continue
        chosen = next(o for o in step.prompt.options if [o.id] == step.action.choice)
        said = re.match(r"(?:\d+%|under 1%|over 99%) to (?:hit|evade) (.+?)(?:;|,|$)", step.reason.line)
        if said is None or not chosen.id.startswith(("fight:", "evade:")):
            continue
        assert said.group(1) in chosen.label, (step.reason.line, chosen.label)
        checked += 1
    assert checked >= 20


def test_a_question_with_one_answer_gets_no_reason() -> None:
    """The same turn questions the agent explains, cut down to their first option, get no reason."""
    state, _ = api.new_game("arkham-lcg", [SeatSpec(seat=0, name="P1"), SeatSpec(seat=1, name="P2")], None, 2)
    agent = SmartAgent(2)
    checked = 0
    while not state.over and checked < 20:
        assert isinstance(state, LcgState)
        prompt = api.prompts(state)[0]
        if state.flow.stack[-1].op == "turn":
            alone = prompt.model_copy(update={"options": prompt.options[:1], "default": None})
            cut = copy.deepcopy(agent)
            cut.act(state, alone)
            assert reasoning(cut) is None, (prompt.title, reasoning(cut))
            checked += 1
        state, _ = api.apply(state, agent.act(state, prompt), in_place=True, prompt=prompt)
    assert checked == 20
