"""How an AI teammate's reason must read (issue 32: AI teammates explain), checked the same way for the four
games' smart agents: a short line in players' words, lower case, no trailing period, at most five lines of
detail, no engine id or copy number (`ID_PATTERN`, widened per game by the ids its options use)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Protocol

from engine.agents import Reasoning
from engine.core.prompt import Prompt
from tests.support.player_words import findings

LINE_MAX = 100  # the narration's line
DETAIL_LINE_MAX = 200  # a line of /game why, read privately
DETAIL_MAX = 5
#: a copy number on a card ("Shotgun-2"), an option id's separator ("go:entrance"), a dotted id ("es.ao.x")
ID_PATTERN = r"\w-\d+\b|#\d|\w[:]\w|\b[a-z]{2,}\.[a-z]{2,}"


def check_reason_words(reason: Reasoning, ids: re.Pattern[str] = re.compile(ID_PATTERN)) -> None:
    """Fail on a reason no player should read: too long, shouting, an id, a snake_case word."""
    assert reason.line and len(reason.line) <= LINE_MAX, reason.line
    assert reason.line[0].islower() or reason.line[0].isdigit(), reason.line
    assert not reason.line.endswith("."), reason.line
    assert len(reason.detail) <= DETAIL_MAX, reason.detail
    for text in (reason.line, *reason.detail):
        assert len(text) <= DETAIL_LINE_MAX, text
        assert not findings(text), (text, findings(text))
        assert not ids.search(text), text
        assert "_" not in text, text


class Decided(Protocol):
    op: str  # the engine step that asked
    prompt: Prompt
    reason: Reasoning | None


@dataclass
class Tally:
    asked: Counter[str] = field(default_factory=Counter)  # decisions that matter, by op
    told: Counter[str] = field(default_factory=Counter)  # of those, the ones with a reason
    lines: list[str] = field(default_factory=list)  # every reason's line
    single: int = 0  # questions with one answer (never a reason)


def tally(steps: Iterable[Decided], matters: set[str], a_choice: Callable[[Prompt], bool]) -> Tally:
    """Count which decisions that matter carry a reason, checking on the way that a question with one answer
    has none and that every reason reads in players' words."""
    out = Tally()
    for step in steps:
        if not a_choice(step.prompt):
            assert step.reason is None, f"{step.op}: a single answer needs no reason ({step.reason})"
            out.single += 1
            continue
        if step.op in matters:
            out.asked[step.op] += 1
            out.told[step.op] += step.reason is not None
        if step.reason is not None:
            out.lines.append(step.reason.line)
            check_reason_words(step.reason)
    return out
