"""`/rules`: search our own rules notes: the Markdown files each bot manifest names in `rules_docs`, which are
each game's rules reference written for players (docs/rules/<game>.md), never the developers' notes in docs/.

The notes are cut into passages at their headings; a long section is cut further at its top-level list
items and table rows, so an answer is a paragraph about the question rather than a whole chapter. Passages
are ranked with BM25 (`rank_bm25`), one index per game, built in memory once per process: it works offline
(the console) and whatever the database.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from rank_bm25 import BM25Okapi

log = logging.getLogger(__name__)

#: a section longer than this is cut at its list items and table rows
SECTION_MAX = 700
#: the longest title a piece of a section gets from its first words
TITLE_WORDS = 8
#: how many passages an answer quotes in full, and how many more it names
SHOWN, NAMED = 2, 4
#: an answer's quoted text, at most (Discord allows 2,000 characters a message)
ANSWER_MAX = 1700

_HEADING = re.compile(r"^(#{1,6})\s+(.*\S)\s*$")
_WORD = re.compile(r"[a-z0-9]+")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_STOP = frozenset("""a an and are as at be by can do does for from how i if in is it its me my of on or so that the
their then there this to was what when where which who why will with you your""".split())


@dataclass(frozen=True)
class Passage:
    game: str
    doc: str  # the file it comes from, repository-relative
    title: str  # its headings, outermost first, joined with " › "
    text: str


def stem(word: str) -> str:
    """A crude English stem, enough to match "rolls" with "roll" and "abilities" with "ability"."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def tokens(text: str) -> list[str]:
    return [stem(w) for w in _WORD.findall(text.lower()) if w not in _STOP]


def _blocks(body: str) -> list[str]:
    """A long section's top-level pieces: each list item (with its continuation lines), each table row
    (not the header and rule rows), each paragraph."""
    blocks: list[list[str]] = []
    table_header = True
    for line in body.splitlines():
        if not line.strip():
            blocks.append([])
            table_header = True
            continue
        if line.startswith("|"):
            if re.fullmatch(r"\|[\s:|-]+\|?", line.strip()):
                table_header = False  # the rule under the header row
                continue
            if table_header:
                continue
            # a table row reads as its cells in turn
            blocks.append([" — ".join(c.strip() for c in line.strip().strip("|").split("|") if c.strip())])
            continue
        if re.match(r"([-*]|\d+\.)\s", line) or not blocks:
            blocks.append([line])
        else:
            blocks[-1].append(line)
    return ["\n".join(b).strip() for b in blocks if "\n".join(b).strip()]


def _block_title(block: str) -> str:
    """What a piece is about: its bold lead, else a table row's first cell, else its first words."""
    bold = _BOLD.search(block[:120])
    if bold:
        text = bold.group(1).strip(" .:")
    elif " — " in block.splitlines()[0]:
        text = block.split(" — ")[0]
    else:
        text = re.sub(r"^([-*]|\d+\.)\s+", "", block)
    words = text.split()
    return " ".join(words[:TITLE_WORDS]) + ("…" if len(words) > TITLE_WORDS else "")


def split_markdown(text: str, game: str, doc: str) -> list[Passage]:
    """A Markdown file as passages: one per heading's section, long sections one per top-level piece."""
    passages: list[Passage] = []
    titles: list[str] = []
    body: list[str] = []

    def flush() -> None:
        content = "\n".join(body).strip()
        body.clear()
        if not content:
            return
        # the file's own title (its one H1) is said by the file's name; the headings below it say the rest
        title = " › ".join(titles[1:] if len(titles) > 1 else titles) or doc
        blocks = _blocks(content) if len(content) > SECTION_MAX else []
        if len(blocks) < 2:
            passages.append(Passage(game, doc, title, content))
            return
        for block in blocks:
            passages.append(Passage(game, doc, f"{title} › {_block_title(block)}", block))

    fenced = False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        heading = None if fenced else _HEADING.match(line)
        if heading:
            flush()
            level = len(heading.group(1))
            titles[level - 1:] = [heading.group(2).strip("# ")]
        else:
            body.append(line)
    flush()
    return passages


def repository_file(path: str) -> Path | None:
    """A repository-relative file: beside the source tree (a checkout), else under the working directory
    (an installed package run from a folder that holds the docs, as the Docker image does)."""
    for root in (Path(__file__).resolve().parents[2], Path.cwd()):
        candidate = root / path
        if candidate.is_file():
            return candidate
    return None


class RulesIndex:
    """Every game's passages, and a BM25 index over each game's."""

    def __init__(self, passages: list[Passage]) -> None:
        self.passages: dict[str, list[Passage]] = {}
        for p in passages:
            self.passages.setdefault(p.game, []).append(p)
        self._bm25: dict[str, BM25Okapi] = {}
        for game, found in self.passages.items():
            # the title counts twice: a passage headed "Focus" is about focus
            self._bm25[game] = BM25Okapi([tokens(f"{p.title} {p.title} {p.text}") or ["_"] for p in found])

    def games(self) -> list[str]:
        return sorted(self.passages)

    def search(self, game: str, query: str, limit: int = SHOWN + NAMED) -> list[Passage]:
        """The passages of `game` that best answer `query`, best first; none when no word of it occurs."""
        index = self._bm25.get(game)
        words = tokens(query)
        if index is None or not words:
            return []
        scores = index.get_scores(words)
        ranked = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
        return [self.passages[game][i] for i in ranked[:limit] if scores[i] > 0]


def answer(passages: list[Passage], query: str) -> list[str]:
    """The lines of an answer: the best passages quoted (within ANSWER_MAX), then the titles of the next."""
    lines = [f"Our rules notes on '{query}':"]
    used = 0
    shown = 0
    for p in passages[:SHOWN]:
        block = f"**{p.title}**\n{p.text}"  # the title alone: a file name means nothing to a player
        if shown and used + len(block) > ANSWER_MAX:
            break
        if len(block) > ANSWER_MAX:
            block = block[:ANSWER_MAX - 1] + "…"
        lines.append(block)
        used += len(block)
        shown += 1
    rest = passages[shown:]
    if rest:
        lines.append("Also: " + "; ".join(f"{p.title}" for p in rest) + " — ask /rules with those words.")
    return lines


@cache
def rules_index() -> RulesIndex:
    """The index of every registered game's notes, built once (the bot builds it when its cog loads)."""
    from bot.games.manifest import bot_games

    passages: list[Passage] = []
    for game in bot_games().values():
        for doc in game.rules_docs:
            path = repository_file(doc)
            if path is None:
                log.warning("the rules notes %s of %s are missing: /rules will not find them", doc, game.game)
                continue
            passages += split_markdown(path.read_text(encoding="utf-8"), game.game, doc)
    return RulesIndex(passages)
