"""Benchmark of the exact odds solver (engine/elder_sign/odds.py) and the matcher.

Run: ``python -m tests.bench.bench_odds`` (add ``--quick`` to skip the slow yellow+red card runs).
``--memory`` prints only the memory peaks.

"cold" clears every cache first, including the roll-shape tables, so it is the cost of the very first
question in a fresh process. "cold values" keeps the shape tables, which any earlier question of the same
pool size has built; it is the cost of a new task later in a session. "cached" asks the same question again.
"""

from __future__ import annotations

import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from functools import partial

from engine.elder_sign import odds
from engine.elder_sign.content import default_content
from engine.elder_sign.dice import GREEN, RED, YELLOW
from engine.elder_sign.matcher import completions
from engine.elder_sign.tasks import parse_task

#: twenty tasks of the kinds the adventure deck uses (engine/elder_sign/tasks.py grammar)
TYPICAL = ["inv3", "inv5", "inv6", "inv8", "inv10", "lore", "peril", "terror", "lore lore", "peril terror",
           "inv4 lore", "inv5 peril", "inv6 terror", "inv3 lore peril", "inv4 lore/peril", "inv2 terror terror",
           "inv8 lore", "inv3 inv3", "lore/terror peril", "inv6 lore peril terror"]

#: (label, green, yellow, red, held, clues)
SCENARIOS = [
    ("6 green", 6, 0, 0, (), 0),
    ("6 green, 3 clues", 6, 0, 0, (), 3),
    ("6 green, held lore+inv3, 3 clues", 6, 0, 0, ("lore", "inv3"), 3),
    ("4 green, held peril, 2 clues, focus used", 4, 0, 0, ("peril",), 2),
    ("6 green + yellow + red, 2 clues", 6, 1, 1, (), 2),
]


def _time(fn: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def bench_tasks() -> None:
    print("task_odds, per task over", len(TYPICAL), "typical tasks (median / max, ms)")
    for label, g, y, r, held, clues in SCENARIOS:
        focus = "focus used" not in label
        cold, warm, cached = [], [], []
        for text in TYPICAL:
            ask = partial(odds.task_odds, parse_task(text), g, y, r, held=held, clues=clues, focus=focus)
            odds.clear_caches()
            cold.append(_time(ask))
            odds.clear_caches(tables=False)
            warm.append(_time(ask))
            cached.append(min(_time(ask) for _ in range(20)))
        print(f"  {label:42} cold {_ms(cold)}   cold values {_ms(warm)}   cached {_ms(cached, 4)}")


def bench_cards(quick: bool) -> None:
    c = default_content()
    cards = list(c.adventures.values()) + list(c.other_worlds.values())
    runs = [("6 green", 0, 0, 0), ("6 green, 2 clues", 0, 0, 2), ("6 green, 3 clues", 0, 0, 3),
            ("6 green + yellow, 2 clues", 1, 0, 2)]
    if not quick:
        runs.append(("6 green + yellow + red, 2 clues", 1, 1, 2))
    n3 = sum(len(card.tasks) == 3 for card in cards)
    print(f"adventure_odds over the {len(cards)} Adventure and Other World cards ({n3} with 3 tasks), cold per "
          "card (median / max, ms)")
    for label, y, r, clues in runs:
        times, three = [], []
        for card in cards:
            odds.clear_caches()
            dt = _time(partial(odds.adventure_odds, card.tasks, card.ordered, 6, y, r, clues=clues))
            times.append(dt)
            if len(card.tasks) == 3:
                three.append(dt)
        print(f"  {label:42} all {_ms(times)}   3-task cards {_ms(three)}")


def bench_matcher() -> None:
    import random

    rng = random.Random(7)
    rolls = [[(f"g{i}", rng.choice(GREEN.faces)) for i in range(1, 7)]
             + [("y", rng.choice(YELLOW.faces)), ("r", rng.choice(RED.faces))] for _ in range(2000)]
    per = []
    for text in TYPICAL:
        task = parse_task(text)
        t0 = time.perf_counter()
        for dice in rolls:
            completions(task, dice)
        per.append((time.perf_counter() - t0) / len(rolls))
    print(f"completions on random 8-dice rolls (6 green + yellow + red): median {statistics.median(per) * 1e3:.3f} "
          f"ms, max {max(per) * 1e3:.3f} ms per call")


def bench_memory(quick: bool) -> None:
    """Peak memory (tracemalloc) of one cold question about a whole card with focus available: the
    three-task card with the most symbols, which is the solver's largest state space."""
    c = default_content()
    cards = list(c.adventures.values()) + list(c.other_worlds.values())
    card = max(cards, key=lambda k: (len(k.tasks), sum(len(t.symbols) for t in k.tasks)))
    runs = [("6 green, 3 clues", 0, 0, 3), ("6 green + yellow, 2 clues", 1, 0, 2)]
    if not quick:
        runs.append(("6 green + yellow + red, 2 clues", 1, 1, 2))
    tasks = " | ".join(t.text() for t in card.tasks)
    print(f"memory peak of adventure_odds on {card.name} ({tasks}), cold, focus available (tracemalloc)")
    for label, y, r, clues in runs:
        odds.clear_caches()
        tracemalloc.start()
        try:
            t0 = time.perf_counter()
            odds.adventure_odds(card.tasks, card.ordered, 6, y, r, clues=clues, focus=True)
            dt = time.perf_counter() - t0
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        # the caches stay filled after the question; the peak is what a bot process must have room for
        print(f"  {label:42} peak {peak / 2**20:7.1f} MiB   ({dt:.2f} s under tracemalloc)")
    odds.clear_caches()


def _ms(xs: list[float], digits: int = 1) -> str:
    return f"{statistics.median(xs) * 1e3:8.{digits}f} / {max(xs) * 1e3:8.{digits}f}"


def main() -> None:
    quick = "--quick" in sys.argv
    if "--memory" in sys.argv:
        bench_memory(quick)
        return
    bench_matcher()
    bench_tasks()
    bench_cards(quick)
    bench_memory(quick)


if __name__ == "__main__":
    main()
