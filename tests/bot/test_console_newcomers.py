"""The console as new players met it (issue 30, items 1–5): `miskatonic run` with the commands piped in opens
the console, the console keeps several tables at once, an apostrophe in a name needs no quotes, the README
says that each line starts with a user name, and `help` answers for every group it lists."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.console import (
    CHANNEL_ID,
    NAMED_TABLES,
    TABLE_NAME_MAX,
    Console,
    Outcome,
    ParseError,
    split_line,
    table_channel,
    table_name,
)
from bot.service import GameService
from bot.store import Store

REPO = Path(__file__).resolve().parents[2]


def run_cli(args: list[str], cwd: Path, stdin: str | None = None, **env: str) -> subprocess.CompletedProcess[str]:
    """The command line as a user runs it; `stdin` is what is piped in (None: nothing at all, /dev/null)."""
    environment = {**os.environ, "PYTHONPATH": str(REPO), "DISCORD_TOKEN": "", **env}
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=cwd, env=environment, capture_output=True,
                          text=True, timeout=300, input=stdin,
                          stdin=subprocess.DEVNULL if stdin is None else None)


def _console(store: Store, out: list[str], tmp_path: Path) -> Console:
    return Console(GameService(store, render=False), tmp_path, seed=7, write=out.append)


# ---- 1. `miskatonic run` without a token, commands piped in ----------------------------------------------------

def test_run_without_a_token_plays_the_commands_piped_in(tmp_path: Path) -> None:
    """Issue 30, item 1: piped input used to print the token help and exit 2 while the README promised the
    console. Now the console opens and plays the lines, as typed ones, past a refusal."""
    result = run_cli(["run"], tmp_path, stdin="alice /game new game:elder-sign\nbob choose 1\nalice /game status\n")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "DISCORD_TOKEN" in result.stderr and "reading the commands from standard input" in result.stderr
    assert "[public] alice opened a game of Elder Sign" in result.stdout
    assert "[refused to bob] There is nothing to choose now." in result.stdout
    assert "> alice /game status" in result.stdout  # play went on past the refusal
    assert (tmp_path / "data" / "console.db").exists()


def test_run_without_a_token_and_nothing_to_read_exits_2(tmp_path: Path) -> None:
    """The one way `run` does not open the console, as the README says: standard input holds nothing (a
    service, a container started without -i), so the missing token is an error."""
    result = run_cli(["run"], tmp_path)
    assert result.returncode == 2
    assert "DISCORD_TOKEN" in result.stderr and "miskatonic console" in result.stderr
    assert "Standard input is empty" in result.stderr and result.stdout == ""


def test_run_without_a_token_at_a_terminal_opens_the_console(tmp_path: Path) -> None:
    """The third way of starting it: someone at a keyboard gets the interactive console."""
    import pty

    keyboard, terminal = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "bot", "run"], cwd=tmp_path, stdin=terminal,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(REPO), "DISCORD_TOKEN": ""})
    os.close(terminal)
    os.write(keyboard, b"alice /game new game:elder-sign\ntables\nquit\n")
    out, err = proc.communicate(timeout=120)
    os.close(keyboard)
    assert proc.returncode == 0, err
    assert "Opening the offline console now (type help, or Ctrl-D to leave)." in err
    assert "[public] alice opened a game of Elder Sign" in out and " * main: game #1 of Elder Sign" in out


def test_console_reads_piped_lines_as_a_session(tmp_path: Path) -> None:
    result = run_cli(["console", "--out", str(tmp_path / "out")], tmp_path,
                     stdin="alice /game new game:elder-sign\nalice /game frobnicate\n")
    assert result.returncode == 1  # a line that could not be understood
    assert "[public] alice opened a game of Elder Sign" in result.stdout
    assert result.stdout.splitlines()[-1] == "[error] 1 line could not be understood."


# ---- 2. several tables --------------------------------------------------------------------------------------

TABLES_SCRIPT = """\
alice /game new game:elder-sign
table second
alice /game new game:arkham3
tables
table main
alice /game status
"""


def test_the_console_keeps_several_tables(tmp_path: Path) -> None:
    """Issue 30, item 2: one game per database made a second `/game new` fail ("This channel already has a
    game"). Each table is a channel of its own: `table <name>` moves, `tables` lists, `--channel` starts at
    one."""
    script = tmp_path / "tables.txt"
    script.write_text(TABLES_SCRIPT)
    db = ["--db", str(tmp_path / "c.db"), "--out", str(tmp_path / "out")]
    first = run_cli(["console", "--script", str(script), "--channel", "main", *db], tmp_path)
    assert first.returncode == 0, first.stdout + first.stderr
    lines = first.stdout.splitlines()
    assert "[table second] nothing open yet: /game new or /campaign new opens a game here" in lines
    assert "[public] alice opened a game of Arkham Horror (3rd edition) (game #2; " in first.stdout
    listed = lines.index("> tables")
    assert lines[listed + 1:listed + 4] == [
        "Tables (2; 'table <name>' moves to one, or opens a new one):",
        "   main: game #1 of Elder Sign, gathering players",
        " * second: game #2 of Arkham Horror (3rd edition), gathering players"]
    assert "[table main] game #1 of Elder Sign, gathering players" in lines
    status = "\n".join(lines[lines.index("> alice /game status"):])
    assert "Elder Sign" in status and "Arkham" not in status
    # another session goes straight to a table with --channel
    again = tmp_path / "again.txt"
    again.write_text("alice /game status\n")
    second = run_cli(["console", "--script", str(again), "--channel", "second", *db], tmp_path)
    assert second.returncode == 0, second.stdout + second.stderr
    assert "Arkham Horror" in second.stdout and "Elder Sign" not in second.stdout


def test_table_names_are_channels_and_back() -> None:
    assert table_channel("main") == table_channel("MAIN") == CHANNEL_ID and table_name(CHANNEL_ID) == "main"
    assert table_channel("7") == 7 and table_name(7) == "7"  # a script's numbered table
    for name in ("a", "second", "witch-light", "z" * TABLE_NAME_MAX, "9lives", "-"):
        channel = table_channel(name)
        assert NAMED_TABLES < channel < 2**63 and table_name(channel) == name  # fits the database's BIGINT
    assert len({table_channel(n) for n in ("ab", "ba", "a-b", "a", "aa")}) == 5
    for bad in ("two words", "x" * (TABLE_NAME_MAX + 1), "0", "tab!e"):
        with pytest.raises(ParseError):
            table_channel(bad)


async def test_a_user_called_table_still_plays(sqlite_store: Store, tmp_path: Path) -> None:
    out: list[str] = []
    console = _console(sqlite_store, out, tmp_path)
    assert await console.handle("table /game new game:elder-sign") is Outcome.DONE
    assert console.channel == CHANNEL_ID  # a command line, not a move to another table
    assert any(line.startswith("[public] table opened a game of Elder Sign") for line in out), out
    assert await console.handle("table b/c") is Outcome.BAD and "is not a table name" in out[-1]


def test_a_bad_channel_option_is_one_line(tmp_path: Path) -> None:
    result = run_cli(["console", "--channel", "two words"], tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip() == "miskatonic console: --channel: 'two words' is not a table name: letters, " \
                                    "digits and -, at most 12"


# ---- 3. apostrophes -----------------------------------------------------------------------------------------

def test_an_apostrophe_needs_no_quotes(tmp_path: Path) -> None:
    """Issue 30, item 3: `/es use item:Reporter's Notebook` failed with "No closing quotation"."""
    script = tmp_path / "cards.txt"
    script.write_text("bob /card name:Reporter's Notebook game:elder-sign\n"
                      "bob /card name:'Reporter's Notebook' game:elder-sign\n")
    result = run_cli(["console", "--script", str(script), "--db", str(tmp_path / "c.db"), "--out",
                      str(tmp_path / "out")], tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count("[ephemeral to bob] **Reporter's Notebook**") == 2


def test_split_line_keeps_apostrophes_and_quotes() -> None:
    assert split_line("alice /es use item:Reporter's Notebook") == \
        ["alice", "/es", "use", "item:Reporter's", "Notebook"]
    # two apostrophes are two letters, not a quoted stretch between them (a shell would drop both)
    assert split_line("a /x n:Mother's Ring and Reporter's") == ["a", "/x", "n:Mother's", "Ring", "and", "Reporter's"]
    assert split_line('a /x n:"two words" m:\'Reporter\'s Notebook\'') == \
        ["a", "/x", "n:two words", "m:Reporter's Notebook"]
    assert split_line("a 'tis") == ["a", "'tis"]
    with pytest.raises(ParseError, match="no closing"):
        split_line('a /x n:"open')


async def test_an_apostrophe_in_a_game_command(sqlite_store: Store, tmp_path: Path) -> None:
    console = _console(sqlite_store, [], tmp_path)
    assert console.parse("alice /es use item:Reporter's Notebook").args == {"item": "Reporter's Notebook"}


# ---- 4. the README ------------------------------------------------------------------------------------------

def test_the_readme_says_each_console_line_starts_with_a_user() -> None:
    """Issue 30, item 4: the Playing section listed bare `/game new …`; the console needs `<user> /game new …`."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    playing = text.split("## Playing", 1)[1].split("\n## ", 1)[0]
    before_commands = playing.split("```", 1)[0]
    assert "alice /game new" in before_commands and "user" in before_commands
    for word in ("table <name>", "tables", "--channel", "Reporter's Notebook"):
        assert word in playing, word


# ---- 5. help ------------------------------------------------------------------------------------------------

def test_help_answers_for_every_group_it_lists(tmp_path: Path) -> None:
    """Issue 30, item 5: `help /campaign` said "No command group", `help /campaign upgrade` "No command", and
    `/eh` alone "needs a subcommand" without naming them."""
    script = tmp_path / "help.txt"
    script.write_text("help /campaign\nhelp /campaign upgrade\nalice /eh\n")
    result = run_cli(["console", "--script", str(script), "--keep-going", "--db", str(tmp_path / "c.db")],
                     tmp_path)
    out = result.stdout
    assert "No command" not in out
    assert "  /campaign upgrade [card:]  — Between scenarios" in out
    assert "/campaign upgrade: Between scenarios" in out and "card:<value>  (optional)" in out
    assert "[error] line 3: /eh needs a subcommand:" in out and "  /eh travel [destination:]" in out


def test_the_console_help_shares_the_bots_command_groups() -> None:
    from bot.bot import BASE_EXTENSIONS
    from bot.command_help import SHARED_COGS, groups

    assert SHARED_COGS == BASE_EXTENSIONS
    assert {"game", "gm", "campaign", "rules", "card", "help", "stats"} <= set(groups())
