"""Alembic environment (async). The database URL comes from `config.attributes["database_url"]` (set by
bot.store.migrate), else from the settings (DATABASE_URL, or the default SQLite file)."""

from __future__ import annotations

import asyncio
from logging.config import fileConfig

from alembic import context
from sqlalchemy import pool
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine
from sqlmodel import SQLModel

import bot.store.models  # noqa: F401  (registers the tables on SQLModel.metadata)
from bot.settings import Settings, ensure_sqlite_dir
from bot.store.models import UTCDateTime

config = context.config
if config.config_file_name is not None and config.attributes.get("configure_logger", True):
    fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = SQLModel.metadata


def database_url() -> str:
    return config.attributes.get("database_url") or Settings().DATABASE_URL


def render_item(type_: str, obj: object, autogen_context: object) -> str | bool:
    # Our UTCDateTime only changes Python-side values; the column is a plain timezone-aware DateTime, and
    # writing it so keeps migrations free of imports from the application.
    if type_ == "type" and isinstance(obj, UTCDateTime):
        return "sa.DateTime(timezone=True)"
    return False


def _configure(**kwargs: object) -> None:
    context.configure(target_metadata=target_metadata, render_as_batch=True, compare_type=True,
                      render_item=render_item, **kwargs)


def run_migrations_offline() -> None:
    _configure(url=database_url(), literal_binds=True, dialect_opts={"paramstyle": "named"})
    with context.begin_transaction():
        context.run_migrations()


def do_run_migrations(connection: Connection) -> None:
    _configure(connection=connection)
    with context.begin_transaction():
        context.run_migrations()


async def run_async_migrations() -> None:
    url = database_url()
    ensure_sqlite_dir(url)
    engine = create_async_engine(url, poolclass=pool.NullPool)
    async with engine.connect() as connection:
        await connection.run_sync(do_run_migrations)
    await engine.dispose()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        # A caller that already has a (sync) connection shares it: no event loop needed here.
        do_run_migrations(connection)
    else:
        asyncio.run(run_async_migrations())


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
