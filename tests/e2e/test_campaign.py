"""A two-player campaign of the card game's test pack (two scenarios) through Discord: /campaign new, join and
start, the first scenario played with the game's buttons and menus (the smart agent's choices), the campaign's
status read in the channel when it ends, an upgrade bought between the scenarios, /campaign next, the second
scenario to the end, and the record folded twice."""

from __future__ import annotations

import time

import pytest

from bot.campaigns import campaigns_for
from engine import api
from engine.arkham_lcg.agent import SmartAgent
from tests.e2e.fakediscord import FakeDiscord, FakeUser
from tests.e2e.harness import RunningBot, Table, answer_with_controls, open_game_id
from tests.e2e.test_elder_sign import _state, _stepped, narration
from tests.engine.arkham_lcg.conftest import lcg_pack  # noqa: F401  (the fixture: the test pack, pinned)

pytestmark = pytest.mark.e2e
SEED = 1  # the campaign's seed: after the first scenario the warden can buy an upgrade (tests/bot/test_campaigns.py)
AGENT_SEED = 7


@pytest.fixture
def shards() -> int:
    return 1  # the campaign's paths do not depend on sharding; the sharded paths have their own tests


async def seed_campaign(running: RunningBot, table: Table, seed: int) -> None:
    """Give the channel's campaign lobby a fixed seed, so its games are the same every run."""
    store = running.bot.service.store
    row = await store.open_campaign(table.channel.id)
    assert row is not None and row.id is not None
    await store.save_campaign(row.id, {**row.data, "seed": seed}, expected_version=row.version)


async def play_to_the_end(fake: FakeDiscord, table: Table, running: RunningBot,
                          users: dict[int, FakeUser]) -> int:
    """Answer the channel's scenario game with the smart agent's choices through its controls; its id."""
    game_id = await open_game_id(running, table)
    seats = await running.bot.service.store.seats(game_id)
    agent = SmartAgent(AGENT_SEED)
    for _ in range(3000):
        state = await _state(running, game_id)
        if state.over:
            await fake.settle()
            return game_id
        prompt = api.prompts(state)[0]
        action = agent.act(state, prompt)
        user = users[seats[action.seat].user_id]
        ix = await answer_with_controls(fake, table.channel, user, game_id, prompt, action)
        await fake.expect_callback(ix, timeout=10)
        refused = await _stepped(fake, running, game_id, state.step, ix)
        assert not refused, (prompt.title, action, refused)
    raise AssertionError("the scenario did not end")


async def test_a_campaign_of_two_scenarios_with_an_upgrade(lcg_pack: str, fake: FakeDiscord, table: Table,  # noqa: F811
                                                           running: RunningBot) -> None:
    alice, bob = fake.alice, fake.bob
    store = running.bot.service.store
    offered = await fake.choices("campaign new", "game", "", user=alice, channel=table.channel)
    assert [c["value"] for c in offered] == ["arkham-lcg"]  # only games played as campaigns
    levels = await fake.choices("campaign new", "difficulty", "ea", user=alice, channel=table.channel,
                                game="arkham-lcg")
    assert [c["value"] for c in levels] == ["easy"]
    opened = await table.command("campaign new", alice, game="arkham-lcg", difficulty="easy", investigator="warden")
    assert not opened.ephemeral and "opened a campaign of Arkham Horror: The Card Game" in opened.text()
    await seed_campaign(running, table, SEED)
    names = await fake.choices("campaign join", "investigator", "sch", user=bob, channel=table.channel)
    assert [c["value"] for c in names] == ["scholar"]
    joined = await table.command("campaign join", bob, investigator="scholar")
    assert "bob joins the campaign" in joined.text().lower()
    refusal = await table.refused("campaign next", alice)
    assert "has not begun" in refusal

    since = time.monotonic()
    await table.command("campaign start", alice)
    users = {alice.id: alice, bob.id: bob}
    first = await play_to_the_end(fake, table, running, users)
    # the scenario's last section (its board drawn first) may still be on its way when the game is over
    await fake.wait_until(lambda: any(line.startswith("Campaign: 1 of 2") for line in
                                      narration(table.posted_since(since))), "the scenario's last lines", 20)
    posted = table.posted_since(since)
    read = narration(posted)
    assert read["Arkham Horror: The Card Game campaign, scenario 1 of 2: Test Scenario One, with Alice and Bob."] == 1
    status = [line for line in read if line.startswith("Campaign: 1 of 2 scenarios played; next: Test Scenario Two.")]
    assert len(status) == 1 and read[status[0]] == 1  # said once, in the scenario's last section
    assert await table.no_live_controls(), "no live controls between scenarios"

    log = await table.command("campaign log", bob)
    assert not log.ephemeral and "Test Scenario One:" in log.text() and "seat 2 Test Scholar — Bob" in log.text()
    choices = await fake.choices("campaign upgrade", "card", "", user=alice, channel=table.channel)
    assert choices and len(choices) <= 25 and all(c["value"].startswith("1/") for c in choices)
    deck_before = await table.command("campaign deck", alice)
    assert deck_before.ephemeral and "Seat 1, Test Warden" in deck_before.text()
    assert "Deck code: L1." in deck_before.text()
    bought = await table.command("campaign upgrade", alice, card=choices[0]["value"])
    assert bought.ephemeral and bought.text().startswith("Bought: ")
    deck_after = await table.command("campaign deck", alice)
    assert deck_after.text() != deck_before.text()
    assert "only before the campaign's first scenario" in await table.refused(
        "campaign import", bob, code=deck_after.text().rsplit("Deck code: ", 1)[1].split()[0])

    row = await store.open_campaign(table.channel.id)
    assert row is not None and row.data["status"] == "between" and row.data["folded"] == first
    assert len(row.data["record"]["results"]) == 1

    since = time.monotonic()
    await table.command("campaign next", bob)
    second = await play_to_the_end(fake, table, running, users)
    assert second != first
    read = narration(table.posted_since(since))
    assert any(line.startswith("The campaign is over") for line in read)

    final = await store.current_campaign(table.channel.id)
    assert final is not None and final.closed_at is not None
    assert final.data["status"] == "over" and final.data["folded"] == second
    record = final.data["record"]
    assert len(record["results"]) == 2
    warden = next(r for r in record["investigators"] if r["seat"] == 0)
    assert warden["xp"] < warden["xp_earned"]  # the upgrade's cost stayed spent through the second scenario
    assert "is over" in await table.refused("campaign next", alice)
    over_log = await table.command("campaign log", alice)
    assert "The campaign is over" in over_log.text()
    assert campaigns_for(running.bot.service).service is running.bot.service
