"""Arkham Horror 3e benchmark: random full games per second (one core) for each scenario and for a random one,
actions per second, state size, and restore time (JSON load of a mid-game state).
Run: python -m tests.bench.bench_arkham3 [--games N]"""

from __future__ import annotations

import argparse
import statistics
import time

from engine import api
from engine.agents import RandomAgent
from engine.arkham3.content import default_content
from engine.core.game import SeatSpec


def playouts(games: int, seed: int, options: dict[str, str] | None = None) -> tuple[float, float, int]:
    """Random full games with 1-4 players cycling; `options` picks the scenario (none: a random one)."""
    default_content()
    start = time.perf_counter()
    actions = 0
    for g in range(games):
        agent = RandomAgent(seed + g)
        seats = [SeatSpec(seat=i, name=f"p{i}") for i in range(1 + g % 4)]
        state, _ = api.new_game("arkham3", seats, dict(options or {}), seed + g)
        while not state.over:
            prompt = api.prompts(state)[0]
            state, _ = api.apply(state, agent.act(state, prompt), in_place=True, prompt=prompt)
            actions += 1
    dt = time.perf_counter() - start
    return games / dt, actions / dt, actions


def restore(samples: int, seed: int) -> tuple[float, float, int]:
    agent = RandomAgent(seed)
    state, _ = api.new_game("arkham3", [SeatSpec(seat=i, name=f"p{i}") for i in range(4)], {}, seed)
    for _ in range(40):
        if state.over:
            break
        state, _ = api.apply(state, agent.act(state), in_place=True)
    dumps, loads = [], []
    text = api.to_json(state)
    for _ in range(samples):
        t = time.perf_counter()
        text = api.to_json(state)
        dumps.append(time.perf_counter() - t)
        t = time.perf_counter()
        api.from_json(text)
        loads.append(time.perf_counter() - t)
    return statistics.median(dumps) * 1e3, statistics.median(loads) * 1e3, len(text)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    gps, aps, actions = playouts(args.games, args.seed)
    print(f"arkham3 random full games: {gps:.1f} games/s, {aps:.0f} actions/s ({args.games} games, {actions} "
          "actions, one core)")
    for scenario in sorted(default_content().scenarios):
        gps, aps, actions = playouts(max(1, args.games // 4), args.seed, {"scenario": scenario})
        print(f"  {scenario}: {gps:.1f} games/s, {aps:.0f} actions/s")
    dump_ms, load_ms, size = restore(200, args.seed)
    print(f"arkham3 state JSON: {size / 1024:.1f} KB; to_json median {dump_ms:.2f} ms; restore (from_json) median "
          f"{load_ms:.2f} ms")


if __name__ == "__main__":
    main()
