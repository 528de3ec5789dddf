"""The /es command layer: shortcuts answer the pending prompt; odds, card and /game me read the table."""

from __future__ import annotations

import pytest

from bot import games
from bot.games.elder_sign import commands as es
from bot.service import GameService
from bot.service_types import UserError
from engine import api
from engine.core.errors import IllegalAction
from engine.core.game import SeatSpec
from engine.elder_sign.board import inv
from tests.bot.conftest import ALICE, CHANNEL


def game():  # noqa: ANN201
    state, _ = api.new_game("elder-sign", [SeatSpec(seat=0, name="alice", character="ada-whitcombe")],
                            {"ancient_one": "nyarlathotep"}, 4)
    while state.flow.stack[-1].op != "move":
        p = api.prompts(state)[0]
        state, _ = api.apply(state, p.answers(p.seats[0])[0])
    return state


def test_move_shortcut_matches_ids_and_labels() -> None:
    state = game()
    prompt = api.prompts(state)[0]
    assert es.pick(prompt, "move", "go:entrance") == "go:entrance"
    label = next(o.label for o in prompt.options if o.id == "go:slot:0")
    assert es.pick(prompt, "move", label.lower()) == "go:slot:0"
    with pytest.raises(IllegalAction, match="not one of"):
        es.pick(prompt, "move", "the moon")
    with pytest.raises(IllegalAction, match="Say which"):
        es.pick(prompt, "move", None)
    with pytest.raises(IllegalAction, match="can't /es roll now"):
        es.pick(prompt, "roll", None)
    assert all(v.startswith("go:") for _, v in es.suggestions(prompt, "move", ""))


def test_an_item_that_cannot_be_used_now_says_when_it_can() -> None:
    """Rulebook, Items: a card is used when its effect can apply; one that rerolls works on dice just rolled,
    and healing needs something to heal. /es use names why instead of listing the options, and nothing
    changes (issue 30 item 7)."""
    state = game()
    i = inv(state, 0)
    i.items += ["es.spell.whisper-of-second-sight", "es.common.field-dressing-tin"]
    assert i.stamina == i.max_stamina
    prompt = api.prompts(state)[0]
    before = api.to_json(state)
    with pytest.raises(IllegalAction, match="^Whisper of Second Sight works on dice just rolled: use it after a "
                       "roll\\.$"):
        es.pick(prompt, "use", "Whisper of Second Sight")
    with pytest.raises(IllegalAction, match="^Your Stamina is full\\.$"):
        es.pick(prompt, "use", "field dressing")
    assert api.to_json(state) == before
    i.stamina -= 1  # now there is something to heal
    assert es.pick(api.prompts(state)[0], "use", "field dressing") == "item:es.common.field-dressing-tin"


def test_card_text_reads_any_card() -> None:
    text = es.card_text("Cthulhu")
    assert "Elder Signs to seal it: 13" in text and "Attack:" in text
    with pytest.raises(IllegalAction):
        es.card_text("No Such Card At All")


async def test_a_misspelt_card_name_is_answered_with_the_names_it_is_spelt_like(service: GameService) -> None:
    """Issue 30 item 8: `/es card name:Pnakotik` shows no card on a guess; it names the cards spelt like it."""
    with pytest.raises(UserError, match="^No Elder Sign card is called 'Pnakotik'\\. Did you mean The Pnakotic "
                       "Fragment or Fragment of the Pnakotic Scrolls\\?$"):
        await games.game_command(service, CHANNEL, ALICE, "es", "card", {"name": "Pnakotik"})
    reply = await games.game_command(service, CHANNEL, ALICE, "es", "card", {"name": "the pnakotic fragment"})
    assert reply.ephemeral[0].startswith("**The Pnakotic Fragment**")


def test_odds_text_lists_every_card_on_the_table() -> None:
    state = game()
    text = es.odds_text(state, 0, None)
    cards = [line for line in text.splitlines() if line.startswith("- ")]
    assert len(cards) == len([s for s in state.slots if s]) + len(state.other_worlds)
    assert all(line.rstrip().endswith("%") for line in cards)


def test_seat_text_is_a_readable_summary() -> None:
    state = game()
    lines = es.seat_text(api.view(state, 0), 0)
    assert lines[0].startswith("**Ada Whitcombe**")
    assert any(line.startswith("Stamina ") for line in lines)
    assert not any("{" in line for line in lines)  # no raw data dumped at the player
