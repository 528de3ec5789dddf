"""A whole game through Discord: lobby with autocomplete, play by buttons to the end with board images,
stale and foreign clicks, twenty simultaneous clicks, two channels at once."""

from __future__ import annotations

import asyncio
import time

import pytest

from tests.e2e.fakediscord import FakeDiscord, FakeUser, snapshot
from tests.e2e.harness import RunningBot, Table, open_table, prompt_ids

pytestmark = pytest.mark.e2e


async def test_lobby_with_autocomplete_then_play_to_the_end(fake: FakeDiscord, table: Table) -> None:
    alice, bob, carol = fake.alice, fake.bob, fake.carol
    games = await fake.choices("game new", "game", "cou", user=alice, channel=table.channel)
    assert "countdown" in [c["value"] for c in games]
    assert all("cou" in c["value"] for c in games)
    options = await fake.choices("game new", "options", "st", user=alice, channel=table.channel, game="countdown")
    assert [c["value"] for c in options] == ["start=10"]

    opened = await table.command("game new", alice, game="countdown", options="start=7")
    assert not opened.ephemeral and "countdown" in opened.text().lower()
    investigators = await fake.choices("game join", "investigator", "", user=bob, channel=table.channel)
    assert {c["value"] for c in investigators} == {"fox", "owl"}
    await table.command("game join", alice)
    await table.command("game join", bob, investigator="owl")
    await table.command("game join", carol)

    since = time.monotonic()
    started = await table.command("game start", alice)
    assert started.ephemeral, "the command's answer is private: the game shows in the channel"
    await fake.settle()
    setup, first = table.posted_since(since)
    assert "Countdown begins with Alice, Alice #2, Bob and Carol." in setup.text() and not setup.components
    assert len(setup.boards) == 1, "the first board joins the setup's message"
    assert setup.embeds[-1]["image"]["url"] == f"attachment://{setup.boards[0].filename}"

    # Take 1 each turn from 7: the seventh take wins; every turn is one message (its narration, then frozen,
    # with its board), then the next turn's message with the prompt, pinging whoever it waits for.
    turns = 0
    prompt = await table.current_prompt()
    assert prompt.id == first.id
    before: FakeUser | None = None
    while True:
        waiting = table.awaited(prompt)
        assert len(waiting) == 1 and f"<@{waiting[0].id}>" in prompt.content
        # the awaited player is pinged when the turn passes to them, not when it passes to their own
        # second seat (alice holds two)
        assert prompt.mentions == ([] if waiting[0] == before else [waiting[0].id])
        before = waiting[0]
        since = time.monotonic()
        click = await table.choose(prompt, "Take 1")
        await table.outcome(click)
        turns += 1
        assert click.callback.type == 6  # acknowledged at once, without a message
        decided = fake.messages[prompt.id]
        assert decided.components == [] and "takes 1" in decided.text()
        assert len(decided.boards) == 1, "every turn ends with a board image, in the turn's own message"
        posted = table.posted_since(since)
        if turns == 7:
            assert posted == [] and "The investigators won!" in decided.text()
            break
        assert len(posted) == 1, "the next turn's message: nothing else"
        prompt = await table.current_prompt()
        assert prompt.id != decided.id and prompt.id == posted[0].id
    assert table.prompt_messages() == [], "no live prompt after the game is won"
    status = await table.command("game status", bob)
    assert "win" in status.text().lower() or "won" in status.text().lower()


async def test_stale_and_foreign_clicks(fake: FakeDiscord, table: Table) -> None:
    first = await open_table(table, [fake.alice, fake.bob])
    old = snapshot(first)
    # Bob may not answer Alice's prompt: private refusal, the message keeps its buttons.
    foreign = await table.choose(first, "Take 1", user=fake.bob)
    refusal = await fake.expect_followup(foreign)
    assert refusal.ephemeral and refusal.visible_to == fake.bob.id
    assert fake.messages[first.id].components != []

    await table.outcome(await table.choose(first, "Take 2"))
    # A click on the old message, as a client that had not refreshed it shows it: the choice has passed,
    # and the stale components are removed from that message.
    stale = await fake.click(old.button("Take 1"), old, user=fake.alice)
    passed = await fake.expect_followup(stale)
    assert passed.ephemeral and passed.content == "This choice has passed."
    assert fake.messages[first.id].components == []


async def test_twenty_simultaneous_clicks_apply_once(fake: FakeDiscord, table: Table,
                                                     running: RunningBot) -> None:
    prompt = await open_table(table, [fake.alice])
    game_id, seq = prompt_ids(prompt)
    seen = snapshot(prompt)
    clicks = await asyncio.gather(*(fake.click(seen.button("Take 1"), seen, user=fake.alice) for _ in range(20)))
    for click in clicks:
        await fake.expect_callback(click, timeout=10)
    await fake.settle(quiet=0.3)
    passed = [c for c in clicks if any(m.content == "This choice has passed." for m in c.followups)]
    assert len(passed) == 19, "one click applied, every other one was told it passed"
    status = await table.command("game status", fake.alice)
    assert "9" in status.text()  # 10 - 1, taken once
    actions = await running.bot.service.store.actions(game_id)
    assert [a.seq for a in actions] == [1]


async def test_two_channels_play_in_parallel(fake: FakeDiscord, running: RunningBot) -> None:
    # One table per guild: with 2 shards each guild is served by its own shard.
    tables = [Table(fake, fake.channel("table-1", "Arkham")), Table(fake, fake.channel("table-2", "Dunwich"))]

    async def play(table: Table, players: list) -> str:
        prompt = await open_table(table, players, options="start=5")
        for _ in range(5):
            await table.outcome(await table.choose(prompt, "Take 1"))
            if table.prompt_messages():
                prompt = await table.current_prompt()
        return (await table.command("game status", players[0])).text()

    results = await asyncio.gather(play(tables[0], [fake.alice, fake.bob]), play(tables[1], [fake.carol]))
    for text in results:
        assert "win" in text.lower() or "won" in text.lower()


async def test_me_is_private_and_its_prompt_works(fake: FakeDiscord, table: Table) -> None:
    public_prompt = await open_table(table, [fake.alice, fake.bob])
    ix = await fake.slash("game me", user=fake.alice, channel=table.channel)
    first = await fake.reply(ix)
    await fake.settle()
    shown = [first, *ix.followups[ix.followups_taken:]]
    assert all(m.ephemeral and m.visible_to == fake.alice.id for m in shown)
    assert "secret" in first.text().lower()  # only alice's view has her secret number
    private_prompt = next(m for m in shown if m.buttons())
    out = await table.outcome(await table.choose(private_prompt, "Take 3", user=fake.alice))
    assert any(m.images and not m.ephemeral for m in out), "the move is narrated publicly"
    await fake.wait_until(lambda: not fake.messages[public_prompt.id].components, "the old public prompt stripped")
    assert table.awaited(await table.current_prompt()) == [fake.bob]
    # Bob's /game me has no prompt of his own to show... until it is his turn, which it now is.
    bob_ix = await fake.slash("game me", user=fake.bob, channel=table.channel)
    assert (await fake.reply(bob_ix)).ephemeral


async def test_leave_log_and_abandon(fake: FakeDiscord, table: Table) -> None:
    await table.command("game new", fake.alice, game="countdown")
    await table.command("game join", fake.bob)
    left = await table.command("game leave", fake.bob)
    assert "leaves" in left.text() and not left.ephemeral
    await table.command("game join", fake.carol)
    await table.command("game start", fake.alice)
    prompt = await table.current_prompt()
    await table.outcome(await table.choose(prompt, "Take 2"))
    log = await table.command("game log", fake.carol, page=1)
    assert log.ephemeral and "takes 2" in log.text()
    first_vote = await table.command("game abandon", fake.alice)
    assert "1/2" in first_vote.text()
    assert table.prompt_messages(), "the game goes on until everyone agrees"
    await table.command("game abandon", fake.carol)
    await fake.settle()
    status = await table.command("game status", fake.alice)
    assert "abandoned" in status.text()
