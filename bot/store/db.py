"""The async SQLAlchemy engine and session factory, with the SQLite settings a bot needs."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.settings import ensure_sqlite_dir


def is_sqlite(url: str) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL lets readers run while one writer commits; busy_timeout makes a second writer wait instead of
    # failing at once; SQLite leaves foreign keys off unless asked.
    cursor = dbapi_connection.cursor()
    for pragma in ("journal_mode=WAL", "busy_timeout=5000", "foreign_keys=ON", "synchronous=NORMAL"):
        cursor.execute(f"PRAGMA {pragma}")
    cursor.close()


def make_engine(url: str, *, echo: bool = False) -> AsyncEngine:
    if is_sqlite(url):
        ensure_sqlite_dir(url)
        engine = create_async_engine(url, echo=echo)
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        return engine
    # pool_pre_ping: a PostgreSQL restart or an idle timeout must not cost the first interaction after it.
    return create_async_engine(url, echo=echo, pool_pre_ping=True)


def make_sessions(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    # expire_on_commit=False: rows stay readable after commit without a lazy load (MissingGreenlet).
    return async_sessionmaker(engine, class_=AsyncSession, expire_on_commit=False)
