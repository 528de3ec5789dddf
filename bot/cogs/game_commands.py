"""What every game's own command group shares: running a `/<group> <name>` command through
`bot.games.game_command` (so it answers the pending prompt the same way a button does) and autocomplete from
the game's `Commands.suggestions`. A game's cog is this mixin plus a `commands.GroupCog` with its commands."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import discord
from discord import app_commands

from bot import games
from bot.actors import actor_for, channel_of
from bot.replies import send_reply, within_deadline

if TYPE_CHECKING:
    from bot.bot import MiskatonicBot


class GameCommands:
    command_group: ClassVar[str]  # "es", "eh", "ah": the group its bot manifest names
    bot: MiskatonicBot

    async def _run(self, interaction: discord.Interaction, command: str, /, *, ephemeral: bool = False,
                   **args: str | None) -> None:
        # `command` is positional-only so that a command argument may itself be called "name" (/es card)
        channel_id = channel_of(interaction)
        actor = await actor_for(interaction)
        work = games.game_command(self.bot.service, channel_id, actor, self.command_group, command,
                                  {k: v for k, v in args.items() if v is not None})
        await send_reply(interaction, await within_deadline(interaction, work, ephemeral=ephemeral))

    async def _read_about(self, interaction: discord.Interaction, command: str,
                          player: discord.Member | None) -> None:
        """A private reader about a player's investigator (`sheet`, `odds`, `area`): the asker's when none is
        named."""
        await self._run(interaction, command, ephemeral=True, player=player.mention if player else None)

    async def _suggest(self, interaction: discord.Interaction, command: str,
                       current: str) -> list[app_commands.Choice[str]]:
        if interaction.channel_id is None:
            return []  # not in a server channel: the command itself will say so
        pairs = await games.suggestions(self.bot.service, interaction.channel_id, interaction.user.id,
                                        self.command_group, command, current)
        return [app_commands.Choice(name=label, value=value) for label, value in pairs]
