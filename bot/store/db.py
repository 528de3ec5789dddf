"""The async SQLAlchemy engine and session factory, with the settings a bot needs on each database.

Durability and waiting are explicit (see bot/settings.py):

* SQLite runs `synchronous=FULL` by default: a commit is on disk before the user is told, so an OS crash or a
  power loss cannot take back an acknowledged action (NORMAL, selectable, only survives a killed process).
* A write waits at most `lock_timeout_ms` for a lock held elsewhere (SQLite's busy_timeout, PostgreSQL's
  lock_timeout) and a PostgreSQL statement at most `statement_timeout_ms`; the store then raises StoreBusy
  and the user is told to try again, instead of a click hanging while it holds its channel's lock.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.settings import ensure_sqlite_dir

SYNCHRONOUS_MODES = ("FULL", "NORMAL", "EXTRA")
DEFAULT_LOCK_TIMEOUT_MS = 5000
DEFAULT_STATEMENT_TIMEOUT_MS = 30_000
# A connection of ours left inside a transaction (a bug, a hung task) would hold its row locks forever.
IDLE_IN_TRANSACTION_MS = 60_000


def is_sqlite(url: str) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


def _sqlite_pragmas(dbapi_connection: Any, _record: Any, *, synchronous: str, busy_ms: int) -> None:
    # WAL lets readers run while one writer commits; busy_timeout makes a second writer wait (boundedly)
    # instead of failing at once; SQLite leaves foreign keys off unless asked.
    cursor = dbapi_connection.cursor()
    for pragma in ("journal_mode=WAL", f"busy_timeout={busy_ms}", "foreign_keys=ON", f"synchronous={synchronous}"):
        cursor.execute(f"PRAGMA {pragma}")
    cursor.close()


def make_engine(url: str, *, echo: bool = False, synchronous: str = "FULL",
                lock_timeout_ms: int = DEFAULT_LOCK_TIMEOUT_MS,
                statement_timeout_ms: int = DEFAULT_STATEMENT_TIMEOUT_MS) -> AsyncEngine:
    if is_sqlite(url):
        mode = synchronous.upper()
        if mode not in SYNCHRONOUS_MODES:
            raise ValueError(f"SQLite synchronous must be one of {', '.join(SYNCHRONOUS_MODES)}, not {synchronous!r}")
        ensure_sqlite_dir(url)
        engine = create_async_engine(url, echo=echo)
        event.listen(engine.sync_engine, "connect",
                     partial(_sqlite_pragmas, synchronous=mode, busy_ms=int(lock_timeout_ms)))
        return engine
    # pool_pre_ping: a PostgreSQL restart or an idle timeout must not cost the first interaction after it.
    kwargs: dict[str, Any] = {"echo": echo, "pool_pre_ping": True}
    if make_url(url).get_driver_name() == "asyncpg":
        kwargs["connect_args"] = {"server_settings": {
            "lock_timeout": str(int(lock_timeout_ms)),
            "statement_timeout": str(int(statement_timeout_ms)),
            "idle_in_transaction_session_timeout": str(IDLE_IN_TRANSACTION_MS),
        }}
    return create_async_engine(url, **kwargs)


def make_sessions(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    # expire_on_commit=False: rows stay readable after commit without a lazy load (MissingGreenlet).
    return async_sessionmaker(engine, class_=AsyncSession, expire_on_commit=False)
