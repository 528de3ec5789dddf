"""Run the bot as its own process against a fake Discord (for the crash-safety test).

    FAKE_API_BASE=http://127.0.0.1:PORT/api/v10 FAKE_GATEWAY=ws://127.0.0.1:PORT/gateway \
    DISCORD_TOKEN=… DATABASE_URL=sqlite+aiosqlite:///…/game.db SHARD_COUNT=2 [SYNC_COMMANDS=1] \
    python -m tests.e2e.run_bot_subprocess

The database must already be migrated (as the CLI does before `run`). Prints "READY" on stdout once every
shard is connected (and the commands are synced, when asked), then serves until killed.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys

from bot.bot import MiskatonicBot
from bot.settings import Settings
from tests.e2e.fakediscord import redirect, skip_identify_delay
from tests.e2e.harness import register_test_games


async def main() -> None:
    register_test_games()
    redirect(os.environ["FAKE_API_BASE"], os.environ["FAKE_GATEWAY"])
    settings = Settings(REMINDER_CHECK_SECONDS=3600)
    bot = MiskatonicBot(settings, guild_ready_timeout=0.05)
    skip_identify_delay(bot)
    async with bot:
        await bot.login(settings.DISCORD_TOKEN or "")
        connect = asyncio.create_task(bot.connect())
        await bot.wait_until_ready()
        if os.environ.get("SYNC_COMMANDS") == "1":
            await bot.tree.sync()
        print("READY", flush=True)
        await connect


if __name__ == "__main__":
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    asyncio.run(main())
