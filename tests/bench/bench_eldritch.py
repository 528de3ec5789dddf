"""Eldritch Horror engine benchmark: random full games per second on one core, `apply` latency (p50, p99 in µs),
the state's JSON size mid-game and its restore time. Run: python -m tests.bench.bench_eldritch [--games N]"""

from __future__ import annotations

import argparse
import statistics
import time

from engine import api
from engine.agents import RandomAgent, get_agent
from engine.core.game import SeatSpec
from engine.eldritch.content import default_content


def playouts(games: int, seed: int, agent_name: str = "random") -> tuple[float, list[float], int]:
    default_content()
    applies: list[float] = []
    start = time.perf_counter()
    actions = 0
    for g in range(games):
        agent = RandomAgent(seed + g) if agent_name == "random" else get_agent("eldritch", agent_name, seed + g)
        seats = [SeatSpec(seat=i, name=f"p{i}") for i in range(1 + g % 4)]
        state, _ = api.new_game("eldritch", seats, {}, seed + g)
        while not state.over:
            prompt = api.prompts(state)[0]
            action = agent.act(state, prompt)
            t = time.perf_counter()
            state, _ = api.apply(state, action, in_place=True, prompt=prompt)
            applies.append(time.perf_counter() - t)
            actions += 1
    return games / (time.perf_counter() - start), applies, actions


def restore(seed: int, samples: int = 30) -> tuple[int, float]:
    """(JSON bytes, median restore ms) of a 4-player game 60 actions in."""
    agent = RandomAgent(seed)
    state, _ = api.new_game("eldritch", [SeatSpec(seat=i, name=f"p{i}") for i in range(4)], {}, seed)
    for _ in range(60):
        if state.over:
            break
        state, _ = api.apply(state, agent.act(state), in_place=True)
    text = api.to_json(state)
    times = []
    for _ in range(samples):
        t = time.perf_counter()
        api.from_json(text)
        times.append(time.perf_counter() - t)
    return len(text.encode()), statistics.median(times) * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="random games to play (default: 200)")
    parser.add_argument("--seed", type=int, default=1, help="first seed (default: 1)")
    args = parser.parse_args()
    rate, applies, actions = playouts(args.games, args.seed)
    applies.sort()
    p50 = applies[len(applies) // 2] * 1e6
    p99 = applies[int(len(applies) * 0.99)] * 1e6
    size, ms = restore(args.seed)
    print(f"eldritch random playouts: {rate:.1f} games/s ({actions / args.games:.0f} actions per game)")
    print(f"apply: p50 {p50:.0f} µs, p99 {p99:.0f} µs")
    print(f"state JSON mid-game: {size / 1024:.1f} KiB; restore {ms:.2f} ms (median)")


if __name__ == "__main__":
    main()
