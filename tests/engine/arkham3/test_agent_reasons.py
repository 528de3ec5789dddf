"""The smart agent says why it answered as it did (issue 32: AI teammates explain).

Seeded games played by the Arkham Horror 3e smart agent: the decisions that matter (the turn's action, where to
move, a reroll, who soaks harm, what to buy) carry a one-line reason in players' words; a question with a single
answer carries none; and the figures in the lines are the game's own: the dice an attack line counts are the dice
the engine then rolls, and the spaces a move line counts are the spaces a search of the map finds.
"""

from __future__ import annotations

import copy
import re
from collections import Counter, deque
from dataclasses import dataclass
from functools import cache

from engine import api
from engine.agents import Reasoning, reasoning
from engine.arkham3.agent import SmartAgent
from engine.arkham3.board import content, graph, inv
from engine.arkham3.state import ArkhamState
from engine.core.events import Event
from engine.core.game import SeatSpec
from engine.core.prompt import Action, Prompt, PromptKind
from tests.support.agent_reasons import tally

#: (seed, seats) of the games played, whole: about 600 decisions together
GAMES = [(1, 1), (2, 2), (3, 4), (4, 3), (5, 2), (6, 1), (7, 4)]
#: the questions where the agent decides something a player would ask about
MATTERS = {"action", "move", "test_reroll", "assign", "shop"}


@dataclass
class Step:
    op: str
    prompt: Prompt
    action: Action
    reason: Reasoning | None
    events: list[Event]  # what the answer set off
    goal: str = ""  # a move's goal, by the name players see
    hood: str = ""  # the neighborhood the goal is in (a clue's goal is named by it)
    spaces: int = -1  # a move's spaces to the goal (from here, or from the space chosen), searched here


@cache
def _played() -> list[Step]:
    """Every decision of the seeded games, with what a move's line is checked against."""
    out: list[Step] = []
    for seed, players in GAMES:
        state, _ = api.new_game("arkham3", [SeatSpec(seat=i, name=f"P{i + 1}") for i in range(players)], None,
                                seed)
        agent = SmartAgent(seed)
        while not state.over:
            assert isinstance(state, ArkhamState)
            prompt = api.prompts(state)[0]
            op = state.flow.stack[-1].op
            action = agent.act(state, prompt)
            step = Step(op, prompt, action, reasoning(agent), [])
            seat = prompt.seats[0]
            if op == "action" and action.choice == ["move"] or op == "move" and seat in agent.target:
                goal = agent.target[seat]
                start = inv(state, seat).space if op == "action" else \
                    next(o.data[0] for o in prompt.options if [o.id] == action.choice)
                step.goal, step.spaces = graph(state).names[goal], _bfs(state, start or "", goal)
                tile = graph(state).tile_of.get(goal)
                step.hood = content(state).tiles[tile].name if tile else ""
            state, step.events = api.apply(state, action, in_place=True, prompt=prompt)
            out.append(step)
    return out


def _bfs(state: ArkhamState, start: str, goal: str) -> int:
    """Spaces from `start` to `goal` over the map's links, searched here rather than read from the engine."""
    adj = graph(state).adj
    seen, todo = {start: 0}, deque([start])
    while todo:
        cur = todo.popleft()
        for nxt in adj[cur]:
            if nxt not in seen:
                seen[nxt] = seen[cur] + 1
                todo.append(nxt)
    return seen[goal]


def _a_choice(prompt: Prompt) -> bool:
    if prompt.kind is PromptKind.AMOUNT:
        return prompt.max_amount > prompt.min_amount
    return len(prompt.options) > 1


def test_decisions_that_matter_say_why_in_players_words() -> None:
    counted = tally(_played(), MATTERS, _a_choice)
    asked, told, lines, single = counted.asked, counted.told, counted.lines, counted.single
    assert sum(asked.values()) >= 150, asked
    # every turn action and move is explained; a reroll kept with nothing to say about it is the only gap
    for op in ("action", "move"):
        assert told[op] == asked[op] > 20, (op, told[op], asked[op])
    assert sum(told.values()) >= 0.95 * sum(asked.values()), (told, asked)
    assert single >= 3
    assert len(set(lines)) >= 40, "the lines say what decided, not one stock phrase"


def test_an_attack_line_counts_the_dice_the_engine_rolls() -> None:
    """A line "5 dice against Coven Initiate" is checked against the engine's roll that follows it."""
    checked = 0
    for step in _played():
        if step.op != "action" or step.action.choice != ["attack"] or step.reason is None:
            continue
        said = re.match(r"(?:only )?(\d+) dic?e? against", step.reason.line)
        rolled = next((e for e in step.events if e.kind == "test.rolled"), None)
        if said is None or rolled is None:
            continue
        assert int(said.group(1)) == len(rolled.data["dice"]), (step.reason.line, rolled.text)
        checked += 1
    assert checked >= 5


def test_a_move_names_its_goal_and_counts_the_spaces_to_it() -> None:
    """The move action's line counts the spaces from here to the goal, the space chosen's line those still to
    go from there (none said once there), each as a search of the map counts them."""
    checked = Counter[str]()
    for step in _played():
        if not step.goal:
            continue
        assert step.reason is not None, step
        named = step.goal in step.reason.line or "clue, in" in step.reason.line and step.hood in step.reason.line
        assert named, (step.goal, step.reason.line)
        if step.op == "action":
            said = re.search(r"(\d+) spaces? away$", step.reason.line)
            assert said and int(said.group(1)) == step.spaces, (step.reason.line, step.spaces)
        else:
            said = re.search(r"(\d+) spaces? to go$", step.reason.line)
            assert (int(said.group(1)) if said else 0) == step.spaces, (step.reason.line, step.spaces)
        checked[step.op] += 1
    assert checked["action"] >= 20 and checked["move"] >= 20, checked


def test_a_question_with_one_answer_gets_no_reason() -> None:
    """The same turn questions the agent explains, cut down to their first option, get no reason."""
    state, _ = api.new_game("arkham3", [SeatSpec(seat=0, name="P1"), SeatSpec(seat=1, name="P2")], None, 2)
    agent = SmartAgent(2)
    checked = 0
    while not state.over and checked < 20:
        prompt = api.prompts(state)[0]
        if state.flow.stack[-1].op in ("action", "move", "test_reroll"):
            alone = prompt.model_copy(update={"options": prompt.options[:1], "default": None})
            cut = copy.deepcopy(agent)
            cut.act(state, alone)
            assert reasoning(cut) is None, (prompt.title, reasoning(cut))
            checked += 1
        action = agent.act(state, prompt)
        state, _ = api.apply(state, action, in_place=True, prompt=prompt)
    assert checked == 20
