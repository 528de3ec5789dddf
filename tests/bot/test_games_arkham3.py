"""The /ah command layer (issue 13): an action that opens a question is answered by the command's argument
(`/ah move to:X` picks Move, then X in "Move where?"), checked on a copy first so a bad argument changes
nothing; autocomplete lists that question's options; sheet, map and card read the spectator's view."""

from __future__ import annotations

import pytest

from bot import games
from bot.games.arkham3 import readers
from bot.service import GameService
from bot.service_types import UserError
from engine import api
from engine.arkham3.state import ArkhamState
from engine.arkham3.view import ArkhamView
from tests.bot.conftest import ALICE, BOB, CHANNEL
from tests.bot.helpers import open_table, state_of


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
    with pytest.raises(UserError, match="can't /ah move now"):
        await games.game_command(service, CHANNEL, actor, "ah", "move", {"to": target})  # type: ignore[arg-type]


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
