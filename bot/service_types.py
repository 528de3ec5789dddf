"""The values GameService takes and returns. Front ends (Discord cogs, the console, tests) only see these."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.core.prompt import Prompt


class UserError(Exception):
    """A sentence for the user, shown only to them. Raised before anything changed."""


class AppliedButFailed(Exception):
    """The command's change was committed, then something failed (a reply or a picture could not be made).
    The user must hear that their action counted; the cause is chained (`__cause__`) for the log."""


@dataclass
class Actor:
    user_id: int
    name: str  # display name; becomes the seat's name at /game join
    is_moderator: bool = False  # the front end decides (Manage Channels or the guild's moderator role)
    interaction_id: int | None = None  # Discord interaction id: a replayed interaction is applied once


@dataclass
class Image:
    filename: str
    data: bytes


@dataclass
class PromptCard:
    """A pending engine Prompt, ready for any front end to show as buttons or a select menu."""

    game_id: int
    prompt: Prompt
    user_ids: list[int]  # who is asked (a user holding several asked seats appears once)
    text: str  # who we wait for, and why
    epoch: int = 0  # the game's undo count when the card was made (buttons carry it)


@dataclass
class Reply:
    """What to show after a call. `public` goes to the channel, `ephemeral` only to the caller.

    Each string in `public`/`ephemeral` is one message (at most ~1900 characters).
    """

    public: list[str] = field(default_factory=list)
    ephemeral: list[str] = field(default_factory=list)
    images: list[Image] = field(default_factory=list)
    prompts: list[PromptCard] = field(default_factory=list)
    files: list[Image] = field(default_factory=list)  # attachments that are not pictures (an export)
    closed_game_id: int | None = None  # this call ended that game: its last prompt message loses its buttons
    applied: bool = False  # this call committed a change: a later failure must not say "nothing changed"
