"""Render timings for the Eldritch Horror board picture.

    python -m tests.bench.bench_render_eldritch [--games N] [--check]

Plays seeded games (2 to 4 investigators, the engine's smart agent) and renders the board after every phase
change, as the bot does. The very first render (layout, background, fonts all cold) is reported on its own;
then p50/p95 of the warm renders, the split between drawing and PNG encoding, the PNG sizes, and the time to
serve an unchanged view again from the cache. `--check` exits non-zero when a budget is missed.
"""

from __future__ import annotations

import argparse
import statistics
import sys

from bot.games.eldritch.render.board import _palette, cache_clear, render_board, render_board_image
from bot.render.kit import to_png
from engine import api
from engine.agents import get_agent
from engine.core.game import SeatSpec
from engine.eldritch.view import EldritchView
from tests.bench.timing import percentile, timed

BUDGET_P50_MS = 120.0
BUDGET_CACHED_MS = 5.0
BUDGET_KB = 1536.0
MAX_ACTIONS = 4000


def phase_views(seed: int, players: int) -> list[EldritchView]:
    """The view after every phase change of one seeded game (and its first and last view)."""
    seats = [SeatSpec(seat=i, name=f"player{i}") for i in range(players)]
    state, _ = api.new_game("eldritch", seats, {}, seed)
    agents = [get_agent("eldritch", "smart", seed * 10 + i) for i in range(players)]
    views = [api.view(state, None)]
    for _ in range(MAX_ACTIONS):
        if state.over:
            break
        prompt = api.prompts(state)[0]
        state, events = api.apply(state, agents[prompt.seats[0]].act(state, prompt), in_place=True, prompt=prompt)
        if any(e.render for e in events) or state.over:
            views.append(api.view(state, None))
    return views




def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--check", action="store_true", help="fail when a budget is missed")
    args = parser.parse_args(argv)

    views: list[EldritchView] = []
    for g in range(args.games):
        views += phase_views(seed=200 + g, players=2 + g % 3)

    cold_ms, _ = timed(render_board, views[0])
    cache_clear()
    warm, sizes, cached = [], [], []
    for view in views:
        ms, png = timed(render_board, view)
        warm.append(ms)
        sizes.append(len(png) / 1024)
        ms, _ = timed(render_board, view)
        cached.append(ms)
    draw_ms, encode_ms = [], []
    for view in views[:: max(1, len(views) // 40)]:
        ms, image = timed(render_board_image, view)
        draw_ms.append(ms)
        ms, _ = timed(to_png, image, _palette())
        encode_ms.append(ms)
    dict_ms = []
    for view in views[:: max(1, len(views) // 40)]:  # the bot may pass the JSON dict: same key, same bytes
        render_board(view)
        dict_ms.append(timed(render_board, view.model_dump(mode="json"))[0])

    p50 = statistics.median(warm)
    print(f"board: {len(warm)} renders over {args.games} games (2-4 players); first (cold) {cold_ms:.0f} ms")
    print(f"board: p50 {p50:.1f} ms  p95 {percentile(warm, 0.95):.1f} ms  max {max(warm):.1f} ms"
          f"  (draw p50 {statistics.median(draw_ms):.1f} ms, PNG encode p50 {statistics.median(encode_ms):.1f} ms)")
    print(f"board PNG: median {statistics.median(sizes):.0f} KB  max {max(sizes):.0f} KB")
    print(f"cached re-render: p50 {statistics.median(cached):.2f} ms  max {max(cached):.2f} ms"
          f"  (from the JSON dict: p50 {statistics.median(dict_ms):.2f} ms)")
    missed = []
    if p50 > BUDGET_P50_MS:
        missed.append(f"p50 {p50:.1f} ms > {BUDGET_P50_MS:.0f} ms")
    if statistics.median(cached) > BUDGET_CACHED_MS:
        missed.append(f"cached {statistics.median(cached):.2f} ms > {BUDGET_CACHED_MS:.0f} ms")
    if max(sizes) > BUDGET_KB:
        missed.append(f"PNG {max(sizes):.0f} KB > {BUDGET_KB:.0f} KB")
    if args.check and missed:
        print("over budget: " + "; ".join(missed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
