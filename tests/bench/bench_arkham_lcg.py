"""Card game benchmark: random full scenarios per second (one core), whole campaigns per second, restore time
(JSON load of a mid-game state), and the smart agent's results per scenario and difficulty.
Run: python -m tests.bench.bench_arkham_lcg [--games N]; `--fingerprint` hashes whole games instead, to show two
trees play the same games."""

from __future__ import annotations

import argparse
import hashlib
import statistics
import time
from collections import Counter

from engine import api
from engine.agents import RandomAgent, get_agent
from engine.arkham_lcg.content import default_content
from engine.arkham_lcg.state import LcgState
from engine.core.game import SeatSpec

DIFFICULTIES = ("easy", "standard", "hard", "expert")


def play(game_seed: int, players: int, agent_name: str, options: dict[str, str]) -> tuple[LcgState, int]:
    agent = RandomAgent(game_seed) if agent_name == "random" else get_agent("arkham-lcg", agent_name, game_seed)
    seats = [SeatSpec(seat=i, name=f"p{i}") for i in range(players)]
    state, _ = api.new_game("arkham-lcg", seats, dict(options), game_seed)
    actions = 0
    while not state.over:
        prompt = api.prompts(state)[0]
        state, _ = api.apply(state, agent.act(state, prompt), in_place=True, prompt=prompt)
        actions += 1
    assert isinstance(state, LcgState)
    return state, actions


def playouts(games: int, seed: int, options: dict[str, str]) -> tuple[float, float]:
    start = time.perf_counter()
    actions = 0
    for g in range(games):
        _, n = play(seed + g, 1 + g % 4, "random", options)
        actions += n
    dt = time.perf_counter() - start
    return games / dt, actions / dt


def restore(samples: int, seed: int) -> tuple[float, float, int]:
    agent = RandomAgent(seed)
    state, _ = api.new_game("arkham-lcg", [SeatSpec(seat=i, name=f"p{i}") for i in range(4)], {}, seed)
    for _ in range(60):
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


def win_rates(games: int, seed: int, agent: str) -> None:
    """Per difficulty: campaigns won, and each scenario's winning resolutions (as played in campaigns)."""
    for difficulty in DIFFICULTIES:
        won = 0
        per: Counter[str] = Counter()
        seen: Counter[str] = Counter()
        for g in range(games):
            state, _ = play(seed + g, 1 + g % 4, agent, {"difficulty": difficulty})
            won += state.result == "win"
            for r in state.campaign.results:
                sid, _, outcome = r.split(":")
                seen[sid] += 1
                per[sid] += outcome == "win"
        parts = ", ".join(f"{sid} {100 * per[sid] / seen[sid]:.0f}% of {seen[sid]}" for sid in seen)
        print(f"  {agent} {difficulty}: campaigns won {100 * won / games:.0f}%; scenarios: {parts}")


def fingerprint(seeds: range, agent: str) -> str:
    """One sha256 over whole games (each seed with 1 to 4 players): every prompt (title, option ids, labels and
    details, closed choices with why), every answer, every event's text, the state's JSON every 25 actions and
    at the end. A speed-up must leave it unchanged: run it on both trees (`--fingerprint`)."""
    total = hashlib.sha256()
    for seed in seeds:
        for players in range(1, 5):
            h = hashlib.sha256()
            who = RandomAgent(seed) if agent == "random" else get_agent("arkham-lcg", agent, seed)
            state, events = api.new_game("arkham-lcg", [SeatSpec(seat=i, name=f"p{i}") for i in range(players)],
                                         {}, seed)
            actions = 0
            while True:
                h.update("\0".join(e.text for e in events).encode())
                if state.over:
                    break
                pending = api.prompts(state)
                for p in pending:
                    h.update(repr((p.seq, p.seats, p.kind, p.title, p.reason, p.default)).encode())
                    h.update("".join(f"{o.id}|{o.label}|{o.detail}|{o.private}|{o.role}\n"
                                     for o in p.options).encode())
                    h.update("".join(f"{u.id}|{u.label}|{u.why}\n" for u in p.unavailable).encode())
                action = who.act(state, pending[0])
                h.update(repr(action).encode())
                state, events = api.apply(state, action, in_place=True, prompt=pending[0])
                actions += 1
                if actions % 25 == 0:
                    h.update(api.to_json(state).encode())
            h.update(api.to_json(state).encode())
            total.update(h.digest())
    return total.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--fingerprint", action="store_true",
                        help="print the fingerprint of --games random seeds and a quarter as many smart ones")
    args = parser.parse_args()
    if args.fingerprint:
        default_content()
        print("random", fingerprint(range(args.seed, args.seed + args.games), "random"))
        print("smart", fingerprint(range(args.seed, args.seed + max(1, args.games // 4)), "smart"))
        return
    engine_figures(args.games, args.seed)
    win_rates(max(1, args.games // 2), args.seed, "smart")


def engine_figures(games: int, seed: int) -> None:
    """Random full scenarios per second, whole campaigns per second and restore time (bench_engine prints
    these for `--game arkham-lcg`)."""
    c = default_content()
    for sid in c.campaign.scenarios:
        gps, aps = playouts(games, seed, {"play": sid})
        print(f"arkham-lcg random scenario {sid}: {gps:.1f} scenarios/s, {aps:.0f} actions/s (one core)")
    gps, aps = playouts(max(1, games // 4), seed, {})
    print(f"arkham-lcg random whole campaigns: {gps:.1f} campaigns/s, {aps:.0f} actions/s")
    dump_ms, load_ms, size = restore(200, seed)
    print(f"arkham-lcg state JSON: {size / 1024:.1f} KB; to_json median {dump_ms:.2f} ms; restore (from_json) "
          f"median {load_ms:.2f} ms")


if __name__ == "__main__":
    main()
