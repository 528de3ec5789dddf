"""Elder Sign (revised printing), 1-8 players. The engine's registration point for this game."""

from engine.core.manifest import GameManifest

MANIFEST = GameManifest(
    id="elder-sign",
    name="Elder Sign",
    rules="engine.elder_sign.rules:RULES",
    agents={"smart": "engine.elder_sign.agent:SmartAgent"},
    content="engine.elder_sign.content:content_versions",
)
