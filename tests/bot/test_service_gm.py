"""Moderator commands: permission, undo, skip, kick/replace, end, settings, export redaction, audit."""

from __future__ import annotations

import json

import pytest

from bot.service import GameService, UserError
from bot.store import ACTIVE, ENDED
from engine import api
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, MOD
from tests.bot.helpers import clicking, only_card, open_table, state_of


async def test_every_gm_command_refuses_non_moderators(service: GameService) -> None:
    await open_table(service, ALICE, BOB)
    calls = [
        service.gm_end(CHANNEL, ALICE), service.gm_undo(CHANNEL, ALICE), service.gm_kick(CHANNEL, ALICE, BOB.user_id),
        service.gm_replace(CHANNEL, ALICE, BOB.user_id, CAROL), service.gm_skip(CHANNEL, ALICE),
        service.gm_settings(CHANNEL, ALICE, GUILD, reminder_hours=1), service.gm_export(CHANNEL, ALICE),
        service.gm_audit(CHANNEL, ALICE),
    ]
    for call in calls:
        with pytest.raises(UserError, match="Only moderators can use /gm commands."):
            await call
    assert (await service.store.audit(GUILD))[0] == []
    assert (await service.store.open_game(CHANNEL)).status == ACTIVE


async def _play(service: GameService, *moves: tuple) -> list[str]:
    """Play (actor, choice) moves; return the state JSON before each and after the last."""
    states = [api.to_json(await state_of(service))]
    for who, choice in moves:
        await service.choose(CHANNEL, clicking(who), (await only_card(service)).prompt.seq, [choice])
        states.append(api.to_json(await state_of(service)))
    return states


async def test_undo_restores_the_exact_earlier_state(service: GameService) -> None:
    await open_table(service, ALICE, BOB)
    states = await _play(service, (ALICE, "1"), (BOB, "pass"), (ALICE, "3"))
    reply = await service.gm_undo(CHANNEL, MOD, steps=2)
    assert reply.public == ["Moderator mod undid 2 steps."]
    assert api.to_json(await state_of(service)) == states[1]
    loaded = await service._load_game(await service.store.open_game(CHANNEL))
    assert api.to_json(loaded.state) == states[1]  # the cache agrees with the database
    assert [c.user_ids for c in reply.prompts] == [[BOB.user_id]]
    game = await service.store.open_game(CHANNEL)
    assert [a.seq for a in await service.store.actions(game.id)] == [1]
    # Play continues from there, with the next action numbered after the kept ones.
    await service.choose(CHANNEL, clicking(BOB), reply.prompts[0].prompt.seq, ["2"])
    assert [a.seq for a in await service.store.actions(game.id)] == [1, 2]
    assert (await state_of(service)).counter == 7


async def test_undo_refuses_to_go_past_the_start(service: GameService) -> None:
    await open_table(service, ALICE, BOB)
    states = await _play(service, (ALICE, "1"))
    with pytest.raises(UserError, match="Cannot undo past the start of the game: 1 step played so far."):
        await service.gm_undo(CHANNEL, MOD, steps=2)
    with pytest.raises(UserError, match="at least 1 step"):
        await service.gm_undo(CHANNEL, MOD, steps=0)
    await service.gm_undo(CHANNEL, MOD, steps=1)
    assert api.to_json(await state_of(service)) == states[0]
    with pytest.raises(UserError, match="0 steps played"):
        await service.gm_undo(CHANNEL, MOD)


async def test_undo_reopens_a_game_the_rules_ended(service: GameService) -> None:
    await open_table(service, ALICE, options={"start": "3"})
    await _play(service, (ALICE, "3"))
    assert (await service.store.current_game(CHANNEL)).status == "over"
    reply = await service.gm_undo(CHANNEL, MOD)
    game = await service.store.open_game(CHANNEL)
    assert (game.status, game.result, game.active_channel_id) == (ACTIVE, None, CHANNEL)
    assert reply.prompts[0].user_ids == [ALICE.user_id]


async def test_skip_answers_with_the_default(service: GameService) -> None:
    await open_table(service, ALICE, BOB)
    reply = await service.gm_skip(CHANNEL, MOD)
    assert reply.public[0].startswith("Moderator mod skipped alice: alice: take how many? → default answer.")
    assert (await state_of(service)).counter == 9  # the prompt's default is "take 1"
    game = await service.store.open_game(CHANNEL)
    [row] = await service.store.actions(game.id)
    assert (row.kind, row.actor_id, row.seat, row.payload["choice"]) == ("gm", MOD.user_id, 0, ["1"])


async def test_kick_and_replace_move_seats(service: GameService) -> None:
    await service.new_game(CHANNEL, GUILD, ALICE, "countdown", {})
    await service.join(CHANNEL, BOB)
    await service.join(CHANNEL, CAROL)
    await service.gm_kick(CHANNEL, MOD, CAROL.user_id)  # in the lobby the seat goes
    await service.start(CHANNEL, ALICE)
    reply = await service.gm_replace(CHANNEL, MOD, ALICE.user_id, CAROL)
    assert reply.public == ["Moderator mod: carol takes over from alice."]
    assert reply.prompts[0].user_ids == [CAROL.user_id]
    with pytest.raises(UserError, match="not yours"):
        await service.choose(CHANNEL, clicking(ALICE), reply.prompts[0].prompt.seq, ["1"])
    await service.choose(CHANNEL, clicking(CAROL), reply.prompts[0].prompt.seq, ["1"])
    kicked = await service.gm_kick(CHANNEL, MOD, BOB.user_id)  # in play, bob's seat passes to carol
    assert kicked.public == ["Moderator mod removed bob; carol now plays their seats."]
    assert kicked.prompts[0].user_ids == [CAROL.user_id]
    with pytest.raises(UserError, match="only player"):
        await service.gm_kick(CHANNEL, MOD, CAROL.user_id)
    game = await service.store.open_game(CHANNEL)
    assert [(s.user_id, s.name) for s in await service.store.seats(game.id)] == [
        (CAROL.user_id, "carol"), (CAROL.user_id, "carol #2")]


async def test_end_closes_the_game(service: GameService) -> None:
    await open_table(service, ALICE, BOB)
    reply = await service.gm_end(CHANNEL, MOD)
    assert reply.public == ["Moderator mod ended the game.\nA moderator ended the game."]
    game = await service.store.current_game(CHANNEL)
    assert (game.status, game.result, game.active_channel_id) == (ENDED, "ended", None)
    with pytest.raises(UserError, match="no game in this channel"):
        await service.gm_end(CHANNEL, MOD)


async def test_full_export_of_a_finished_game_is_replayable(service: GameService) -> None:
    """Issue "Reliability and security" item 1: the seed and actions only leave with `full`, after the end."""
    await open_table(service, ALICE, BOB, seed=77)
    await _play(service, (ALICE, "2"), (BOB, "1"))
    state = await state_of(service)
    await service.gm_end(CHANNEL, MOD)
    reply = await service.gm_export(CHANNEL, MOD, full=True)
    [file] = reply.files
    doc = json.loads(file.data)
    assert file.filename == "countdown-1-full.json"
    assert (doc["game"], doc["seed"], doc["options"]) == ("countdown", 77, {"start": 10})
    assert [s["name"] for s in doc["seats"]] == ["alice", "bob"]
    assert [(a["seq"], a["kind"], a["seat"], a["choice"]) for a in doc["actions"]] == [
        (1, "play", 0, ["2"]), (2, "play", 1, ["1"])]
    from engine.core.game import SeatSpec
    from engine.core.prompt import Action

    seats = [SeatSpec(seat=i, name=s["name"]) for i, s in enumerate(doc["seats"])]
    actions = [Action(seat=a["seat"], prompt=a["prompt"], choice=a["choice"]) for a in doc["actions"]]
    rebuilt, _ = api.replay(doc["game"], seats, doc["options"], doc["seed"], actions)
    assert api.to_json(rebuilt) == api.to_json(state)


async def test_settings_and_the_audit_log(service: GameService) -> None:
    shown = await service.gm_settings(CHANNEL, MOD, GUILD)
    assert shown.ephemeral == ["Settings: moderator role none (Manage Channels only); games all; reminders 12 h; "
                               "AI teammates wait 1 s between decisions."]
    with pytest.raises(UserError, match="There is no game called 'chess'"):
        await service.gm_settings(CHANNEL, MOD, GUILD, enabled_games=["chess"])
    with pytest.raises(UserError, match="The AI pace must be from 0 to 10 seconds"):
        await service.gm_settings(CHANNEL, MOD, GUILD, ai_pace=11)
    saved = await service.gm_settings(CHANNEL, MOD, GUILD, mod_role_id=777, reminder_hours=4, ai_pace=0.5)
    assert saved.ephemeral == ["Settings saved: moderator role <@&777>; games all; reminders 4 h; "
                               "AI teammates wait 0.5 s between decisions."]
    assert await service.mod_role_id(GUILD) == 777
    await open_table(service, ALICE, BOB)
    await service.gm_skip(CHANNEL, MOD)
    await service.gm_undo(CHANNEL, MOD)
    await service.gm_export(CHANNEL, MOD)
    audit = (await service.gm_audit(CHANNEL, MOD)).ephemeral[0].splitlines()
    assert audit[0] == "Moderator actions, page 1/1 (newest first):"
    assert [line.split("> ")[1].split(" ")[0] for line in audit[1:]] == ["export", "undo", "skip", "settings"]
    assert all(f"<@{MOD.user_id}>" in line for line in audit[1:])
    assert "undo game #1 (steps=1, to_step=0)" in audit[2]
    with pytest.raises(UserError, match="The audit log has 1 page."):
        await service.gm_audit(CHANNEL, MOD, page=2)
    assert (await service.gm_audit(CHANNEL + 9, MOD)).ephemeral == ["No moderator actions yet."]
