"""Elder Sign's `Commands` for the bot manifest: the /es shortcuts and its read-only commands."""

from __future__ import annotations

from bot.games.elder_sign.commands import SHORTCUTS, card_text, odds_text, pick, seat_text, suggestions
from bot.games.manifest import Commands
from engine.core.errors import IllegalAction
from engine.core.game import GameState
from engine.elder_sign.state import ElderSignState


def _card(state: GameState | None, seat: int | None, args: dict[str, str]) -> str:
    own = state if isinstance(state, ElderSignState) else None
    return card_text(args.get("name", ""), own, seat if own is not None else None)


def _odds(state: GameState | None, seat: int | None, args: dict[str, str]) -> str:
    if not isinstance(state, ElderSignState) or seat is None:
        raise IllegalAction("You have no seat in this game.")
    return odds_text(state, seat, args.get("place"))


COMMANDS = Commands(
    shortcuts={name: s.help for name, s in SHORTCUTS.items()},
    arguments={name: s.argument for name, s in SHORTCUTS.items() if s.argument},
    pick=pick,
    suggestions=suggestions,
    readers={"card": (False, _card), "odds": (True, _odds)},
    seat_text=seat_text,
)
