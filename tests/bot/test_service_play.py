"""GameService play: choose, authorization, idempotency, reading commands, reminders, caching."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import delete

from bot.service import ALREADY_APPLIED, Actor, GameService, UserError
from bot.store import OVER, Snapshot, Store
from bot.store.models import utcnow
from engine import api
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, MOD
from tests.bot.helpers import clicking, only_card, open_table, state_of

PNG = b"\x89PNG\r\n\x1a\n"


async def test_choose_applies_and_hands_the_turn_on(service: GameService) -> None:
    await open_table(service, ALICE, BOB)
    card = await only_card(service)
    assert card.user_ids == [ALICE.user_id] and card.text.startswith("Waiting for alice:")
    reply = await service.choose(CHANNEL, clicking(ALICE), card.prompt.seq, ["3"])
    assert reply.public == ["alice takes 3; 7 left.\nTurn over."]
    assert [c.user_ids for c in reply.prompts] == [[BOB.user_id]]
    state = await state_of(service)
    assert (state.counter, state.turn, state.step) == (7, 1, 1)
    [row] = await service.store.actions((await service.store.open_game(CHANNEL)).id)
    assert (row.seq, row.seat, row.kind, row.actor_id, row.payload["choice"]) == (1, 0, "play", ALICE.user_id, ["3"])


async def test_refusals_change_nothing(service: GameService) -> None:
    await open_table(service, ALICE, BOB)
    seq = (await only_card(service)).prompt.seq
    with pytest.raises(UserError, match="This decision is not yours: waiting for alice."):
        await service.choose(CHANNEL, clicking(BOB), seq, ["1"])
    with pytest.raises(UserError, match="This decision is not yours"):
        await service.choose(CHANNEL, clicking(CAROL), seq, ["1"])
    with pytest.raises(UserError, match="'7' is not one of the options"):
        await service.choose(CHANNEL, clicking(ALICE), seq, ["7"])
    with pytest.raises(UserError, match="This choice has passed."):
        await service.choose(CHANNEL, clicking(ALICE), seq + 5, ["1"])
    with pytest.raises(UserError, match="This choice has passed."):
        await service.choose(CHANNEL, clicking(ALICE), seq, ["1"], game_id=12345)  # an older game's button
    assert (await state_of(service)).step == 0
    await service.choose(CHANNEL, clicking(ALICE), seq, ["1"])
    with pytest.raises(UserError, match="This choice has passed."):
        await service.choose(CHANNEL, clicking(ALICE), seq, ["1"])  # the same button again, a new click
    assert (await state_of(service)).step == 1


async def test_a_replayed_interaction_is_applied_once(service: GameService) -> None:
    await open_table(service, ALICE, BOB)
    seq = (await only_card(service)).prompt.seq
    click = clicking(ALICE)
    await service.choose(CHANNEL, click, seq, ["2"])
    again = await service.choose(CHANNEL, click, seq, ["2"])
    assert again.ephemeral == [ALREADY_APPLIED] and again.public == []
    assert (await state_of(service)).counter == 8


async def test_a_user_with_several_seats_answers_for_whichever_is_asked(service: GameService) -> None:
    await open_table(service, ALICE, BOB, ALICE)  # seats: alice, bob, alice #2
    for expected_seat, who in ((0, ALICE), (1, BOB), (2, ALICE), (0, ALICE)):
        card = await only_card(service)
        assert card.prompt.seats == [expected_seat]
        await service.choose(CHANNEL, clicking(who), card.prompt.seq, ["1"])
    card = await only_card(service)
    assert "Waiting for bob" in card.text
    with pytest.raises(UserError, match="Seat 3 is not yours to answer for here."):
        await service.choose(CHANNEL, clicking(ALICE), card.prompt.seq, ["1"], seat=2)


async def test_the_game_ends_by_the_rules_and_frees_the_channel(service: GameService) -> None:
    await open_table(service, ALICE, options={"start": "3"})
    reply = await service.choose(CHANNEL, clicking(ALICE), (await only_card(service)).prompt.seq, ["3"])
    assert reply.public[-1].endswith("The investigators won!") and reply.prompts == []
    game = await service.store.current_game(CHANNEL)
    assert (game.status, game.result, game.active_channel_id) == (OVER, "win", None)
    status = await service.status(CHANNEL, ALICE)
    assert "The investigators won!" in status.ephemeral[0]
    with pytest.raises(UserError, match="no game in this channel"):
        await service.choose(CHANNEL, clicking(ALICE), 2, ["1"])


async def test_status_board_log_and_me(store: Store) -> None:
    service = GameService(store, render=True)
    with pytest.raises(UserError, match="no game in this channel"):
        await service.status(CHANNEL, ALICE)
    await service.new_game(CHANNEL, GUILD, ALICE, "countdown-peek", {}, seed=9)
    await service.join(CHANNEL, BOB, "owl")
    assert "is in the lobby" in (await service.status(CHANNEL, BOB)).ephemeral[0]
    with pytest.raises(UserError, match="not started yet"):
        await service.board(CHANNEL, ALICE)
    lobby_me = await service.me(CHANNEL, BOB)
    assert lobby_me.ephemeral == ["You hold 1 seat: bob. The game has not started yet."]
    started = await service.start(CHANNEL, ALICE)
    assert [i.data[:8] for i in started.images] == [PNG]  # "game.started" asks for a render
    reply = await service.choose(CHANNEL, clicking(ALICE), (await only_card(service)).prompt.seq, ["2"])
    state = await state_of(service)
    assert reply.ephemeral == [f"alice peeks: secret {state.secrets[0]}."]  # only the mover sees it
    assert all("peeks" not in m for m in reply.public)

    status = await service.status(CHANNEL, CAROL)
    # privately, opening with the state line every game's live message carries
    assert status.public == [] and status.ephemeral == [
        "**Round 1 · Play phase**\nCountdown with peeking (game #1): Counter 8, doom 0.\nWaiting for: bob."]
    board = await service.board(CHANNEL, CAROL)
    assert board.images[0].data[:8] == PNG and board.images[0].filename == "countdown-peek-1-step1.png"

    alice_log = (await service.log(CHANNEL, ALICE)).ephemeral[0]
    bob_log = (await service.log(CHANNEL, BOB)).ephemeral[0]
    assert "alice takes 2; 8 left." in alice_log and "alice takes 2; 8 left." in bob_log
    assert "🔒 alice peeks" in alice_log and "peeks" not in bob_log
    with pytest.raises(UserError, match="The log has 1 page."):
        await service.log(CHANNEL, ALICE, page=2)

    me = await service.me(CHANNEL, BOB)
    assert me.ephemeral == [f"bob (seat 2, owl)\ncounter: 8\ndoom: 0\nturn: 1\nsecret: {state.secrets[1]}"]
    assert [c.user_ids for c in me.prompts] == [[BOB.user_id]]
    with pytest.raises(UserError, match="not seated"):
        await service.me(CHANNEL, CAROL)


async def test_reminders_fire_once_per_idle_prompt(store: Store) -> None:
    now = [utcnow()]
    service = GameService(store, render=False, clock=lambda: now[0])
    await open_table(service, ALICE, BOB)
    assert await service.due_reminders(now[0] + timedelta(hours=11)) == []
    due = await service.due_reminders(now[0] + timedelta(hours=13))
    assert [(ch, card.user_ids) for ch, card in due] == [(CHANNEL, [ALICE.user_id])]
    assert await service.due_reminders(now[0] + timedelta(hours=14)) == []  # reminded already
    now[0] += timedelta(hours=14)
    await service.choose(CHANNEL, clicking(ALICE), due[0][1].prompt.seq, ["1"])  # a new prompt: a new clock
    assert await service.due_reminders(now[0] + timedelta(hours=11)) == []
    await service.gm_settings(CHANNEL, MOD, GUILD, reminder_hours=2)
    due = await service.due_reminders((now[0] + timedelta(hours=3)).replace(tzinfo=None))  # naive = UTC
    assert [card.user_ids for _, card in due] == [[BOB.user_id]]
    await service.gm_settings(CHANNEL, MOD, GUILD, reminder_hours=0)  # 0 = never
    now[0] += timedelta(hours=1)
    await service.choose(CHANNEL, clicking(BOB), due[0][1].prompt.seq, ["1"])
    assert await service.due_reminders(now[0] + timedelta(days=30)) == []


async def test_a_second_process_sees_the_first_ones_moves(store: Store) -> None:
    """Two services on one database (two bot processes): the cache is keyed by version, so none is stale."""
    one = GameService(store, render=False)
    two = GameService(store, render=False)
    await open_table(one, ALICE, BOB)
    seq = (await only_card(two)).prompt.seq  # two caches the state too
    await one.choose(CHANNEL, clicking(ALICE), seq, ["1"])
    with pytest.raises(UserError, match="This choice has passed."):
        await two.choose(CHANNEL, clicking(ALICE), seq, ["1"])
    card = await only_card(two)
    await two.choose(CHANNEL, clicking(BOB), card.prompt.seq, ["2"])
    assert (await state_of(one)).counter == 7 and (await one.status(CHANNEL, ALICE)).ephemeral[0].count("Counter 7")


async def test_the_action_log_rebuilds_state_when_snapshots_are_missing(store: Store) -> None:
    service = GameService(store, render=False)
    await open_table(service, ALICE, BOB)
    for who in (ALICE, BOB, ALICE):
        await service.choose(CHANNEL, clicking(who), (await only_card(service)).prompt.seq, ["1"])
    expected = api.to_json(await state_of(service))
    game = await store.open_game(CHANNEL)
    async with store.session() as s, s.begin():
        await s.exec(delete(Snapshot).where(Snapshot.game_id == game.id, Snapshot.step > 0))
    fresh = GameService(store, render=False)  # an empty cache: must restore from the database
    card = await only_card(fresh)
    assert card.user_ids == [BOB.user_id]
    loaded = await fresh._load_game(game)
    assert api.to_json(loaded.state) == expected


async def test_an_unexpected_failure_drops_the_cache_and_changes_nothing(service: GameService, monkeypatch) -> None:
    await open_table(service, ALICE, BOB)
    seq = (await only_card(service)).prompt.seq
    game_id = (await service.store.open_game(CHANNEL)).id
    assert game_id in service._cache

    async def broken(*args, **kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(service.store, "commit_step", broken)
    with pytest.raises(RuntimeError, match="disk on fire"):
        await service.choose(CHANNEL, clicking(ALICE), seq, ["1"])
    assert game_id not in service._cache
    monkeypatch.undo()
    await service.choose(CHANNEL, clicking(ALICE), seq, ["1"])
    assert (await state_of(service)).step == 1


async def test_game_commands_of_an_unknown_group_are_refused(service: GameService) -> None:
    with pytest.raises(UserError, match="Unknown command /zz roll."):
        await service.game_command(CHANNEL, Actor(1, "a"), "zz", "roll", {})


async def test_a_whole_game_with_undo_on_each_database(store: Store) -> None:
    service = GameService(store, render=False)
    await open_table(service, ALICE, BOB, options={"start": "6"})
    await service.choose(CHANNEL, clicking(ALICE), (await only_card(service)).prompt.seq, ["3"])
    await service.gm_undo(CHANNEL, MOD)
    moves = 0
    while cards := await service.pending(CHANNEL):
        who = ALICE if ALICE.user_id in cards[0].user_ids else BOB
        await service.choose(CHANNEL, clicking(who), cards[0].prompt.seq, ["2"])
        moves += 1
    game = await store.current_game(CHANNEL)
    assert (moves, game.status, game.result) == (3, OVER, "win")
    assert [a.seq for a in await store.actions(game.id)] == [1, 2, 3]


async def test_front_end_helpers(service: GameService) -> None:
    assert await service.channel_game(CHANNEL) is None and await service.pending(CHANNEL) == []
    await open_table(service, ALICE, BOB)
    card = await only_card(service)
    assert await service.channel_game(CHANNEL) == "countdown"
    assert await service.pending_prompt(CHANNEL, card.game_id, card.prompt.seq) == card.prompt
    assert await service.pending_prompt(CHANNEL, card.game_id + 1, card.prompt.seq) is None
    section = await service.latest_section(card.game_id)
    assert section is not None and not section.closed and section.awaited == [ALICE.user_id]
    await service.section_shown(section, rev=section.rev, message_ids=[111], board_message_id=None,
                                ping_messages=[])
    assert (await service.latest_section(card.game_id)).message_ids == [111]
    await service.choose(CHANNEL, clicking(ALICE), card.prompt.seq, ["1"])
    assert await service.pending_prompt(CHANNEL, card.game_id, card.prompt.seq) is None
