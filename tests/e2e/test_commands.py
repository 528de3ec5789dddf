"""The command surface as Discord receives it at sync, and reminders."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.bot import sync_commands
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.harness import RunningBot, Table, bot_settings, open_table

pytestmark = pytest.mark.e2e


def _walk(node: dict, path: str) -> list[tuple[str, str]]:
    out = [(path, node.get("description", ""))]
    for option in node.get("options", []):
        out += _walk(option, f"{path} {option['name']}")
    return out


async def test_every_command_and_parameter_has_help(fake: FakeDiscord, table: Table) -> None:
    catalog = fake.catalog.global_commands
    assert {"game", "gm"} <= set(catalog)
    game = {o["name"] for o in catalog["game"]["options"]}
    assert game == {"new", "join", "leave", "start", "status", "board", "log", "me", "abandon", "history", "why"}
    gm = {o["name"] for o in catalog["gm"]["options"]}
    assert gm == {"end", "undo", "kick", "replace", "skip", "settings", "export", "audit"}
    for name, command in catalog.items():
        for path, description in _walk(command, name):
            assert description and description != "…", f"/{path} has no help text"
        assert command.get("contexts") in (None, [0]), "guild-only commands"


async def test_reminder_pings_the_awaited_player_once(fake: FakeDiscord, table: Table,
                                                      running: RunningBot) -> None:
    first = await open_table(table, [fake.alice, fake.bob])
    await table.command("gm settings", fake.morgan, reminder_hours=1)
    reminders = running.bot.reminders
    assert reminders is not None
    later = datetime.now(UTC) + timedelta(hours=2)
    assert await reminders.run_once(later) == 1
    ping = await fake.expect_channel_message(table.channel, lambda m: "Reminder" in m.content)
    assert ping.mentions == [fake.alice.id]
    assert ping.buttons(), "the reminder repeats the prompt's buttons"
    assert ping.reference == first.id, "in reply to the turn's message"
    assert await reminders.run_once(later + timedelta(hours=5)) == 0, "at most one reminder per prompt"
    await table.outcome(await table.choose(ping, "Take 2"))  # answered from the reminder
    await fake.wait_until(lambda: fake.messages[ping.id].deleted, "the answered reminder removed")
    assert not fake.messages[first.id].components and "takes 2" in fake.messages[first.id].text()
    assert table.awaited(await table.current_prompt()) == [fake.bob]


async def test_sync_commands_globally_and_to_a_dev_guild(fake: FakeDiscord, database_url: str) -> None:
    settings = bot_settings(fake, database_url)
    names = await sync_commands(settings)
    assert {"game", "gm"} <= set(names) and set(fake.catalog.global_commands) == set(names)
    guild = fake.guild("Dunwich")
    assert set(await sync_commands(settings, guild_id=guild.id)) == set(names)
    assert set(fake.catalog.guild_commands[guild.id]) == set(names)
