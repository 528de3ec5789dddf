"""The database tables (SQLModel). Alembic's initial revision was generated from these.

Conventions: Discord snowflakes are BigInteger (a plain int is a 32-bit INTEGER on PostgreSQL); JSON is JSONB
on PostgreSQL and JSON elsewhere; timestamps are aware UTC datetimes in Python on every database (see
`UTCDateTime`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, DateTime, Dialect, Index, Text, TypeDecorator, UniqueConstraint
from sqlalchemy import true as sa_true
from sqlalchemy.dialects.postgresql import JSONB
from sqlmodel import Field, SQLModel

JSON_TYPE = JSON().with_variant(JSONB(), "postgresql")


class UTCDateTime(TypeDecorator[datetime]):
    """TIMESTAMP WITH TIME ZONE that always hands back aware UTC datetimes.

    Why: SQLite stores no zone and returns naive values, while asyncpg reads a naive value as *local* time
    and returns aware ones. Normalising here means comparisons (reminders) behave the same on both.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        return None if value is None else as_utc(value)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        return None if value is None else as_utc(value)


def as_utc(value: datetime) -> datetime:
    """Aware UTC; a naive datetime is taken to be UTC already."""
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)

# Game.status values. "over" = the rules ended it (win/loss); "ended" = people ended it (moderator, abandon).
LOBBY, ACTIVE, OVER, ENDED = "lobby", "active", "over", "ended"


def utcnow() -> datetime:
    return datetime.now(UTC)


# The rows' default factories are Python functions, not the builtins `list` and `dict`: pydantic reads a
# factory's signature each time it builds a row, and a builtin's costs about thirty times more (a new
# section took 3 ms, most of a click's own time).
def empty_list() -> list[Any]:
    return []


def empty_dict() -> dict[str, Any]:
    return {}


class Campaign(SQLModel, table=True):
    __tablename__ = "campaign"

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(sa_type=BigInteger, index=True)
    channel_id: int = Field(sa_type=BigInteger, index=True)
    game_type: str
    name: str
    data: dict[str, Any] = Field(default_factory=empty_dict, sa_type=JSON_TYPE)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    closed_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    # = channel_id while the campaign is open, NULL once closed: as Game.active_channel_id, the UNIQUE constraint
    # is how the database itself keeps one open campaign per channel.
    open_channel_id: int | None = Field(default=None, sa_type=BigInteger, unique=True, nullable=True)
    # Optimistic lock, as Game.version: every change of `data` is UPDATE ... WHERE version = <what we read>.
    version: int = Field(default=0, sa_column_kwargs={"server_default": "0"})


class Game(SQLModel, table=True):
    __tablename__ = "game"

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(sa_type=BigInteger, index=True)
    channel_id: int = Field(sa_type=BigInteger, index=True)
    game_type: str
    status: str = LOBBY
    # = channel_id while the game is open (lobby/active), NULL afterwards. The UNIQUE constraint is how
    # the database itself guarantees one open game per channel, on SQLite and PostgreSQL alike (NULLs never
    # clash).
    active_channel_id: int | None = Field(default=None, sa_type=BigInteger, unique=True, nullable=True)
    seed: int = Field(sa_type=BigInteger)
    options: dict[str, Any] = Field(default_factory=empty_dict, sa_type=JSON_TYPE)
    content_version: str = ""
    version: int = 0  # optimistic lock: every change is UPDATE ... WHERE version = <what we read>
    state_step: int = 0
    result: str | None = None
    created_by: int = Field(sa_type=BigInteger)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    updated_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    started_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    ended_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    campaign_id: int | None = Field(default=None, foreign_key="campaign.id", nullable=True)
    prompt_message_id: int | None = Field(default=None, sa_type=BigInteger, nullable=True)
    prompt_seq: int | None = None
    waiting_since: datetime | None = Field(default=None, sa_type=UTCDateTime)
    reminded_seq: int | None = None
    abandon_votes: list[int] = Field(default_factory=empty_list, sa_type=JSON_TYPE)  # user ids asking to abandon
    # How many times a moderator undid moves. Buttons carry it, so a button posted before an undo can never
    # answer a prompt that reuses its number afterwards.
    undo_epoch: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    # The state at `state_step` (engine.api.to_json, hidden information included: never shown), once started.
    # Written by the UPDATE that bumps `version`, so a step needs no snapshot row of its own; the snapshot
    # table holds the kept states that undo replays from.
    head: str | None = Field(default=None, sa_type=Text)


class Seat(SQLModel, table=True):
    __tablename__ = "seat"
    __table_args__ = (UniqueConstraint("game_id", "seat", name="uq_seat_game_seat"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    seat: int
    user_id: int = Field(sa_type=BigInteger, index=True)
    name: str
    character: str | None = None


class ActionRow(SQLModel, table=True):
    """One engine action (an answer to a prompt), in order. The log is the source of truth."""

    __tablename__ = "action"
    __table_args__ = (UniqueConstraint("game_id", "seq", name="uq_action_game_seq"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    seq: int
    actor_id: int = Field(sa_type=BigInteger)
    seat: int | None = None
    kind: str = "play"  # "play" (a player answered) | "gm" (a moderator answered for them)
    payload: dict[str, Any] = Field(default_factory=empty_dict, sa_type=JSON_TYPE)
    # The Discord interaction that caused it; UNIQUE so a replayed interaction can never apply twice.
    interaction_id: int | None = Field(default=None, sa_type=BigInteger, unique=True, nullable=True)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


class Snapshot(SQLModel, table=True):
    """A game's full state at one kept step (the start, phase ends, every N steps) that undo replays forward
    from. The latest state is the game row's `head` (so loading never replays); `keep` is false only in rows
    written before the head moved there (revision 0007 removed those)."""

    __tablename__ = "snapshot"
    __table_args__ = (UniqueConstraint("game_id", "step", name="uq_snapshot_game_step"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    step: int
    state: str = Field(sa_type=Text)  # engine.api.to_json: includes hidden information, never shown
    keep: bool = Field(default=True, sa_column_kwargs={"server_default": sa_true()})
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


class GameEvent(SQLModel, table=True):
    """The narrated log behind `/game log`."""

    __tablename__ = "game_event"
    __table_args__ = (Index("ix_game_event_game_step", "game_id", "step", "idx"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id")
    step: int
    idx: int
    kind: str
    text: str = Field(sa_type=Text)
    seat: int | None = None
    private_to: int | None = None  # only this seat may read it
    cause: str = ""


class GuildSettings(SQLModel, table=True):
    __tablename__ = "guild_settings"

    guild_id: int = Field(sa_type=BigInteger, primary_key=True, sa_column_kwargs={"autoincrement": False})
    mod_role_id: int | None = Field(default=None, sa_type=BigInteger, nullable=True)
    enabled_games: list[str] = Field(default_factory=empty_list, sa_type=JSON_TYPE)  # empty = every game
    reminder_hours: int = 12  # 0 = no reminders
    # Milliseconds between two decisions of an AI teammate, so the channel stays readable (0 = at once).
    ai_pace_ms: int = Field(default=1000, sa_column_kwargs={"server_default": "1000"})


class AuditLog(SQLModel, table=True):
    __tablename__ = "audit_log"

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(sa_type=BigInteger, index=True)
    channel_id: int = Field(sa_type=BigInteger)
    moderator_id: int = Field(sa_type=BigInteger)
    command: str
    detail: dict[str, Any] = Field(default_factory=empty_dict, sa_type=JSON_TYPE)
    game_id: int | None = Field(default=None, foreign_key="game.id", nullable=True)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


class Section(SQLModel, table=True):
    """One turn (or phase) as the channel shows it: one living message that grows as the section resolves
    (narration, the current dice picture, the pending prompt's controls) and is frozen when it ends, when the
    board picture joins it (`bot/turns.py`).

    The service writes what the section holds in the same transaction as the step (so a crash loses nothing
    a player was told); the Discord front end writes only which messages show it (`shown_rev`, the message
    ids). `rev` grows with every change; a section with `shown_rev < rev` has something left to show.
    """

    __tablename__ = "section"
    __table_args__ = (UniqueConstraint("game_id", "number", name="uq_section_game_number"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    number: int  # 1, 2, ... in the game
    # The service's columns.
    lines: list[dict[str, Any]] = Field(default_factory=empty_list, sa_type=JSON_TYPE)  # {"step", "text", "undone"?}
    marked: bool = False  # begun by a turn/phase start event (else it ends at the first render event)
    closed: bool = False
    board: bool = False  # the board picture joins its message when it ends
    end_step: int | None = None  # the step at which it ended (the board shows the table then)
    image: dict[str, Any] | None = Field(default=None, sa_type=JSON_TYPE)  # the latest event picture
    awaited: list[int] = Field(default_factory=empty_list, sa_type=JSON_TYPE)  # users the game waits for
    pings: list[list[int]] = Field(default_factory=empty_list, sa_type=JSON_TYPE)  # [user id, rev]: to mention
    rev: int = 0
    # The front end's columns.
    shown_rev: int = 0
    message_ids: list[int] = Field(default_factory=empty_list, sa_type=JSON_TYPE)  # its messages, in order
    # the message that shows its board (its last message; 0: none could be drawn)
    board_message_id: int | None = Field(default=None, sa_type=BigInteger, nullable=True)
    ping_messages: list[list[Any]] = Field(default_factory=empty_list, sa_type=JSON_TYPE)  # [message id, [user ids]]
    # line indexes where a message after the first begins because the awaited player changed: the new message
    # carries the mention (bot/turns.py), so nothing is posted only to ping and then deleted
    page_starts: list[int] = Field(default_factory=empty_list, sa_type=JSON_TYPE)


class ProcessedInteraction(SQLModel, table=True):
    """A Discord interaction that changed something, written in the same transaction as the change: a
    repeated interaction id finds its row and is a no-op, whatever the command. Rows older than Discord
    could ever redeliver are pruned."""

    __tablename__ = "processed_interaction"

    interaction_id: int = Field(sa_type=BigInteger, primary_key=True, sa_column_kwargs={"autoincrement": False})
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, index=True)


@dataclass(slots=True)
class SectionRecord:
    """A section as the bot works with it (the store reads and writes `Section` rows as these): a plain record,
    because building a table model instance costs more than all the rest of a click's section work (each field
    set goes through the ORM's instrumentation). Its fields are `Section`'s columns (a test holds them equal)."""

    game_id: int
    number: int
    lines: list[dict[str, Any]] = field(default_factory=list)
    marked: bool = False
    closed: bool = False
    board: bool = False
    end_step: int | None = None
    image: dict[str, Any] | None = None
    awaited: list[int] = field(default_factory=list)
    pings: list[list[int]] = field(default_factory=list)
    rev: int = 0
    shown_rev: int = 0
    message_ids: list[int] = field(default_factory=list)
    board_message_id: int | None = None
    ping_messages: list[list[Any]] = field(default_factory=list)
    page_starts: list[int] = field(default_factory=list)
    id: int | None = None

    def copy(self) -> SectionRecord:
        """A copy to change: the service only ever assigns a section's fields, never changes a list in place,
        so the lists may be shared."""
        return replace(self)


@dataclass(slots=True)
class ActionRecord:
    """An action to log (an `ActionRow` to insert), as a plain record for the same reason as `SectionRecord`.
    `Store.commit_step` numbers it (`seq`) and stamps it (`created_at`) inside the step's transaction."""

    game_id: int
    actor_id: int
    payload: dict[str, Any]
    seat: int | None = None
    kind: str = "play"
    interaction_id: int | None = None
    seq: int = 0
    created_at: datetime | None = None
