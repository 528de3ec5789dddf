"""What a click costs the service (issue 29): a lean commit, a step applied to a private copy.

The guarantees these changes must keep are the reliability suites' (test_reliability, test_store,
test_concurrency, tests/e2e); here: how few statements a click sends, that a click recorded only in its
action row still counts as processed (also once it is undone), and that the cached state is never changed
by a step that fails.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import random
import shutil
import sqlite3
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

import engine.games
from bot.service import ALREADY_APPLIED, BOARD_SNAPSHOT_GAP, Actor, GameService, UserError
from bot.store import Store, VersionConflict, repo
from bot.store.db import _GUARDS, file_guard
from engine import api
from tests.bot.conftest import ALICE, CHANNEL, MOD, sqlite_url
from tests.bot.helpers import clicking, only_card, open_table, state_of

engine.games.register("countdown-quiet", "tests.bot.quiet_game:QUIET")

FIXED_NOW = datetime(2026, 1, 1, 12, 30, 15, 250_000, tzinfo=UTC)


class Statements:
    """The SQL statements the store sends, in order."""

    def __init__(self, service: GameService) -> None:
        self.seen: list[str] = []
        for sync in service.store.sync_engines():  # SQLite writes a step on an engine of its own
            event.listen(sync, "before_cursor_execute", self._seen)

    def _seen(self, _conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        words = statement.split()
        self.seen.append(" ".join(words[:3] if words[0] == "INSERT" else words[:2]).upper())


async def click(service: GameService, choice: str = "1", actor: Actor | None = None) -> Actor:
    card = await only_card(service)
    actor = actor or clicking(ALICE)
    await service.choose(CHANNEL, actor, card.prompt.seq, [choice])
    return actor


async def test_a_click_on_a_game_in_memory_reads_nothing(service: GameService) -> None:
    """Issue 29, item 1: a click on the game this process last wrote reads neither the repeat check nor the
    game's row; the step is written as the version bump carrying the new head state (the bump is the check
    that nobody else wrote since), the action (carrying its interaction id, and refused in the same statement
    if that id was processed), the events, and the channel's sections; no snapshot row unless one is kept:
    four statements."""
    await open_table(service, ALICE, game="countdown-quiet", options={"start": "30"})
    statements = Statements(service)
    for _ in range(3):
        card = await only_card(service)
        statements.seen.clear()
        await service.choose(CHANNEL, clicking(ALICE), card.prompt.seq, ["1"])
        assert statements.seen[:3] == ["UPDATE GAME", "INSERT INTO ACTION", "INSERT INTO GAME_EVENT"], \
            statements.seen
        # each turn of this game is a section of the channel: the last one is frozen and a new one begins,
        # in one statement (an insert whose known row updates instead)
        assert statements.seen[3:] == ["INSERT INTO SECTION"], statements.seen


async def test_a_kept_step_adds_its_snapshot_and_the_head_lives_in_the_game_row(service: GameService) -> None:
    """Item 1: a step due to be kept (every `snapshot_every` steps) writes one snapshot more; the head is the
    game's row, so a cold load reads no snapshot."""
    service.snapshot_every = 3
    await open_table(service, ALICE, game="countdown-quiet", options={"start": "30"})
    statements = Statements(service)
    for step in (1, 2, 3):
        await click(service)
        kept = "INSERT INTO SNAPSHOT" in statements.seen
        assert kept == (step == 3), (step, statements.seen)
        statements.seen.clear()
    game = await service.store.open_game(CHANNEL)
    assert game is not None and game.id is not None and game.head is not None
    assert api.from_json(game.head).step == 3
    service._cache.clear()
    statements.seen.clear()
    assert (await service.game_state(game)).counter == 27  # type: ignore[union-attr]
    assert not [s for s in statements.seen if "SNAPSHOT" in s], statements.seen


PRAGMAS = ("journal_mode", "synchronous", "busy_timeout", "mmap_size", "foreign_keys")


async def test_a_step_on_a_sqlite_file_is_one_call_in_a_worker_thread_on_an_engine_as_careful_as_the_store(
        sqlite_db: str) -> None:
    """Item 1: on a SQLite file the step's whole transaction is one synchronous call in the store's commit
    thread, on an engine of its own (one hand-off per click instead of one per statement, BEGIN and COMMIT).
    That engine is the same database in everything the store promises: WAL, the synchronous level asked for,
    the busy timeout, no memory map, foreign keys, and the one file guard."""
    for synchronous, level in (("NORMAL", 1), ("FULL", 2)):
        store = Store(sqlite_db, synchronous=synchronous, lock_timeout_ms=1234)
        ours, steps = store.sync_engines()
        assert _GUARDS.get(steps) is file_guard(store.engine) is not None
        with steps.connect() as conn:
            found = [conn.exec_driver_sql(f"PRAGMA {name}").scalar_one() for name in PRAGMAS]
        async with store.engine.connect() as theirs:
            assert [(await theirs.exec_driver_sql(f"PRAGMA {name}")).scalar_one() for name in PRAGMAS] == found
        assert found == ["wal", level, 1234, 0, 1]
        if synchronous == "NORMAL":
            await store.close()
    try:
        service = GameService(store, render=False)
        await open_table(service, ALICE, game="countdown-quiet", options={"start": "30"})
        threads: list[str] = []
        for sync in (ours, steps):
            event.listen(sync, "before_cursor_execute",
                         lambda *_: threads.append(threading.current_thread().name))
        card = await only_card(service)
        threads.clear()
        await service.choose(CHANNEL, clicking(ALICE), card.prompt.seq, ["1"])
        assert len(threads) == 4 and all(name.startswith("store-commit") for name in threads), threads
    finally:
        await store.close()


async def test_a_click_refused_on_memory_is_decided_again_on_the_database(service: GameService) -> None:
    """Item 1: memory may be behind another process. A click memory would refuse (its prompt is newer than
    the remembered step) is checked again against the database, and applied."""
    await open_table(service, ALICE, options={"start": "30"})
    game = await service.store.open_game(CHANNEL)
    assert game is not None and game.id is not None
    other = GameService(service.store, render=False)  # a second bot process on the same database
    card = await only_card(other)
    await other.choose(CHANNEL, clicking(ALICE), card.prompt.seq, ["2"])
    card = await only_card(other)
    statements = Statements(service)
    reply = await service.choose(CHANNEL, clicking(ALICE), card.prompt.seq, ["3"], game_id=game.id,
                                 epoch=card.epoch)
    assert reply.applied and (await state_of(service)).counter == 25
    assert statements.seen[:2] == ["SELECT (EXISTS", "SELECT GAME.ID,"], statements.seen


async def test_a_click_memory_accepts_on_a_game_another_process_moved_on_writes_nothing(
        service: GameService) -> None:
    """Item 1: memory's step is legal, but the version bump finds the game changed by another process: the
    click is decided again on what the database holds (its prompt has passed), never written over the
    other process's step."""
    await open_table(service, ALICE, options={"start": "30"})
    other = GameService(service.store, render=False)
    card = await only_card(service)
    await other.choose(CHANNEL, clicking(ALICE), card.prompt.seq, ["2"])
    with pytest.raises(UserError, match="passed"):
        await service.choose(CHANNEL, clicking(ALICE), card.prompt.seq, ["1"])
    assert (await state_of(service)).counter == 28
    card = await only_card(service)
    assert (await service.choose(CHANNEL, clicking(ALICE), card.prompt.seq, ["1"])).applied
    assert (await state_of(service)).counter == 27


async def test_a_game_stores_its_state_only_at_kept_steps(service: GameService) -> None:
    """Item 1 (the lean commit): a step writes its state only when a snapshot of it is kept (the start, every
    `snapshot_every` steps, a board's step, the end); at any other step the game's head is cleared, and the
    latest step is the latest kept state with the log replayed on top, exactly what the service holds."""
    await open_table(service, ALICE, game="countdown-quiet", options={"start": "30"})
    game = await service.store.open_game(CHANNEL)
    assert game is not None and game.id is not None
    for _ in range(7):
        await click(service)
    assert await service.store.snapshot_steps(game.id) == [0]
    row = await service.store.open_game(CHANNEL)
    assert row is not None and row.head is None and row.state_step == 7
    held = await service.game_state(row)
    assert held is not None and held.step == 7
    assert api.to_json(await state_of(service)) == api.to_json(held)
    restarted = GameService(service.store, render=False)
    assert api.to_json(await restarted.game_state(row)) == api.to_json(held)


async def test_a_repeated_click_is_a_no_op_also_after_it_was_undone(service: GameService) -> None:
    """Item 1 keeps the exactly-once guarantee: a click's interaction id lives in its action row, and an
    undo that deletes the row keeps the id as processed."""
    await open_table(service, ALICE, options={"start": "30"})
    first = await click(service, "2")
    repeat = Actor(first.user_id, first.name, first.is_moderator, first.interaction_id)
    card = await only_card(service)
    assert (await service.choose(CHANNEL, repeat, card.prompt.seq - 1, ["2"])).ephemeral == [ALREADY_APPLIED]
    await service.gm_undo(CHANNEL, clicking(MOD))
    assert (await state_of(service)).counter == 30
    card = await only_card(service)
    assert (await service.choose(CHANNEL, repeat, card.prompt.seq, ["2"])).ephemeral == [ALREADY_APPLIED]
    assert (await state_of(service)).counter == 30
    assert await service.store.interaction_seen(first.interaction_id or 0)


async def test_a_click_applies_in_place_unless_a_reader_holds_the_state(service: GameService,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 2 (apply in place on a loaded step): a click applies its step to the state the service holds, with
    no copy, as long as nothing outside the channel's lock was handed that state since its step; after a reader
    took it (a command reading it in a worker thread, a picture being drawn), the next click works on a copy
    and the reader's state stays whole."""
    from bot.service import Loaded

    await open_table(service, ALICE, options={"start": "30"})
    copies: list[int] = []
    copy = Loaded.working_state

    def counted(self: Loaded) -> Any:
        copies.append(self.game.state_step)
        return copy(self)

    monkeypatch.setattr(Loaded, "working_state", counted)
    for _ in range(3):
        await click(service, "1")
    assert copies == []
    game = await service.store.open_game(CHANNEL)
    assert game is not None
    held = await service.game_state(game)
    assert held is not None
    before = api.to_json(held)
    await click(service, "1")
    assert copies == [3] and api.to_json(held) == before
    await click(service, "1")
    assert copies == [3] and (await state_of(service)).counter == 25


async def test_a_step_that_fails_half_way_leaves_nothing_in_memory(service: GameService,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 2: a step applied in place that then fails (here the engine, after changing the state) is never
    read by the next command: the service holds no state for the game until it reads the database again."""
    await open_table(service, ALICE, options={"start": "30"})
    apply = api.apply

    def broken(*args: Any, **kwargs: Any) -> Any:
        apply(*args, **kwargs)
        raise RuntimeError("a fault after the state changed")

    monkeypatch.setattr("bot.service.api.apply", broken)
    card = await only_card(service)
    with pytest.raises(RuntimeError):
        await service.choose(CHANNEL, clicking(ALICE), card.prompt.seq, ["3"])
    monkeypatch.undo()
    game = await service.store.open_game(CHANNEL)
    assert game is not None
    state = await service.game_state(game)
    assert state is not None and state.counter == 30 and state.step == 0  # type: ignore[attr-defined]
    await click(service, "1")
    assert (await state_of(service)).counter == 29


async def test_a_step_that_fails_to_commit_leaves_the_cache_as_it_was(service: GameService,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 2: nothing of a step that was not committed stays in memory."""
    await open_table(service, ALICE, options={"start": "30"})

    async def refused(*_: Any, **__: Any) -> int:
        raise VersionConflict("another process wrote first")

    monkeypatch.setattr(service.store, "commit_step", refused)
    card = await only_card(service)
    with pytest.raises(UserError, match="busy"):
        await service.choose(CHANNEL, clicking(ALICE), card.prompt.seq, ["3"])
    monkeypatch.undo()
    game = await service.store.open_game(CHANNEL)
    assert game is not None
    state = await service.game_state(game)
    assert state is not None and state.counter == 30  # type: ignore[attr-defined]
    await click(service, "1")
    assert (await state_of(service)).counter == 29


def test_a_state_reads_back_the_same_with_or_without_its_game_named() -> None:
    """engine.api.from_json with the game id the caller knows is the same exact round trip."""
    from engine.core.game import SeatSpec

    state, _ = api.new_game("elder-sign", [SeatSpec(seat=0, name="a")], {}, 7)
    text = api.to_json(state)
    assert api.to_json(api.from_json(text, "elder-sign")) == api.to_json(api.from_json(text)) == text


FIRST_TABLES = """
import asyncio, sys, time
from engine import api
from engine.core.game import SeatSpec
if sys.argv[1] == "warm":
    from bot.bot import warm_games
    asyncio.run(warm_games())
worst = 0.0
for game in ("elder-sign", "eldritch", "arkham3", "arkham-lcg"):
    started = time.process_time()
    api.new_game(game, [SeatSpec(seat=0, name="a")], {}, 11)
    worst = max(worst, time.process_time() - started)
print(worst)
"""


def test_content_is_loaded_at_start_up_so_no_first_table_pays_for_it() -> None:
    """Item 3: the bot loads and checks every game's content before it serves (bot.bot.warm_games, in a worker
    thread); the first table of each game then costs what any other does. Measured in fresh processes, the
    first `/game new`'s set-up with and without the start-up load."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = str(Path(__file__).resolve().parents[2])

    def worst_first_table(mode: str) -> float:
        done = subprocess.run([sys.executable, "-c", FIRST_TABLES, mode], capture_output=True, text=True,
                              check=True, cwd=root, env=dict(os.environ, PYTHONPATH=root))
        return float(done.stdout.split()[-1])

    warm, cold = worst_first_table("warm"), worst_first_table("cold")
    assert warm < 0.1 and warm * 5 < cold, (warm, cold)


def test_start_up_draws_a_first_board_of_every_game(caplog: pytest.LogCaptureFixture) -> None:
    """The first board after a restart does not pay for the layouts (Eldritch's token slots took 1.3 s): the bot
    draws one board of each size for every game in a worker thread once it is up (Settings.WARM_PICTURES)."""
    import logging

    from bot.bot import warm_pictures

    caplog.set_level(logging.INFO, logger="bot.bot")
    seconds = asyncio.run(warm_pictures())
    assert seconds > 0
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text
    assert any("first boards of" in r.getMessage() for r in caplog.records)


async def _rows_after_a_game(migrated_template: Path, folder: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row a short game writes (clicks, an undo, more clicks), as SQLite stores it, with a fixed clock."""
    folder.mkdir()
    path = folder / "rows.db"
    shutil.copy(migrated_template, path)
    store = Store(sqlite_url(path))
    service = GameService(store, render=False, clock=lambda: FIXED_NOW)
    try:
        for n, game in enumerate(("elder-sign", "arkham-lcg")):
            channel = 500 + n
            await service.new_game(channel, 1, ALICE, game, {}, seed=7)
            await service.start(channel, ALICE)
            rng = random.Random(n)
            for i in range(40):
                if i == 30:
                    await service.gm_undo(channel, Actor(MOD.user_id, MOD.name, is_moderator=True,
                                                         interaction_id=channel * 1000 + 999), 3)
                cards = await service.pending(channel)
                if not cards:
                    break
                prompt = cards[0].prompt
                answer = rng.choice(prompt.answers(prompt.seats[0], limit=64))
                actor = Actor(ALICE.user_id, ALICE.name, interaction_id=channel * 1000 + i + 1)
                await service.choose(channel, actor, prompt.seq, answer.choice, answer.amount, seat=answer.seat)
    finally:
        await store.close()
    rows: dict[str, list[tuple[Any, ...]]] = {}
    with contextlib.closing(sqlite3.connect(path)) as con:
        for (table,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"):
            columns = [r[1] for r in con.execute(f"PRAGMA table_info({table})")]
            # these rows are stamped by the wall clock, not the service's
            kept = [c for c in columns if not (table in ("game", "processed_interaction", "audit_log")
                                               and c == "created_at")]
            rows[table] = con.execute(f"SELECT {', '.join(kept)} FROM {table} ORDER BY rowid").fetchall()
    return rows


async def test_a_step_is_written_as_sqlalchemy_would_write_it(migrated_template: Path, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 29, item 1: on SQLite a step's statements go to the driver as SQL compiled once, with the column
    types' own conversions (`repo._run`). Every row of two games with an undo, timestamps and JSON included,
    is byte for byte what SQLAlchemy's own execution writes."""
    fast = await _rows_after_a_game(migrated_template, tmp_path / "fast")
    assert fast["action"] and fast["section"] and fast["game_event"] and fast["snapshot"]
    monkeypatch.setattr(repo, "_plain", lambda *_args: None)  # every statement through conn.execute
    assert await _rows_after_a_game(migrated_template, tmp_path / "core") == fast


async def test_boards_keep_snapshots_a_few_steps_apart(service: GameService) -> None:
    """Issue 29 (four statements a click): a step that ends a section with a board keeps its snapshot so its
    board is drawn without replaying, but not when one was kept fewer than BOARD_SNAPSHOT_GAP steps before (the
    card game ends a section on most steps: a snapshot on each was a fifth statement on half the clicks). The
    state of a board step in between is rebuilt from the log, exactly."""
    await open_table(service, ALICE, game="arkham-lcg", seed=3)
    game = await service.store.open_game(CHANNEL)
    assert game is not None and game.id is not None
    rendered: dict[int, str] = {}  # step -> the state then, as played
    for n in range(60):
        cards = await service.pending(CHANNEL)
        if not cards:
            break
        prompt = cards[0].prompt
        answers = prompt.answers(prompt.seats[0], limit=8)
        answer = answers[n % min(3, len(answers))]
        reply = await service.choose(CHANNEL, clicking(ALICE), prompt.seq, answer.choice, answer.amount,
                                     seat=answer.seat)
        if any(s.board_step is not None for s in reply.sections):
            state = await state_of(service)
            rendered[state.step] = api.to_json(state)
    kept = await service.store.snapshot_steps(game.id)
    final = await state_of(service)
    ended = {final.step} if final.over else set()  # a game's end is always kept
    boards = [s for s in kept if s % service.snapshot_every and s not in ended]
    assert len(rendered) > 10 and boards, (rendered.keys(), kept)
    assert all(b - a >= BOARD_SNAPSHOT_GAP for a, b in itertools.pairwise(boards)), kept
    assert set(boards) <= set(rendered)
    between = [s for s in rendered if s not in kept]
    assert between
    for step in between:
        assert api.to_json(await service._restore(game.id, step)) == rendered[step]
