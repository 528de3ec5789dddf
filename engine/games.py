"""The registry of games, built from the manifests (`MANIFEST` in each `engine/<game>/__init__.py`).

Nothing here lists games: every subpackage of `engine` that defines a `MANIFEST` is a game. Tests and
content packs add more with `register`. Rules, agents and content are imported only when first used.
"""

from __future__ import annotations

from functools import cache

from engine.core.content import CONTENT
from engine.core.errors import UnknownGame
from engine.core.game import GameRules
from engine.core.manifest import GameManifest, discover, load_target

_EXTRA: dict[str, GameManifest] = {}
_LOADED: dict[str, GameRules] = {}


@cache
def _discovered() -> dict[str, GameManifest]:
    return {m.id: m for m in discover("engine", "MANIFEST", GameManifest)}


def manifests() -> dict[str, GameManifest]:
    return {**_discovered(), **_EXTRA}


def game_ids() -> list[str]:
    return list(manifests())


def manifest(game_id: str) -> GameManifest:
    m = manifests().get(game_id)
    if m is None:
        known = ", ".join(manifests())
        raise UnknownGame(f"There is no game called '{game_id}'. Games: {known}.")
    return m


def get_game(game_id: str) -> GameRules:
    rules = _LOADED.get(game_id)
    if rules is not None:
        return rules
    m = manifest(game_id)
    if m.content:
        for version, loader in load_target(m.content)().items():
            if not CONTENT.has(m.id, version):
                CONTENT.register(m.id, version, loader)
    loaded: GameRules = load_target(m.rules)  # the manifest names a GameRules instance
    _LOADED[game_id] = loaded
    return loaded


def register(game: GameManifest | str, target: str | None = None) -> None:
    """Register a game that is not an `engine` subpackage (tests, content packs): a manifest, or an id and
    "module:attribute" of its rules."""
    m = game if isinstance(game, GameManifest) else GameManifest(id=game, name=game, rules=target or "")
    _EXTRA[m.id] = m
    _LOADED.pop(m.id, None)
