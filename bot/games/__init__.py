"""Game-specific commands (`/es …` for Elder Sign), routed from `GameService.game_command` by each game's bot
manifest (`BOT` in `bot/games/<game>/__init__.py`, see bot/games/manifest.py).

A game command that acts is a shortcut for answering the pending prompt through `GameService.choose`, with
the game id and undo count of the state it was picked from, so it passes the same checks and commits the
same way as a button click. Read-only commands read the latest committed state through the service's cache.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any, Protocol

from bot.games.manifest import BotGame, Commands, Reader, by_group, commands_of
from bot.service_text import chunk_lines
from bot.service_types import Actor, CommandStep, PromptCard, Reply, UserError
from engine import api
from engine.core.errors import IllegalAction
from engine.core.game import GameState
from engine.core.prompt import Action, Prompt

#: how a Discord user reaches a read-only command's `player` argument (the cog passes `member.mention`)
USER_MENTION = re.compile(r"<@!?(\d+)>")



class GameService(Protocol):
    """What a game's commands need of the service (the service itself, seen from here: this package is below
    it, so it names the calls rather than importing the class)."""

    async def command_step(self, channel_id: int, game_type: str | None, user_id: int) -> CommandStep: ...

    async def choose(self, channel_id: int, actor: Actor, prompt_seq: int, choice: list[str],
                     amount: int | None = None, seat: int | None = None, *, game_id: int | None = None,
                     epoch: int | None = None) -> Reply: ...

    async def pending(self, channel_id: int) -> list[PromptCard]: ...


def _game(group: str, name: str) -> BotGame:
    game = by_group(group)
    if game is None or commands_of(game) is None:
        raise UserError(f"Unknown command /{group} {name}.")
    return game


def _my_prompt(step: CommandStep) -> Prompt:
    if step.state.over:
        raise UserError("This game is over.")
    for p in step.prompts:
        if any(s in p.seats for s in step.seats):
            return p
    waiting = ", ".join(step.state.seat_name(s) for p in step.prompts for s in p.seats)
    raise UserError(f"The game is not waiting for you right now (waiting for {waiting}).")


async def game_command(service: GameService, channel_id: int, actor: Actor, group: str, name: str,
                       args: dict[str, str]) -> Reply:
    game = _game(group, name)
    commands = commands_of(game)
    assert commands is not None
    reader = commands.readers.get(name)
    if reader is not None and not reader[0]:
        # a reader that works without a game still reads the channel's game when there is one (a card
        # lookup prefers the asker's own cards, a map shows what stands on a space)
        try:
            step = await service.command_step(channel_id, game.game, actor.user_id)
        except UserError:
            return await _read(reader[1], None, None, args)
        return await _read(reader[1], step.state, _asking_seat(step), args)
    step = await service.command_step(channel_id, game.game, actor.user_id)
    state, mine = step.state, step.seats
    if reader is not None:
        mention = USER_MENTION.fullmatch(args.get("player", ""))
        if mention:  # a Discord user picked in the command: the reader is given their seat
            theirs = (await service.command_step(channel_id, game.game, int(mention[1]))).seats
            if not theirs:
                raise UserError("That player has no seat in this game.")
            args = {**args, "player": f"seat:{theirs[0]}"}
        reply = await _read(reader[1], state, _asking_seat(step), args)
        if name in commands.with_controls:
            reply.prompts = [c for c in await service.pending(channel_id) if actor.user_id in c.user_ids]
        return reply
    if name not in commands.shortcuts:
        known = ", ".join([*commands.shortcuts, *commands.readers])
        raise UserError(f"Unknown command /{group} {name}. Commands: {known}.")
    prompt = _my_prompt(step)
    argument = commands.arguments.get(name)
    try:
        option = commands.pick(prompt, name, args.get(argument) if argument else None)
    except IllegalAction as exc:
        raise UserError(str(exc)) from exc
    seat = next(s for s in prompt.seats if s in mine)
    value = args.get(argument) if argument else None
    then = _question_answered(commands, name, value, state, prompt, seat, option)  # checked before any commit
    game_id, epoch = step.game_id, step.epoch
    first = await service.choose(channel_id, actor, prompt.seq, [option], seat=seat, game_id=game_id, epoch=epoch)
    if then is None:
        return first
    question, answer = then
    return merged(first, await service.choose(channel_id, second_step(actor), question.seq, [answer], seat=seat,
                                              game_id=game_id, epoch=epoch))


def _question_answered(commands: Commands, name: str, value: str | None, state: GameState, prompt: Prompt,
                       seat: int, option: str) -> tuple[Prompt, str] | None:
    """For a command whose option opens a question (`Commands.follow`): that question, asked on a copy of the
    game, and the command's answer to it; None when the game goes on without asking it. A bad answer is an
    error here, before anything is committed."""
    follow = commands.follow.get(name)
    if follow is None:
        return None
    trial, _ = api.apply(state, Action(seat=seat, prompt=prompt.seq, choice=[option]), prompt=prompt)
    question = next((p for p in api.prompts(trial) if seat in p.seats), None)
    if question is None:
        return None
    try:
        answer = follow(question, name, value)
    except IllegalAction as exc:
        raise UserError(str(exc)) from exc
    return (question, answer) if answer is not None else None


def second_step(actor: Actor) -> Actor:
    """The actor of a command's second answer. A replayed interaction is applied once, by its id: the second
    step carries the id's negative (Discord's ids are positive), so a replay of the whole command still
    finds both steps done, and the second is not mistaken for a replay of the first."""
    if actor.interaction_id is None:
        return actor
    return Actor(actor.user_id, actor.name, actor.is_moderator, -actor.interaction_id)


def merged(first: Reply, second: Reply) -> Reply:
    """One reply for two steps taken by one command."""
    return Reply(public=[*first.public, *second.public], ephemeral=[*first.ephemeral, *second.ephemeral],
                 images=[*first.images, *second.images], prompts=second.prompts,
                 files=[*first.files, *second.files], closed_game_id=second.closed_game_id or first.closed_game_id,
                 applied=True, table=second.table or first.table, sections=[*first.sections, *second.sections],
                 refresh=first.refresh or second.refresh, narrated=first.narrated and second.narrated)


def _asking_seat(step: CommandStep) -> int | None:
    """The seat a read-only command speaks for: the one the game is asking, else the user's first."""
    mine = step.seats
    asked = next((p for p in step.prompts if any(s in p.seats for s in mine)), None)
    if asked is not None:
        return next(s for s in asked.seats if s in mine)
    return mine[0] if mine else None


async def _read(reader: Reader, state: GameState | None, seat: int | None, args: dict[str, str]) -> Reply:
    try:
        text = await asyncio.to_thread(reader, state, seat, args)
    except IllegalAction as exc:
        raise UserError(str(exc)) from exc
    return Reply(ephemeral=chunk_lines(text.splitlines()))


async def suggestions(service: GameService, channel_id: int, user_id: int, group: str, name: str,
                      current: str) -> list[tuple[str, str]]:
    """Autocomplete for a game command's argument: the matching options of the user's pending prompt."""
    game = by_group(group)
    commands = commands_of(game) if game is not None else None
    if game is None or commands is None:
        return []
    try:
        step = await service.command_step(channel_id, game.game, user_id)
        prompt = _my_prompt(step)
    except UserError:
        return []
    state, mine = step.state, step.seats
    if name in commands.follow:  # the argument answers the question the command's option opens
        try:
            option = commands.pick(prompt, name, None)
        except IllegalAction:
            return []
        seat = next(s for s in prompt.seats if s in mine)
        trial, _ = await asyncio.to_thread(api.apply, state, Action(seat=seat, prompt=prompt.seq, choice=[option]),
                                           prompt=prompt)
        then = next((p for p in api.prompts(trial) if seat in p.seats), None)
        return commands.suggestions(then, name, current) if then is not None else []
    return commands.suggestions(prompt, name, current)


async def game_record(service: GameService, channel_id: int, actor: Actor) -> Reply | None:
    """The channel's game's own campaign record (`Commands.record`), for `/campaign log` in a channel with no
    campaign: None when the channel has no started game (its last one counts once over), or it keeps no record."""
    from bot.games.manifest import bot_games

    try:
        step = await service.command_step(channel_id, None, actor.user_id)
    except UserError:
        return None
    game = bot_games().get(step.state.game)
    commands = commands_of(game) if game is not None else None
    if commands is None or commands.record is None:
        return None
    reply = await _read(commands.record, step.state, _asking_seat(step), {})
    return Reply(public=reply.ephemeral)


def seat_text(game_type: str, view: Any, seat: int) -> list[str] | None:
    """A game's own wording of one seat's private view (`/game me`), or None for the generic listing."""
    from bot.games.manifest import bot_games

    game = bot_games().get(game_type)
    commands = commands_of(game) if game is not None else None
    if commands is None or commands.seat_text is None:
        return None
    return commands.seat_text(view, seat)
