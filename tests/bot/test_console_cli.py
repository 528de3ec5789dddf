"""The offline console and the command line, run as a user would run them (subprocesses)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from bot.simulate import simulate

REPO = Path(__file__).resolve().parents[2]
COUNTDOWN = ["--game", "countdown=tests.support.countdown:RULES"]


def run(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PYTHONPATH": str(REPO), **env}
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=cwd, env=environment, capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL)  # nothing piped in


SCRIPT = """\
# two players and a moderator
alice /game new game:countdown start:5
bob /game join character:owl
alice /game start
bob choose 1
alice choose 2
mod[mod] /gm undo steps:1
alice choose 4
bob choose 2
alice choose 3
bob /game me
alice /game frobnicate
"""


def test_console_script_prints_the_transcript(tmp_path: Path) -> None:
    script = tmp_path / "game.txt"
    script.write_text(SCRIPT)
    out = tmp_path / "images"
    result = run(["console", "--script", str(script), "--seed", "5", "--out", str(out), "--db",
                  str(tmp_path / "c.db"), "--keep-going", *COUNTDOWN], cwd=tmp_path)
    lines = result.stdout.splitlines()
    assert result.returncode == 1, result.stderr  # the last line is not a command
    assert "[public] alice opened a game of Countdown (game #1; start=5). Seats: 1. alice. " \
           "Join with /game join; start with /game start." in lines
    assert "[refused to bob] This decision is not yours: waiting for alice." in lines
    assert "[public] alice takes 2; 3 left." in lines
    assert "[public] Moderator mod undid 1 step." in lines
    assert "[public] alice passes; doom is 1." in lines  # "4" = the 4th option, pass
    assert "[public] bob takes 2; 3 left." in lines
    assert "[public] alice takes 3; 0 left." in lines and "[public] The investigators won!" in lines
    assert "[ephemeral to bob] bob (seat 2, owl)" in lines
    start = lines.index("> alice /game start")
    # one block per section, as the channel shows one message per section; then its board, then the prompt
    assert lines[start + 1].startswith("[section 1] ─") and lines[start + 4].startswith("[section 1 ends] ─")
    assert lines[start + 2:start + 4] == ["[public] Countdown begins with alice and bob.",
                                          "[public] The counter starts at 5."]
    assert lines[start + 5].startswith("[image] ")
    assert lines[start + 6] == "[prompt #1] Waiting for alice: alice: take how many? (Countdown turn)"
    assert "    4. Pass (1 doom)" in lines
    images = [line.removeprefix("[image] ") for line in lines if line.startswith("[image] ")]
    assert images and all(Path(p).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in images)
    assert all(Path(p).parent == out for p in images)
    assert any(line.startswith("[error] line 12: unknown command /game frobnicate") for line in lines)
    assert lines[-1] == "[error] 1 line could not be understood."


def test_a_refused_script_line_stops_the_run_with_exit_code_1(tmp_path: Path) -> None:
    """Issue "Elder Sign, second pass": the README's script stopped at a refused third line and exited 0."""
    script = tmp_path / "stop.txt"
    script.write_text("alice /game new game:countdown\nbob choose 1\nalice /game start\n")
    result = run(["console", "--script", str(script), "--out", str(tmp_path), *COUNTDOWN], cwd=tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert "[refused to bob] There is nothing to choose now." in lines
    assert lines[-1] == "[error] line 2 was refused; the script stops here (--keep-going plays on)."
    assert "> alice /game start" not in lines  # nothing after the refused line is played


def test_keep_going_plays_on_past_refusals(tmp_path: Path) -> None:
    script = tmp_path / "ok.txt"
    script.write_text("alice /game new game:countdown\nbob choose 1\n\n# refused actions are part of play\n"
                      "alice /game start\n")
    result = run(["console", "--script", str(script), "--out", str(tmp_path), "--keep-going", *COUNTDOWN],
                 cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "[refused to bob] There is nothing to choose now." in result.stdout
    assert "> alice /game start" in result.stdout


def test_console_reports_malformed_lines(tmp_path: Path) -> None:
    script = tmp_path / "bad.txt"
    script.write_text("alice\n??? /game new\nalice /game new gameXcountdown\nalice /gm undo steps:x\n"
                      "alice /game new game:countdown\nalice dance\n")
    result = run(["console", "--script", str(script), "--out", str(tmp_path), "--keep-going", *COUNTDOWN],
                 cwd=tmp_path)
    errors = [line for line in result.stdout.splitlines() if line.startswith("[error]")]
    assert result.returncode == 1
    assert errors == [
        "[error] line 1: expected '<user> /<command> ...' or '<user> choose <option>'",
        "[error] line 2: '???' is not a user name (letters, digits, _ . -; add [mod] for a moderator)",
        "[error] line 3: 'gameXcountdown' is not name:value; a value with spaces goes in quotes, e.g. "
        'game:"two words"',
        "[error] line 4: steps must be a whole number, not 'x'",
        "[error] line 6: unknown command 'dance': use /game, /gm, /<game group> or choose",
        "[error] 5 lines could not be understood.",
    ]


def test_simulate_json_prints_one_json_line(tmp_path: Path) -> None:
    """--json keeps the one line scripts read, with the same keys as before the table existed."""
    result = run(["simulate", "countdown", "--games", "30", "--seed", "4", "--json", *COUNTDOWN], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    doc = json.loads(result.stdout.strip())
    assert set(doc) == {"game", "games", "wins", "losses", "errors", "actions", "seconds", "games_per_s"}
    assert (doc["game"], doc["games"], doc["errors"]) == ("countdown", 30, 0)
    assert doc["wins"] + doc["losses"] == 30 and doc["actions"] >= 30 * 4 // 3


def test_simulate_prints_a_table_for_people(tmp_path: Path) -> None:
    """Issue 30, item 6: without --json the results are a table (win rate, average length, errors)."""
    result = run(["simulate", "countdown", "--games", "30", "--seed", "4", *COUNTDOWN], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Countdown: 30 games, random agent, ")
    assert lines[2].split() == ["Games", "games", "won", "win", "rate", "avg", "rounds", "avg", "decisions",
                                "errors"]
    doc = json.loads(run(["simulate", "countdown", "--games", "30", "--seed", "4", "--json", *COUNTDOWN],
                         cwd=tmp_path).stdout)
    row = lines[4].split()
    assert row[:4] == ["all", "games", "30", str(doc["wins"])] and row[-1] == "0"
    assert row[4] == f"{100 * doc['wins'] / 30:.1f}%" and row[6] == f"{doc['actions'] / 30:.1f}"


def test_the_table_has_a_row_per_scenario() -> None:
    from bot.simulate import table

    result = simulate("arkham3", 4, 11, "random")
    text = table(result, "random")
    lines = text.splitlines()
    rows = {line.split("  ")[0]: line.split() for line in lines[4:lines.index("", 4)]}
    assert {"The Witch Light", "The Low-Tide Congregation", "The Sentinel Stones",
            "The Road from Innsmouth"} >= set(rows) - {"all"}
    assert rows["all"][1] == "4" and sum(t.games for t in result["by"].values()) == 4
    assert all(t.rounds_known == t.finished for t in result["by"].values())  # every game says its rounds


def test_progress_shows_on_long_runs_only() -> None:
    """A run that ends within QUIET_FOR seconds prints nothing on stderr; a longer one a line at each tenth
    (a log) with the games done, the errors and the time left."""
    import io

    from bot.simulate import Progress

    now = [0.0]
    quick, slow = io.StringIO(), io.StringIO()
    bar = Progress(quick, clock=lambda: now[0])
    for done in range(1, 11):
        now[0] = done * 0.1
        bar(done, 10, 0)
    assert quick.getvalue() == ""
    now[0] = 0.0
    bar = Progress(slow, clock=lambda: now[0])
    for done in range(1, 101):
        now[0] = done * 0.5
        bar(done, 100, done // 50)
    lines = slow.getvalue().splitlines()
    assert 9 <= len(lines) <= 11, lines
    assert lines[0].startswith("[###") and "/100 games, 0 errors, about " in lines[0] and lines[0].endswith(" s left")
    assert lines[-1] == f"[{'#' * 30}] 100/100 games, 2 errors, 50 s"


def test_simulation_is_reproducible_and_counts_runaway_games_as_errors(capsys) -> None:
    first = simulate("countdown", 10, 99)
    second = simulate("countdown", 10, 99)
    assert (first["wins"], first["actions"]) == (second["wins"], second["actions"])
    capped = simulate("countdown", 3, 99, max_actions=2)
    assert capped["errors"] == 3 and "did not end within 2 actions" in capsys.readouterr().err


def test_run_without_a_token_explains_and_exits_2(tmp_path: Path) -> None:
    result = run(["run"], cwd=tmp_path, DISCORD_TOKEN="")
    assert result.returncode == 2
    assert "DISCORD_TOKEN" in result.stderr and "miskatonic console" in result.stderr


def test_migrate_command_creates_the_database(tmp_path: Path) -> None:
    db = tmp_path / "data" / "bot.db"
    result = run(["migrate"], cwd=tmp_path, DATABASE_URL=f"sqlite+aiosqlite:///{db}")
    assert result.returncode == 0, result.stderr
    assert db.exists() and "latest schema" in result.stdout
