"""`/rules`, `/card`, `/help` and `/stats`: what a table asks besides its moves. Every answer is private and
nothing changes; each command calls one GameService method (the console calls the same ones). `/game history`
lives with the other `/game` commands (bot/cogs/lobby.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.actors import actor_for, channel_of
from bot.replies import send_reply, within_deadline

if TYPE_CHECKING:
    from bot.bot import MiskatonicBot

CHOICES_MAX = 25
GAME_HELP = "Which game (start typing; default: this channel's game)."


def _choices(pairs: list[tuple[str, str]]) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=label[:100], value=value[:100]) for label, value in pairs][:CHOICES_MAX]


class TableTalk(commands.Cog):
    def __init__(self, bot: MiskatonicBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        # the rules index is built once, at startup, so the first /rules answers at once
        from bot.lookup.rules import rules_index

        rules_index()

    # -- autocomplete ------------------------------------------------------------------------------------
    def _games(self, feature: str, current: str) -> list[app_commands.Choice[str]]:
        typed = current.casefold()
        return _choices([(f"{name} ({gid})", gid) for gid, name in self.bot.service.lookup_games(feature)
                         if typed in gid.casefold() or typed in name.casefold()])

    async def rules_games(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return self._games("rules", current)

    async def card_games(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return self._games("cards", current)

    async def help_games(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return self._games("help", current)

    async def card_names(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        if interaction.channel_id is None:
            return []
        game = getattr(interaction.namespace, "game", None)
        return _choices(await self.bot.service.card_choices(interaction.channel_id, game, current))

    # -- commands ----------------------------------------------------------------------------------------
    @app_commands.command(name="rules", description="Search our rules notes for this channel's game (private).")
    @app_commands.describe(query="What to look up, in a few words (e.g. 'focus', 'what happens at midnight').",
                           game=GAME_HELP)
    @app_commands.autocomplete(game=rules_games)
    @app_commands.guild_only()
    async def rules(self, interaction: discord.Interaction, query: app_commands.Range[str, 1, 200],
                    game: str | None = None) -> None:
        work = self.bot.service.rules(channel_of(interaction), query, game)
        await send_reply(interaction, await within_deadline(interaction, work, ephemeral=True))

    @app_commands.command(name="card", description="Read a card, and where it is in this game now (private).")
    @app_commands.describe(name="The card (start typing: every card of the game, close spellings too).",
                           game=GAME_HELP)
    @app_commands.autocomplete(name=card_names, game=card_games)
    @app_commands.guild_only()
    async def card(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 100],
                   game: str | None = None) -> None:
        work = self.bot.service.card(channel_of(interaction), await actor_for(interaction), name, game)
        await send_reply(interaction, await within_deadline(interaction, work, ephemeral=True))

    @app_commands.command(name="help", description="How to play with this bot, and a quick start for each game "
                                                   "(private).")
    @app_commands.describe(game="One game's quick start only (default: the bot's how-to and every game).")
    @app_commands.autocomplete(game=help_games)
    @app_commands.guild_only()
    async def help(self, interaction: discord.Interaction, game: str | None = None) -> None:
        work = self.bot.service.help(channel_of(interaction), game)
        await send_reply(interaction, await within_deadline(interaction, work, ephemeral=True))

    @app_commands.command(name="stats", description="This server's record of finished games, or one player's "
                                                    "(private).")
    @app_commands.describe(player="Whose record (default: the whole server's).")
    @app_commands.guild_only()
    async def stats(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        channel = channel_of(interaction)
        work = self.bot.service.stats(channel, interaction.guild_id, player.id if player else None,
                                      player.display_name if player else None)
        await send_reply(interaction, await within_deadline(interaction, work, ephemeral=True))


async def setup(bot: MiskatonicBot) -> None:
    await bot.add_cog(TableTalk(bot))
