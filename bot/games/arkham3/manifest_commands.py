"""Arkham Horror 3e's `Commands` for the bot manifest: the /ah shortcuts and its read-only commands."""

from __future__ import annotations

from bot.games.arkham3.commands import FOLLOWED, SHORTCUTS, pick, suggestions
from bot.games.arkham3.readers import card_text, map_text, odds_text, seat_text, sheet_text
from bot.games.manifest import Commands
from engine import api
from engine.arkham3.state import ArkhamState
from engine.arkham3.view import ArkhamView
from engine.core.errors import IllegalAction
from engine.core.game import GameState


def _view(state: GameState | None) -> ArkhamView:
    if not isinstance(state, ArkhamState):
        raise IllegalAction("The game has not started yet.")
    view = api.view(state, None)  # the spectator's view: what every player may see
    assert isinstance(view, ArkhamView)
    return view


def _sheet(state: GameState | None, seat: int | None, args: dict[str, str]) -> str:
    return sheet_text(_view(state), args.get("player"), seat)


def _odds(state: GameState | None, seat: int | None, args: dict[str, str]) -> str:
    return odds_text(_view(state), args.get("player"), seat)


def _map(state: GameState | None, seat: int | None, args: dict[str, str]) -> str:
    return map_text(_view(state), args.get("space"), seat)


def _card(state: GameState | None, seat: int | None, args: dict[str, str]) -> str:
    return card_text(args.get("name", ""))


COMMANDS = Commands(
    shortcuts={name: s.help for name, s in SHORTCUTS.items()},
    arguments={name: s.argument for name, s in SHORTCUTS.items() if s.argument},
    pick=pick,
    suggestions=suggestions,
    readers={"sheet": (True, _sheet), "map": (True, _map), "card": (False, _card), "odds": (True, _odds)},
    seat_text=seat_text,
    follow=FOLLOWED,
)
