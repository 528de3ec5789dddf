"""`miskatonic backup` and `miskatonic restore`: a copy of the games a server admin can take while the bot
runs, and put back.

SQLite: the backup is SQLite's online backup API, reading one consistent snapshot (in WAL mode the bot keeps
writing meanwhile), written to a temporary file beside the target and renamed into place only once it is
complete and checked. A restore copies a checked backup into the database path the same way; it refuses to
replace a database that holds games unless forced, and a database another process has open (the bot: stop it
first) in any case. The restored database is then brought to the current schema, so a backup taken by an
older version can be restored by a newer one.

PostgreSQL has its own tools (pg_dump, pg_restore): the commands say so, and check that the database answers.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from sqlalchemy import text
from sqlalchemy.engine import make_url

from bot.settings import mask_url
from bot.store.db import is_sqlite, make_engine

REQUIRED_TABLES = ("alembic_version", "game", "action", "snapshot")


class BackupError(Exception):
    """A backup or restore that cannot be done, in a sentence for the admin (nothing was changed)."""


@dataclass(frozen=True)
class Summary:
    path: Path
    games: int
    size: int

    def describe(self) -> str:
        plural = "game" if self.games == 1 else "games"
        return f"{self.games} {plural}, {self.size / 1024:.0f} KiB"


def sqlite_file(url: str) -> Path | None:
    """The database file of a SQLite URL (None for PostgreSQL)."""
    if not is_sqlite(url):
        return None
    database = make_url(url).database
    if not database or database == ":memory:":
        raise BackupError("an in-memory database has nothing to back up or restore")
    return Path(database)


@contextmanager
def _open(path: Path, *, write: bool = False) -> Iterator[sqlite3.Connection]:
    """An existing database file; never creates one (a mistyped path is an error, not a new empty file)."""
    mode = "rw" if write else "ro"
    try:
        conn = sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode={mode}", uri=True, timeout=5,
                               isolation_level=None)
    except sqlite3.OperationalError as exc:
        raise BackupError(f"cannot open {path} ({exc})") from exc
    with closing(conn):
        yield conn


def _games(conn: sqlite3.Connection) -> int:
    return int(conn.execute("SELECT count(*) FROM game").fetchone()[0])


def _checked(path: Path) -> int:
    """The number of games in a complete, intact Miskatonic database at `path`."""
    with _open(path) as conn:
        try:
            tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            verdict = conn.execute("PRAGMA quick_check").fetchone()[0]
        except sqlite3.DatabaseError as exc:
            raise BackupError(f"{path} is not a SQLite database ({exc})") from exc
        missing = [t for t in REQUIRED_TABLES if t not in tables]
        if missing:
            raise BackupError(f"{path} is not a Miskatonic database (no {', '.join(missing)} table)")
        if verdict != "ok":
            raise BackupError(f"{path} is damaged: {verdict}")
        return _games(conn)


def _copy(source: sqlite3.Connection, target: Path) -> None:
    """Copy `source` into a new file at `target`, atomically: a crash leaves the old target or none."""
    partial = target.with_name(f".{target.name}.partial")
    partial.unlink(missing_ok=True)
    try:
        with closing(sqlite3.connect(partial)) as dest:
            source.backup(dest)  # all pages in one step: one consistent snapshot of the source
            dest.execute("PRAGMA journal_mode=DELETE")  # a single self-contained file, no -wal beside it
        with open(partial, "rb") as handle:
            os.fsync(handle.fileno())
        os.replace(partial, target)
        _sync_dir(target.parent)
    finally:
        partial.unlink(missing_ok=True)


def _sync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def backup_sqlite(database: Path, target: Path, *, force: bool = False) -> Summary:
    if not database.is_file():
        raise BackupError(f"there is no database at {database} (DATABASE_URL)")
    if target.exists() and not force:
        raise BackupError(f"{target} already exists; choose another name or pass --force to overwrite it")
    if target.resolve() == database.resolve():
        raise BackupError("the backup cannot be the database itself")
    if not target.parent.is_dir():
        raise BackupError(f"the folder {target.parent} does not exist")
    # Read-write although it only reads: as the last connection to close (the bot stopped), it removes the
    # -wal and -shm files a read-only one would leave behind, owned by whoever ran the backup.
    writable = os.access(database, os.W_OK) and os.access(database.parent, os.W_OK)
    with _open(database, write=writable) as source:
        _copy(source, target)
    games = _checked(target)
    return Summary(target, games, target.stat().st_size)


def _in_use(path: Path) -> bool:
    """Whether another connection has the database open (the bot): an exclusive lock cannot be had."""
    with _open(path, write=True) as conn:
        conn.execute("PRAGMA busy_timeout=0")
        try:
            conn.execute("PRAGMA locking_mode=EXCLUSIVE")
            conn.execute("BEGIN EXCLUSIVE")
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            conn.execute("COMMIT")
        except sqlite3.OperationalError:
            return True
    return False


def restore_sqlite(source: Path, database: Path, *, force: bool = False) -> Summary:
    if not source.is_file():
        raise BackupError(f"there is no backup file at {source}")
    if source.resolve() == database.resolve():
        raise BackupError("the backup and the database are the same file")
    games = _checked(source)
    if database.exists():
        if _in_use(database):
            raise BackupError(f"{database} is in use (is the bot running?); stop it, then restore")
        with _open(database) as conn:
            try:
                held = _games(conn)
            except sqlite3.DatabaseError:
                held = -1  # not a database of ours, or damaged: replacing it needs --force as well
        if held != 0 and not force:
            what = f"holds {held} game{'' if held == 1 else 's'}" if held > 0 else "is not an empty Miskatonic database"
            raise BackupError(f"{database} {what}; restoring would replace it. Back it up first, then pass "
                              "--force")
    database.parent.mkdir(parents=True, exist_ok=True)
    for suffix in ("-wal", "-shm", "-journal"):  # the old database's journal must never be applied to the new one
        database.with_name(database.name + suffix).unlink(missing_ok=True)
    with _open(source) as conn:
        _copy(conn, database)
    return Summary(database, games, database.stat().st_size)


async def postgres_reachable(url: str) -> int:
    """The number of games, or an exception saying why the database cannot be reached."""
    engine = make_engine(url)
    try:
        async with engine.connect() as conn:
            return int((await conn.execute(text("SELECT count(*) FROM game"))).scalar_one())
    finally:
        await engine.dispose()


def postgres_advice(url: str, command: str, file: Path) -> str:
    """What to run instead on PostgreSQL, with the connection checked."""
    try:
        games = asyncio.run(postgres_reachable(url))
    except Exception as exc:
        raise BackupError(f"PostgreSQL at {mask_url(url)} cannot be reached: {type(exc).__name__}: {exc}") from exc
    shown = make_url(url).set(drivername="postgresql")
    plain = mask_url(shown.render_as_string(hide_password=False))
    tool = (f"pg_dump --format=custom --file {file} '{plain}'" if command == "backup"
            else f"pg_restore --clean --if-exists --dbname '{plain}' {file}")
    plural = "game" if games == 1 else "games"
    return (f"The database is PostgreSQL ({mask_url(url)}, reachable, {games} {plural}): use its own tool, which "
            f"copies a running database consistently:\n  {tool}\n(the password as in DATABASE_URL, e.g. in PGPASSWORD)")
