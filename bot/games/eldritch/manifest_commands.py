"""Eldritch Horror's `Commands` for the bot manifest: the /eh shortcuts and its read-only commands."""

from __future__ import annotations

from bot.games.eldritch.commands import SHORTCUTS, pick, suggestions
from bot.games.eldritch.readers import card_text, map_text, odds_text, seat_text, sheet_text
from bot.games.manifest import Commands
from engine import api
from engine.core.errors import IllegalAction
from engine.core.game import GameState
from engine.eldritch.state import EldritchState
from engine.eldritch.view import EldritchView


def _view(state: GameState | None) -> EldritchView | None:
    if not isinstance(state, EldritchState):
        return None
    view = api.view(state, None)  # the spectator's view: what every player may see
    assert isinstance(view, EldritchView)
    return view


def _sheet(state: GameState | None, seat: int | None, args: dict[str, str]) -> str:
    view = _view(state)
    if view is None:
        raise IllegalAction("The game has not started yet.")
    return sheet_text(view, args.get("player"), seat)


def _odds(state: GameState | None, seat: int | None, args: dict[str, str]) -> str:
    view = _view(state)
    if view is None:
        raise IllegalAction("The game has not started yet.")
    return odds_text(view, args.get("player"), seat)


def _map(state: GameState | None, seat: int | None, args: dict[str, str]) -> str:
    return map_text(_view(state), args.get("space"), seat)


def _card(state: GameState | None, seat: int | None, args: dict[str, str]) -> str:
    return card_text(args.get("name", ""), _view(state), seat)


COMMANDS = Commands(
    shortcuts={name: s.help for name, s in SHORTCUTS.items()},
    arguments={name: s.argument for name, s in SHORTCUTS.items() if s.argument},
    pick=pick,
    suggestions=suggestions,
    readers={"sheet": (True, _sheet), "map": (False, _map), "card": (False, _card), "odds": (True, _odds)},
    seat_text=seat_text,
)
