"""Run the deliberate rule breaks: `python -m tests.breaks [--game G] [--list] [--only TEXT] [--timeout S]`.

For each game: copy the repository (sources, tests, content; no .git, no virtualenv) into a temporary folder,
run the game's rules tests there once unbroken (they must pass, or nothing below means anything), then for each
break write the patched module into the copy, run the same tests with `-x -q` under a timeout, and put the
module back. The worktree itself is never written. Prints one line per break, then a table per game; the exit
status is 1 when a game catches less than the target share (or a break cannot be applied), else 0.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tests.breaks import GAMES, ROOT, SUITES, TARGET, Break, all_breaks

#: what a copy leaves out: history, environments, caches, build output
_SKIP = shutil.ignore_patterns(".git", ".venv", "__pycache__", "*.egg-info", ".pytest_cache", ".mypy_cache",
                               ".ruff_cache", ".hypothesis", "replay", "node_modules")


@dataclass
class Outcome:
    brk: Break
    verdict: str  # "caught", "timeout" (counted as caught: the suite never passes) or "survived"
    seconds: float
    detail: str = ""

    @property
    def caught(self) -> bool:
        return self.verdict != "survived"


def _ordered_tests(copy: Path, game: str) -> list[str]:
    """The game's test files, rules tests first and property tests last: with -x, a break that a rules test
    catches stops early."""
    out: list[str] = []
    for entry in SUITES[game]:
        path = copy / entry
        if path.is_file():
            out.append(entry)
            continue
        files = sorted(path.rglob("test_*.py"))

        def rank(p: Path) -> tuple[int, str]:
            n = p.name
            return (0 if "rule" in n else 2 if ("propert" in n or "fast" in n or "odds" in n) else 1, str(p))

        out += [str(p.relative_to(copy)) for p in sorted(files, key=rank)]
    return out


def _pytest(copy: Path, tests: Sequence[str], timeout: float, write_bytecode: bool) -> tuple[str, str]:
    """Run pytest in `copy` on `tests`; returns (verdict, the last lines of its output)."""
    env = dict(os.environ, PYTHONPATH=str(copy), HYPOTHESIS_PROFILE=os.environ.get("HYPOTHESIS_PROFILE", "ci"))
    if not write_bytecode:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "--no-header", *tests]
    try:
        proc = subprocess.run(cmd, cwd=copy, env=env, capture_output=True, text=True, timeout=timeout,
                              check=False)
    except subprocess.TimeoutExpired:
        return "timeout", f"no result within {timeout:.0f} s"
    tail = [ln for ln in proc.stdout.splitlines() if ln.strip()][-3:]
    if proc.returncode == 0:
        return "survived", tail[-1] if tail else ""
    if proc.returncode == 5:
        raise SystemExit(f"no tests collected in {copy} for {tests}")
    failed = next((ln for ln in proc.stdout.splitlines() if ln.startswith(("FAILED", "ERROR"))), "")
    return "caught", failed or (tail[-1] if tail else f"exit status {proc.returncode}")


def _copy_repo(dest: Path) -> Path:
    copy = dest / "repo"
    shutil.copytree(ROOT, copy, ignore=_SKIP, symlinks=True)
    return copy


def _check_engine_is_the_copy(copy: Path) -> None:
    """The copy must import its own engine, not an installed one: else every break would survive."""
    env = dict(os.environ, PYTHONPATH=str(copy))
    got = subprocess.run([sys.executable, "-c", "import engine; print(engine.__file__)"], cwd=copy, env=env,
                         capture_output=True, text=True, check=True).stdout.strip()
    if not Path(got).resolve().is_relative_to(copy.resolve()):
        raise SystemExit(f"the copy imports the engine from {got}, not from itself")


def run_game(game: str, breaks: list[Break], timeout: float, baseline: bool) -> list[Outcome]:
    outcomes: list[Outcome] = []
    with tempfile.TemporaryDirectory(prefix=f"breaks-{game}-") as tmp:
        copy = _copy_repo(Path(tmp))
        _check_engine_is_the_copy(copy)
        tests = _ordered_tests(copy, game)
        if baseline:
            t0 = time.monotonic()
            verdict, detail = _pytest(copy, tests, timeout * 2, write_bytecode=True)
            print(f"[{game}] unbroken run: {detail} ({time.monotonic() - t0:.0f} s)", flush=True)
            if verdict != "survived":
                raise SystemExit(f"[{game}] the unbroken tests do not pass ({verdict}: {detail}); fix that first")
        for brk in breaks:
            path = copy / brk.module
            original = path.read_text(encoding="utf-8")
            bad = brk.problems(copy)
            if bad:
                raise SystemExit("\n".join(bad))
            stat = path.stat()
            t0 = time.monotonic()
            try:
                path.write_text(brk.patched(original), encoding="utf-8")
                for pyc in (path.parent / "__pycache__").glob(f"{path.stem}.*.pyc"):
                    pyc.unlink()
                verdict, detail = _pytest(copy, tests, timeout, write_bytecode=False)
            finally:
                path.write_text(original, encoding="utf-8")
                os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
            took = time.monotonic() - t0
            outcomes.append(Outcome(brk, verdict, took, detail))
            print(f"  {verdict:8} {took:5.0f} s  {brk.rule}" + (f"  [{detail}]" if detail else ""), flush=True)
    return outcomes


def table(results: dict[str, list[Outcome]]) -> str:
    lines = [f"{'game':12} {'breaks':>6} {'caught':>6} {'share':>6}"]
    for game, outs in results.items():
        caught = sum(o.caught for o in outs)
        share = caught / len(outs) if outs else 0.0
        lines.append(f"{game:12} {len(outs):6} {caught:6} {share:6.0%}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.breaks", description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=GAMES, action="append", help="only this game (repeatable)")
    ap.add_argument("--only", help="only the breaks whose rule contains this text")
    ap.add_argument("--list", action="store_true", help="list the breaks and exit")
    ap.add_argument("--timeout", type=float, default=240.0, help="seconds per break (default 240)")
    ap.add_argument("--no-baseline", action="store_true", help="skip the unbroken run of each game's tests")
    args = ap.parse_args(argv)
    games = args.game or list(GAMES)
    chosen = [b for b in all_breaks() if b.game in games and (not args.only or args.only in b.rule)]
    bad = [p for b in chosen for p in b.problems()]
    if bad:
        print("\n".join(bad), file=sys.stderr)
        return 1
    if args.list:
        for b in chosen:
            print(f"{b.game:12} {b.module:36} {b.rule}")
        return 0
    started = time.monotonic()
    results: dict[str, list[Outcome]] = {}
    for game in games:
        breaks = [b for b in chosen if b.game == game]
        if breaks:
            print(f"[{game}] {len(breaks)} breaks", flush=True)
            results[game] = run_game(game, breaks, args.timeout, baseline=not args.no_baseline)
    survivors = [o for outs in results.values() for o in outs if not o.caught]
    if survivors:
        print("\nSurvived (no test failed):")
        for o in survivors:
            print(f"  {o.brk.key}  ({o.brk.module})")
    print()
    print(table(results))
    print(f"wall time {time.monotonic() - started:.0f} s")
    short = [g for g, outs in results.items() if outs and sum(o.caught for o in outs) / len(outs) < TARGET]
    return 1 if short else 0


if __name__ == "__main__":
    sys.exit(main())
