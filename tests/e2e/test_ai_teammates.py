"""AI teammates through the real discord.py client (issue 32, "Done when"): in each game one person seats AI
teammates with `/game join bot:True`, starts, and answers only their own questions with the controls a player
clicks, while the bot plays the AI seats on its own (the driver, at pace 0 here) until the game ends.

What the channel must show: the AI's steps narrated in the game's living messages like anyone's, with the reason
of each decision that has one ("🤖 <name>: <choice> — <reason>"); the quiet channel's budget (public messages a
move, none posted then deleted); nobody pinged for an AI seat; `/game why` answering privately."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.service import latest_state
from engine import api
from engine.agents import get_agent
from engine.core.game import GameState
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.harness import RunningBot, Table, answer_with_controls, seed_lobby

pytestmark = pytest.mark.e2e

#: game -> (options, AI seats, seed): seeds whose game ends within the step cap
GAMES: dict[str, tuple[str, int, int]] = {
    "elder-sign": ("ancient_one=dagon", 2, 3),
    "eldritch": ("ancient_one=azathoth", 1, 5),
    "arkham3": ("scenario=witch-light", 1, 5),
    "arkham-lcg": ("play=low_water difficulty=easy", 1, 5),
}
#: public messages per move (a move: any decision the game applied, a person's or an AI's)
BUDGET = 0.5
STEP_CAP = 1500


async def _state(running: RunningBot, game_id: int) -> GameState:
    state = await latest_state(running.bot.service.store, game_id)
    assert state is not None
    return state


async def _person_asked(running: RunningBot, game_id: int) -> GameState:
    """The game once the AI seats have nothing left to decide: over, or waiting for the person."""
    ai = running.bot.ai
    assert ai is not None
    for _ in range(600):
        await ai.idle()
        state = await _state(running, game_id)
        seats = await running.bot.service.store.seats(game_id)
        people = {s.seat for s in seats if s.user_id >= 0}
        if state.over or any(set(p.seats) & people for p in api.prompts(state)):
            return state
        await asyncio.sleep(0.05)
    raise AssertionError("the AI seats stopped deciding, and no person is asked")


@pytest.mark.parametrize("shards", [1], ids=["1shard"])
@pytest.mark.parametrize("game", list(GAMES))
async def test_one_person_and_ai_teammates_play_to_the_end(fake: FakeDiscord, running: RunningBot, table: Table,
                                                            game: str) -> None:
    options, ai_seats, seed = GAMES[game]
    alice = fake.alice
    await table.command("game new", alice, game=game, options=options)
    await seed_lobby(running, table, seed)
    for _ in range(ai_seats):
        joined = await table.command("game join", alice, bot=True)
        assert "seats an AI teammate, 🤖" in joined.text()
    store = running.bot.service.store
    row = await store.open_game(table.channel.id)
    assert row is not None and row.id is not None
    since = time.monotonic()
    await table.command("game start", alice)
    agent = get_agent(game, "smart", seed)
    clicks = 0
    for _ in range(STEP_CAP):
        state = await _person_asked(running, row.id)
        if state.over:
            break
        prompt = next(p for p in api.prompts(state) if 0 in p.seats)
        action = agent.act(state, prompt)
        ix = await answer_with_controls(fake, table.channel, alice, row.id, prompt, action)
        await fake.expect_callback(ix, timeout=20)
        for _ in range(400):
            if (await store.get_game(row.id)).state_step > state.step:
                break
            await asyncio.sleep(0.05)
        clicks += 1
    else:
        raise AssertionError(f"{game} did not end within {STEP_CAP} of the person's decisions")
    await fake.settle(quiet=1.0, timeout=30)
    finished = await store.get_game(row.id)
    assert finished is not None and finished.status == "over"
    rows = await store.actions(row.id)
    ai_moves = [r for r in rows if r.kind == "ai"]
    assert clicks > 5 and len(ai_moves) > 5
    posted = table.posted_since(since)
    moves = finished.state_step
    assert sum(m.deleted for m in posted) == 0
    assert len(posted) / moves <= BUDGET, f"{len(posted)} messages for {moves} moves"
    text = "\n".join(m.text() for m in posted)
    reasons = [r for r in ai_moves if r.payload["why"].get("line")]
    assert reasons, "no AI decision gave a reason"
    shown = reasons[-1].payload["why"]
    assert shown["line"] in text, "the AI's reasons are in the channel's narration"
    pinged = {u for m in posted for u in m.pinged}
    assert pinged <= {alice.id} and "<@-" not in text, "nobody is pinged or named by mention for an AI seat"
    why = await table.command("game why", alice)
    assert why.ephemeral and why.text().startswith("🤖 ")
