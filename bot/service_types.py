"""The values GameService takes and returns. Front ends (Discord cogs, the console, tests) only see these."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.core.game import GameState
from engine.core.prompt import Prompt

if TYPE_CHECKING:
    from bot.service_sections import SectionChange
    from bot.store.models import SectionRecord


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
class TableView:
    """What the channel must show of one game (GameService.table): its sections with changes not shown yet
    and its latest section, oldest first, and the prompts pending now."""

    game_id: int
    channel_id: int
    game_type: str
    epoch: int  # the game's undo count (buttons carry it)
    sections: list[SectionRecord]
    prompts: list[PromptCard]
    names: dict[int, str]  # user id -> the name they play under
    state_line: str = ""  # the game at a glance (round, phase, whose turn, the clock), on its live message
    thinking: list[str] = field(default_factory=list)  # the AI teammates the game waits for, by name


@dataclass
class Reply:
    """What to show after a call. `public` goes to the channel, `ephemeral` only to the caller.

    Each string in `public`/`ephemeral` is one message (at most ~1900 characters). When `table` is set,
    the call changed that game's channel sections: `public`, `images` and `prompts` are then already part
    of them, and a front end that shows sections (Discord) shows those instead (`sections` says what each
    section gained, for a front end that prints).
    """

    public: list[str] = field(default_factory=list)
    ephemeral: list[str] = field(default_factory=list)
    images: list[Image] = field(default_factory=list)
    prompts: list[PromptCard] = field(default_factory=list)
    files: list[Image] = field(default_factory=list)  # attachments that are not pictures (an export)
    closed_game_id: int | None = None  # this call ended that game: its last prompt message loses its buttons
    applied: bool = False  # this call committed a change: a later failure must not say "nothing changed"
    table: int | None = None  # the game whose channel sections changed (or must be checked: `refresh`)
    sections: list[SectionChange] = field(default_factory=list)
    refresh: bool = False  # show the game's sections again even if nothing changed (a lost message comes back)
    narrated: bool = False  # `public`, `images` and `prompts` are the step's, already in the sections


@dataclass(frozen=True)
class CommandStep:
    """What a game's own command reads of the channel's game: the step's state and the prompts it waits for
    (computed once by the service), the user's seats, and the game id and undo count an answer carries."""

    state: GameState
    prompts: list[Prompt]
    seats: list[int]
    game_id: int
    epoch: int
