"""Small helpers shared by the service tests."""

from __future__ import annotations

from bot.service import Actor, GameService, PromptCard, latest_state
from engine.core.game import GameState
from tests.bot.conftest import CHANNEL, GUILD

_next_interaction = [10_000]


def clicking(actor: Actor) -> Actor:
    """The actor with a fresh interaction id, as each Discord click has."""
    _next_interaction[0] += 1
    return Actor(actor.user_id, actor.name, actor.is_moderator, _next_interaction[0])


async def open_table(service: GameService, *players: Actor, game: str = "countdown",
                     options: dict[str, str] | None = None, channel: int = CHANNEL, seed: int = 5) -> None:
    """A started game: the first player opens it, the others join in order."""
    await service.new_game(channel, GUILD, players[0], game, options or {}, seed=seed)
    for p in players[1:]:
        await service.join(channel, p)
    await service.start(channel, players[0])


async def only_card(service: GameService, channel: int = CHANNEL) -> PromptCard:
    cards = await service.pending(channel)
    assert len(cards) == 1
    return cards[0]


async def state_of(service: GameService, channel: int = CHANNEL) -> GameState:
    game = await service.store.current_game(channel)
    assert game is not None and game.id is not None
    state = await latest_state(service.store, game.id)
    assert state is not None
    return state
