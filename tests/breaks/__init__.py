"""Deliberate single-rule breaks: proof that each game's rules tests can fail.

Each `Break` names one rule a player would notice ("a success needs 4+ instead of 5+") and the smallest
source change that breaks it in one engine module (old text -> new text). `python -m tests.breaks` applies
each break to a throwaway copy of the repository, runs that game's rules tests there and records whether a
test failed (the break was caught) or every test passed (it survived). The share caught per game is the
suite's report card; a survivor is a rule no test protects.

The breaks of each game live in a module of their own (`elder_sign.py`, `eldritch.py`, `arkham3.py`,
`arkham_lcg.py`). There is no `test_*.py` here: the default test run never applies a break;
`tests/test_breaks_list.py` only checks that the list is well-formed (every old text is found exactly once in
its module, every game has at least `MIN_PER_GAME` breaks).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: each game needs at least this many breaks, spread over its core rules
MIN_PER_GAME = 20

#: the share of breaks each game's tests must catch
TARGET = 0.9


@dataclass(frozen=True)
class Break:
    """One rule broken on purpose: `old` (found exactly once in `module`) becomes `new`."""

    game: str
    rule: str  # what a player would see, in rules words
    module: str  # a path from the repository root, e.g. "engine/eldritch/checks.py"
    old: str
    new: str

    @property
    def key(self) -> str:
        return f"{self.game}: {self.rule}"

    def problems(self, root: Path = ROOT, compiles: bool = True) -> list[str]:
        """Why this break cannot be applied to the sources under `root` (empty when it can); `compiles`: also
        check that the patched module compiles (the slow part: the runner does it, the quick list test not)."""
        path = root / self.module
        if not path.is_file():
            return [f"{self.key}: no module {self.module}"]
        text = path.read_text(encoding="utf-8")
        found = text.count(self.old)
        out = []
        if found != 1:
            out.append(f"{self.key}: old text found {found} times in {self.module} (must be exactly once)")
        if self.old == self.new:
            out.append(f"{self.key}: old and new text are the same")
        if found == 1 and compiles:
            try:
                compile(self.patched(text), self.module, "exec")
            except SyntaxError as exc:
                out.append(f"{self.key}: the patched module does not compile ({exc.msg}, line {exc.lineno})")
        return out

    def patched(self, text: str) -> str:
        return text.replace(self.old, self.new, 1)


def all_breaks() -> list[Break]:
    from tests.breaks import arkham3, arkham_lcg, elder_sign, eldritch

    return [*elder_sign.BREAKS, *eldritch.BREAKS, *arkham3.BREAKS, *arkham_lcg.BREAKS]


#: game id -> the test paths that guard its rules (run with -x: the first failure is enough)
SUITES: dict[str, tuple[str, ...]] = {
    "elder_sign": ("tests/engine/elder_sign", "tests/golden"),
    "eldritch": ("tests/engine/eldritch",),
    "arkham3": ("tests/engine/arkham3",),
    "arkham_lcg": ("tests/engine/arkham_lcg",),
}

GAMES = tuple(SUITES)
