"""Pinging players a game has waited on for too long.

A background loop asks the service which prompts are overdue (`due_reminders`): the service decides by the
guild's reminder setting and marks each prompt reminded in the database, so every prompt gets at most one
reminder even across restarts and several bot processes. The reminder pings the player in reply to the
turn's message and repeats the prompt's controls (or the "Answer" button of a private or simultaneous
question), so the player can answer right there; it is removed once the prompt is answered (bot/turns.py).
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Protocol

import discord
from discord.ext import tasks

from bot.components import answer_view, is_private, prompt_view
from bot.turns import mention

if TYPE_CHECKING:
    from bot.service import GameService

log = logging.getLogger(__name__)

PINGS = discord.AllowedMentions(users=True, roles=False, everyone=False, replied_user=False)


class ReminderHost(Protocol):
    """What the reminders need of the running client: the service, its channels, and its readiness."""

    @property
    def service(self) -> GameService: ...

    def get_channel(self, id: int, /) -> Any: ...

    async def wait_until_ready(self) -> None: ...


class Reminders:
    def __init__(self, bot: ReminderHost, every_seconds: float) -> None:
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
            section = await service.latest_section(card.game_id)
            prompt = card.prompt
            text = f"⏰ Reminder — {mention(card.user_ids)}: {prompt.title}" + \
                (f" ({prompt.reason})" if prompt.reason else "")
            view = answer_view(card.game_id, card.epoch) if is_private(prompt) else \
                prompt_view(card.game_id, prompt, card.epoch)
            extra: dict[str, Any] = {}
            if section is not None and section.message_ids:  # in reply to the turn's message
                extra["reference"] = discord.MessageReference(message_id=section.message_ids[-1],
                                                              channel_id=channel_id, fail_if_not_exists=False)
                extra["mention_author"] = False
            try:
                message = await channel.send(text[:2000], allowed_mentions=PINGS, view=view, **extra)
            except discord.HTTPException:
                log.warning("could not send a reminder to channel %s", channel_id, exc_info=True)
                continue
            sent += 1
            if section is not None and not section.closed:
                # Removed (with its controls) once the prompt is answered.
                await service.add_ping_message(section, message.id, card.user_ids, prompt.seq)
        return sent
