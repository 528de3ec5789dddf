"""Render timings for the Elder Sign table and dice images (and, with --game, another game's board).

    python -m tests.bench.bench_render [--games N] [--check] [--game elder-sign|eldritch|arkham3]

Plays seeded games through the engine and renders the table after every action, as the bot does after
every turn, so the font, icon and text caches are as warm as in a running bot (the very first render, with
cold caches, is reported on its own). Prints p50/p95 in ms and PNG sizes in KB. `--check` exits non-zero
when the table's p50 is over the 60 ms budget.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from typing import Any

from bot.games.elder_sign.render.board import dice_from_event, encode, render_dice, render_table, render_table_image
from engine import api
from engine.core.game import SeatSpec
from engine.elder_sign.view import ElderSignView
from tests.bench.timing import percentile, timed

BUDGET_MS = 60.0
#: the world and town boards have benches of their own (each prints p50/p95, PNG size and cached re-renders)
OTHER_BOARDS = {"eldritch": "bench_render_eldritch", "arkham3": "bench_render_arkham3",
                "arkham-lcg": "bench_render_arkham_lcg"}


def game_views(seed: int, players: int) -> tuple[list[ElderSignView], list[dict[str, Any]]]:
    """Every view of one seeded random game, and the data of its dice events."""
    rng = random.Random(seed)
    seats = [SeatSpec(seat=i, name=f"player{i}") for i in range(players)]
    state, events = api.new_game("elder-sign", seats, {}, seed=seed)
    views = [api.view(state, None)]
    rolls = []
    while not state.over and len(views) < 5000:
        pending = api.prompts(state)
        if not pending:
            break
        prompt = pending[0]
        state, events = api.apply(state, rng.choice(prompt.answers(prompt.seats[0])), in_place=True)
        views.append(api.view(state, None))
        rolls += [e.data for e in events if e.kind in ("dice.rolled", "dice.rerolled")]
    return views, rolls




def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--check", action="store_true", help="fail when the table p50 is over budget")
    parser.add_argument("--game", default="elder-sign", choices=sorted(OTHER_BOARDS) + ["elder-sign"],
                        help="whose board to time (default: elder-sign); the others run their own bench module")
    args = parser.parse_args(argv)
    if args.game in OTHER_BOARDS:
        import importlib

        other = importlib.import_module(f"tests.bench.{OTHER_BOARDS[args.game]}")
        return int(other.main([f"--games={args.games}", *(["--check"] if args.check else [])]))

    views: list[ElderSignView] = []
    rolls: list[dict[str, Any]] = []
    for g in range(args.games):
        v, r = game_views(seed=100 + g, players=1 + (g * 2) % 8)
        views += v
        rolls += r

    cold_ms, _ = timed(render_table, views[0])
    table_ms, sizes, draw_ms, encode_ms = [], [], [], []
    for view in views:
        ms, png = timed(render_table, view)
        table_ms.append(ms)
        sizes.append(len(png) / 1024)
    for view in views[:: max(1, len(views) // 60)]:  # the split between drawing and PNG encoding, sampled
        ms, image = timed(render_table_image, view)
        draw_ms.append(ms)
        ms, _ = timed(encode, image, bool(view.over))
        encode_ms.append(ms)
    dice_ms, dice_sizes = [], []
    for data in rolls:
        ms, png = timed(render_dice, dice_from_event(data))
        dice_ms.append(ms)
        dice_sizes.append(len(png) / 1024)

    p50 = statistics.median(table_ms)
    print(f"table: {len(table_ms)} renders over {args.games} games; first (cold caches) {cold_ms:.1f} ms")
    print(f"table: p50 {p50:.1f} ms  p95 {percentile(table_ms, 0.95):.1f} ms  max {max(table_ms):.1f} ms"
          f"  (draw p50 {statistics.median(draw_ms):.1f} ms, PNG encode p50 {statistics.median(encode_ms):.1f} ms)")
    print(f"table PNG: median {statistics.median(sizes):.0f} KB  max {max(sizes):.0f} KB")
    if dice_ms:
        print(f"dice:  {len(dice_ms)} rolls; p50 {statistics.median(dice_ms):.1f} ms  "
              f"p95 {percentile(dice_ms, 0.95):.1f} ms; PNG median {statistics.median(dice_sizes):.0f} KB")
    if args.check and p50 > BUDGET_MS:
        print(f"over budget: table p50 {p50:.1f} ms > {BUDGET_MS:.0f} ms", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
