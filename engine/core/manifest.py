"""A game's one registration point on the engine side: `MANIFEST` in `engine/<game>/__init__.py`.

Everything is named by import path ("module:attribute") and imported only when used, so listing the games
never loads their rules or content. Adding a game means adding its package with a manifest: no list or
`if game == ...` anywhere else (engine/games.py discovers the packages).
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field
from typing import Any, TypeVar

T = TypeVar("T")


def discover(package: str, attribute: str, kind: type[T]) -> list[T]:
    """The `attribute` of every subpackage of `package` that defines one of type `kind` (each game's manifest)."""
    found: list[T] = []
    for info in pkgutil.iter_modules(importlib.import_module(package).__path__):
        if info.ispkg:
            value = getattr(importlib.import_module(f"{package}.{info.name}"), attribute, None)
            if isinstance(value, kind):
                found.append(value)
    return found


def load_target(target: str) -> Any:
    """Import "package.module:attribute" and return the attribute."""
    module_name, _, attr = target.partition(":")
    return getattr(importlib.import_module(module_name), attr)


@dataclass(frozen=True)
class GameManifest:
    id: str  # the game's id in commands and the store (lowercase, with dashes)
    name: str
    rules: str  # "module:attribute" of the GameRules instance
    #: agent name -> "module:Class" (a class taking a seed); "random" is always available
    agents: dict[str, str] = field(default_factory=dict)
    #: "module:function" returning {content version: loader}; the versions a saved game may use
    content: str | None = None
    #: the game is played as campaigns of several games (its rules implement engine.core.campaign.CampaignRules)
    campaigns: bool = False
