"""The code type-checks: `mypy engine bot` (configured in pyproject.toml, [tool.mypy]) reports no error.

CI runs the README's test command verbatim, so the type check lives in the test suite. mypy writes its cache
under the test's temporary directory (a cold run takes some seconds: the bot pulls in discord.py, SQLModel and
Pillow's types), never into the working tree.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ["engine", "bot"]


@pytest.mark.timeout(60)
def test_mypy_is_clean(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "mypy", *PACKAGES, "--cache-dir", str(tmp_path / "mypy")],
                         cwd=ROOT, capture_output=True, text=True, timeout=55)
    output = run.stdout + run.stderr
    print(output)
    assert run.returncode == 0, f"mypy {' '.join(PACKAGES)} found errors:\n{output}"
