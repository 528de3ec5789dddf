"""`Store`: the async repository. Every write is one short transaction; every write to a game goes through
an optimistic version check (`UPDATE game ... WHERE id = ? AND version = ?`), so two bot processes sharing
one PostgreSQL can never both apply an action to the same state.

Inside `Store.scope(interaction_id)` (the service opens one per command) the first write that commits also
records the interaction id, in the same transaction: a repeated interaction is refused by the database itself
(DuplicateInteraction), whatever the command, and `scope.committed` tells the caller whether anything was
written (so an error after it is never reported as "nothing changed"). A click's step records it once, in
its action row (whose interaction id is UNIQUE); any other write, in `processed_interaction`.

A game step (`commit_step`, the only write of a click) on a SQLite file is one synchronous call in the store's
worker thread, on an engine of its own over the same file (`db.make_commit_engine`): the async driver hands
every statement, BEGIN and COMMIT over to its thread and back to the event loop, which cost a click more than
its SQL. The write lock serialises it with the other writers; the transaction, the version check, the
interaction's claim, the file guard and the busy and outage handling are the same, as are the statements
(PostgreSQL runs them on its async connection). Every other write, and every read, stays async.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import math
import re
import threading
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractAsyncContextManager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import (
    Integer,
    String,
    and_,
    bindparam,
    case,
    cast,
    delete,
    exists,
    func,
    insert,
    literal,
    null,
    or_,
    update,
)
from sqlalchemy import select as sa_select
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.orm import aliased
from sqlalchemy.sql.functions import FunctionElement
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.store.db import (
    DEFAULT_LOCK_TIMEOUT_MS,
    DEFAULT_STATEMENT_TIMEOUT_MS,
    committed,
    is_sqlite,
    make_commit_engine,
    make_engine,
    make_sessions,
)
from bot.store.errors import ChannelBusy, DuplicateInteraction, StoreBusy, VersionConflict
from bot.store.models import (
    ACTIVE,
    ENDED,
    LOBBY,
    OVER,
    ActionRecord,
    ActionRow,
    AuditLog,
    Campaign,
    Game,
    GameEvent,
    GuildSettings,
    ProcessedInteraction,
    Seat,
    Section,
    SectionRecord,
    Snapshot,
    UTCDateTime,
    utcnow,
)
from engine.core.events import Event

CLOSED_STATUSES = (OVER, ENDED)


@functools.cache
def _fresh_action() -> Any:
    """INSERT an action row unless its interaction id was already processed: built once (a click runs it)."""
    table = ActionRow.__table__  # type: ignore[attr-defined]
    names = ("game_id", "seq", "actor_id", "seat", "kind", "payload", "interaction_id", "created_at")
    params = {name: bindparam(name, type_=table.c[name].type) for name in names}
    fresh = (sa_select(*params.values())
             .where(~exists().where(col(ProcessedInteraction.interaction_id) == params["interaction_id"])))
    return insert(ActionRow).from_select(list(names), fresh)


class _Keep:
    """Marker for "leave this column as it is" where None is a meaningful value."""


KEEP: Any = _Keep()


async def _core(s: AsyncSession, stmt: Any) -> Any:
    """Run an INSERT or UPDATE as plain SQL on the session's connection (in its transaction): the ORM's
    handling of a statement on a mapped table (synchronising objects it holds, which a step's writes never
    need) costs more than the statement itself."""
    return await (await s.connection()).execute(stmt)


# ---- a game step's statements --------------------------------------------------------------------------
#
# Synchronous functions of a Connection in its transaction: SQLite runs them in the store's commit thread on
# a synchronous engine, PostgreSQL on its async connection (`AsyncConnection.run_sync`): the same statements
# in the same order on both.

# How a step's version bump sets a column from the row itself rather than to a value:
_REOPENED = "reopened"  # active_channel_id = channel_id: the game is open in its channel again
_STARTED = "started"  # started_at = coalesce(started_at, :now): the first start is kept
_WAITING = "waiting"  # waiting_since = :now only if prompt_seq changes: the reminder clock restarts


@functools.cache
def _step_bump(plain: tuple[str, ...], derived: tuple[str, ...]) -> Any:
    """The optimistic version check that writes the step into the game's row: it moves on only from
    `:expected_version`. `plain` columns are set to `:set_<name>`. Built once for each shape: building a
    statement costs a step more than running it."""
    table = Game.__table__  # type: ignore[attr-defined]
    now = bindparam("now", type_=table.c.updated_at.type)
    values: dict[str, Any] = {"version": bindparam("new_version", type_=table.c.version.type), "updated_at": now}
    values.update({name: bindparam(f"set_{name}", type_=table.c[name].type) for name in plain})
    if _REOPENED in derived:
        values["active_channel_id"] = table.c.channel_id
    if _STARTED in derived:
        values["started_at"] = func.coalesce(table.c.started_at, now)
    if _WAITING in derived:
        values["waiting_since"] = case((table.c.prompt_seq == values["prompt_seq"], table.c.waiting_since),
                                       else_=now)
    return (update(table).where(table.c.id == bindparam("game_id", type_=table.c.id.type),
                                table.c.version == bindparam("expected_version", type_=table.c.version.type))
            .values(values))


@functools.cache
def _step_statements() -> dict[str, Any]:
    """The other statements of a step, built once (values bound when run)."""
    game, snapshot, action = (Game.__table__, Snapshot.__table__,  # type: ignore[attr-defined]
                              ActionRow.__table__)  # type: ignore[attr-defined]
    event, section = GameEvent.__table__, Section.__table__  # type: ignore[attr-defined]
    game_id = bindparam("game_id", type_=game.c.id.type)
    pruned = delete(snapshot).where(snapshot.c.game_id == game_id,
                                    snapshot.c.step < bindparam("below", type_=snapshot.c.step.type))
    return {
        # the head is copied from the row the bump just wrote: the state crosses to the database once
        "snapshot": insert(snapshot).from_select(
            ["game_id", "step", "state", "keep", "created_at"],
            sa_select(game.c.id, game.c.state_step, game.c.head, literal(True), game.c.updated_at)
            .where(game.c.id == game_id)),
        "prune": pruned.where(snapshot.c.step > 0),
        "prune_all": pruned,
        "last_seq": sa_select(func.max(action.c.seq)).where(action.c.game_id == game_id),
        "last_idx": sa_select(func.max(event.c.idx)).where(
            event.c.game_id == game_id, event.c.step == bindparam("step", type_=event.c.step.type)),
        "action": insert(action),
        "events": insert(event),
        "claim": insert(ProcessedInteraction.__table__),  # type: ignore[attr-defined]
        "new_section": insert(section).returning(section.c.id),
        "section": update(section).where(section.c.id == bindparam("section_id", type_=section.c.id.type))
        .values({name: bindparam(f"set_{name}", type_=section.c[name].type) for name in SERVICE_COLUMNS}),
    }


@dataclass(frozen=True)
class _Plain:
    """One of a step's statements compiled once for SQLite: its SQL text and, for each of its values in order,
    where it comes from and how it is turned into what the driver takes (the column types' own bind
    processors): (the parameter's name, its processor, None), or (None, None, the value the statement itself
    holds, already processed), such as a literal."""

    sql: str
    slots: tuple[tuple[str | None, Callable[[Any], Any] | None, Any], ...]

    def values(self, params: dict[str, Any]) -> tuple[Any, ...]:
        return tuple(fixed if key is None else params[key] if process is None else process(params[key])
                     for key, process, fixed in self.slots)


_PLAIN: dict[tuple[Any, tuple[str, ...]], _Plain | None] = {}
_PLAIN_LOCK = threading.Lock()


def _plain(stmt: Any, keys: tuple[str, ...], dialect: Any) -> _Plain | None:
    """`stmt` as a `_Plain` for values named `keys`, or None where SQLAlchemy must fill in values itself
    (column defaults computed in Python, values fetched after the statement)."""
    key = (stmt, keys)
    if key in _PLAIN:
        return _PLAIN[key]
    compiled = stmt.compile(dialect=dialect, column_keys=list(keys))
    order = tuple(compiled.positiontup or ())
    plain = None
    # values SQLAlchemy computes in Python before running the statement (column defaults); values the database
    # computes itself (a CASE, a default of its own) need nothing from us
    fills_in = (getattr(compiled, name, None) for name in ("insert_prefetch", "update_prefetch"))
    if not any(fills_in) and (order or not keys):
        slots = []
        for name in order:
            bind = compiled.binds[name]
            process = _bind_processor(bind.type, dialect)
            if bind.key in keys:
                slots.append((bind.key, process, None))
            elif bind.required or bind.callable is not None or bind.expanding:
                break  # a value only SQLAlchemy knows how to find
            else:
                slots.append((None, None, bind.value if process is None else process(bind.value)))
        else:
            plain = _Plain(sql=compiled.string, slots=tuple(slots))
    with _PLAIN_LOCK:
        _PLAIN[key] = plain
    return plain


def _bind_processor(sa_type: Any, dialect: Any) -> Callable[[Any], Any] | None:
    """How SQLAlchemy turns a value of `sa_type` into the driver's (the type as this dialect implements it)."""
    process: Callable[[Any], Any] | None = sa_type.dialect_impl(dialect).bind_processor(dialect)
    return process


def _run(conn: Connection, stmt: Any, params: dict[str, Any] | list[dict[str, Any]]) -> Any:
    """Run one of a step's statements. On SQLite, as its SQL text compiled once (`_plain`), through the
    connection's driver-level call: the same statement, values and events (the file guard, the fault tests'
    hooks) as `conn.execute`, without SQLAlchemy's per-statement work of finding the compiled form and binding
    the values, which cost a click as much as SQLite's own work (measured in the commit thread: ~60–100 µs a
    statement of ~400). What a step reads back is whole numbers (a max, a new row's id), which need no result
    processing. Elsewhere (PostgreSQL) `conn.execute` itself."""
    if conn.dialect.name != "sqlite":
        return conn.execute(stmt, params)
    rows = params if isinstance(params, list) else [params]
    plain = _plain(stmt, tuple(rows[0]), conn.dialect)
    if plain is None:
        return conn.execute(stmt, params)
    if isinstance(params, list):
        return conn.exec_driver_sql(plain.sql, [plain.values(row) for row in rows])
    return conn.exec_driver_sql(plain.sql, plain.values(params))


def _write_step(conn: Connection, *, game_id: int, expected_version: int, values: dict[str, Any],
                derived: tuple[str, ...], action_row: ActionRecord | None, new_step: bool, step: int, now: datetime,
                snapshot: bool, prune_below: int | None, prune_keeps_start: bool, events: Sequence[Event],
                sections: Sequence[SectionRecord], campaign: CampaignWrite | None, scope: WriteScope | None) -> bool:
    """Every statement of `Store.commit_step`; returns whether its action row carries the scope's interaction
    id (then the interaction needs no `processed_interaction` row)."""
    statements = _step_statements()
    bump = _step_bump(tuple(values), derived)
    params = {"game_id": game_id, "expected_version": expected_version, "new_version": expected_version + 1,
              "now": now, **{f"set_{name}": value for name, value in values.items()}}
    try:
        if _run(conn, bump, params).rowcount != 1:
            raise VersionConflict(f"game {game_id} is no longer at version {expected_version}")
    except IntegrityError as exc:
        raise ChannelBusy("This channel already has another game.") from exc
    claimed = False
    if action_row is not None:
        if new_step:
            seq = step
        else:
            seq = (_run(conn, statements["last_seq"], {"game_id": game_id}).scalar() or 0) + 1
        action_row.game_id, action_row.seq, action_row.created_at = game_id, seq, now
        _insert_action(conn, action_row, scope)
        claimed = scope is not None and scope.interaction_id is not None \
            and scope.interaction_id == action_row.interaction_id
    if snapshot:
        _run(conn, statements["snapshot"], {"game_id": game_id})
    if prune_below is not None:
        _run(conn, statements["prune" if prune_keeps_start else "prune_all"],
                     {"game_id": game_id, "below": prune_below})
    if events:
        base = 0
        if not new_step:
            first = _run(conn, statements["last_idx"], {"game_id": game_id, "step": step}).scalar()
            base = 0 if first is None else first + 1
        # one statement run for each row (executemany): compiled once, whatever the number of rows
        _run(conn, statements["events"], [
            {"game_id": game_id, "step": step, "idx": base + i, "kind": e.kind, "text": e.text,
             "seat": e.seat, "private_to": e.private_to, "cause": e.cause}
            for i, e in enumerate(events)
        ])
    _write_sections(conn, sections)
    if campaign is not None:
        _write_campaign(conn, campaign)
    return claimed


def _insert_action(conn: Connection, row: ActionRecord, scope: WriteScope | None) -> None:
    """Log `row`. With an interaction id, the same statement refuses one already processed (a click that was
    undone, or any other command's): the caller need not read before it writes. A repeat of an action still
    in the log is refused by the column's UNIQUE constraint."""
    values = {"game_id": row.game_id, "seq": row.seq, "actor_id": row.actor_id, "seat": row.seat,
              "kind": row.kind, "payload": row.payload, "interaction_id": row.interaction_id,
              "created_at": row.created_at}
    earlier = scope is not None and scope.committed and scope.interaction_id == row.interaction_id
    if row.interaction_id is None or earlier:  # (an earlier write of this very command recorded the id)
        _run(conn, _step_statements()["action"], values)
        return
    if _run(conn, _fresh_action(), values).rowcount != 1:
        raise DuplicateInteraction(str(row.interaction_id))


def _claim_sync(conn: Connection, interaction_id: int) -> None:
    """`Store._claim` on a plain connection (nothing of the command's is pending in a session)."""
    try:
        conn.execute(_step_statements()["claim"], {"interaction_id": interaction_id, "created_at": utcnow()})
    except IntegrityError as exc:
        raise DuplicateInteraction(str(interaction_id)) from exc


SERVICE_COLUMNS = ("lines", "marked", "closed", "board", "end_step", "image", "awaited", "pings", "rev")


_SECTION_NAMES = tuple(c.name for c in Section.__table__.columns if c.name != "id")  # type: ignore[attr-defined]


@functools.cache
def _upsert_sections(dialect: str, rows: int) -> Any:
    """INSERT `rows` sections in one statement; a known one (same game and number) updates its service columns
    instead. Its values are bound by name (`<column>_<row>`), so the statement is built and compiled once for
    each number of rows, not on every step."""
    table = Section.__table__  # type: ignore[attr-defined]
    upsert = postgresql_insert(table) if dialect == "postgresql" else sqlite_insert(table)
    upsert = upsert.values([{name: bindparam(f"{name}_{i}", type_=table.c[name].type) for name in _SECTION_NAMES}
                            for i in range(rows)])
    stmt = upsert.on_conflict_do_update(index_elements=["game_id", "number"],
                                        set_={name: upsert.excluded[name] for name in SERVICE_COLUMNS})
    return stmt.returning(table.c.id, table.c.number)


def _write_sections(conn: Connection, sections: Sequence[SectionRecord]) -> None:
    """Insert new sections and update the service's columns of known ones (never the front end's).

    Several sections (a step that closes one and begins the next) go in one statement: an insert whose
    known rows, found by (game, number), update their service columns instead."""
    if len(sections) > 1:
        values = {f"{name}_{i}": getattr(section, name)
                  for i, section in enumerate(sections) for name in _SECTION_NAMES}
        ids = {number: section_id for section_id, number in
               _run(conn, _upsert_sections(conn.dialect.name, len(sections)), values).all()}
        for section in sections:
            if section.id is None:
                section.id = ids[section.number]
        return
    for section in sections:
        if section.id is None:
            values = {name: getattr(section, name) for name in _SECTION_NAMES}
            section.id = _run(conn, _step_statements()["new_section"], values).scalar_one()
        else:
            values = {f"set_{name}": getattr(section, name) for name in SERVICE_COLUMNS}
            _run(conn, _step_statements()["section"], {"section_id": section.id, **values})


def _write_campaign(conn: Connection, write: CampaignWrite) -> None:
    values: dict[str, Any] = {"data": write.data, "version": write.expected_version + 1}
    if write.close:
        values.update(closed_at=utcnow(), open_channel_id=None)
    stmt = (update(Campaign).where(col(Campaign.id) == write.campaign_id,
                                   col(Campaign.version) == write.expected_version).values(**values))
    if conn.execute(stmt).rowcount != 1:
        raise VersionConflict(f"campaign {write.campaign_id} is no longer at version {write.expected_version}")


def seat_name(name: str, nth: int) -> str:
    """A user's first seat carries their name; their extra seats (multi-handed play) are "name #2" ..."""
    return name if nth <= 1 else f"{name} #{nth}"


def _pages(total: int, per_page: int) -> int:
    return max(1, math.ceil(total / per_page))


# PostgreSQL: lock_not_available (lock_timeout), query_canceled (statement_timeout). SQLite: SQLITE_BUSY
# after busy_timeout.
BUSY_SQLSTATES = {"55P03", "57014"}
BUSY_SQLITE = ("database is locked", "database table is locked")


def is_busy(exc: DBAPIError) -> bool:
    if getattr(exc.orig, "sqlstate", None) in BUSY_SQLSTATES:
        return True
    return any(words in str(exc.orig) for words in BUSY_SQLITE)


@dataclass
class WriteScope:
    """One command's writes: the interaction to record with the first of them, and whether any committed."""

    interaction_id: int | None = None
    committed: bool = False


_SCOPE: ContextVar[WriteScope | None] = ContextVar("miskatonic_write_scope", default=None)
# A session's `info` key: its transaction's action row carries the scope's interaction id, which therefore
# needs no `processed_interaction` row of its own (the action's UNIQUE column refuses a repeat as well).
_CLAIMED_BY_ACTION = "claimed_by_action"


@dataclass
class CampaignWrite:
    """A campaign row's new `data`, written only if the row is still at `expected_version` (VersionConflict
    otherwise); `close` closes the campaign (the channel may then open another). Used alone (`save_campaign`)
    or inside a game step's transaction (`commit_step`: a scenario's outcome folded into its campaign)."""

    campaign_id: int
    expected_version: int
    data: dict[str, Any]
    close: bool = False


class Store:
    def __init__(self, url: str, *, echo: bool = False, synchronous: str = "FULL",
                 lock_timeout_ms: int = DEFAULT_LOCK_TIMEOUT_MS,
                 statement_timeout_ms: int = DEFAULT_STATEMENT_TIMEOUT_MS) -> None:
        self.url = url
        self.engine: AsyncEngine = make_engine(url, echo=echo, synchronous=synchronous,
                                               lock_timeout_ms=lock_timeout_ms,
                                               statement_timeout_ms=statement_timeout_ms)
        self._sessions = make_sessions(self.engine)
        # SQLite takes one writer at a time: queueing this process's writers on a lock, instead of letting them
        # spin in SQLite's busy timeout, keeps the latency tail short when several tables play at once.
        self._write_lock: AbstractAsyncContextManager[Any] = (
            asyncio.Lock() if is_sqlite(url) else contextlib.nullcontext())
        # A SQLite file's game steps: one synchronous call in one worker thread each (`commit_step`).
        self._commit_engine: Engine | None = make_commit_engine(self.engine, synchronous=synchronous,
                                                                lock_timeout_ms=lock_timeout_ms)
        self._committer: ThreadPoolExecutor | None = None  # started by the first step

    def sync_engines(self) -> list[Engine]:
        """Every engine that sends this store's statements (the async engine's synchronous core, and on a
        SQLite file the game steps' own engine): where an event listener goes to see them all."""
        return [self.engine.sync_engine, *([self._commit_engine] if self._commit_engine is not None else [])]

    async def dispose(self) -> None:
        """Close every pooled connection; the next statement opens a new one."""
        await self.engine.dispose()
        if self._commit_engine is not None:
            self._commit_engine.dispose()

    async def close(self) -> None:
        await self.dispose()
        if self._committer is not None:
            self._committer.shutdown(wait=False)
            self._committer = None

    def session(self) -> AsyncSession:
        return self._sessions()

    @contextlib.contextmanager
    def scope(self, interaction_id: int | None = None) -> Iterator[WriteScope]:
        """Group one command's writes (see the module docstring)."""
        scope = WriteScope(interaction_id)
        token = _SCOPE.set(scope)
        try:
            yield scope
        finally:
            _SCOPE.reset(token)

    @contextlib.asynccontextmanager
    async def _writing(self) -> AsyncIterator[AsyncSession]:
        scope = _SCOPE.get()
        try:
            async with self._write_lock, self.session() as s:
                async with s.begin():
                    yield s
                    if scope is not None and scope.interaction_id is not None and not scope.committed \
                            and not s.info.get(_CLAIMED_BY_ACTION):
                        await self._claim(s, scope.interaction_id)
                if scope is not None:
                    scope.committed = True
        except DBAPIError as exc:
            if is_busy(exc):
                raise StoreBusy("the database is busy") from exc
            raise

    @staticmethod
    async def _claim(s: AsyncSession, interaction_id: int) -> None:
        await s.flush()  # the command's own rows first, so their errors are not mistaken for a duplicate
        s.add(ProcessedInteraction(interaction_id=interaction_id, created_at=utcnow()))
        try:
            await s.flush()
        except IntegrityError as exc:
            raise DuplicateInteraction(str(interaction_id)) from exc

    async def interaction_seen(self, interaction_id: int) -> bool:
        """Whether this interaction already changed something: a step it caused (its action row) or any other
        write (`processed_interaction`); one statement."""
        stmt: Any = sa_select(or_(
            exists().where(col(ProcessedInteraction.interaction_id) == interaction_id),
            exists().where(col(ActionRow.interaction_id) == interaction_id)))
        async with self.session() as s:
            return bool((await s.exec(stmt)).scalar())

    async def prune_interactions(self, before: datetime) -> int:
        """Forget processed interactions older than `before` (Discord never redelivers them that late)."""
        stmt = delete(ProcessedInteraction).where(col(ProcessedInteraction.created_at) < before)
        async with self._writing() as s:
            return (await s.exec(stmt)).rowcount

    # ---- games -----------------------------------------------------------------------------------------

    async def create_game(
        self, *, guild_id: int, channel_id: int, game_type: str, seed: int, options: dict[str, Any],
        created_by: int, content_version: str = "", campaign_id: int | None = None,
        creator_name: str | None = None, creator_character: str | None = None,
        more_seats: Sequence[tuple[int, str, str | None]] = (),
    ) -> Game:
        """A new game in the lobby, with its creator in seat 0 when `creator_name` is given, and then
        `more_seats` ((user id, name, character) each, in seat order) in the same transaction.

        ChannelBusy if the channel already has an open game.
        """
        game = Game(guild_id=guild_id, channel_id=channel_id, active_channel_id=channel_id,
                    game_type=game_type, seed=seed, options=options, created_by=created_by,
                    content_version=content_version, campaign_id=campaign_id, status=LOBBY)
        try:
            async with self._writing() as s:
                s.add(game)
                await s.flush()
                if creator_name is not None:
                    assert game.id is not None
                    s.add(Seat(game_id=game.id, seat=0, user_id=created_by, name=creator_name,
                               character=creator_character))
                for n, (user_id, name, character) in enumerate(more_seats, start=1):
                    assert game.id is not None
                    s.add(Seat(game_id=game.id, seat=n, user_id=user_id, name=name, character=character))
        except IntegrityError as exc:
            raise ChannelBusy("This channel already has a game.") from exc
        return game

    async def get_game(self, game_id: int) -> Game | None:
        async with self.session() as s:
            return await s.get(Game, game_id)

    async def open_game(self, channel_id: int) -> Game | None:
        """The channel's game in the lobby or in play, if any."""
        async with self.session() as s:
            return (await s.exec(select(Game).where(Game.active_channel_id == channel_id))).first()

    async def channels_awaiting_ai(self) -> list[int]:
        """The channels of games in play that seat an AI teammate (negative user id): after a restart, their
        AI seats take up where they were."""
        stmt = (select(Game.channel_id).join(Seat, col(Seat.game_id) == col(Game.id))
                .where(Game.status == ACTIVE, col(Seat.user_id) < 0).distinct())
        async with self.session() as s:
            return [int(c) for c in (await s.exec(stmt)).all()]

    async def current_game(self, channel_id: int) -> Game | None:
        """The open game, else the channel's most recent one (so a finished game can still be read)."""
        async with self.session() as s:
            game = (await s.exec(select(Game).where(Game.active_channel_id == channel_id))).first()
            if game is not None:
                return game
            stmt = select(Game).where(Game.channel_id == channel_id).order_by(col(Game.id).desc()).limit(1)
            return (await s.exec(stmt)).first()

    async def _bump(self, s: AsyncSession, game_id: int, expected_version: int, **values: Any) -> None:
        stmt = (update(Game).where(col(Game.id) == game_id, col(Game.version) == expected_version)
                .values(**{"version": expected_version + 1, "updated_at": utcnow(), **values}))
        if (await _core(s, stmt)).rowcount != 1:
            raise VersionConflict(f"game {game_id} is no longer at version {expected_version}")

    # ---- seats (lobby) ---------------------------------------------------------------------------------

    async def seats(self, game_id: int) -> list[Seat]:
        async with self.session() as s:
            return await self._seats(s, game_id)

    @staticmethod
    async def _seats(s: AsyncSession, game_id: int) -> list[Seat]:
        stmt = select(Seat).where(Seat.game_id == game_id).order_by(col(Seat.seat))
        return list((await s.exec(stmt)).all())

    async def add_seat(self, game_id: int, expected_version: int, *, user_id: int, name: str,
                       character: str | None = None) -> Seat:
        async with self._writing() as s:
            await self._bump(s, game_id, expected_version)
            count = len(await self._seats(s, game_id))
            seat = Seat(game_id=game_id, seat=count, user_id=user_id, name=name, character=character)
            s.add(seat)
        return seat

    async def remove_seats(self, game_id: int, expected_version: int, user_id: int, *,
                           only_last: bool) -> int:
        """Remove the user's last seat (or all of them) and close the gap: engine seats must be 0..n-1."""
        async with self._writing() as s:
            await self._bump(s, game_id, expected_version)
            seats = await self._seats(s, game_id)
            mine = [seat for seat in seats if seat.user_id == user_id]
            gone = mine[-1:] if only_last else mine
            for seat in gone:
                await s.delete(seat)
            await s.flush()
            # Renumber upwards, one row at a time, so the unique (game_id, seat) never sees a duplicate.
            gone_ids = {seat.id for seat in gone}
            for number, seat in enumerate(seat for seat in seats if seat.id not in gone_ids):
                if seat.seat != number:
                    seat.seat = number
                    await s.flush()
        return len(gone)

    async def reassign_seats(self, game_id: int, expected_version: int, from_user: int, to_user: int,
                             to_name: str) -> list[int]:
        """Hand every seat of `from_user` to `to_user`; returns the seat numbers moved.

        The seats are renamed after their new owner ("carol", then "carol #2" ...), as /game join names them.
        """
        async with self._writing() as s:
            await self._bump(s, game_id, expected_version)
            seats = await self._seats(s, game_id)
            held = sum(1 for seat in seats if seat.user_id == to_user)
            moved = [seat for seat in seats if seat.user_id == from_user]
            for seat in moved:
                held += 1
                seat.user_id, seat.name = to_user, seat_name(to_name, held)
            return [seat.seat for seat in moved]

    async def hand_seats(self, game_id: int, expected_version: int,
                         changes: Sequence[tuple[int, int, str]]) -> None:
        """Hand seats over, one transaction: each (seat number, new user id, new name). An AI teammate's seat
        goes to a person this way, or a person's to an AI teammate; each seat's character stays."""
        async with self._writing() as s:
            await self._bump(s, game_id, expected_version)
            rows = {r.seat: r for r in await self._seats(s, game_id)}
            for seat, user_id, name in changes:
                rows[seat].user_id, rows[seat].name = user_id, name

    async def set_abandon_votes(self, game_id: int, expected_version: int, votes: list[int]) -> None:
        async with self._writing() as s:
            await self._bump(s, game_id, expected_version, abandon_votes=votes)

    # ---- the game step ---------------------------------------------------------------------------------

    async def commit_step(
        self,
        game_id: int,
        expected_version: int,
        action_row: ActionRecord | None,
        state_json: str | None,
        events: Sequence[Event],
        new_status: str | None = None,
        result: str | None = None,
        *,
        step: int,
        prompt_seq: int | None = KEEP,
        content_version: str | None = None,
        now: datetime | None = None,
        keep_snapshot: bool = True,
        clear_head: bool = False,
        prune_snapshots_below: int | None = None,
        prune_keeps_start: bool = True,
        sections: Sequence[SectionRecord] = (),
        campaign: CampaignWrite | None = None,
        new_step: bool = False,
    ) -> int:
        """Write one step in ONE transaction; returns the new version.

        `new_step`: the step did not exist before (an action's): its action row is numbered `step` (the log's
        seq is the step the action leads to, as replays count it) and its events begin at 0, so nothing is
        read back inside the transaction. A click's step is then four statements: the version bump (which
        writes the head state `state_json` into the game's row), the action, the events, and the section it
        changed (and a kept snapshot when one is due, a new section when one begins).

        `sections` are the channel sections the step changed (bot/store/models.py `Section`): written in the
        same transaction, so what the channel must show never lags behind what was committed. `campaign`, the
        same way: the game's campaign record as this step leaves it (bot/campaigns.py folds a finished scenario).

        `state_json` becomes the game's head (`Game.head`); with `keep_snapshot` it is also kept as a
        snapshot, which undo replays from. With `clear_head` (and no `state_json`) the head becomes NULL: the
        step's state is then found by replaying the log from the latest snapshot. Either way a head is only
        ever the state at the game's `state_step`. `prune_snapshots_below` deletes snapshots before that step
        (except step 0 when `prune_keeps_start`): those no undo needs any more.

        The version bump comes first: on SQLite it takes the write lock before anything is read (a read that
        later upgrades to a write can fail at once instead of waiting), on PostgreSQL it locks the game row,
        so a concurrent writer waits and then fails the version check.
        Raises VersionConflict, DuplicateInteraction (the interaction id is already logged) or ChannelBusy
        (reopening a game in a channel that has another one). Nothing is written when it raises.
        """
        now = now or utcnow()
        values: dict[str, Any] = {"state_step": step}
        derived: list[str] = []
        if new_status is not None:
            values["status"] = new_status
            if new_status in CLOSED_STATUSES:
                values.update(active_channel_id=None, ended_at=now)
            else:
                values["ended_at"] = None
                derived += [_REOPENED, _STARTED]
                if new_status == ACTIVE:
                    values["result"] = None
        if result is not None:
            values["result"] = result
        if content_version is not None:
            values["content_version"] = content_version
        if state_json is not None or clear_head:
            values["head"] = state_json
        if prompt_seq is not KEEP:
            values["prompt_seq"] = prompt_seq
            derived.append(_WAITING)
        scope = _SCOPE.get()
        write = functools.partial(
            _write_step, game_id=game_id, expected_version=expected_version, values=values,
            derived=tuple(derived), action_row=action_row,
            new_step=new_step, step=step, now=now, snapshot=state_json is not None and keep_snapshot,
            prune_below=prune_snapshots_below, prune_keeps_start=prune_keeps_start, events=events,
            sections=sections, campaign=campaign, scope=scope)
        try:
            if self._commit_engine is not None:
                await self._commit_in_thread(write, scope)
            else:
                async with self._writing() as s:
                    if await (await s.connection()).run_sync(write):
                        s.info[_CLAIMED_BY_ACTION] = True
        except IntegrityError as exc:
            if action_row is not None and action_row.interaction_id is not None:
                if await self.action_by_interaction(action_row.interaction_id) is not None:
                    raise DuplicateInteraction(str(action_row.interaction_id)) from exc
            raise
        return expected_version + 1

    async def _commit_in_thread(self, write: Callable[[Connection], bool], scope: WriteScope | None) -> None:
        """SQLite: run `write` and its commit as one synchronous call in the store's commit thread, under the
        write lock (module docstring). A cancelled caller still waits for the transaction to end before it
        lets the next writer in: the thread cannot be stopped half-way, and must not be overtaken."""
        async with self._write_lock:
            if self._committer is None:
                self._committer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="store-commit")
            done = asyncio.get_running_loop().run_in_executor(
                self._committer, self._commit_sync, write, scope)
            try:
                await asyncio.shield(done)
            except asyncio.CancelledError:
                with contextlib.suppress(Exception):
                    await asyncio.wait([done])
                raise

    def _commit_sync(self, write: Callable[[Connection], bool], scope: WriteScope | None) -> None:
        """`_writing`, synchronous: one transaction, the interaction claimed in it unless `write`'s action row
        carries it, the file checked after the commit, a lock held elsewhere told as StoreBusy."""
        engine = self._commit_engine
        assert engine is not None
        try:
            with engine.connect() as conn:
                with conn.begin():
                    claimed = write(conn)
                    if scope is not None and scope.interaction_id is not None and not scope.committed \
                            and not claimed:
                        _claim_sync(conn, scope.interaction_id)
                committed(engine)
        except DBAPIError as exc:
            if is_busy(exc):
                raise StoreBusy("the database is busy") from exc
            raise
        if scope is not None:
            scope.committed = True

    async def snapshot_steps(self, game_id: int) -> list[int]:
        """The steps the game has a state of (its kept snapshots and its head), in order."""
        stmt = select(Snapshot.step).where(Snapshot.game_id == game_id).order_by(col(Snapshot.step))
        async with self.session() as s:
            steps = list((await s.exec(stmt)).all())
            head = await self._head(s, game_id)
        return sorted({*steps, head.step}) if head is not None else steps

    @staticmethod
    async def _head(s: AsyncSession, game_id: int) -> Snapshot | None:
        """The game's head (the state at its current step, from its row) as a snapshot, not stored as one."""
        stmt = select(Game.state_step, Game.head, Game.updated_at).where(Game.id == game_id)
        row = (await s.exec(stmt)).first()
        if row is None or row[1] is None:
            return None
        return Snapshot(game_id=game_id, step=row[0], state=row[1], keep=False, created_at=row[2])

    async def action_by_interaction(self, interaction_id: int) -> ActionRow | None:
        async with self.session() as s:
            return (await s.exec(select(ActionRow).where(ActionRow.interaction_id == interaction_id))).first()

    async def last_action(self, game_id: int, *, kind: str) -> ActionRow | None:
        """The game's latest action of `kind` ("ai": an AI teammate's decision, which /game why explains)."""
        stmt = (select(ActionRow).where(ActionRow.game_id == game_id, ActionRow.kind == kind)
                .order_by(col(ActionRow.seq).desc()).limit(1))
        async with self.session() as s:
            return (await s.exec(stmt)).first()

    async def actions(self, game_id: int, *, after: int = 0, upto: int | None = None) -> list[ActionRow]:
        """The action log in order; `after`/`upto` bound seq (after < seq <= upto)."""
        stmt = select(ActionRow).where(ActionRow.game_id == game_id, col(ActionRow.seq) > after)
        if upto is not None:
            stmt = stmt.where(col(ActionRow.seq) <= upto)
        async with self.session() as s:
            return list((await s.exec(stmt.order_by(col(ActionRow.seq)))).all())

    async def replay_base(self, game_id: int, step: int, *,
                          head: bool = True) -> tuple[int, str, list[dict[str, Any]]] | None:
        """What rebuilds the game's state at `step`, read in one session: the nearest stored state at or before
        it (the game's head, or a kept snapshot) as (its step, its JSON), and the payloads of the actions
        logged after that state up to `step`, in order. None when nothing is stored that early. `head=False`:
        the caller knows the game has no head (it read the game's row): only kept snapshots are looked at.

        (`snapshot_at` and `actions` read the same with three sessions and table models: a load after a restart
        paid more for them than for the replay.)"""
        game, snapshot, action = (Game.__table__, Snapshot.__table__,  # type: ignore[attr-defined]
                                  ActionRow.__table__)  # type: ignore[attr-defined]
        async with self.session() as s:
            conn = await s.connection()
            row = None if not head else (await conn.execute(sa_select(game.c.state_step, game.c.head)
                                                            .where(game.c.id == game_id))).first()
            base = (row[0], row[1]) if row is not None and row[1] is not None and row[0] <= step else None
            if base is None or base[0] < step:
                kept = (await conn.execute(
                    sa_select(snapshot.c.step, snapshot.c.state)
                    .where(snapshot.c.game_id == game_id, snapshot.c.step <= step)
                    .order_by(snapshot.c.step.desc()).limit(1))).first()
                if kept is not None and (base is None or kept[0] > base[0]):
                    base = (kept[0], kept[1])
            if base is None:
                return None
            payloads: list[dict[str, Any]] = []
            if base[0] < step:
                payloads = [r[0] for r in (await conn.execute(
                    sa_select(action.c.payload)
                    .where(action.c.game_id == game_id, action.c.seq > base[0], action.c.seq <= step)
                    .order_by(action.c.seq))).all()]
        return base[0], base[1], payloads

    async def latest_snapshot(self, game_id: int) -> Snapshot | None:
        """The game's latest stored state: its head, else its latest kept snapshot (the log after it leads to
        the game's step: `bot.service.latest_state` replays it)."""
        stmt = (select(Snapshot).where(Snapshot.game_id == game_id)
                .order_by(col(Snapshot.step).desc()).limit(1))
        async with self.session() as s:
            return await self._head(s, game_id) or (await s.exec(stmt)).first()

    async def snapshot_at(self, game_id: int, step: int, *, or_before: bool = False) -> Snapshot | None:
        """The state at `step` (or the nearest earlier one, to replay the log from): the game's head or a kept
        snapshot."""
        stmt = select(Snapshot).where(Snapshot.game_id == game_id)
        if or_before:
            stmt = stmt.where(col(Snapshot.step) <= step).order_by(col(Snapshot.step).desc()).limit(1)
        else:
            stmt = stmt.where(Snapshot.step == step)
        async with self.session() as s:
            head = await self._head(s, game_id)
            if head is not None and head.step == step:
                return head
            kept = (await s.exec(stmt)).first()
        if head is not None and or_before and head.step < step and (kept is None or kept.step < head.step):
            return head
        return kept

    async def truncate_after(
        self, game_id: int, expected_version: int, step: int, *, state_json: str | None = None,
        events: Sequence[Event] = (), new_status: str | None = None, prompt_seq: int | None = KEEP,
        now: datetime | None = None, sections: Sequence[SectionRecord] = (),
    ) -> int:
        """Undo: forget every action, snapshot and event after `step`, in one transaction (and write the
        channel sections that show the undo).

        `state_json`, the state at `step`, becomes the game's head; without it, the snapshot kept at `step`
        does (none there: no head, and loading replays from an earlier one).
        """
        now = now or utcnow()
        values: dict[str, Any] = {"state_step": step, "reminded_seq": None, "undo_epoch": Game.undo_epoch + 1}
        values["head"] = state_json if state_json is not None else (
            sa_select(col(Snapshot.state)).where(col(Snapshot.game_id) == game_id, col(Snapshot.step) == step)
            .scalar_subquery())
        if new_status is not None:
            values["status"] = new_status
            if new_status == ACTIVE:
                values.update(active_channel_id=Game.channel_id, ended_at=None, result=None)
        if prompt_seq is not KEEP:
            values.update(prompt_seq=prompt_seq, waiting_since=now)
        try:
            async with self._writing() as s:
                await self._bump(s, game_id, expected_version, **values)
                # An undone click stays processed: its interaction id lived only in its action row.
                undone = (sa_select(col(ActionRow.interaction_id), literal(now, UTCDateTime()))
                          .where(col(ActionRow.game_id) == game_id, col(ActionRow.seq) > step,
                                 col(ActionRow.interaction_id).is_not(None),
                                 ~exists().where(col(ProcessedInteraction.interaction_id)
                                                 == col(ActionRow.interaction_id))))
                await s.exec(insert(ProcessedInteraction).from_select(["interaction_id", "created_at"], undone))
                for model, column in ((ActionRow, ActionRow.seq), (Snapshot, Snapshot.step),
                                      (GameEvent, GameEvent.step)):
                    await s.exec(delete(model).where(col(model.game_id) == game_id, col(column) > step))
                if events:
                    first = (await s.exec(select(func.max(GameEvent.idx))
                                          .where(GameEvent.game_id == game_id, GameEvent.step == step))).one()
                    base = 0 if first is None else first + 1
                    for i, e in enumerate(events):
                        s.add(GameEvent(game_id=game_id, step=step, idx=base + i, kind=e.kind, text=e.text,
                                        seat=e.seat, private_to=e.private_to, cause=e.cause))
                await self._write_sections(s, sections)
        except IntegrityError as exc:
            raise ChannelBusy("This channel already has another game.") from exc
        return expected_version + 1

    # ---- the narrated log ------------------------------------------------------------------------------

    async def events(self, game_id: int, *, page: int = 1, per_page: int = 20,
                     visible_to: Sequence[int] = ()) -> tuple[list[GameEvent], int]:
        """One page of events, newest page first (page 1), oldest-first within the page; and the page count.

        Private events are left out unless they belong to one of the `visible_to` seats.
        """
        visible = or_(col(GameEvent.private_to).is_(None), col(GameEvent.private_to).in_(list(visible_to)))
        where = (col(GameEvent.game_id) == game_id, visible)
        async with self.session() as s:
            total = (await s.exec(select(func.count()).select_from(GameEvent).where(*where))).one()
            stmt = (select(GameEvent).where(*where)
                    .order_by(col(GameEvent.step).desc(), col(GameEvent.idx).desc(), col(GameEvent.id).desc())
                    .offset((max(page, 1) - 1) * per_page).limit(per_page))
            rows = list((await s.exec(stmt)).all())
        rows.reverse()
        return rows, _pages(total, per_page)

    async def public_events(self, game_id: int) -> list[GameEvent]:
        """Every event anyone may read (no seat's private ones), oldest first: the log an export carries."""
        stmt = (select(GameEvent).where(GameEvent.game_id == game_id, col(GameEvent.private_to).is_(None))
                .order_by(col(GameEvent.step), col(GameEvent.idx), col(GameEvent.id)))
        async with self.session() as s:
            return list((await s.exec(stmt)).all())

    # ---- sections: what the channel shows of a game (one living message per turn or phase) ---------------

    SERVICE_COLUMNS = SERVICE_COLUMNS

    @staticmethod
    async def _write_sections(s: AsyncSession, sections: Sequence[SectionRecord]) -> None:
        if sections:
            await (await s.connection()).run_sync(_write_sections, sections)

    async def save_sections(self, sections: Sequence[SectionRecord]) -> None:
        """Write sections outside a step (a seat changed hands, so who is awaited changed)."""
        if sections:
            async with self._writing() as s:
                await self._write_sections(s, sections)

    async def current_section(self, game_id: int) -> SectionRecord | None:
        """The game's latest section (open, or the last one, frozen)."""
        table = Section.__table__  # type: ignore[attr-defined]
        stmt = sa_select(table).where(table.c.game_id == game_id).order_by(table.c.number.desc()).limit(1)
        async with self.session() as s:
            row = (await (await s.connection()).execute(stmt)).mappings().first()
        return None if row is None else SectionRecord(**row)

    async def sections_to_show(self, game_id: int) -> list[SectionRecord]:
        """The sections with changes not yet shown, and the latest section in any case; oldest first."""
        table = Section.__table__  # type: ignore[attr-defined]
        latest = sa_select(func.max(table.c.number)).where(table.c.game_id == game_id).scalar_subquery()
        stmt = (sa_select(table).where(table.c.game_id == game_id,
                                       or_(table.c.shown_rev < table.c.rev, table.c.number == latest))
                .order_by(table.c.number))
        async with self.session() as s:
            return [SectionRecord(**row) for row in (await (await s.connection()).execute(stmt)).mappings()]

    async def section_shown(self, section_id: int, rev: int, *, message_ids: list[int],
                            board_message_id: int | None, ping_messages: list[list[Any]],
                            page_starts: list[int] | None = None) -> None:
        """The front end showed the section up to `rev` in these messages."""
        values: dict[str, Any] = {"message_ids": message_ids, "board_message_id": board_message_id,
                                  "ping_messages": ping_messages}
        if page_starts is not None:
            values["page_starts"] = page_starts
        stmt = (update(Section).where(col(Section.id) == section_id)
                .values(shown_rev=case((col(Section.shown_rev) > rev, Section.shown_rev), else_=rev), **values))
        async with self._writing() as s:
            await s.exec(stmt)

    async def add_ping_message(self, section_id: int, message_id: int, user_ids: list[int], seq: int) -> None:
        """A reminder of prompt `seq` was posted for the section: it goes once that prompt is answered."""
        async with self._writing() as s:
            section = await s.get(Section, section_id, with_for_update=True)
            if section is not None:
                section.ping_messages = [*section.ping_messages, [message_id, list(user_ids), seq]]

    # ---- prompts: the message that carries buttons, and reminders --------------------------------------

    async def set_prompt_message(self, game_id: int, message_id: int | None) -> int | None:
        """Remember the message now carrying the prompt buttons; returns the previous one (to strip)."""
        async with self._writing() as s:
            game = await s.get(Game, game_id, with_for_update=True)
            if game is None:
                return None
            previous, game.prompt_message_id = game.prompt_message_id, message_id
            return previous

    async def reminder_candidates(self, waiting_before: datetime) -> list[Game]:
        """Active games whose current prompt appeared before `waiting_before` and was not reminded yet."""
        stmt = select(Game).where(
            Game.status == ACTIVE,
            col(Game.waiting_since).is_not(None),
            col(Game.waiting_since) <= waiting_before,
            or_(col(Game.reminded_seq).is_(None), col(Game.reminded_seq) != col(Game.prompt_seq)),
        ).order_by(col(Game.id))
        async with self.session() as s:
            return list((await s.exec(stmt)).all())

    async def mark_reminded(self, game_id: int, prompt_seq: int) -> bool:
        """Claim the reminder for this prompt; False if another process already did (no double pings)."""
        not_reminded = or_(col(Game.reminded_seq).is_(None), col(Game.reminded_seq) != prompt_seq)
        stmt = (update(Game).where(col(Game.id) == game_id, col(Game.prompt_seq) == prompt_seq, not_reminded)
                .values(reminded_seq=prompt_seq))
        async with self._writing() as s:
            return (await s.exec(stmt)).rowcount == 1

    # ---- guild settings, audit, campaigns --------------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings; the defaults (not stored) when it never set any."""
        async with self.session() as s:
            found = await s.get(GuildSettings, guild_id)
        return found if found is not None else GuildSettings(guild_id=guild_id)

    async def set_guild_settings(self, guild_id: int, *, mod_role_id: int | None = KEEP,
                                 enabled_games: list[str] | None = KEEP,
                                 reminder_hours: int | None = KEEP,
                                 ai_pace_ms: int | None = KEEP) -> GuildSettings:
        async with self._writing() as s:
            row = await s.get(GuildSettings, guild_id, with_for_update=True)
            if row is None:
                row = GuildSettings(guild_id=guild_id)
                s.add(row)
            if mod_role_id is not KEEP:
                row.mod_role_id = mod_role_id
            if enabled_games is not KEEP:
                row.enabled_games = list(enabled_games or [])
            if reminder_hours is not KEEP and reminder_hours is not None:
                row.reminder_hours = reminder_hours
            if ai_pace_ms is not KEEP and ai_pace_ms is not None:
                row.ai_pace_ms = ai_pace_ms
        return row

    async def add_audit(self, *, guild_id: int, channel_id: int, moderator_id: int, command: str,
                        detail: dict[str, Any], game_id: int | None = None) -> AuditLog:
        row = AuditLog(guild_id=guild_id, channel_id=channel_id, moderator_id=moderator_id, command=command,
                       detail=detail, game_id=game_id)
        async with self._writing() as s:
            s.add(row)
        return row

    async def audit(self, guild_id: int, *, page: int = 1, per_page: int = 20) -> tuple[list[AuditLog], int]:
        """Newest first."""
        async with self.session() as s:
            total = (await s.exec(select(func.count()).select_from(AuditLog)
                                  .where(AuditLog.guild_id == guild_id))).one()
            stmt = (select(AuditLog).where(AuditLog.guild_id == guild_id).order_by(col(AuditLog.id).desc())
                    .offset((max(page, 1) - 1) * per_page).limit(per_page))
            return list((await s.exec(stmt)).all()), _pages(total, per_page)

    async def audited(self, game_id: int, command: str) -> bool:
        """Whether a moderator ever used `command` on this game."""
        stmt = select(AuditLog.id).where(AuditLog.game_id == game_id, AuditLog.command == command).limit(1)
        async with self.session() as s:
            return (await s.exec(stmt)).first() is not None

    async def guild_of_channel(self, channel_id: int) -> int | None:
        """The guild a channel belongs to, as far as this database knows (from its games or audit rows)."""
        async with self.session() as s:
            for model in (Game, AuditLog):
                stmt = select(model.guild_id).where(model.channel_id == channel_id).limit(1)
                found = (await s.exec(stmt)).first()
                if found is not None:
                    return found
        return None

    async def campaign(self, *, guild_id: int, channel_id: int, game_type: str, name: str,
                       data: dict[str, Any] | None = None) -> Campaign:
        """The channel's open campaign of that name, created (with `data`) on first use.

        ChannelBusy if the channel has another open campaign (one open campaign per channel).
        """
        stmt = select(Campaign).where(Campaign.guild_id == guild_id, Campaign.channel_id == channel_id,
                                      Campaign.game_type == game_type, Campaign.name == name,
                                      col(Campaign.closed_at).is_(None))
        try:
            async with self._writing() as s:
                found = (await s.exec(stmt)).first()
                if found is not None:
                    return found
                row = Campaign(guild_id=guild_id, channel_id=channel_id, game_type=game_type, name=name,
                               data=dict(data or {}), open_channel_id=channel_id)
                s.add(row)
        except IntegrityError as exc:
            raise ChannelBusy("This channel already has an open campaign.") from exc
        return row

    async def save_campaign(self, campaign_id: int, data: dict[str, Any], *, close: bool = False,
                            expected_version: int | None = None) -> int:
        """Write a campaign's data (and close it); returns its new version. With `expected_version`, only if
        the row is still at that version (VersionConflict otherwise: another process changed it first)."""
        async with self._writing() as s:
            if expected_version is None:
                row = await s.get(Campaign, campaign_id)
                if row is None:
                    raise VersionConflict(f"campaign {campaign_id} does not exist")
                expected_version = row.version
            await self._write_campaign(s, CampaignWrite(campaign_id, expected_version, data, close))
        return expected_version + 1

    @staticmethod
    async def _write_campaign(s: AsyncSession, write: CampaignWrite) -> None:
        await (await s.connection()).run_sync(_write_campaign, write)

    async def get_campaign(self, campaign_id: int) -> Campaign | None:
        async with self.session() as s:
            return await s.get(Campaign, campaign_id)

    async def open_campaign(self, channel_id: int) -> Campaign | None:
        """The channel's open campaign, if any."""
        async with self.session() as s:
            return (await s.exec(select(Campaign).where(Campaign.open_channel_id == channel_id))).first()

    async def current_campaign(self, channel_id: int) -> Campaign | None:
        """The open campaign, else the channel's most recent one (so a finished campaign's log can be read)."""
        found = await self.open_campaign(channel_id)
        if found is not None:
            return found
        stmt = (select(Campaign).where(Campaign.channel_id == channel_id).order_by(col(Campaign.id).desc())
                .limit(1))
        async with self.session() as s:
            return (await s.exec(stmt)).first()

    async def latest_campaign_game(self, campaign_id: int) -> Game | None:
        """The campaign's most recent game (its scenario in play, or the last one played)."""
        stmt = select(Game).where(Game.campaign_id == campaign_id).order_by(col(Game.id).desc()).limit(1)
        async with self.session() as s:
            return (await s.exec(stmt)).first()


# ---- the record of finished games: /game history and /stats --------------------------------------------------
#
# A finished game's facts (what it was played against, how many rounds it lasted, which investigators played)
# live in its final state, which the store keeps as the JSON text of its head snapshot. The database reads
# them itself (SQLite's json_extract, PostgreSQL's #>> on the text cast to jsonb), so the counting and the
# averages are SQL on both; the paths come from each game's bot manifest (`StatsKeys`).

_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9]+")


def json_path(path: str) -> tuple[str, ...]:
    """'table.0.investigator' or 'table[0].investigator' -> ('table', '0', 'investigator'); keys are checked
    (they are written into the SQL text)."""
    parts = tuple(p for p in re.split(r"[.\[\]]+", path) if p)
    if not parts or not all(_KEY.fullmatch(p) for p in parts):
        raise ValueError(f"not a JSON path of plain keys: {path!r}")
    return parts


class json_text(FunctionElement[str]):
    """The value at a path inside JSON stored as text, as text (an object or a list as its JSON)."""

    type = String()
    name = "json_text"
    # the path is written into the SQL text, so two paths must never share a cached statement
    inherit_cache = False

    def __init__(self, document: Any, path: str) -> None:
        self.path = json_path(path)
        super().__init__(document)


@compiles(json_text, "sqlite")
def _json_text_sqlite(element: json_text, compiler: Any, **kw: Any) -> str:
    path = "$" + "".join(f"[{p}]" if p.isdigit() else f".{p}" for p in element.path)
    return f"json_extract({compiler.process(element.clauses, **kw)}, '{path}')"


@compiles(json_text, "postgresql")
def _json_text_postgresql(element: json_text, compiler: Any, **kw: Any) -> str:
    return f"(CAST({compiler.process(element.clauses, **kw)} AS jsonb) #>> '{{{','.join(element.path)}}}')"


@dataclass(frozen=True)
class FactPaths:
    """Where one game type's facts lie in its state (None: the game does not say)."""

    scenario: str | None = None
    rounds: str | None = None
    characters: str | None = None  # a list's path; "[*]" marks its elements ("investigators[*].card")


@dataclass(frozen=True)
class FinishedGame:
    game: Game
    scenario: str | None
    rounds: int | None
    players: list[str]


@dataclass(frozen=True)
class Tally:
    """Finished games of one group (a game type, or a game type and scenario)."""

    game_type: str
    scenario: str | None
    games: int
    wins: int
    losses: int
    rounds: float | None  # averages over the games that say
    steps: float


def _fact(paths: dict[str, FactPaths], field_name: str) -> Any:
    """One column: the fact each game type keeps at its own path (NULL for types that keep none)."""
    whens = [(col(Game.game_type) == game_type, json_text(Game.head, getattr(p, field_name)))
             for game_type, p in sorted(paths.items()) if getattr(p, field_name)]
    return case(*whens, else_=null()) if whens else null()


def _finished(guild_id: int | None, channel_id: int | None, user_id: int | None) -> list[Any]:
    """Started games that ended, by the rules or by people, in that guild or channel (with that player)."""
    where: list[Any] = [col(Game.status).in_(CLOSED_STATUSES), col(Game.started_at).is_not(None)]
    if guild_id is not None:
        where.append(col(Game.guild_id) == guild_id)
    if channel_id is not None:
        where.append(col(Game.channel_id) == channel_id)
    if user_id is not None:
        where.append(exists().where(col(Seat.game_id) == col(Game.id), col(Seat.user_id) == user_id))
    return where


def _character_path(path: str) -> tuple[str, str]:
    """'investigators[*].card' -> ('investigators', 'card'): the list, and the path inside each element."""
    head, star, rest = path.partition("[*]")
    if not star:
        raise ValueError(f"a characters path marks its list with [*]: {path!r}")
    return head, rest.strip(".")


async def finished_games(store: Store, channel_id: int, paths: dict[str, FactPaths], *, page: int = 1,
                         per_page: int = 10) -> tuple[list[FinishedGame], int]:
    """The channel's finished games, newest first, with their scenario and rounds; and the page count."""
    where = _finished(None, channel_id, None)
    stmt = (select(Game, _fact(paths, "scenario"), _fact(paths, "rounds")).where(*where)
            .order_by(col(Game.id).desc()).offset((max(page, 1) - 1) * per_page).limit(per_page))
    async with store.session() as s:
        total = (await s.exec(select(func.count()).select_from(Game).where(*where))).one()
        rows = list((await s.exec(stmt)).all())
        ids = [game.id for game, _, _ in rows]
        seats = list((await s.exec(select(Seat).where(col(Seat.game_id).in_(ids))
                                   .order_by(col(Seat.game_id), col(Seat.seat)))).all()) if ids else []
    names: dict[int, list[str]] = {}
    for seat in seats:
        names.setdefault(seat.game_id, []).append(seat.name)
    out = [FinishedGame(game, None if scenario is None else str(scenario),
                        None if rounds is None else int(rounds), names.get(game.id or 0, []))
           for game, scenario, rounds in rows]
    return out, _pages(total, per_page)


async def tallies(store: Store, paths: dict[str, FactPaths], *, guild_id: int, user_id: int | None = None,
                  by_scenario: bool = False) -> list[Tally]:
    """Games, wins, losses and average rounds and steps of the guild's finished games (those `user_id`
    sat at), by game type, or by game type and scenario; most played first."""
    # the facts in a subquery, grouped outside it: PostgreSQL would not match a GROUP BY expression holding
    # bound parameters with the same expression in the SELECT list
    facts = (sa_select(col(Game.id).label("id"), col(Game.game_type).label("game_type"),
                    _fact(paths, "scenario").label("scenario"), _fact(paths, "rounds").label("rounds"),
                    col(Game.result).label("result"), col(Game.state_step).label("steps"))
             .where(*_finished(guild_id, None, user_id)).subquery())
    games = func.count(facts.c.id)
    groups: list[Any] = [facts.c.game_type, facts.c.scenario] if by_scenario else [facts.c.game_type]
    # more columns than sqlmodel's typed select() takes: SQLAlchemy's own, executed the same way
    stmt: Any = (sa_select(facts.c.game_type, facts.c.scenario if by_scenario else null(), games,
                   func.sum(case((facts.c.result == "win", 1), else_=0)),
                   func.sum(case((facts.c.result == "loss", 1), else_=0)),
                   func.avg(cast(facts.c.rounds, Integer)), func.avg(facts.c.steps))
            .group_by(*groups).order_by(games.desc(), *groups))
    async with store.session() as s:
        rows = (await s.exec(stmt)).all()
    return [Tally(game_type, None if sc is None else str(sc), int(n), int(won or 0), int(lost or 0),
                  None if avg_rounds is None else float(avg_rounds), float(avg_steps or 0))
            for game_type, sc, n, won, lost, avg_rounds, avg_steps in rows]


async def with_ai_teammates(store: Store, *, guild_id: int, user_id: int | None = None) -> dict[bool, tuple[int, int]]:
    """The guild's finished games (those `user_id` sat at) split by whether an AI teammate sat at them (a seat
    with a negative user id): {True: (games, wins), False: (games, wins)}, a side with none left out."""
    with_ai = exists().where(col(Seat.game_id) == col(Game.id), col(Seat.user_id) < 0)
    flag = case((with_ai, 1), else_=0)
    stmt: Any = (sa_select(flag, func.count(col(Game.id)), func.sum(case((col(Game.result) == "win", 1), else_=0)))
                 .where(*_finished(guild_id, None, user_id)).group_by(flag))
    async with store.session() as s:
        rows = (await s.exec(stmt)).all()
    return {bool(f): (int(n), int(won or 0)) for f, n, won in rows}


async def characters_played(store: Store, paths: dict[str, FactPaths], *, guild_id: int,
                            user_id: int | None = None) -> list[tuple[str, str, int]]:
    """(game type, investigator card id, games) of the guild's finished games, most played first; with
    `user_id`, only the investigators of that player's own seats.

    An investigator counts once per seat that played it: those the seats began with (the game's first kept
    snapshot, its setup) and those still at the table at the end (its final one), since a devoured
    investigator leaves the final state. The database reads each list of seats (its JSON text); the
    elements are counted here."""
    lists: dict[str, tuple[str, str]] = {gt: _character_path(p.characters) for gt, p in paths.items()
                                         if p.characters}
    if not lists:
        return []
    earlier = aliased(Snapshot)
    first = select(func.min(earlier.step)).where(earlier.game_id == col(Game.id)).scalar_subquery()
    rows: list[Any] = []
    async with store.session() as s:
        # the final state is the game's head; the setup, its first kept snapshot
        for state, snapshot in ((Game.head, None),
                                (Snapshot.state, and_(col(Snapshot.game_id) == col(Game.id),
                                                      col(Snapshot.step) == first))):
            whens = [(col(Game.game_type) == gt, json_text(state, head)) for gt, (head, _) in sorted(lists.items())]
            stmt = select(col(Game.id), col(Game.game_type), case(*whens, else_=null()))
            stmt = (stmt.where(col(Game.head).is_not(None)) if snapshot is None
                    else stmt.join(Snapshot, snapshot))
            stmt = stmt.where(*_finished(guild_id, None, user_id), col(Game.game_type).in_(list(lists)))
            rows += (await s.exec(stmt)).all()
        mine: dict[int, set[int]] = {}
        if user_id is not None and rows:
            seat_rows = (await s.exec(select(Seat.game_id, Seat.seat).where(
                col(Seat.user_id) == user_id, col(Seat.game_id).in_({r[0] for r in rows})))).all()
            for seated_in, seat in seat_rows:
                mine.setdefault(seated_in, set()).add(seat)
    played: dict[tuple[str, str], set[tuple[int, int]]] = {}
    for game_id, game_type, text_value in rows:
        if text_value is None:
            continue
        inner = lists[game_type][1]
        for index, element in enumerate(json.loads(text_value)):
            if user_id is not None and index not in mine.get(game_id or 0, set()):
                continue
            card = _walk(element, inner)
            if isinstance(card, str):
                played.setdefault((game_type, card), set()).add((game_id or 0, index))
    return sorted(((gt, card, len(seats)) for (gt, card), seats in played.items()),
                  key=lambda t: (-t[2], t[0], t[1]))


def _walk(value: Any, path: str) -> Any:
    for key in json_path(path) if path else ():
        if isinstance(value, dict):
            value = value.get(key)
        elif isinstance(value, list) and key.isdigit() and int(key) < len(value):
            value = value[int(key)]
        else:
            return None
    return value
