"""The fake gateway: HELLO, heartbeat ACK, IDENTIFY → READY + GUILD_CREATE per shard, then dispatches.

Frames are sent as TEXT JSON even though discord.py asks for zlib-stream: the client only decompresses
BINARY frames, so plain text is valid and keeps the fake simple.
"""

from __future__ import annotations

import asyncio
import json
import logging
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from tests.e2e.fakediscord.ids import shard_of

if TYPE_CHECKING:
    from tests.e2e.fakediscord.server import FakeDiscord

log = logging.getLogger(__name__)

DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, RESUME, REQUEST_MEMBERS, HELLO, HEARTBEAT_ACK = 0, 1, 2, 3, 6, 8, 10, 11
INVALID_SESSION = 9
AUTHENTICATION_FAILED = 4004


class GatewaySession:
    """One websocket connection (one shard of one bot process)."""

    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.shard_id: int | None = None
        self.shard_count = 1
        self.session_id = uuid.uuid4().hex
        self.seq = 0
        self.identify: dict[str, Any] | None = None
        self._send_lock = asyncio.Lock()

    async def send(self, payload: dict[str, Any]) -> None:
        # aiohttp frames are written whole, but interleaved awaits from several dispatching tasks must not
        # reorder sequence numbers: number and send under one lock.
        async with self._send_lock:
            if payload.get("op") == DISPATCH:
                self.seq += 1
                payload["s"] = self.seq
            await self.ws.send_str(json.dumps(payload))

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        await self.send({"op": DISPATCH, "t": event, "d": data, "s": None})


class Gateway:
    """Accepts gateway connections for a FakeDiscord and keeps one live session per shard."""

    def __init__(self, fake: FakeDiscord, heartbeat_interval_ms: int = 41_250) -> None:
        self.fake = fake
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.sessions: dict[int, GatewaySession] = {}
        self.identifies: list[dict[str, Any]] = []

    def session_for_guild(self, guild_id: int) -> GatewaySession:
        for session in self.sessions.values():
            if session.shard_id == shard_of(guild_id, session.shard_count):
                return session
        raise AssertionError(f"no gateway session serves guild {guild_id} (shards up: {sorted(self.sessions)})")

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        session = GatewaySession(ws)
        await session.send({"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}, "s": None,
                            "t": None})
        handlers: dict[int, Callable[[GatewaySession, Any], Any]] = {
            HEARTBEAT: self._on_heartbeat, IDENTIFY: self._on_identify, RESUME: self._on_resume,
        }
        try:
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                handler = handlers.get(frame.get("op"))
                if handler is not None:
                    await handler(session, frame.get("d"))
                # PRESENCE, REQUEST_MEMBERS, voice: accepted and ignored (the bot needs none of them).
        finally:
            if session.shard_id is not None and self.sessions.get(session.shard_id) is session:
                del self.sessions[session.shard_id]
            self.fake.changed()
        return ws

    async def _on_heartbeat(self, session: GatewaySession, _data: Any) -> None:
        await session.send({"op": HEARTBEAT_ACK, "d": None, "s": None, "t": None})

    async def _on_identify(self, session: GatewaySession, data: dict[str, Any]) -> None:
        if data.get("token") != self.fake.token:
            await session.ws.close(code=AUTHENTICATION_FAILED, message=b"Authentication failed.")
            self.fake.fail(f"IDENTIFY with a wrong token {data.get('token')!r}")
            return
        shard_id, shard_count = data.get("shard") or [0, 1]
        session.shard_id, session.shard_count, session.identify = shard_id, shard_count, data
        self.identifies.append(data)
        world = self.fake.world
        guilds = [g for g in world.guilds.values() if shard_of(g.id, shard_count) == shard_id]
        ready = {
            "v": 10,
            "user": world.bot.payload() | {"verified": True, "mfa_enabled": False, "email": None,
                                           "locale": "en-US"},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.session_id,
            "session_type": "normal",
            "resume_gateway_url": self.fake.gateway_url,
            "application": {"id": str(world.application_id), "flags": 0},
            "shard": [shard_id, shard_count],
            "private_channels": [], "relationships": [], "presences": [], "guild_join_requests": [],
            "geo_ordered_rtc_regions": [], "user_settings": {}, "auth": {},
        }
        await session.dispatch("READY", ready)
        users = world.all_users()
        for guild in guilds:
            await session.dispatch("GUILD_CREATE", guild.payload(users))
        self.sessions[shard_id] = session
        self.fake.changed()

    async def _on_resume(self, session: GatewaySession, data: dict[str, Any]) -> None:
        # Sessions are not kept across connections: ask the client to identify afresh, as Discord does for
        # an expired session.
        await session.send({"op": INVALID_SESSION, "d": False, "s": None, "t": None})
