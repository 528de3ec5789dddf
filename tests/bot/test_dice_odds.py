"""Your chances in a test (issue 27: one `odds` verb in every game): Eldritch Horror and Arkham Horror 3e roll a
pool of dice that succeed on 5s and 6s (4s too when blessed, only 6s when cursed), and a clue or focus token
rerolls one failed die (Eldritch Horror Rulebook, "Tests"; Arkham Horror 3e rules summary, "Skill Tests")."""

from __future__ import annotations

from itertools import product

import pytest

from bot.games.arkham3.readers import odds_text as ah_odds
from bot.games.dice_odds import chance, percent
from bot.games.eldritch.readers import odds_text as eh_odds
from engine import api
from engine.core.game import SeatSpec


def _brute(dice: int, need: int, faces: int, rerolls: int) -> float:
    """Every roll of the dice, then rerolls spent one failed die at a time until `need` succeed."""
    total = 0.0
    p = faces / 6
    for roll in product((True, False), repeat=dice + rerolls):
        weight = 1.0
        for hit in roll:
            weight *= p if hit else 1 - p
        successes = sum(roll[:dice])
        for extra in roll[dice:]:
            if successes >= need:
                break
            successes += extra
        total += weight * (successes >= need)
    return total


@pytest.mark.parametrize(("dice", "need", "faces", "rerolls"),
                         [(1, 1, 2, 0), (3, 1, 2, 2), (4, 2, 3, 1), (2, 2, 1, 3), (5, 3, 2, 2)])
def test_the_closed_form_matches_every_roll(dice: int, need: int, faces: int, rerolls: int) -> None:
    assert chance(dice, need, faces, rerolls) == pytest.approx(_brute(dice, need, faces, rerolls))


def test_known_values_and_wording() -> None:
    assert chance(1, 1, 2) == pytest.approx(1 / 3)
    assert chance(2, 1, 2) == pytest.approx(5 / 9)  # 1 - (2/3)^2
    assert chance(2, 3, 2) == 0.0 and chance(2, 0, 2) == 1.0
    assert [percent(p) for p in (0.0, 0.001, 0.5, 0.999, 1.0)] == ["0%", "<1%", "50%", ">99%", "100%"]


def _state(game: str):  # noqa: ANN202 - a game state of either game
    state, _ = api.new_game(game, [SeatSpec(seat=0, name="alice"), SeatSpec(seat=1, name="bob")], {}, seed=3)
    from engine.agents import get_agent

    agent = get_agent(game, "random", 1)
    for _ in range(12):
        prompts = api.prompts(state)
        state, _ = api.apply(state, agent.act(state, prompts[0]), in_place=True)
    return state


def test_eldritch_odds_list_every_skill_with_the_clues_as_rerolls() -> None:
    state = _state("eldritch")
    view = api.view(state, None)
    me = view.investigators[0]
    text = eh_odds(view, None, 0)
    assert text.count("1+: ") >= len(me.skills) and "Dice succeed on 5s and 6s" in text
    will = me.skills["will"]
    assert f"({will} {'die' if will == 1 else 'dice'}): 1+: {percent(chance(will, 1, 2))}" in text


def test_arkham3_odds_count_a_focused_skill_one_die_more() -> None:
    state = _state("arkham3")
    view = api.view(state, None)
    me = next(i for i in view.investigators if i.name)
    text = ah_odds(view, f"seat:{me.seat}", None)
    assert "Dice succeed on" in text and "Lore" in text
    lore = me.skills["lore"] + (1 if "lore" in me.focus else 0)
    held = {c.casefold() for c in me.conditions}
    faces = 1 if "cursed" in held else 3 if "blessed" in held else 2
    assert f"**Lore** ({lore} {'die' if lore == 1 else 'dice'}): 1+: {percent(chance(lore, 1, faces))}" in text
