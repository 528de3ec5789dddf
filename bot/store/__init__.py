"""Persistence: SQLModel tables, the async `Store` repository, and migrations."""

from bot.store.errors import (
    ChannelBusy,
    DuplicateInteraction,
    StoreBusy,
    StoreError,
    StoreUnavailable,
    VersionConflict,
)
from bot.store.models import (
    ACTIVE,
    ENDED,
    LOBBY,
    OVER,
    ActionRecord,
    ActionRow,
    AuditLog,
    Campaign,
    Game,
    GameEvent,
    GuildSettings,
    ProcessedInteraction,
    Seat,
    Section,
    SectionRecord,
    Snapshot,
)
from bot.store.repo import KEEP, Store

__all__ = [
    "ACTIVE", "ENDED", "KEEP", "LOBBY", "OVER", "ActionRecord", "ActionRow", "AuditLog", "Campaign", "ChannelBusy",
    "DuplicateInteraction", "Game", "GameEvent", "GuildSettings", "ProcessedInteraction", "Seat", "Section",
    "SectionRecord", "Snapshot",
    "Store", "StoreBusy", "StoreError", "StoreUnavailable", "VersionConflict",
]
