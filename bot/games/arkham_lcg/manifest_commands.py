"""The card game's `Commands` for the bot manifest: the /lcg shortcuts and its read-only commands."""

from __future__ import annotations

from bot.games.arkham_lcg.commands import FOLLOWED, SHORTCUTS, pick, suggestions
from bot.games.arkham_lcg.readers import area_text, bag_text, hand_text, lcg_state, log_text, seat_text
from bot.games.manifest import Commands
from bot.lookup.cards import book, resolve
from engine.core.errors import IllegalAction
from engine.core.game import GameState

GAME = "arkham-lcg"


def _hand(state: GameState | None, seat: int | None, args: dict[str, str]) -> str:
    return hand_text(lcg_state(state), seat)


def _area(state: GameState | None, seat: int | None, args: dict[str, str]) -> str:
    return area_text(lcg_state(state), args.get("player"), seat)


def _bag(state: GameState | None, seat: int | None, args: dict[str, str]) -> str:
    return bag_text(lcg_state(state), seat)


def _log(state: GameState | None, seat: int | None, args: dict[str, str]) -> str:
    return log_text(lcg_state(state))


def _card(state: GameState | None, seat: int | None, args: dict[str, str]) -> str:
    """Any card's text through the card book, which hides a face the asker's game has not shown yet."""
    cards = book(GAME)
    if cards is None:
        raise IllegalAction("The card game's cards cannot be read here.")
    return cards.text(resolve(GAME, args.get("name", "")).id, state, seat)


COMMANDS = Commands(
    shortcuts={name: s.help for name, s in SHORTCUTS.items()},
    arguments={name: s.argument for name, s in SHORTCUTS.items() if s.argument},
    pick=pick,
    suggestions=suggestions,
    readers={"hand": (True, _hand), "area": (True, _area), "bag": (True, _bag), "card": (False, _card)},
    record=_log,
    seat_text=seat_text,
    follow=FOLLOWED,
    with_controls=frozenset({"hand"}),
)
