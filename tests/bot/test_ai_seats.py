"""AI teammates (issue 32): a seat the bot plays with the game's smart agent, through the one service path.

Seating (item 1), playing one committed step at a time (item 2), `/game why` (item 3), handing a seat over both
ways (item 4) and the record split by AI teammates (item 6). The agents' own reasons are tested with each
agent (tests/engine/<game>/test_agent_reasons.py) and their fairness by tests/engine/test_agents_hidden_info.py.
"""

from __future__ import annotations

import pytest

from bot import ai_seats
from bot.ai_seats import AiDriver
from bot.service import GameService, Reply, UserError
from bot.store import Store
from engine.agents import get_agent
from engine.core.game import GameState
from engine.core.prompt import Action, Prompt
from tests.bot.conftest import ALICE, BOB, CHANNEL, GUILD, MOD

#: game -> AI seats beside the one person, and a seed whose game ends (won or lost) within the step cap
WHOLE_GAMES: dict[str, tuple[int, int]] = {"elder-sign": (2, 3), "eldritch": (1, 5), "arkham3": (1, 5),
                                          "arkham-lcg": (1, 5)}
STEP_CAP = 3000


async def _lobby(service: GameService, game: str = "elder-sign", ai: int = 1, seed: int = 3) -> None:
    await service.new_game(CHANNEL, GUILD, ALICE, game, {}, seed=seed)
    for _ in range(ai):
        await service.join(CHANNEL, ALICE, ai=True)


async def _seats(store: Store) -> list[tuple[int, str, str | None]]:
    game = await store.open_game(CHANNEL) or await store.current_game(CHANNEL)
    assert game is not None and game.id is not None
    return [(s.user_id, s.name, s.character) for s in await store.seats(game.id)]


async def test_an_ai_teammate_takes_a_named_seat(sqlite_store: Store) -> None:
    """Item 1: "/game join bot:True" seats "🤖 <investigator>" (one nobody has yet when none is named)."""
    service = GameService(sqlite_store, render=False)
    await service.new_game(CHANNEL, GUILD, ALICE, "elder-sign", {}, seed=3)
    reply = await service.join(CHANNEL, ALICE, ai=True)
    (_, alice, _), (ai_id, name, character) = await _seats(sqlite_store)
    assert ai_id < 0 and name.startswith("🤖 ") and character is not None
    assert reply.public[0].startswith(f"alice seats an AI teammate, {name}. Seats: 1. alice; 2. {name}.")
    await service.join(CHANNEL, ALICE, ai=True)
    seats = await _seats(sqlite_store)
    assert len({s[0] for s in seats}) == 3 and len({s[2] for s in seats[1:]}) == 2, "two AI seats, two investigators"


async def test_only_a_seated_player_adds_one_and_only_the_creator_or_a_moderator_removes_one(
        sqlite_store: Store) -> None:
    service = GameService(sqlite_store, render=False)
    await _lobby(service, ai=1)
    with pytest.raises(UserError, match="Only someone seated at the table can add an AI teammate"):
        await service.join(CHANNEL, BOB, ai=True)
    await service.join(CHANNEL, BOB)
    with pytest.raises(UserError, match="Only the table's creator or a moderator can remove an AI teammate"):
        await service.leave(CHANNEL, BOB, ai_seat=2)
    with pytest.raises(UserError, match="Seat 3 is not an AI teammate"):
        await service.leave(CHANNEL, ALICE, ai_seat=3)
    reply = await service.leave(CHANNEL, MOD, ai_seat=2)
    assert "removes the AI teammate 🤖" in reply.public[0]
    assert [s[0] for s in await _seats(sqlite_store)] == [ALICE.user_id, BOB.user_id]


async def test_ai_teammates_count_against_the_table_size(sqlite_store: Store) -> None:
    """Elder Sign seats at most 8 (rulebook, Setup): AI seats are seats."""
    service = GameService(sqlite_store, render=False)
    await _lobby(service, ai=7)
    with pytest.raises(UserError, match="the table is full"):
        await service.join(CHANNEL, ALICE, ai=True)


async def _play_alice(service: GameService, game: str, seed: int) -> dict[str, int]:
    """Alice answers only her own prompts (with the smart agent), the AI seats theirs, to the game's end."""
    me = get_agent(game, "smart", seed)
    counts = {"ai": 0, "alice": 0}
    for _ in range(STEP_CAP):
        while (reply := await service.ai_step(CHANNEL)) is not None:
            counts["ai"] += 1
            assert all(u >= 0 for card in reply.prompts for u in card.user_ids), "nobody clicks for an AI seat"
        cards = await service.pending(CHANNEL)
        if not cards:
            return counts
        assert all(card.user_ids == [ALICE.user_id] for card in cards), "only Alice's own questions reach her"
        step = await service.command_step(CHANNEL, game, ALICE.user_id)
        card = cards[0]
        action = me.act(step.state, card.prompt)
        await service.choose(CHANNEL, ALICE, action.prompt, action.choice, amount=action.amount, seat=action.seat)
        counts["alice"] += 1
    raise AssertionError(f"{game} did not end within {STEP_CAP} decisions")


@pytest.mark.parametrize("game", list(WHOLE_GAMES))
async def test_one_person_and_ai_teammates_play_a_whole_game(sqlite_store: Store, game: str) -> None:
    """Item 2: when the game waits for an AI seat, `ai_step` answers it with the smart agent, one committed step
    each, logged as the AI seat's own ("ai" rows with the seat's id), until the game ends."""
    ai, seed = WHOLE_GAMES[game]
    service = GameService(sqlite_store, render=False)
    await _lobby(service, game, ai=ai, seed=seed)
    await service.start(CHANNEL, ALICE)
    counts = await _play_alice(service, game, seed)
    finished = await sqlite_store.current_game(CHANNEL)
    assert finished is not None and finished.id is not None and finished.status == "over"
    assert counts["ai"] > 10 and counts["alice"] > 10
    seats = {s.seat: s.user_id for s in await sqlite_store.seats(finished.id)}
    rows = await sqlite_store.actions(finished.id)
    for row in rows:
        assert (row.kind == "ai") == (seats[row.seat or 0] < 0), f"step {row.seq} logged under the wrong player"
        assert row.actor_id == seats[row.seat or 0]
    ai_rows = [r for r in rows if r.kind == "ai"]
    assert len(ai_rows) == counts["ai"] and all("why" in r.payload for r in ai_rows)
    why = await service.why(CHANNEL, ALICE)
    assert why.ephemeral and why.ephemeral[0].startswith("🤖 ")


async def test_a_person_and_an_ai_asked_at_once(sqlite_store: Store) -> None:
    """Item 2: when a person and an AI are asked at once (the card game's mulligans: each investigator decides,
    Rules Reference, Setup), the AI answers its own question and the person's stays pending for them."""
    service = GameService(sqlite_store, render=False)
    await _lobby(service, "arkham-lcg", ai=1, seed=5)
    await service.start(CHANNEL, ALICE)
    before = await service.pending(CHANNEL)
    assert await service.ai_step(CHANNEL) is not None
    after = await service.pending(CHANNEL)
    assert [c.prompt.seq for c in after] == [c.prompt.seq for c in before]
    assert all(c.user_ids == [ALICE.user_id] for c in after)


async def test_a_question_for_a_person_and_an_ai_together_is_the_persons(sqlite_store: Store) -> None:
    """A group's choice (Arkham 3e: the investigators decide who takes the next turn, rulebook, Action Phase) is
    asked of every seat; the AI never decides it over a person's head: the person answers."""
    service = GameService(sqlite_store, render=False)
    await _lobby(service, "arkham3", ai=1, seed=5)
    await service.start(CHANNEL, ALICE)
    cards = await service.pending(CHANNEL)
    assert len(cards[0].prompt.seats) == 2 and cards[0].user_ids == [ALICE.user_id]
    assert not service.awaits_ai(CHANNEL) and await service.ai_step(CHANNEL) is None


async def test_the_driver_plays_until_a_person_is_asked(sqlite_store: Store) -> None:
    """The front end's driver: poked after a step, it answers the AI seats one decision at a time, showing each
    reply, and stops when the game waits for a person; a poke while it runs is not a second driver."""
    service = GameService(sqlite_store, render=False)
    await _lobby(service, "arkham-lcg", ai=2, seed=5)
    await service.start(CHANNEL, ALICE)
    shown: list[Reply] = []

    async def show(channel: int, reply: Reply) -> None:
        assert channel == CHANNEL
        shown.append(reply)

    async def pace(channel: int) -> float:
        return 0.0

    driver = AiDriver(service, show, pace)
    for _ in range(3):
        driver.poke(CHANNEL)
    await driver.idle()
    cards = await service.pending(CHANNEL)
    assert cards and all(c.user_ids == [ALICE.user_id] for c in cards)
    game = await sqlite_store.open_game(CHANNEL)
    assert game is not None and game.id is not None
    ai_rows = [r for r in await sqlite_store.actions(game.id) if r.kind == "ai"]
    assert len(shown) == len(ai_rows) >= 2 and all(r.narrated and r.table == game.id for r in shown)


class _Broken:
    """An agent that fails: the table must not stall."""

    def __init__(self, seed: int) -> None:
        self.calls = 0

    def act(self, state: GameState, prompt: Prompt | None = None) -> Action:
        self.calls += 1
        raise RuntimeError("no idea")


async def test_an_agent_that_cannot_decide_never_stalls_the_table(sqlite_store: Store,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 2: a decision the agent cannot make falls back to the prompt's default (else its first answer)."""
    broken = _Broken(0)
    monkeypatch.setattr(ai_seats, "agent_for", lambda game_type, seed: broken)
    service = GameService(sqlite_store, render=False)
    await _lobby(service, "arkham-lcg", ai=1, seed=5)
    await service.start(CHANNEL, ALICE)
    steps = 0
    while await service.ai_step(CHANNEL) is not None:
        steps += 1
    assert steps >= 1 and broken.calls == steps
    assert (await service.pending(CHANNEL))[0].user_ids == [ALICE.user_id]
    why = await service.why(CHANNEL, ALICE)
    assert "routine answer" in why.ephemeral[0]


async def test_a_person_takes_over_an_ai_seat_and_a_moderator_hands_one_back(sqlite_store: Store) -> None:
    """Item 4: "/game join replace:<seat>" while the game runs; "/gm replace player:… bot:True". The game goes on
    from the same state; the log says who played what (each action row's actor)."""
    service = GameService(sqlite_store, render=False)
    await _lobby(service, "arkham3", ai=1, seed=5)
    await service.start(CHANNEL, ALICE)
    while await service.ai_step(CHANNEL) is not None:
        pass
    game = await sqlite_store.open_game(CHANNEL)
    assert game is not None and game.id is not None
    step_before = game.state_step
    with pytest.raises(UserError, match="Seat 1 is alice's, not an AI teammate's"):
        await service.join(CHANNEL, BOB, replace=1)
    reply = await service.join(CHANNEL, BOB, replace=2)
    assert reply.public[0].startswith("bob takes over seat 2 from 🤖 ")
    seats = await _seats(sqlite_store)
    assert seats[1][:2] == (BOB.user_id, "bob") and seats[1][2] is not None
    assert not service.awaits_ai(CHANNEL)
    moved = await sqlite_store.open_game(CHANNEL)
    assert moved is not None and moved.state_step == step_before, "the game goes on from the same state"
    with pytest.raises(UserError, match="Only moderators"):
        await service.gm_replace(CHANNEL, ALICE, BOB.user_id, ai=True)
    reply = await service.gm_replace(CHANNEL, MOD, BOB.user_id, ai=True)
    assert reply.public[0] == "Moderator mod: an AI teammate takes over from bob."
    (_, _, _), (ai_id, name, _) = await _seats(sqlite_store)
    assert ai_id < 0 and name.startswith("🤖 ")
    with pytest.raises(UserError, match="is an AI teammate already"):
        await service.gm_replace(CHANNEL, MOD, None, ai=True, seat=2)
    with pytest.raises(UserError, match="At least one person stays at the table"):
        await service.gm_replace(CHANNEL, MOD, ALICE.user_id, ai=True)


async def test_ai_teammates_have_no_vote_and_the_record_counts_them_apart(sqlite_store: Store) -> None:
    """Abandoning needs every person's vote, not the AI seats'; /stats splits games with and without AI
    teammates (item 6)."""
    service = GameService(sqlite_store, render=False)
    await _lobby(service, "arkham3", ai=1, seed=5)
    await service.start(CHANNEL, ALICE)
    reply = await service.abandon(CHANNEL, ALICE)
    assert reply.applied
    assert await sqlite_store.open_game(CHANNEL) is None, "Alice's vote alone abandons it"
    await service.new_game(CHANNEL, GUILD, ALICE, "arkham3", {}, seed=6)
    await service.start(CHANNEL, ALICE)
    await service.abandon(CHANNEL, ALICE)
    stats = "\n".join((await service.stats(CHANNEL, GUILD)).ephemeral)
    assert "With AI teammates: 1 game, 0 won; without: 1 game, 0 won." in stats


async def test_why_on_a_table_without_ai(sqlite_store: Store) -> None:
    service = GameService(sqlite_store, render=False)
    await service.new_game(CHANNEL, GUILD, ALICE, "arkham3", {}, seed=5)
    await service.start(CHANNEL, ALICE)
    with pytest.raises(UserError, match="This table has no AI teammate"):
        await service.why(CHANNEL, ALICE)


async def test_the_pace_is_a_server_setting(sqlite_store: Store) -> None:
    service = GameService(sqlite_store, render=False)
    await _lobby(service, "arkham3", ai=1, seed=5)
    assert await service.ai_pace(CHANNEL) == ai_seats.DEFAULT_PACE_MS / 1000
    await service.gm_settings(CHANNEL, MOD, GUILD, ai_pace=0.25)
    assert await service.ai_pace(CHANNEL) == 0.25


def test_the_narration_line_is_short_and_says_the_choice_and_its_reason() -> None:
    """Item 3: "🤖 <name>: <what it chose> — <reason>", the choice's label kept to its name when a card's whole
    text rides on it; a routine answer (no reason) adds no line."""
    from engine.agents import Reasoning

    assert ai_seats.short_label("Lucky Penny: After you fail a test, exhaust Lucky Penny: draw 1 card.") == \
        "Lucky Penny"
    assert ai_seats.short_label("Fight Congregant of the Still Water (fight 2, 1 health left)") == \
        "Fight Congregant of the Still Water"
    assert ai_seats.short_label("x" * 20 + " " + "y" * 40).endswith("…")
    assert ai_seats.short_label("Research") == "Research"
    line = ai_seats.narration("🤖 Mae", "The Museum", Reasoning("best odds: 72% to complete it"))
    assert line == "🤖 Mae: The Museum — best odds: 72% to complete it"
    assert ai_seats.narration("🤖 Mae", "Continue", None) is None


async def test_a_moderator_kicks_an_ai_teammate_by_its_seat(sqlite_store: Store) -> None:
    """Item 1: "/gm kick seat:<n>" removes an AI teammate (it has no Discord user to name)."""
    service = GameService(sqlite_store, render=False)
    await _lobby(service, "arkham3", ai=2, seed=5)
    with pytest.raises(UserError, match="Name the player to remove"):
        await service.gm_kick(CHANNEL, MOD, None)
    with pytest.raises(UserError, match="There is no seat 4"):
        await service.gm_kick(CHANNEL, MOD, None, seat=4)
    name = (await _seats(sqlite_store))[1][1]
    reply = await service.gm_kick(CHANNEL, MOD, None, seat=2)
    assert reply.public[0].startswith(f"Moderator mod removed {name} from the table.")
    assert [s[0] for s in await _seats(sqlite_store)] == [ALICE.user_id, -2]


async def test_the_live_message_says_an_ai_teammate_is_deciding(sqlite_store: Store) -> None:
    """While the game waits for an AI seat its question has no controls; the turn's message says who is
    deciding instead ("⏳ 🤖 Noor Haddad is deciding…")."""
    from bot.turns import thinking_text

    service = GameService(sqlite_store, render=False)
    await _lobby(service, "arkham-lcg", ai=1, seed=5)
    await service.start(CHANNEL, ALICE)
    game = await sqlite_store.open_game(CHANNEL)
    assert game is not None and game.id is not None
    view = await service.table(CHANNEL, game.id)
    assert view is not None
    name = (await _seats(sqlite_store))[1][1]
    assert view.thinking == [name]
    assert [c.user_ids for c in view.prompts] == [[ALICE.user_id]], "no controls for the AI's own question"
    assert thinking_text(view.thinking) == f"⏳ {name} is deciding…"
    assert thinking_text(["🤖 A", "🤖 B"]) == "⏳ 🤖 A and 🤖 B are deciding…"
    while await service.ai_step(CHANNEL) is not None:
        pass
    view = await service.table(CHANNEL, game.id)
    assert view is not None and view.thinking == []
