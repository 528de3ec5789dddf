"""Issue 27's measure of how a table reads in the channel: one seeded two-player game of a game, every decision
its agent's, answered through the components a player clicks, for a number of moves (a move is one decision
the game applied). Shared by `tests/e2e/test_channel_figures.py` (which asserts the figures) and
`tests/bench/bench_interactions.py --game table:<game>` (which prints them)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from bot.service import latest_state
from engine import api
from tests.e2e.fakediscord import FakeDiscord, FakeMessage
from tests.e2e.harness import Table, answer_with_controls, seed_lobby

#: each game's table: (game options, agent); the card game plays its first scenario at easy
TABLES: dict[str, tuple[str, str]] = {
    "elder-sign": ("ancient_one=dagon", "random"),
    "eldritch": ("ancient_one=azathoth", "smart"),
    "arkham3": ("scenario=witch-light", "smart"),
    "arkham-lcg": ("play=low_water difficulty=easy", "smart"),
}


@dataclass
class ChannelFigures:
    game: str
    moves: int
    posted: list[FakeMessage] = field(default_factory=list)
    interactions: int = 0

    @property
    def per_move(self) -> float:
        return len(self.posted) / max(1, self.moves)

    @property
    def deleted(self) -> int:
        return sum(m.deleted for m in self.posted)

    @property
    def boards(self) -> list[bytes]:
        return [m.boards[-1].data for m in self.posted if m.boards]

    @property
    def repeated(self) -> int:
        boards = self.boards
        return sum(boards[n] == boards[n - 1] for n in range(1, len(boards)))

    @property
    def interactions_per_move(self) -> float:
        return self.interactions / max(1, self.moves)

    def line(self) -> str:
        return (f"{self.game}: {self.moves} moves; public messages per move {self.per_move:.2f} "
                f"({len(self.posted)} posted, {self.deleted} deleted); boards {len(self.boards)}, {self.repeated} "
                f"identical to the one before; interactions per move {self.interactions_per_move:.2f}")

    def messages(self) -> list[str]:
        """What the channel got, a line a message (its first line)."""
        return [f"{'[board] ' if m.boards else ''}{(m.text().splitlines() or ['(no text)'])[0][:100]}"
                for m in self.posted]


async def play_table(fake: FakeDiscord, table: Table, game: str, seed: int, moves: int, running: Any) -> ChannelFigures:
    """Play `moves` decisions of `game` (or to its end) and count what the channel got: public messages, those
    posted then deleted, boards identical to the one before, interactions (the clicks and slash commands a player
    makes, "Answer" and "Your cards…" included)."""
    from engine.agents import get_agent

    options, agent_name = TABLES[game]
    alice, bob = fake.alice, fake.bob
    await table.command("game new", alice, game=game, options=options)
    store = running.bot.service.store
    await seed_lobby(running, table, seed)
    row = await store.open_game(table.channel.id)
    assert row is not None and row.id is not None
    await table.command("game join", bob)
    since, first_ix = time.monotonic(), len(fake.interactions)
    await table.command("game start", alice)
    agent = get_agent(game, agent_name, seed)
    users = {0: alice, 1: bob}
    done = 0
    while done < moves:
        state = (await latest_state(store, row.id))
        if state.over:
            break
        prompt = api.prompts(state)[0]
        action = agent.act(state, prompt)
        ix = await answer_with_controls(fake, table.channel, users[action.seat], row.id, prompt, action)
        await fake.expect_callback(ix, timeout=20)
        for _ in range(400):  # the move is applied once the stored game has moved past this state
            if (await store.get_game(row.id)).state_step > state.step:
                break
            await asyncio.sleep(0.05)
        done += 1
    await fake.settle(quiet=1.0, timeout=30)
    return ChannelFigures(game=game, moves=done, posted=table.posted_since(since),
                          interactions=len(fake.interactions) - first_ix)
