"""No import cycles among the bot's modules, nor inside any game's engine package: a reader follows each
module down, never round in a circle (issue 26: a game folder reads from the bottom up).

Every import counts, including those under `TYPE_CHECKING` and those inside functions: a type-only or late
import still means one module has to be read with the other in mind. A part that needs something of a module
above it names what it needs as a small Protocol instead (`PlayHost`, `PublisherHost`, the service seen from
`bot.games`).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def modules(package: str) -> dict[str, Path]:
    found = {}
    for path in sorted((ROOT / package.replace(".", "/")).rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def import_graph(package: str) -> dict[str, set[str]]:
    """module -> the modules of `package` it imports (the longest known prefix of each imported name)."""
    mods = modules(package)
    graph: dict[str, set[str]] = {m: set() for m in mods}
    for name, path in mods.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
                    here = here[: len(here) - node.level + 1]
                    base = ".".join([*here, base] if base else here)
                targets = [base, *(f"{base}.{a.name}" for a in node.names)]
            for target in targets:
                while target and target not in mods:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    graph[name].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_bot_has_no_import_cycle() -> None:
    assert cycles(import_graph("bot")) == []


@pytest.mark.parametrize("game", ["elder_sign", "eldritch", "arkham3", "arkham_lcg"])
def test_no_game_engine_has_an_import_cycle(game: str) -> None:
    """Eldritch's interpreter and rules talk through `ops.py` (the effect entry points live there, the
    interpreter registers itself), as the other three games' do."""
    assert cycles(import_graph(f"engine.{game}")) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
