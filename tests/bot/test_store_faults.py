"""Faults the store survives (issue "Faults the table survives"): the SQLite file deleted or replaced while the
bot runs, a read-only folder (which used to kill the process with SIGBUS), a full disk, an outage told as an
outage (one log line when it starts, one when it ends), a network that stops answering (PostgreSQL)."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import shutil
import subprocess
import time
from collections.abc import AsyncIterator, Iterator
from multiprocessing.connection import Connection
from pathlib import Path
from types import SimpleNamespace

import discord
import pytest
from sqlalchemy import event, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError, OperationalError

from bot.errors import UNAVAILABLE, report_error
from bot.service import GameService
from bot.store import Store, StoreBusy, StoreUnavailable
from bot.store.db import OUTAGE, Outage, is_outage, make_engine
from tests.bot.conftest import ALICE, BOB, CHANNEL
from tests.bot.helpers import clicking, only_card, open_table, state_of

pytestmark = pytest.mark.faults

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def no_outage_left() -> Iterator[None]:
    """OUTAGE is the process's: every test starts and ends with the database up."""
    OUTAGE.cause = None
    yield
    OUTAGE.cause = None


def db_path(url: str) -> Path:
    return Path(make_url(url).database or "")


async def take(service: GameService) -> None:
    """The awaited player takes 1."""
    card = await only_card(service)
    actor = next(p for p in (ALICE, BOB) if p.user_id in card.user_ids)
    await service.choose(CHANNEL, clicking(actor), card.prompt.seq, ["1"])


def errors_and_infos(caplog: pytest.LogCaptureFixture) -> tuple[list[str], list[str]]:
    mine = [r for r in caplog.records if r.name == "bot.store.db"]
    return ([r.getMessage() for r in mine if r.levelno == logging.ERROR],
            [r.getMessage() for r in mine if r.levelno == logging.INFO])


# ---- 1. the file is deleted or replaced ------------------------------------------------------------------------

async def test_a_moved_database_file_refuses_every_click_until_it_is_back(
        sqlite_db: str, caplog: pytest.LogCaptureFixture) -> None:
    """Before: SQLite went on writing into the file it had opened, and ~600 acknowledged clicks vanished at the
    next restart. Now every click is refused while the path does not name the opened file; one ERROR line
    says so, one INFO line says it is over."""
    caplog.set_level(logging.INFO, logger="bot.store.db")
    path = db_path(sqlite_db)
    store = Store(sqlite_db)
    service = GameService(store, render=False)
    try:
        await open_table(service, ALICE, BOB)
        await take(service)
        aside = path.with_name("aside.db")
        os.rename(path, aside)
        for _ in range(4):
            with pytest.raises(StoreUnavailable, match="deleted or moved"):
                await take(service)
        assert errors_and_infos(caplog) == ([f"The database is unavailable: {OUTAGE.cause}. Commands are refused "
                                             "(nothing is written) and players are told to try again until it is "
                                             "back."], [])
        os.rename(aside, path)
        await take(service)
        assert (await state_of(service)).counter == 8  # 10, one take before, none during, one after
        errors, infos = errors_and_infos(caplog)
        assert len(errors) == 1 and len(infos) == 1 and infos[0].startswith("The database is available again")
    finally:
        await store.close()
    # What a restart reads: exactly the two acknowledged clicks.
    fresh = Store(sqlite_db)
    try:
        game = await fresh.current_game(CHANNEL)
        assert game is not None and len(await fresh.actions(game.id or 0)) == 2
    finally:
        await fresh.close()


async def test_a_deleted_file_is_never_recreated_empty_and_a_restart_uses_the_restored_copy(
        sqlite_db: str) -> None:
    path = db_path(sqlite_db)
    copy = path.with_name("backup.db")
    store = Store(sqlite_db)
    service = GameService(store, render=False)
    try:
        await open_table(service, ALICE, BOB)
        await take(service)
        shutil.copyfile(path, copy)
        path.unlink()
        shutil.copyfile(copy, path)  # another file at the path: refused until a restart
        with pytest.raises(StoreUnavailable, match="replaced"):
            await take(service)
        path.unlink()
        await store.dispose()  # every pooled connection closed: the next command must open a new one
        with pytest.raises(StoreUnavailable, match="deleted"):
            await take(service)
        assert not path.exists(), "a new connection created an empty database in place of the lost one"
        shutil.copyfile(copy, path)
    finally:
        await store.close()
    restarted = Store(sqlite_db)
    try:
        service = GameService(restarted, render=False)
        await take(service)
        assert (await state_of(service)).counter == 8
    finally:
        await restarted.close()


def _vanish_at_next_commit(store: Store, path: Path) -> list[bool]:
    """Move the database file away as the next commit runs, on whichever engine commits it (after the guard's own
    commit check); the returned flag is [True] until that commit came."""
    armed = [True]

    def vanish(_conn: object) -> None:
        if armed[0]:
            armed[0] = False
            os.rename(path, path.with_name("gone.db"))

    for sync in store.sync_engines():
        event.listen(sync, "commit", vanish)
    return armed


@pytest.fixture
async def vanishing(sqlite_db: str) -> AsyncIterator[tuple[GameService, list[bool]]]:
    """A two-player table whose database file moves away as the next commit runs (`_vanish_at_next_commit`)."""
    store = Store(sqlite_db)
    service = GameService(store, render=False)
    try:
        await open_table(service, ALICE, BOB)
        yield service, _vanish_at_next_commit(store, db_path(sqlite_db))
    finally:
        await store.close()


async def test_a_commit_that_races_the_deletion_is_not_acknowledged(
        vanishing: tuple[GameService, list[bool]]) -> None:
    """The file goes while the commit itself runs (after the last check before it): the step landed in a file
    nothing will read again, so the store raises instead of returning, and the command counts as not applied."""
    service, armed = vanishing
    store = service.store
    with store.scope(123) as scope, pytest.raises(StoreUnavailable):
        game = await store.open_game(CHANNEL)
        assert game is not None
        await store.set_abandon_votes(game.id or 0, game.version, [1])
    assert scope.committed is False and armed == [False]


async def test_a_click_whose_commit_races_the_deletion_is_not_acknowledged(
        vanishing: tuple[GameService, list[bool]]) -> None:
    """The same for a click, whose step SQLite commits in the store's worker thread on an engine of its own:
    the file is checked after that commit too, and the click is refused, not acknowledged."""
    service, armed = vanishing
    with pytest.raises(StoreUnavailable, match="deleted or moved"):
        await take(service)
    assert armed == [False], "the click never reached its commit"


# ---- 2. a read-only folder: an error, never SIGBUS -----------------------------------------------------------

def _lock(path: Path, how: str, on: bool) -> None:
    """The database's folder and its -shm file made read-only (or writable again)."""
    locked = [name for name in (str(path.parent), str(path) + "-shm") if os.path.exists(name)]
    if how == "chattr":
        subprocess.run(["chattr", "+i" if on else "-i", *locked], check=True)
        return
    for name in locked:
        os.chmod(name, (0o555 if os.path.isdir(name) else 0o444) if on else 0o755)


def _play_through_a_read_only_folder(url: str, how: str, results: Connection) -> None:
    """In a child process (a SIGBUS kills it, not the test run): play, lock, play, unlock, play."""

    async def main() -> tuple[int, int]:
        store = Store(url)
        service = GameService(store, render=False)
        await open_table(service, ALICE, BOB, options={"start": "30"})
        for _ in range(3):
            await take(service)
        shm = os.open(str(db_path(url)) + "-shm", os.O_RDONLY)
        os.fsync(shm)  # its pages written back, so write-protected: the next write to one faults
        os.close(shm)
        _lock(db_path(url), how, True)
        refused = 0
        try:
            for _ in range(3):
                try:
                    await take(service)
                except StoreUnavailable:
                    refused += 1
        finally:
            _lock(db_path(url), how, False)
        for _ in range(3):
            await take(service)
        counter = (await state_of(service)).counter
        await store.close()
        return refused, counter

    results.send(asyncio.run(main()))
    results.close()


def _lock_method(tmp_path: Path) -> str:
    """chattr +i (works for root, whom mode bits do not stop), else chmod for an ordinary user."""
    probe = tmp_path / "probe"
    probe.write_text("x")
    if shutil.which("chattr") and subprocess.run(["chattr", "+i", str(probe)], capture_output=True).returncode == 0:
        subprocess.run(["chattr", "-i", str(probe)], check=True)
        return "chattr"
    if os.geteuid() != 0:
        return "chmod"
    pytest.skip("running as root where chattr +i is not supported: a read-only folder cannot be enforced")


def test_a_read_only_folder_refuses_clicks_without_killing_the_process(sqlite_db: str, tmp_path: Path) -> None:
    """Before: the next write after the folder and its -shm went read-only died of SIGBUS (exit -7) inside
    SQLite's mapped WAL index. Now those clicks are refused and the game plays on once it is writable."""
    how = _lock_method(tmp_path)
    receive, send = multiprocessing.Pipe(duplex=False)
    # fork: the child needs no imports of its own (a fresh interpreter would spend seconds on them)
    child = multiprocessing.get_context("fork").Process(target=_play_through_a_read_only_folder,
                                                        args=(sqlite_db, how, send))
    child.start()
    send.close()
    child.join(60)
    try:
        assert child.exitcode == 0, f"the process died of signal {-(child.exitcode or 0)} ({how})"
        assert receive.recv() == (3, 24)  # 3 refused while read-only; 30 - 3 - 3 taken before and after
    finally:
        _lock(db_path(sqlite_db), how, False)


async def test_sqlite_never_maps_the_database_file(sqlite_db: str) -> None:
    store = Store(sqlite_db)
    try:
        async with store.engine.connect() as conn:
            assert (await conn.execute(text("PRAGMA mmap_size"))).scalar_one() == 0
    finally:
        await store.close()


# ---- 3. a full disk, an outage told as an outage --------------------------------------------------------------

async def test_a_full_disk_is_an_outage_and_the_game_plays_on_after_it(
        sqlite_db: str, caplog: pytest.LogCaptureFixture) -> None:
    """SQLite's 'database or disk is full' (here: its page limit reached, the error a full disk gives) refuses
    clicks as an outage, and the next write after space is back ends it."""
    caplog.set_level(logging.INFO, logger="bot.store.db")
    store = Store(sqlite_db)
    # a snapshot kept every step, so each step needs new pages (a step without one writes so little that many
    # fit in the free space of the pages they write to)
    service = GameService(store, render=False, snapshot_every=1)
    try:
        await open_table(service, ALICE, BOB, options={"start": "30"})
        await take(service)
        async with store.engine.connect() as conn:
            pages = (await conn.execute(text("PRAGMA page_count"))).scalar_one()
        limit = [pages]

        def cap(dbapi_connection: object, _record: object) -> None:
            dbapi_connection.execute(f"PRAGMA max_page_count={limit[0]}")  # type: ignore[attr-defined]

        await store.dispose()
        for sync in store.sync_engines():
            event.listen(sync, "connect", cap)
        async with store.engine.begin() as conn:  # what else shares the disk takes the space left
            await conn.execute(text("CREATE TABLE filler (blob BLOB)"))
        with pytest.raises(OperationalError, match="full"):
            for _ in range(10_000):
                async with store.engine.begin() as conn:
                    await conn.execute(text("INSERT INTO filler VALUES (zeroblob(1000))"))
        failed = 0
        for _ in range(12):  # a take or two may still fit in the slack of the pages it writes to
            try:
                await take(service)
            except OperationalError as exc:
                assert is_outage(exc), repr(exc)
                failed += 1
        assert failed >= 3, failed
        limit[0] = 1_000_000
        await store.dispose()
        await take(service)
        assert (await state_of(service)).counter == 30 - 1 - (12 - failed) - 1
        # A take that still fitted ends the outage, the next refused one starts another: one line each, and
        # none per refused click beyond that.
        errors, infos = errors_and_infos(caplog)
        assert 1 <= len(errors) == len(infos) <= failed
        assert all("database or disk is full" in line for line in errors)
        assert not [r for r in caplog.records if r.exc_info]
    finally:
        await store.close()


def _interaction(sent: list[tuple[str, bool]]) -> SimpleNamespace:
    async def send_message(text: str, ephemeral: bool) -> None:
        sent.append((text, ephemeral))

    response = SimpleNamespace(is_done=lambda: False, send_message=send_message)
    return SimpleNamespace(type=discord.InteractionType.component, id=42, extras={}, user=SimpleNamespace(id=1),
                           channel_id=2, command=None, data={"custom_id": "x"}, response=response)


def _dbapi_error(message: str) -> OperationalError:
    import sqlite3

    return OperationalError("INSERT INTO action ...", {}, sqlite3.OperationalError(message))


async def test_players_are_told_the_storage_is_unavailable_and_the_log_gets_one_line(
        caplog: pytest.LogCaptureFixture) -> None:
    """Before: 'Something went wrong; nothing was changed (ref …)' and an ERROR with a traceback per click."""
    caplog.set_level(logging.DEBUG)
    sent: list[tuple[str, bool]] = []
    for message in ("database or disk is full", "disk I/O error", "attempt to write a readonly database"):
        await report_error(_interaction(sent), _dbapi_error(message))
    await report_error(_interaction(sent), StoreUnavailable("the database file is gone"))
    assert sent == [(UNAVAILABLE, True)] * 4
    assert UNAVAILABLE == "The table's storage is unavailable right now; nothing was changed — try again in a moment."
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and errors[0].exc_info is None
    assert "database or disk is full" in errors[0].getMessage()


async def test_a_bug_is_still_a_bug() -> None:
    """Not every database error is an outage: a constraint our code broke, or a missing table, is a bug."""
    import sqlite3

    assert not is_outage(IntegrityError("INSERT", {}, sqlite3.IntegrityError("UNIQUE constraint failed")))
    assert not is_outage(_dbapi_error("no such table: game"))
    assert not is_outage(StoreBusy("busy"))
    assert not is_outage(TimeoutError("a Discord request timed out"))  # not raised inside the database stack
    assert is_outage(_dbapi_error("unable to open database file"))


def test_an_outage_logs_its_start_and_its_end_once(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="bot.store.db")
    now = [100.0]
    outage = Outage(clock=lambda: now[0])
    outage.recovered()  # nothing to end
    for _ in range(150):
        outage.failed("connection refused")
    now[0] = 112.5
    outage.recovered()
    outage.recovered()
    errors, infos = errors_and_infos(caplog)
    assert errors == ["The database is unavailable: connection refused. Commands are refused (nothing is "
                      "written) and players are told to try again until it is back."]
    assert infos == ["The database is available again after 12.5 s (150 writes refused in between; the cause was: "
                     "connection refused)."]


async def test_a_postgres_that_refuses_connections_is_an_outage() -> None:
    """Before: 148 raw 'connection refused' apologies with tracebacks in a 12-second outage. The refusal
    reaches the bot as a bare ConnectionRefusedError (SQLAlchemy does not wrap it): still an outage."""
    store = Store("postgresql+asyncpg://miskatonic:secret@127.0.0.1:1/none")
    try:
        with pytest.raises(OSError) as refused:
            await store.get_game(1)
        assert is_outage(refused.value)
    finally:
        await store.close()


# ---- 3b. a network that stops answering (PostgreSQL) ---------------------------------------------------------

class StallingProxy:
    """A TCP proxy on loopback that forwards until `stall()`; then it keeps every socket open and silent."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.stalled = False
        self.server: asyncio.Server | None = None
        self.port = 0

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._client, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.stalled:
            await asyncio.sleep(3600)  # accepted, never answered: a connect that hangs
            return
        up_reader, up_writer = await asyncio.open_connection(*self.target)

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            while data := await src.read(65536):
                while self.stalled:  # swallow: the peer waits for an answer that never comes
                    await asyncio.sleep(3600)
                dst.write(data)
                await dst.drain()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer), return_exceptions=True)

    def stall(self) -> None:
        self.stalled = True

    async def stop(self) -> None:
        if self.server is not None:
            self.server.close()


@pytest.fixture
async def proxy(pg_migrated: str) -> AsyncIterator[tuple[StallingProxy, str]]:
    url = make_url(pg_migrated)
    proxy = StallingProxy(url.host or "127.0.0.1", url.port or 5432)
    await proxy.start()
    yield proxy, url.set(host="127.0.0.1", port=proxy.port).render_as_string(hide_password=False)
    await proxy.stop()


@pytest.mark.postgres
async def test_a_postgres_that_stops_answering_times_out_within_seconds(
        proxy: tuple[StallingProxy, str]) -> None:
    """Before: a query on a silent connection waited forever (asyncpg has no timer of its own by default), and
    so did the channel lock it held. Now the statement gives up after the command timeout, a new connection
    after the connect timeout, and both are outages."""
    stalling, url = proxy
    engine = make_engine(url, connect_timeout_s=1.0, command_timeout_s=1.0, pool_timeout_s=1.0)
    try:
        async with engine.connect() as conn:
            assert (await conn.execute(text("SELECT 1"))).scalar_one() == 1
        stalling.stall()
        for what in ("a query on a pooled connection", "a new connection"):
            started = time.monotonic()
            with pytest.raises(Exception) as caught:  # noqa: PT011 - the kind is checked just below
                async with engine.connect() as conn:
                    await conn.execute(text("SELECT 1"))
            assert is_outage(caught.value), (what, repr(caught.value))
            assert time.monotonic() - started < 4, what
            await engine.dispose()
    finally:
        await engine.dispose()

