"""Engine benchmark: random Elder Sign playouts per second (one core), actions per second, state size,
save/load time and memory per game. Run: python -m tests.bench.bench_engine [--games N]

`--instructions` counts the interpreter's machine instructions per random game instead (valgrind's callgrind,
about 50x slower; N games less an empty run): a figure that does not depend on how busy the machine is, to
compare two trees side by side: `PYTHONPATH=<tree> python <this file> --instructions --games 30` counts <tree>'s
engine (any tree whose bench has `playouts(games, seed)`).

`--game arkham-lcg` runs the card game's figures instead (tests/bench/bench_arkham_lcg.py): random full
scenarios per second, whole campaigns per second, restore time."""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

from engine import api
from engine.agents import RandomAgent
from engine.core.game import SeatSpec
from engine.elder_sign.content import default_content


def playouts(games: int, seed: int) -> tuple[float, float, int]:
    default_content()
    start = time.perf_counter()
    actions = 0
    for g in range(games):
        agent = RandomAgent(seed + g)
        state, _ = api.new_game("elder-sign", [SeatSpec(seat=i, name=f"p{i}") for i in range(1 + g % 4)], {},
                                seed + g)
        while not state.over:
            prompt = api.prompts(state)[0]
            state, _ = api.apply(state, agent.act(state, prompt), in_place=True, prompt=prompt)
            actions += 1
    dt = time.perf_counter() - start
    return games / dt, actions / dt, actions


def save_load(samples: int, seed: int) -> tuple[float, float, float, int]:
    agent = RandomAgent(seed)
    state, _ = api.new_game("elder-sign", [SeatSpec(seat=i, name=f"p{i}") for i in range(4)], {}, seed)
    for _ in range(60):
        state, _ = api.apply(state, agent.act(state), in_place=True)
    dumps, loads = [], []
    for _ in range(samples):
        t = time.perf_counter()
        text = api.to_json(state)
        dumps.append(time.perf_counter() - t)
        t = time.perf_counter()
        api.from_json(text)
        loads.append(time.perf_counter() - t)
    copies = []
    for _ in range(samples):
        t = time.perf_counter()
        state.model_copy(deep=True)
        copies.append(time.perf_counter() - t)
    return (statistics.median(dumps) * 1e3, statistics.median(loads) * 1e3, statistics.median(copies) * 1e3,
            len(text))


def memory_per_game(n: int, seed: int) -> float:
    default_content()
    tracemalloc.start()
    states = []
    base = tracemalloc.get_traced_memory()[0]
    for g in range(n):
        state, _ = api.new_game("elder-sign", [SeatSpec(seat=i, name=f"p{i}") for i in range(4)], {}, seed + g)
        states.append(state)
    used = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    return used / n / 1024


def instructions(games: int, seed: int, game: str = "elder-sign") -> tuple[float, int]:
    """(machine instructions per game, actions) of `games` random playouts, counted by callgrind: a run of
    `games` less a run of none (imports and content loading). `game` "arkham-lcg": the card game's random full
    scenarios (tests/bench/bench_arkham_lcg.py `play`, 1 to 4 players in turn)."""
    if shutil.which("valgrind") is None:
        raise SystemExit("--instructions needs valgrind (apt-get install valgrind)")

    def count(n: int) -> tuple[int, int]:
        # the rules are imported in every run, the empty one too: importing (and compiling, without bytecode
        # files) is not a game's cost
        loaded = f"from engine.games import get_game; get_game({game!r}); "
        code = loaded + (f"from tests.bench.bench_engine import playouts; g, a, n = playouts({n}, {seed}); "
                         "print('actions', n)")
        if game == "arkham-lcg":
            code = loaded + ("from engine.arkham_lcg.content import default_content; default_content(); "
                    "from tests.bench.bench_arkham_lcg import play; "
                    f"n = sum(play({seed} + g, 1 + g % 4, 'random', {{}})[1] for g in range({n})); "
                    "print('actions', n)")
        # run in the tree counted: the first PYTHONPATH entry, else this file's own tree
        tree = (os.environ.get("PYTHONPATH") or "").split(os.pathsep)[0] or str(Path(__file__).resolve().parents[2])
        done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
                               "-c", code], capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=tree),
                              cwd=tree, check=True)
        total = re.search(r"Collected : (\d+)", done.stderr)
        acts = re.search(r"actions (\d+)", done.stdout)
        assert total and acts, done.stderr[-500:]
        return int(total.group(1)), int(acts.group(1))

    base, _ = count(0)
    total, actions = count(games)
    return (total - base) / games, actions


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", choices=["elder-sign", "arkham-lcg"], default="elder-sign")
    parser.add_argument("--instructions", action="store_true",
                        help="count machine instructions per game with valgrind instead (use --games 30)")
    args = parser.parse_args()
    if args.instructions:
        per_game, actions = instructions(args.games, args.seed, args.game)
        per_action = per_game * args.games / actions
        print(f"{args.game} random playouts: {per_game / 1e6:.1f}M instructions a game, "
              f"{per_action / 1e3:.0f}k an action "
              f"({args.games} games, {actions} actions; callgrind)")
        return
    if args.game == "arkham-lcg":
        from tests.bench import bench_arkham_lcg

        bench_arkham_lcg.engine_figures(args.games, args.seed)
        return
    gps, aps, actions = playouts(args.games, args.seed)
    print(f"random playouts: {gps:.1f} games/s, {aps:.0f} actions/s ({args.games} games, {actions} actions, "
          "one core)")
    dump_ms, load_ms, copy_ms, size = save_load(200, args.seed)
    print(f"state JSON: {size / 1024:.1f} KB; to_json median {dump_ms:.2f} ms; from_json median {load_ms:.2f} ms; "
          f"deep copy median {copy_ms:.2f} ms")
    print(f"memory per 4-player game in memory: {memory_per_game(50, args.seed):.0f} KB")


if __name__ == "__main__":
    main()
