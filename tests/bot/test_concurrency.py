"""Many clicks at once: the per-channel lock and the version check keep exactly one of them."""

from __future__ import annotations

import asyncio

import pytest

from bot.service import Actor, GameService, UserError
from bot.store import Store
from tests.bot.conftest import ALICE, BOB, CHANNEL, GUILD
from tests.bot.helpers import clicking, only_card, open_table, state_of


async def test_twenty_simultaneous_clicks_apply_once(service: GameService) -> None:
    await open_table(service, ALICE, BOB)
    seq = (await only_card(service)).prompt.seq
    results = await asyncio.gather(*(service.choose(CHANNEL, clicking(ALICE), seq, ["1"]) for _ in range(20)),
                                   return_exceptions=True)
    applied = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, UserError)]
    assert len(applied) == 1 and len(refused) == 19
    assert {str(e) for e in refused} == {"This choice has passed."}
    game = await service.store.open_game(CHANNEL)
    assert len(await service.store.actions(game.id)) == 1
    assert (await state_of(service)).counter == 9


async def test_two_processes_clicking_at_once_apply_once(store: Store) -> None:
    """No shared lock between two services: only the database's version check decides."""
    one, two = GameService(store, render=False), GameService(store, render=False)
    await open_table(one, ALICE, BOB)
    seq = (await only_card(one)).prompt.seq
    await only_card(two)  # both have the state cached
    calls = [svc.choose(CHANNEL, clicking(ALICE), seq, ["2"]) for svc in (one, two) for _ in range(5)]
    results = await asyncio.gather(*calls, return_exceptions=True)
    assert sum(not isinstance(r, BaseException) for r in results) == 1
    assert all(isinstance(r, UserError) for r in results if isinstance(r, BaseException))
    assert (await state_of(one)).counter == 8


async def test_two_channels_play_in_parallel(service: GameService) -> None:
    other = CHANNEL + 1

    async def play_out(channel: int, players: list[Actor]) -> str:
        await service.new_game(channel, GUILD, players[0], "countdown", {"start": "12"}, seed=channel)
        for p in players[1:]:
            await service.join(channel, p)
        await service.start(channel, players[0])
        while cards := await service.pending(channel):
            card = cards[0]
            who = next(p for p in players if p.user_id in card.user_ids)
            await service.choose(channel, clicking(who), card.prompt.seq, ["3"])
        return (await service.store.current_game(channel)).result

    carol, dave = Actor(3001, "carol"), Actor(3002, "dave")
    results = await asyncio.gather(play_out(CHANNEL, [ALICE, BOB]), play_out(other, [carol, dave]))
    assert results == ["win", "win"]
    for channel in (CHANNEL, other):
        game = await service.store.current_game(channel)
        assert len(await service.store.actions(game.id)) == 4  # 12 = 3 + 3 + 3 + 3


async def test_a_version_conflict_is_retried_on_fresh_data(service: GameService, monkeypatch) -> None:
    from bot.store import VersionConflict

    await open_table(service, ALICE, BOB)
    seq = (await only_card(service)).prompt.seq
    real = service.store.commit_step
    conflicts = [1]

    async def conflict_once(*args, **kwargs):
        if conflicts[0]:
            conflicts[0] -= 1
            raise VersionConflict("another process wrote first")
        return await real(*args, **kwargs)

    monkeypatch.setattr(service.store, "commit_step", conflict_once)
    reply = await service.choose(CHANNEL, clicking(ALICE), seq, ["2"])
    assert reply.public[0].startswith("alice takes 2; 8 left.") and conflicts == [0]

    async def always_conflict(*args, **kwargs):
        raise VersionConflict("busy")

    monkeypatch.setattr(service.store, "commit_step", always_conflict)
    with pytest.raises(UserError, match="The game is busy right now; please try again."):
        await service.choose(CHANNEL, clicking(BOB), seq + 1, ["1"])
    assert (await state_of(service)).counter == 8


async def test_two_processes_clicking_from_memory_keep_one_true_game(store: Store) -> None:
    """Issue 29, item 1: each process answers from its own memory of the game (reading nothing first). Over
    a whole game where two processes click at random, often at the same moment and sometimes with a
    repeated interaction, every round applies exactly one click, a repeat never applies, the log holds each
    interaction at most once, and the head is exactly the log replayed from the start."""
    import random

    from bot.service import ALREADY_APPLIED
    from engine import api
    from engine.core.game import SeatSpec
    from engine.core.prompt import Action

    one, two = GameService(store, render=False), GameService(store, render=False)
    await open_table(one, ALICE, BOB, options={"start": "30"})
    rng = random.Random(29)
    applied: list[Actor] = []
    repeats = 0
    for _ in range(200):
        cards = await one.pending(CHANNEL)
        if not cards:
            break
        card = cards[0]
        who = ALICE if ALICE.user_id in card.user_ids else BOB
        first, second = rng.sample([one, two], 2)
        options = [o.id for o in card.prompt.options]
        actors = [clicking(who)]
        clicks = [first.choose(CHANNEL, actors[0], card.prompt.seq, [rng.choice(options)],
                               game_id=card.game_id, epoch=card.epoch)]
        if rng.random() < 0.5:  # the same prompt clicked at the same moment in the other process
            actors.append(clicking(who))
            clicks.append(second.choose(CHANNEL, actors[-1], card.prompt.seq, [options[0]], game_id=card.game_id,
                                        epoch=card.epoch))
        again = rng.choice(applied) if applied and rng.random() < 0.3 else None
        if again is not None:  # Discord delivers an earlier click again, to either process
            clicks.append(rng.choice([one, two]).choose(CHANNEL, again, card.prompt.seq, [options[0]],
                                                         game_id=card.game_id, epoch=card.epoch))
        results = await asyncio.gather(*clicks, return_exceptions=True)
        assert all(not isinstance(r, BaseException) or isinstance(r, UserError) for r in results), results
        won = [a for a, r in zip(actors, results, strict=False) if not isinstance(r, BaseException) and r.applied]
        assert len(won) == 1 and sum(1 for r in results if not isinstance(r, BaseException) and r.applied) == 1, results
        applied += won
        if again is not None:
            repeat = results[-1]
            assert isinstance(repeat, UserError) or repeat.ephemeral == [ALREADY_APPLIED], repeat
            repeats += 1
    assert repeats >= 2
    game = await store.current_game(CHANNEL)
    assert game is not None and game.id is not None and game.status == "over"
    rows = await store.actions(game.id)
    assert [r.interaction_id for r in rows] == [a.interaction_id for a in applied]
    seats = [SeatSpec(seat=s.seat, name=s.name, character=s.character) for s in await store.seats(game.id)]
    replayed, _ = api.new_game(game.game_type, seats, game.options, game.seed)
    for row in rows:
        replayed, _ = api.apply(replayed, Action.model_validate(row.payload))
    assert api.to_json(replayed) == api.to_json(await state_of(one))
