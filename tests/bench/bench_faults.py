"""Clicks under database faults, through the real bot and the fake Discord (issue "Faults the table survives").

    python -m tests.bench.bench_faults [--seconds 2] [--tables 3]

Measured (2-core machine shared with other work, --seconds 12, three tables): every fault 0 acknowledged clicks
lost, one ERROR line, the process alive (a read-only folder killed it with SIGBUS before), every click refused
during the fault told the storage is unavailable, play going on after it without a restart (the first click
after the fault's end acknowledged within 0.01–0.23 s; a restart is over within the fault's window) —

| fault | clicks (during the fault) | told unavailable | acknowledged, then lost |
|---|---|---|---|
| SQLite moved away and back | 162 (79) | 79 | 0 |
| SQLite folder read-only | 115 (68) | 68 | 0 |
| SQLite disk full | 99 (51) | 52 | 0 |
| PostgreSQL restarted, fast | 78 (31) | 4 | 0 |
| PostgreSQL restarted, immediate | 94 (30) | 18 | 0 |
| PostgreSQL down 12 s | 251 (183) | 178 | 0 |

Three tables click "Take 1" as fast as the bot answers, while the SQLite database is, in turn: moved away and
put back, made read-only (its folder and -shm file, `chattr +i`, root only; skipped otherwise), and on a disk
that fills up and is freed again (a small tmpfs, root only); and, when `DATABASE_URL_PG` names a PostgreSQL
server this machine runs (`pg_ctlcluster`, root), while PostgreSQL is restarted (fast, then immediate: every
connection killed) and stopped for the fault's length and started again. For each fault it prints the clicks
acknowledged (the narration arrived), those told the storage is unavailable, the
acknowledged clicks missing from the action log afterwards (read by a fresh store, as a restart would), the
ERROR lines logged and whether the bot process survived (the faults run in this process: a SIGBUS ends it).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bot.store import Store
from tests.e2e.fakediscord import FakeDiscord, FakeInteraction, point_discord_py_at
from tests.e2e.harness import (
    Table,
    fresh_db,
    migrated_template,
    open_table,
    prompt_ids,
    register_test_games,
    start_bot,
)

UNAVAILABLE = "The table's storage is unavailable right now; nothing was changed — try again in a moment."


class Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage()[:100])


def acknowledged(click: FakeInteraction) -> bool:
    """The bot answered the click and told the clicker nothing privately: the move was shown as made."""
    return click.callback is not None and not any(m.ephemeral for m in click.followups)


def told_unavailable(click: FakeInteraction) -> bool:
    return any(m.content == UNAVAILABLE for m in click.followups)


async def play(fake: FakeDiscord, table: Table, until: float, clicks: list[tuple[int, FakeInteraction]]) -> None:
    """Click on the table's current prompt until `until` or the game's end (a 30-step countdown)."""
    prompt = await table.current_prompt()
    while time.monotonic() < until:
        game_id, _ = prompt_ids(prompt)
        click = await table.choose(prompt, "Take 1")
        await table.outcome(click, timeout=15)
        clicks.append((game_id, click))
        found = table.prompt_messages()
        if not found:
            return  # the game is over
        prompt = found[-1]


def moved_away(path: Path) -> tuple[Callable[[], None], Callable[[], None]]:
    aside = path.with_name("aside.db")
    return (lambda: os.rename(path, aside)), (lambda: os.rename(aside, path))


def read_only(path: Path) -> tuple[Callable[[], None], Callable[[], None]]:
    locked = [str(path.parent), str(path) + "-shm"]
    return ((lambda: subprocess.run(["chattr", "+i", *locked], check=True)),
            (lambda: subprocess.run(["chattr", "-i", *locked], check=True)))


def full_disk(path: Path) -> tuple[Callable[[], None], Callable[[], None]]:
    """The database's disk (a tmpfs of its own) filled to the last byte, then freed."""
    filler = path.with_name("filler")

    def fill() -> None:
        with open(filler, "wb") as out:
            try:
                while True:
                    out.write(b"\0" * 65536)
                    out.flush()
            except OSError:  # ENOSPC: the disk is full
                pass

    return fill, (lambda: filler.unlink())


def small_disk(directory: Path, megabytes: int = 16) -> Path | None:
    """A tmpfs of `megabytes` mounted in `directory` (root only), or None where it cannot be mounted."""
    mount = directory / "small-disk"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={megabytes}m", "tmpfs", str(mount)],
                          capture_output=True)
    return mount if done.returncode == 0 else None


def postgres_cluster() -> list[str] | None:
    """`pg_ctlcluster <version> <name>` for the one local cluster, or None (no cluster, or not root)."""
    if os.geteuid() != 0 or not shutil.which("pg_lsclusters"):
        return None
    rows = subprocess.run(["pg_lsclusters", "-h"], capture_output=True, text=True).stdout.split("\n")
    online = [r.split() for r in rows if " online" in r]
    return ["pg_ctlcluster", online[0][0], online[0][1]] if online else None


def postgres_fault(cluster: list[str], how: str) -> Callable[[Path], tuple[Callable[[], None], Callable[[], None]]]:
    """`restart-fast` / `restart-immediate`: a restart at the fault's start (connections killed); `down`: stopped
    for the fault's length, then started."""
    def fault(_: Path) -> tuple[Callable[[], None], Callable[[], None]]:
        if how == "down":
            return ((lambda: subprocess.run([*cluster, "stop", "-m", "fast"], check=True)),
                    (lambda: subprocess.run([*cluster, "start"], check=True)))
        mode = how.removeprefix("restart-")
        return (lambda: subprocess.run([*cluster, "restart", "-m", mode], check=True)), (lambda: None)
    return fault


async def empty_postgres(url: str) -> str:
    """The PostgreSQL database at `url`, migrated and emptied (the bench's own: every table is truncated)."""
    from sqlalchemy import text
    from sqlmodel import SQLModel

    from bot.store import migrate

    await asyncio.to_thread(migrate.upgrade, url)
    store = Store(url)
    tables = ", ".join(f'"{t.name}"' for t in SQLModel.metadata.sorted_tables)
    async with store.engine.begin() as conn:
        await conn.execute(text(f"TRUNCATE {tables} RESTART IDENTITY CASCADE"))
    await store.close()
    return url


async def scenario(name: str, fault: Callable[[Path], tuple[Callable[[], None], Callable[[], None]]],
                   template: Path, directory: Path, seconds: float, tables: int,
                   database_url: str | None = None) -> dict[str, object]:
    database_url = database_url or fresh_db(template, directory, f"{name}.db")
    path = Path(database_url.split(":///", 1)[1]) if ":///" in database_url else directory
    errors = Errors()
    logging.getLogger().addHandler(errors)
    fake = FakeDiscord()
    await fake.start()
    clicks: list[tuple[int, FakeInteraction]] = []
    try:
        with point_discord_py_at(fake.api_base, fake.gateway_url):
            running = await start_bot(fake, database_url, 1)
            try:
                channels = [fake.channel("table-1", "Arkham"), fake.channel("table-2", "Arkham"),
                            fake.channel("table-1", "Dunwich")][:tables]
                for ch in channels:
                    await open_table(Table(fake, ch), [fake.alice, fake.bob], options="start=30")
                start, end = fault(path)
                began = time.monotonic()
                players = [asyncio.create_task(play(fake, Table(fake, ch), began + 3 * seconds, clicks))
                           for ch in channels]
                await asyncio.sleep(seconds)
                await asyncio.to_thread(start)
                fault_at = time.monotonic()
                await asyncio.sleep(seconds)
                await asyncio.to_thread(end)
                ended_at = time.monotonic()
                await asyncio.gather(*players)
                await fake.settle()
            finally:
                await running.stop()
        await fake.stop()
    finally:
        logging.getLogger().removeHandler(errors)
    store = Store(database_url)  # what a restart reads
    try:
        logged: set[int] = set()
        for game_id in {g for g, _ in clicks}:
            logged |= {a.interaction_id for a in await store.actions(game_id) if a.interaction_id is not None}
    finally:
        await store.close()
    during = [c for _, c in clicks if fault_at <= c.dispatched_at < ended_at]
    acked = [c for _, c in clicks if acknowledged(c)]
    after = [c.dispatched_at for c in acked if c.dispatched_at >= ended_at]
    return {
        "fault": name, "seconds": seconds, "clicks": len(clicks), "acknowledged": len(acked),
        "clicks_during_fault": len(during), "acknowledged_during_fault": sum(acknowledged(c) for c in during),
        "told_unavailable": sum(told_unavailable(c) for _, c in clicks),
        "acknowledged_but_lost": sum(c.id not in logged for c in acked),
        "refused_but_logged": sum(c.id in logged for _, c in clicks if told_unavailable(c)),
        # from the fault's end to the first click after it that was acknowledged (None: none was)
        "recovered_after_s": round(min(after) - ended_at, 2) if after else None,
        "error_lines": len(errors.lines), "errors": errors.lines[:3], "process_alive": True,
    }


async def main(seconds: float, tables: int) -> None:
    register_test_games()
    directory = Path(tempfile.mkdtemp(prefix="bench-faults-"))
    template = migrated_template(directory)
    faults: list[tuple[str, Callable[[Path], tuple[Callable[[], None], Callable[[], None]]]]] = [
        ("moved-away-and-back", moved_away)]
    probe = directory / "probe"
    probe.write_text("x")
    if shutil.which("chattr") and subprocess.run(["chattr", "+i", str(probe)], capture_output=True).returncode == 0:
        subprocess.run(["chattr", "-i", str(probe)], check=True)
        faults.append(("read-only-folder", read_only))
    for name, fault in faults:
        print(json.dumps(await scenario(name, fault, template, directory, seconds, tables)), flush=True)
    disk = small_disk(directory)
    if disk is not None:
        try:
            url = fresh_db(template, disk, "full-disk.db")
            print(json.dumps(await scenario("full-disk", full_disk, template, disk, seconds, tables, url)),
                  flush=True)
        finally:
            subprocess.run(["umount", "-l", str(disk)], check=False)
    cluster, pg_url = postgres_cluster(), os.environ.get("DATABASE_URL_PG")
    if cluster is not None and pg_url:
        for how in ("restart-fast", "restart-immediate", "down"):
            url = await empty_postgres(pg_url)
            print(json.dumps(await scenario(f"postgres-{how}", postgres_fault(cluster, how), template, directory,
                                            seconds, tables, url)), flush=True)
    shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="before, during and after the fault")
    parser.add_argument("--tables", type=int, default=3)
    args = parser.parse_args()
    logging.getLogger().setLevel(logging.ERROR)  # counted by `Errors`, not printed
    asyncio.run(main(args.seconds, args.tables))
