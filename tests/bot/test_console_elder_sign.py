"""A complete game of Elder Sign played in `miskatonic console` (issue: "the same game can be played in
miskatonic console"). The script is produced by playing the same seed through the engine, so every line
must be accepted by the console exactly as a player would type it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from engine import api
from engine.agents import RandomAgent
from engine.core.game import SeatSpec
from engine.core.prompt import PromptKind
from tests.support.example_scripts import choose_line

SEED = 11
USERS = ["alice", "bob"]


def build_script() -> tuple[list[str], str]:
    seats = [SeatSpec(seat=0, name="alice"), SeatSpec(seat=1, name="bob", character="margarethe-vogel")]
    state, _ = api.new_game("elder-sign", seats, {"ancient_one": "dagon"}, SEED)
    lines = ["alice /game new game:elder-sign options:ancient_one=dagon",
             "bob /game join investigator:margarethe-vogel",
             "alice /game start"]
    agent = RandomAgent(SEED)
    while not state.over:
        action = agent.act(state)
        prompt = api.prompts(state)[0]
        assert prompt.kind is not PromptKind.AMOUNT
        lines.append(choose_line(USERS[action.seat], prompt, action))  # numeric ids: by their position
        state, _ = api.apply(state, action, in_place=True)
    return lines, str(state.result)


def test_a_whole_elder_sign_game_in_the_console(tmp_path: Path) -> None:
    lines, result = build_script()
    script = tmp_path / "game.txt"
    script.write_text("\n".join(lines) + "\n")
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, "-m", "bot", "console", "--script", str(script), "--seed", str(SEED),
                           "--db", str(tmp_path / "game.db"), "--out", str(out)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    text = proc.stdout
    assert "[refused" not in text and "[error]" not in text
    ending = "sealed away" if result == "win" else "devoured"
    assert ending in text or ("driven back" in text and result == "win")
    images = list(out.glob("*.png"))
    assert len(images) >= 5  # a table after every turn, dice after every roll
