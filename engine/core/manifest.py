"""A game's one registration point on the engine side: `MANIFEST` in `engine/<game>/__init__.py`.

Everything is named by import path ("module:attribute") and imported only when used, so listing the games
never loads their rules or content. Adding a game means adding its package with a manifest: no list or
`if game == ...` anywhere else (engine/games.py discovers the packages).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any


def load_target(target: str) -> Any:
    """Import "package.module:attribute" and return the attribute."""
    module_name, _, attr = target.partition(":")
    return getattr(importlib.import_module(module_name), attr)


@dataclass(frozen=True)
class GameManifest:
    id: str  # the game's id in commands and the store ("elder-sign")
    name: str
    rules: str  # "module:attribute" of the GameRules instance
    #: agent name -> "module:Class" (a class taking a seed); "random" is always available
    agents: dict[str, str] = field(default_factory=dict)
    #: "module:function" returning {content version: loader}; the versions a saved game may use
    content: str | None = None
