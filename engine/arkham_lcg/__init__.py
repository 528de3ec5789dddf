"""Arkham Horror: The Card Game, 1-4 players. The engine's registration point for this game."""

from engine.core.manifest import GameManifest

MANIFEST = GameManifest(
    id="arkham-lcg",
    name="Arkham Horror: The Card Game",
    rules="engine.arkham_lcg.rules:RULES",
    agents={"smart": "engine.arkham_lcg.agent:SmartAgent"},
    content="engine.arkham_lcg.content:content_versions",
    campaigns=True,
)
