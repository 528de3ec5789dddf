"""`/es card` (bot/games/elder_sign/commands.py `card_text`): any card by its name, part of it, or the id
the other commands use (`/game join investigator:ada-whitcombe`)."""

from __future__ import annotations

import pytest

from bot.games.elder_sign.commands import card_text
from engine.core.errors import IllegalAction


def test_a_card_by_the_short_id_other_commands_use() -> None:
    assert card_text("ada-whitcombe").startswith("**Ada Whitcombe**")
    assert card_text("cthulhu").startswith("**Cthulhu**")


def test_a_partial_name_names_the_other_matches() -> None:
    text = card_text("cellar")
    assert text.startswith("**The Coal Cellar**") or "Also matching" in text
    assert "Also matching 'the':" in card_text("the")


def test_an_unknown_card_is_a_sentence() -> None:
    with pytest.raises(IllegalAction, match="No Elder Sign card"):
        card_text("no such card anywhere")
    with pytest.raises(IllegalAction):
        card_text("   ")
