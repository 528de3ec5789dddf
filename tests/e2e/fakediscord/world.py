"""The people and places of the fake Discord: users, guilds, roles, channels, and their gateway payloads.

Payloads are complete (every key discord.py 2.7.1 reads unconditionally is present): the client's parsers
raise KeyError on a missing key, and that ends `Client.start()`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tests.e2e.fakediscord.ids import Snowflakes

# Permission bits (https://discord.com/developers/docs/topics/permissions).
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
ADD_REACTIONS = 1 << 6
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_CHANNELS = 1 << 4
ADMINISTRATOR = 1 << 3
ALL_PERMISSIONS = (1 << 53) - 1

EVERYONE_PERMISSIONS = (VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES | READ_MESSAGE_HISTORY
                        | ADD_REACTIONS | USE_APPLICATION_COMMANDS)

JOINED_AT = "2024-01-01T00:00:00.000000+00:00"


@dataclass(frozen=True)
class FakeUser:
    id: int
    name: str
    bot: bool = False

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> dict[str, Any]:
        return {"id": str(self.id), "username": self.name, "global_name": self.name.title(),
                "discriminator": "0", "avatar": None, "bot": self.bot, "system": False,
                "public_flags": 0, "flags": 0, "banner": None, "accent_color": None,
                "avatar_decoration_data": None, "primary_guild": None, "collectibles": None}


@dataclass
class FakeRole:
    id: int
    name: str
    permissions: int
    position: int = 0

    def payload(self) -> dict[str, Any]:
        return {"id": str(self.id), "name": self.name, "permissions": str(self.permissions),
                "position": self.position, "color": 0, "colors": {"primary_color": 0, "secondary_color": None,
                                                                   "tertiary_color": None},
                "hoist": False, "managed": False, "mentionable": True, "flags": 0, "icon": None,
                "unicode_emoji": None, "description": None}


@dataclass
class FakeChannel:
    id: int
    guild_id: int
    name: str
    position: int = 0

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def payload(self) -> dict[str, Any]:
        return {"id": str(self.id), "type": 0, "name": self.name, "position": self.position,
                "permission_overwrites": [], "guild_id": str(self.guild_id), "nsfw": False, "parent_id": None,
                "topic": None, "last_message_id": None, "rate_limit_per_user": 0, "flags": 0}


@dataclass
class FakeGuild:
    id: int
    name: str
    owner_id: int
    roles: dict[int, FakeRole] = field(default_factory=dict)
    channels: dict[int, FakeChannel] = field(default_factory=dict)
    members: dict[int, list[int]] = field(default_factory=dict)  # user id -> role ids (besides @everyone)

    @property
    def everyone(self) -> FakeRole:
        return self.roles[self.id]

    def channel(self, name: str) -> FakeChannel:
        for ch in self.channels.values():
            if ch.name == name:
                return ch
        raise KeyError(f"no channel #{name} in {self.name}")

    def role(self, name: str) -> FakeRole:
        for role in self.roles.values():
            if role.name == name:
                return role
        raise KeyError(f"no role {name} in {self.name}")

    def permissions_of(self, user_id: int) -> int:
        """Guild-level permissions, as Discord computes them (no channel overwrites in this world)."""
        if user_id == self.owner_id:
            return ALL_PERMISSIONS
        perms = self.everyone.permissions
        for role_id in self.members.get(user_id, []):
            perms |= self.roles[role_id].permissions
        if perms & ADMINISTRATOR:
            return ALL_PERMISSIONS
        return perms

    def member_payload(self, user: FakeUser, *, with_user: bool = True,
                       with_permissions: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {"roles": [str(r) for r in self.members.get(user.id, [])], "joined_at": JOINED_AT,
                               "deaf": False, "mute": False, "flags": 0, "nick": None, "avatar": None,
                               "banner": None, "pending": False, "premium_since": None,
                               "communication_disabled_until": None}
        if with_user:
            out["user"] = user.payload()
        if with_permissions:
            out["permissions"] = str(self.permissions_of(user.id))
        return out

    def payload(self, users: dict[int, FakeUser]) -> dict[str, Any]:
        """The GUILD_CREATE payload."""
        return {
            "id": str(self.id), "name": self.name, "owner_id": str(self.owner_id), "icon": None, "splash": None,
            "discovery_splash": None, "banner": None, "description": None, "unavailable": False,
            "member_count": len(self.members), "large": False, "features": [], "emojis": [], "stickers": [],
            "roles": [r.payload() for r in self.roles.values()],
            "channels": [c.payload() for c in self.channels.values()],
            "members": [self.member_payload(users[uid]) for uid in self.members],
            "threads": [], "voice_states": [], "presences": [], "stage_instances": [],
            "guild_scheduled_events": [], "soundboard_sounds": [], "verification_level": 0,
            "default_message_notifications": 0, "explicit_content_filter": 0, "mfa_level": 0,
            "nsfw_level": 0, "premium_tier": 0, "premium_subscription_count": 0, "preferred_locale": "en-US",
            "afk_channel_id": None, "afk_timeout": 300, "system_channel_id": None, "system_channel_flags": 0,
            "rules_channel_id": None, "public_updates_channel_id": None, "safety_alerts_channel_id": None,
            "vanity_url_code": None, "max_members": 500000, "max_video_channel_users": 25,
            "application_id": None, "joined_at": JOINED_AT, "premium_progress_bar_enabled": False,
            "incidents_data": None,
        }


@dataclass
class World:
    """Everyone and everything in the fake Discord.

    Users: alice, bob, carol, dave, erin (players, no special rights); morgan (has the "Wardens" role, which
    grants Manage Channels); rowan (has the "Keepers" role: no permission bits, a guild may configure it as
    its moderator role); olive (owns both guilds). Guilds: "Arkham" (#table-1..#table-3) on shard 0 and
    "Dunwich" (#table-1, #table-2) on shard 1 when there are 2 shards.
    """

    ids: Snowflakes
    bot: FakeUser
    application_id: int
    users: dict[str, FakeUser] = field(default_factory=dict)
    guilds: dict[str, FakeGuild] = field(default_factory=dict)

    @classmethod
    def default(cls) -> World:
        ids = Snowflakes()
        bot = FakeUser(ids.next(), "miskatonic", bot=True)
        world = cls(ids=ids, bot=bot, application_id=bot.id)
        for name in ("alice", "bob", "carol", "dave", "erin", "morgan", "rowan", "olive"):
            world.users[name] = FakeUser(ids.next(), name)
        for index, (gname, channels) in enumerate((("Arkham", ("table-1", "table-2", "table-3")),
                                                   ("Dunwich", ("table-1", "table-2")))):
            gid = Snowflakes.guild_id(index)
            guild = FakeGuild(id=gid, name=gname, owner_id=world.users["olive"].id)
            guild.roles[gid] = FakeRole(gid, "@everyone", EVERYONE_PERMISSIONS)
            wardens = FakeRole(ids.next(), "Wardens", MANAGE_CHANNELS, position=2)
            keepers = FakeRole(ids.next(), "Keepers", 0, position=1)
            guild.roles[wardens.id] = wardens
            guild.roles[keepers.id] = keepers
            for pos, cname in enumerate(channels):
                ch = FakeChannel(ids.next(), gid, cname, position=pos)
                guild.channels[ch.id] = ch
            for user in world.users.values():
                roles = {"morgan": [wardens.id], "rowan": [keepers.id]}.get(user.name, [])
                guild.members[user.id] = roles
            guild.members[bot.id] = []
            world.guilds[gname] = guild
        return world

    def all_users(self) -> dict[int, FakeUser]:
        out = {u.id: u for u in self.users.values()}
        out[self.bot.id] = self.bot
        return out

    def user(self, user_id: int) -> FakeUser | None:
        return self.all_users().get(user_id)

    def guild_of_channel(self, channel_id: int) -> FakeGuild:
        for guild in self.guilds.values():
            if channel_id in guild.channels:
                return guild
        raise KeyError(f"unknown channel {channel_id}")

    def channel(self, channel_id: int) -> FakeChannel | None:
        for guild in self.guilds.values():
            if channel_id in guild.channels:
                return guild.channels[channel_id]
        return None

    def guild_by_id(self, guild_id: int) -> FakeGuild | None:
        for guild in self.guilds.values():
            if guild.id == guild_id:
                return guild
        return None
