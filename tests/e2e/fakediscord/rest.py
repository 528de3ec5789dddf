"""The fake REST API: the endpoints the bot uses, with Discord's answers and Discord's refusals.

Every answer is JSON with Content-Type exactly `application/json` (discord.py treats `…; charset=utf-8` as
text). A refusal Discord would give (unknown interaction, acknowledged twice, invalid form body, unknown
message) is answered the way Discord answers it AND recorded as a failure: in production it would be a bug.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import web

from tests.e2e.fakediscord.interactions import (
    ALLOWED_CALLBACKS,
    AUTOCOMPLETE_RESULT,
    DEFERRED_MESSAGE,
    DEFERRED_UPDATE,
    MESSAGE,
    MODAL,
    UPDATE_MESSAGE,
    Callback,
    FakeInteraction,
)
from tests.e2e.fakediscord.messages import EPHEMERAL, LOADING, FakeFile, FakeMessage, message_problems

if TYPE_CHECKING:
    from tests.e2e.fakediscord.server import FakeDiscord

API = "/api/v10"
NAME_RE = re.compile(r"^[-_\w]{1,32}$")


@dataclass
class Recorded:
    """One request the bot made."""

    method: str
    path: str  # without the /api/v10 prefix
    query: dict[str, str]
    body: Any
    files: list[FakeFile] = field(default_factory=list)
    status: int = 200
    at: float = field(default_factory=time.monotonic)


class HttpError(Exception):
    def __init__(self, status: int, code: int, message: str, *, failure: str | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.failure = status, code, message, failure


def json_body(data: Any, status: int = 200) -> web.Response:
    return web.Response(body=json.dumps(data).encode(), status=status, content_type="application/json")


class RestApi:
    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake

    def install(self, app: web.Application) -> None:
        r = app.router
        r.add_get("/attachments/{channel}/{attachment}/{filename}", self.attachment)
        r.add_route("*", API + "/{tail:.*}", self.dispatch)

    async def attachment(self, request: web.Request) -> web.Response:
        for msg in self.fake.messages.values():
            for f in msg.files:
                if str(f.id) == request.match_info["attachment"]:
                    return web.Response(body=f.data, content_type=f.content_type)
        return json_body({"message": "404: Not Found", "code": 0}, 404)

    # -- routing ---------------------------------------------------------------------------------------
    ROUTES: list[tuple[str, str, str]] = [
        ("GET", r"/users/@me", "me"),
        ("GET", r"/oauth2/applications/@me", "application"),
        ("GET", r"/applications/@me", "application"),
        ("GET", r"/gateway/bot", "gateway_bot"),
        ("GET", r"/gateway", "gateway"),
        ("GET", r"/users/(?P<user>\d+)", "get_user"),
        ("PUT", r"/applications/(?P<app>\d+)/commands", "put_commands"),
        ("GET", r"/applications/(?P<app>\d+)/commands", "get_commands"),
        ("PUT", r"/applications/(?P<app>\d+)/guilds/(?P<guild>\d+)/commands", "put_commands"),
        ("GET", r"/applications/(?P<app>\d+)/guilds/(?P<guild>\d+)/commands", "get_commands"),
        ("POST", r"/interactions/(?P<iid>\d+)/(?P<token>[^/]+)/callback", "callback"),
        ("POST", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)", "followup"),
        ("GET", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>@original|\d+)", "get_webhook_msg"),
        ("PATCH", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>@original|\d+)", "edit_webhook_msg"),
        ("DELETE", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>@original|\d+)", "del_webhook_msg"),
        ("POST", r"/channels/(?P<cid>\d+)/messages", "post_message"),
        ("GET", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", "get_message"),
        ("PATCH", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", "edit_message"),
        ("DELETE", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", "delete_message"),
        ("GET", r"/channels/(?P<cid>\d+)", "get_channel"),
        ("GET", r"/guilds/(?P<guild>\d+)/members/(?P<user>\d+)", "get_member"),
    ]
    _compiled = [(m, re.compile(p + "$"), h) for m, p, h in ROUTES]

    async def dispatch(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        body, files = await self._read_body(request)
        rec = Recorded(request.method, path, dict(request.query), body, files)
        self.fake.requests.append(rec)
        try:
            # Interaction callbacks and webhooks authenticate by their token in the path; everything else
            # needs the bot token.
            if not path.startswith(("/interactions/", "/webhooks/")) and \
                    request.headers.get("Authorization") != f"Bot {self.fake.token}":
                raise HttpError(401, 0, "401: Unauthorized", failure="request without the bot token")
            for method, pattern, handler in self._compiled:
                m = pattern.match(path)
                if m and method == request.method:
                    result = await getattr(self, handler)(rec, **m.groupdict())
                    if result is None:
                        rec.status = 204
                        return web.Response(status=204)
                    return json_body(result)
            raise HttpError(404, 0, "404: Not Found",
                            failure=f"the bot called an endpoint the fake does not know: {request.method} {path}")
        except HttpError as err:
            rec.status = err.status
            if err.failure:
                self.fake.fail(f"{request.method} {path}: {err.failure}")
            return json_body({"message": err.message, "code": err.code}, err.status)
        finally:
            self.fake.changed()

    async def _read_body(self, request: web.Request) -> tuple[Any, list[FakeFile]]:
        if request.content_type.startswith("multipart/"):
            form = await request.post()
            body = json.loads(str(form.get("payload_json", "{}")))
            files: list[FakeFile] = []
            for key, value in form.items():
                if key.startswith("files[") and isinstance(value, web.FileField):
                    files.append(FakeFile(filename=value.filename, data=value.file.read(),
                                          id=self.fake.world.ids.next(),
                                          content_type=_guess_type(value.filename)))
            return body, files
        raw = await request.read()
        if not raw:
            return None, []
        return json.loads(raw), []

    # -- identity ----------------------------------------------------------------------------------------
    async def me(self, rec: Recorded) -> dict[str, Any]:
        return self.fake.world.bot.payload() | {"verified": True, "mfa_enabled": False, "locale": "en-US"}

    async def application(self, rec: Recorded) -> dict[str, Any]:
        world = self.fake.world
        owner = world.users["olive"].payload()
        return {"id": str(world.application_id), "name": "Miskatonic", "description": "", "icon": None,
                "bot_public": True, "bot_require_code_grant": False, "owner": owner, "verify_key": "0" * 64,
                "flags": 0, "team": None, "summary": "", "rpc_origins": [], "bot": world.bot.payload()}

    async def gateway_bot(self, rec: Recorded) -> dict[str, Any]:
        return {"url": self.fake.gateway_url, "shards": self.fake.recommended_shards,
                "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}}

    async def gateway(self, rec: Recorded) -> dict[str, Any]:
        return {"url": self.fake.gateway_url}

    async def get_user(self, rec: Recorded, user: str) -> dict[str, Any]:
        found = self.fake.world.user(int(user))
        if found is None:
            raise HttpError(404, 10013, "Unknown User")
        return found.payload()

    async def get_member(self, rec: Recorded, guild: str, user: str) -> dict[str, Any]:
        g = self.fake.world.guild_by_id(int(guild))
        u = self.fake.world.user(int(user))
        if g is None or u is None or u.id not in g.members:
            raise HttpError(404, 10007, "Unknown Member")
        return g.member_payload(u)

    async def get_channel(self, rec: Recorded, cid: str) -> dict[str, Any]:
        ch = self.fake.world.channel(int(cid))
        if ch is None:
            raise HttpError(404, 10003, "Unknown Channel", failure="unknown channel")
        return ch.payload()

    # -- commands ----------------------------------------------------------------------------------------
    async def put_commands(self, rec: Recorded, app: str, guild: str | None = None) -> list[dict[str, Any]]:
        problems = [p for cmd in rec.body for p in command_problems(cmd)]
        if problems:
            raise HttpError(400, 50035, "Invalid Form Body", failure="; ".join(problems))
        catalog = self.fake.catalog
        stored: dict[str, dict[str, Any]] = {}
        for cmd in rec.body:
            full = dict(cmd)
            full.setdefault("type", 1)
            full.setdefault("options", [])
            full.update(id=str(self.fake.world.ids.next()), application_id=app, version="1")
            full.setdefault("default_member_permissions", None)
            if guild is not None:
                full["guild_id"] = guild
            stored[full["name"]] = full
        if guild is None:
            catalog.global_commands = stored
        else:
            catalog.guild_commands[int(guild)] = stored
        return list(stored.values())

    async def get_commands(self, rec: Recorded, app: str, guild: str | None = None) -> list[dict[str, Any]]:
        catalog = self.fake.catalog
        source = catalog.global_commands if guild is None else catalog.guild_commands.get(int(guild), {})
        return list(source.values())

    # -- interactions ------------------------------------------------------------------------------------
    async def callback(self, rec: Recorded, iid: str, token: str) -> dict[str, Any]:
        fake = self.fake
        ix = fake.interactions.get(int(iid))
        if ix is None or ix.token != token:
            raise HttpError(404, 10062, "Unknown interaction", failure="callback for an unknown interaction")
        now = time.monotonic()
        if ix.callback is not None:
            raise HttpError(400, 40060, "Interaction has already been acknowledged.",
                            failure=f"interaction {iid} acknowledged twice")
        if now - ix.dispatched_at > fake.callback_deadline:
            raise HttpError(404, 10062, "Unknown interaction",
                            failure=f"interaction {iid} answered after {now - ix.dispatched_at:.2f}s "
                                    f"(Discord allows {fake.callback_deadline}s)")
        kind = int(rec.body["type"])
        data = rec.body.get("data") or {}
        if kind not in ALLOWED_CALLBACKS[ix.type]:
            raise HttpError(400, 50035, "Invalid Form Body",
                            failure=f"callback type {kind} is not valid for interaction type {ix.type}")
        problems = callback_problems(kind, data)
        if problems:
            raise HttpError(400, 50035, "Invalid Form Body", failure="; ".join(problems))
        ix.callback = Callback(kind, data, rec.files, now)
        message: FakeMessage | None = None
        if kind == MESSAGE:
            message = fake.create_message(ix.channel_id, data, rec.files, interaction=ix)
            ix.original = message
        elif kind == DEFERRED_MESSAGE:
            flags = (int(data.get("flags") or 0) & EPHEMERAL) | LOADING
            message = fake.create_message(ix.channel_id, {"content": "", "flags": flags}, [], interaction=ix)
            ix.original = message
            ix.awaiting_first_followup = True
        elif kind == UPDATE_MESSAGE:
            assert ix.message is not None
            message = fake.edit_message(ix.message, data, rec.files)
            ix.original = ix.message
        elif kind == DEFERRED_UPDATE:
            # For a component, "@original" is the message the component is on.
            ix.original = ix.message
        elif kind == MODAL:
            ix.modal = data
        interaction: dict[str, Any] = {"id": iid, "type": ix.type}
        out: dict[str, Any] = {"interaction": interaction}
        if message is not None:
            interaction.update(response_message_id=str(message.id), response_message_loading=kind == DEFERRED_MESSAGE,
                               response_message_ephemeral=message.ephemeral)
            out["resource"] = {"type": kind, "message": fake.message_payload(message)}
        elif kind != AUTOCOMPLETE_RESULT:
            out["resource"] = {"type": kind}
        return out

    def _interaction_for_token(self, app: str, token: str) -> FakeInteraction:
        ix = self.fake.by_token.get(token)
        if ix is None or app != str(self.fake.world.application_id):
            raise HttpError(404, 10015, "Unknown Webhook", failure="webhook call with an unknown token")
        if ix.callback is None:
            raise HttpError(404, 10015, "Unknown Webhook",
                            failure=f"follow-up for interaction {ix.id} before its initial response")
        if ix.callback.type in (AUTOCOMPLETE_RESULT, MODAL):
            raise HttpError(400, 50035, "Invalid Form Body",
                            failure=f"follow-up after a callback of type {ix.callback.type}")
        return ix

    async def followup(self, rec: Recorded, app: str, token: str) -> dict[str, Any]:
        ix = self._interaction_for_token(app, token)
        body = rec.body or {}
        problems = message_problems(body)
        if problems:
            raise HttpError(400, 50035, "Invalid Form Body", failure="; ".join(problems))
        if ix.awaiting_first_followup and ix.original is not None:
            # After a deferred message, Discord's first follow-up replaces the "thinking…" message, keeping
            # the ephemerality chosen at defer time.
            ix.awaiting_first_followup = False
            flags = ix.original.flags & EPHEMERAL
            message = self.fake.edit_message(ix.original, body | {"flags": flags}, rec.files)
            message.edits = 0
            message.pinged = list(message.mentions)  # filling the "thinking…" message posts the answer
        else:
            message = self.fake.create_message(ix.channel_id, body, rec.files, interaction=ix, webhook=True)
        ix.followups.append(message)
        return self.fake.message_payload(message)

    def _webhook_message(self, ix: FakeInteraction, mid: str) -> FakeMessage:
        if mid == "@original":
            if ix.original is None:
                raise HttpError(404, 10008, "Unknown Message", failure=f"no original response for {ix.id}")
            return ix.original
        msg = self.fake.messages.get(int(mid))
        if msg is None or msg.deleted or msg.interaction_id != ix.id:
            raise HttpError(404, 10008, "Unknown Message", failure=f"unknown webhook message {mid}")
        return msg

    async def get_webhook_msg(self, rec: Recorded, app: str, token: str, mid: str) -> dict[str, Any]:
        ix = self._interaction_for_token(app, token)
        return self.fake.message_payload(self._webhook_message(ix, mid))

    async def edit_webhook_msg(self, rec: Recorded, app: str, token: str, mid: str) -> dict[str, Any]:
        ix = self._interaction_for_token(app, token)
        msg = self._webhook_message(ix, mid)
        problems = message_problems(rec.body or {})
        if problems:
            raise HttpError(400, 50035, "Invalid Form Body", failure="; ".join(problems))
        if msg is ix.original and ix.awaiting_first_followup:
            ix.awaiting_first_followup = False
            msg.flags &= ~LOADING
        return self.fake.message_payload(self.fake.edit_message(msg, rec.body or {}, rec.files))

    async def del_webhook_msg(self, rec: Recorded, app: str, token: str, mid: str) -> None:
        ix = self._interaction_for_token(app, token)
        msg = self._webhook_message(ix, mid)
        msg.deleted = True
        if msg is ix.original:
            # With the "thinking…" message gone, later follow-ups are new messages of their own.
            ix.awaiting_first_followup = False

    # -- channel messages --------------------------------------------------------------------------------
    def _channel_message(self, cid: str, mid: str) -> FakeMessage:
        msg = self.fake.messages.get(int(mid))
        if msg is None or msg.deleted or msg.channel_id != int(cid) or msg.ephemeral:
            raise HttpError(404, 10008, "Unknown Message", failure=f"unknown message {mid} in channel {cid}")
        return msg

    async def post_message(self, rec: Recorded, cid: str) -> dict[str, Any]:
        if self.fake.world.channel(int(cid)) is None:
            raise HttpError(404, 10003, "Unknown Channel", failure=f"message to unknown channel {cid}")
        body = rec.body or {}
        problems = message_problems(body)
        if int(body.get("flags") or 0) & EPHEMERAL:
            problems.append("a channel message cannot be ephemeral")
        if problems:
            raise HttpError(400, 50035, "Invalid Form Body", failure="; ".join(problems))
        return self.fake.message_payload(self.fake.create_message(int(cid), body, rec.files))

    async def get_message(self, rec: Recorded, cid: str, mid: str) -> dict[str, Any]:
        return self.fake.message_payload(self._channel_message(cid, mid))

    async def edit_message(self, rec: Recorded, cid: str, mid: str) -> dict[str, Any]:
        msg = self._channel_message(cid, mid)
        if msg.author.id != self.fake.world.bot.id:
            raise HttpError(403, 50005, "Cannot edit a message authored by another user",
                            failure="edit of another user's message")
        problems = message_problems(rec.body or {})
        if problems:
            raise HttpError(400, 50035, "Invalid Form Body", failure="; ".join(problems))
        return self.fake.message_payload(self.fake.edit_message(msg, rec.body or {}, rec.files))

    async def delete_message(self, rec: Recorded, cid: str, mid: str) -> None:
        self._channel_message(cid, mid).deleted = True


def callback_problems(kind: int, data: dict[str, Any]) -> list[str]:
    if kind in (MESSAGE, UPDATE_MESSAGE):
        return message_problems(data)
    if kind == AUTOCOMPLETE_RESULT:
        choices = data.get("choices")
        if choices is None:
            return ["autocomplete result without choices"]
        problems = [f"{len(choices)} autocomplete choices (max 25)"] if len(choices) > 25 else []
        for c in choices:
            if not 1 <= len(c.get("name", "")) <= 100:
                problems.append(f"autocomplete choice name {c.get('name')!r} must be 1 to 100 characters")
            if isinstance(c.get("value"), str) and len(c["value"]) > 100:
                problems.append(f"autocomplete choice value {c['value']!r} is longer than 100 characters")
        return problems
    if kind == MODAL:
        problems = []
        if not 1 <= len(data.get("title", "")) <= 45:
            problems.append("a modal title must be 1 to 45 characters")
        if not data.get("custom_id") or len(data["custom_id"]) > 100:
            problems.append("a modal needs a custom_id of at most 100 characters")
        if not 1 <= len(data.get("components", [])) <= 5:
            problems.append("a modal needs 1 to 5 components")
        return problems
    return []


def command_problems(cmd: dict[str, Any], depth: int = 0) -> list[str]:
    """What Discord refuses in an application command declaration."""
    problems: list[str] = []
    name = cmd.get("name", "")
    if not NAME_RE.match(name) or name != name.lower():
        problems.append(f"command/option name {name!r} must be 1-32 lowercase characters")
    desc = cmd.get("description", "")
    if cmd.get("type", 1) in (1, None) or depth > 0:
        if not 1 <= len(desc) <= 100:
            problems.append(f"{name!r}: description must be 1 to 100 characters (is {len(desc)})")
    options = cmd.get("options") or []
    if len(options) > 25:
        problems.append(f"{name!r}: {len(options)} options (max 25)")
    seen_optional = False
    for opt in options:
        problems += command_problems(opt, depth + 1)
        if opt.get("type") in (1, 2):
            continue
        if opt.get("required") and seen_optional:
            problems.append(f"{name!r}: required option {opt['name']!r} after an optional one")
        seen_optional = seen_optional or not opt.get("required")
        choices = opt.get("choices") or []
        if len(choices) > 25:
            problems.append(f"{opt['name']!r}: {len(choices)} choices (max 25)")
        if choices and opt.get("autocomplete"):
            problems.append(f"{opt['name']!r}: choices and autocomplete together")
    return problems


def _guess_type(filename: str) -> str:
    lower = filename.lower()
    for ext, kind in ((".png", "image/png"), (".jpg", "image/jpeg"), (".json", "application/json"),
                      (".txt", "text/plain"), (".md", "text/markdown"), (".csv", "text/csv")):
        if lower.endswith(ext):
            return kind
    return "application/octet-stream"
