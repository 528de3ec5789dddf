"""The engine contract through engine/api.py (DESIGN.md "The engine contract", "Tests" 2), for the test-only
Countdown game and for Elder Sign, under random legal play from random seeds:

* JSON round trip exact at every step; `replay` reproduces the final state;
* `apply` without in_place never mutates its input;
* an illegal action (stale seq, wrong seat, bogus option) raises IllegalAction and changes nothing,
  with in_place=False and with in_place=True;
* legal actions exist exactly while the game is not over;
* `new_game` rejects bad player counts and bad options; unknown games raise UnknownGame.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import api
from engine.core.errors import IllegalAction, UnknownGame
from engine.core.game import GameState, SeatSpec
from engine.core.prompt import Action, Prompt, PromptKind
from engine.elder_sign.state import ElderSignState
from engine.games import game_ids, get_game, register

register("countdown", "tests.support.countdown:RULES")

PLAYERS = {"countdown": (1, 4), "elder-sign": (1, 8)}
MAX_ACTIONS = {"countdown": 200, "elder-sign": 120}
#: whole playouts per property: a third of the profile's budget (13 of the default 40; 166 under "thorough"), as
#: each example plays up to 120 Elder Sign actions and checks every one of them (the five properties below took
#: four minutes of the README's test run at 40)
PLAYOUTS = max(5, (settings.default.max_examples or 40) // 3)


def seats(n: int) -> list[SeatSpec]:
    return [SeatSpec(seat=i, name=f"P{i + 1}") for i in range(n)]


@st.composite
def games(draw: st.DrawFn) -> tuple[str, int, int, dict[str, Any], int]:
    """(game id, seed, players, options, seed of the random player)."""
    game = draw(st.sampled_from(sorted(PLAYERS)))
    lo, hi = PLAYERS[game]
    players = draw(st.integers(lo, hi))
    seed = draw(st.integers(0, 2**64 - 1))
    options: dict[str, Any] = {}
    if game == "countdown":
        options = {"start": draw(st.integers(3, 30))}
    elif draw(st.booleans()):
        spec = get_game(game).option_specs()[0]
        options = {spec.id: draw(st.sampled_from([c.id for c in spec.choices]))}
    return game, seed, players, options, draw(st.integers(0, 2**32 - 1))


def pick(state: GameState, rnd: random.Random) -> Action:
    p = rnd.choice(api.prompts(state))
    return rnd.choice(p.answers(rnd.choice(p.seats)))


def playout(game: str, seed: int, players: int, options: dict[str, Any], player_seed: int,
            ) -> Iterator[tuple[GameState, Action | None]]:
    """Yield (state, the action about to be applied) from setup until the game ends or the cap; the last
    state is yielded with None. Each state is a fresh object (apply without in_place)."""
    rnd = random.Random(player_seed)
    state, _ = api.new_game(game, seats(players), options, seed)
    for _ in range(MAX_ACTIONS[game]):
        if state.over:
            break
        action = pick(state, rnd)
        yield state, action
        state, _ = api.apply(state, action)
    yield state, None


def assert_round_trip(state: GameState) -> None:
    text = api.to_json(state)
    again = api.from_json(text)
    assert type(again) is type(state)
    assert again == state
    assert api.to_json(again) == text
    assert api.from_json(api.to_json(again)) == state


# ---------------------------------------------------------------- round trip, replay, purity of apply


@settings(max_examples=PLAYOUTS)
@given(games())
def test_json_round_trip_is_exact_at_every_step(g: tuple[str, int, int, dict[str, Any], int]) -> None:
    for state, _ in playout(*g):
        assert_round_trip(state)


@settings(max_examples=PLAYOUTS)
@given(games())
def test_a_restored_game_continues_identically(g: tuple[str, int, int, dict[str, Any], int]) -> None:
    """Save and load before every action: the game goes on exactly as it would have (the RNG lives in the
    state, pending resolutions are data)."""
    for state, action in playout(*g):
        if action is None:
            break
        live, live_events = api.apply(state, action)
        restored, restored_events = api.apply(api.from_json(api.to_json(state)), action)
        assert api.to_json(restored) == api.to_json(live)
        assert restored_events == live_events


@given(games())
def test_replay_reproduces_the_final_state(g: tuple[str, int, int, dict[str, Any], int]) -> None:
    game, seed, players, options, _ = g
    actions: list[Action] = []
    final: GameState | None = None
    all_events = list(api.new_game(game, seats(players), options, seed)[1])
    for state, action in playout(*g):
        final = state
        if action is not None:
            actions.append(action)
            all_events += api.apply(state, action)[1]
    assert final is not None
    again, events = api.replay(game, seats(players), options, seed, actions)
    assert again == final
    assert api.to_json(again) == api.to_json(final)
    assert events == all_events
    # the action log itself is plain data
    logged = [Action.model_validate_json(a.model_dump_json()) for a in actions]
    assert api.replay(game, seats(players), options, seed, logged)[0] == final


@settings(max_examples=PLAYOUTS)
@given(games())
def test_apply_without_in_place_never_mutates_its_input(g: tuple[str, int, int, dict[str, Any], int]) -> None:
    rnd = random.Random(g[4] + 1)
    for state, action in playout(*g):
        if action is None:
            break
        before = api.to_json(state)
        after, _ = api.apply(state, action)
        assert after is not state
        assert api.to_json(state) == before
        assert after.step == state.step + 1
        # the copy shares nothing mutable with the input: playing on in place leaves the input alone
        if not after.over:
            api.apply(after, pick(after, rnd), in_place=True)
        assert api.to_json(state) == before


def test_apply_in_place_returns_the_same_object() -> None:
    state, _ = api.new_game("countdown", seats(2), {}, 1)
    p = api.prompts(state)[0]
    same, _ = api.apply(state, p.answers(p.seats[0])[0], in_place=True)
    assert same is state and state.step == 1


# ---------------------------------------------------------------- illegal actions change nothing


def illegal_actions(state: GameState, players: int) -> list[tuple[str, Action]]:
    out: list[tuple[str, Action]] = []
    p: Prompt = api.prompts(state)[0]
    seat = p.seats[0]
    good = p.answers(seat)[0]
    out.append(("stale seq", good.model_copy(update={"prompt": p.seq - 1})))
    out.append(("future seq", good.model_copy(update={"prompt": state.prompt_seq + 1})))
    others = [s for s in range(players) if all(s not in q.seats for q in api.prompts(state))]
    for s in others[:2] + [players, 99, -1]:
        out.append(("wrong seat", good.model_copy(update={"seat": s})))
    if p.kind is PromptKind.AMOUNT:
        out.append(("amount too big", good.model_copy(update={"amount": p.max_amount + 1})))
        out.append(("no amount", good.model_copy(update={"amount": None})))
    else:
        out.append(("bogus option", good.model_copy(update={"choice": ["bogus-option"]})))
        out.append(("bogus extra", good.model_copy(update={"choice": [*good.choice, "bogus-option"]})))
        if p.kind is not PromptKind.MANY or p.min_choices > 0:
            out.append(("empty choice", good.model_copy(update={"choice": []})))
        if good.choice:
            out.append(("duplicate", good.model_copy(update={"choice": [*good.choice, good.choice[0]]})))
    return out


def assert_rejected_without_change(state: GameState, action: Action, why: str) -> None:
    before = api.to_json(state)
    for in_place in (False, True):
        with pytest.raises(IllegalAction) as info:
            api.apply(state, action, in_place=in_place)
        assert str(info.value), why
        assert api.to_json(state) == before, f"{why} (in_place={in_place}) changed the state"
        with pytest.raises(IllegalAction):
            api.validate(state, action)


@settings(max_examples=PLAYOUTS)
@given(games())
def test_illegal_actions_raise_and_change_nothing(g: tuple[str, int, int, dict[str, Any], int]) -> None:
    players = g[2]
    for state, action in playout(*g):
        if action is None:
            break
        for why, bad in illegal_actions(state, players):
            assert_rejected_without_change(state, bad, why)


@settings(max_examples=PLAYOUTS)
@given(games())
def test_a_finished_game_accepts_nothing(g: tuple[str, int, int, dict[str, Any], int]) -> None:
    last = None
    previous_action = None
    for state, action in playout(*g):
        last = state
        if action is not None:
            previous_action = action
    assert last is not None
    if not last.over:
        return
    assert api.prompts(last) == []
    assert api.prompt_for(last, 0) is None
    assert previous_action is not None
    for bad in (previous_action, previous_action.model_copy(update={"prompt": last.prompt_seq})):
        assert_rejected_without_change(last, bad, "game over")
    summary = api.summary(last)
    assert summary.over and summary.result == last.result and summary.waiting_for == []


def test_a_countdown_action_answered_twice_is_stale() -> None:
    state, _ = api.new_game("countdown", seats(1), {"start": 10}, 3)
    a = Action(seat=0, prompt=api.prompts(state)[0].seq, choice=["1"])
    state, _ = api.apply(state, a)
    with pytest.raises(IllegalAction, match="moved on"):
        api.apply(state, a)


def test_countdown_refuses_taking_below_zero() -> None:
    state, _ = api.new_game("countdown", seats(1), {"start": 3}, 0)
    state, _ = api.apply(state, Action(seat=0, prompt=api.prompts(state)[0].seq, choice=["2"]))
    p = api.prompts(state)[0]
    assert {o.id for o in p.options} == {"1", "pass"}
    assert_rejected_without_change(state, Action(seat=0, prompt=p.seq, choice=["3"]), "below zero")


# ---------------------------------------------------------------- legal actions exist exactly while playing


@settings(max_examples=PLAYOUTS)
@given(games())
def test_legal_actions_exist_exactly_when_the_game_is_not_over(g: tuple[str, int, int, dict[str, Any], int]) -> None:
    players = g[2]
    for state, _ in playout(*g):
        per_seat = {s: api.legal_actions(state, s) for s in range(players)}
        assert any(per_seat.values()) == (not state.over)
        waiting = {s for p in api.prompts(state) for s in p.seats}
        for s, acts in per_seat.items():
            assert bool(acts) == (s in waiting)
            for a in acts:
                api.validate(state, a)
            if s in waiting:
                assert api.prompt_for(state, s) is not None
        assert api.legal_actions(state, players + 5) == []
        for p in api.prompts(state):
            if p.default is not None or p.default_amount is not None:  # what a moderator's "skip" answers
                api.validate(state, Action(seat=p.seats[0], prompt=p.seq, choice=p.default or [],
                                           amount=p.default_amount))
        summary = api.summary(state)
        assert summary.over == state.over
        assert sorted(summary.waiting_for) == sorted(waiting)


# ---------------------------------------------------------------- new_game and the registry


@pytest.mark.parametrize("game", sorted(PLAYERS))
def test_new_game_rejects_bad_player_counts(game: str) -> None:
    lo, hi = PLAYERS[game]
    rules = get_game(game)
    assert (rules.min_players, rules.max_players) == (lo, hi)
    for n in (0, hi + 1, hi + 5):
        with pytest.raises(IllegalAction, match=f"{lo} to {hi}"):
            api.new_game(game, seats(n), {}, 0)
    for n in (lo, hi):
        state, events = api.new_game(game, seats(n), {}, 0)
        assert len(state.seats) == n and events and not state.over


@pytest.mark.parametrize(("game", "options", "match"), [
    ("countdown", {"nope": 1}, "Unknown option 'nope'"),
    ("countdown", {"start": 2}, "from 3 to 30"),
    ("countdown", {"start": 31}, "from 3 to 30"),
    ("countdown", {"start": "ten"}, "whole number"),
    ("countdown", {"start": None}, "whole number"),
    ("elder-sign", {"ancient_one": "not-an-ancient-one"}, "must be one of"),
    ("elder-sign", {"ancient_one": 3}, "must be one of"),
    ("elder-sign", {"colour": "red"}, "Unknown option 'colour'"),
])
def test_new_game_rejects_bad_options(game: str, options: dict[str, Any], match: str) -> None:
    with pytest.raises(IllegalAction, match=match):
        api.new_game(game, seats(2), options, 0)


def test_new_game_fills_option_defaults() -> None:
    state, _ = api.new_game("countdown", seats(1), {}, 0)
    assert state.options == {"start": 10}
    state, _ = api.new_game("countdown", seats(1), {"start": "12"}, 0)
    assert state.options == {"start": 12}
    es, _ = api.new_game("elder-sign", seats(1), {}, 0)
    assert es.options == {"ancient_one": "random"}


def test_elder_sign_every_ancient_one_option_starts_a_game() -> None:
    spec = get_game("elder-sign").option_specs()[0]
    chosen = [c.id for c in spec.choices if c.id != "random"]
    assert len(chosen) == 8
    for ao in chosen:
        state, _ = api.new_game("elder-sign", seats(2), {"ancient_one": ao}, 7)
        assert isinstance(state, ElderSignState)
        assert state.ao == f"es.ao.{ao}"


def test_elder_sign_rejects_bad_characters() -> None:
    one = get_game("elder-sign").characters()[0].id
    twins = [SeatSpec(seat=0, name="A", character=one), SeatSpec(seat=1, name="B", character=one)]
    with pytest.raises(IllegalAction, match="same investigator"):
        api.new_game("elder-sign", twins, {}, 0)
    with pytest.raises(IllegalAction, match="no investigator called 'nobody'"):
        api.new_game("elder-sign", [SeatSpec(seat=0, name="A", character="nobody")], {}, 0)
    state, _ = api.new_game("elder-sign", [SeatSpec(seat=0, name="A", character=one)], {}, 0)
    assert isinstance(state, ElderSignState)
    assert state.table[0].investigator is not None
    assert state.table[0].investigator.card == f"es.inv.{one}"


def test_same_inputs_same_game_different_seed_different_game() -> None:
    a, _ = api.new_game("elder-sign", seats(3), {}, 11)
    b, _ = api.new_game("elder-sign", seats(3), {}, 11)
    c, _ = api.new_game("elder-sign", seats(3), {}, 12)
    assert api.to_json(a) == api.to_json(b)
    assert api.to_json(a) != api.to_json(c)


def test_unknown_game_id() -> None:
    with pytest.raises(UnknownGame, match="no game called 'chess'"):
        api.new_game("chess", seats(2), {}, 0)
    with pytest.raises(UnknownGame):
        get_game("chess")
    state, _ = api.new_game("countdown", seats(1), {}, 0)
    doc = json.loads(api.to_json(state))
    doc["game"] = "chess"
    with pytest.raises(UnknownGame):
        api.from_json(json.dumps(doc))


def test_registry_lists_elder_sign_and_registered_games() -> None:
    ids = game_ids()
    assert "elder-sign" in ids and "countdown" in ids
    assert get_game("countdown") is get_game("countdown")


def test_apply_with_the_callers_prompt_still_refuses_bad_answers() -> None:
    """Simulations pass the prompt they just built (api.apply(prompt=...)); the answer is still validated
    against it before anything changes."""
    from engine.core.game import SeatSpec as _Seat
    from engine.core.prompt import Action as _Action

    state, _ = api.new_game("elder-sign", [_Seat(seat=0, name="a")], {}, 3)
    prompt = api.prompts(state)[0]
    before = api.to_json(state)
    with pytest.raises(IllegalAction):
        api.apply(state, _Action(seat=0, prompt=prompt.seq, choice=["no-such-option"]), in_place=True,
                  prompt=prompt)
    assert api.to_json(state) == before
    good = prompt.answers(0)[0]
    new, _ = api.apply(state, good, in_place=True, prompt=prompt)
    assert new.step == 1
