"""Our content's texts and effects agree on their numbers (issue 30 item 12: an encounter said "for five dollars"
and paid $3). In every game's content, wherever a card's or section's text says it gains, loses, heals, takes,
draws, deals, places or removes N of something ("gain 2 resources", "lose 1 Sanity", "draw 3 cards"), N is among
the numbers of the data beside that text (its effects, uses, costs). A text whose effect lives in the engine's
code (a passive ability named by its kind, with no numbers of its own beside it) is not checked. The money of
Arkham 3e's texts is checked more closely in tests/engine/arkham3/test_content_words.py."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.support.content_numbers import disagreements as walk

ASSETS = Path(__file__).resolve().parents[1] / "assets"
GAMES = ["elder_sign", "eldritch", "arkham3", "arkham_lcg"]
#: what a text may say beside the number without it being data (its words, names, flavour)
WORDS = ("text", "name", "flavor", "flavour", "subtitle", "title", "label", "say", "pass_text", "fail_text")
SAYS = re.compile(r"\b(?:gains?|lose|loses|recovers?|heals?|takes?|draws?|discovers?|spends?|pays?|deals?|places?|"
                  r"removes?)\s+(\d+)\s+(?:more\s+)?(?:resources?|clues?|damage|horror|cards?|health|sanity|stamina|"
                  r"doom|trophies|trophy)\b", re.IGNORECASE)


def data_numbers(node: Any) -> set[int]:
    """Every number in `node` outside its words: effect amounts, uses, costs, and numbers inside ids or keys."""
    out: set[int] = set()
    if isinstance(node, dict):
        for key, value in node.items():
            if key in WORDS:
                continue
            out |= {int(n) for n in re.findall(r"\d+", str(key))}
            out |= data_numbers(value)
    elif isinstance(node, list):
        for value in node:
            out |= data_numbers(value)
    elif isinstance(node, bool):
        pass
    elif isinstance(node, int):
        out.add(abs(node))
    elif isinstance(node, str):
        out |= {int(n) for n in re.findall(r"\d+", node)}
    return out


def says(text: str) -> list[int]:
    return [int(m[1]) for m in SAYS.finditer(text)]


def disagreements(node: Any, where: str) -> Iterator[str]:
    return walk(node, where, says, data_numbers)


@pytest.mark.parametrize("game", GAMES)
def test_a_text_says_the_numbers_its_effects_use(game: str) -> None:
    found = [d for path in sorted((ASSETS / game).rglob("*.yaml"))
             for d in disagreements(yaml.safe_load(path.read_text(encoding="utf-8")), path.name)]
    assert found == [], "\n".join(found)


def test_the_check_catches_a_text_that_says_another_number() -> None:
    card = {"id": "p.x", "text": "Gain 3 resources.", "play": [{"resources": 2}]}
    assert len(list(disagreements(card, "card"))) == 1
    assert list(disagreements({**card, "play": [{"resources": 3}]}, "card")) == []
    assert list(disagreements({"kind": "gate_clue", "text": "When you close a Gate, gain 1 Clue."}, "card")) == []
