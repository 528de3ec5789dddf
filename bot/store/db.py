"""The async SQLAlchemy engine and session factory, with the settings a bot needs on each database (and, on a
SQLite file, the synchronous engine a game step is committed on: `make_commit_engine`).

Durability and waiting are explicit (see bot/settings.py):

* SQLite runs `synchronous=FULL` by default: a commit is on disk before the user is told, so an OS crash or a
  power loss cannot take back an acknowledged action (NORMAL, selectable, only survives a killed process).
* A write waits at most `lock_timeout_ms` for a lock held elsewhere (SQLite's busy_timeout, PostgreSQL's
  lock_timeout) and a PostgreSQL statement at most `statement_timeout_ms`; the store then raises StoreBusy
  and the user is told to try again, instead of a click hanging while it holds its channel's lock.
* A network that stops answering is not waited for either: connecting gives up after `connect_timeout_s`,
  a statement after `command_timeout_s` (asyncpg's own timers: a silent socket never raises by itself), and
  waiting for a free pooled connection after `pool_timeout_s`.

Faults the store survives (issue "Faults the table survives"):

* **The SQLite file is deleted or replaced while the bot runs.** SQLite keeps writing into the file it
  opened, which nothing will ever read again once it is unlinked. `FileGuard` remembers which file (device,
  inode) the path named when it was first opened and checks before every statement, before every commit and
  after it: once the path no longer names that file, every statement is refused (StoreUnavailable) until the
  same file is back at its path (moved back), or the bot is restarted on whatever is there now. New pooled
  connections open the file without SQLite's create flag, so a lost file is never silently replaced by an
  empty database. (The link count needs no check of its own: a file the path names has one. While a pooled
  connection is open, SQLite's descriptor keeps the old inode, so its number cannot be reused by a copy put
  in its place; after every connection closed, a copy that happens to get the same number is taken for the
  original, which loses nothing that was acknowledged.)
* **A read-only or immutable disk.** In WAL mode every connection maps the `-shm` file (the WAL index) into
  memory and writes to it directly, on reads as well as writes. When the file system refuses a write to such
  a page (remounted read-only, the file made immutable, a page it cannot allocate), the kernel has no error
  to return: it sends SIGBUS, and the whole process dies inside SQLite. So the guard also refuses to run a
  statement while the `-shm` file is not writable (`access(W_OK)`: EROFS, EPERM for an immutable file,
  the mode bits for other users), and SQLite is told not to map the database file itself (`mmap_size=0`:
  reads then go through read(), which can fail with an error). A disk that fills up is an error, not a
  signal: SQLite writes a byte into every `-shm` page when it grows the file, so its blocks exist before they
  are mapped. What is left is a window of one statement: a file system turned read-only while a statement
  runs can still fault. Only a rollback journal (no `-shm`; about ten times slower commits at
  synchronous=FULL) or WAL with exclusive locking (no second process could read or back up the database)
  would close it, which is why neither is the default.
* **Outages.** `OUTAGE` follows whether the database is failing: it logs one ERROR line when the first
  command fails for a reason of the database's (unreachable, full, read-only, gone, not answering), and one
  INFO line when a write commits again. `is_outage` tells such failures from bugs, so that players are told
  to try again instead of receiving an apology and a traceback each.
"""

from __future__ import annotations

import logging
import os
import time
import weakref
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import quote

from sqlalchemy import event
from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import Engine, create_engine, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlmodel import Session
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.settings import ensure_sqlite_dir
from bot.store.errors import StoreError, StoreUnavailable
from engine.core.text import plural

log = logging.getLogger(__name__)

SYNCHRONOUS_MODES = ("FULL", "NORMAL", "EXTRA")
DEFAULT_LOCK_TIMEOUT_MS = 5000
DEFAULT_STATEMENT_TIMEOUT_MS = 30_000
# A hung network must cost a click a few seconds, not forever: asyncpg waits on a silent socket without end.
DEFAULT_CONNECT_TIMEOUT_S = 5.0
DEFAULT_COMMAND_TIMEOUT_S = 10.0
DEFAULT_POOL_TIMEOUT_S = 5.0
# A connection of ours left inside a transaction (a bug, a hung task) would hold its row locks forever.
IDLE_IN_TRANSACTION_MS = 60_000


def is_sqlite(url: str) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


# ---- outages ---------------------------------------------------------------------------------------------

# SQLite's sentences for a database it cannot use (as opposed to a busy one, or a bug in our SQL).
SQLITE_OUTAGE = ("disk i/o error", "database or disk is full", "readonly database", "unable to open database",
                 "disk image is malformed", "database is gone")
# PostgreSQL: connection exceptions (08), insufficient resources such as a full disk (53), system and I/O
# errors (58), an administrator's or a crash's shutdown, a server still starting (57P01-57P03), a read-only
# standby (25006).
PG_OUTAGE_CLASSES = ("08", "53", "58")
PG_OUTAGE_STATES = ("57P01", "57P02", "57P03", "25006")
# asyncpg's exceptions for a connection that is gone or was never made, by class name (asyncpg is only
# imported when a PostgreSQL URL is used).
ASYNCPG_OUTAGE = ("ConnectionDoesNotExistError", "CannotConnectNowError", "ConnectionFailureError",
                  "ConnectionRejectionError", "PostgresConnectionError", "ClientCannotConnectError")
STORAGE_MODULES = ("sqlalchemy", "asyncpg", "aiosqlite", "sqlite3", "bot.store")


def _causes(exc: BaseException) -> Iterator[BaseException]:
    """The exception, the driver's exception it wraps, and what those were raised from (a short chain)."""
    seen: set[int] = set()
    todo: list[BaseException | None] = [exc]
    while todo and len(seen) < 8:
        item = todo.pop(0)
        if item is None or id(item) in seen:
            continue
        seen.add(id(item))
        yield item
        todo += [getattr(item, "orig", None), item.__cause__, item.__context__]


def _raised_in_storage(exc: BaseException) -> bool:
    """Whether the exception came out of the database stack (a timeout elsewhere is not a storage outage)."""
    tb: TracebackType | None = exc.__traceback__
    while tb is not None:
        module = str(tb.tb_frame.f_globals.get("__name__", ""))
        if module.startswith(STORAGE_MODULES):
            return True
        tb = tb.tb_next
    return False


def is_outage(exc: BaseException) -> bool:
    """Whether `exc` says the database cannot be used right now (rather than that our code is wrong)."""
    if isinstance(exc, StoreUnavailable):
        return True
    if isinstance(exc, StoreError):
        return False  # busy, a conflict, a duplicate: answered by their own sentences
    if isinstance(exc, sa_exc.TimeoutError):
        return True  # no pooled connection came free in time
    if isinstance(exc, sa_exc.DBAPIError) and exc.connection_invalidated:
        return True
    if not isinstance(exc, sa_exc.DBAPIError | OSError | TimeoutError):
        return False
    if isinstance(exc, OSError | TimeoutError) and not _raised_in_storage(exc):
        return False
    for cause in _causes(exc):
        if isinstance(cause, StoreUnavailable | OSError | TimeoutError):
            return True
        state = str(getattr(cause, "sqlstate", None) or getattr(cause, "pgcode", None) or "")
        if state[:2] in PG_OUTAGE_CLASSES or state in PG_OUTAGE_STATES:
            return True
        if any(kind.__name__ in ASYNCPG_OUTAGE for kind in type(cause).__mro__):
            return True
        if not isinstance(cause, sa_exc.SQLAlchemyError):
            text = str(cause).lower()
            if any(words in text for words in SQLITE_OUTAGE):
                return True
    return False


def outage_cause(exc: BaseException) -> str:
    """A short line for the log: the driver's own words, without SQLAlchemy's statement and parameters."""
    if isinstance(exc, StoreUnavailable):
        return str(exc)
    inner = exc.orig if isinstance(exc, sa_exc.DBAPIError) and exc.orig is not None else exc
    words = str(inner).strip().splitlines()
    return f"{type(inner).__name__}: {words[0] if words else 'no message'}"


class Outage:
    """Whether the database is failing us: one ERROR line when it starts, one INFO line when it ends."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.cause: str | None = None
        self.since = 0.0
        self.refused = 0

    @property
    def down(self) -> bool:
        return self.cause is not None

    def failed(self, cause: str) -> None:
        if self.cause is None:
            self.cause, self.since, self.refused = cause, self.clock(), 1
            log.error("The database is unavailable: %s. Commands are refused (nothing is written) and players "
                      "are told to try again until it is back.", cause)
        else:
            self.refused += 1

    def recovered(self) -> None:
        if self.cause is None:
            return
        log.info("The database is available again after %.1f s (%s refused in between; the cause was: %s).",
                 self.clock() - self.since, plural(self.refused, "write"), self.cause)
        self.cause = None


# One process serves one database; its commands and its background work all report here.
OUTAGE = Outage()


# ---- the SQLite file guard -------------------------------------------------------------------------------

class FileGuard:
    """Refuses statements once the path no longer names the file SQLite opened, or while its `-shm` file
    cannot be written (module docstring)."""

    def __init__(self, path: Path, outage: Outage = OUTAGE) -> None:
        self.path = path
        self.shm = path.with_name(path.name + "-shm")
        self.outage = outage
        self.identity: tuple[int, int] | None = None  # (device, inode) of the file first opened

    def problem(self) -> str | None:
        """Why statements must be refused now, or None."""
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            return (f"the database file {self.path} was deleted or moved while the bot was running; put it "
                    "back (or restart the bot on a restored copy)")
        except OSError as exc:
            return f"the database file {self.path} cannot be checked ({exc.strerror})"
        if self.identity is not None and (st.st_dev, st.st_ino) != self.identity:
            return (f"the database file {self.path} was replaced by another file while the bot was running; "
                    "put the original back, or restart the bot to use the new one")
        if not os.access(self.shm, os.W_OK) and os.path.exists(self.shm):
            return f"the database's folder is read-only ({self.shm} cannot be written)"
        return None

    def check(self) -> None:
        problem = self.problem()
        if problem is not None:
            self.outage.failed(problem)
            raise StoreUnavailable(problem)

    def before_connect(self, cargs: list[Any], cparams: dict[str, Any]) -> None:
        """Once a file was opened, later connections must find that same file, and never create one."""
        if self.identity is None:
            return
        self.check()
        if not cparams.get("uri"):
            cargs[0] = f"file:{quote(str(self.path))}?mode=rw"
            cparams["uri"] = True

    def opened(self) -> None:
        if self.identity is None:
            st = os.stat(self.path)
            self.identity = (st.st_dev, st.st_ino)


_GUARDS: weakref.WeakKeyDictionary[Engine, FileGuard] = weakref.WeakKeyDictionary()


def file_guard(engine: AsyncEngine) -> FileGuard | None:
    """The engine's file guard (SQLite files only)."""
    return _GUARDS.get(engine.sync_engine)


def _sqlite_path(url: str) -> Path | None:
    database = make_url(url).database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(database).resolve()


def _sqlite_pragmas(dbapi_connection: Any, _record: Any, *, synchronous: str, busy_ms: int,
                    guard: FileGuard | None) -> None:
    # WAL lets readers run while one writer commits; busy_timeout makes a second writer wait (boundedly)
    # instead of failing at once; SQLite leaves foreign keys off unless asked; mmap_size=0 keeps the database
    # file out of memory maps (a failing disk then gives an error, not SIGBUS).
    cursor = dbapi_connection.cursor()
    for pragma in ("journal_mode=WAL", f"busy_timeout={busy_ms}", "foreign_keys=ON", f"synchronous={synchronous}",
                   "mmap_size=0"):
        cursor.execute(f"PRAGMA {pragma}")
    cursor.close()
    if guard is not None:
        guard.opened()


def _guard_sqlite(sync: Engine, guard: FileGuard) -> None:
    _GUARDS[sync] = guard
    event.listen(sync, "do_connect", lambda _dialect, _record, cargs, cparams: guard.before_connect(cargs, cparams))
    event.listen(sync, "before_cursor_execute", lambda *_args: guard.check())
    event.listen(sync, "commit", lambda _conn: guard.check())


def _sqlite_events(sync: Engine, *, synchronous: str, busy_ms: int, guard: FileGuard | None) -> None:
    """What every engine on a SQLite database listens to: the pragmas, the file guard, the outage notes."""
    event.listen(sync, "connect", partial(_sqlite_pragmas, synchronous=synchronous, busy_ms=busy_ms, guard=guard))
    if guard is not None:
        _guard_sqlite(sync, guard)
    event.listen(sync, "handle_error", _note_outage)


def _sqlite_mode(synchronous: str) -> str:
    mode = synchronous.upper()
    if mode not in SYNCHRONOUS_MODES:
        raise ValueError(f"SQLite synchronous must be one of {', '.join(SYNCHRONOUS_MODES)}, not {synchronous!r}")
    return mode


def _note_outage(context: Any) -> None:
    """handle_error: a driver error that means an outage starts (or continues) one."""
    if getattr(context, "is_pre_ping", False):
        return  # a stale pooled connection: the pool replaces it without the command noticing
    if isinstance(context.original_exception, StoreUnavailable):
        return  # the guard's refusal, already counted
    error = context.sqlalchemy_exception or context.original_exception
    if error is not None and is_outage(error):
        OUTAGE.failed(outage_cause(error))


def make_engine(url: str, *, echo: bool = False, synchronous: str = "FULL",
                lock_timeout_ms: int = DEFAULT_LOCK_TIMEOUT_MS,
                statement_timeout_ms: int = DEFAULT_STATEMENT_TIMEOUT_MS,
                connect_timeout_s: float = DEFAULT_CONNECT_TIMEOUT_S,
                command_timeout_s: float = DEFAULT_COMMAND_TIMEOUT_S,
                pool_timeout_s: float = DEFAULT_POOL_TIMEOUT_S) -> AsyncEngine:
    if is_sqlite(url):
        mode = _sqlite_mode(synchronous)
        ensure_sqlite_dir(url)
        path = _sqlite_path(url)
        guard = FileGuard(path) if path is not None else None
        sqlite_kwargs: dict[str, Any] = {"echo": echo}
        if path is not None:  # file databases are pooled (QueuePool); :memory: ones are not
            sqlite_kwargs["pool_timeout"] = pool_timeout_s
        engine = create_async_engine(url, **sqlite_kwargs)
        _sqlite_events(engine.sync_engine, synchronous=mode, busy_ms=int(lock_timeout_ms), guard=guard)
        return engine
    # pool_pre_ping: a PostgreSQL restart or an idle timeout must not cost the first interaction after it.
    kwargs: dict[str, Any] = {"echo": echo, "pool_pre_ping": True, "pool_timeout": pool_timeout_s}
    if make_url(url).get_driver_name() == "asyncpg":
        kwargs["connect_args"] = {
            "timeout": connect_timeout_s,
            "command_timeout": command_timeout_s,
            "server_settings": {
                "lock_timeout": str(int(lock_timeout_ms)),
                "statement_timeout": str(int(statement_timeout_ms)),
                "idle_in_transaction_session_timeout": str(IDLE_IN_TRANSACTION_MS),
            },
        }
    engine = create_async_engine(url, **kwargs)
    event.listen(engine.sync_engine, "handle_error", _note_outage)
    return engine


def make_commit_engine(engine: AsyncEngine, *, synchronous: str = "FULL",
                       lock_timeout_ms: int = DEFAULT_LOCK_TIMEOUT_MS,
                       pool_timeout_s: float = DEFAULT_POOL_TIMEOUT_S) -> Engine | None:
    """A synchronous engine (the stdlib's sqlite3) on the SQLite file `engine` opened, for the writes a click
    makes: `Store.commit_step` runs its whole transaction as one call in a worker thread, where the async
    driver hands every statement, the BEGIN and the COMMIT to its own thread and back to the event loop.

    It is the same database in every respect that matters: the same pragmas (WAL, `synchronous`,
    busy_timeout, no memory map), the same `FileGuard` (one identity for the file, whichever engine opened it
    first), the same outage notes. None for a database that is not a file (a second `:memory:` connection
    would be another database) and for every other database."""
    guard = file_guard(engine)
    if guard is None:
        return None
    url = engine.url.set(drivername="sqlite")
    sync = create_engine(url, echo=engine.sync_engine.echo, pool_timeout=pool_timeout_s)
    _sqlite_events(sync, synchronous=_sqlite_mode(synchronous), busy_ms=int(lock_timeout_ms), guard=guard)
    return sync


def committed(bind: Any) -> None:
    """After a commit returned: the SQLite file went while it committed, so the commit is in a file nothing
    will read again and must not be acknowledged (StoreUnavailable); else an outage is over."""
    guard = _GUARDS.get(bind) if isinstance(bind, Engine) else None
    if guard is not None:
        guard.check()
    OUTAGE.recovered()


class StoreSession(Session):
    """The sessions' synchronous half: checks the SQLite file after every commit and ends an outage."""


@event.listens_for(StoreSession, "after_commit")
def _after_commit(session: Session) -> None:
    committed(session.get_bind())


def make_sessions(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    # expire_on_commit=False: rows stay readable after commit without a lazy load (MissingGreenlet).
    return async_sessionmaker(engine, class_=AsyncSession, sync_session_class=StoreSession,
                              expire_on_commit=False)
