"""How an AI teammate's reason must read (issue 32: AI teammates explain), checked the same way for the four
games' smart agents: a short line in players' words, lower case, no trailing period, at most five lines of
detail, no engine id or copy number (`ID_PATTERN`, widened per game by the ids its options use)."""

from __future__ import annotations

import re

from engine.agents import Reasoning
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
