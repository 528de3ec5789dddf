from tests.bot.conftest import migrated_template, sqlite_db, sqlite_store  # noqa: F401
