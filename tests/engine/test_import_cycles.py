"""No import cycle inside any game's engine package (issue 26: a game folder reads from the bottom up).

Every `import` and `from ... import` naming a module of the same package counts, wherever it stands: at the top,
under `if TYPE_CHECKING:`, or inside a function. A function-level import is still a dependency a reader has to
hold in their head (it only hides the cycle from the interpreter), so none is excluded. `from engine.x import y`
counts as an import of `engine.x.y` when `y` is a module of the package, else of `engine.x` itself.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "engine"
GAMES = ("elder_sign", "eldritch", "arkham3", "arkham_lcg")


def import_graph(folder: Path, package: str) -> dict[str, set[str]]:
    """Module -> the modules of the same package it imports (package-relative names, `__init__` for the package)."""
    modules = {p.stem for p in folder.glob("*.py")}

    def local(dotted: str) -> str | None:
        if dotted == package:
            return "__init__"
        if dotted.startswith(package + "."):
            head = dotted[len(package) + 1:].split(".")[0]
            return head if head in modules else None
        return None

    graph: dict[str, set[str]] = {}
    for path in sorted(folder.glob("*.py")):
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                deps.update(m for a in node.names if (m := local(a.name)) is not None)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                target = local(node.module)
                if target == "__init__":  # `from engine.game import module` imports that module
                    deps.update(a.name if a.name in modules else "__init__" for a in node.names)
                elif target is not None:
                    deps.add(target)
            elif isinstance(node, ast.ImportFrom) and node.level:
                raise AssertionError(f"{path.name}: relative import; the test reads absolute ones only")
        deps.discard(path.stem)
        graph[path.stem] = deps
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted: every import cycle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
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


@pytest.mark.parametrize("game", GAMES)
def test_no_import_cycle_inside_a_game_engine(game: str) -> None:
    assert cycles(import_graph(ENGINE / game, f"engine.{game}")) == []


def test_the_check_sees_cycles_through_function_level_and_type_only_imports(tmp_path: Path) -> None:
    """The detector itself: a cycle closed by an import inside a function, or one under TYPE_CHECKING, is found;
    a package importing downward only has none."""
    (tmp_path / "low.py").write_text("X = 1\n")
    (tmp_path / "a.py").write_text("from pkg.low import X\n\ndef f():\n    from pkg import b\n")
    (tmp_path / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.c import Y\n")
    (tmp_path / "c.py").write_text("import pkg.a\nfrom pkg.low import X\nY = X\n")
    graph = import_graph(tmp_path, "pkg")
    assert graph == {"a": {"low", "b"}, "b": {"c"}, "c": {"a", "low"}, "low": set()}
    assert cycles(graph) == [["a", "b", "c"]]
    (tmp_path / "b.py").write_text("from pkg.low import X\n")
    assert cycles(import_graph(tmp_path, "pkg")) == []
