"""GameService lobby: new, join, leave, start, abandon."""

from __future__ import annotations

import pytest

from bot.service import GameService, UserError
from bot.store import ACTIVE, ENDED
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD
from tests.bot.helpers import open_table, state_of


async def test_new_game_seats_its_creator_and_validates_options(service: GameService) -> None:
    reply = await service.new_game(CHANNEL, GUILD, ALICE, "countdown", {"start": "12"}, seed=3)
    assert "alice opened a game of Countdown" in reply.public[0] and "start=12" in reply.public[0]
    game = await service.store.open_game(CHANNEL)
    assert game.options == {"start": 12} and game.seed == 3 and game.status == "lobby"
    assert [(s.seat, s.user_id, s.name) for s in await service.store.seats(game.id)] == [(0, ALICE.user_id, "alice")]


@pytest.mark.parametrize(("game", "options", "message"), [
    ("nope", {}, "There is no game called 'nope'"),
    ("countdown", {"start": "99"}, "Option start must be from 3 to 30."),
    ("countdown", {"colour": "red"}, "Unknown option 'colour'"),
])
async def test_new_game_refusals_change_nothing(service: GameService, game, options, message) -> None:
    with pytest.raises(UserError, match=message):
        await service.new_game(CHANNEL, GUILD, ALICE, game, options)
    assert await service.store.open_game(CHANNEL) is None


async def test_one_game_per_channel(service: GameService) -> None:
    await service.new_game(CHANNEL, GUILD, ALICE, "countdown", {})
    with pytest.raises(UserError, match="already has a game"):
        await service.new_game(CHANNEL, GUILD, BOB, "countdown", {})
    await service.new_game(CHANNEL + 1, GUILD, BOB, "countdown", {})  # another channel is free


async def test_seed_is_random_63_bits_unless_given(service: GameService) -> None:
    await service.new_game(CHANNEL, GUILD, ALICE, "countdown", {})
    await service.new_game(CHANNEL + 1, GUILD, ALICE, "countdown", {})
    seeds = [(await service.store.open_game(c)).seed for c in (CHANNEL, CHANNEL + 1)]
    assert seeds[0] != seeds[1] and all(0 <= s < 2**63 for s in seeds)


async def test_join_twice_gives_a_second_seat_and_characters_are_checked(service: GameService) -> None:
    await service.new_game(CHANNEL, GUILD, ALICE, "countdown", {})
    reply = await service.join(CHANNEL, ALICE, "fox")
    assert reply.public[0].startswith("alice #2 joins the table.")
    await service.join(CHANNEL, BOB)
    with pytest.raises(UserError, match="There is no character 'cat'"):
        await service.join(CHANNEL, CAROL, "cat")
    with pytest.raises(UserError, match="Fox is already at the table"):
        await service.join(CHANNEL, CAROL, "fox")
    game = await service.store.open_game(CHANNEL)
    assert [(s.name, s.character) for s in await service.store.seats(game.id)] == [
        ("alice", None), ("alice #2", "fox"), ("bob", None)]
    await service.join(CHANNEL, CAROL, "owl")
    with pytest.raises(UserError, match="at most 4; the table is full"):
        await service.join(CHANNEL, CAROL)


async def test_start_needs_enough_players_and_a_seated_starter(service: GameService) -> None:
    await service.new_game(CHANNEL, GUILD, ALICE, "countdown-duo", {})
    with pytest.raises(UserError, match="needs 2 to 4 investigators; 1 is seated"):
        await service.start(CHANNEL, ALICE)
    await service.join(CHANNEL, BOB)
    with pytest.raises(UserError, match="Only someone seated"):
        await service.start(CHANNEL, CAROL)
    await service.leave(CHANNEL, BOB)
    with pytest.raises(UserError, match="1 is seated"):
        await service.start(CHANNEL, ALICE)
    await service.join(CHANNEL, CAROL)
    reply = await service.start(CHANNEL, CAROL)
    assert reply.public[0].startswith("Countdown for two begins with alice and carol.")
    assert (await service.store.open_game(CHANNEL)).status == ACTIVE
    state = await state_of(service)
    assert [s.name for s in state.seats] == ["alice", "carol"] and state.step == 0
    assert [c.user_ids for c in reply.prompts] == [[ALICE.user_id]]
    with pytest.raises(UserError, match="already started"):
        await service.join(CHANNEL, BOB)
    with pytest.raises(UserError, match="cannot leave now"):
        await service.leave(CHANNEL, CAROL)


async def test_leave_takes_the_last_seat_and_renumbers(service: GameService) -> None:
    await service.new_game(CHANNEL, GUILD, ALICE, "countdown", {})
    await service.join(CHANNEL, BOB)
    await service.join(CHANNEL, ALICE)
    await service.join(CHANNEL, CAROL)
    await service.leave(CHANNEL, ALICE)  # gives up "alice #2"
    await service.leave(CHANNEL, BOB)
    game = await service.store.open_game(CHANNEL)
    assert [(s.seat, s.name) for s in await service.store.seats(game.id)] == [(0, "alice"), (1, "carol")]
    with pytest.raises(UserError, match="not seated"):
        await service.leave(CHANNEL, BOB)


async def test_abandon_needs_every_seated_user(service: GameService) -> None:
    await open_table(service, ALICE, BOB)
    with pytest.raises(UserError, match="Only players seated"):
        await service.abandon(CHANNEL, CAROL)
    first = await service.abandon(CHANNEL, ALICE)
    assert first.public == ["alice votes to abandon the game (1/2). Waiting for: bob."]
    again = await service.abandon(CHANNEL, ALICE)  # voting twice counts once
    assert "(1/2)" in again.public[0]
    assert (await service.store.open_game(CHANNEL)).status == ACTIVE
    done = await service.abandon(CHANNEL, BOB)
    assert "The table abandoned the game." in done.public[0] and done.prompts == []
    game = await service.store.current_game(CHANNEL)
    assert (game.status, game.result, game.active_channel_id) == (ENDED, "abandoned", None)
    await service.new_game(CHANNEL, GUILD, BOB, "countdown", {})  # the channel is free again


async def test_enabled_games_limit_new_games(service: GameService) -> None:
    from tests.bot.conftest import MOD

    await service.gm_settings(CHANNEL, MOD, GUILD, enabled_games=["countdown-duo"])
    with pytest.raises(UserError, match="Countdown is not enabled on this server"):
        await service.new_game(CHANNEL, GUILD, ALICE, "countdown", {})
    await service.new_game(CHANNEL, GUILD, ALICE, "countdown-duo", {})


def test_catalogue_for_autocomplete(service: GameService) -> None:
    assert ("countdown", "Countdown") in service.games()
    assert service.characters("countdown") == [("fox", "Fox"), ("owl", "Owl")]
    assert [s.id for s in service.option_specs("countdown")] == ["start"]
    assert service.characters("nope") == [] and service.option_specs("nope") == []
