"""Render timings and PNG sizes of the four games' channel boards (the inline size), beside their full boards.

    python -m tests.bench.bench_render_inline [--games N] [--passes N] [--check]
        [--game elder-sign|eldritch|arkham3|arkham-lcg]

Plays seeded games (2 to 4 players, the engine's smart agent where a game has one) and renders the channel
board after every step the bot draws one for. Per game: the first (cold) render; p50/p95 of the warm ones;
the CPU time of drawing and of PNG encoding, step after step (what a channel's worker thread spends; each
step's least over a few passes, as a shared machine's other work only adds to it); PNG
sizes; the smallest text at 550 px wide; and the full board's p50 and size on the same views, for comparison.
`--check` exits non-zero when a budget is missed.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
from typing import Any

from bot.render import inline, kit
from bot.render.kit import record_text
from bot.render.scene import PIECES, SCENE_BANDS
from engine import api
from engine.agents import get_agent
from engine.core.game import SeatSpec
from tests.bench.timing import cpu_timed, percentile, timed

BUDGET_P50_MS = 120.0  # as the full boards' benches (a render runs in a worker thread, once per posted step)
BUDGET_KB = 300.0
MAX_ACTIONS = 3000
GAMES = {"elder-sign": ("elder_sign", "render_table"), "eldritch": ("eldritch", "render_board"),
         "arkham3": ("arkham3", "render_board"), "arkham-lcg": ("arkham_lcg", "render_board")}


def step_views(game: str, seed: int, players: int) -> list[Any]:
    seats = [SeatSpec(seat=i, name=f"player{i}") for i in range(players)]
    state, _ = api.new_game(game, seats, {}, seed)
    try:
        agents = [get_agent(game, "smart", seed * 10 + i) for i in range(players)]
    except (KeyError, ValueError):
        agents = [get_agent(game, "random", seed * 10 + i) for i in range(players)]
    views = [api.view(state, None)]
    for _ in range(MAX_ACTIONS):
        if state.over:
            break
        prompt = api.prompts(state)[0]
        state, events = api.apply(state, agents[prompt.seats[0]].act(state, prompt), in_place=True, prompt=prompt)
        if any(e.render for e in events) or state.over:
            views.append(api.view(state, None))
    return views


def bench(game: str, games: int, passes: int = 3) -> list[str]:
    package, full_name = GAMES[game]
    module = importlib.import_module(f"bot.games.{package}.render.inline")
    full = getattr(importlib.import_module(f"bot.games.{package}.render.board"), full_name)
    views: list[Any] = []
    for g in range(games):
        views += step_views(game, seed=300 + g, players=2 + g % 3)
    cold_ms, _ = timed(module.render_inline, views[0])
    module.cache_clear()
    _forget_parts()
    warm: list[float] = []
    sizes: list[float] = []
    smallest: list[float] = []
    for view in views:
        ms, png = timed(module.render_inline, view)
        warm.append(ms)
        sizes.append(len(png) / 1024)
    # CPU time of each step's drawing and encoding, the games played from their start again (the kept parts
    # and bands forgotten: each step finds what the steps before it left, as in a channel). Drawing is the
    # recording of the picture's steps (and the drawing of the parts not kept yet); encoding draws the bands
    # of rows not met before, maps them to the palette and compresses them. The games are played `passes`
    # times and each step keeps its least time: other work on a shared machine only ever adds to a time.
    palette = module._palette()
    draw_ms, encode_ms = [float("inf")] * len(views), [float("inf")] * len(views)
    for _ in range(passes):
        _forget_parts()
        for i, view in enumerate(views):
            with record_text() as texts:
                ms, scene = cpu_timed(module._scene, view)
            draw_ms[i] = min(draw_ms[i], ms)
            if len(smallest) < len(views):
                smallest.append(inline.shown_px(min(s for _, s in texts), scene.width))
            encode_ms[i] = min(encode_ms[i], cpu_timed(scene.png, palette)[0])
    total_ms = [d + e for d, e in zip(draw_ms, encode_ms, strict=True)]
    full_ms, full_kb = [], []
    for view in views[:: max(1, len(views) // 40)]:
        ms, png = timed(full, view)
        full_ms.append(ms)
        full_kb.append(len(png) / 1024)
    p50 = statistics.median(warm)
    print(f"{game}: {len(warm)} channel boards over {games} games; first (cold) {cold_ms:.0f} ms")
    print(f"  p50 {p50:.1f} ms  p95 {percentile(warm, 0.95):.1f} ms  max {max(warm):.1f} ms (wall clock)")
    print(f"  CPU (each step's least of {passes} passes): draw p50 {statistics.median(draw_ms):.1f} ms p95 "
          f"{percentile(draw_ms, 0.95):.1f} ms;  PNG encode p50 {statistics.median(encode_ms):.1f} ms p95 "
          f"{percentile(encode_ms, 0.95):.1f} ms;  both p50 {statistics.median(total_ms):.1f} ms p95 "
          f"{percentile(total_ms, 0.95):.1f} ms")
    print(f"  PNG median {statistics.median(sizes):.0f} KB  max {max(sizes):.0f} KB;  smallest text at 550 px "
          f"wide: {min(smallest):.1f} px")
    print(f"  full board on the same views: p50 {statistics.median(full_ms):.1f} ms, PNG median "
          f"{statistics.median(full_kb):.0f} KB")
    missed = []
    if p50 > statistics.median(full_ms):  # on a loaded machine both slow down: the comparison still holds
        missed.append(f"{game} channel board p50 {p50:.1f} ms > the full board's {statistics.median(full_ms):.1f} ms")
    if p50 > BUDGET_P50_MS:
        missed.append(f"{game} p50 {p50:.1f} ms > {BUDGET_P50_MS:.0f} ms")
    if max(sizes) > BUDGET_KB:
        missed.append(f"{game} PNG {max(sizes):.0f} KB > {BUDGET_KB:.0f} KB")
    if min(smallest) < inline.MIN_SHOWN_PX:
        missed.append(f"{game} text {min(smallest):.1f} px < {inline.MIN_SHOWN_PX} px inline")
    return missed


def _forget_parts() -> None:
    kit.PARTS.clear()
    kit.BANDS.clear()
    SCENE_BANDS.clear()
    PIECES.clear()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--game", choices=sorted(GAMES))
    parser.add_argument("--check", action="store_true", help="fail when a budget is missed")
    parser.add_argument("--passes", type=int, default=3, help="CPU passes over the games (each step's least)")
    args = parser.parse_args(argv)
    missed: list[str] = []
    for game in [args.game] if args.game else list(GAMES):
        missed += bench(game, args.games, args.passes)
    if args.check and missed:
        print("over budget: " + "; ".join(missed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
