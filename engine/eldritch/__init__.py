"""Eldritch Horror (base game), 1-8 players. The engine's registration point for this game."""

from engine.core.manifest import GameManifest

MANIFEST = GameManifest(
    id="eldritch",
    name="Eldritch Horror",
    rules="engine.eldritch.rules:RULES",
    agents={"smart": "engine.eldritch.agent:SmartAgent"},
    content="engine.eldritch.content:content_versions",
)
