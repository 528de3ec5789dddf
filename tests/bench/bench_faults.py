"""Clicks under database faults, through the real bot and the fake Discord (issue "Faults the table survives").

    python -m tests.bench.bench_faults [--seconds 2] [--tables 3]

Measured (2-core machine shared with other work, --seconds 2): moved away and back, 21 clicks, 10 during the
fault, all 10 told the storage is unavailable, 0 acknowledged clicks lost, 1 ERROR line; read-only folder, 21
clicks, 10 during the fault, all told unavailable, 0 lost, 1 ERROR line, the process alive (it died of SIGBUS
before).

Three tables click "Take 1" as fast as the bot answers, while the SQLite database is, in turn: moved away and
put back, and made read-only (its folder and -shm file, `chattr +i`, root only; skipped otherwise). For each
fault it prints the clicks acknowledged (the narration arrived), those told the storage is unavailable, the
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


async def scenario(name: str, fault: Callable[[Path], tuple[Callable[[], None], Callable[[], None]]],
                   template: Path, directory: Path, seconds: float, tables: int) -> dict[str, object]:
    database_url = fresh_db(template, directory, f"{name}.db")
    path = Path(database_url.split(":///", 1)[1])
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
                start()
                fault_at = time.monotonic()
                await asyncio.sleep(seconds)
                end()
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
    return {
        "fault": name, "seconds": seconds, "clicks": len(clicks), "acknowledged": len(acked),
        "clicks_during_fault": len(during), "acknowledged_during_fault": sum(acknowledged(c) for c in during),
        "told_unavailable": sum(told_unavailable(c) for _, c in clicks),
        "acknowledged_but_lost": sum(c.id not in logged for c in acked),
        "refused_but_logged": sum(c.id in logged for _, c in clicks if told_unavailable(c)),
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
    shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="before, during and after the fault")
    parser.add_argument("--tables", type=int, default=3)
    args = parser.parse_args()
    logging.getLogger().setLevel(logging.ERROR)  # counted by `Errors`, not printed
    asyncio.run(main(args.seconds, args.tables))
