"""The /eh command layer (issue 11): shortcuts answer the pending prompt with only what is legal now;
sheet, map and card read the spectator's view; a trade asks the other player with their own prompt."""

from __future__ import annotations

import pytest

from bot import games
from bot.games.eldritch import commands as eh
from bot.games.eldritch import readers
from bot.service import GameService
from bot.service_types import UserError
from engine import api
from engine.core.errors import IllegalAction
from engine.core.game import SeatSpec
from engine.core.prompt import Action
from engine.eldritch.state import EldritchState
from engine.eldritch.view import EldritchView
from tests.bot.conftest import ALICE, BOB, CHANNEL
from tests.bot.helpers import state_of


def game(*characters: str, seed: int = 3) -> EldritchState:
    seats = [SeatSpec(seat=i, name=n, character=c) for i, (n, c) in enumerate(zip(("alice", "bob"), characters,
                                                                                  strict=False))]
    state, _ = api.new_game("eldritch", seats, {"ancient_one": "azathoth"}, seed)
    assert isinstance(state, EldritchState)
    return state


def view_of(state: EldritchState) -> EldritchView:
    view = api.view(state, None)
    assert isinstance(view, EldritchView)
    return view


def test_travel_lists_only_legal_destinations_with_their_ticket_cost() -> None:
    """Digest 3.1 Travel: one step along any path, one more along a train or ship path per ticket spent."""
    state = game("tomas-aguirre")
    state.investigators[0].ship = 1
    prompt = api.prompts(state)[0]
    offered = dict(eh.suggestions(prompt, "travel", ""))
    legal = {o.id for o in prompt.options if o.data[0] == "travel"}
    assert set(offered.values()) == legal
    # Buenos Aires has ship paths only (and one uncharted): a ship ticket reaches a second step
    assert any("(1 ship ticket)" in label for label in offered)
    assert eh.pick(prompt, "travel", "the amazon") == "travel:the-amazon"
    assert eh.pick(prompt, "travel", "space 7") == "travel:space-7"
    # a real place out of reach says why rather than listing the destinations (issue 30 item 7)
    with pytest.raises(IllegalAction, match="^Tokyo is too far from Buenos Aires for one Travel action\\.$"):
        eh.pick(prompt, "travel", "Tokyo")
    with pytest.raises(IllegalAction, match="^Reaching London from Buenos Aires takes 2 ship tickets; you can spend "
                       "1 ship ticket\\.$"):
        eh.pick(prompt, "travel", "London")
    with pytest.raises(IllegalAction, match="not one of"):
        eh.pick(prompt, "travel", "Carcosa")
    with pytest.raises(IllegalAction, match="Say which destination"):
        eh.pick(prompt, "travel", None)


def test_a_misspelt_destination_is_answered_with_the_closest_names_never_taken() -> None:
    """Issue 30 item 8: a name that fits nothing is answered with the names spelled like it."""
    state = game("tomas-aguirre")
    state.investigators[0].ship = 1
    prompt = api.prompts(state)[0]
    assert "travel:sydney" in {o.id for o in prompt.options}
    with pytest.raises(IllegalAction, match="^'Sidney' is not a destination you can pick now\\. Did you mean "
                       "Sydney\\?$"):
        eh.pick(prompt, "travel", "Sidney")
    state.investigators[0].ship = 0  # out of reach now: still suggested by its name, and then refused with why
    prompt = api.prompts(state)[0]
    with pytest.raises(IllegalAction, match="Did you mean Sydney\\?"):
        eh.pick(prompt, "travel", "Sidney")
    with pytest.raises(IllegalAction, match="^Reaching Sydney from Buenos Aires takes 1 ship ticket; you can "
                       "spend none\\.$"):
        eh.pick(prompt, "travel", "Sydney")


def test_acquire_taken_this_round_says_so_not_where_it_can_be_taken() -> None:
    """Rulebook, Action Phase: each action at most once per round. Acquire used, the refusal says that, not
    "in a city with no Monster" while the investigator stands in one (issue 30 item 7)."""
    state = game("tomas-aguirre", "magdalena-ortiz")
    prompt = api.prompts(state)[0]
    seat = prompt.seats[0]
    assert eh.pick(prompt, "acquire", None) == "acquire"
    state, _ = api.apply(state, Action(seat=seat, prompt=prompt.seq, choice=["acquire"]))
    prompt = api.prompts(state)[0]
    assert prompt.title.startswith("Acquire assets")
    state, _ = api.apply(state, Action(seat=seat, prompt=prompt.seq, choice=["done"]))
    prompt = api.prompts(state)[0]
    assert prompt.title.endswith("(1 left)")
    before = api.to_json(state)
    with pytest.raises(IllegalAction, match="^You already acquired assets this round\\.$"):
        eh.pick(prompt, "acquire", None)
    assert eh.pick(prompt, "rest", None) == "rest"
    assert api.to_json(state) == before


def test_a_command_that_is_not_legal_now_says_when_it_is() -> None:
    state = game("tomas-aguirre")
    prompt = api.prompts(state)[0]
    with pytest.raises(IllegalAction, match="can't /eh encounter now.*Encounter phase"):
        eh.pick(prompt, "encounter", None)
    with pytest.raises(IllegalAction, match="Unknown command /eh fly"):
        eh.pick(prompt, "fly", None)
    assert eh.pick(prompt, "prepare", "ship") == "prepare:ship"
    assert eh.pick(prompt, "pass", None) == "end"


def test_sheet_shows_skills_health_possessions_and_never_a_back() -> None:
    """Digest 8: sheets, possessions and Condition fronts are public; backs are hidden from everyone."""
    state = game("ingrid-solberg", "tomas-aguirre")
    view = view_of(state)
    text = readers.sheet_text(view, "bob", None)
    assert text.startswith("**Tomás Aguirre**, The Outfitter — bob")
    assert "Health 6/6" in text and "Sanity 6/6" in text and "Strength 3" in text
    assert "Retired Prizefighter (asset)" in text
    mine = readers.sheet_text(view, None, 0)
    assert "Ingrid Solberg" in mine and "Knitting Words (spell)" in mine
    assert readers.sheet_text(view, "seat:1", 0) == text
    assert readers.sheet_text(view, "tomas", 0) == text  # an investigator's name, in part, without accents
    state.investigators[1].conditions.append("eh.condition.amnesia-1")
    held = readers.sheet_text(view_of(state), "bob", 0)
    assert "Conditions:\n- " in held and "(condition)" in held  # its front: name and text, nothing of the back
    with pytest.raises(IllegalAction, match="Nobody at this table"):
        readers.sheet_text(view, "carol", 0)
    with pytest.raises(IllegalAction, match="^Nobody at this table is called 'alise'\\. Did you mean alice\\?$"):
        readers.sheet_text(view, "alise", 0)  # issue 30 item 8: players are names like any other


def test_map_names_paths_by_kind_and_what_stands_on_the_space() -> None:
    state = game("ingrid-solberg", "tomas-aguirre")
    gate = next(iter(state.gates))
    text = readers.map_text(view_of(state), gate, None)
    assert "open" in text and "Gate" in text
    buenos = readers.map_text(view_of(state), "buenos aires", None)
    assert "Ship paths to: space 11, space 12, space 3, space 7, space 8" in buenos
    assert "Uncharted paths to: The Amazon" in buenos
    assert "Tomás Aguirre (bob)" in buenos
    assert readers.map_text(None, "12", None).startswith("**space 12** (sea)")
    assert "South Georgia" in readers.map_text(None, "south georgia", None)
    with pytest.raises(IllegalAction, match="No space is called"):
        readers.map_text(None, "Atlantis", None)


def test_card_lookup_reads_fronts_and_lists_ambiguous_names() -> None:
    assert "Its tests, horror, damage and toughness are on the Ancient One's sheet" in readers.card_text("cultist")
    spell = readers.card_text("knitting words")
    assert spell.startswith("**Knitting Words** (Spell)") and "back stays hidden" in spell
    with pytest.raises(IllegalAction, match="Several cards match"):
        readers.card_text("the")
    with pytest.raises(IllegalAction, match="No Eldritch Horror card"):
        readers.card_text("zzzz")
    with pytest.raises(IllegalAction, match="^No Eldritch Horror card is called 'revolvr army'\\. Did you mean Army "
                       "Revolver\\?$"):
        readers.card_text("revolvr army")
    with pytest.raises(IllegalAction, match="^No space is called 'Sidney'\\. Did you mean Sydney\\?$"):
        readers.map_text(view_of(game("tomas-aguirre")), "Sidney", None)


async def test_slash_trade_asks_the_other_player_who_may_refuse(service: GameService) -> None:
    """Digest 3.1 Trade: both investigators on one space agree; the partner answers their own prompt."""
    # Tomás starts at Buenos Aires and Magdalena at space 7, one ship path apart
    await service.new_game(CHANNEL, 50, ALICE, "eldritch", {"ancient_one": "azathoth"}, seed=3,
                           character="tomas-aguirre")
    await service.join(CHANNEL, BOB, "magdalena-ortiz")
    await service.start(CHANNEL, ALICE)
    state = await state_of(service)
    assert isinstance(state, EldritchState)
    first = api.prompts(state)[0].seats[0]
    mover, other = (ALICE, BOB) if first == 0 else (BOB, ALICE)
    there = state.investigators[1 - first].space
    await games.game_command(service, CHANNEL, mover, "eh", "travel", {"destination": f"travel:{there}"})
    with pytest.raises(UserError, match="not waiting for you"):
        await games.game_command(service, CHANNEL, other, "eh", "rest", {})
    await games.game_command(service, CHANNEL, mover, "eh", "trade", {})
    cards = await service.pending(CHANNEL)
    assert cards and cards[0].prompt.title.startswith("Trade with")
    seat = cards[0].prompt.seats[0]
    give = next(o.id for o in cards[0].prompt.options if o.id.startswith("give:"))
    await service.choose(CHANNEL, mover, cards[0].prompt.seq, [give], seat=seat)
    asked = (await service.pending(CHANNEL))[0]
    assert asked.prompt.title.endswith("offers a trade") and other.user_id in asked.user_ids
    await service.choose(CHANNEL, other, asked.prompt.seq, ["no"], seat=asked.prompt.seats[0])
    after = await state_of(service)
    assert isinstance(after, EldritchState)
    assert after.investigators[seat].possessions() == state.investigators[seat].possessions()


async def test_sheet_by_discord_mention_and_map_before_the_game(service: GameService) -> None:
    await service.new_game(CHANNEL, 50, ALICE, "eldritch", {"ancient_one": "azathoth"}, seed=3)
    text = (await games.game_command(service, CHANNEL, ALICE, "eh", "map", {"space": "london"})).ephemeral[0]
    assert text.startswith("**London** (city, Europe)") and "Here now" not in text
    with pytest.raises(UserError, match="not started"):
        await games.game_command(service, CHANNEL, ALICE, "eh", "sheet", {})
    await service.join(CHANNEL, BOB)
    await service.start(CHANNEL, ALICE)
    reply = await games.game_command(service, CHANNEL, ALICE, "eh", "sheet", {"player": f"<@{BOB.user_id}>"})
    assert "— bob" in reply.ephemeral[0] and "Skills:" in reply.ephemeral[0]
    with pytest.raises(UserError, match="no seat"):
        await games.game_command(service, CHANNEL, ALICE, "eh", "sheet", {"player": "<@999>"})


async def test_a_refused_travel_is_answered_and_changes_nothing(service: GameService) -> None:
    """Issue 30 items 7 and 8 through the one service path: the refusal is an error for the asker alone and
    the game is where it was."""
    await service.new_game(CHANNEL, 50, ALICE, "eldritch", {"ancient_one": "azathoth"}, seed=3,
                           character="tomas-aguirre")
    await service.join(CHANNEL, BOB, "magdalena-ortiz")
    await service.start(CHANNEL, ALICE)
    before = api.to_json(await state_of(service))
    mover = ALICE if api.prompts(await state_of(service))[0].seats[0] == 0 else BOB
    with pytest.raises(UserError, match="Did you mean"):
        await games.game_command(service, CHANNEL, mover, "eh", "travel", {"destination": "Buenos Airez"})
    with pytest.raises(UserError, match="^Reaching Tokyo from space 7 takes 2 ship tickets; you can spend none"):
        await games.game_command(service, CHANNEL, mover, "eh", "travel", {"destination": "Tokyo"})
    assert api.to_json(await state_of(service)) == before
