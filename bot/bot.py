"""The Discord bot: an AutoShardedBot with the lobby and moderation command groups, restart-proof prompt
components, and the reminder loop.

    run_bot(settings)                      # blocks until the process is stopped
    await sync_commands(settings, guild)   # register the slash commands (globally, or on one guild now)

Tests build `MiskatonicBot(settings, service=…)` directly to inject a service and pick the shard count.
Migrations are run by the CLI before the bot starts, never here.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.actors import ModeratorRoles
from bot.ai_seats import AiDriver
from bot.components import DYNAMIC_ITEMS
from bot.errors import on_app_command_error
from bot.play import PromptPlay
from bot.reminders import Reminders
from bot.service import GameService, Reply
from bot.settings import Settings, install_redaction
from bot.store import Store
from bot.turns import TablePublisher
from engine import api
from engine.games import game_ids

log = logging.getLogger(__name__)

BASE_EXTENSIONS = ("bot.cogs.lobby", "bot.cogs.moderation", "bot.cogs.table_talk", "bot.cogs.campaign")


def extensions() -> list[str]:
    """The shared cogs, then each game's own (from the bot manifests)."""
    from bot.games.manifest import bot_games

    return [*BASE_EXTENSIONS, *(g.cog for g in bot_games().values() if g.cog)]


class AcknowledgeFirst(app_commands.CommandTree["MiskatonicBot"]):
    """Every slash command is acknowledged before its handler runs, so none can pass Discord's 3 seconds
    reading the database or loading content: a private "thinking…" that the answer then replaces (a private
    answer fills it; a public one removes it and is posted in the channel, bot/replies.py). Autocomplete is
    answered by its choices, and is not acknowledged otherwise."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.type is discord.InteractionType.application_command and not interaction.response.is_done():
            await interaction.response.defer(thinking=True, ephemeral=True)
            interaction.extras["private_thinking"] = True
        return True


class MiskatonicBot(commands.AutoShardedBot):
    def __init__(self, settings: Settings, *, service: GameService | None = None, store: Store | None = None,
                 shard_count: int | None = None, shard_ids: list[int] | None = None,
                 reminders: bool = True, **options: Any) -> None:
        count = shard_count if shard_count is not None else settings.SHARD_COUNT
        ids = shard_ids if shard_ids is not None else settings.SHARD_IDS
        if ids is not None:  # none given: discord.py runs every shard (its default; its types allow only a list)
            options["shard_ids"] = ids
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                         help_command=None, shard_count=count, tree_cls=AcknowledgeFirst, **options)
        self.settings = settings
        self._service = service
        self._store = store
        self._owns_store = False
        self._warming: asyncio.Task[float] | None = None
        self._with_reminders = reminders
        self.prompt_handler = PromptPlay(self)
        self.publisher = TablePublisher(self, on_published=self._table_changed)
        self.ai: AiDriver | None = None
        self._moderator_roles: ModeratorRoles | None = None
        self.reminders: Reminders | None = None

    @property
    def service(self) -> GameService:
        if self._service is None:
            raise RuntimeError("the bot's service exists only after setup_hook (login)")
        return self._service

    @property
    def moderator_roles(self) -> ModeratorRoles:
        if self._moderator_roles is None:
            raise RuntimeError("the bot's moderator roles exist only after setup_hook (login)")
        return self._moderator_roles

    async def setup_hook(self) -> None:
        await warm_games()
        if self.settings.WARM_PICTURES:
            self._warming = asyncio.create_task(warm_pictures())  # in the background: login need not wait
        if self._service is None:
            if self._store is None:
                self._store = store_for(self.settings)
                self._owns_store = True
            # The channel shows steps through the publisher (bot/turns.py), which asks for the pictures.
            self._service = GameService(self._store, cache_size=self.settings.GAME_CACHE_SIZE,
                                        cache_idle_seconds=self.settings.GAME_CACHE_IDLE_SECONDS,
                                        step_images=False)
        self._moderator_roles = ModeratorRoles(self._service)
        self.ai = AiDriver(self._service, self._show_ai_step, self._ai_pace)
        self.tree.error(on_app_command_error)
        for extension in extensions():
            await self.load_extension(extension)
        # Prompt components are matched by custom_id pattern, so buttons posted before a restart still work.
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        if self._with_reminders:
            self.reminders = Reminders(self, self.settings.REMINDER_CHECK_SECONDS)
            self.reminders.start()

    async def on_ready(self) -> None:
        # The AI teammates a restart interrupted take up where they were.
        if self.ai is not None:
            self.ai.resume(self._channels_awaiting_ai)

    async def _channels_awaiting_ai(self) -> list[int]:
        # another process's shards drive their own channels
        return [c for c in await self.service.store.channels_awaiting_ai() if self.get_channel(c) is not None]

    def _table_changed(self, channel_id: int) -> None:
        if self.ai is not None:
            self.ai.poke(channel_id)

    async def _ai_pace(self, channel_id: int) -> float:
        if self.settings.AI_PACE_MS is not None:
            return self.settings.AI_PACE_MS / 1000
        return await self.service.ai_pace(channel_id)

    async def _show_ai_step(self, channel_id: int, reply: Reply) -> None:
        """An AI teammate's step, shown as a click's is: the game's section brought up to date."""
        if reply.table is None:
            return
        channel = self.get_channel(channel_id) or await self.fetch_channel(channel_id)
        await self.publisher.publish(channel, reply.table, refresh=reply.refresh)

    async def close(self) -> None:
        if self.ai is not None:
            await self.ai.stop()
        if self.reminders is not None:
            self.reminders.stop()
        await super().close()
        if self._owns_store and self._store is not None:
            await self._store.close()


async def warm_games() -> float:
    """Load and check every game's content in a worker thread (the event loop keeps serving), so that no
    click, not even the first `/game new` of a game, pays for it; logs and returns how long it took."""
    def load() -> float:
        started = time.perf_counter()
        for game in game_ids():
            api.warm(game)
        return time.perf_counter() - started

    seconds = await asyncio.to_thread(load)
    log.info("content of %d games loaded and checked in %.2f s", len(game_ids()), seconds)
    return seconds


async def warm_pictures() -> float:
    """Draw each game's channel board and full board once, for a fresh two-player table, in a worker thread:
    the layouts every later board reuses (a map's token slots, fitted fonts) are made before the first table
    needs them. Logs and returns how long it took; a failure is logged, never raised (pictures are drawn again
    when asked for)."""
    from bot.games.manifest import bot_games
    from bot.render import render_table
    from engine.core.game import SeatSpec
    from engine.games import get_game

    games = [g for g, manifest in bot_games().items() if manifest.renderer]  # the games with pictures of their own

    def draw() -> float:
        started = time.perf_counter()
        for game in games:
            rules = get_game(game)
            players = max(rules.min_players, min(2, rules.max_players))
            seats = [SeatSpec(seat=n, name=f"P{n + 1}") for n in range(players)]
            try:
                state, _ = api.new_game(game, seats, {}, 0)
                view = api.view(state, None)
                for size in ("inline", "full"):
                    render_table(game, view, size)
            except Exception:
                log.warning("drawing a first board of %s at start-up failed", game, exc_info=True)
        return time.perf_counter() - started

    seconds = await asyncio.to_thread(draw)
    log.info("first boards of %d games drawn in %.2f s", len(games), seconds)
    return seconds


def store_for(settings: Settings) -> Store:
    """The store as the settings configure it (durability, bounded waits)."""
    return Store(settings.DATABASE_URL, synchronous=settings.SQLITE_SYNCHRONOUS,
                 lock_timeout_ms=settings.DB_LOCK_TIMEOUT_MS, statement_timeout_ms=settings.DB_STATEMENT_TIMEOUT_MS)


def run_bot(settings: Settings) -> None:
    """Connect to Discord and serve until stopped."""
    if not settings.DISCORD_TOKEN:
        raise SystemExit("DISCORD_TOKEN is not set: put it in the environment or in .env.")
    discord.utils.setup_logging(level=logging.getLevelName(settings.LOG_LEVEL.upper()))
    install_redaction(settings)  # the database password and the token never reach a log line

    async def main() -> None:
        async with MiskatonicBot(settings) as bot:
            await bot.start(settings.DISCORD_TOKEN or "")

    asyncio.run(main())


async def sync_commands(settings: Settings, guild_id: int | None = None) -> list[str]:
    """Register the slash commands with Discord and return their names.

    Global commands take up to an hour to reach every client; with `guild_id` they are copied to that
    guild and usable there at once (for development). Run it when commands change, not at every start:
    syncing is rate-limited.
    """
    if not settings.DISCORD_TOKEN:
        raise SystemExit("DISCORD_TOKEN is not set: put it in the environment or in .env.")
    async with MiskatonicBot(settings, reminders=False) as bot:
        await bot.login(settings.DISCORD_TOKEN)
        if guild_id is None:
            synced = await bot.tree.sync()
        else:
            guild = discord.Object(guild_id)
            bot.tree.copy_global_to(guild=guild)
            synced = await bot.tree.sync(guild=guild)
        return [command.name for command in synced]
