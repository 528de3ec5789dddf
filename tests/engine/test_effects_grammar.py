"""The shared effect-list grammar (engine/core/effects.py): every game declares verbs by kind; errors name the
entry and the verb (issue "one engine for four games": effect checking lives in the kernel)."""

from __future__ import annotations

import pytest

from engine.core.effects import EffectGrammar

GRAMMAR = EffectGrammar({"health": "int", "draw": "pos", "flee": "true", "each": "effects", "pick": "branches",
                         "omen": "colour"}, {"colour": lambda a: None if a in ("green", "blue") else "green or blue"})


def test_a_valid_list_passes_through_unchanged() -> None:
    effects = [{"health": -2}, {"each": [{"draw": 1}]}, {"pick": [[{"flee": True}], [{"omen": "blue"}]]}]
    assert GRAMMAR.check(effects, "card") is effects
    assert GRAMMAR.check(None, "card") == []


@pytest.mark.parametrize(("effects", "message"), [
    ([{"heal": 1}], r"card\[0\]: unknown verb 'heal'"),
    ([{"health": 0}], "'health' takes a non-zero whole number"),
    ([{"draw": 0}], "'draw' takes a whole number of at least 1"),
    ([{"flee": "yes"}], "'flee' takes the value true"),
    ([{"omen": "red"}], "'omen' takes green or blue"),
    ([{"each": [{"draw": -1}]}], r"card\[0\]\.each\[0\]: 'draw' takes"),
    ([{"pick": [[{"draw": 1}]]}], "'pick' takes a list of at least two effect lists"),
    ([{"health": 1, "draw": 1}], "exactly one verb"),
    ({"health": 1}, "must be a YAML list"),
])
def test_errors_name_the_entry_and_the_verb(effects: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        GRAMMAR.check(effects, "card")


def test_a_verb_of_an_undeclared_kind_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="unknown kinds: dice"):
        EffectGrammar({"roll": "dice"})
