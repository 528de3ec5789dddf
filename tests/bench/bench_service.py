"""GameService round trips on a SQLite file, without Discord and without rendering.

    python -m tests.bench.bench_service [--actions 240] [--game countdown|elder-sign] [--synchronous FULL,NORMAL]

Prints, for at least `--actions` answered prompts and for each SQLite `synchronous` mode asked for (FULL is the
default: an acknowledged action survives a power loss; NORMAL only a killed process):

* choose: one `GameService.choose` call, lock → load (cached) → authorize → apply → commit → reply;
* restore: loading a game's latest state from the database with a cold cache (seats + snapshot + parse),
  what the first click after a restart, or after another process wrote, costs.

Figures depend on the machine; they are printed, not asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

import engine.games
from bot.service import Actor, GameService
from bot.store import Store, migrate
from engine import api

GUILD = 1
PLAYER = Actor(user_id=4242, name="bench")


def summary(name: str, seconds: list[float]) -> str:
    ms = sorted(s * 1000 for s in seconds)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    return (f"{name:<10} n={len(ms):<5} median={statistics.median(ms):7.2f} ms  p95={p95:7.2f} ms  "
            f"max={ms[-1]:7.2f} ms")


async def play(service: GameService, game: str, actions: int, seed: int) -> tuple[list[float], list[int]]:
    """Play games (one seat each, so one user answers everything) until `actions` prompts were answered."""
    rng = random.Random(seed)
    timings: list[float] = []
    game_ids: list[int] = []
    channel = 0
    interaction = 1
    options = {"start": "30"} if game == "countdown" else {}
    while len(timings) < actions:
        channel += 1
        await service.new_game(channel, GUILD, PLAYER, game, options, seed=seed + channel)
        await service.start(channel, PLAYER)
        game_ids.append((await service.store.open_game(channel)).id)
        while len(timings) < actions and (cards := await service.pending(channel)):
            prompt = cards[0].prompt
            answer = rng.choice(prompt.answers(prompt.seats[0], limit=256))
            interaction += 1
            actor = Actor(PLAYER.user_id, PLAYER.name, interaction_id=interaction)
            started = time.perf_counter()
            await service.choose(channel, actor, prompt.seq, answer.choice, answer.amount, seat=answer.seat)
            timings.append(time.perf_counter() - started)
    return timings, game_ids


async def restore_times(service: GameService, game_ids: list[int], rounds: int) -> tuple[list[float], int]:
    timings: list[float] = []
    size = 0
    for i in range(rounds):
        game = await service.store.get_game(game_ids[i % len(game_ids)])
        service._cache.clear()  # cold: what a restart or another process's write costs
        started = time.perf_counter()
        loaded = await service._load_game(game)
        timings.append(time.perf_counter() - started)
        size = max(size, len(api.to_json(loaded.state)))
    return timings, size


async def main(actions: int, game: str, seed: int, modes: list[str]) -> None:
    for mode in modes:
        directory = Path(tempfile.mkdtemp(prefix="bench-service-"))
        url = f"sqlite+aiosqlite:///{directory / 'bench.db'}"
        await migrate.upgrade_async(url)
        store = Store(url, synchronous=mode)
        try:
            service = GameService(store, render=False)
            choose, game_ids = await play(service, game, actions, seed)
            restore, size = await restore_times(service, game_ids, max(200, len(game_ids)))
        finally:
            await store.close()
        print(f"GameService on SQLite, synchronous={mode} ({game}, {len(game_ids)} games, largest state "
              f"{size / 1024:.1f} KiB)")
        print(summary("choose", choose))
        print(summary("restore", restore))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=240)
    parser.add_argument("--game", default="countdown")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--synchronous", default="NORMAL,FULL", help="SQLite modes to compare, comma-separated")
    args = parser.parse_args()
    engine.games.register("countdown", "tests.support.countdown:RULES")
    modes = [m.strip().upper() for m in args.synchronous.split(",") if m.strip()]
    asyncio.run(main(max(args.actions, 200), args.game, args.seed, modes))
