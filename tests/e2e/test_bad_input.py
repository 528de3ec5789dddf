"""Wrong moves get one clear private sentence and change nothing; a bug gets an apology with a reference."""

from __future__ import annotations

import pytest

from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.harness import RunningBot, Table, open_table

pytestmark = pytest.mark.e2e


async def test_no_game_in_channel(fake: FakeDiscord, table: Table) -> None:
    for path in ("game status", "game join", "game start", "game board", "game me", "game leave"):
        text = await table.refused(path, fake.alice)
        assert "no game" in text.lower(), (path, text)


async def test_unknown_game_and_bad_options(fake: FakeDiscord, table: Table) -> None:
    text = await table.refused("game new", fake.alice, game="chess")
    assert "chess" in text
    text = await table.refused("game new", fake.alice, game="countdown", options="start=99")
    assert "start" in text and "30" in text
    text = await table.refused("game new", fake.alice, game="countdown", options="start")
    assert "key=value" in text
    assert "no game" in (await table.refused("game status", fake.alice)).lower()


async def test_lobby_mistakes(fake: FakeDiscord, table: Table) -> None:
    await table.command("game new", fake.alice, game="countdown-duo")
    text = await table.refused("game start", fake.alice)  # one player; the game needs two
    assert "2 to 4" in text and "1 is seated" in text
    text = await table.refused("game start", fake.bob)  # not seated
    assert "join" in text.lower()
    await table.command("game join", fake.bob)
    await table.command("game start", fake.alice)
    before = (await table.command("game status", fake.bob)).text()
    text = await table.refused("game join", fake.bob)  # too late
    assert "started" in text.lower() or "already" in text.lower()
    text = await table.refused("game new", fake.bob, game="countdown")  # the channel is taken
    assert "already" in text.lower()
    text = await table.refused("game leave", fake.bob)  # no leaving once started
    assert "started" in text.lower()
    assert (await table.command("game status", fake.bob)).text() == before


async def test_unexpected_error_gets_a_reference(fake: FakeDiscord, table: Table, running: RunningBot,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("database on fire")

    monkeypatch.setattr(running.bot.service, "status", broken)
    ix = await fake.slash("game status", user=fake.alice, channel=table.channel)
    msg = await fake.reply(ix)
    assert msg.ephemeral and msg.content == f"Something went wrong; nothing was changed (ref {ix.id})."


async def test_unexpected_error_in_a_button(fake: FakeDiscord, table: Table, running: RunningBot,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    prompt = await open_table(table, [fake.alice])

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("render farm unplugged")

    monkeypatch.setattr(running.bot.service, "choose", broken)
    click = await table.choose(prompt, "Take 1")
    msg = await fake.expect_followup(click)
    assert msg.ephemeral and msg.content == f"Something went wrong; nothing was changed (ref {click.id})."
    assert fake.messages[prompt.id].components != []  # nothing changed: the prompt is still live
