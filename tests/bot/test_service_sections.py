"""Sections: what the channel shows of a game, one living message per turn or phase (bot/service_sections.py),
written by the service in the same transaction as each step."""

from __future__ import annotations

from bot.service import GameService
from bot.service_sections import SectionWriter, shown_lines
from engine.core.events import Event
from tests.bot.conftest import ALICE, BOB, CHANNEL, MOD
from tests.bot.helpers import clicking, only_card, open_table


def ev(kind: str, text: str, **kw: object) -> Event:
    return Event(kind=kind, text=text, **kw)  # type: ignore[arg-type]


def test_turn_markers_begin_and_end_sections_and_a_render_inside_a_turn_does_not_end_it() -> None:
    w = SectionWriter(1, None)
    for e in [ev("setup", "The doors close."), ev("setup.done", "Ready.", render=True),
              ev("turn.started", "Turn 1: Ada's turn."), ev("dice.rolled", "Ada rolls.", data={"dice": [1]}),
              ev("adventure.success", "Ada wins the card!", render=True)]:
        w.event(3, e)
    changed = w.finish(3, [7])
    setup, turn = changed
    assert (setup.closed, setup.board, setup.marked, setup.end_step) == (True, True, False, 3)
    assert (turn.closed, turn.marked, turn.board, turn.awaited, turn.pings) == (False, True, True, [7], [[7, 1]])
    assert turn.image == {"n": 1, "events": {"dice.rolled": {"data": {"dice": [1]}, "step": 3, "n": 1}}}
    assert shown_lines(turn) == ["**Turn 1: Ada's turn.**", "Ada rolls.", "Ada wins the card!"]

    # the next step: the same player answers again (no mention), then the turn passes to another player
    w = SectionWriter(1, turn)
    w.event(4, ev("moved", "Ada moves."))
    [same] = w.finish(4, [7])
    assert same.pings == [[7, 1]] and same.rev == 2, "a player answering again is not mentioned again"
    w = SectionWriter(1, same)
    w.event(5, ev("turn.ended", "End of turn 1.", render=True))
    w.event(5, ev("turn.started", "Turn 2: Bo's turn."))
    ended, nxt = w.finish(5, [8])
    assert ended.closed and ended.board and ended.end_step == 5
    assert nxt.number == 3 and nxt.awaited == [8] and nxt.pings == [[8, 1]]


def test_several_players_asked_at_once_are_mentioned_once_each_and_private_events_stay_out() -> None:
    w = SectionWriter(1, None)
    w.event(1, ev("turn.started", "Turn 1."))
    w.event(1, ev("secret", "You see a 3.", private_to=0))
    [turn] = w.finish(1, [7])
    w = SectionWriter(1, turn)
    w.event(2, ev("ao.attack", "The Ancient One attacks."))
    [turn] = w.finish(2, [7, 8, 8])
    assert turn.awaited == [7, 8] and turn.pings == [[7, 1], [8, 2]]
    assert [line["text"] for line in turn.lines] == ["Turn 1.", "The Ancient One attacks."]
    w = SectionWriter(1, turn)
    [turn] = w.finish(2, [8])  # 7 answered: nobody new to mention
    assert turn.awaited == [8] and turn.pings == [[8, 2]]


def test_a_phase_that_ends_right_after_the_last_turn_joins_that_turns_section() -> None:
    """"The investigation phase ends." in the step that ended the last turn is a line of that turn's message,
    with one board after it, not a one-line message of its own followed by a second, identical board. In a
    later step it is a section of its own (the turn's message is already frozen in the channel)."""
    w = SectionWriter(1, None)
    w.event(1, ev("turn.started", "Ada's turn."))
    [turn] = w.finish(1, [7])
    w = SectionWriter(1, turn)
    w.event(2, ev("turn.ended", "Ada's turn ends.", render=True))
    w.event(2, ev("phase.ended", "The investigation phase ends.", render=True))
    w.event(2, ev("phase.started", "Enemy phase."))
    ended, enemy = w.finish(2, [])
    assert shown_lines(ended) == ["**Ada's turn.**", "Ada's turn ends.", "The investigation phase ends."]
    assert ended.closed and ended.board and ended.end_step == 2 and ended.awaited == []
    assert [c.board_step for c in w.changes.values()] == [2, None]
    assert enemy.number == 2 and shown_lines(enemy) == ["**Enemy phase.**"]
    w = SectionWriter(1, enemy)
    w.event(3, ev("phase.ended", "The enemy phase ends.", render=True))
    [same] = w.finish(3, [])
    assert same.number == 2 and same.closed

    later = SectionWriter(1, ended)  # the turn's section closed in an earlier step: a new section
    later.event(3, ev("phase.ended", "The investigation phase ends.", render=True))
    [alone] = later.finish(3, [])
    assert alone.number == 2 and shown_lines(alone) == ["The investigation phase ends."]


async def test_a_game_without_turn_markers_gets_a_section_per_move(service: GameService) -> None:
    await open_table(service, ALICE, BOB)
    game = await service.store.open_game(CHANNEL)
    assert game is not None and game.id is not None
    first = await service.latest_section(game.id)
    assert first is not None and first.number == 2 and first.lines == [] and first.awaited == [ALICE.user_id]
    assert first.pings == [[ALICE.user_id, 1]]
    reply = await service.choose(CHANNEL, clicking(ALICE), (await only_card(service)).prompt.seq, ["2"])
    assert reply.table == game.id and reply.narrated
    assert [(c.number, c.lines, c.closed, c.board_step) for c in reply.sections] == [
        (2, ["alice takes 2; 8 left.", "Turn over."], True, 1), (3, [], False, None)]
    now = await service.latest_section(game.id)
    assert now is not None and now.awaited == [BOB.user_id] and now.pings == [[BOB.user_id, 1]]


async def test_one_user_holding_two_seats_is_mentioned_once(service: GameService) -> None:
    await open_table(service, ALICE, ALICE)  # alice plays both seats
    game = await service.store.open_game(CHANNEL)
    assert game is not None and game.id is not None
    await service.choose(CHANNEL, clicking(ALICE), (await only_card(service)).prompt.seq, ["1"])
    section = await service.latest_section(game.id)
    assert section is not None and section.awaited == [ALICE.user_id]
    assert section.pings == [], "the turn passed to alice's other seat: no second mention"


async def test_undo_strikes_what_was_undone_in_the_open_section(service: GameService) -> None:
    await open_table(service, ALICE, BOB)
    game = await service.store.open_game(CHANNEL)
    assert game is not None and game.id is not None
    await service.choose(CHANNEL, clicking(ALICE), (await only_card(service)).prompt.seq, ["1"])
    reply = await service.gm_undo(CHANNEL, MOD, 1)
    assert reply.table == game.id
    section = await service.latest_section(game.id)
    assert section is not None and not section.closed
    assert shown_lines(section) == ["↩ Moderator mod undid 1 step."]
    assert section.awaited == [ALICE.user_id] and section.pings[-1][0] == ALICE.user_id


async def test_a_moderator_ending_the_game_freezes_its_section(service: GameService) -> None:
    await open_table(service, ALICE, BOB)
    game = await service.store.open_game(CHANNEL)
    assert game is not None and game.id is not None
    reply = await service.gm_end(CHANNEL, MOD)
    assert reply.table == game.id
    section = await service.latest_section(game.id)
    assert section is not None and section.closed and section.awaited == []
    assert [line["text"] for line in section.lines] == ["Moderator mod ended the game.",
                                                         "A moderator ended the game."]


def test_sections_that_end_in_the_same_step_share_one_message_and_one_board() -> None:
    """Issue 27: phases that resolve in one step (the enemy phase with no enemy, upkeep) are lines of one
    message with one board, drawn at the end of the step; the phase that stays open (a question) is the live
    message of its own; its dice picture goes with it."""
    w = SectionWriter(1, None)
    w.event(1, ev("turn.started", "Ada's turn."))
    [turn] = w.finish(1, [7])
    w = SectionWriter(1, turn)
    w.event(2, ev("turn.ended", "Ada's turn ends.", render=True))
    w.event(2, ev("phase.ended", "The investigation phase ends.", render=True))
    w.event(2, ev("phase.started", "Enemy phase."))
    w.event(2, ev("phase.ended", "The enemy phase ends.", render=True))
    w.event(2, ev("phase.started", "Upkeep phase."))
    w.event(2, ev("phase.ended", "The upkeep phase ends.", render=True))
    w.event(2, ev("phase.started", "Mythos phase."))
    w.event(2, ev("dice.rolled", "The bag gives a skull.", data={"token": "skull"}))
    ended, mythos = w.finish(2, [7])
    assert shown_lines(ended) == ["**Ada's turn.**", "Ada's turn ends.", "The investigation phase ends.",
                                  "**Enemy phase.**", "The enemy phase ends.", "**Upkeep phase.**",
                                  "The upkeep phase ends."]
    assert ended.closed and ended.board and ended.end_step == 2 and ended.image is None
    assert [c.board_step for c in w.changes.values()] == [2, None], "one board for the three phases"
    assert mythos.number == 2 and not mythos.closed and mythos.marked and mythos.awaited == [7]
    assert shown_lines(mythos) == ["**Mythos phase.**", "The bag gives a skull."]
    assert mythos.image is not None and "dice.rolled" in mythos.image["events"]
    assert [c.lines for c in w.summary()] == [
        ["Ada's turn ends.", "The investigation phase ends.", "Enemy phase.", "The enemy phase ends.",
         "Upkeep phase.", "The upkeep phase ends."], ["Mythos phase.", "The bag gives a skull."]]


def test_a_step_that_closes_everything_it_opens_is_one_message() -> None:
    """Setup that deals the table in three sections within one step is one message and one board."""
    w = SectionWriter(1, None)
    for e in [ev("setup", "The table is dealt.", render=True), ev("phase.started", "Round 1: Mythos."),
              ev("phase.ended", "The mythos phase ends.", render=True), ev("turn.started", "Ada's turn.")]:
        w.event(0, e)
    setup, turn = w.finish(0, [7])
    assert setup.closed and setup.board and len(setup.lines) == 3 and not turn.closed and turn.number == 2


def test_a_section_of_headings_alone_runs_on_into_the_next() -> None:
    """A phase whose heading was followed only by a question nobody answered with a word (a player window
    passed) is not a message of its own: the first turn's section continues it (issue 27, one message a step)."""
    w = SectionWriter(1, None)
    w.event(1, ev("phase.started", "Round 2: the investigation phase."))
    [phase] = w.finish(1, [7])  # a player window asks someone
    w = SectionWriter(1, phase)
    w.event(2, ev("turn.started", "Ada's turn."))
    [same] = w.finish(2, [7])
    assert same.number == phase.number and not same.closed
    assert shown_lines(same) == ["**Round 2: the investigation phase.**", "**Ada's turn.**"]
