"""Process configuration, read from the environment (and a `.env` file when one exists).

Every setting has a default that works on a developer's machine with no configuration at all, except the
Discord token, which only `miskatonic run` needs.
"""

from __future__ import annotations

import logging
import traceback
from collections.abc import Iterable
from pathlib import Path
from typing import Literal
from urllib.parse import quote, quote_plus

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict
from sqlalchemy.engine import make_url

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///./data/miskatonic.db"
MASK = "***"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    DISCORD_TOKEN: str | None = None
    DATABASE_URL: str = DEFAULT_DATABASE_URL
    LOG_LEVEL: str = "INFO"
    DEV_GUILD_ID: int | None = None  # slash commands sync instantly to one guild while developing
    SHARD_COUNT: int | None = None
    SHARD_IDS: list[int] | None = None  # "0,1" or "[0, 1]": the shards this process runs
    REMINDER_CHECK_SECONDS: int = 300
    # FULL: an acknowledged action survives a power loss (one more fsync per commit, see README "Measured").
    # NORMAL survives a killed process but may lose the last commits when the machine itself goes down.
    SQLITE_SYNCHRONOUS: Literal["FULL", "NORMAL", "EXTRA"] = "FULL"
    # How long a write waits for a lock held elsewhere (SQLite busy_timeout, PostgreSQL lock_timeout) before
    # the user is told "busy, try again"; PostgreSQL statements are also cut off after the statement timeout.
    DB_LOCK_TIMEOUT_MS: int = Field(default=5000, ge=1, le=60_000)
    DB_STATEMENT_TIMEOUT_MS: int = Field(default=30_000, ge=1, le=600_000)
    # The service keeps this many games in memory; finished games and games idle this long are dropped.
    GAME_CACHE_SIZE: int = Field(default=512, ge=1)
    GAME_CACHE_IDLE_SECONDS: int = Field(default=1800, ge=1)
    # Draw one board of each game in a worker thread after start-up, so that the first board after a restart
    # does not pay for the layouts (Eldritch's map lays its token slots out once: about 1.3 s).
    WARM_PICTURES: bool = True
    # Milliseconds between two AI teammate decisions for every server, instead of each server's /gm settings
    # (tests and local play set 0).
    AI_PACE_MS: int | None = Field(default=None, ge=0, le=10_000)

    @field_validator("SHARD_IDS", mode="before")
    @classmethod
    def _split_shard_ids(cls, value: object) -> object:
        # Allow the natural shell spelling SHARD_IDS=0,1 besides JSON.
        if isinstance(value, str) and not value.strip().startswith("["):
            return [int(part) for part in value.split(",") if part.strip()]
        return value

    @field_validator("DISCORD_TOKEN", mode="before")
    @classmethod
    def _empty_token_is_none(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value


def ensure_sqlite_dir(url: str) -> None:
    """Create the folder of a file SQLite database (e.g. ./data), which SQLite will not do itself."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return
    database = parsed.database
    if not database or database == ":memory:" or database.startswith("file:"):
        return
    Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)


# ---- credentials never reach a terminal or a log ---------------------------------------------------------

def mask_url(url: str) -> str:
    """The URL with its password replaced by ***; an unparsable URL is masked whole."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # whatever is wrong with it, none of it may be printed
        return MASK


def url_secrets(url: str) -> list[str]:
    """The password of a database URL in every spelling it may appear in (decoded and URL-encoded)."""
    try:
        password = make_url(url).password
    except Exception:  # an unparsable URL has no password we could find
        return []
    if not password:
        return []
    return list(dict.fromkeys([password, quote(password, safe=""), quote_plus(password)]))


def redact(text: str, secrets: Iterable[str]) -> str:
    for secret in sorted(secrets, key=len, reverse=True):
        if secret:
            text = text.replace(secret, MASK)
    return text


class RedactingFilter(logging.Filter):
    """Masks known secrets in every record a handler emits: our own lines, the libraries' (SQLAlchemy,
    asyncpg, Alembic, discord.py) and their tracebacks."""

    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__()
        self.secrets = [s for s in secrets if s]

    def filter(self, record: logging.LogRecord) -> bool:
        if not self.secrets:
            return True
        record.msg, record.args = redact(record.getMessage(), self.secrets), None
        if record.exc_info and not record.exc_text:
            record.exc_text = "".join(traceback.format_exception(*record.exc_info)).rstrip("\n")
        if record.exc_text:
            record.exc_text = redact(record.exc_text, self.secrets)
        if record.stack_info:
            record.stack_info = redact(record.stack_info, self.secrets)
        return True


def settings_secrets(settings: Settings) -> list[str]:
    return url_secrets(settings.DATABASE_URL) + ([settings.DISCORD_TOKEN] if settings.DISCORD_TOKEN else [])


def install_redaction(settings: Settings, logger: logging.Logger | None = None) -> None:
    """Add the redacting filter to every handler of `logger` (the root logger by default)."""
    target = logger or logging.getLogger()
    redacting = RedactingFilter(settings_secrets(settings))
    for handler in target.handlers:
        if not any(isinstance(f, RedactingFilter) for f in handler.filters):
            handler.addFilter(redacting)
