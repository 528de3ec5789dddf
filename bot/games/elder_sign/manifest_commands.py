"""Elder Sign's `Commands` for the bot manifest: the /es shortcuts and its read-only commands."""

from __future__ import annotations

from bot.games.elder_sign.commands import SHORTCUTS, card_text, odds_text, pick, seat_text, suggestions
from bot.games.manifest import Commands
from engine import api
from engine.core.errors import IllegalAction
from engine.core.game import GameState
from engine.elder_sign.state import ElderSignState
from engine.elder_sign.view import ElderSignView


def _card(state: GameState | None, seat: int | None, args: dict[str, str]) -> str:
    own = state if isinstance(state, ElderSignState) else None
    return card_text(args.get("name", ""), own, seat if own is not None else None)


def _sheet(state: GameState | None, seat: int | None, args: dict[str, str]) -> str:
    """`/es sheet [player]`: an investigator at a glance (the asker's, or a player's), as `/game me` shows it."""
    if not isinstance(state, ElderSignState):
        raise IllegalAction("The game has not started yet.")
    view = api.view(state, None)  # the spectator's view: what every player may see
    assert isinstance(view, ElderSignView)
    wanted = args.get("player", "")
    target = int(wanted.removeprefix("seat:")) if wanted.startswith("seat:") else seat
    if target is None:
        raise IllegalAction("You have no seat in this game: name a player.")
    return "\n".join(seat_text(view, target))


def _odds(state: GameState | None, seat: int | None, args: dict[str, str]) -> str:
    if not isinstance(state, ElderSignState) or seat is None:
        raise IllegalAction("You have no seat in this game.")
    return odds_text(state, seat, args.get("place"))


COMMANDS = Commands(
    shortcuts={name: s.help for name, s in SHORTCUTS.items()},
    arguments={name: s.argument for name, s in SHORTCUTS.items() if s.argument},
    pick=pick,
    suggestions=suggestions,
    readers={"card": (False, _card), "odds": (True, _odds), "sheet": (True, _sheet)},
    seat_text=seat_text,
)
