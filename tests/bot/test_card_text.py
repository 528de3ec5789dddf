"""`/es card` (bot/games/elder_sign/commands.py `card_text`): any card by its name, part of it, or the id
the other commands use (`/game join investigator:ada-whitcombe`). Issue 8: an exact name beats a partial one,
whole words beat parts of words, the player's own cards come first, and a query that fits several cards
equally well lists them instead of guessing."""

from __future__ import annotations

from collections import defaultdict

import pytest

from bot.games.elder_sign.commands import _card_hits, card_text
from bot.games.lookup import ECHO_MAX
from bot.games.lookup import words as _words
from engine.core.errors import IllegalAction
from engine.elder_sign.content import default_content
from tests.engine.elder_sign.support import new_game


def test_a_card_by_the_short_id_other_commands_use() -> None:
    assert card_text("ada-whitcombe").startswith("**Ada Whitcombe**")
    assert card_text("cthulhu").startswith("**Cthulhu**")


def test_a_partial_name_finds_its_card_and_names_the_other_matches() -> None:
    assert card_text("cellar").startswith("**The Coal Cellar**")
    assert card_text("coal cellar").startswith("**The Coal Cellar**")
    assert card_text("CELLAR   coal").startswith("**The Coal Cellar**")  # any case, any order of words


def test_an_ambiguous_query_lists_the_candidates() -> None:
    with pytest.raises(IllegalAction, match="Several cards match 'the': .*Say more of the name"):
        card_text("the")


def _shared_word() -> tuple[str, list[str]]:
    """A whole word that two or more item names share and no card's whole name is (our content has some)."""
    c = default_content()
    by_word: dict[str, set[str]] = defaultdict(set)
    whole: set[str] = set()
    for table in (c.adventures, c.other_worlds, c.monsters, c.mythos, c.items, c.ancient_ones, c.investigators):
        for card in table.values():
            whole.add(" ".join(_words(card.name)))
    for item in c.items.values():
        for w in _words(item.name):
            by_word[w].add(item.id)
    for w, ids in sorted(by_word.items()):
        if len(ids) >= 2 and len(w) >= 3 and w not in whole:
            return w, sorted(ids)
    pytest.skip("no word shared by two item names")


def test_the_players_own_card_wins_a_tie() -> None:
    word, ids = _shared_word()
    with pytest.raises(IllegalAction, match="Several cards match"):
        card_text(word)
    state = new_game(1)
    investigator = state.table[0].investigator
    assert investigator is not None
    investigator.items = [ids[-1]]
    assert card_text(word, state, 0).startswith(f"**{default_content().items[ids[-1]].name}**")


def test_matches_are_ranked_exact_then_words_then_starts_then_parts() -> None:
    def rank(query: str) -> int:
        return next(key[0] for card, key in _card_hits(query) if card.name == "The Coal Cellar")

    assert [rank("the coal cellar"), rank("cellar"), rank("cell"), rank("oal cel")] == [0, 1, 2, 3]


def test_an_unknown_card_is_a_sentence_that_quotes_a_short_echo() -> None:
    with pytest.raises(IllegalAction, match="No Elder Sign card"):
        card_text("no such card anywhere")
    with pytest.raises(IllegalAction):
        card_text("   ")
    with pytest.raises(IllegalAction) as caught:
        card_text("x" * 500)
    assert len(str(caught.value)) < ECHO_MAX + 60


async def test_the_card_command_reads_the_askers_game(service, monkeypatch) -> None:  # noqa: ANN001
    """Wiring: `/es card` in a channel with a running game passes that game and the asker's seat, so the
    asker's own cards win ties; without a game it still answers."""
    from bot import games
    from bot.games.elder_sign import manifest_commands
    from tests.bot.conftest import ALICE, CHANNEL
    from tests.bot.helpers import open_table

    seen: list[tuple[object, object]] = []

    def spy(name: str, state: object = None, seat: object = None) -> str:
        seen.append((state, seat))
        return card_text(name, state, seat)  # type: ignore[arg-type]

    monkeypatch.setattr(manifest_commands, "card_text", spy)
    reply = await games.game_command(service, CHANNEL, ALICE, "es", "card", {"name": "cthulhu"})
    assert reply.ephemeral[0].startswith("**Cthulhu**") and seen[-1] == (None, None)
    await open_table(service, ALICE, game="elder-sign")
    await games.game_command(service, CHANNEL, ALICE, "es", "card", {"name": "cthulhu"})
    state, seat = seen[-1]
    assert state is not None and seat == 0
