"""Our Arkham Horror 3e texts and their effects agree (issue 30 item 12: an encounter said "for five dollars" and
paid $3). Wherever a text names an amount of money ("$2", "three dollars", "a dollar"), the effects beside it (in
the same card, section or test) move that amount; a text with no money effect beside it is story and is not
checked."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.arkham3.content import ASSETS
from tests.support.content_numbers import disagreements as walk

NUMBER_WORDS = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                "nine": 9, "ten": 10}
TEXT_KEYS = ("text", "label", "pass_text", "fail_text")
_DOLLARS = re.compile(r"\b(" + "|".join(NUMBER_WORDS) + r") dollars?\b", re.IGNORECASE)


def named_amounts(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\$(\d+)", text)] + [NUMBER_WORDS[w.lower()] for w in _DOLLARS.findall(text)]


def money_amounts(node: Any) -> Iterator[int]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "money" and isinstance(value, int):
                yield abs(value)
            else:
                yield from money_amounts(value)
    elif isinstance(node, list):
        for value in node:
            yield from money_amounts(value)


def disagreements(node: Any, where: str) -> Iterator[str]:
    return walk(node, where, named_amounts, lambda n: set(money_amounts(n)), TEXT_KEYS)


@pytest.mark.parametrize("path", sorted(ASSETS.rglob("*.yaml")), ids=lambda p: p.name)
def test_money_in_a_text_is_the_money_its_effects_move(path: Path) -> None:
    assert list(disagreements(yaml.safe_load(path.read_text(encoding="utf-8")), path.name)) == []


def test_the_check_catches_the_text_players_met() -> None:
    card = {"text": "He will pay you five dollars for the night.", "effects": [{"test": {"pass": [{"money": 3}]}}]}
    assert len(list(disagreements(card, "card"))) == 1
    assert named_amounts("Pay $2, or a dollar, or three dollars.") == [2, 1, 3]
    assert list(disagreements({"text": "A few dollars change hands.", "effects": [{"money": 1}]}, "card")) == []
