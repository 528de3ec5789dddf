"""The smart agent explains its decisions (issue 32: AI teammates explain, item 3).

An AI teammate's narration shows one short reason after each decision that matters, and `/game why` its detail.
Seeded games played by the smart agent check that its actions (where to travel, rest, acquire …), encounters,
purchases, rerolls and effect choices carry a reason, that every reason reads in players' words (short, no
engine ids, no copy numbers), that the goal and distance a travel line names are true of the board (worked out
here from the map's paths), and that a question with one answer gets none.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass
from functools import cache

from engine import api
from engine.agents import Reasoning, reasoning
from engine.core.game import SeatSpec
from engine.core.prompt import PromptKind
from engine.eldritch.agent import SmartAgent
from engine.eldritch.content import default_content
from engine.eldritch.state import EldritchState
from tests.support.agent_reasons import ID_PATTERN, check_reason_words

#: (seed, players) of the games played, whole
GAMES = [(seed, 1 + seed % 4) for seed in range(1, 13)]
#: a copy number ("-2", "#0") or an id-like token the word detectors leave alone
COPY = re.compile(ID_PATTERN + r"|\btravel:|\bclue:|\bfree:")
#: "toward the open Gate at Shanghai: 2 spaces from there"
TOWARD = re.compile(r"^toward the (open Gate|guarded Gate|Clue|Rumor|Mystery's encounter) at (.+): (\d+) spaces? "
                    r"from there$")


@dataclass(frozen=True)
class Decision:
    title: str
    options: int
    kind: PromptKind
    choice: tuple[str, ...]
    reason: Reasoning | None
    #: for a travel toward a goal: (what the line names, the space's kind of goal now, the map's distance)
    travel: tuple[str, str, int, int] | None


@cache
def _space_ids() -> dict[str, str]:
    c = default_content()
    return {f"space {s.name}" if s.name.isdigit() else s.name: s.id for s in c.spaces.values()}


def _paths_between(a: str, b: str) -> int:
    """Fewest paths from a to b on the map (breadth-first over the content's paths, whatever their type)."""
    c = default_content()
    near: dict[str, list[str]] = {}
    for p in c.paths:
        near.setdefault(p.a, []).append(p.b)
        near.setdefault(p.b, []).append(p.a)
    seen, queue = {a: 0}, deque([a])
    while queue:
        here = queue.popleft()
        for there in near.get(here, []):
            if there not in seen:
                seen[there] = seen[here] + 1
                queue.append(there)
    return seen[b]


def _goal_kind(state: EldritchState, space: str) -> set[str]:
    """What the space offers now, as a travel line names it."""
    kinds = set()
    if space in state.gates:
        guarded = sum(1 for t in state.monsters if t.space == space) > 1
        kinds.add("guarded Gate" if guarded else "open Gate")
    if state.clues.get(space):
        kinds.add("Clue")
    if space in state.rumors.values():
        kinds.add("Rumor")
    c = default_content()
    mystery = c.mysteries[state.mystery] if state.mystery is not None else None
    at = mystery.encounter.at if mystery is not None and mystery.encounter is not None else None
    if at in (space, c.spaces[space].type) or (at == "gate" and space in state.gates):
        kinds.add("Mystery's encounter")
    return kinds


@cache
def played(seed: int, players: int) -> tuple[Decision, ...]:
    seats = [SeatSpec(seat=i, name=f"Player {i + 1}") for i in range(players)]
    state, _ = api.new_game("eldritch", seats, None, seed)
    assert isinstance(state, EldritchState)
    agent = SmartAgent(seed)
    out = []
    for _ in range(5000):
        if state.over:
            break
        prompt = api.prompts(state)[0]
        action = agent.act(state, prompt)
        why = reasoning(agent)
        travel = None
        found = TOWARD.match(why.line) if why is not None else None
        if found and action.choice and action.choice[0].startswith("travel:"):
            goal = _space_ids()[found.group(2)]
            named = found.group(1)
            offered = named if named in _goal_kind(state, goal) else "nothing"
            travel = (named, offered, int(found.group(3)), _paths_between(action.choice[0][7:], goal))
        out.append(Decision(prompt.title, len(prompt.options), prompt.kind, tuple(action.choice or ()), why, travel))
        state, _ = api.apply(state, action, in_place=True, prompt=prompt)
    return tuple(out)


def _all() -> list[Decision]:
    return [d for seed, players in GAMES for d in played(seed, players)]


def _matters(d: Decision) -> bool:
    """An action, an encounter, a purchase, a reroll or a choice between effects, with a real choice."""
    t = d.title
    return d.options > 1 and d.kind is PromptKind.ONE and (
        "choose an action" in t or "choose an encounter" in t or t.startswith(("Acquire assets", "Dice", "Choose one")))


def test_the_decisions_that_matter_carry_a_reason() -> None:
    """Every action, encounter, purchase, reroll and effect choice with a real choice explains itself."""
    decided = [d for d in _all() if _matters(d)]
    assert len(decided) >= 300
    assert sum(d.reason is not None for d in decided) / len(decided) >= 0.99, [
        d for d in decided if d.reason is None][:3]
    actions = [d for d in decided if "choose an action" in d.title]
    assert all(d.reason is not None for d in actions)


def test_every_reason_reads_in_players_words() -> None:
    reasons = [d.reason for d in _all() if d.reason is not None]
    assert len(reasons) >= 300
    for r in reasons:
        check_reason_words(r, COPY)


def test_a_travel_line_names_a_true_goal_and_its_distance() -> None:
    """"toward the open Gate at Shanghai: 2 spaces from there": Shanghai has an unguarded Gate, and the map has
    2 paths between the destination and Shanghai at the fewest (counted here from the map's paths)."""
    travels = [d.travel for d in _all() if d.travel is not None]
    assert len(travels) >= 30
    for named, offered, said, paths in travels:
        assert offered == named
        assert said == paths


def test_a_question_with_one_answer_gets_no_reason() -> None:
    single = [d for d in _all() if d.options == 1 and d.kind in (PromptKind.ONE, PromptKind.CONFIRM)]
    assert single
    assert all(d.reason is None for d in single), [d for d in single if d.reason is not None][:3]
