"""Process configuration, read from the environment (and a `.env` file when one exists).

Every setting has a default that works on a developer's machine with no configuration at all, except the
Discord token, which only `miskatonic run` needs.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict
from sqlalchemy.engine import make_url

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///./data/miskatonic.db"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    DISCORD_TOKEN: str | None = None
    DATABASE_URL: str = DEFAULT_DATABASE_URL
    LOG_LEVEL: str = "INFO"
    DEV_GUILD_ID: int | None = None  # slash commands sync instantly to one guild while developing
    SHARD_COUNT: int | None = None
    SHARD_IDS: list[int] | None = None  # "0,1" or "[0, 1]": the shards this process runs
    REMINDER_CHECK_SECONDS: int = 300

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
