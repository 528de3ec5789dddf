"""Fixtures for the end-to-end tests: a fake Discord, and the real bot connected to it with 1 or 2 shards.

Every test ends by checking the fake recorded no failure: a request Discord would refuse (a late or double
acknowledgement, an invalid message, an unknown endpoint) fails the test that caused it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.e2e.fakediscord import FakeDiscord, point_discord_py_at
from tests.e2e.harness import RunningBot, Table, fresh_db, migrated_template, register_test_games, start_bot

register_test_games()


@pytest.fixture(scope="session")
def template_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return migrated_template(tmp_path_factory.mktemp("template"))


@pytest.fixture
def database_url(template_db: Path, tmp_path: Path) -> str:
    return fresh_db(template_db, tmp_path)


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    await fake.start()
    with point_discord_py_at(fake.api_base, fake.gateway_url):
        yield fake
    await fake.stop()
    assert fake.failures == [], "the bot made requests Discord would refuse"


@pytest.fixture(params=[1, 2], ids=["1shard", "2shards"])
def shards(request: pytest.FixtureRequest) -> int:
    return request.param


@pytest.fixture
async def running(fake: FakeDiscord, database_url: str, shards: int) -> AsyncIterator[RunningBot]:
    bot = await start_bot(fake, database_url, shards)
    yield bot
    await fake.settle()
    await bot.stop()


@pytest.fixture
def table(fake: FakeDiscord, running: RunningBot) -> Table:
    return Table(fake, fake.channel("table-1", "Arkham"))
