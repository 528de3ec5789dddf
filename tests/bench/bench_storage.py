"""Memory and disk per game through GameService on a SQLite file (issue "Reliability and security", item 8).

    python -m tests.bench.bench_storage [--games 1000] [--moves 5] [--full-games 5]

Prints:

* memory: the game cache after `--games` Elder Sign tables were started and played `--moves` moves each, half
  of them then ended by a moderator (what the cache holds, measured with tracemalloc by clearing it);
* disk: stored bytes per action over `--full-games` complete games (snapshot states, action payloads,
  narrated events), and the database file's growth per action.

It runs on any version of the service (the cache bound and the snapshot policy are whatever that version
does), so the same file measures before and after a change.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import tempfile
import time
import tracemalloc
from pathlib import Path

from sqlalchemy import text

from bot.service import Actor, GameService
from bot.store import Store, migrate
from engine.agents import RandomAgent

GUILD = 1
ALICE, BOB = Actor(user_id=1, name="alice"), Actor(user_id=2, name="bob")
MOD = Actor(user_id=9, name="mod", is_moderator=True)


class Clicks:
    """Fresh interaction ids, as Discord gives every click."""

    def __init__(self) -> None:
        self.next = 10_000

    def __call__(self, actor: Actor) -> Actor:
        self.next += 1
        return Actor(actor.user_id, actor.name, actor.is_moderator, self.next)


async def open_table(service: GameService, channel: int, seed: int) -> None:
    await service.new_game(channel, GUILD, ALICE, "elder-sign", {}, seed=seed)
    await service.join(channel, BOB)
    await service.start(channel, ALICE)


async def move(service: GameService, channel: int, agent: RandomAgent, click: Clicks) -> bool:
    """One random legal move; False when the game waits for nothing (it is over)."""
    cards = await service.pending(channel)
    if not cards:
        return False
    game = await service.store.open_game(channel)
    assert game is not None and game.id is not None
    state = service._cache[game.id].state if game.id in service._cache else None
    if state is None:
        state = (await service._load_game(game)).state
    prompt = cards[0].prompt
    action = agent.act(state, prompt)
    actor = ALICE if action.seat == 0 else BOB
    await service.choose(channel, click(actor), action.prompt, action.choice, action.amount, seat=action.seat)
    return True


def cache_bytes(service: GameService) -> tuple[int, int]:
    """(entries, bytes) the service's game cache holds: the memory freed by clearing it."""
    gc.collect()
    before = tracemalloc.get_traced_memory()[0]
    entries = len(service._cache)
    service._cache.clear()
    gc.collect()
    return entries, before - tracemalloc.get_traced_memory()[0]


def fast_store(url: str) -> Store:
    """Durability does not change what memory holds: skip the fsyncs where this version lets us."""
    try:
        return Store(url, synchronous="NORMAL")  # type: ignore[call-arg]
    except TypeError:  # a version before the setting existed (it ran NORMAL anyway)
        return Store(url)


async def memory(url: str, games: int, moves: int) -> None:
    store = fast_store(url)
    try:
        service = GameService(store, render=False)
        click, agent = Clicks(), RandomAgent(1)
        tracemalloc.start()
        started = time.perf_counter()
        for channel in range(1, games + 1):
            await open_table(service, channel, seed=channel)
            for _ in range(moves):
                if not await move(service, channel, agent, click):
                    break
        for channel in range(1, games + 1, 2):
            if await store.open_game(channel) is not None:
                await service.gm_end(channel, click(MOD))
        seconds = time.perf_counter() - started
        entries, held = cache_bytes(service)
        tracemalloc.stop()
    finally:
        await store.close()
    print(f"memory: {games} Elder Sign games ({moves} moves each, half then ended) in {seconds:.0f} s; "
          f"the game cache holds {entries} games, {held / 2**20:.1f} MiB ({held / max(entries, 1) / 1024:.0f} KiB "
          f"per cached game)")


async def disk(url: str, path: Path, full_games: int) -> None:
    store = Store(url)
    try:
        service = GameService(store, render=False)
        click = Clicks()
        await checkpoint(store)
        size_before = path.stat().st_size
        for channel in range(1, full_games + 1):
            agent = RandomAgent(channel)
            await open_table(service, channel, seed=100 + channel)
            while await move(service, channel, agent, click):
                pass
        await checkpoint(store)
        size_after = path.stat().st_size
        async with store.engine.connect() as conn:
            actions = (await conn.execute(text("SELECT count(*) FROM action"))).scalar_one()
            snaps, snap_bytes = (await conn.execute(
                text("SELECT count(*), coalesce(sum(length(state)), 0) FROM snapshot"))).one()
            action_bytes = (await conn.execute(text("SELECT coalesce(sum(length(payload)), 0) FROM action"))
                            ).scalar_one()
            event_bytes = (await conn.execute(text("SELECT coalesce(sum(length(text)), 0) FROM game_event"))
                           ).scalar_one()
    finally:
        await store.close()
    per = max(actions, 1)
    print(f"disk: {full_games} complete games, {actions} actions, {snaps} snapshots stored")
    print(f"  stored bytes per action: {(snap_bytes + action_bytes + event_bytes) / per:,.0f} "
          f"(snapshots {snap_bytes / per:,.0f}, action log {action_bytes / per:,.0f}, "
          f"events {event_bytes / per:,.0f}); database file growth per action: "
          f"{(size_after - size_before) / per:,.0f}")


async def checkpoint(store: Store) -> None:
    async with store.engine.connect() as conn:
        await conn.execute(text("PRAGMA wal_checkpoint(TRUNCATE)"))


async def main(games: int, moves: int, full_games: int) -> None:
    directory = Path(tempfile.mkdtemp(prefix="bench-storage-"))
    for name in ("memory.db", "disk.db"):
        await migrate.upgrade_async(f"sqlite+aiosqlite:///{directory / name}")
    await disk(f"sqlite+aiosqlite:///{directory / 'disk.db'}", directory / "disk.db", full_games)
    await memory(f"sqlite+aiosqlite:///{directory / 'memory.db'}", games, moves)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--moves", type=int, default=5)
    parser.add_argument("--full-games", type=int, default=5)
    args = parser.parse_args()
    asyncio.run(main(args.games, args.moves, args.full_games))
