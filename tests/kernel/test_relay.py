"""The kernel proven on a throwaway game added through the manifests alone (issue "one engine for four games",
done-when): a question every seat answers at once, a "when" reaction that cancels an event by its frame id, a
forced "after" trigger, JSON round trips mid-question, and a whole game in the offline console."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.console import Console, help_text
from bot.games.manifest import BotGame, bot_games, register_bot_game
from bot.service import GameService
from bot.store import Store
from engine import api
from engine.core.errors import IllegalAction
from engine.core.game import SeatSpec
from engine.core.prompt import Action
from engine.games import game_ids, register
from tests.kernel.relay import MANIFEST, RelayState, RelayView

register(MANIFEST)
register_bot_game(BotGame(game="relay", group="relay", help="/relay: (no commands; answer with choose)"))

SEATS = [SeatSpec(seat=0, name="alice"), SeatSpec(seat=1, name="bob")]


def start() -> RelayState:
    state, _ = api.new_game("relay", SEATS, {}, 1)
    assert isinstance(state, RelayState)
    return state


def answer(state: RelayState, seat: int, choice: str) -> RelayState:
    prompt = next(p for p in api.prompts(state) if seat in p.seats)
    new, _ = api.apply(state, Action(seat=seat, prompt=prompt.seq, choice=[choice]))
    assert isinstance(new, RelayState)
    assert api.from_json(api.to_json(new)) == new  # every step round-trips, pending questions included
    return new


def test_registered_through_its_manifests_only() -> None:
    assert "relay" in game_ids() and "relay" in bot_games()
    assert "/relay" in help_text()


def test_every_seat_is_asked_at_once_and_answers_in_any_order() -> None:
    state = start()
    pending = api.prompts(state)
    assert [p.seats for p in pending] == [[0], [1]] and pending[0].seq != pending[1].seq
    state = answer(state, 1, "3")  # bob first
    assert [p.seats for p in api.prompts(state)] == [[0]]
    assert [p.seq for p in api.prompts(state)] == [pending[0].seq]  # alice's question did not change
    with pytest.raises(IllegalAction):  # bob cannot answer twice
        api.apply(state, Action(seat=1, prompt=pending[1].seq, choice=["2"]))
    state = answer(state, 0, "2")
    # the when window: only alice holds a response, so only she is asked; bob auto-passes
    assert [p.seats for p in api.prompts(state)] == [[0]]
    assert {o.id for o in api.prompts(state)[0].options} == {"ward", "pass"}


def test_a_when_reaction_cancels_the_event_and_its_after_window() -> None:
    state = start()
    state = answer(answer(state, 0, "3"), 1, "3")
    state = answer(state, 0, "ward")
    assert state.score == 0 and state.ward_used  # cancelled: no scoring, and no "after" echo
    assert state.round == 2


def test_passing_lets_the_event_happen_and_forced_after_triggers_resolve() -> None:
    state = start()
    state = answer(answer(state, 0, "3"), 1, "2")
    state = answer(state, 0, "pass")
    assert state.score == 5 + 1  # the picks, then the forced Echo after the scoring


def test_the_typed_view_hides_the_picks() -> None:
    state = answer(start(), 1, "3")
    view = api.view(state, 0)
    assert isinstance(view, RelayView) and view.picked == [1]
    assert "3" not in view.model_dump_json().replace('"target":12', "")


async def test_a_whole_game_in_the_console(sqlite_store: Store, tmp_path: Path) -> None:
    out: list[str] = []
    console = Console(GameService(sqlite_store, render=False), tmp_path, seed=3, write=out.append)
    script = ["alice /game new game:relay", "bob /game join", "alice /game start",
              "bob choose 3", "alice choose 3",  # round 1, in any order
              "alice choose ward",  # when: cancel the scoring
              # the Ward is spent: nobody has a response any more, so the when windows pass unasked
              "alice choose 3", "bob choose 3",  # round 2: 6 + the forced echo 1
              "bob choose 3", "alice choose 3"]  # round 3: 6 + 1 = 14 >= 12
    bad = await console.run_lines(script)
    text = "\n".join(out)
    assert bad == 0, text
    assert "The Ward flares" in text and "An echo adds 1: 14/12." in text and "The relay is complete!" in text


async def test_gm_skip_names_whose_question_when_several_are_asked(sqlite_store: Store) -> None:
    """Several seats asked at once: each player gets their own prompt card; /gm skip needs the player, skips only
    theirs, and the other player's question is untouched."""
    from bot.service_types import UserError
    from tests.bot.conftest import ALICE, BOB, MOD

    service = GameService(sqlite_store, render=False)
    await service.new_game(5, 1, ALICE, "relay", {}, seed=1)
    await service.join(5, BOB)
    await service.start(5, ALICE)
    cards = await service.pending(5)
    assert sorted(c.user_ids for c in cards) == [[ALICE.user_id], [BOB.user_id]]
    with pytest.raises(UserError, match="Several players are being asked at once"):
        await service.gm_skip(5, MOD)
    await service.gm_skip(5, MOD, BOB.user_id)
    left = await service.pending(5)
    assert [c.user_ids for c in left] == [[ALICE.user_id]]
    assert left[0].prompt.seq == next(c.prompt.seq for c in cards if c.user_ids == [ALICE.user_id])
