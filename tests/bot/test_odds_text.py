"""`/es odds` (bot/games/elder_sign/commands.py `odds_text`) respects what the rules forbid and says what
it counted. Digest sections: 1.5 (the cost gate: a task whose sanity or stamina cost would bring the
investigator to 0 may not be attempted), 3.2 (focus; clue rerolls), 3.5 (a Mythos card's lingering rule
modifiers)."""

from __future__ import annotations

import re

import pytest

from bot.games.elder_sign.commands import odds_text
from engine.elder_sign import board
from engine.elder_sign.odds import adventure_odds
from tests.engine.elder_sign.support import adventure, extra_cards, place, table

NO_FOCUS = "es.mythos.the-gallery-lights-fail"
CLUES_COST_TWO = "es.mythos.every-answer-costs-twice"


def _percent(text: str, name: str) -> int:
    m = re.search(rf"- {re.escape(name)}(?: \([^)]*\))?: (\d+)%", text)
    assert m, text
    return int(m.group(1))


@pytest.fixture
def costly():  # noqa: ANN201
    card = adventure("es.adv.test_costly", ["lore", "peril sanity1", "inv2 sanity1"], name="Costly Test")
    focus = adventure("es.adv.test_focus", ["peril terror", "inv6 lore"], name="Focus Test")
    with extra_cards(card, focus):
        state = table()
        place(state, 0, card.id)
        place(state, 1, focus.id)
        state.mythos = None
        yield state


def test_cost_gate_makes_a_card_unreachable(costly) -> None:  # noqa: ANN001
    """Digest 1.5: the tasks cost 2 sanity together; at 2 sanity the second would bring it to 0, so the card
    cannot be completed and its chance is 0%, with the reason."""
    seat = costly.current
    inv = costly.table[seat].investigator
    inv.sanity = 3
    assert _percent(odds_text(costly, seat, "Costly"), "Costly Test") > 0
    inv.sanity = 2
    text = odds_text(costly, seat, "Costly")
    assert _percent(text, "Costly Test") == 0
    assert "2 sanity" in text


def test_a_mythos_card_that_forbids_focus_turns_focus_off(costly) -> None:  # noqa: ANN001
    """Digest 3.5 + 3.2: while a Mythos card forbids focus the odds are those without focus."""
    seat = costly.current
    costly.table[seat].investigator.clues = 0
    tasks = [t for _, t in board.task_list(costly, "slot:1")]
    with_focus = adventure_odds(tasks, False, 6)
    without = adventure_odds(tasks, False, 6, focus=False)
    assert round(with_focus * 100) > round(without * 100)  # a card where focus matters
    assert _percent(odds_text(costly, seat, "Focus Test"), "Focus Test") == round(with_focus * 100)
    costly.mythos = NO_FOCUS
    text = odds_text(costly, seat, "Focus Test")
    assert _percent(text, "Focus Test") == round(without * 100)
    assert "no focus" in text and "The Gallery Lights Fail" in text


def test_the_clue_count_shown_is_the_one_counted(costly) -> None:  # noqa: ANN001
    """Digest 3.2: the header names the rerolls the odds include, not the clues held (4 held, 2 counted),
    and a Mythos card that doubles the price of a reroll halves them."""
    seat = costly.current
    costly.table[seat].investigator.clues = 4
    text = odds_text(costly, seat, "Costly")
    assert "2 clue rerolls of the 4 clues you hold" in text
    assert "4 clue(s)" not in text
    tasks = [t for _, t in board.task_list(costly, "slot:0")]
    assert _percent(text, "Costly Test") == round(adventure_odds(tasks, False, 6, clues=2) * 100)
    costly.mythos = CLUES_COST_TWO
    text = odds_text(costly, seat, "Costly")
    assert "2 clue rerolls (2 clues each)" in text
    costly.table[seat].investigator.clues = 3
    assert "1 clue reroll (2 clues each) of the 3 clues you hold" in odds_text(costly, seat, "Costly")

