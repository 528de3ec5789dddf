"""Issue "Reliability and security" through the real discord.py client: what a user is told after a commit
that was followed by a failure (item 5), replies that echo long input (item 10), and forged component ids
(item 11)."""

from __future__ import annotations

import pytest

from tests.e2e.fakediscord import FakeDiscord, FakeMessage, snapshot
from tests.e2e.harness import RunningBot, Table, open_table, prompt_ids

pytestmark = pytest.mark.e2e

PASSED = "This choice has passed."


async def test_a_failure_after_the_commit_says_the_move_was_applied(
        fake: FakeDiscord, table: Table, running: RunningBot, monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 5: the click is committed, then showing it in the channel fails: the player is told the move
    counted (never "nothing was changed"), and the game did move."""
    prompt = await open_table(table, [fake.alice, fake.bob])

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("channel service down")

    monkeypatch.setattr("bot.turns.TablePublisher.publish", broken)
    click = await table.choose(prompt, "Take 2")
    told = await fake.wait_until(lambda: next((m for m in click.followups if m.ephemeral), None), "a private note")
    assert told.content.startswith("Your action was applied, but something went wrong while showing it"), told
    assert f"(ref {click.id})" in told.content and "nothing was changed" not in told.content
    monkeypatch.undo()
    status = await table.command("game status", fake.bob)
    assert "Counter 8" in status.text()


async def test_a_reply_echoing_long_input_still_reaches_the_user(fake: FakeDiscord, table: Table) -> None:
    """Item 10: an error that quotes 2,500 typed characters is cut to Discord's 2,000 (the fake refuses longer
    messages, and the fixture fails the test on any refused request)."""
    typed = "x" * 2500
    text = await table.refused("game new", fake.alice, game=typed)
    assert len(text) <= 2000 and text.startswith("There is no game called 'xxx") and text.endswith("…")
    await table.command("game new", fake.alice, game="countdown")
    text = await table.refused("game join", fake.bob, investigator=typed)
    assert len(text) <= 2000 and "There is no character" in text


def _forged(prompt: FakeMessage, custom_id: str) -> FakeMessage:
    """The prompt as a modified client shows it: its first button carries `custom_id`."""
    copy = snapshot(prompt)
    copy.buttons()[0]["custom_id"] = custom_id
    return copy


async def test_forged_component_ids_get_the_quiet_passed_answer(fake: FakeDiscord, table: Table) -> None:
    """Item 11: custom ids the bot never made (unknown tokens, malformed numbers, ids beyond 64 bits) are
    answered like a stale click, privately, and change nothing."""
    prompt = snapshot(await open_table(table, [fake.alice, fake.bob]))  # as alice's client first showed it
    game_id, seq = prompt_ids(prompt)
    huge = "9" * 30
    forged = [f"mk:p:{game_id}:{seq}:zzz", f"mk:p:{game_id}:{seq}:a1x", f"mk:p:{game_id}:{seq}:#x1",
              f"mk:p:{game_id}:{seq}:a{huge}", f"mk:p:{huge}:{seq}:i1", f"mk:p:{game_id}:{huge}:i1",
              f"mk:e:{game_id}:{huge}"]
    before = (await table.command("game status", fake.bob)).text()
    for custom_id in forged:
        message = _forged(prompt, custom_id)
        click = await fake.click(custom_id, message, user=fake.alice)
        said = await fake.wait_until(lambda c=click: next((m for m in c.followups if m.ephemeral), None),
                                     f"the answer to {custom_id}")
        assert said.content == PASSED, (custom_id, said.content)
    assert (await table.command("game status", fake.bob)).text() == before
