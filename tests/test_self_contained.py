"""The project stands on its own: nothing in it names a file outside the repository.

A clone with nothing beside it must pass its tests, and a reader of the code must be able to follow every
citation. So no source, test, migration, content or doc file may hold an absolute path (`/work/…`, `/home/…`,
`C:\\…`, `~/…`), a `../` path that climbs out of the repository, or a `Path(__file__).parents[N]` that reaches
above it. Rules are cited in words (rulebook page or heading, our rulings in `docs/<game>.md`).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCANNED = ("bot", "engine", "tests", "migrations", "assets", "docs", "examples")
TEXT_SUFFIXES = {".py", ".md", ".yaml", ".yml", ".txt", ".ini", ".toml", ".cfg", ".json", ".mako", ".sh"}

# A path that starts at the filesystem root: `/x/y` not preceded by a word, a dot, a colon (URLs) or another
# slash. Slash commands (`/game new`) have one segment and are not matched.
ABSOLUTE = re.compile(r"(?<![\w.:/~<>-])/(?:[\w.-]+/)+[\w.*-]+|(?<![\w])~/[\w.-]+|\b[A-Za-z]:\\\\?[\w.-]+")
CLIMB = re.compile(r"(?:\.\./)+[\w.*-]*")
PARENTS = re.compile(r"Path\(__file__\)(?:\.resolve\(\))?\.parents\[(\d+)\]")
# Fake paths that tests build on purpose inside a temporary folder, routes of the fake Discord's HTTP API, and
# Discord's own endpoints: not files of this machine.
ALLOWED_PREFIXES = ("/api/", "/channels/", "/webhooks/", "/interactions/", "/applications/", "/guilds/", "/users/",
                    "/gateway", "/attachments/", "/oauth2/", "/dev/null", "/dev/shm/", "/proc/self/")


def _files() -> list[Path]:
    found = []
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*")):
            # This file shows the guard's own examples; a third party's licence text names its own system paths.
            if path == Path(__file__).resolve() or "LICENSE" in path.name:
                continue
            if path.is_file() and path.suffix in TEXT_SUFFIXES and ".venv" not in path.parts:
                found.append(path)
    return found


def _inside(path: Path) -> bool:
    try:
        path.resolve().relative_to(ROOT)
    except ValueError:
        return False
    return True


def offences(path: Path, text: str) -> list[str]:
    """Every outside path in one file's text, as `file:line: path` lines."""
    found = []
    rel = path.relative_to(ROOT)
    for number, line in enumerate(text.splitlines(), 1):
        for match in ABSOLUTE.finditer(line):
            token = match.group(0)
            if token.startswith(ALLOWED_PREFIXES):
                continue
            found.append(f"{rel}:{number}: absolute path {token}")
        for match in CLIMB.finditer(line):
            token = match.group(0)
            from_file = path.parent / token
            # Python reads relative paths from the working directory (the repository's root), Markdown from
            # the file's own folder: a climb must stay inside the repository in the way it is read.
            from_root = ROOT / token if path.suffix == ".py" else from_file
            if not (_inside(from_file) and _inside(from_root)):
                found.append(f"{rel}:{number}: path leaves the repository {token}")
        for match in PARENTS.finditer(line):
            if int(match.group(1)) >= len(rel.parts):
                found.append(f"{rel}:{number}: parents[{match.group(1)}] reaches above the repository")
    return found


def test_no_file_names_a_path_outside_the_repository() -> None:
    found = [line for path in _files() for line in offences(path, path.read_text(encoding="utf-8", errors="replace"))]
    assert not found, "paths outside the repository:\n" + "\n".join(found)


def test_the_scan_catches_each_kind_of_outside_path() -> None:
    """The guard above can fail: each kind of outside path is caught, and slash commands, URLs, fractions and
    climbs that stay inside are not."""
    probe = ROOT / "tests" / "probe.py"
    bad = [
        'FACTS = "' + "/" + 'work/shared/data/facts.yaml"',  # built, so this file holds no such path
        "see ../shared/rules/elder_sign.md",
        "open('../../elsewhere/x.txt')",
        "HOME = '~/notes.txt'",
        "ROOT = Path(__file__).resolve().parents[2]",
        r"C:\\games\\x",
    ]
    for line in bad:
        assert offences(probe, line), line
    good = [
        "/game new game:elder-sign · /es move place:<card> · /campaign next",
        "https://discord.com/developers/applications and/or 3/4 of the doom",
        "ROOT = Path(__file__).resolve().parents[1]",
        "route = '/api/v10/channels/1/messages'",
    ]
    for line in good:
        assert not offences(probe, line), line
    assert not offences(ROOT / "docs" / "howto" / "x.md", "[back](../DESIGN.md)")
