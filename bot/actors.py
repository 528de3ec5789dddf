"""Who is acting and where: the service's `Actor` for an interaction, whether they are a moderator here, and
the channel and server of a command that only works in a server channel.

A moderator has Manage Channels in the channel, or the moderator role the guild configured with
`/gm settings`. The configured role is cached for a short while: it is read on every moderator command
and changes rarely (and a change made through this process clears the cache at once).
"""

from __future__ import annotations

import time
from typing import Protocol, cast

import discord
from discord import app_commands

from bot.service import Actor, GameService, UserError

ROLE_CACHE_SECONDS = 30.0
SERVER_ONLY = "This works only in a server channel."


class NotModerator(app_commands.CheckFailure):
    def __init__(self) -> None:
        super().__init__("Only moderators may do that: you need Manage Channels or this server's "
                         "moderator role.")


class ModeratorRoles:
    """guild id -> configured moderator role id, read through the service and cached briefly."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self._cache: dict[int, tuple[float, int | None]] = {}

    async def role_id(self, guild_id: int) -> int | None:
        hit = self._cache.get(guild_id)
        now = time.monotonic()
        if hit is not None and now - hit[0] < ROLE_CACHE_SECONDS:
            return hit[1]
        role = await self.service.mod_role_id(guild_id)
        self._cache[guild_id] = (now, role)
        return role

    def forget(self, guild_id: int) -> None:
        self._cache.pop(guild_id, None)

    async def is_moderator(self, interaction: discord.Interaction) -> bool:
        if interaction.guild_id is None:
            return False
        if interaction.permissions.manage_channels:
            return True
        role = await self.role_id(interaction.guild_id)
        user = interaction.user
        return role is not None and isinstance(user, discord.Member) and any(r.id == role for r in user.roles)


class _WithRoles(Protocol):
    """What a role check needs of the running client (the bot keeps the configured roles per server)."""

    @property
    def moderator_roles(self) -> ModeratorRoles: ...


def channel_of(interaction: discord.Interaction) -> int:
    """The id of the channel the interaction came from. Discord sends one with every command and click made
    in a server; without it (a direct message, a user-installed app) the user is told so, privately."""
    if interaction.channel_id is None:
        raise UserError(SERVER_ONLY)
    return interaction.channel_id


def guild_of(interaction: discord.Interaction) -> int:
    """The id of the server the interaction came from; like `channel_of`, a sentence for the user without one."""
    if interaction.guild_id is None:
        raise UserError(SERVER_ONLY)
    return interaction.guild_id


async def actor_for(interaction: discord.Interaction) -> Actor:
    # The handlers take a plain `discord.Interaction`, whose client discord.py types as the base Client.
    roles = cast(_WithRoles, interaction.client).moderator_roles
    return Actor(user_id=interaction.user.id, name=interaction.user.display_name,
                 is_moderator=await roles.is_moderator(interaction), interaction_id=interaction.id)
