"""A fake Discord (REST + gateway on 127.0.0.1) that the real discord.py client connects to.

See `server.FakeDiscord` for how tests use it.
"""

from tests.e2e.fakediscord.interactions import Callback, ClientRefused, FakeInteraction
from tests.e2e.fakediscord.messages import FakeFile, FakeMessage
from tests.e2e.fakediscord.redirect import point_discord_py_at, redirect, skip_identify_delay
from tests.e2e.fakediscord.server import FakeDiscord, snapshot
from tests.e2e.fakediscord.world import FakeChannel, FakeGuild, FakeRole, FakeUser, World

__all__ = [
    "Callback", "ClientRefused", "FakeChannel", "FakeDiscord", "FakeFile", "FakeGuild", "FakeInteraction",
    "FakeMessage", "FakeRole", "FakeUser", "World", "point_discord_py_at", "redirect", "skip_identify_delay",
    "snapshot",
]
