"""Interaction latency of the real bot against the fake Discord on loopback (SQLite file database).

    python -m tests.bench.bench_interactions [--turns 240] [--tables 1] [--shards 1]

Plays countdown games by button clicks (each click commits an action and posts a board image) and reads
`/game log` between turns, then prints:

* interaction → first callback: how long Discord waits for the acknowledgement (must stay far below 3 s);
* click → follow-up with the board image: what a player waits for the result of a move;
* /game board → its image.

Figures depend on the machine; they are printed, not asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from tests.e2e.fakediscord import FakeDiscord, FakeInteraction, point_discord_py_at
from tests.e2e.harness import Table, fresh_db, migrated_template, open_table, register_test_games, start_bot


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def line(name: str, seconds: list[float]) -> str:
    ms = [s * 1000 for s in seconds]
    return (f"{name:<38} n={len(ms):<5} p50={percentile(ms, 50):7.1f} ms  p95={percentile(ms, 95):7.1f} ms  "
            f"p99={percentile(ms, 99):7.1f} ms  max={max(ms):7.1f} ms  mean={statistics.fmean(ms):7.1f} ms")


class Figures:
    def __init__(self) -> None:
        self.callback: list[float] = []
        self.click_image: list[float] = []
        self.board_image: list[float] = []

    def acked(self, ix: FakeInteraction) -> None:
        assert ix.latency is not None
        self.callback.append(ix.latency)


async def play_table(fake: FakeDiscord, table: Table, turns: int, figures: Figures) -> None:
    players = [fake.alice, fake.bob, fake.carol]
    prompt = await open_table(table, players, options="start=30")
    for turn in range(turns):
        click = await table.choose(prompt, "Take 1")
        image = await fake.wait_until(lambda c=click: next((m for m in c.followups if m.images), None),
                                      "the board after a move", 10)
        figures.acked(click)
        figures.click_image.append(image.updated_at - click.dispatched_at)
        log = await fake.slash("game log", user=players[turn % 3], channel=table.channel)
        await fake.reply(log)
        figures.acked(log)
        if turn % 10 == 0:
            board = await fake.slash("game board", user=players[0], channel=table.channel)
            shown = await fake.reply(board)
            figures.acked(board)
            figures.board_image.append(shown.updated_at - board.dispatched_at)
        if "won" in image.text():
            # 30 taken: the game is won; open the next one in the same channel.
            prompt = await open_table(table, players, options="start=30")
        else:
            prompt = await fake.wait_until(
                lambda c=click: next((m for m in c.followups if m.buttons()), None), "the next prompt", 10)


async def run(turns: int, tables: int, shards: int) -> Figures:
    register_test_games()
    figures = Figures()
    with tempfile.TemporaryDirectory() as tmp:
        url = fresh_db(migrated_template(Path(tmp)), Path(tmp))
        fake = FakeDiscord()
        await fake.start()
        with point_discord_py_at(fake.api_base, fake.gateway_url):
            running = await start_bot(fake, url, shards)
            try:
                channels = [c for g in fake.world.guilds.values() for c in g.channels.values()][:tables]
                per_table = max(1, turns // len(channels))
                started = time.perf_counter()
                await asyncio.gather(*(play_table(fake, Table(fake, ch), per_table, figures) for ch in channels))
                elapsed = time.perf_counter() - started
            finally:
                await running.stop()
        await fake.stop()
    if fake.failures:
        raise SystemExit(f"the fake recorded failures: {fake.failures}")
    print(f"{len(figures.callback)} interactions in {elapsed:.1f} s over {len(channels)} table(s), "
          f"{shards} shard(s)")
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=240, help="button clicks in all (each with a /game log)")
    parser.add_argument("--tables", type=int, default=1, help="channels playing at the same time (1-5)")
    parser.add_argument("--shards", type=int, default=1)
    args = parser.parse_args()
    figures = asyncio.run(run(args.turns, args.tables, args.shards))
    print(line("interaction -> first callback", figures.callback))
    print(line("click -> follow-up with board image", figures.click_image))
    print(line("/game board -> image", figures.board_image))


if __name__ == "__main__":
    main()
