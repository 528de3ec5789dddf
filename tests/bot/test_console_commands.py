"""The offline console as a new player meets it (issue "Elder Sign, second pass"): `choose N` is the N-th
option shown, unknown arguments are refused, `help /es task` describes each argument, `quit` is not an
error, Ctrl-C leaves cleanly, games are kept in ./data and pictures never overwrite each other; and the
command line answers ordinary mistakes with one line."""

from __future__ import annotations

import asyncio
import os
import pty
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.cli import build_parser
from bot.console import Console, Outcome, command_help, run_console
from bot.service import GameService
from bot.store import Store

REPO = Path(__file__).resolve().parents[2]
CTHULHU = "alice /game new game:elder-sign options:ancient_one=cthulhu investigator:ada-whitcombe"


def _console(store: Store, out: list[str], tmp_path: Path, **kw: object) -> Console:
    return Console(GameService(store, render=False), tmp_path, seed=7, write=out.append, **kw)  # type: ignore[arg-type]


def run_cli(args: list[str], cwd: Path, **kw: object) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    kw.setdefault("stdin", subprocess.DEVNULL)  # nothing piped in: lines piped in would be played
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=120, **kw)  # type: ignore[call-overload]


async def test_choose_n_is_the_nth_option_shown_even_when_ids_are_numbers(sqlite_store: Store,
                                                                           tmp_path: Path) -> None:
    """Cthulhu's setup asks "-1 max sanity" (id "0") or "-1 max stamina" (id "1"): `choose 1` is the first
    option printed, not the one whose id is "1"."""
    out: list[str] = []
    console = _console(sqlite_store, out, tmp_path)
    assert await console.run_lines([CTHULHU, "alice /game start"]) == 0
    shown = [line for line in out if line.startswith("    1. ")]
    assert shown and shown[-1] == "    1. -1 max sanity", out[-4:]
    assert await console.handle("alice choose 1") is Outcome.DONE
    assert any("maximum sanity is now" in line for line in out), out[-5:]
    assert not any("maximum stamina is now" in line for line in out)


async def test_unknown_arguments_are_refused_not_ignored(sqlite_store: Store, tmp_path: Path) -> None:
    out: list[str] = []
    console = _console(sqlite_store, out, tmp_path)
    assert await console.handle("alice /es move plase:Entrance") is Outcome.BAD
    assert "takes no plase (its arguments: place" in out[-1]
    assert await console.handle("alice /es roll fast:yes") is Outcome.BAD
    assert "it takes none" in out[-1]
    assert await console.handle("alice /game status loud:yes") is Outcome.BAD
    # Discord's names for the moderator commands work in the console too
    assert console.parse("m[mod] /gm kick player:bob").args == {"user": "bob"}


def test_help_describes_every_argument_of_every_command() -> None:
    """Console `help /<group> <command>`: each argument with its description, the same words Discord shows."""
    from bot.command_help import catalog

    entries = catalog()
    assert {("es", "task"), ("es", "card"), ("game", "new"), ("gm", "settings")} <= set(entries)
    for (group, name), entry in entries.items():
        text = command_help([f"/{group}", name])
        assert text.startswith(f"{entry.path}: {entry.description}")
        for p in entry.params:
            assert p.description and p.description != "…", f"/{group} {name} {p.name} has no description"
            assert f"{p.name}:<value>" in text and p.description in text
    task = command_help(["/es", "task"])
    assert "choice:<value>  (optional) Which task" in task
    assert "steps:<value>  (optional, default 1)" in command_help(["/gm", "undo"])
    assert "/es card name:" in command_help(["/es"])
    assert command_help(["/nope"]).startswith("No command group /nope")


async def test_quit_ends_a_script_without_an_error(sqlite_store: Store, tmp_path: Path) -> None:
    out: list[str] = []
    console = _console(sqlite_store, out, tmp_path)
    failed = await console.run_lines(["alice /game new game:countdown", "help", "quit", "alice /game frobnicate"])
    assert failed == 0
    assert "> alice /game frobnicate" not in out  # nothing after quit runs


def test_ctrl_c_at_the_prompt_asks_and_leaves_cleanly(sqlite_store: Store, tmp_path: Path) -> None:
    out: list[str] = []
    answers = iter([KeyboardInterrupt, "n", KeyboardInterrupt, "y"])
    asked: list[str] = []

    def read(prompt: str) -> str:
        asked.append(prompt)
        item = next(answers)
        if item is KeyboardInterrupt:
            raise KeyboardInterrupt
        return str(item)

    with asyncio.Runner() as runner:
        console = Console(GameService(Store(f"sqlite+aiosqlite:///{tmp_path / 'x.db'}"), render=False), tmp_path,
                          write=out.append)
        console.interactive(runner, read=read)
    assert [p for p in asked if p.startswith("Leave")] and len(asked) == 4  # asked twice; "n" stayed


def test_ctrl_c_in_a_real_terminal_session_prints_no_traceback(tmp_path: Path) -> None:
    # a terminal on standard input (a pipe there is read as piped lines, not as someone typing)
    keyboard, terminal = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "bot", "console"], cwd=tmp_path, stdin=terminal,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(REPO)})
    os.close(terminal)
    assert proc.stdout is not None
    seen = ""
    deadline = time.monotonic() + 60
    while "Games are kept in" not in seen and time.monotonic() < deadline:
        seen += proc.stdout.readline()
    time.sleep(0.5)  # the banner is printed just before input() starts waiting
    proc.send_signal(signal.SIGINT)
    time.sleep(0.5)
    os.write(keyboard, b"y\n")
    out, err = proc.communicate(timeout=60)
    os.close(keyboard)
    assert proc.returncode == 0, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert "Leave the console?" in out
    assert "data/console.db" in seen


def test_an_interrupted_script_stops_with_130_and_no_traceback(tmp_path: Path, monkeypatch, capsys) -> None:  # noqa: ANN001
    async def interrupted(self: Console, lines: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(Console, "run_lines", interrupted)
    script = tmp_path / "s.txt"
    script.write_text("alice /game new game:countdown\n")
    assert run_console(script=script, seed=None, db=tmp_path / "c.db", out_dir=tmp_path) == 130
    assert "[interrupted]" in capsys.readouterr().out


def test_games_are_kept_in_data_and_pictures_never_overwrite(tmp_path: Path) -> None:
    """Two runs of one script: both games live in ./data/console.db (a script sits at a table of its own, so
    the second `/game new` is not refused), and the second run's pictures sit beside the first run's."""
    script = tmp_path / "s.txt"
    script.write_text("alice /game new game:elder-sign\nalice /game start\nalice /game board\n")
    out = tmp_path / "out"
    first = run_cli(["console", "--script", str(script), "--seed", "3", "--out", str(out)], cwd=tmp_path)
    assert first.returncode == 0, first.stdout + first.stderr
    assert "Games are kept in data/console.db" in first.stderr
    pictures = {p.name: p.read_bytes() for p in out.iterdir()}
    assert pictures
    second = run_cli(["console", "--script", str(script), "--seed", "3", "--out", str(out)], cwd=tmp_path)
    assert second.returncode == 0, second.stdout + second.stderr
    assert "(game #2;" in second.stdout
    after = {p.name: p.read_bytes() for p in out.iterdir()}
    assert all(after[name] == data for name, data in pictures.items()), "an earlier picture was overwritten"
    assert len(after) == 2 * len(pictures)
    assert (tmp_path / "data" / "console.db").exists()


def test_a_picture_with_a_taken_name_gets_a_new_one(sqlite_store: Store, tmp_path: Path) -> None:
    console = _console(sqlite_store, [], tmp_path)
    (tmp_path / "a-step0.png").write_bytes(b"old")
    path = console._save("a-step0.png", b"new")
    assert path.name == "a-step0-2.png" and (tmp_path / "a-step0.png").read_bytes() == b"old"


@pytest.mark.parametrize(("args", "says"), [
    (["simulate", "no-such-game"], "There is no game called 'no-such-game'"),
    (["console", "--script", "missing.txt"], "no script file at missing.txt"),
    (["console", "--game", "broken"], "--game wants ID=module:attribute"),
    (["simulate", "elder-sign", "--games", "0"], "--games must be at least 1"),
    (["simulate", "elder-sign", "--agent", "clever"], "no agent 'clever' for elder-sign; agents: random"),
    (["console", "--db", "."], "--db . is a folder"),
])
def test_ordinary_mistakes_get_one_line_not_a_traceback(tmp_path: Path, args: list[str], says: str) -> None:
    result = run_cli(args, cwd=tmp_path)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and says in lines[0] and lines[0].startswith(f"miskatonic {args[0]}:"), result.stderr


def test_every_subcommand_and_option_has_help_showing_its_default() -> None:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    helps = {c.dest: c.help for c in sub._choices_actions}
    for name, subparser in sub.choices.items():
        assert helps.get(name), f"miskatonic {name} has no help"
        for action in subparser._actions:
            if action.dest == "help":
                continue
            assert action.help, f"miskatonic {name} {action.option_strings or action.dest} has no help"
            if action.option_strings:
                assert "default" in action.help, f"miskatonic {name} {action.option_strings[0]}: no default"


def test_a_private_prompt_says_that_only_its_player_would_see_it(sqlite_store: Store, tmp_path: Path) -> None:
    """The console shows every prompt on one screen; a prompt that names hidden cards (Prompt.private) says that
    in Discord only the asked player sees its options, so a reader of a transcript does not take them as public."""
    from bot.service_types import PromptCard
    from engine.core.prompt import Option, Prompt, PromptKind

    out: list[str] = []
    console = _console(sqlite_store, out, tmp_path)
    hand = Prompt(seq=3, seats=[0], kind=PromptKind.ONE, title="Commit a card?", private=True,
                  options=[Option(id="c1", label="Steady Nerves"), Option(id="none", label="Commit nothing")])
    console.show_prompt(PromptCard(game_id=1, prompt=hand, user_ids=[1], text="Waiting for alice: Commit a card?"))
    assert out[1].startswith("    (private: in Discord only the player asked sees these options")
    out.clear()
    console.show_prompt(PromptCard(game_id=1, prompt=hand.model_copy(update={"private": False}), user_ids=[1],
                                   text="Waiting for alice: Commit a card?"))
    assert not any("private" in line for line in out)


async def test_an_option_is_named_one_way_only(sqlite_store: Store, tmp_path: Path) -> None:
    """Issue 28, item 14: Cthulhu's setup showed "1. -1 max sanity [0]" and "2. -1 max stamina [1]", so the
    screen named each option twice and "choose 1" sat beside "[1]". Now only the list number is shown, and a
    number is always a list number: one beyond the list is refused, never read as an option's id."""
    out: list[str] = []
    console = _console(sqlite_store, out, tmp_path)
    assert await console.run_lines([CTHULHU, "alice /game start"]) == 0
    options = [line for line in out if line.startswith("    ") and line[4:5].isdigit()]
    assert options[-2:] == ["    1. -1 max sanity", "    2. -1 max stamina"], out[-5:]
    assert not any(line.rstrip().endswith(("[0]", "[1]")) for line in out)
    assert await console.handle("alice choose 0") is Outcome.BAD
    assert out[-1] == "[error] choose a number from 1 to 2, as the options are numbered"
    assert await console.handle("alice choose 2") is Outcome.DONE
    assert any("maximum stamina is now" in line for line in out), out[-5:]
