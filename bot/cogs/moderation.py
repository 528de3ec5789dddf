"""`/gm …`: moderator tools for the game in this channel and the server's settings.

Two locks on the door. Discord hides the group from members without Manage Channels
(`default_permissions` works only on a top-level group, so /gm is its own group), but a server admin can
change that in Integrations settings, so every command is checked again at run time: Manage Channels, or
the moderator role set with `/gm settings`. Every refusal is private; every accepted command is written to
the audit log by the service.

The moderator role is read from the database afresh for every /gm command (the short cache in bot/actors.py
serves only commands that do not need it): a role removed through one bot process stops working in every
other process at once, not after the cache expires.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.actors import NotModerator, actor_for, channel_of, guild_of
from bot.campaigns import campaigns_for
from bot.replies import send, send_reply, within_deadline
from bot.service import MAX_REMINDER_HOURS, PAGE_MAX, Actor

if TYPE_CHECKING:
    from bot.bot import MiskatonicBot


@app_commands.guild_only()
@app_commands.default_permissions(manage_channels=True)
class Moderation(commands.GroupCog, group_name="gm",
                 group_description="Moderator tools: end, undo, kick, replace, skip, settings, export, audit."):
    def __init__(self, bot: MiskatonicBot) -> None:
        self.bot = bot
        super().__init__()

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        roles = self.bot.moderator_roles
        if interaction.guild_id is not None:
            roles.forget(interaction.guild_id)  # re-read: another process may have changed the role
        if not await roles.is_moderator(interaction):
            raise NotModerator()
        return True

    @app_commands.command(name="end", description="End the game in this channel now (it is kept in the log).")
    @app_commands.describe(campaign="Also close this channel's campaign (its record is kept). Without it, a "
                                    "campaign's scenario game ends and the campaign can play it again.")
    async def end(self, interaction: discord.Interaction, campaign: bool = False) -> None:
        actor = await actor_for(interaction)
        if not campaign:
            work = self.bot.service.gm_end(channel_of(interaction), actor)
            await send_reply(interaction, await within_deadline(interaction, work))
            return
        replies = await within_deadline(interaction, campaigns_for(self.bot.service).gm_end(channel_of(interaction),
                                                                                            actor))
        *game_end, closed = replies
        for reply in game_end:  # the game's end shows in its section; the campaign's close follows in words
            await send_reply(interaction, reply)
        if game_end:
            for text in closed.public:
                await send(interaction, text)
            for text in closed.ephemeral:
                await send(interaction, text, ephemeral=True)
        else:
            await send_reply(interaction, closed)

    @app_commands.command(name="undo", description="Take back the last actions of the game in this channel.")
    @app_commands.describe(steps="How many actions to take back (default 1).")
    async def undo(self, interaction: discord.Interaction, steps: app_commands.Range[int, 1, 50] = 1) -> None:
        work = self.bot.service.gm_undo(channel_of(interaction), await actor_for(interaction), steps)
        await send_reply(interaction, await within_deadline(interaction, work))

    @app_commands.command(name="kick", description="Remove a player from the game in this channel.")
    @app_commands.describe(player="The player to remove; their seats pass to another player.",
                           seat="Or a seat by its number (an AI teammate's, for instance).")
    async def kick(self, interaction: discord.Interaction, player: discord.User | None = None,
                   seat: app_commands.Range[int, 1, 8] | None = None) -> None:
        work = self.bot.service.gm_kick(channel_of(interaction), await actor_for(interaction),
                                        None if player is None else player.id, seat=seat)
        await send_reply(interaction, await within_deadline(interaction, work))

    @app_commands.command(name="replace", description="Hand a player's seats (or one seat) to someone else or "
                                                      "to an AI teammate.")
    @app_commands.describe(player="The player who leaves (all their seats).",
                           seat="Or one seat by its number (an AI teammate's, for instance).",
                           replacement="Who takes over.",
                           bot="An AI teammate takes over instead (the game goes on from where it is).")
    async def replace(self, interaction: discord.Interaction, player: discord.User | None = None,
                      seat: app_commands.Range[int, 1, 8] | None = None, replacement: discord.User | None = None,
                      bot: bool = False) -> None:
        newcomer = None if replacement is None else Actor(user_id=replacement.id, name=replacement.display_name)
        work = self.bot.service.gm_replace(channel_of(interaction), await actor_for(interaction),
                                           None if player is None else player.id, newcomer, ai=bot, seat=seat)
        await send_reply(interaction, await within_deadline(interaction, work))

    @app_commands.command(name="skip", description="Answer the pending decision with its default (idle player).")
    @app_commands.describe(player="Whose decision to skip, when several players are asked at once.")
    async def skip(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        work = self.bot.service.gm_skip(channel_of(interaction), await actor_for(interaction),
                                        player.id if player is not None else None)
        await send_reply(interaction, await within_deadline(interaction, work))

    @app_commands.command(name="settings", description="This server's settings (no argument: show them).")
    @app_commands.describe(mod_role="A role whose members may use /gm besides those with Manage Channels.",
                           clear_mod_role="Remove the moderator role (Manage Channels only, again).",
                           enabled_games="Game ids allowed on this server, separated by spaces ('all' for all).",
                           reminder_hours="Hours of waiting before the bot pings an idle player (0 = never).",
                           ai_pace="Seconds an AI teammate waits between two decisions (0 = at once).")
    async def settings(self, interaction: discord.Interaction, mod_role: discord.Role | None = None,
                       clear_mod_role: bool = False, enabled_games: str | None = None,
                       reminder_hours: app_commands.Range[int, 0, MAX_REMINDER_HOURS] | None = None,
                       ai_pace: app_commands.Range[float, 0.0, 10.0] | None = None) -> None:
        games: list[str] | None = None
        if enabled_games is not None:
            words = enabled_games.replace(",", " ").split()
            games = [] if words == ["all"] else words
        role_id = 0 if clear_mod_role else (mod_role.id if mod_role else None)  # the service reads 0 as "none"
        channel_id, guild_id = channel_of(interaction), guild_of(interaction)
        work = self.bot.service.gm_settings(channel_id, await actor_for(interaction), guild_id, mod_role_id=role_id,
                                            enabled_games=games, reminder_hours=reminder_hours, ai_pace=ai_pace)
        reply = await within_deadline(interaction, work)
        self.bot.moderator_roles.forget(guild_id)
        await send_reply(interaction, reply)

    @app_commands.command(name="export", description="Download this channel's game as players see it.")
    @app_commands.describe(full="For bug reports, finished games only: add the seed and every action "
                                "(the game can then never be undone).")
    async def export(self, interaction: discord.Interaction, full: bool = False) -> None:
        work = self.bot.service.gm_export(channel_of(interaction), await actor_for(interaction), full=full)
        await send_reply(interaction, await within_deadline(interaction, work, ephemeral=True))

    @app_commands.command(name="audit", description="What moderators did on this server, newest first.")
    @app_commands.describe(page="Which page of the audit log (1 = the newest).")
    async def audit(self, interaction: discord.Interaction, page: app_commands.Range[int, 1, PAGE_MAX] = 1) -> None:
        work = self.bot.service.gm_audit(channel_of(interaction), await actor_for(interaction), page)
        await send_reply(interaction, await within_deadline(interaction, work, ephemeral=True))


async def setup(bot: MiskatonicBot) -> None:
    await bot.add_cog(Moderation(bot))
