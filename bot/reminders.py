"""Pinging players a game has waited on for too long.

A background loop asks the service which prompts are overdue (`due_reminders`): the service decides by the
guild's reminder setting and marks each prompt reminded in the database, so every prompt gets at most one
reminder even across restarts and several bot processes. The reminder repeats the prompt with its
components, so the player can answer right there.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import discord
from discord.ext import tasks

from bot.components import prompt_view
from bot.replies import prompt_text, replace_prompt_message

if TYPE_CHECKING:
    from bot.bot import MiskatonicBot

log = logging.getLogger(__name__)

PINGS = discord.AllowedMentions(users=True, roles=False, everyone=False)


class Reminders:
    def __init__(self, bot: MiskatonicBot, every_seconds: float) -> None:
        self.bot = bot
        self.loop = tasks.loop(seconds=every_seconds)(self._tick)
        self.loop.before_loop(self._wait_ready)

    def start(self) -> None:
        self.loop.start()

    def stop(self) -> None:
        self.loop.cancel()

    async def _wait_ready(self) -> None:
        await self.bot.wait_until_ready()

    async def _tick(self) -> None:
        try:
            await self.run_once()
        except Exception:
            # One bad pass (a database hiccup) must not end the loop: the next pass retries.
            log.exception("reminder pass failed")

    async def run_once(self, now: datetime | None = None) -> int:
        """Send every due reminder; return how many were sent."""
        sent = 0
        service = self.bot.service
        for channel_id, card in await service.due_reminders(now or datetime.now(UTC)):
            channel = self.bot.get_channel(channel_id)
            if not isinstance(channel, discord.abc.Messageable):
                log.info("reminder for game %s skipped: channel %s is not visible", card.game_id, channel_id)
                continue
            try:
                message = await channel.send(f"⏰ Reminder — {prompt_text(card)}", allowed_mentions=PINGS,
                                             view=prompt_view(card.game_id, card.prompt, card.epoch))
            except discord.HTTPException:
                log.warning("could not send a reminder to channel %s", channel_id, exc_info=True)
                continue
            sent += 1
            # The reminder now carries the buttons; the earlier prompt message loses its own.
            await replace_prompt_message(channel, service, card.game_id, message.id, {message.id})
        return sent
