"""The engine is pure (DESIGN.md "Layout": engine/ may import only the standard library, pydantic and yaml;
"The engine contract": no wall clock, no global random, no I/O beyond reading its own content)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"
FORBIDDEN = {"discord", "sqlalchemy", "sqlmodel", "PIL", "aiohttp"}
#: sources of nondeterminism (wall clock, OS randomness) the contract rules out; `random` is checked apart:
#: an agent may own a seeded `random.Random`, but nothing may use the module's global generator
NONDETERMINISTIC = {"time", "datetime", "secrets", "uuid"}
ALLOWED_THIRD_PARTY = {"pydantic", "pydantic_core", "yaml", "typing_extensions"}


def engine_files() -> list[Path]:
    files = sorted(ENGINE.rglob("*.py"))
    assert len(files) > 10, f"expected the engine sources under {ENGINE}"
    return files


def imported_roots(path: Path) -> set[str]:
    """Top-level module names a file imports, wherever the import statement is (also inside functions)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr == "import_module" and node.args and isinstance(node.args[0], ast.Constant)
              and isinstance(node.args[0].value, str)):
            roots.add(node.args[0].value.split(".")[0])
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "__import__"
              and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            roots.add(node.args[0].value.split(".")[0])
    return roots


def test_the_scanner_sees_imports_everywhere(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text("import a.b\nfrom c.d import e\nfrom . import f\ndef g():\n    import h\n"
                     "    __import__('i')\n    importlib.import_module('j.k')\n")
    assert imported_roots(probe) == {"a", "c", "h", "i", "j"}


@pytest.mark.parametrize("path", engine_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_engine_module_imports_no_bot_libraries(path: Path) -> None:
    bad = imported_roots(path) & FORBIDDEN
    assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}: the engine must stay pure"


@pytest.mark.parametrize("path", engine_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_engine_module_imports_only_stdlib_pydantic_yaml(path: Path) -> None:
    roots = imported_roots(path) - {"engine", "__future__"}
    outside = {r for r in roots if r not in sys.stdlib_module_names and r not in ALLOWED_THIRD_PARTY}
    assert not outside, f"{path.relative_to(ROOT)} imports {sorted(outside)} (engine/: stdlib, pydantic, yaml only)"
    assert "bot" not in roots and "tests" not in roots


def global_random_uses(path: Path) -> list[str]:
    """Uses of the `random` module other than constructing a private, seeded `random.Random`."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    out: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "random":
            out += [f"from random import {a.name}" for a in node.names if a.name != "Random"]
        elif (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "random"
              and node.attr != "Random"):
            out.append(f"random.{node.attr} (line {node.lineno})")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "Random":
            if not node.args and not node.keywords:
                out.append(f"random.Random() without a seed (line {node.lineno})")
    return out


def test_the_random_scanner(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text("import random\nfrom random import shuffle\nr = random.Random(3)\nq = random.Random()\n"
                     "x = random.choice([1])\n")
    assert global_random_uses(probe) == ["from random import shuffle", "random.Random() without a seed (line 4)",
                                         "random.choice (line 5)"]


@pytest.mark.parametrize("path", engine_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_engine_module_has_no_clock_or_global_random(path: Path) -> None:
    bad = imported_roots(path) & NONDETERMINISTIC
    assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}: the engine has no wall clock"
    uses = global_random_uses(path)
    assert not uses, f"{path.relative_to(ROOT)}: {uses}; game randomness comes from the state's Rng"


PROBE = """
import json, sys
import engine.api
import engine.elder_sign.rules
from engine.core.game import SeatSpec
state, _ = engine.api.new_game("elder-sign", [SeatSpec(seat=0, name="A"), SeatSpec(seat=1, name="B")], {}, 1)
p = engine.api.prompts(state)[0]
engine.api.apply(state, p.answers(p.seats[0])[0])
engine.api.view(state, 0)
engine.api.from_json(engine.api.to_json(state))
print(json.dumps(sorted(m for m in sys.modules)))
"""


def test_importing_and_playing_loads_no_bot_libraries() -> None:
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=120,
                         check=False)
    assert out.returncode == 0, out.stderr
    loaded = set(json.loads(out.stdout.strip().splitlines()[-1]))
    assert "engine.elder_sign.rules" in loaded
    bad = sorted(m for m in loaded if m.split(".")[0] in FORBIDDEN)
    assert not bad, f"the engine loaded {bad[:10]}"
    assert not {m for m in loaded if m == "bot" or m.startswith("bot.")}
