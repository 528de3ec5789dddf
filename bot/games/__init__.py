"""Game-specific commands (`/es …` for Elder Sign), routed from `GameService.game_command`.

A game command that acts is a shortcut for answering the pending prompt through `GameService.choose`, so
it passes the same checks and commits the same way as a button click. Read-only commands read the latest
committed state.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from bot.service_types import Actor, Reply, UserError
from engine import api
from engine.core.errors import IllegalAction
from engine.core.game import GameState
from engine.core.prompt import Prompt

if TYPE_CHECKING:
    from bot.service import GameService

GROUPS = {"es": "elder-sign"}


async def _state(service: GameService, channel_id: int, game_type: str) -> tuple[GameState, dict[int, list[int]]]:
    game = await service.store.open_game(channel_id)
    if game is None or game.id is None:
        raise UserError("There is no game in this channel. Start one with /game new.")
    if game.game_type != game_type:
        raise UserError(f"This channel's game is {game.game_type}, not {game_type}.")
    snap = await service.store.latest_snapshot(game.id)
    if snap is None:
        raise UserError("The game has not started yet: /game start.")
    seats: dict[int, list[int]] = {}
    for s in await service.store.seats(game.id):
        seats.setdefault(s.user_id, []).append(s.seat)
    return api.from_json(snap.state), seats


def _my_prompt(state: GameState, my_seats: list[int]) -> Prompt:
    prompts = api.prompts(state)
    if state.over:
        raise UserError("This game is over.")
    for p in prompts:
        if any(s in p.seats for s in my_seats):
            return p
    waiting = ", ".join(state.seat_name(s) for p in prompts for s in p.seats)
    raise UserError(f"The game is not waiting for you right now (waiting for {waiting}).")


async def game_command(service: GameService, channel_id: int, actor: Actor, group: str, name: str,
                       args: dict[str, str]) -> Reply:
    game_type = GROUPS.get(group)
    if game_type is None:
        raise UserError(f"Unknown command /{group} {name}.")
    from bot.games import elder_sign as es

    if name == "card":
        try:
            return Reply(ephemeral=[es.card_text(args.get("name", ""))])
        except IllegalAction as exc:
            raise UserError(str(exc)) from exc
    state, seats = await _state(service, channel_id, game_type)
    mine = seats.get(actor.user_id, [])
    if name == "odds":
        if not mine:
            raise UserError("You have no seat in this game.")
        seat = mine[0]
        prompt = next((p for p in api.prompts(state) if any(s in p.seats for s in mine)), None)
        if prompt is not None:
            seat = next(s for s in prompt.seats if s in mine)
        try:
            text = await asyncio.to_thread(es.odds_text, state, seat, args.get("place"))  # type: ignore[arg-type]
        except IllegalAction as exc:
            raise UserError(str(exc)) from exc
        return Reply(ephemeral=[text])
    if name not in es.SHORTCUTS:
        raise UserError(f"Unknown command /{group} {name}. Commands: {', '.join(es.SHORTCUTS)}, odds, card.")
    prompt = _my_prompt(state, mine)
    shortcut = es.SHORTCUTS[name]
    try:
        option = es.pick(prompt, name, args.get(shortcut.argument or "", None) if shortcut.argument else None)
    except IllegalAction as exc:
        raise UserError(str(exc)) from exc
    return await service.choose(channel_id, actor, prompt.seq, [option])


async def suggestions(service: GameService, channel_id: int, user_id: int, group: str, name: str,
                      current: str) -> list[tuple[str, str]]:
    """Autocomplete for a game command's argument: the matching options of the user's pending prompt."""
    game_type = GROUPS.get(group)
    if game_type is None:
        return []
    from bot.games import elder_sign as es

    try:
        state, seats = await _state(service, channel_id, game_type)
        prompt = _my_prompt(state, seats.get(user_id, []))
    except UserError:
        return []
    return es.suggestions(prompt, name, current)


def seat_text(game_type: str, view: dict[str, object], seat: int) -> list[str] | None:
    """A game's own wording of one seat's private view (`/game me`), or None for the generic listing."""
    if game_type == "elder-sign":
        from bot.games import elder_sign as es

        return es.seat_text(view, seat)  # type: ignore[arg-type]
    return None
