"""Issue "Reliability and security": each test names the item it covers and failed before its fix.

Tests taking the `service` or `db_url` fixture run on SQLite and, when DATABASE_URL_PG is set, on PostgreSQL.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import time
from pathlib import Path
from types import SimpleNamespace
from unittest.mock import Mock

import discord
import pytest
from sqlalchemy import make_url, text

import engine.games
from bot.actors import ModeratorRoles, NotModerator
from bot.cogs.moderation import Moderation
from bot.render import plain
from bot.service import (
    ALREADY_APPLIED,
    BUSY,
    PICTURE_FAILED,
    Actor,
    AppliedButFailed,
    GameService,
    UserError,
)
from bot.settings import RedactingFilter, Settings, mask_url, redact, url_secrets
from bot.store import ENDED, OVER, Store
from engine import api
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, MOD
from tests.bot.helpers import clicking, only_card, open_table, state_of

engine.games.register("countdown-quiet", "tests.bot.quiet_game:QUIET")


def again(actor: Actor) -> Actor:
    """The same actor carrying the same interaction id: Discord delivering one interaction twice."""
    return Actor(actor.user_id, actor.name, actor.is_moderator, actor.interaction_id)


async def play(service: GameService, *choices: str, channel: int = CHANNEL) -> None:
    """Answer the pending prompt with each choice in turn, as whoever it asks."""
    for choice in choices:
        card = await only_card(service, channel)
        who = next(p for p in (ALICE, BOB, CAROL) if p.user_id in card.user_ids)
        await service.choose(channel, clicking(who), card.prompt.seq, [choice])


# ---- 1. exports are redacted ------------------------------------------------------------------------------

async def test_export_holds_only_the_public_state_and_log(service: GameService) -> None:
    """Item 1: /gm export carries what a spectator sees: no seed, no RNG, no secrets, no private events."""
    await service.new_game(CHANNEL, GUILD, ALICE, "countdown-peek", {}, seed=424242)
    await service.join(CHANNEL, BOB)
    await service.start(CHANNEL, ALICE)
    await play(service, "2", "1")
    state = await state_of(service)
    reply = await service.gm_export(CHANNEL, MOD)
    [file] = reply.files
    doc = json.loads(file.data)
    raw = file.data.decode()
    assert "seed" not in doc and "actions" not in doc and "424242" not in raw
    assert "rng" not in raw and "secrets" not in raw and "peeks" not in raw
    assert doc["state"] == plain(api.view(state, None))
    assert [e["text"] for e in doc["log"] if e["kind"] == "counter"] == ["alice takes 2; 8 left.",
                                                                         "bob takes 1; 7 left."]


async def test_full_export_needs_a_finished_game_and_seals_it_against_undo(service: GameService) -> None:
    """Item 1: the full export (seed + actions) is refused while the game runs, and a game the rules ended
    can no longer be reopened by undo once its future has been exported."""
    await open_table(service, ALICE, options={"start": "3"})
    with pytest.raises(UserError, match="only on a finished game"):
        await service.gm_export(CHANNEL, MOD, full=True)
    await play(service, "1")
    with pytest.raises(UserError, match="only on a finished game"):
        await service.gm_export(CHANNEL, MOD, full=True)
    await play(service, "2")
    assert (await service.store.current_game(CHANNEL)).status == OVER
    doc = json.loads((await service.gm_export(CHANNEL, MOD, full=True)).files[0].data)
    assert doc["seed"] == 5 and len(doc["actions"]) == 2
    with pytest.raises(UserError, match="can no longer be undone"):
        await service.gm_undo(CHANNEL, MOD)
    assert (await service.store.current_game(CHANNEL)).status == OVER


# ---- 2. credentials are never printed ---------------------------------------------------------------------

SECRET_URL = "postgresql+asyncpg://bot:Sup3r%2FSecret@127.0.0.1:1/miskatonic"


def test_migrate_prints_the_database_url_without_its_password(monkeypatch, capsys) -> None:
    """Item 2: `miskatonic migrate` names the database it migrated, password masked."""
    from bot import cli
    from bot.store import migrate

    monkeypatch.setenv("DATABASE_URL", SECRET_URL)
    monkeypatch.setattr(migrate, "upgrade", lambda url: None)
    assert cli.main(["migrate"]) == 0
    out = capsys.readouterr().out
    assert "bot:***@127.0.0.1:1/miskatonic" in out
    assert "Sup3r" not in out and "Secret" not in out


def test_migrate_failure_does_not_print_the_password(monkeypatch, capsys) -> None:
    """Item 2: an error (here the driver's, unreachable server) is printed with credentials masked."""
    from bot import cli
    from bot.store import migrate

    def refuse(url: str) -> None:
        raise ConnectionRefusedError(f"cannot connect to {url} (password Sup3r/Secret)")

    monkeypatch.setenv("DATABASE_URL", SECRET_URL)
    monkeypatch.setattr(migrate, "upgrade", refuse)
    assert cli.main(["migrate"]) == 1
    captured = capsys.readouterr()
    assert "ConnectionRefusedError" in captured.err
    assert "Sup3r" not in captured.err + captured.out


def test_log_lines_and_tracebacks_are_masked_for_every_logger(caplog) -> None:
    """Item 2: the filter masks our lines and the libraries' (SQLAlchemy's logger here), tracebacks too."""
    secrets = url_secrets(SECRET_URL)
    assert "Sup3r/Secret" in secrets and "Sup3r%2FSecret" in secrets
    record_filter = RedactingFilter(secrets)
    caplog.handler.addFilter(record_filter)
    try:
        logger = logging.getLogger("sqlalchemy.engine.Engine")
        logger.error("connect to %s failed", SECRET_URL)
        try:
            raise OSError("password Sup3r/Secret rejected")
        except OSError:
            logger.exception("again")
    finally:
        caplog.handler.removeFilter(record_filter)
    assert "Sup3r" not in caplog.text and "bot:***@" in caplog.text and "OSError" in caplog.text
    assert mask_url(SECRET_URL) == "postgresql+asyncpg://bot:***@127.0.0.1:1/miskatonic"
    assert mask_url("not a url at all") == "***" and redact("x Sup3r/Secret y", secrets) == "x *** y"


# ---- 3. the moderator role is re-read for every /gm command -----------------------------------------------

def _member_interaction(role_id: int) -> SimpleNamespace:
    member = Mock(spec=discord.Member)
    member.roles = [SimpleNamespace(id=role_id)]
    return SimpleNamespace(guild_id=GUILD, permissions=discord.Permissions.none(), user=member)


async def test_a_removed_moderator_role_stops_working_in_another_process_at_once(store: Store) -> None:
    """Item 3: process A cached the role; process B clears it; A's very next /gm command is refused."""
    one, two = GameService(store, render=False), GameService(store, render=False)
    await one.gm_settings(CHANNEL, MOD, GUILD, mod_role_id=777)
    cog = Moderation(SimpleNamespace(moderator_roles=ModeratorRoles(one)))  # type: ignore[arg-type]
    interaction = _member_interaction(777)
    assert await cog.interaction_check(interaction) is True  # A has now cached role 777
    await two.gm_settings(CHANNEL, MOD, GUILD, mod_role_id=0)  # B clears it
    with pytest.raises(NotModerator):
        await cog.interaction_check(interaction)


# ---- 4. a repeated interaction id is a no-op for every command ---------------------------------------------

async def test_a_repeated_join_takes_one_seat(service: GameService) -> None:
    """Item 4: /game join delivered twice seats its user once."""
    await service.new_game(CHANNEL, GUILD, ALICE, "countdown", {})
    join = clicking(BOB)
    await service.join(CHANNEL, join)
    assert (await service.join(CHANNEL, again(join))).ephemeral == [ALREADY_APPLIED]
    game = await service.store.open_game(CHANNEL)
    assert [s.name for s in await service.store.seats(game.id)] == ["alice", "bob"]


async def test_a_repeated_undo_undoes_once(service: GameService) -> None:
    """Item 4: /gm undo delivered twice takes back one step, not two."""
    await open_table(service, ALICE, BOB)
    await play(service, "1", "2")
    undo = clicking(MOD)
    await service.gm_undo(CHANNEL, undo)
    assert (await service.gm_undo(CHANNEL, again(undo))).ephemeral == [ALREADY_APPLIED]
    assert (await state_of(service)).counter == 9
    game = await service.store.open_game(CHANNEL)
    assert game.undo_epoch == 1 and [a.seq for a in await service.store.actions(game.id)] == [1]


async def test_every_command_applies_a_repeated_interaction_once(service: GameService) -> None:
    """Item 4: new, join, leave, start, kick, replace, settings, export, end and abandon are no-ops when
    repeated; the audit log shows each moderator command once."""
    calls = {
        "new": lambda a: service.new_game(CHANNEL, GUILD, a, "countdown", {}, seed=3),
        "join bob": lambda a: service.join(CHANNEL, a),
        "join carol": lambda a: service.join(CHANNEL, a),
        "leave": lambda a: service.leave(CHANNEL, a),
        "kick": lambda a: service.gm_kick(CHANNEL, a, BOB.user_id),
        "join bob again": lambda a: service.join(CHANNEL, a),
        "start": lambda a: service.start(CHANNEL, a),
        "replace": lambda a: service.gm_replace(CHANNEL, a, BOB.user_id, CAROL),
        "settings": lambda a: service.gm_settings(CHANNEL, a, GUILD, reminder_hours=3),
        "export": lambda a: service.gm_export(CHANNEL, a),
        "abandon": lambda a: service.abandon(CHANNEL, a),
    }
    actors = {"new": ALICE, "join bob": BOB, "join carol": CAROL, "leave": CAROL, "kick": MOD,
              "join bob again": BOB, "start": ALICE, "replace": MOD, "settings": MOD, "export": MOD,
              "abandon": ALICE}
    for name, call in calls.items():
        actor = clicking(actors[name])
        first = await call(actor)
        assert first.ephemeral != [ALREADY_APPLIED], name
        assert (await call(again(actor))).ephemeral == [ALREADY_APPLIED], name
    game = await service.store.open_game(CHANNEL)
    assert game.abandon_votes == [ALICE.user_id]
    assert [(s.user_id, s.name) for s in await service.store.seats(game.id)] == [
        (ALICE.user_id, "alice"), (CAROL.user_id, "carol")]
    end = clicking(MOD)
    await service.gm_end(CHANNEL, end)
    assert (await service.gm_end(CHANNEL, again(end))).ephemeral == [ALREADY_APPLIED]
    rows, _ = await service.store.audit(GUILD)
    assert sorted(r.command for r in rows) == ["end", "export", "kick", "replace", "settings"]


# ---- 5. nothing is called "unchanged" after a commit -------------------------------------------------------

async def test_a_picture_that_fails_after_the_commit_leaves_the_move_applied(store: Store, monkeypatch) -> None:
    """Item 5: a renderer failure after the commit costs the picture only; the reply says the move counted."""
    service = GameService(store, render=True)
    await open_table(service, ALICE, BOB)

    def broken(*args: object) -> bytes:
        raise RuntimeError("out of ink")

    monkeypatch.setattr("bot.service.render_table", broken)
    reply = await service.choose(CHANNEL, clicking(ALICE), (await only_card(service)).prompt.seq, ["2"])
    assert reply.applied and PICTURE_FAILED in reply.public and reply.images == []
    assert reply.public[0].startswith("alice takes 2; 8 left.")
    assert (await state_of(service)).counter == 8


async def test_a_failure_after_the_commit_is_reported_as_applied(service: GameService, monkeypatch) -> None:
    """Item 5: any error after a command's commit surfaces as AppliedButFailed, never as "nothing changed",
    and the change stays."""
    await open_table(service, ALICE, BOB)
    await play(service, "1")

    async def audit_down(*args: object, **kwargs: object) -> None:
        raise RuntimeError("audit table on fire")

    monkeypatch.setattr(service, "_audit", audit_down)
    with pytest.raises(AppliedButFailed):
        await service.gm_undo(CHANNEL, clicking(MOD))
    assert (await state_of(service)).counter == 10  # the undo itself was committed


async def test_the_error_message_after_a_commit_says_applied() -> None:
    """Item 5: bot.errors words an AppliedButFailed (or a failure while sending a committed reply)."""
    from bot.errors import report_error

    sent: list[str] = []

    async def send_message(text: str, ephemeral: bool) -> None:
        sent.append(text)

    def interaction(extras: dict[str, object]) -> SimpleNamespace:
        response = SimpleNamespace(is_done=lambda: False, send_message=send_message)
        return SimpleNamespace(type=discord.InteractionType.application_command, id=42, extras=extras,
                               user=SimpleNamespace(id=1), channel_id=2, command=None, data={}, response=response)

    await report_error(interaction({}), AppliedButFailed("x"))
    await report_error(interaction({"applied": True}), RuntimeError("message refused"))
    await report_error(interaction({}), RuntimeError("before anything"))
    assert [s.split(" (ref")[0] for s in sent] == [
        "Your action was applied, but something went wrong while showing it",
        "Your action was applied, but something went wrong while showing it",
        "Something went wrong; nothing was changed"]


# ---- 6. SQLite survives a power loss ------------------------------------------------------------------------

async def _pragma(store: Store, name: str) -> int:
    async with store.engine.connect() as conn:
        return (await conn.execute(text(f"PRAGMA {name}"))).scalar_one()


async def test_sqlite_commits_are_durable_by_default(sqlite_db: str) -> None:
    """Item 6: synchronous=FULL (2) unless the trade-off is chosen explicitly (SQLITE_SYNCHRONOUS=NORMAL)."""
    assert Settings().SQLITE_SYNCHRONOUS == "FULL"
    store = Store(sqlite_db)
    relaxed = Store(sqlite_db, synchronous="NORMAL")
    try:
        assert await _pragma(store, "synchronous") == 2
        assert await _pragma(relaxed, "synchronous") == 1
    finally:
        await store.close()
        await relaxed.close()
    with pytest.raises(ValueError, match="synchronous"):
        Store(sqlite_db, synchronous="OFF")


# ---- 7. bounded waits -----------------------------------------------------------------------------------------

async def _hold_game_lock(db_url: str, game_id: int) -> tuple[object, object]:
    """Another process holding the game's row (PostgreSQL) or the database's write lock (SQLite)."""
    if db_url.startswith("sqlite"):
        conn = sqlite3.connect(make_url(db_url).database, isolation_level=None)
        conn.execute("BEGIN IMMEDIATE")
        return conn, conn.close
    import asyncpg

    url = make_url(db_url).set(drivername="postgresql")
    conn = await asyncpg.connect(url.render_as_string(hide_password=False))
    tx = conn.transaction()
    await tx.start()
    await conn.execute("SELECT id FROM game WHERE id = $1 FOR UPDATE", game_id)
    return conn, conn.close


async def test_a_click_on_a_locked_game_is_told_busy_in_bounded_time(db_url: str) -> None:
    """Item 7: a write that waits on a lock held elsewhere gives up after the lock timeout with "busy, try
    again" (PostgreSQL waited forever; SQLite raised "database is locked" as an internal error)."""
    store = Store(db_url, lock_timeout_ms=300)
    service = GameService(store, render=False)
    try:
        await open_table(service, ALICE, BOB)
        seq = (await only_card(service)).prompt.seq
        game = await store.open_game(CHANNEL)
        conn, close = await _hold_game_lock(db_url, game.id)
        try:
            started = time.monotonic()
            with pytest.raises(UserError, match=BUSY):
                await asyncio.wait_for(service.choose(CHANNEL, clicking(ALICE), seq, ["1"]), 10)
            assert time.monotonic() - started < 5
        finally:
            result = close()
            if asyncio.iscoroutine(result):
                await result
        assert (await state_of(service)).counter == 10
        await service.choose(CHANNEL, clicking(ALICE), seq, ["1"])  # free again: the click works
        assert (await state_of(service)).counter == 9
    finally:
        await store.close()


# ---- 8. bounded memory and disk ---------------------------------------------------------------------------------

async def test_the_cache_drops_finished_idle_and_least_recent_games(store: Store) -> None:
    """Item 8: finished games leave the cache at once, idle ones after the idle time, and it never holds
    more than its size."""
    clock = [0.0]
    service = GameService(store, render=False, cache_size=2, cache_idle_seconds=60, ticker=lambda: clock[0])
    for channel in (1, 2, 3):
        await open_table(service, ALICE, channel=channel, options={"start": "3"})
    assert len(service._cache) == 2  # the least recently used of the three went
    card = await only_card(service, 3)
    await service.choose(3, clicking(ALICE), card.prompt.seq, ["3"])  # game 3 ends
    finished = (await store.current_game(3)).id
    assert finished not in service._cache
    clock[0] += 61
    await open_table(service, ALICE, channel=4)
    assert list(service._cache) == [(await store.open_game(4)).id]  # the idle ones went
    assert (await service.status(1, ALICE)).ephemeral  # an evicted game still loads from the database


async def test_snapshots_are_sparse_and_undo_replays_between_them(service: GameService) -> None:
    """Item 8: a snapshot per kept step (start, every N, phase ends), not one per step, and the game's head
    only at those steps; every step, the latest included, is still restored exactly (by replay), and undo
    still works (the step it goes back to is stored until the next click)."""
    service.snapshot_every = 5
    await open_table(service, ALICE, game="countdown-quiet", options={"start": "30"})
    game_id = (await service.store.open_game(CHANNEL)).id
    seen = [api.to_json(await service._restore(game_id, 0))]
    for _ in range(12):
        await play(service, "1")
        loaded = await service._load_game(await service.store.open_game(CHANNEL))
        seen.append(api.to_json(loaded.state))
        assert api.to_json(await state_of(service)) == seen[-1]  # the latest step is always restored
    assert await service.store.snapshot_steps(game_id) == [0, 5, 10]
    for step, expected in enumerate(seen):
        assert api.to_json(await service._restore(game_id, step)) == expected
    await service.gm_undo(CHANNEL, MOD, steps=4)
    assert api.to_json(await state_of(service)) == seen[8]
    assert await service.store.snapshot_steps(game_id) == [0, 5, 8]
    await play(service, "2")
    assert await service.store.snapshot_steps(game_id) == [0, 5]
    assert (await state_of(service)).step == 9


async def test_snapshots_no_undo_can_reach_are_pruned(service: GameService, monkeypatch) -> None:
    """Item 8: kept snapshots older than the undo window go (deeper undos replay from the start), and a game
    people ended keeps only its final state."""
    monkeypatch.setattr("bot.service.SNAPSHOT_WINDOW", 6)
    service.snapshot_every = 3
    await open_table(service, ALICE, game="countdown-quiet", options={"start": "30"})
    game_id = (await service.store.open_game(CHANNEL)).id
    await play(service, *["1"] * 13)
    assert await service.store.snapshot_steps(game_id) == [0, 6, 9, 12]
    await service.gm_undo(CHANNEL, MOD, steps=12)  # beyond every kept snapshot but the start
    assert (await state_of(service)).counter == 29
    await service.gm_end(CHANNEL, MOD)
    assert await service.store.snapshot_steps(game_id) == [1]
    assert (await service.store.current_game(CHANNEL)).status == ENDED


async def test_processed_interactions_are_forgotten_after_a_day(service: GameService) -> None:
    """Item 8 (bounded disk) for item 4's table: interactions too old to be redelivered are pruned."""
    from datetime import timedelta

    from bot.store.models import utcnow

    await service.new_game(CHANNEL, GUILD, clicking(ALICE), "countdown", {})
    assert await service.store.prune_interactions(utcnow() - timedelta(hours=1)) == 0
    assert await service.store.prune_interactions(utcnow() + timedelta(seconds=1)) == 1


# ---- 9. numbers out of range ------------------------------------------------------------------------------------

async def test_numbers_beyond_64_bits_are_refused_clearly(service: GameService) -> None:
    """Item 9: pages and role ids are range-checked before they reach the database."""
    await open_table(service, ALICE, BOB)
    huge = 2**70
    for call in (service.log(CHANNEL, ALICE, page=huge), service.log(CHANNEL, ALICE, page=0),
                 service.gm_audit(CHANNEL, MOD, page=huge)):
        with pytest.raises(UserError, match="page must be a whole number from 1 to 10,000"):
            await call
    with pytest.raises(UserError, match="mod_role must be a whole number from 0 to"):
        await service.gm_settings(CHANNEL, MOD, GUILD, mod_role_id=huge)
    assert (await service.store.guild_settings(GUILD)).mod_role_id is None


async def test_the_console_answers_bad_numbers_without_a_traceback(service: GameService, tmp_path: Path) -> None:
    """Item 9: the console's numbers (pages, role ids, amounts, option numbers) in every spelling get a
    sentence, never a traceback, and change nothing."""
    from bot.console import Console

    lines: list[str] = []
    console = Console(service, tmp_path, seed=3, write=lines.append)
    big = "9" * 25
    script = ["alice /game new game:countdown", "alice /game start", f"alice /game log page:{big}",
              f"mod[mod] /gm audit page:{big}", f"mod[mod] /gm settings mod_role:{big}", "alice choose ⓪",
              "alice choose ٣", "alice /game log page:٣", "alice choose 1"]
    for number, line in enumerate(script, 1):
        await console.handle(line, number)
    assert "[refused to alice] page must be a whole number from 1 to 10,000." in lines
    assert "[refused to mod] page must be a whole number from 1 to 10,000." in lines
    assert any(line.startswith("[refused to mod] mod_role must be a whole number from 0 to") for line in lines)
    assert sum(line.startswith("[refused to alice]") and "option" in line for line in lines) == 2, lines
    assert "[error] line 8: page must be a whole number, not '٣'" in lines
    assert "[public] alice takes 1; 9 left." in lines  # the bad lines changed nothing
    assert (await service.store.guild_settings(1)).mod_role_id is None


# ---- keep it true ---------------------------------------------------------------------------------------------------

def test_ci_fails_rather_than_skips_without_postgresql(tmp_path: Path) -> None:
    """Keep it true: under CI=true a PostgreSQL test without DATABASE_URL_PG is an error, not a skip."""
    import os
    import subprocess
    import sys

    repo = Path(__file__).resolve().parents[2]
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL_PG"} | {"CI": "true"}
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "postgres",
                             "tests/bot/test_store.py::test_postgres_migrations_have_no_drift"],
                            cwd=repo, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode != 0 and "skipped" not in result.stdout, result.stdout
    assert "DATABASE_URL_PG is not set" in result.stdout
