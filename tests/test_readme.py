"""README.md's two commands stay true: CI runs exactly the README's test command."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    section = text.split("## On a fresh machine", 1)[1].split("\n## ", 1)[0]
    return [b.strip() for b in re.findall(r"```bash\n(.*?)```", section, flags=re.S)]


def test_readme_has_install_run_and_install_test_commands() -> None:
    run, test = _commands()[:2]
    assert "pip install" in run and "miskatonic run" in run
    assert 'pip install -q -e ".[test]"' in test and test.endswith("pytest")


def test_ci_runs_exactly_the_readme_test_command() -> None:
    test = _commands()[1]
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert test in ci


def test_ci_tests_a_copy_with_nothing_beside_it() -> None:
    """CI runs the suite in a fresh temporary folder holding only a clone, so a path outside the repository
    cannot be read there (issue: the README's test command must pass on a fresh machine)."""
    ci = (ROOT / ".ci" / "run").read_text()
    clone = ci.index("git clone")
    assert "mktemp -d" in ci[:clone] and ci.index('cd "$isolated"') > clone
    assert clone < ci.index(_commands()[1])
