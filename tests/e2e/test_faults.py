"""Faults the table survives (issue "Faults the table survives"), through the real discord.py client: a
gateway connection dropped in the middle of a turn is resumed (not a fresh login) and a click made during the
gap is answered exactly once; a database file that vanishes mid-game is answered as an outage, privately, and
play goes on once it is back."""

from __future__ import annotations

import asyncio
import logging
import os
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.harness import RunningBot, Table, open_table, prompt_ids

pytestmark = [pytest.mark.e2e, pytest.mark.faults]

UNAVAILABLE = "The table's storage is unavailable right now; nothing was changed — try again in a moment."


async def test_a_dropped_gateway_resumes_and_a_click_in_the_gap_is_answered_once(
        fake: FakeDiscord, table: Table, running: RunningBot, shards: int) -> None:
    """Before: the fake answered every RESUME with INVALID_SESSION, so each drop was a new login, and a click
    sent while no shard was connected raised in the test. Now the session survives its connection, the
    click waits in it, and the client's RESUME replays it."""
    prompt = await open_table(table, [fake.alice, fake.bob])
    game_id, _ = prompt_ids(prompt)
    await table.outcome(await table.choose(prompt, "Take 1"))  # mid-game
    prompt = await table.current_prompt()
    identified = len(fake.gateway.identifies)

    fake.gateway.hold_connections()  # the network is down: the client reconnects but hears nothing yet
    await fake.gateway.drop()
    click = await table.choose(prompt, "Take 2")  # during the gap: no shard is connected
    await asyncio.sleep(0.3)
    assert click.callback is None and not fake.gateway.sessions
    fake.gateway.admit_connections()
    await fake.wait_for_shards(shards)

    out = await table.outcome(click)
    assert click.callback is not None and not any(m.ephemeral for m in click.followups), out
    await fake.settle(quiet=0.3)
    assert len([r for r in fake.requests if f"/interactions/{click.id}/" in r.path]) == 1, "answered once"
    assert len(fake.gateway.identifies) == identified, "the client logged in again instead of resuming"
    assert len(fake.gateway.resumes) == shards
    actions = await running.bot.service.store.actions(game_id)
    assert [a.payload["choice"] for a in actions] == [["1"], ["2"]]
    status = await table.command("game status", fake.alice)
    assert "Counter 7" in status.text()


@pytest.mark.parametrize("shards", [1], ids=["1shard"])
async def test_a_vanished_database_is_told_as_an_outage_and_play_goes_on(
        fake: FakeDiscord, table: Table, running: RunningBot, database_url: str,
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    prompt = await open_table(table, [fake.alice, fake.bob])
    path = Path(make_url(database_url).database or "")
    aside = path.with_name("aside.db")
    os.rename(path, aside)
    clicks = []
    for _ in range(3):
        click = await table.choose(prompt, "Take 1")
        said = await fake.wait_until(lambda c=click: next((m for m in c.followups if m.ephemeral), None),
                                     "the private answer")
        assert said.content == UNAVAILABLE and said.visible_to == fake.alice.id
        clicks.append(click)
    assert fake.messages[prompt.id].components != [], "the prompt keeps its buttons: nothing happened"
    os.rename(aside, path)
    await table.outcome(await table.choose(prompt, "Take 1"))
    status = await table.command("game status", fake.bob)
    assert "Counter 9" in status.text()
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and "deleted or moved" in errors[0].getMessage() and errors[0].exc_info is None
    assert [r.getMessage() for r in caplog.records if r.name == "bot.store.db" and r.levelno == logging.INFO]
