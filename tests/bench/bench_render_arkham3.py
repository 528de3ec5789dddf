"""Render timings for the Arkham Horror 3e town board.

    python -m tests.bench.bench_render_arkham3 [--games N] [--check] [--images docs/images]

Plays seeded games of every shipped scenario (random legal answers, 1 to 6 players) and renders the board
after every phase, as the bot does. The very first render of the process (fonts, palette, map layout and
the map's static drawing all cold) is reported on its own, and so is the first render of each new map (a
scenario's layout is computed and drawn once). Prints p50/p95 in ms with the split between drawing and PNG
encoding, PNG sizes in KB, and the time to serve an unchanged view from the cache. `--check` exits non-zero
when the p50 is over the 100 ms budget or a cached render over 5 ms.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path
from typing import Any

from bot.games.arkham3.render import board as arkham3
from bot.games.arkham3.render.board import render_board, render_board_image
from bot.games.arkham3.render.style import palette
from bot.render.kit import to_png
from engine import api
from engine.agents import RandomAgent, get_agent
from engine.arkham3.content import default_content
from engine.core.game import SeatSpec
from tests.bench.timing import percentile, timed

BUDGET_MS = 100.0
CACHED_BUDGET_MS = 5.0
PLAYERS = (2, 4, 1, 6, 3, 5)


def phase_views(scenario: str, seed: int, players: int) -> list[Any]:
    """The spectator's view at the start and after every phase of one seeded random game."""
    agent = RandomAgent(seed)
    seats = [SeatSpec(seat=i, name=f"P{i}") for i in range(players)]
    state, _ = api.new_game("arkham3", seats, {"scenario": scenario}, seed)
    views = [api.view(state, None)]
    for _ in range(5000):
        if state.over:
            break
        state, events = api.apply(state, agent.act(state), in_place=True)
        if any(e.kind == "phase.ended" for e in events) or state.over:
            views.append(api.view(state, None))
    return views


#: the README's pictures: (file, scenario, players, smart agent's seed, phases played)
DOC_IMAGES = (("arkham3-board.png", "witch-light", 3, 5, 3), ("arkham3-board-late.png", "low-tide", 4, 2, 24))
DOC_NAMES = ("Ada", "Bartholomew", "Chiara", "Dmitri", "Eun-ji", "Farid")


def write_doc_images(folder: Path) -> None:
    """The two boards shown in the README: an early one and a late, busy one, from seeded games played by the
    game's smart agent (so the tables look like play, not noise)."""
    for name, scenario, players, seed, phases in DOC_IMAGES:
        agent = get_agent("arkham3", "smart", seed)
        seats = [SeatSpec(seat=i, name=DOC_NAMES[i]) for i in range(players)]
        state, _ = api.new_game("arkham3", seats, {"scenario": scenario}, seed)
        done = 0
        while done < phases and not state.over:
            state, events = api.apply(state, agent.act(state), in_place=True)
            done += sum(e.kind == "phase.ended" for e in events)
        (folder / name).write_bytes(render_board(api.view(state, None)))
        print(f"wrote {folder / name}: {scenario}, {players} players, seed {seed}, after {done} phases")




def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--check", action="store_true", help="fail when over budget")
    parser.add_argument("--images", type=Path, metavar="FOLDER", help="also write the README's two boards there")
    args = parser.parse_args(argv)

    scenarios = sorted(default_content().scenarios)
    games = [(scenarios[g % len(scenarios)], 100 + g, PLAYERS[g % len(PLAYERS)]) for g in range(args.games)]
    views = [(key, v) for key in games for v in phase_views(*key)]

    cold_ms, _ = timed(render_board, views[0][1])
    arkham3.clear_cache()
    render_ms: list[float] = []
    new_map_ms: list[float] = []
    sizes: list[float] = []
    maps: set[tuple[str, int, int]] = set()
    for (scenario, _, players), view in views:
        sig = (scenario, players, len(view.spaces))
        ms, png = timed(render_board, view)
        (render_ms if sig in maps else new_map_ms).append(ms)
        maps.add(sig)
        sizes.append(len(png) / 1024)
    draw_ms: list[float] = []
    encode_ms: list[float] = []
    cached_ms: list[float] = []
    for _, view in views[:: max(1, len(views) // 40)]:
        ms, image = timed(render_board_image, view)
        draw_ms.append(ms)
        ms, _ = timed(to_png, image, palette())
        encode_ms.append(ms)
        render_board(view)
        cached_ms.append(timed(render_board, view)[0])
        cached_ms.append(timed(render_board, view.model_dump(mode="json"))[0])

    p50 = statistics.median(render_ms)
    print(f"arkham3 board: {len(views)} renders after every phase of {len(games)} games "
          f"({', '.join(f'{s} x{p}' for s, _, p in games)})")
    print(f"  render      p50 {p50:.1f} ms  p95 {percentile(render_ms, 0.95):.1f} ms  "
          f"(draw p50 {statistics.median(draw_ms):.1f} ms, encode p50 {statistics.median(encode_ms):.1f} ms)")
    print(f"  new map     first render of each map (layout + static drawing): "
          f"p50 {statistics.median(new_map_ms):.1f} ms, max {max(new_map_ms):.1f} ms ({len(new_map_ms)} maps)")
    print(f"  cold        first render of the process: {cold_ms:.1f} ms")
    print(f"  cached      unchanged view p50 {statistics.median(cached_ms):.2f} ms  max {max(cached_ms):.2f} ms")
    print(f"  PNG         p50 {statistics.median(sizes):.0f} KB  max {max(sizes):.0f} KB")
    if args.check and (p50 > BUDGET_MS or statistics.median(cached_ms) > CACHED_BUDGET_MS):
        print(f"over budget: p50 {p50:.1f} ms (budget {BUDGET_MS:.0f}), cached {statistics.median(cached_ms):.2f} ms "
              f"(budget {CACHED_BUDGET_MS:.0f})")
        return 1
    if args.images is not None:
        write_doc_images(args.images)
    return 0


if __name__ == "__main__":
    sys.exit(main())
