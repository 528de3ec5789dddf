"""`miskatonic backup` and `miskatonic restore` (issue "Faults the table survives", item 5): a backup taken
while games are being played restores into a new file where every game reloads to the state it had when the
backup was taken, row for row."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.cli import main
from bot.service import GameService
from bot.store import Store
from engine import api
from engine.core.game import SeatSpec
from engine.core.prompt import Action
from tests.bot.conftest import ALICE, BOB, CAROL, GUILD, sqlite_url
from tests.bot.helpers import clicking, open_table

pytestmark = pytest.mark.faults

CHANNELS = (501, 502, 503)


def rows(path: Path) -> list[str]:
    """Every row of every table, as SQL text (what 'bit for bit' means for a database's content)."""
    with sqlite3.connect(path) as conn:
        return [line for line in conn.iterdump() if line.startswith("INSERT")]


async def take(service: GameService, channel: int) -> None:
    cards = await service.pending(channel)
    card = cards[0]
    actor = next(p for p in (ALICE, BOB, CAROL) if p.user_id in card.user_ids)
    await service.choose(channel, clicking(actor), card.prompt.seq, ["1"])


async def states(store: Store) -> dict[int, str | None]:
    """Each game's state as the bot reloads it (None in the lobby)."""
    service = GameService(store, render=False)
    found: dict[int, str | None] = {}
    for channel in CHANNELS:
        game = await store.current_game(channel)
        assert game is not None and game.id is not None
        found[game.id] = (None if game.status == "lobby"
                          else api.to_json(await service._restore(game.id, game.state_step)))
    return found


async def replayed(store: Store, game_id: int) -> str:
    """The game's state replayed from its seed and its action log."""
    game = await store.get_game(game_id)
    assert game is not None
    seats = await store.seats(game_id)
    state, _ = api.new_game(game.game_type, [SeatSpec(seat=s.seat, name=s.name, character=s.character)
                                             for s in seats], game.options, game.seed)
    for row in await store.actions(game_id):
        state, _ = api.apply(state, Action.model_validate(row.payload), in_place=True)
    return api.to_json(state)


def run(monkeypatch: pytest.MonkeyPatch, url: str, *argv: str) -> int:
    monkeypatch.setenv("DATABASE_URL", url)
    return main(list(argv))


async def test_a_backup_taken_mid_game_restores_every_game_to_its_state(
        sqlite_db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    store = Store(sqlite_db)  # the running bot's store: its connections stay open through the backup
    service = GameService(store, render=False)
    try:
        await open_table(service, ALICE, BOB, channel=CHANNELS[0])
        await open_table(service, BOB, CAROL, channel=CHANNELS[1], options={"start": "20"})
        await service.new_game(CHANNELS[2], GUILD, CAROL, "countdown", {}, seed=3)  # still in the lobby
        for n in range(5):
            await take(service, CHANNELS[n % 2])
        at_backup = await states(store)
        backup = tmp_path / "backup.db"
        assert run(monkeypatch, sqlite_db, "backup", str(backup)) == 0
        assert "3 games" in capsys.readouterr().out
        for n in range(3):  # play goes on after the backup
            await take(service, CHANNELS[n % 2])
        assert await states(store) != at_backup
    finally:
        await store.close()

    restored_url = sqlite_url(tmp_path / "restored" / "game.db")
    assert run(monkeypatch, restored_url, "restore", str(backup)) == 0
    assert rows(tmp_path / "restored" / "game.db") == rows(backup)
    restored = Store(restored_url)
    try:
        assert await states(restored) == at_backup
        for game_id, state in at_backup.items():
            if state is not None:
                assert await replayed(restored, game_id) == state
        service = GameService(restored, render=False)
        await take(service, CHANNELS[0])  # and play goes on from there
    finally:
        await restored.close()


async def test_restore_refuses_over_games_unless_forced_and_while_the_database_is_in_use(
        sqlite_db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    store = Store(sqlite_db)
    service = GameService(store, render=False)
    try:
        await open_table(service, ALICE, BOB, channel=CHANNELS[0])
        backup = tmp_path / "backup.db"
        assert run(monkeypatch, sqlite_db, "backup", str(backup)) == 0
        assert run(monkeypatch, sqlite_db, "backup", str(backup)) == 2  # never overwritten unasked
        assert "already exists" in capsys.readouterr().err
        assert run(monkeypatch, sqlite_db, "restore", str(backup), "--force") == 2  # the bot has it open
        assert "in use" in capsys.readouterr().err
    finally:
        await store.close()
    assert run(monkeypatch, sqlite_db, "restore", str(backup)) == 2
    assert "holds 1 game; restoring would replace it" in capsys.readouterr().err
    assert run(monkeypatch, sqlite_db, "restore", str(backup), "--force") == 0
    missing = tmp_path / "nowhere" / "none.db"
    assert run(monkeypatch, sqlite_url(missing), "backup", str(tmp_path / "b2.db")) == 2
    assert not missing.exists(), "a backup of a mistyped path created an empty database"
    not_ours = tmp_path / "other.db"
    sqlite3.connect(not_ours).execute("CREATE TABLE t (x)").connection.commit()
    assert run(monkeypatch, sqlite_url(tmp_path / "x.db"), "restore", str(not_ours)) == 2
    assert "not a Miskatonic database" in capsys.readouterr().err


@pytest.mark.postgres
def test_on_postgres_backup_names_pg_dump_and_checks_the_connection(
        pg_migrated: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(monkeypatch, pg_migrated, "backup", str(tmp_path / "dump")) == 0
    out = capsys.readouterr().out
    assert "pg_dump --format=custom" in out and "reachable" in out and "miskatonic:***@" in out
    unreachable = "postgresql+asyncpg://miskatonic:secret@127.0.0.1:1/none"
    assert run(monkeypatch, unreachable, "backup", str(tmp_path / "dump")) == 2
    err = capsys.readouterr().err
    assert "cannot be reached" in err and "secret" not in err
