"""/rules, /card (with autocomplete), /help, /game history and /stats through the fake Discord (issue 16): each
answers privately, what Discord receives at sync describes every option, and a refusal says how to do it
right."""

from __future__ import annotations

import pytest

from bot.replies import CONTENT_MAX
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.harness import RunningBot, Table, open_table

pytestmark = pytest.mark.e2e

COMMANDS = ("rules", "card", "help", "stats")


@pytest.fixture
def shards() -> int:
    return 1  # nothing here depends on sharding


async def test_the_commands_are_synced_with_descriptions(fake: FakeDiscord, running: RunningBot) -> None:
    synced = fake.catalog.global_commands
    assert set(COMMANDS) <= set(synced)
    for name in COMMANDS:
        command = synced[name]
        assert command["description"] and all(o["description"] for o in command.get("options", []))
        assert command.get("contexts") in (None, [0]), "guild-only"
    assert {o["name"] for o in synced["card"]["options"] if o.get("autocomplete")} == {"name", "game"}
    history = next(o for o in synced["game"]["options"] if o["name"] == "history")
    assert history["description"] and history["options"][0]["description"]


async def test_help_and_rules_answer_privately(fake: FakeDiscord, table: Table) -> None:
    help_message = await table.command("help", fake.alice)
    assert help_message.ephemeral and help_message.text().startswith("**Miskatonic** is the game master")
    answer = await table.command("rules", fake.alice, query="focus", game="elder-sign")
    assert answer.ephemeral and answer.text().startswith("Our rules notes on 'focus':")
    assert len(answer.content) <= CONTENT_MAX
    suggested = await fake.choices("rules", "game", "eld", user=fake.alice, channel=table.channel, query="x")
    assert {c["value"] for c in suggested} == {"elder-sign", "eldritch"}
    refused = await table.refused("rules", fake.alice, query="focus")
    assert refused.startswith("Which game? This channel has no game with rules notes: add game: with one of")


async def test_card_with_autocomplete(fake: FakeDiscord, table: Table) -> None:
    choices = await fake.choices("card", "name", "stom lantrn", user=fake.bob, channel=table.channel,
                                 game="elder-sign")
    assert choices[0] == {"name": "Storm Lantern (Common item)", "value": "es.common.storm-lantern"}
    assert len(choices) <= 25
    card = await table.command("card", fake.bob, name=choices[0]["value"], game="elder-sign")
    assert card.ephemeral and card.text().startswith("**Storm Lantern**")
    assert [f.filename for f in card.files] == ["card-es-common-storm-lantern.png"]
    # in a running game the channel's game is the default, and the card says where it is
    await table.command("game new", fake.alice, game="elder-sign", options="ancient_one=dagon")
    await table.command("game start", fake.alice)
    ao = await fake.choices("card", "name", "dagon", user=fake.bob, channel=table.channel)
    assert ao[0]["value"] == "es.ao.dagon"
    found = await table.command("card", fake.bob, name="es.ao.dagon")
    assert "In this game: the Ancient One of this game" in found.text()
    refused = await table.refused("card", fake.bob, name="lantern")
    assert "could be" in refused and "Say more of the name, or pick a suggestion." in refused


async def test_history_and_stats_after_a_finished_game(fake: FakeDiscord, table: Table) -> None:
    empty = await table.command("game history", fake.alice)
    assert empty.ephemeral and empty.text() == "No game has finished in this channel yet. /game new opens one."
    prompt = await open_table(table, [fake.alice, fake.bob], options="start=3")
    await table.outcome(await table.choose(prompt, "Take 3"))  # the counter reaches 0: the table wins
    history = await table.command("game history", fake.bob)
    assert history.ephemeral and "Countdown: **won**, 1 step. Players: Alice, Bob." in history.text()
    stats = await table.command("stats", fake.alice)
    assert stats.ephemeral and "**Record of this server**: 1 finished game, 1 won." in stats.text()
    mine = await table.command("stats", fake.bob, player=fake.bob)
    assert "**Record of Bob**: 1 finished game, 1 won." in mine.text()
    nobody = await table.command("stats", fake.bob, player=fake.erin)
    assert nobody.text() == "No finished games for Erin yet."
