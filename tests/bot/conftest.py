"""Fixtures: a migrated SQLite file per test (copied from one migrated template, so Alembic runs once per
session), the same on PostgreSQL when DATABASE_URL_PG is set, and a GameService on top (on both).

Under CI=true the PostgreSQL variants fail instead of skipping when DATABASE_URL_PG is missing: a CI run
that silently tested SQLite only would claim more than it checked."""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlmodel import SQLModel

import engine.games
from bot.service import Actor, GameService
from bot.store import Store, migrate

engine.games.register("countdown", "tests.support.countdown:RULES")
engine.games.register("countdown-duo", "tests.bot.games:DUO")
engine.games.register("countdown-peek", "tests.bot.games:PEEK")

PG_URL = os.environ.get("DATABASE_URL_PG")
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")

ALICE = Actor(user_id=1001, name="alice")
BOB = Actor(user_id=1002, name="bob")
CAROL = Actor(user_id=1003, name="carol")
MOD = Actor(user_id=9001, name="mod", is_moderator=True)
CHANNEL, GUILD = 500, 50


def sqlite_url(path: Path) -> str:
    return f"sqlite+aiosqlite:///{path}"


@pytest.fixture(scope="session")
def migrated_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "template.db"
    migrate.upgrade(sqlite_url(path))
    return path


@pytest.fixture
def sqlite_db(migrated_template: Path, tmp_path: Path) -> str:
    path = tmp_path / "test.db"
    shutil.copy(migrated_template, path)
    return sqlite_url(path)


@pytest.fixture(scope="session")
def pg_migrated() -> str:
    if not PG_URL:
        if IN_CI:
            pytest.fail("CI=true but DATABASE_URL_PG is not set: the PostgreSQL suite must run in CI")
        pytest.skip("DATABASE_URL_PG is not set")
    migrate.upgrade(PG_URL)
    return PG_URL


async def _empty_pg(url: str) -> None:
    store = Store(url)
    tables = ", ".join(f'"{t.name}"' for t in SQLModel.metadata.sorted_tables)
    async with store.engine.begin() as conn:
        await conn.execute(text(f"TRUNCATE {tables} RESTART IDENTITY CASCADE"))
    await store.close()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def db_url(request: pytest.FixtureRequest) -> str:
    if request.param == "sqlite":
        return request.getfixturevalue("sqlite_db")
    url = request.getfixturevalue("pg_migrated")
    await _empty_pg(url)
    return url


@pytest.fixture
async def store(db_url: str) -> AsyncIterator[Store]:
    s = Store(db_url)
    yield s
    await s.close()


@pytest.fixture
async def sqlite_store(sqlite_db: str) -> AsyncIterator[Store]:
    s = Store(sqlite_db)
    yield s
    await s.close()


@pytest.fixture
def service(store: Store) -> GameService:
    """On SQLite and (marked postgres) on PostgreSQL."""
    return GameService(store, render=False)
