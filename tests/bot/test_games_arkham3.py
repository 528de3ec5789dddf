"""The /ah command layer (issue 13): an action that opens a question is answered by the command's argument
(`/ah move to:X` picks Move, then X in "Move where?"), checked on a copy first so a bad argument changes
nothing; autocomplete lists that question's options; sheet, map and card read the spectator's view."""

from __future__ import annotations

import pytest

from bot import games
from bot.games.arkham3 import commands as ah
from bot.games.arkham3 import readers
from bot.service import GameService
from bot.service_types import UserError
from engine import api
from engine.arkham3.state import ArkhamState
from engine.arkham3.view import ArkhamView
from engine.core.errors import IllegalAction
from engine.core.prompt import Prompt
from tests.bot.conftest import ALICE, BOB, CHANNEL
from tests.bot.helpers import open_table, state_of
from tests.engine.arkham3.support import new_game, prompt, run


async def _to_first_action(service: GameService) -> tuple[ArkhamState, object]:
    """A started 2-player game of The Witch Light, the turn order chosen: (state, the actor whose turn it is)."""
    await open_table(service, ALICE, BOB, game="arkham3", options={"scenario": "witch-light"}, seed=3)
    for _ in range(10):
        state = await state_of(service)
        assert isinstance(state, ArkhamState)
        prompt = api.prompts(state)[0]
        if prompt.title.endswith("choose an action (2 left)"):
            return state, (ALICE, BOB)[prompt.seats[0]]
        actor = (ALICE, BOB)[prompt.seats[0]]
        await service.choose(CHANNEL, actor, prompt.seq, [prompt.options[0].id], seat=prompt.seats[0])
    raise AssertionError("no action prompt reached")


async def test_move_to_answers_both_questions_and_a_bad_place_changes_nothing(service: GameService) -> None:
    """Digest 4.1 Move: up to 2 spaces, 2 more at $1 each; autocomplete shows reachable spaces and cost."""
    state, actor = await _to_first_action(service)
    seat = api.prompts(state)[0].seats[0]
    offered = await games.suggestions(service, CHANNEL, actor.user_id, "ah", "move", "")  # type: ignore[attr-defined]
    assert offered and all(": " in label and "space" in label for label, _ in offered)
    with pytest.raises(UserError, match="not one of"):
        await games.game_command(service, CHANNEL, actor, "ah", "move", {"to": "the moon"})  # type: ignore[arg-type]
    unchanged = await state_of(service)
    assert unchanged.step == state.step  # refused before anything was committed
    label, target = offered[-1]
    await games.game_command(service, CHANNEL, actor, "ah", "move", {"to": target})  # type: ignore[arg-type]
    after = await state_of(service)
    assert isinstance(after, ArkhamState)
    assert after.table[seat].inv is not None and after.table[seat].inv.space == target
    # digest 4.1: no action twice in a round; the refusal says so (issue 30 item 7) and changes nothing
    with pytest.raises(UserError, match="^You already took the Move action this round\\.$"):
        await games.game_command(service, CHANNEL, actor, "ah", "move", {"to": target})  # type: ignore[arg-type]
    assert (await state_of(service)).step == after.step


def _shopping(money: int) -> tuple[ArkhamState, Prompt]:
    """A one-investigator game shopping a display that holds the Hunting Rifle ($4 in our content)."""
    state = new_game()
    state.display = ["a3.item.hunting-rifle", *[c for c in state.display if c != "a3.item.hunting-rifle"]][:4]
    state.table[0].inv.money = money  # type: ignore[union-attr]
    run(state, "shop", 0, discount=0, offer=list(state.display), bought=[])
    return state, prompt(state)


def test_an_item_you_cannot_afford_says_its_price_and_your_money() -> None:
    """Rulebook, Acquiring Assets: an item is bought for its value in money. One too dear is refused with
    its price and what the investigator holds, and nothing changes (issue 30 item 7)."""
    state, shop = _shopping(2)
    assert "a3.item.hunting-rifle" not in {o.id for o in shop.options}
    before = api.to_json(state)
    with pytest.raises(IllegalAction, match="^Hunting Rifle costs \\$4; you have \\$2\\.$"):
        ah.pick(shop, "buy", "Hunting Rifle")
    with pytest.raises(IllegalAction, match="^Hunting Rifle costs \\$4; you have \\$2\\.$"):
        ah.pick(shop, "buy", "rifle")
    assert api.to_json(state) == before
    _, rich = _shopping(5)
    assert ah.pick(rich, "buy", "Hunting Rifle") == "a3.item.hunting-rifle"


def test_a_misspelt_item_is_answered_with_the_closest_name() -> None:
    """Issue 30 item 8: /ah buy item:"Hunting Riffle" suggests the Hunting Rifle, and buys nothing."""
    for money in (5, 0):  # whether the rifle is open or too dear, its name is suggested
        _, shop = _shopping(money)
        with pytest.raises(IllegalAction, match="^'Hunting Riffle' is not an item you can pick now\\. Did you mean "
                           "Hunting Rifle\\?$"):
            ah.pick(shop, "buy", "Hunting Riffle")


def test_move_says_what_it_costs_before_it_is_paid() -> None:
    """Digest 4.1 Move: 2 spaces free, up to 2 more at $1 each. The action and each destination say the money
    it spends before it is chosen (issue 30 item 9)."""
    state = new_game()
    i = state.table[0].inv
    assert i is not None
    i.money = 1
    run(state, "action", 0)
    move = next(o for o in prompt(state).options if o.id == "move")
    assert move.label == "Move (up to 2 spaces; 1 more at $1)"
    i.money = 0
    run(state, "action", 0)
    assert next(o for o in prompt(state).options if o.id == "move").label == "Move (up to 2 spaces)"
    i.money = 3
    run(state, "move", 0)
    labels = [o.label for o in prompt(state).options]
    far = [label for label in labels if "3 spaces" in label or "4 spaces" in label]
    assert far and all(", pay $1" in label or ", pay $2" in label for label in far)
    assert all("pay" not in label for label in labels if " 1 space" in label or " 2 spaces" in label)


def test_a_space_beyond_this_move_says_how_far_it_is_and_how_far_the_move_goes() -> None:
    """Digest 4.1 Move: 2 spaces free and at most 2 more at $1 each. A space beyond that is refused with its
    distance and what this Move covers with the investigator's money (issue 30 item 7)."""
    state = new_game()
    i = state.table[0].inv
    assert i is not None
    i.money = 1
    run(state, "move", 0)
    where = prompt(state)
    lane = next(o.id for o in where.options if o.label == "Parsonage Lane: 3 spaces, pay $1")
    assert ah.follow(where, "move", "Parsonage Lane") == lane
    with pytest.raises(IllegalAction, match="^Old Quarry Road is 4 spaces away; this Move goes 2 spaces free and 1 "
                       "more at \\$1\\.$"):
        ah.follow(where, "move", "Old Quarry Road")
    i.money = 0
    run(state, "move", 0)
    with pytest.raises(IllegalAction, match="^Parsonage Lane is 3 spaces away; this Move goes 2 spaces, and you have "
                       "no money to pay for more\\.$"):
        ah.follow(prompt(state), "move", "Parsonage Lane")


async def test_focus_skill_and_readers(service: GameService) -> None:
    state, actor = await _to_first_action(service)
    seat = api.prompts(state)[0].seats[0]
    await games.game_command(service, CHANNEL, actor, "ah", "focus", {"skill": "lore"})  # type: ignore[arg-type]
    after = await state_of(service)
    assert isinstance(after, ArkhamState)
    assert after.table[seat].inv is not None and "lore" in after.table[seat].inv.focus
    view = api.view(after, None)
    assert isinstance(view, ArkhamView)
    sheet = readers.sheet_text(view, None, seat)
    assert "Lore" in sheet and "(focused)" in sheet and "Health" in sheet
    here = readers.map_text(view, None, seat)
    assert "Adjacent:" in here and "Here now:" in here
    reply = await games.game_command(service, CHANNEL, BOB, "ah", "sheet", {"player": f"<@{ALICE.user_id}>"})
    assert "— alice" in reply.ephemeral[0]
    assert readers.card_text("ghoul").startswith("**Ghoul** (monster)")
