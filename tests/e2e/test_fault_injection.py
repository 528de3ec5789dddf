"""Fault injection (issue "Reliability and security", keep it true): the bot runs as its own process and is
killed with SIGKILL at random points of a scripted game (while idle, just after a click, in the middle of
committing or answering it), then restarted on the same database. Loopback only, bounded in time.

After the game: no action the bot acknowledged to a player is missing from the log, the log has no gap or
duplicate, and every stored state equals a replay of the log from the seed.

The kill points come from FAULT_SEED (random when unset; the seed is in every failure message).
"""

from __future__ import annotations

import asyncio
import os
import random
import time
from pathlib import Path

import pytest

from bot.service import GameService
from bot.store import Store
from engine import api
from engine.core.game import SeatSpec
from engine.core.prompt import Action
from tests.e2e.fakediscord import FakeDiscord, FakeInteraction, FakeMessage
from tests.e2e.harness import Table, open_table, prompt_ids
from tests.e2e.test_crash import BotProcess

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]

START = 24  # the countdown: one "Take 1" per click, so the game is 24 acknowledged actions long
KILLS = 5
BUDGET_SECONDS = 30.0
PASSED = "This choice has passed."


def acknowledged(click: FakeInteraction) -> bool:
    """Whether the bot told the table the move happened: its narration arrived (in the turn's message, the
    one clicked)."""
    shown = [*click.followups, *([click.message] if click.message is not None else [])]
    return any(" takes 1; " in m.text() for m in shown)


async def current_seq(database_url: str, game_id: int) -> int | None:
    store = Store(database_url)
    try:
        game = await store.get_game(game_id)
    finally:
        await store.close()
    assert game is not None
    return game.prompt_seq


def newest_prompt(table: Table) -> FakeMessage | None:
    found = table.prompt_messages()
    return found[-1] if found else None


async def prompt_after_restart(table: Table) -> FakeMessage | None:
    """The game's prompt as the table sees it after a crash: /game status posts it again (None once over)."""
    await table.command("game status", table.fake.alice)
    await table.fake.settle()
    return newest_prompt(table)


async def test_random_kills_lose_no_acknowledged_action(fake: FakeDiscord, database_url: str, tmp_path: Path) -> None:
    seed = int(os.environ.get("FAULT_SEED") or random.randrange(1 << 32))
    rng = random.Random(seed)
    why = f"FAULT_SEED={seed}"
    table = Table(fake, fake.channel("table-1", "Arkham"))
    players = [fake.alice, fake.bob, fake.carol]
    process = BotProcess(fake, database_url, 1, tmp_path)
    await process.start(sync=True)
    acked: list[int] = []
    kills = 0
    try:
        prompt = await open_table(table, players, options=f"start={START}")
        game_id, _ = prompt_ids(prompt)
        kill_at = set(rng.sample(range(START), KILLS))
        started = time.monotonic()
        for n in range(START * 2):
            if prompt is None:
                break
            ids = prompt_ids(prompt)
            click = await table.choose(prompt, "Take 1")
            if n in kill_at and time.monotonic() - started < BUDGET_SECONDS:
                # Anywhere from before the click is read to after it is answered.
                await asyncio.sleep(rng.uniform(0.0, 0.08))
                await process.kill()
                kills += 1
                if acknowledged(click):
                    acked.append(click.id)
                await process.start()
                prompt = await prompt_after_restart(table)
                continue
            await table.outcome(click)
            if any(m.content == PASSED for m in click.followups):
                # A prompt message the killed process posted but never recorded keeps its buttons; a click on
                # it is told the choice has passed, and the player asks for the table again.
                assert ids[1] != (await current_seq(database_url, game_id)), (why, "a live prompt refused")
                prompt = await prompt_after_restart(table)
                continue
            assert acknowledged(click), (why, [m.content for m in click.followups])
            acked.append(click.id)
            prompt = newest_prompt(table)
        assert prompt is None, (why, "the game did not reach its end")
    finally:
        await process.kill()

    store = Store(database_url)
    try:
        game = await store.get_game(game_id)
        actions = await store.actions(game_id)
        seats = await store.seats(game_id)
        steps = await store.snapshot_steps(game_id)
        snapshots = {step: (await store.snapshot_at(game_id, step)).state for step in steps}
        restored = api.to_json(await GameService(store, render=False)._restore(game_id, game.state_step))
    finally:
        await store.close()
    assert kills >= 1, why
    assert [a.seq for a in actions] == list(range(1, len(actions) + 1)), (why, "a gap or a duplicate in the log")
    logged = {a.interaction_id for a in actions}
    lost = [i for i in acked if i not in logged]
    assert lost == [], (why, f"acknowledged clicks missing from the log: {lost}")
    assert (game.status, game.result, len(actions)) == ("over", "win", START), why

    # Every stored state, and the state the bot would load, is the replay of the log up to its step.
    specs = [SeatSpec(seat=s.seat, name=s.name, character=s.character) for s in seats]
    state, _ = api.new_game(game.game_type, specs, game.options, game.seed)
    replayed = {0: api.to_json(state)}
    for row in actions:
        state, _ = api.apply(state, Action.model_validate(row.payload), in_place=True)
        replayed[state.step] = api.to_json(state)
    assert {step: snapshots[step] == replayed[step] for step in steps} == {step: True for step in steps}, why
    assert restored == replayed[game.state_step], why
