"""Messages the bot creates in the fake Discord, and the limits Discord enforces on them.

Discord answers a message body that breaks a limit with 400 "Invalid Form Body" (code 50035); the fake does
the same and records a failure, so a bot that would be refused in production fails its tests here.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from tests.e2e.fakediscord.world import FakeUser

EPHEMERAL = 1 << 6
LOADING = 1 << 7

BUTTON, SELECT, TEXT_INPUT, ACTION_ROW = 2, 3, 4, 1
SELECT_TYPES = (3, 5, 6, 7, 8)


@dataclass
class FakeFile:
    """A file the bot uploaded (multipart `files[n]`)."""

    filename: str
    data: bytes
    id: int = 0
    content_type: str = "application/octet-stream"

    def attachment_payload(self, base_url: str, channel_id: int) -> dict[str, Any]:
        url = f"{base_url}/attachments/{channel_id}/{self.id}/{self.filename}"
        return {"id": str(self.id), "filename": self.filename, "size": len(self.data), "url": url,
                "proxy_url": url, "content_type": self.content_type, "ephemeral": False, "flags": 0}


@dataclass
class FakeMessage:
    id: int
    channel_id: int
    guild_id: int
    author: FakeUser
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    files: list[FakeFile] = field(default_factory=list)
    flags: int = 0
    webhook_id: int | None = None
    interaction_id: int | None = None  # the interaction this message answers, if any
    visible_to: int | None = None  # ephemeral messages: the only user who sees them
    mentions: list[int] = field(default_factory=list)  # users its content mentions, as allowed to ping
    pinged: list[int] = field(default_factory=list)  # users notified: those mentioned when it was posted
    reference: int | None = None  # the message this one replies to
    edits: int = 0
    deleted: bool = False
    created_at: float = field(default_factory=time.monotonic)
    updated_at: float = field(default_factory=time.monotonic)  # last creation, fill or edit
    timestamp: str = "2024-01-01T00:00:00.000000+00:00"

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def filenames(self) -> list[str]:
        return [f.filename for f in self.files]

    @property
    def images(self) -> list[FakeFile]:
        """Attached PNG pictures."""
        return [f for f in self.files if f.data.startswith(b"\x89PNG")]

    @property
    def boards(self) -> list[FakeFile]:
        """Pictures an embed shows with no words of its own: the board that joins a section's message when the
        section ends (the dice picture shares the narration's embed)."""
        out: list[FakeFile] = []
        for e in self.embeds:
            url = str((e.get("image") or {}).get("url", ""))
            if url.startswith("attachment://") and not e.get("description") and not e.get("title"):
                out += [f for f in self.images if f.filename == url.removeprefix("attachment://")]
        return out

    def file(self, filename: str) -> FakeFile:
        for f in self.files:
            if f.filename == filename:
                return f
        raise KeyError(f"message {self.id} has no file {filename}; it has {self.filenames}")

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in iter_components(self.components) if "custom_id" in c]

    def component(self, custom_id: str) -> dict[str, Any] | None:
        for c in iter_components(self.components):
            if c.get("custom_id") == custom_id:
                return c
        return None

    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in iter_components(self.components) if c.get("type") == BUTTON]

    def button(self, label: str) -> dict[str, Any]:
        """The button with this label (tests click by what a player reads)."""
        found = [b for b in self.buttons() if b.get("label") == label]
        if len(found) != 1:
            labels = [b.get("label") for b in self.buttons()]
            raise AssertionError(f"expected one button labelled {label!r} on message {self.id}; have {labels}")
        return found[0]

    def selects(self) -> list[dict[str, Any]]:
        return [c for c in iter_components(self.components) if c.get("type") in SELECT_TYPES]

    def text(self) -> str:
        """Content plus embed titles, descriptions and fields: everything a reader sees as words."""
        parts = [self.content]
        for e in self.embeds:
            parts += [e.get("title", ""), e.get("description", "")]
            for f in e.get("fields", []):
                parts += [f.get("name", ""), f.get("value", "")]
            if "footer" in e:
                parts.append(e["footer"].get("text", ""))
        return "\n".join(p for p in parts if p)

    def payload(self, base_url: str, application_id: int) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": str(self.id), "channel_id": str(self.channel_id), "guild_id": str(self.guild_id),
            "author": self.author.payload(), "content": self.content, "timestamp": self.timestamp,
            "edited_timestamp": self.timestamp if self.edits else None, "tts": False,
            "mention_everyone": False, "mentions": [], "mention_roles": [], "mention_channels": [],
            "attachments": [f.attachment_payload(base_url, self.channel_id) for f in self.files],
            "embeds": self.embeds, "reactions": [], "pinned": False, "type": 0 if self.interaction_id is None else 20,
            "flags": self.flags, "components": self.components, "application_id": str(application_id),
            "position": 0,
        }
        if self.webhook_id is not None:
            out["webhook_id"] = str(self.webhook_id)
        return out


def iter_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every component, depth first (action rows and their children)."""
    out: list[dict[str, Any]] = []
    for c in components:
        out.append(c)
        out.extend(iter_components(c.get("components", [])))
    return out


def message_problems(body: dict[str, Any]) -> list[str]:
    """What Discord would refuse in a message body (content, embeds, components, allowed mentions)."""
    problems: list[str] = []
    content = body.get("content")
    if content is not None and len(content) > 2000:
        problems.append(f"content is {len(content)} characters (max 2000)")
    embeds = body.get("embeds") or []
    if len(embeds) > 10:
        problems.append(f"{len(embeds)} embeds (max 10)")
    total = 0
    for e in embeds:
        for key, limit in (("title", 256), ("description", 4096)):
            text = e.get(key) or ""
            total += len(text)
            if len(text) > limit:
                problems.append(f"embed {key} is {len(text)} characters (max {limit})")
        fields = e.get("fields") or []
        if len(fields) > 25:
            problems.append(f"{len(fields)} embed fields (max 25)")
        for f in fields:
            total += len(f.get("name", "")) + len(f.get("value", ""))
            if not f.get("name") or not f.get("value"):
                problems.append("an embed field has an empty name or value")
            if len(f.get("name", "")) > 256 or len(f.get("value", "")) > 1024:
                problems.append("an embed field is too long")
    if total > 6000:
        problems.append(f"embeds total {total} characters (max 6000)")
    problems += component_problems(body.get("components") or [])
    return problems


def component_problems(rows: list[dict[str, Any]]) -> list[str]:
    problems: list[str] = []
    if len(rows) > 5:
        problems.append(f"{len(rows)} action rows (max 5)")
    seen: set[str] = set()
    for row in rows:
        if row.get("type") != ACTION_ROW:
            problems.append(f"top-level component of type {row.get('type')} is not an action row")
            continue
        children = row.get("components") or []
        if not children:
            problems.append("an empty action row")
        kinds = {c.get("type") for c in children}
        if kinds & set(SELECT_TYPES) and len(children) > 1:
            problems.append("a select menu must be alone in its action row")
        if len(children) > 5:
            problems.append(f"{len(children)} components in one action row (max 5)")
        for c in children:
            cid = c.get("custom_id")
            if cid is not None:
                if len(cid) > 100:
                    problems.append(f"custom_id {cid!r} is longer than 100 characters")
                if cid in seen:
                    problems.append(f"duplicate custom_id {cid!r}")
                seen.add(cid)
            if c.get("type") == BUTTON:
                if c.get("style") != 5 and cid is None:
                    problems.append("a button without a custom_id")
                if len(c.get("label") or "") > 80:
                    problems.append(f"button label {c.get('label')!r} is longer than 80 characters")
                if not c.get("label") and not c.get("emoji"):
                    problems.append("a button with neither label nor emoji")
            elif c.get("type") == SELECT:
                options = c.get("options") or []
                if not 1 <= len(options) <= 25:
                    problems.append(f"a select menu with {len(options)} options (1 to 25)")
                lo, hi = c.get("min_values", 1), c.get("max_values", 1)
                if not (0 <= lo <= hi <= 25 and hi <= max(1, len(options))):
                    problems.append(f"select min_values={lo} max_values={hi} with {len(options)} options")
                values = [o.get("value") for o in options]
                if len(set(values)) != len(values):
                    problems.append("duplicate select option values")
                for o in options:
                    if not 1 <= len(o.get("label") or "") <= 100 or not 1 <= len(o.get("value") or "") <= 100:
                        problems.append(f"select option {o!r}: label and value must be 1 to 100 characters")
                    if len(o.get("description") or "") > 100:
                        problems.append("a select option description is longer than 100 characters")
                if len(c.get("placeholder") or "") > 150:
                    problems.append("select placeholder longer than 150 characters")
    return problems
