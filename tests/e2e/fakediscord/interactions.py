"""Interactions: what a user's Discord client would send, built from the commands the bot synced, and a
handle that collects everything the bot answered to each one.

Payloads are built from the command JSON the bot registered (`PUT /applications/{app}/commands`), not from
the bot's Python objects, so a test drives the bot exactly as Discord would: an option the bot did not
declare, a value outside a declared range or a missing required option cannot be sent (the fake raises
`ClientRefused`, as a real client would refuse to send it).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from tests.e2e.fakediscord.messages import FakeFile, FakeMessage
from tests.e2e.fakediscord.world import FakeChannel, FakeGuild, FakeRole, FakeUser

COMMAND, COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 2, 3, 4, 5
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 8, 9, 10

# Callback types (https://discord.com/developers/docs/interactions/receiving-and-responding)
MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, AUTOCOMPLETE_RESULT, MODAL = 4, 5, 6, 7, 8, 9
ALLOWED_CALLBACKS = {
    COMMAND: {MESSAGE, DEFERRED_MESSAGE, MODAL},
    COMPONENT: {MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, MODAL},
    AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
    MODAL_SUBMIT: {MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE},
}


class ClientRefused(Exception):
    """A Discord client would not let the user send this (unknown option, bad value, hidden command…)."""


@dataclass
class Callback:
    """The bot's initial response to an interaction."""

    type: int
    data: dict[str, Any]
    files: list[FakeFile]
    at: float

    @property
    def content(self) -> str:
        return self.data.get("content") or ""

    @property
    def ephemeral(self) -> bool:
        return bool(int(self.data.get("flags") or 0) & 64)

    @property
    def choices(self) -> list[dict[str, Any]]:
        """Autocomplete results."""
        return self.data.get("choices", [])


@dataclass
class FakeInteraction:
    """One interaction sent to the bot, and everything the bot answered to it."""

    id: int
    token: str
    type: int
    user: FakeUser
    guild_id: int
    channel_id: int
    payload: dict[str, Any]
    message: FakeMessage | None = None  # the message a component belongs to
    dispatched_at: float = field(default_factory=time.monotonic)
    callback: Callback | None = None
    original: FakeMessage | None = None  # the message the callback created (types 4 and 5)
    followups: list[FakeMessage] = field(default_factory=list)
    modal: dict[str, Any] | None = None  # the modal the bot opened (callback type 9)
    awaiting_first_followup: bool = False  # after a deferred message, the first followup fills the original
    followups_taken: int = 0

    @property
    def latency(self) -> float | None:
        """Seconds from dispatch to the first callback."""
        return None if self.callback is None else self.callback.at - self.dispatched_at


class CommandCatalog:
    """The commands the bot synced, and payload builders for invoking them."""

    def __init__(self) -> None:
        self.global_commands: dict[str, dict[str, Any]] = {}
        self.guild_commands: dict[int, dict[str, dict[str, Any]]] = {}

    def find(self, name: str, guild_id: int) -> dict[str, Any]:
        cmd = self.guild_commands.get(guild_id, {}).get(name) or self.global_commands.get(name)
        if cmd is None:
            known = sorted(set(self.global_commands) | set(self.guild_commands.get(guild_id, {})))
            raise ClientRefused(f"no command /{name} is registered (synced: {known})")
        return cmd

    def resolve_path(self, path: str, guild_id: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """('game new') -> (the top-level command, [the subcommand group?, the subcommand] declarations)."""
        words = path.split()
        top = self.find(words[0], guild_id)
        chain: list[dict[str, Any]] = []
        node = top
        for word in words[1:]:
            subs = [o for o in node.get("options", []) if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)]
            match = [o for o in subs if o["name"] == word]
            if not match:
                raise ClientRefused(f"/{path}: no subcommand {word!r} (have {[o['name'] for o in subs]})")
            node = match[0]
            chain.append(node)
        if any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in node.get("options", [])):
            raise ClientRefused(f"/{path} is a group; name a subcommand")
        return top, chain

    def leaf(self, path: str, guild_id: int) -> dict[str, Any]:
        top, chain = self.resolve_path(path, guild_id)
        return chain[-1] if chain else top


def build_options(leaf: dict[str, Any], values: dict[str, Any], guild: FakeGuild, users: dict[int, FakeUser],
                  focused: str | None = None) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The option list and `resolved` data for invoking `leaf` with `values`, validated as a client would."""
    declared = {o["name"]: o for o in leaf.get("options", [])}
    unknown = [k for k in values if k not in declared]
    if unknown:
        raise ClientRefused(f"option {unknown[0]!r} is not declared (have {sorted(declared)})")
    if focused is None:
        missing = [n for n, o in declared.items() if o.get("required") and n not in values]
        if missing:
            raise ClientRefused(f"required option {missing[0]!r} is missing")
    out: list[dict[str, Any]] = []
    resolved: dict[str, Any] = {}
    for name, value in values.items():
        decl = declared[name]
        opt: dict[str, Any] = {"name": name, "type": decl["type"]}
        if name == focused:
            # Autocomplete sends whatever has been typed so far, unvalidated.
            opt["value"] = str(value)
            opt["focused"] = True
            out.append(opt)
            continue
        opt["value"] = _convert(decl, value, guild, users, resolved)
        out.append(opt)
    return out, resolved


def _convert(decl: dict[str, Any], value: Any, guild: FakeGuild, users: dict[int, FakeUser],
             resolved: dict[str, Any]) -> Any:
    kind, name = decl["type"], decl["name"]
    if kind == STRING:
        text = str(value)
        if not decl.get("min_length", 0) <= len(text) <= decl.get("max_length", 6000):
            raise ClientRefused(f"option {name!r}: length {len(text)} outside the declared bounds")
        _check_choices(decl, text)
        return text
    if kind in (INTEGER, NUMBER):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ClientRefused(f"option {name!r} takes a number, got {value!r}")
        number = int(value) if kind == INTEGER else float(value)
        lo, hi = decl.get("min_value"), decl.get("max_value")
        if (lo is not None and number < lo) or (hi is not None and number > hi):
            raise ClientRefused(f"option {name!r}: {number} outside [{lo}, {hi}]")
        _check_choices(decl, number)
        return number
    if kind == BOOLEAN:
        return bool(value)
    if kind in (USER, MENTIONABLE) and isinstance(value, FakeUser):
        resolved.setdefault("users", {})[str(value.id)] = value.payload()
        if value.id in guild.members:
            member = guild.member_payload(value, with_user=False, with_permissions=True)
            resolved.setdefault("members", {})[str(value.id)] = member
        return str(value.id)
    if kind in (ROLE, MENTIONABLE) and isinstance(value, FakeRole):
        resolved.setdefault("roles", {})[str(value.id)] = value.payload()
        return str(value.id)
    if kind == CHANNEL and isinstance(value, FakeChannel):
        ch = value.payload() | {"permissions": str(guild.everyone.permissions)}
        resolved.setdefault("channels", {})[str(value.id)] = ch
        return str(value.id)
    raise ClientRefused(f"option {name!r} (type {kind}) cannot take {value!r}")


def _check_choices(decl: dict[str, Any], value: Any) -> None:
    choices = decl.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        raise ClientRefused(f"option {decl['name']!r}: {value!r} is not one of its choices")


def nest(chain: list[dict[str, Any]], options: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Wrap leaf options in their subcommand (and group) the way Discord nests them."""
    for node in reversed(chain):
        options = [{"name": node["name"], "type": node["type"], "options": options}]
    return options
