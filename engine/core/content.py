"""Content shared machinery: YAML decks with file:line errors, and the registry of content by version.

A game records the content version it began with (`GameState.content_version`). Content is looked up by
`(game, version)`, never "whatever is installed": a game saved under one version and loaded under a build
that no longer ships it is refused with a clear message (`ContentVersionError`) instead of silently changing
its cards mid-game. Decision (issue "one engine for four games", item 5): we refuse rather than keep every old
version forever; a game keeps a retired version loadable by leaving its loader in its manifest's table.
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from pathlib import Path
from typing import Any, Generic, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from engine.core.errors import ContentError, EngineError

Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when available: 10x faster loading


M = TypeVar("M", bound=BaseModel)
C = TypeVar("C")


class ContentVersionError(EngineError):
    """A saved game needs a content version this build does not have."""


def entries_with_lines(path: Path, key: str = "cards") -> tuple[dict[str, Any], list[int]]:
    """Read a deck file `{..., <key>: [entries]}`; also return each entry's line number (1-based)."""
    text = path.read_text(encoding="utf-8")
    try:
        root = yaml.compose(text, Loader=Loader)
        data = Loader(text).construct_document(root) if root is not None else None
    except yaml.YAMLError as exc:
        raise ContentError(f"{path.name}: not valid YAML: {exc}") from exc
    if root is None or not isinstance(data, dict) or not isinstance(data.get(key), list):
        raise ContentError(f"{path.name}: expected a mapping with a '{key}' list")
    lines: list[int] = []
    for key_node, value_node in root.value:
        if key_node.value == key:
            lines = [n.start_mark.line + 1 for n in value_node.value]
    return data, lines


def short_error(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        return "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()[:3])
    return str(exc)


def load_entries(path: Path, model: type[M], key: str = "cards",
                 seen: dict[str, str] | None = None,
                 prepare: Callable[[dict[str, Any]], dict[str, Any]] | None = None) -> list[M]:
    """Validate every entry of a deck file as `model`. Errors say 'file:line (id): reason'; ids must be unique
    across every file that shares `seen`."""
    data, lines = entries_with_lines(path, key)
    seen = {} if seen is None else seen
    out: list[M] = []
    for idx, raw in enumerate(data[key]):
        line = lines[idx] if idx < len(lines) else 0
        cid = raw.get("id", "?") if isinstance(raw, dict) else "?"
        where = f"{path.name}:{line} ({cid})"
        if not isinstance(raw, dict):
            raise ContentError(f"{where}: each entry is a mapping")
        if cid in seen:
            raise ContentError(f"{where}: duplicate id, first defined in {seen[cid]}")
        seen[cid] = where
        try:
            out.append(model.model_validate(prepare(dict(raw)) if prepare else raw))
        except (ValidationError, ValueError) as exc:
            raise ContentError(f"{where}: {short_error(exc)}") from exc
    return out


def read_version(folder: Path) -> str:
    f = folder / "VERSION"
    return f.read_text(encoding="utf-8").strip() if f.exists() else "dev"


class ContentRegistry:
    """(game, version) -> loaded content. Loading happens once per version, on first use."""

    def __init__(self) -> None:
        self._loaders: dict[tuple[str, str], Callable[[], Any]] = {}
        self._loaded: dict[tuple[str, str], Any] = {}

    def register(self, game: str, version: str, loader: Callable[[], Any]) -> None:
        self._loaders[(game, version)] = loader
        self._loaded.pop((game, version), None)

    def versions(self, game: str) -> list[str]:
        return sorted(v for g, v in self._loaders if g == game)

    def has(self, game: str, version: str) -> bool:
        return (game, version) in self._loaders

    def get(self, game: str, version: str) -> Any:
        key = (game, version)
        got = self._loaded.get(key)
        if got is not None:
            return got
        loader = self._loaders.get(key)
        if loader is None:
            have = ", ".join(self.versions(game)) or "none"
            raise ContentVersionError(
                f"This game was started with {game} content version {version}, which this build of the bot no "
                f"longer has (it has: {have}). It cannot continue safely; a moderator can end it with /gm end.")
        got = self._loaded[key] = loader()
        return got


CONTENT = ContentRegistry()


class GameContent(Generic[C]):
    """One game's content by version, the same way for every game: the shipped pack (`folder`, its VERSION
    file, read by `load`), registered in CONTENT on first use; `of(version)` for a saved game (remembered
    per version, since it is asked on nearly every rules step and a version's content never changes);
    `default()` for a new game: the shipped version, or the one a test or trial pack pins with
    `pinned.set(version)` after registering it."""

    def __init__(self, game: str, folder: Path, load: Callable[[Path], C]) -> None:
        self.game = game
        self.folder = folder
        self.load = load
        self.pinned: ContextVar[str | None] = ContextVar(f"{game}_content", default=None)
        self._shipped: str | None = None
        self._by_version: dict[str, C] = {}

    def shipped_version(self) -> str:
        if self._shipped is None:
            self._shipped = read_version(self.folder)
        return self._shipped

    def versions(self) -> dict[str, Callable[[], C]]:
        """The versions a saved game may use (a manifest's `content` table): the shipped one."""
        return {self.shipped_version(): lambda: self.load(self.folder)}

    def of(self, version: str) -> C:
        found = self._by_version.get(version)
        if found is None:
            for shipped, loader in self.versions().items():  # registered once, whoever asks first
                if not CONTENT.has(self.game, shipped):
                    CONTENT.register(self.game, shipped, loader)
            found = self._by_version[version] = CONTENT.get(self.game, version)
        return found

    def default(self) -> C:
        return self.of(self.pinned.get() or self.shipped_version())
