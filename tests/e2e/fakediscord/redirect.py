"""Point discord.py at a fake Discord. discord.py has no constructor parameter for its API or gateway URL:
both are class attributes, so they are set before the client starts and restored afterwards."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import discord
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route


def redirect(api_base: str, gateway_url: str) -> None:
    # Route.BASE also covers interaction callbacks and webhooks: discord/webhook/async_.py builds its URLs
    # from the same Route class.
    Route.BASE = api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


@contextmanager
def point_discord_py_at(api_base: str, gateway_url: str) -> Iterator[None]:
    old_base, old_gateway = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    redirect(api_base, gateway_url)
    try:
        yield
    finally:
        Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = old_base, old_gateway


def skip_identify_delay(client: discord.Client) -> None:
    """discord.py waits 5 s between shard IDENTIFYs (Discord's rate limit); the fake has none, and the
    tests would otherwise spend 5 s per extra shard."""

    async def no_wait(shard_id: int | None, *, initial: bool = False) -> None:
        return None

    client.before_identify_hook = no_wait  # type: ignore[method-assign]
