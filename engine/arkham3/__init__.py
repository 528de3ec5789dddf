"""Arkham Horror (3rd edition), 1-6 players. The engine's registration point for this game."""

from engine.core.manifest import GameManifest

MANIFEST = GameManifest(
    id="arkham3",
    name="Arkham Horror (3rd edition)",
    rules="engine.arkham3.rules:RULES",
    agents={"smart": "engine.arkham3.agent:SmartAgent"},
    content="engine.arkham3.content:content_versions",
)
