"""The registry of games. The bot finds a game by its id here; nothing else lists games."""

from __future__ import annotations

import importlib

from engine.core.errors import UnknownGame
from engine.core.game import GameRules

# id -> "module:attribute"; imported lazily so loading one game never loads the others.
_REGISTRY: dict[str, str] = {
    "elder-sign": "engine.elder_sign.rules:RULES",
}
_LOADED: dict[str, GameRules] = {}


def game_ids() -> list[str]:
    return list(_REGISTRY)


def get_game(game_id: str) -> GameRules:
    rules = _LOADED.get(game_id)
    if rules is not None:
        return rules
    target = _REGISTRY.get(game_id)
    if target is None:
        known = ", ".join(_REGISTRY)
        raise UnknownGame(f"There is no game called '{game_id}'. Games: {known}.")
    module_name, attr = target.split(":")
    rules = getattr(importlib.import_module(module_name), attr)
    _LOADED[game_id] = rules
    return rules


def register(game_id: str, target: str) -> None:
    """Register a game (tests and content packs use this)."""
    _REGISTRY[game_id] = target
    _LOADED.pop(game_id, None)
