"""GameService round trips on a database, without Discord and without rendering: what one click costs the
service, and whether that cost grows with the length of a game.

    python -m tests.bench.bench_service [--actions 200] [--games elder-sign,eldritch,arkham3,arkham-lcg]
                                        [--synchronous FULL] [--long 1000] [--profile]

For each game (one seat, random answers, new games until `--actions` prompts were answered) and each SQLite
`synchronous` mode asked for (FULL is the default: an acknowledged action survives a power loss; NORMAL only a
killed process), it prints per click (one `GameService.choose`: lock → load (cached) → authorize → apply →
commit → reply):

* CPU: the process's CPU time (every thread: the database driver works in one), p50 and p95;
* wall: the elapsed time, p50 and p95 (on a busy machine this waits for other processes too);
* SQL: statements sent to the database (counted with SQLAlchemy's cursor events), mean and most;
* bytes: the parameter bytes of the writing statements (the JSON of states, sections, events), median;
* restore: loading a game's latest state with nothing in memory (seats + the stored state + the log replayed
  on top of it, at most `snapshot_every` - 1 actions), what the first click
  after a restart, or after another process wrote, costs.

Then a long game (`--long` steps of Countdown, the infrastructure tests' game, started high): the CPU per click
and the cold restore around step 10 and around the last step, and their ratio, which must stay near 1.

With `DATABASE_URL_PG` set (a PostgreSQL database this may fill and empty), the same on PostgreSQL.
The file runs against whichever tree `PYTHONPATH` names, so two trees can be compared with it.
Figures depend on the machine; they are printed, not asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import event

import engine.games
from bot.service import Actor, GameService
from bot.store import Store, migrate
from engine import api
from engine.core.game import OptionSpec
from tests.bench.timing import percentile
from tests.support.countdown import CountdownRules

GUILD = 1
PLAYER = Actor(user_id=4242, name="bench")
GAMES = ("elder-sign", "eldritch", "arkham3", "arkham-lcg")
WRITES = ("INSERT", "UPDATE", "DELETE")


class Marathon(CountdownRules):
    """Countdown with a counter that may start in the thousands: a game as long as the benchmark asks."""

    id = "marathon"

    def option_specs(self) -> list[OptionSpec]:
        return [OptionSpec(id="start", label="Starting counter", kind="int", default=10, min=3, max=100_000)]


MARATHON = Marathon()


@dataclass
class Counter:
    """SQL statements and the bytes of their parameters, as the engine sends them. The parameters are only
    kept when seen and measured afterwards (`written`): walking them is the bench's work, not the click's, and
    inside the timed window it added a tenth to the commit thread's CPU."""

    statements: int = 0
    kinds: dict[str, int] = field(default_factory=dict)
    _writes: list[Any] = field(default_factory=list)
    _measured: int = 0

    @property
    def written(self) -> int:
        self._measured += sum(_text_bytes(parameters) for parameters in self._writes)
        self._writes.clear()
        return self._measured

    def attach(self, store: Store) -> None:
        for sync in store.sync_engines():  # SQLite writes a step on an engine of its own
            event.listen(sync, "before_cursor_execute", self._seen)

    def _seen(self, _conn: Any, _cursor: Any, statement: str, parameters: Any, _context: Any,
              executemany: bool) -> None:
        self.statements += 1
        verb = statement.lstrip().split(None, 1)[0].upper()
        self.kinds[verb] = self.kinds.get(verb, 0) + 1
        if verb in WRITES:
            self._writes.append(parameters)


def _text_bytes(parameters: Any) -> int:
    """The length of every text and bytes value in a statement's parameters: a row (a dict or a tuple), a list
    of rows (executemany), or several rows' values in one flat tuple (an INSERT of many rows in one statement)."""
    rows = parameters if isinstance(parameters, list) else [parameters]
    total = 0
    for row in rows:
        for value in (row.values() if isinstance(row, dict) else row):
            if isinstance(value, str | bytes):
                total += len(value)
            elif isinstance(value, tuple | list | dict):
                total += _text_bytes(value)
    return total


@dataclass
class Click:
    cpu: float
    wall: float
    statements: int
    written: int
    step: int


async def new_table(service: GameService, channel: int, game: str, options: dict[str, str], seed: int) -> int:
    await service.new_game(channel, GUILD, PLAYER, game, options, seed=seed)
    await service.start(channel, PLAYER)
    found = await service.store.open_game(channel)
    assert found is not None and found.id is not None
    return found.id


async def click(service: GameService, counter: Counter, channel: int, rng: random.Random,
                interaction: int) -> Click | None:
    """Answer the channel's first pending prompt at random; None when the game waits for nothing."""
    cards = await service.pending(channel)
    if not cards:
        return None
    prompt = cards[0].prompt
    answer = rng.choice(prompt.answers(prompt.seats[0], limit=256))
    actor = Actor(PLAYER.user_id, PLAYER.name, interaction_id=interaction)
    statements, written = counter.statements, counter.written
    cpu, wall = time.process_time(), time.perf_counter()
    reply = await service.choose(channel, actor, prompt.seq, answer.choice, answer.amount, seat=answer.seat,
                                 game_id=cards[0].game_id, epoch=cards[0].epoch)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    statements, written = counter.statements - statements, counter.written - written
    assert reply.applied, reply
    # the step from the game's row: reading the state itself would count as a reader holding it (the next
    # click would then copy it, as it does after a player's command reads it)
    game = await service.store.current_game(channel)
    return Click(cpu, wall, statements, written, game.state_step if game is not None else 0)


async def play(service: GameService, counter: Counter, game: str, actions: int, seed: int,
               channel_base: int) -> tuple[list[Click], list[int]]:
    """Play games (one seat each, so one user answers everything) until `actions` prompts were answered."""
    rng = random.Random(seed)
    clicks: list[Click] = []
    game_ids: list[int] = []
    channel = channel_base
    while len(clicks) < actions:
        channel += 1
        game_ids.append(await new_table(service, channel, game, {}, seed + channel))
        while len(clicks) < actions:
            done = await click(service, counter, channel, rng, channel_base * 1_000_000 + len(clicks) + 1)
            if done is None:
                break
            clicks.append(done)
    return clicks, game_ids


async def restore(service: GameService, game_id: int) -> float:
    """CPU seconds of one cold load of the game's latest state, by a service with nothing in memory (what a
    restart or another process's write costs). The clicking service's memory is left alone: emptying it would
    change what its next click writes (a step after a load keeps a snapshot, not knowing the last kept one)."""
    game = await service.store.get_game(game_id)
    assert game is not None
    restarted = GameService(service.store, render=False)
    started = time.process_time()
    await restarted._load_game(game)
    return time.process_time() - started


def line(name: str, values: list[float], unit: str = "ms", scale: float = 1000.0) -> str:
    v = [x * scale for x in values]
    return (f"  {name:<9} p50={statistics.median(v):8.2f} {unit}  p95={percentile(v, 0.95):8.2f} {unit}"
            f"  max={max(v):8.2f} {unit}")


async def bench_games(url: str, label: str, games: list[str], actions: int, seed: int,
                      synchronous: str) -> dict[str, float]:
    store = Store(url, synchronous=synchronous)
    counter = Counter()
    counter.attach(store)
    medians: dict[str, float] = {}
    try:
        service = GameService(store, render=False)
        for n, game in enumerate(games, start=1):
            # the first game of each kind pays for loading its content: not a click's cost
            await new_table(service, 900_000 + n, game, {}, seed)
            clicks, game_ids = await play(service, counter, game, actions, seed, n * 1000)
            restores = [await restore(service, game_ids[i % len(game_ids)]) for i in range(min(60, 3 * len(game_ids)))]
            last = await service.store.get_game(game_ids[-1])
            state = None if last is None else await service.game_state(last)
            size = len(api.to_json(state)) if state is not None else 0
            statements = [c.statements for c in clicks]
            print(f"{label}: {game}, {len(clicks)} clicks in {len(game_ids)} games (state ~{size / 1024:.1f} KiB)")
            print(line("cpu", [c.cpu for c in clicks]))
            print(line("wall", [c.wall for c in clicks]))
            print(f"  sql       mean={statistics.mean(statements):5.2f}  p50={statistics.median(statements):4.1f}"
                  f"  max={max(statements)} statements per click")
            print(f"  bytes     p50={statistics.median(c.written for c in clicks):8.0f}  "
                  f"mean={statistics.mean(c.written for c in clicks):8.0f} written per click")
            print(line("restore", restores))
            medians[game] = statistics.median(c.cpu for c in clicks) * 1000
        print(f"  statements by kind over every click: {dict(sorted(counter.kinds.items()))}")
    finally:
        await store.close()
    return medians


async def bench_long(url: str, label: str, steps: int, seed: int, synchronous: str) -> None:
    store = Store(url, synchronous=synchronous)
    counter = Counter()
    counter.attach(store)
    try:
        service = GameService(store, render=False)
        rng = random.Random(seed)
        channel = 777_000
        game_id = await new_table(service, channel, "marathon", {"start": str(steps * 3)}, seed)
        early: list[Click] = []
        late: list[Click] = []
        restore_early: list[float] = []
        restore_late: list[float] = []
        interaction = 777_000_000
        while True:
            interaction += 1
            done = await click(service, counter, channel, rng, interaction)
            if done is None or done.step > steps:
                break
            if 5 <= done.step < 45:
                early.append(done)
                restore_early.append(await restore(service, game_id))
            elif done.step >= steps - 40:
                late.append(done)
                restore_late.append(await restore(service, game_id))
        a, b = statistics.median(c.cpu for c in early), statistics.median(c.cpu for c in late)
        ra, rb = statistics.median(restore_early), statistics.median(restore_late)
        print(f"{label}: a long game ({steps} steps)")
        print(f"  click cpu p50  steps 5-45: {a * 1000:6.2f} ms   last 40 steps: {b * 1000:6.2f} ms   "
              f"ratio {b / a:4.2f}")
        print(f"  restore p50    steps 5-45: {ra * 1000:6.2f} ms   last 40 steps: {rb * 1000:6.2f} ms   "
              f"ratio {rb / ra:4.2f}")
        print(f"  sql per click  early {statistics.mean(c.statements for c in early):.2f}   "
              f"late {statistics.mean(c.statements for c in late):.2f}")
    finally:
        await store.close()


async def main(args: argparse.Namespace) -> None:
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    modes = [m.strip().upper() for m in args.synchronous.split(",") if m.strip()]
    for mode in modes:
        directory = Path(tempfile.mkdtemp(prefix="bench-service-"))
        url = f"sqlite+aiosqlite:///{directory / 'bench.db'}"
        await migrate.upgrade_async(url)
        label = f"SQLite synchronous={mode}"
        if games:
            await bench_games(url, label, games, args.actions, args.seed, mode)
        if args.long:
            await bench_long(url, label, args.long, args.seed, mode)
    pg = os.environ.get("DATABASE_URL_PG")
    if pg:
        await migrate.upgrade_async(pg)
        if games:
            await bench_games(pg, "PostgreSQL", games, args.actions, args.seed, "FULL")
        if args.long:
            await bench_long(pg, "PostgreSQL", args.long, args.seed, "FULL")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--actions", type=int, default=200, help="answered prompts per game")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated game ids ('' for none)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--synchronous", default="FULL", help="SQLite modes to compare, comma-separated")
    parser.add_argument("--long", type=int, default=1000, help="steps of the long game (0: none)")
    parser.add_argument("--profile", action="store_true", help="print where the clicks' time goes (cProfile)")
    args = parser.parse_args()
    engine.games.register("countdown", "tests.support.countdown:RULES")
    engine.games.register("marathon", f"{__name__}:MARATHON")  # this very module, whichever tree it runs
    if args.profile:
        import cProfile
        import pstats

        profiler = cProfile.Profile()
        profiler.enable()
        asyncio.run(main(args))
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(45)
    else:
        asyncio.run(main(args))
