"""Crash safety: the bot runs as its own process, is killed with SIGKILL (no chance to clean up) while idle
and in the middle of a click, and restarted on the same database. Buttons posted before a crash keep
working, and the action log has neither a gap nor a duplicate."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from bot.store import Store
from tests.e2e.fakediscord import FakeDiscord, snapshot
from tests.e2e.harness import Table, open_table, prompt_ids

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
PASSED = "This choice has passed."


class BotProcess:
    def __init__(self, fake: FakeDiscord, database_url: str, shards: int, log_dir: Path) -> None:
        self.fake, self.database_url, self.shards, self.log_dir = fake, database_url, shards, log_dir
        self.proc: asyncio.subprocess.Process | None = None
        self.starts = 0

    async def start(self, *, sync: bool = False) -> None:
        self.starts += 1
        env = os.environ | {
            "FAKE_API_BASE": self.fake.api_base, "FAKE_GATEWAY": self.fake.gateway_url,
            "DISCORD_TOKEN": self.fake.token, "DATABASE_URL": self.database_url, "SHARD_COUNT": str(self.shards),
            "SYNC_COMMANDS": "1" if sync else "0", "PYTHONPATH": str(ROOT),
        }
        with open(self.log_dir / f"bot-{self.starts}.log", "wb") as log:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "tests.e2e.run_bot_subprocess", cwd=ROOT, env=env,
                stdout=asyncio.subprocess.PIPE, stderr=log)
        assert self.proc.stdout is not None
        line = await asyncio.wait_for(self.proc.stdout.readline(), 60)
        assert line.strip() == b"READY", f"bot process did not start: {line!r}; see {self.log_dir}"
        await self.fake.wait_for_shards(self.shards)

    async def kill(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()  # SIGKILL
            await self.proc.wait()
        # The fake notices the dead gateway connections; wait for that so the restart's shards are the
        # ones interactions go to.
        await self.fake.wait_until(lambda: not self.fake.gateway.sessions, "the dead bot's shards to drop")


async def test_sigkill_and_restart(fake: FakeDiscord, database_url: str, shards: int, tmp_path: Path) -> None:
    table = Table(fake, fake.channel("table-1", "Arkham"))
    alice, bob, carol = fake.alice, fake.bob, fake.carol
    process = BotProcess(fake, database_url, shards, tmp_path)
    await process.start(sync=True)
    try:
        prompt = await open_table(table, [alice, bob, carol], options="start=12")
        game_id, _ = prompt_ids(prompt)
        await table.outcome(await table.choose(prompt, "Take 1"))
        prompt = await table.current_prompt()
        assert table.awaited(prompt) == [bob]

        # 1. Killed while idle: the prompt posted before the crash still works after the restart.
        await process.kill()
        await process.start()
        out = await table.outcome(await table.choose(prompt, "Take 2"))
        assert any(m.images for m in out)
        assert fake.messages[prompt.id].components == []

        # 2. Killed in the middle of a click: acknowledged, maybe committed, never answered.
        prompt = await table.current_prompt()
        assert table.awaited(prompt) == [carol]
        before = snapshot(prompt)
        click = await table.choose(prompt, "Take 1")
        await fake.expect_callback(click)
        await process.kill()
        await process.start()
        retry = await fake.click(before.button("Take 1"), before, user=carol)
        out = await table.outcome(retry)
        texts = [m.content for m in out]
        # Exactly one of the two clicks counted: the retry applies if the crash lost the first, and is told
        # the choice has passed if the first was committed.
        assert (PASSED in texts) != any(m.images for m in out), texts

        # Whatever happened, /game status shows the pending prompt again and the game plays to its end.
        await table.command("game status", alice)
        await fake.settle()  # its answer is private and comes first; the channel's prompt is shown after it
        for _ in range(12):
            await fake.settle()  # under load the next prompt can still be on its way after an outcome
            if not table.prompt_messages():
                break
            prompt = await table.current_prompt()
            labels = [b["label"] for b in prompt.buttons()]
            await table.outcome(await table.choose(prompt, "Take 3" if "Take 3" in labels else labels[0]))
        assert table.prompt_messages() == []
    finally:
        await process.kill()

    store = Store(database_url)
    try:
        actions = await store.actions(game_id)
    finally:
        await store.close()
    assert [a.seq for a in actions] == list(range(1, len(actions) + 1)), "a gap or a duplicate in the log"
    taken = sum(int(a.payload["choice"][0]) for a in actions if a.payload["choice"][0] != "pass")
    assert taken == 12
