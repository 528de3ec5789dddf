"""Render timings for the card game's table picture.

    python -m tests.bench.bench_render_arkham_lcg [--games N] [--check] [--pack shipped|test]

Plays seeded games (random legal answers, 1 to 4 players) on the shipped campaign, or on the rules tests'
small pack (`--pack test`, also used when the shipped content does not load), and renders the table after
every phase and every chaos token revealed, as the bot does. The very first render of the process (fonts,
palette, layout and the smooth tile shapes all cold) is reported on its own. Prints p50/p95 in ms with the
split between drawing and PNG encoding, PNG sizes in KB, and the time to serve an unchanged view from the
cache. `--check` exits non-zero when the p50 is over the 60 ms budget or a cached render over 5 ms.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path
from typing import Any

from bot.games.arkham_lcg.render import board as arkham_lcg
from bot.games.arkham_lcg.render.board import render_board, render_board_image
from bot.games.arkham_lcg.render.style import palette
from bot.render.kit import to_png
from engine import api
from engine.agents import RandomAgent
from engine.arkham_lcg.content import CONTENT_BY_VERSION, GAME, default_content, load_content
from engine.core.content import CONTENT
from engine.core.game import SeatSpec
from tests.bench.timing import percentile, timed

BUDGET_MS = 60.0
CACHED_BUDGET_MS = 5.0
PLAYERS = (2, 4, 1, 3)
TEST_PACK = Path(__file__).resolve().parents[1] / "engine" / "arkham_lcg" / "pack"
TEST_VERSION = "test-1"


def use_pack(which: str) -> str:
    """Pin the content the games are played on; returns what was used ("shipped" or "test")."""
    if which == "shipped":
        try:
            default_content()
            return "shipped"
        except (OSError, ValueError, KeyError) as exc:
            print(f"the shipped content does not load ({type(exc).__name__}: {exc}); using the test pack")
    if not CONTENT.has(GAME, TEST_VERSION):
        CONTENT.register(GAME, TEST_VERSION, lambda: load_content(TEST_PACK))
    CONTENT_BY_VERSION.pinned.set(TEST_VERSION)
    return "test"


def game_views(seed: int, players: int) -> list[Any]:
    """The spectator's view at the start, after every phase and after every chaos token of one seeded game."""
    agent = RandomAgent(seed)
    seats = [SeatSpec(seat=i, name=f"P{i}") for i in range(players)]
    state, _ = api.new_game("arkham-lcg", seats, {}, seed)
    views = [api.view(state, None)]
    for _ in range(20000):
        if state.over:
            break
        state, events = api.apply(state, agent.act(state), in_place=True)
        if any(e.kind in ("phase.ended", "test.token") for e in events) or state.over:
            views.append(api.view(state, None))
    return views


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--check", action="store_true", help="fail when over budget")
    parser.add_argument("--pack", choices=("shipped", "test"), default="shipped")
    args = parser.parse_args(argv)

    pack = use_pack(args.pack)
    most = len(default_content().investigators)
    games = [(100 + g, min(most, PLAYERS[g % len(PLAYERS)])) for g in range(args.games)]
    views = [v for key in games for v in game_views(*key)]

    cold_ms, _ = timed(render_board, views[0])
    arkham_lcg.clear_cache()
    render_ms: list[float] = []
    sizes: list[float] = []
    for view in views:
        ms, png = timed(render_board, view)
        render_ms.append(ms)
        sizes.append(len(png) / 1024)
    draw_ms: list[float] = []
    encode_ms: list[float] = []
    cached_ms: list[float] = []
    for view in views[:: max(1, len(views) // 40)]:
        ms, image = timed(render_board_image, view)
        draw_ms.append(ms)
        ms, _ = timed(to_png, image, palette())
        encode_ms.append(ms)
        render_board(view)
        cached_ms.append(timed(render_board, view)[0])
        cached_ms.append(timed(render_board, view.model_dump(mode="json"))[0])

    p50 = statistics.median(render_ms)
    print(f"arkham-lcg table ({pack} content): {len(views)} renders after every phase and chaos token of "
          f"{len(games)} games ({', '.join(f'seed {s} x{p}' for s, p in games)})")
    print(f"  render      p50 {p50:.1f} ms  p95 {percentile(render_ms, 0.95):.1f} ms  "
          f"(draw p50 {statistics.median(draw_ms):.1f} ms, encode p50 {statistics.median(encode_ms):.1f} ms)")
    print(f"  cold        first render of the process: {cold_ms:.1f} ms")
    print(f"  cached      unchanged view p50 {statistics.median(cached_ms):.2f} ms  max {max(cached_ms):.2f} ms")
    print(f"  PNG         p50 {statistics.median(sizes):.0f} KB  max {max(sizes):.0f} KB")
    if args.check and (p50 > BUDGET_MS or statistics.median(cached_ms) > CACHED_BUDGET_MS):
        print(f"over budget: p50 {p50:.1f} ms (budget {BUDGET_MS:.0f}), cached {statistics.median(cached_ms):.2f} ms "
              f"(budget {CACHED_BUDGET_MS:.0f})")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
