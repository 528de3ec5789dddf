"""The fake gateway: HELLO, heartbeat ACK, IDENTIFY → READY + GUILD_CREATE per shard, then dispatches; RESUME
after a dropped connection.

Frames are sent as TEXT JSON even though discord.py asks for zlib-stream: the client only decompresses
BINARY frames, so plain text is valid and keeps the fake simple.

Resuming (as Discord does): a session outlives its connection. Every dispatch is numbered and kept; while the
session has no connection (dropped, the client not back yet), events for its shard, interactions included,
are numbered and held. A client that sends RESUME with the session id and the last sequence number it saw
gets every later event replayed in order, then RESUMED. An unknown session, or one whose missed events are no
longer all kept, gets INVALID_SESSION (not resumable) and must IDENTIFY again, which starts a new session
and forgets whatever the old one held.
"""

from __future__ import annotations

import asyncio
import json
import logging
import uuid
from collections import deque
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
HISTORY = 2000  # dispatches a session keeps for a resume


async def send_frame(ws: web.WebSocketResponse, payload: dict[str, Any]) -> None:
    await ws.send_str(json.dumps(payload))


class GatewaySession:
    """One gateway session (one shard of one bot process), over one connection at a time."""

    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws: web.WebSocketResponse | None = ws
        self.shard_id: int | None = None
        self.shard_count = 1
        self.session_id = uuid.uuid4().hex
        self.seq = 0
        self.identify: dict[str, Any] | None = None
        self.history: deque[dict[str, Any]] = deque(maxlen=HISTORY)
        self.held = 0  # dispatches numbered while no connection carried them
        self._send_lock = asyncio.Lock()

    @property
    def connected(self) -> bool:
        return self.ws is not None and not self.ws.closed

    async def send(self, payload: dict[str, Any]) -> None:
        # aiohttp frames are written whole, but interleaved awaits from several dispatching tasks must not
        # reorder sequence numbers: number and send under one lock.
        async with self._send_lock:
            if payload.get("op") == DISPATCH:
                self.seq += 1
                payload["s"] = self.seq
                self.history.append(payload)
            if self.ws is None or self.ws.closed:
                self.held += 1  # replayed when the client resumes
                return
            try:
                await send_frame(self.ws, payload)
            except ConnectionError:
                self.held += 1  # the connection is going: the event waits for a resume like the others

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        await self.send({"op": DISPATCH, "t": event, "d": data, "s": None})

    def missed_since(self, seq: int) -> list[dict[str, Any]] | None:
        """The dispatches after `seq`, or None when some of them are no longer kept."""
        if seq > self.seq:
            return None
        if seq < self.seq and (not self.history or self.history[0]["s"] > seq + 1):
            return None
        return [p for p in self.history if p["s"] > seq]

    async def resume_on(self, ws: web.WebSocketResponse, seq: int) -> bool:
        """Carry the session on `ws` from `seq`: replay what the client missed, then RESUMED."""
        async with self._send_lock:
            missed = self.missed_since(seq)
            if missed is None:
                return False
            self.ws = ws
            for payload in missed:
                await send_frame(ws, payload)
        await self.dispatch("RESUMED", {})
        return True


class _Connection:
    """One websocket connection, and the session it carries once it identified or resumed."""

    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.session: GatewaySession | None = None


class Gateway:
    """Accepts gateway connections for a FakeDiscord and keeps one session per shard: live (`sessions`) or,
    between a dropped connection and the client's RESUME, detached (`detached`)."""

    def __init__(self, fake: FakeDiscord, heartbeat_interval_ms: int = 41_250) -> None:
        self.fake = fake
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.sessions: dict[int, GatewaySession] = {}
        self.detached: dict[int, GatewaySession] = {}
        self.identifies: list[dict[str, Any]] = []
        self.resumes: list[dict[str, Any]] = []
        self._admit = asyncio.Event()
        self._admit.set()

    def session_for_guild(self, guild_id: int) -> GatewaySession:
        """The session serving the guild: live, or detached (its events are then held for the resume)."""
        for session in (*self.sessions.values(), *self.detached.values()):
            if session.shard_id == shard_of(guild_id, session.shard_count):
                return session
        raise AssertionError(f"no gateway session serves guild {guild_id} (shards up: {sorted(self.sessions)})")

    # -- faults, for tests ----------------------------------------------------------------------------------
    def hold_connections(self) -> None:
        """New connections are accepted but get no HELLO until `admit_connections()`: a network gap the
        client waits out (it keeps its session, so it will RESUME)."""
        self._admit.clear()

    def admit_connections(self) -> None:
        self._admit.set()

    async def drop(self, code: int = 4000) -> None:
        """Close every live connection as a network failure would (4000: resumable)."""
        for session in list(self.sessions.values()):
            if session.ws is not None:
                await session.ws.close(code=code)
        await self.fake.wait_until(lambda: not self.sessions, "the dropped connections to close")

    # -- the protocol -------------------------------------------------------------------------------------------
    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        conn = _Connection(ws)
        await self._admit.wait()
        await send_frame(ws, {"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}, "s": None,
                              "t": None})
        handlers: dict[int, Callable[[_Connection, Any], Any]] = {
            HEARTBEAT: self._on_heartbeat, IDENTIFY: self._on_identify, RESUME: self._on_resume,
        }
        try:
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                handler = handlers.get(frame.get("op"))
                if handler is not None:
                    await handler(conn, frame.get("d"))
                # PRESENCE, REQUEST_MEMBERS, voice: accepted and ignored (the bot needs none of them).
        finally:
            session = conn.session
            if session is not None and session.ws is ws:
                session.ws = None
                if session.shard_id is not None and self.sessions.get(session.shard_id) is session:
                    del self.sessions[session.shard_id]
                    self.detached[session.shard_id] = session
            self.fake.changed()
        return ws

    async def _on_heartbeat(self, conn: _Connection, _data: Any) -> None:
        await send_frame(conn.ws, {"op": HEARTBEAT_ACK, "d": None, "s": None, "t": None})

    async def _on_identify(self, conn: _Connection, data: dict[str, Any]) -> None:
        if data.get("token") != self.fake.token:
            await conn.ws.close(code=AUTHENTICATION_FAILED, message=b"Authentication failed.")
            self.fake.fail(f"IDENTIFY with a wrong token {data.get('token')!r}")
            return
        session = conn.session = GatewaySession(conn.ws)
        shard_id, shard_count = data.get("shard") or [0, 1]
        self.detached.pop(shard_id, None)  # a new session: what the old one held is lost, as on Discord
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

    async def _on_resume(self, conn: _Connection, data: dict[str, Any]) -> None:
        if data.get("token") != self.fake.token:
            await conn.ws.close(code=AUTHENTICATION_FAILED, message=b"Authentication failed.")
            self.fake.fail(f"RESUME with a wrong token {data.get('token')!r}")
            return
        self.resumes.append(data)
        session = next((s for s in self.detached.values() if s.session_id == data.get("session_id")), None)
        if session is None or not await session.resume_on(conn.ws, int(data.get("seq") or 0)):
            # Unknown or expired: the client must identify afresh.
            await send_frame(conn.ws, {"op": INVALID_SESSION, "d": False, "s": None, "t": None})
            return
        conn.session = session
        assert session.shard_id is not None
        del self.detached[session.shard_id]
        self.sessions[session.shard_id] = session
        self.fake.changed()
