"""One living message per turn (issue 17): several players asked at once answer through one "Answer" button
that opens each player's own controls privately; /gm end while two players are asked freezes the message at
once; a turn message a moderator deleted comes back; a long turn continues in a second message."""

from __future__ import annotations

import time

import pytest

from bot.turns import PAGE_MAX, pages
from tests.e2e.fakediscord import FakeDiscord, FakeMessage, snapshot
from tests.e2e.harness import ANSWER_ID, Table, open_table

pytestmark = pytest.mark.e2e


def answer_button(message: FakeMessage) -> str:
    return next(c for c in message.custom_ids() if ANSWER_ID.match(c))


async def own_controls(fake: FakeDiscord, message: FakeMessage, user: object) -> FakeMessage:
    ix = await fake.click(answer_button(message), message, user=user)  # type: ignore[arg-type]
    mine = await fake.expect_followup(ix) if (await fake.expect_callback(ix)).type != 4 else ix.original
    assert mine is not None and mine.ephemeral and mine.visible_to == user.id  # type: ignore[attr-defined]
    return mine


async def test_players_asked_at_once_answer_privately_through_one_message(fake: FakeDiscord, table: Table) -> None:
    alice, bob = fake.alice, fake.bob
    since = time.monotonic()
    await table.command("game new", alice, game="duet")
    await table.command("game join", bob)
    await table.command("game start", alice)
    turn = await fake.expect_channel_message(table.channel, lambda m: bool(m.custom_ids()) and m.created_at > since)
    assert "Round 1: everyone chooses at once." in turn.text()
    assert sorted(turn.pinged) == sorted([alice.id, bob.id]), "both asked: both pinged, once, in one message"
    assert [b["label"] for b in turn.buttons()] == ["Answer"], "no controls of one player in the channel"

    # A player who is not asked is told so privately.
    ix = await fake.click(answer_button(turn), turn, user=fake.carol)
    assert (await fake.reply(ix)).ephemeral

    mine = await own_controls(fake, turn, alice)
    assert "Alice: high or low?" in mine.content and [b["label"] for b in mine.buttons()] == ["High", "Low"]
    click = await fake.click(mine.button("High"), mine, user=alice)
    await fake.wait_until(lambda: "Alice has chosen." in fake.messages[turn.id].text(), "the turn message grown")
    await fake.wait_until(lambda: not fake.messages[mine.id].components, "alice's own controls answered")
    assert "✔" in fake.messages[mine.id].content and click.callback is not None
    assert f"<@{bob.id}>" in fake.messages[turn.id].content and f"<@{alice.id}>" not in fake.messages[turn.id].content

    # Only Bob is asked now: his controls are on the turn's message itself.
    await fake.wait_until(lambda: [b["label"] for b in fake.messages[turn.id].buttons()] == ["High", "Low"],
                          "bob's own controls on the turn's message")
    assert sum(bob.id in m.pinged for m in table.posted_since(since)) == 1, "bob is pinged once"
    await fake.click(fake.messages[turn.id].button("Low"), fake.messages[turn.id], user=bob)
    await fake.wait_until(lambda: "Round 1 is over." in fake.messages[turn.id].text(), "the round over")
    await fake.settle()
    assert not fake.messages[turn.id].components, "the round's message is frozen"
    assert fake.messages[turn.id].boards, "its board joins it"
    posted = table.posted_since(turn.created_at)
    assert [bool(m.images) for m in posted] == [False], "after the turn: the next turn, nothing else"

    # Issue 17's known bug: /gm end while two players are asked leaves nothing live.
    nxt = posted[-1]
    assert answer_button(nxt)
    await table.command("gm end", fake.morgan)
    await fake.wait_until(lambda: not fake.messages[nxt.id].components, "the asked message frozen at the end")
    assert table.prompt_messages() == [] and not [m for m in fake.channel_messages(table.channel)
                                                  if any(ANSWER_ID.match(c) for c in m.custom_ids())]


async def test_a_deleted_turn_message_comes_back(fake: FakeDiscord, table: Table) -> None:
    prompt = await open_table(table, [fake.alice, fake.bob])
    prompt.deleted = True  # a moderator deleted it
    await table.command("game status", fake.bob)
    again = await table.current_prompt()
    assert again.id != prompt.id and table.awaited(again) == [fake.alice]
    # the one refused request was the edit of the deleted message, which the bot then posted again
    assert [f for f in fake.take_failures() if f"unknown message {prompt.id}" not in f] == []
    await table.outcome(await table.choose(again, "Take 2"))
    assert "takes 2" in fake.messages[again.id].text()


async def test_a_stale_private_click_passes_and_leaves_the_living_message_alone(fake: FakeDiscord,
                                                                                table: Table) -> None:
    await table.command("game new", fake.alice, game="duet")
    await table.command("game join", fake.bob)
    await table.command("game start", fake.alice)
    turn = await table.fake.wait_until(
        lambda: next((m for m in fake.channel_messages(table.channel) if m.custom_ids()), None), "the turn")
    mine = await own_controls(fake, turn, fake.alice)
    seen = snapshot(mine)
    await table.outcome(await fake.click(mine.button("High"), mine, user=fake.alice))
    stale = await fake.click(seen.button("Low"), seen, user=fake.alice)
    passed = await fake.expect_followup(stale)
    assert passed.ephemeral and passed.content == "This choice has passed."
    await fake.settle()
    assert [b["label"] for b in fake.messages[turn.id].buttons()] == ["High", "Low"], "Bob's controls stay"


def test_a_long_turn_continues_in_a_second_message() -> None:
    lines = [f"line {n}: " + "x" * 90 for n in range(100)]
    split = pages(lines)
    assert len(split) > 1 and [line for page in split for line in page] == lines
    assert all(len("\n".join(page)) <= PAGE_MAX for page in split)
    assert pages(["y" * (PAGE_MAX + 50)]) == [["y" * (PAGE_MAX - 1) + "…"]]


async def test_a_section_shows_its_board_in_its_own_message_unless_an_older_build_posted_it_apart() -> None:
    """DESIGN "one living message per section": the board as a closed section left it joins the section's
    message; a section an earlier build already followed with a board message of its own is not given a
    second board; an open section has none yet; a board that cannot be drawn is recorded as none."""
    from types import SimpleNamespace

    from bot.service_types import Image, TableView
    from bot.store.models import SectionRecord
    from bot.turns import TablePublisher

    drawn: list[int] = []

    async def board_picture(channel_id: int, game_id: int, step: int) -> Image:
        drawn.append(step)
        if step == 13:
            raise RuntimeError("the renderer broke")
        return Image(filename=f"board-{step}.png", data=b"\x89PNG")

    publisher = TablePublisher(SimpleNamespace(service=SimpleNamespace(board_picture=board_picture)))  # type: ignore[arg-type]
    view = TableView(game_id=1, channel_id=2, game_type="countdown", epoch=0, sections=[], prompts=[], names={})
    closed = SectionRecord(game_id=1, number=1, closed=True, board=True, end_step=7, message_ids=[50])
    board, shown = await publisher._section_board(view, closed)
    assert shown and board is not None and board.filename == "board-7.png"
    closed.board_message_id = 50  # shown in its own message: shown again there when the section is re-shown
    assert (await publisher._section_board(view, closed))[1]
    older = SectionRecord(game_id=1, number=2, closed=True, board=True, end_step=9, message_ids=[60],
                          board_message_id=61)
    assert await publisher._section_board(view, older) == (None, False)
    still_open = SectionRecord(game_id=1, number=3, closed=False, board=True, end_step=None, message_ids=[70])
    assert await publisher._section_board(view, still_open) == (None, False)
    broken = SectionRecord(game_id=1, number=4, closed=True, board=True, end_step=13, message_ids=[80])
    assert await publisher._section_board(view, broken) == (None, True)
    assert drawn == [7, 7, 13]
    payload = publisher._payload(view, ["**Turn 1.**"], cards=[], picture=None, frozen=True, board=board)
    assert [e.image.url for e in payload["embeds"]] == [None, "attachment://board-7.png"]
    assert payload["view"] is None and [p.filename for p in payload["pictures"]] == ["board-7.png"]


async def test_a_player_awaited_mid_section_is_pinged_by_a_message_that_stays(fake: FakeDiscord,
                                                                               table: Table) -> None:
    """When the game starts waiting for someone else while a section's message exists, an edit would not ping
    them: the section continues in a new message that mentions them and carries the controls. Nothing is
    posted only to ping and then deleted (the old "🔔 … ↑" reply flickered in and out)."""
    alice, bob = fake.alice, fake.bob
    since = time.monotonic()
    first = await open_table(table, [alice, bob], game="countdown-pair")
    await table.outcome(await table.choose(first, "Take 1", alice))
    await fake.settle()
    continued = await table.current_prompt()
    assert continued.id != first.id and bob.id in continued.pinged and "Bob" in continued.content
    assert continued.content.startswith("**Round 1 · Play phase**"), "the live message opens with the state line"
    assert "alice takes 1" in fake.messages[first.id].text().lower(), "the narration so far stays above"
    assert not fake.messages[first.id].components, "the earlier message is frozen"
    await table.outcome(await table.choose(continued, "Take 1", bob))
    await fake.settle()
    posted = table.posted_since(since)
    assert not [m.id for m in posted if m.deleted], "nothing posted, then deleted"
    assert sum(bob.id in m.pinged for m in posted) == 1


def test_pages_begin_a_message_where_the_section_continued() -> None:
    lines = ["a", "b", "c"]
    assert pages(lines, starts=[2]) == [["a", "b"], ["c"]]
    assert pages(lines, starts=[3]) == [["a", "b", "c"], []], "a break at the end: a message with no lines yet"
    assert pages(lines, starts=[0, 9]) == [["a", "b", "c"]], "breaks outside the lines are ignored"
    assert pages(lines, starts=[3, 3]) == [["a", "b", "c"], [], []], "two players pinged in a row: two messages"
