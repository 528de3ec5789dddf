"""Every script in examples/ plays to the end of a game in `miskatonic console`, as the README runs it.

A script that drifts from the game (a rules change, new option ids) has a line refused; the console then
stops with exit code 1, so this test fails instead of a README example silently doing nothing. The fix is
to rewrite the example: `python -m tests.support.example_scripts`.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.service_text import RESULT_WORDS

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((REPO / "examples").glob("*"))
SEED = re.compile(r"--seed (\d+)")
#: one person, alice, with AI teammates the console plays between her lines
WITH_AI = [p for p in EXAMPLES if p.name.endswith("_with_ai.txt")]


def test_examples_are_console_scripts() -> None:
    assert EXAMPLES, "examples/ is empty"
    assert all(p.suffix == ".txt" for p in EXAMPLES), [p.name for p in EXAMPLES]


@pytest.mark.parametrize("script", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_example_plays_to_the_end_of_a_game(script: Path, tmp_path: Path) -> None:
    seed = SEED.search(script.read_text(encoding="utf-8"))
    assert seed, f"{script.name} must say which --seed it is run with"
    proc = subprocess.run([sys.executable, "-m", "bot", "console", "--script", str(script), "--seed", seed[1],
                           "--out", str(tmp_path / "out")], cwd=tmp_path, capture_output=True, text=True,
                          timeout=600, env={**os.environ, "PYTHONPATH": str(REPO)})
    tail = proc.stdout[-2500:] + proc.stderr[-1500:]
    hint = "\n(rewrite it with: python -m tests.support.example_scripts)"
    assert proc.returncode == 0, tail + hint
    assert "[refused" not in proc.stdout and "[error]" not in proc.stdout, tail + hint
    ended = [s for s in (RESULT_WORDS["win"], RESULT_WORDS["loss"]) if s in proc.stdout]
    assert ended, "the script stops before the end of its game:\n" + tail + hint
    assert (tmp_path / "data" / "console.db").exists(), "the console keeps its games in ./data"
    if script in WITH_AI:
        _played_with_ai(proc.stdout)


def _played_with_ai(transcript: str) -> None:
    """The AI teammates' moves show in the narration between alice's lines, and /game why explains one."""
    lines = transcript.splitlines()
    started = lines.index("> alice /game start")
    played = [line for line in lines[started:] if line.startswith("[public]") and "🤖" in line]
    assert len(played) > 10, "the AI teammates' moves do not show in the narration"
    assert any(line.startswith("[ephemeral to alice] 🤖 ") and " chose " in line for line in lines), \
        "/game why does not name an AI teammate's decision"


def test_the_ai_games_cover_every_game() -> None:
    games = {p.name.removesuffix("_with_ai.txt") for p in WITH_AI}
    assert games == {"elder_sign", "eldritch", "arkham3", "arkham_lcg"}, games


@pytest.mark.parametrize("script", WITH_AI, ids=[p.name for p in WITH_AI])
def test_a_game_with_ai_teammates_is_written_for_alice_alone(script: Path) -> None:
    """Only alice's lines: the console plays the AI seats itself, so no line answers for one (an AI seat has no
    user name to write a line with). Between one and three teammates, each seated by her."""
    played = [line for line in script.read_text(encoding="utf-8").splitlines()
              if line.strip() and not line.startswith("#")]
    assert played and all(line.startswith("alice ") for line in played), \
        [line for line in played if not line.startswith("alice ")]
    assert 1 <= played.count("alice /game join bot:True") <= 3
    assert "alice /game why" in played and "alice /game status" in played
