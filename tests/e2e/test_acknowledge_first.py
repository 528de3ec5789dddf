"""Acknowledge first (issue 29, item 3): every interaction is acknowledged before the bot reads the database, so
a slow database can never cost a player Discord's 3 seconds. One test per path: a prompt's button, the
"Answer" button that opens a player's own controls, an answer form (opened from memory, then submitted), and
slash commands (the lobby's, a moderator's, a lookup). Autocomplete answers with its choices and is exempt.

The bot runs in this process: every SQL statement it sends is timed, and none may come between the moment
Discord delivered the interaction and the moment the bot acknowledged it.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from sqlalchemy import event

from tests.e2e.fakediscord import FakeDiscord, FakeInteraction, FakeMessage
from tests.e2e.harness import ANSWER_ID, RunningBot, Table, open_table

pytestmark = pytest.mark.e2e


class Reads:
    """When the bot sent each SQL statement (time.monotonic, as the fake Discord times its interactions)."""

    def __init__(self, running: RunningBot) -> None:
        self.times: list[tuple[float, str]] = []
        # the reminders' loop reads on its own clock (its first pass may fall in the window): not an interaction
        self.reminders = running.bot.reminders.loop.get_task() if running.bot.reminders is not None else None
        for sync in running.bot.service.store.sync_engines():  # SQLite writes a step on an engine of its own
            event.listen(sync, "before_cursor_execute", self._seen)

    def _seen(self, _conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        try:
            task = asyncio.current_task()
        except RuntimeError:  # the store's commit thread: a command's step
            task = None
        if self.reminders is None or task is not self.reminders:
            self.times.append((time.monotonic(), " ".join(statement.split()[:4])))

    async def acknowledged_first(self, fake: FakeDiscord, ix: FakeInteraction, what: str) -> None:
        callback = await fake.expect_callback(ix, timeout=10)
        early = [sql for at, sql in self.times if ix.dispatched_at <= at < callback.at]
        assert early == [], f"{what} read the database before it was acknowledged: {early}"


async def quiet(fake: FakeDiscord, running: RunningBot) -> None:
    """Let the publisher finish the last step, so that what follows is the next interaction's alone."""
    await fake.settle()


async def test_a_prompt_button_is_acknowledged_before_any_read(fake: FakeDiscord, table: Table,
                                                               running: RunningBot) -> None:
    prompt = await open_table(table, [fake.alice], options="start=9")
    reads = Reads(running)
    await quiet(fake, running)
    click = await table.choose(prompt, "Take 1")
    await reads.acknowledged_first(fake, click, "a prompt button")
    await fake.wait_until(lambda: any("takes 1" in m.text() for m in fake.channel_messages(table.channel)),
                          "the move narrated")


async def test_the_answer_button_is_acknowledged_before_any_read(fake: FakeDiscord, table: Table,
                                                                 running: RunningBot) -> None:
    """The "Answer" button of a turn asking several players at once (it used to read the pending prompts
    first)."""
    await table.command("game new", fake.alice, game="duet")
    await table.command("game join", fake.bob)
    await table.command("game start", fake.alice)
    turn = await fake.expect_channel_message(table.channel, lambda m: any(ANSWER_ID.match(c) for c in m.custom_ids()))
    reads = Reads(running)
    await quiet(fake, running)
    button = next(c for c in turn.custom_ids() if ANSWER_ID.match(c))
    ix = await fake.click(button, turn, user=fake.alice)
    await reads.acknowledged_first(fake, ix, 'the "Answer" button')
    mine = await fake.expect_followup(ix)
    assert mine.ephemeral and [b["label"] for b in mine.buttons()] == ["High", "Low"]


async def forms_prompt(fake: FakeDiscord, table: Table) -> FakeMessage:
    """The sampler game's fourth decision, a large amount, is answered with a form."""
    prompt = await open_table(table, [fake.alice], game="sampler")
    select = prompt.selects()[0]
    await fake.select(select["custom_id"], [select["options"][0]["value"]], prompt, user=fake.alice)
    prompt = await fake.wait_until(lambda: next((m for m in table.prompt_messages() if m.selects()
                                                 and m.selects()[0]["max_values"] == 3), None), "stage 2")
    (select,) = prompt.selects()
    await fake.select(select["custom_id"], [select["options"][0]["value"]], prompt, user=fake.alice)
    prompt = await fake.wait_until(lambda: next((m for m in table.prompt_messages()
                                                 if [b["label"] for b in m.buttons()][:1] == ["0"]), None), "stage 3")
    await table.choose(prompt, "4")
    return await fake.wait_until(lambda: next((m for m in table.prompt_messages()
                                               if [b["label"] for b in m.buttons()] == ["Answer…"]), None), "stage 4")


async def test_an_answer_form_opens_from_memory_and_its_answer_is_acknowledged_first(
        fake: FakeDiscord, table: Table, running: RunningBot) -> None:
    prompt = await forms_prompt(fake, table)
    reads = Reads(running)
    await quiet(fake, running)
    opened = await fake.click(prompt.button("Answer…"), prompt, user=fake.alice)
    await reads.acknowledged_first(fake, opened, "an answer form's button")
    assert opened.callback is not None and opened.callback.type == 9  # the form itself
    assert "Type a number" in str(fake.modal_fields(opened))  # built from the prompt held in memory
    await quiet(fake, running)
    submitted = await fake.submit_modal(opened, ["42"])
    await reads.acknowledged_first(fake, submitted, "an answer form's answer")
    await fake.wait_until(lambda: any("Stage 4 answered: 42" in m.text()
                                      for m in fake.channel_messages(table.channel)), "the answer narrated")


async def test_a_form_opened_for_a_game_not_in_memory_asks_plainly_and_checks_the_answer(
        fake: FakeDiscord, table: Table, running: RunningBot) -> None:
    """After a restart (the game not in memory) the form opens at once all the same, plainly worded; the
    answer is read against the prompt once acknowledged."""
    prompt = await forms_prompt(fake, table)
    await quiet(fake, running)
    running.bot.service._cache.clear()
    reads = Reads(running)
    opened = await fake.click(prompt.button("Answer…"), prompt, user=fake.alice)
    await reads.acknowledged_first(fake, opened, "an answer form's button")
    assert "option numbers, or the amount" in str(fake.modal_fields(opened))
    bad = await fake.submit_modal(opened, ["lots"])
    refusal = await fake.expect_followup(bad)
    assert refusal.ephemeral and "number" in refusal.content
    await fake.settle()
    again = await fake.click(prompt.button("Answer…"), prompt, user=fake.alice)
    await fake.expect_callback(again)
    await fake.submit_modal(again, ["7"])
    await fake.wait_until(lambda: any("Stage 4 answered: 7" in m.text()
                                      for m in fake.channel_messages(table.channel)), "the answer narrated")


@pytest.mark.parametrize("path, options", [
    ("game new", {"game": "countdown"}),
    ("game status", {}),
    ("game me", {}),
    ("game log", {}),
    ("game history", {}),
])
async def test_a_slash_command_is_acknowledged_before_any_read(fake: FakeDiscord, table: Table,
                                                               running: RunningBot, path: str,
                                                               options: dict[str, Any]) -> None:
    if path != "game new":
        await open_table(table, [fake.alice])
    reads = Reads(running)
    await quiet(fake, running)
    ix = await fake.slash(path, user=fake.alice, channel=table.channel, **options)
    await reads.acknowledged_first(fake, ix, f"/{path}")
    answer = await fake.reply(ix, timeout=10)
    assert answer.text(), f"/{path} answered nothing"


async def test_joining_and_a_moderators_command_are_acknowledged_before_any_read(
        fake: FakeDiscord, table: Table, running: RunningBot) -> None:
    """/game join read which game the channel has, and a moderator's command the server's moderator role,
    before answering."""
    await table.command("game new", fake.alice, game="countdown")
    reads = Reads(running)
    await quiet(fake, running)
    join = await fake.slash("game join", user=fake.bob, channel=table.channel)
    await reads.acknowledged_first(fake, join, "/game join")
    assert "joins the table" in (await fake.reply(join, timeout=10)).text()
    await table.command("game start", fake.alice)
    await quiet(fake, running)
    audit = await fake.slash("gm audit", user=fake.morgan, channel=table.channel)
    await reads.acknowledged_first(fake, audit, "/gm audit")
    assert (await fake.reply(audit, timeout=10)).ephemeral


async def test_a_private_answer_to_a_command_stays_private(fake: FakeDiscord, table: Table) -> None:
    """The acknowledgement is a private "thinking…": a private answer fills it, a public one replaces it in the
    channel, and nothing is left behind."""
    since = time.monotonic()
    lobby = await table.command("game new", fake.alice, game="countdown")
    assert not lobby.ephemeral and "opened a game of Countdown" in lobby.text()
    me = await table.command("game me", fake.alice)
    assert me.ephemeral
    await fake.settle()
    assert [m for m in table.posted_since(since) if m.deleted] == [], "no public placeholder came and went"
