"""FakeDiscord: a REST API and a gateway on 127.0.0.1, a small world of users and guilds, and helpers that
act as users (slash commands, clicks, selects, autocomplete, modals) and wait for the bot's answers.

    fake = FakeDiscord()
    await fake.start()
    with point_discord_py_at(fake): ... start the bot with fake.token ...
    await fake.wait_for_shards(1)
    ix = await fake.slash("game new", user=fake.alice, channel=fake.table1, game="countdown")
    msg = await fake.reply(ix)            # the message the user sees, deferred or not
    ix2 = await fake.click(msg.button("Take 1"), msg, user=fake.alice)

Everything the bot sends is recorded (`requests`, `messages`, each interaction's callback and follow-ups);
anything Discord would refuse is answered as Discord does and appended to `failures`, which the test
fixtures require to be empty.
"""

from __future__ import annotations

import asyncio
import copy
import re
import secrets
import socket
import time
from collections.abc import Callable
from typing import Any, TypeVar

from aiohttp import web

from tests.e2e.fakediscord.gateway import Gateway
from tests.e2e.fakediscord.interactions import (
    AUTOCOMPLETE,
    COMMAND,
    COMPONENT,
    DEFERRED_MESSAGE,
    DEFERRED_UPDATE,
    MESSAGE,
    MODAL_SUBMIT,
    UPDATE_MESSAGE,
    Callback,
    ClientRefused,
    CommandCatalog,
    FakeInteraction,
    build_options,
    nest,
)
from tests.e2e.fakediscord.messages import (
    BUTTON,
    EPHEMERAL,
    LOADING,
    SELECT,
    TEXT_INPUT,
    FakeFile,
    FakeMessage,
    iter_components,
)
from tests.e2e.fakediscord.rest import Recorded, RestApi
from tests.e2e.fakediscord.world import ADMINISTRATOR, FakeChannel, FakeGuild, FakeUser, World

T = TypeVar("T")
MENTION_RE = re.compile(r"<@!?(\d+)>")


class FakeDiscord:
    def __init__(self, world: World | None = None, *, callback_deadline: float = 3.0,
                 recommended_shards: int = 1) -> None:
        self.world = world or World.default()
        self.token = "fake-bot-token." + secrets.token_hex(8)
        self.callback_deadline = callback_deadline  # Discord drops an interaction not answered in 3 s
        self.recommended_shards = recommended_shards  # what GET /gateway/bot advises
        self.catalog = CommandCatalog()
        self.gateway = Gateway(self)
        self.rest = RestApi(self)
        self.requests: list[Recorded] = []
        self.failures: list[str] = []
        self.interactions: dict[int, FakeInteraction] = {}
        self.by_token: dict[str, FakeInteraction] = {}
        self.messages: dict[int, FakeMessage] = {}
        #: called with each message when it is posted and after each edit (a test that must see every version
        #: of a message, not only its last, e.g. that no private card was ever shown publicly)
        self.watchers: list[Callable[[FakeMessage], None]] = []
        # (guild id, command name) -> role ids allowed: a server admin's override in Integrations settings
        self.command_overrides: dict[tuple[int, str], set[int]] = {}
        self.port = 0
        self._runner: web.AppRunner | None = None
        self._tick = asyncio.Event()

    # -- lifecycle ---------------------------------------------------------------------------------------
    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway.handle)
        self.rest.install(app)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        await web.SockSite(self._runner, sock).start()

    async def stop(self) -> None:
        self.gateway.admit_connections()
        for session in list(self.gateway.sessions.values()):
            if session.ws is not None:
                await session.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    # -- the world, for tests ----------------------------------------------------------------------------
    def __getattr__(self, name: str) -> FakeUser:
        # fake.alice, fake.morgan … : the world's users by name.
        users = self.__dict__.get("world")
        if users is not None and name in users.users:
            return users.users[name]
        raise AttributeError(name)

    def guild(self, name: str = "Arkham") -> FakeGuild:
        return self.world.guilds[name]

    def channel(self, name: str = "table-1", guild: str = "Arkham") -> FakeChannel:
        return self.world.guilds[guild].channel(name)

    def allow_command(self, guild: FakeGuild, command: str, *, role_ids: set[int]) -> None:
        """What a server admin does in Server Settings → Integrations: let these roles use a command whatever
        its default permissions (the guild id stands for @everyone)."""
        self.command_overrides[(guild.id, command)] = set(role_ids)

    # -- recording ---------------------------------------------------------------------------------------
    def changed(self) -> None:
        self._tick.set()
        self._tick = asyncio.Event()

    def fail(self, message: str) -> None:
        self.failures.append(message)

    def take_failures(self) -> list[str]:
        """Return and forget the failures (for tests that provoke one on purpose)."""
        out, self.failures = self.failures, []
        return out

    async def wait_until(self, predicate: Callable[[], T | None], what: str, timeout: float = 5.0) -> T:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                recent = [f"{r.method} {r.path} -> {r.status}" for r in self.requests[-8:]]
                raise AssertionError(f"timed out after {timeout}s waiting for {what}; "
                                     f"failures={self.failures}; last requests={recent}")
            tick = self._tick
            try:
                await asyncio.wait_for(tick.wait(), remaining)
            except TimeoutError:
                pass

    async def wait_for_shards(self, count: int, timeout: float = 10.0) -> None:
        await self.wait_until(lambda: len(self.gateway.sessions) >= count, f"{count} gateway shard(s)", timeout)

    async def wait_for_commands(self, timeout: float = 10.0) -> None:
        await self.wait_until(lambda: bool(self.catalog.global_commands), "a command sync", timeout)

    # -- messages ----------------------------------------------------------------------------------------
    def create_message(self, channel_id: int, body: dict[str, Any], files: list[FakeFile], *,
                       interaction: FakeInteraction | None = None, webhook: bool = False) -> FakeMessage:
        guild = self.world.guild_of_channel(channel_id)
        flags = int(body.get("flags") or 0)
        msg = FakeMessage(
            id=self.world.ids.next(), channel_id=channel_id, guild_id=guild.id, author=self.world.bot,
            content=body.get("content") or "", embeds=list(body.get("embeds") or []),
            components=list(body.get("components") or []), files=list(files), flags=flags,
            webhook_id=self.world.application_id if (interaction is not None or webhook) else None,
            interaction_id=interaction.id if interaction is not None else None,
            visible_to=interaction.user.id if (interaction is not None and flags & EPHEMERAL) else None,
        )
        msg.mentions = pinged(body)
        if not flags & LOADING:
            msg.pinged = list(msg.mentions)  # an edit never notifies anyone (Discord pings on posting only)
        reference = body.get("message_reference") or {}
        if reference.get("message_id") is not None:
            msg.reference = int(reference["message_id"])
            replied = self.messages.get(msg.reference)
            if (replied is None or replied.deleted) and reference.get("fail_if_not_exists", True):
                self.fail(f"message {msg.id} replies to unknown message {msg.reference}")
        self.messages[msg.id] = msg
        self._check_attachments(msg)
        if not (msg.content or msg.embeds or msg.files or msg.components or flags & LOADING):
            self.fail(f"message {msg.id} is empty (Discord refuses it: 50006 Cannot send an empty message)")
        self._watched(msg)
        return msg

    def _watched(self, msg: FakeMessage) -> None:
        for watch in self.watchers:
            watch(msg)

    def _check_attachments(self, msg: FakeMessage) -> None:
        """An embed picture must point at a file the message carries (else Discord shows nothing)."""
        names = set(msg.filenames)
        for e in msg.embeds:
            for key in ("image", "thumbnail"):
                url = (e.get(key) or {}).get("url", "")
                if url.startswith("attachment://") and url.removeprefix("attachment://") not in names:
                    self.fail(f"message {msg.id}: embed {key} {url} is not one of its files {sorted(names)}")

    def edit_message(self, msg: FakeMessage, body: dict[str, Any], files: list[FakeFile]) -> FakeMessage:
        if "content" in body:
            msg.content = body["content"] or ""
            msg.mentions = pinged(body)
        if "embeds" in body:
            msg.embeds = list(body["embeds"] or [])
        if "components" in body:
            msg.components = list(body["components"] or [])
        if "flags" in body:
            msg.flags = int(body["flags"] or 0) | (msg.flags & EPHEMERAL)
        if "attachments" in body:
            keep = {str(a.get("id")) for a in body["attachments"] or []}
            msg.files = [f for f in msg.files if str(f.id) in keep]
        msg.files += files
        msg.flags &= ~LOADING
        msg.edits += 1
        msg.updated_at = time.monotonic()
        self._check_attachments(msg)
        self._watched(msg)
        return msg

    def message_payload(self, msg: FakeMessage) -> dict[str, Any]:
        return msg.payload(self.base_url, self.world.application_id)

    def channel_messages(self, channel: FakeChannel, *, viewer: FakeUser | None = None) -> list[FakeMessage]:
        """The channel's messages in order, as `viewer` sees them (ephemeral ones only for their user)."""
        return [m for m in self.messages.values()
                if m.channel_id == channel.id and not m.deleted
                and (not m.ephemeral or (viewer is not None and m.visible_to == viewer.id))]

    async def expect_channel_message(self, channel: FakeChannel, predicate: Callable[[FakeMessage], bool],
                                     what: str = "a channel message", timeout: float = 5.0) -> FakeMessage:
        def find() -> FakeMessage | None:
            return next((m for m in self.channel_messages(channel) if predicate(m)), None)
        return await self.wait_until(find, what, timeout)

    # -- acting as users ---------------------------------------------------------------------------------
    def _may_use(self, guild: FakeGuild, user: FakeUser, command: dict[str, Any]) -> bool:
        """Whether Discord shows `command` to `user` (default permissions, or an admin's override)."""
        perms = guild.permissions_of(user.id)
        if perms & ADMINISTRATOR:
            return True
        # An admin's override grants the command to its roles on top of the default permissions.
        override = self.command_overrides.get((guild.id, command["name"]), set())
        if override & ({guild.id} | set(guild.members.get(user.id, []))):
            return True
        required = command.get("default_member_permissions")
        return required is None or (perms & int(required)) == int(required)

    async def slash(self, path: str, *, user: FakeUser, channel: FakeChannel | None = None,
                    **options: Any) -> FakeInteraction:
        """Invoke `/path` (e.g. "game new") as `user` in `channel` with `options`."""
        channel = channel or self.channel()
        guild = self.world.guild_of_channel(channel.id)
        top, chain = self.catalog.resolve_path(path, guild.id)
        if not self._may_use(guild, user, top):
            raise ClientRefused(f"Discord does not show /{top['name']} to {user.name}")
        leaf = chain[-1] if chain else top
        opts, resolved = build_options(leaf, options, guild, self.world.all_users())
        data = {"id": top["id"], "name": top["name"], "type": 1, "options": nest(chain, opts)}
        if resolved:
            data["resolved"] = resolved
        if "guild_id" in top:
            data["guild_id"] = top["guild_id"]
        return await self._send(COMMAND, user, channel, data)

    async def autocomplete(self, path: str, focused: str, typed: str, *, user: FakeUser,
                           channel: FakeChannel | None = None, **options: Any) -> FakeInteraction:
        """The user is typing `typed` into option `focused` of `/path` (other options already filled)."""
        channel = channel or self.channel()
        guild = self.world.guild_of_channel(channel.id)
        top, chain = self.catalog.resolve_path(path, guild.id)
        leaf = chain[-1] if chain else top
        decl = {o["name"]: o for o in leaf.get("options", [])}
        if not decl.get(focused, {}).get("autocomplete"):
            raise ClientRefused(f"option {focused!r} of /{path} has no autocomplete")
        opts, _ = build_options(leaf, {**options, focused: typed}, guild, self.world.all_users(), focused=focused)
        data = {"id": top["id"], "name": top["name"], "type": 1, "options": nest(chain, opts)}
        return await self._send(AUTOCOMPLETE, user, channel, data)

    async def choices(self, path: str, focused: str, typed: str, *, user: FakeUser,
                      channel: FakeChannel | None = None, **options: Any) -> list[dict[str, Any]]:
        """Autocomplete and wait for the bot's suggestions."""
        ix = await self.autocomplete(path, focused, typed, user=user, channel=channel, **options)
        return (await self.expect_callback(ix)).choices

    def _clickable(self, message: FakeMessage, user: FakeUser, custom_id: str, kind: int) -> dict[str, Any]:
        if message.deleted:
            raise ClientRefused(f"message {message.id} was deleted")
        if message.ephemeral and message.visible_to != user.id:
            raise ClientRefused(f"{user.name} cannot see ephemeral message {message.id}")
        comp = message.component(custom_id)
        if comp is None or comp.get("type") != kind:
            raise ClientRefused(f"message {message.id} has no component {custom_id!r} of type {kind} "
                                f"(has {message.custom_ids()})")
        if comp.get("disabled"):
            raise ClientRefused(f"component {custom_id!r} is disabled")
        return comp

    async def click(self, button: str | dict[str, Any], message: FakeMessage, *, user: FakeUser) -> FakeInteraction:
        """Click a button (its custom_id or its component dict) on `message` as `user`.

        `message` is what the user's client shows: pass a `snapshot()` to click a message as it was before
        the bot edited it (several users clicking at once all see the same old message).
        """
        custom_id = button if isinstance(button, str) else button["custom_id"]
        self._clickable(message, user, custom_id, BUTTON)
        channel = self._channel(message.channel_id)
        return await self._send(COMPONENT, user, channel, {"custom_id": custom_id, "component_type": BUTTON},
                                message=message)

    async def select(self, custom_id: str, values: list[str], message: FakeMessage, *,
                     user: FakeUser) -> FakeInteraction:
        comp = self._clickable(message, user, custom_id, SELECT)
        allowed = [o["value"] for o in comp.get("options", [])]
        bad = [v for v in values if v not in allowed]
        if bad:
            raise ClientRefused(f"{bad[0]!r} is not an option of select {custom_id!r}")
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not lo <= len(values) <= hi or len(set(values)) != len(values):
            raise ClientRefused(f"select {custom_id!r} takes {lo} to {hi} distinct values, got {values}")
        channel = self._channel(message.channel_id)
        data = {"custom_id": custom_id, "component_type": SELECT, "values": list(values)}
        return await self._send(COMPONENT, user, channel, data, message=message)

    @staticmethod
    def modal_fields(opened_by: FakeInteraction) -> list[dict[str, Any]]:
        """The text inputs of the modal the bot opened (inside action rows or labels)."""
        modal = opened_by.modal
        if modal is None:
            raise ClientRefused(f"interaction {opened_by.id} did not open a modal")
        found = iter_components(modal["components"]) + iter_components(
            [c["component"] for c in modal["components"] if c.get("type") == 18])
        return [c for c in found if c.get("type") == TEXT_INPUT]

    async def submit_modal(self, opened_by: FakeInteraction, values: dict[str, str] | list[str]) -> FakeInteraction:
        """Fill and submit the modal the bot opened in answer to `opened_by` (values by field custom_id, or
        in the order of the fields)."""
        inputs = self.modal_fields(opened_by)
        modal = opened_by.modal
        assert modal is not None
        if isinstance(values, list):
            values = {c["custom_id"]: v for c, v in zip(inputs, values, strict=False)}
        ids = {c["custom_id"] for c in inputs}
        if set(values) - ids:
            raise ClientRefused(f"the modal has no field {sorted(set(values) - ids)[0]!r} (has {sorted(ids)})")
        for c in inputs:
            value = values.get(c["custom_id"], "")
            if c.get("required", True) and not value:
                raise ClientRefused(f"modal field {c['custom_id']!r} is required")
            if value and not c.get("min_length", 0) <= len(value) <= c.get("max_length", 4000):
                raise ClientRefused(f"modal field {c['custom_id']!r}: {len(value)} characters is out of bounds")
        rows = [{"type": 1, "components": [{"type": TEXT_INPUT, "custom_id": c["custom_id"],
                                            "value": values.get(c["custom_id"], "")}]} for c in inputs]
        channel = self._channel(opened_by.channel_id)
        data = {"custom_id": modal["custom_id"], "components": rows}
        return await self._send(MODAL_SUBMIT, opened_by.user, channel, data, message=opened_by.message)

    def _channel(self, channel_id: int) -> FakeChannel:
        ch = self.world.channel(channel_id)
        assert ch is not None
        return ch

    async def _send(self, kind: int, user: FakeUser, channel: FakeChannel, data: dict[str, Any],
                    message: FakeMessage | None = None) -> FakeInteraction:
        guild = self.world.guild_of_channel(channel.id)
        iid = self.world.ids.next()
        token = f"itok{iid}.{secrets.token_hex(12)}"
        payload: dict[str, Any] = {
            "id": str(iid), "application_id": str(self.world.application_id), "type": kind, "token": token,
            "version": 1, "attachment_size_limit": 10 * 1024 * 1024, "data": data,
            "guild_id": str(guild.id), "channel_id": str(channel.id),
            "channel": channel.payload() | {"permissions": str(guild.permissions_of(user.id))},
            "guild": {"id": str(guild.id), "locale": "en-US", "features": []},
            "member": guild.member_payload(user, with_permissions=True),
            "app_permissions": str(guild.permissions_of(self.world.bot.id)),
            "locale": "en-US", "guild_locale": "en-US", "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild.id)}, "context": 0,
        }
        if message is not None:
            payload["message"] = self.message_payload(message)
        ix = FakeInteraction(id=iid, token=token, type=kind, user=user, guild_id=guild.id,
                             channel_id=channel.id, payload=payload, message=message)
        self.interactions[iid] = ix
        self.by_token[token] = ix
        session = self.gateway.session_for_guild(guild.id)
        ix.dispatched_at = time.monotonic()
        await session.dispatch("INTERACTION_CREATE", payload)
        return ix

    # -- waiting for the bot's answers -------------------------------------------------------------------
    async def expect_callback(self, ix: FakeInteraction, timeout: float = 5.0) -> Callback:
        return await self.wait_until(lambda: ix.callback, f"the callback to interaction {ix.id}", timeout)

    async def expect_followup(self, ix: FakeInteraction, timeout: float = 5.0) -> FakeMessage:
        """The next follow-up message for `ix` not returned before."""
        def next_one() -> FakeMessage | None:
            if len(ix.followups) > ix.followups_taken:
                return ix.followups[ix.followups_taken]
            return None
        msg = await self.wait_until(next_one, f"follow-up #{ix.followups_taken + 1} to interaction {ix.id}",
                                    timeout)
        ix.followups_taken += 1
        return msg

    async def reply(self, ix: FakeInteraction, timeout: float = 5.0) -> FakeMessage:
        """The message the user sees as the answer, whether the bot answered at once, deferred then followed
        up, or updated the clicked message."""
        cb = await self.expect_callback(ix, timeout)
        if cb.type == MESSAGE:
            assert ix.original is not None
            return ix.original
        if cb.type == DEFERRED_MESSAGE:
            await self.wait_until(lambda: not ix.awaiting_first_followup, f"the deferred answer to {ix.id}",
                                  timeout)
            assert ix.original is not None
            if ix.original.deleted:
                # The bot removed its "thinking…" message (to answer privately instead): the answer is
                # the next follow-up.
                return await self.expect_followup(ix, timeout)
            if ix.followups and ix.followups[0] is ix.original and ix.followups_taken == 0:
                ix.followups_taken = 1
            return ix.original
        if cb.type == UPDATE_MESSAGE:
            assert ix.message is not None
            return ix.message
        if cb.type == DEFERRED_UPDATE:
            return await self.expect_followup(ix, timeout)
        raise AssertionError(f"interaction {ix.id} was answered with callback type {cb.type}, not a message")

    async def settle(self, quiet: float = 0.15, timeout: float = 10.0) -> None:
        """Wait until the bot has made no request for `quiet` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            count = len(self.requests)
            await asyncio.sleep(quiet)
            if len(self.requests) == count:
                return


def pinged(body: dict[str, Any]) -> list[int]:
    """Users a message notifies: mentioned in its content and allowed by `allowed_mentions`."""
    ids = [int(x) for x in MENTION_RE.findall(body.get("content") or "")]
    allowed = body.get("allowed_mentions")
    if allowed is None or "users" in (allowed.get("parse") or []):
        return ids
    permitted = {int(x) for x in allowed.get("users") or []}
    return [i for i in ids if i in permitted]


def snapshot(message: FakeMessage) -> FakeMessage:
    """A copy of a message as a user's client shows it now (later edits do not change the copy)."""
    return copy.deepcopy(message)
