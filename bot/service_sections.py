"""Sections: how a game's steps become what the channel shows, for every game alike.

A section is one turn (or one phase, for games without turns): the channel shows it as one living message
that grows as it resolves and is frozen when it ends, and the board picture joins it then. The engine marks
sections with event kinds every game shares (engine/core/events.py): `turn.started`/`phase.started` begin
one, `turn.ended`/`phase.ended` end it; a game without start markers gets a section that ends at its first
`render` event. A section also opens to carry a question asked when none is open.

`SectionWriter` applies one step to the game's latest section and returns the sections it changed, which
the service commits in the same transaction as the step. It also decides whom to mention: a user the game
now waits for who was not awaited before (a player answering five prompts in a row is mentioned once; a
player holding several seats is one user).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.store.models import SectionRecord
from engine.core.events import Event

UNDO_MARK = "↩"


@dataclass
class SectionChange:
    """What one step did to one section, for front ends that print rather than edit (the console)."""

    number: int
    opened: bool  # the section began in this step
    lines: list[str] = field(default_factory=list)  # the lines it gained
    closed: bool = False  # it ended in this step
    board_step: int | None = None  # it ended and the board as of this step follows it


@dataclass
class _Merge:
    """A section closed earlier in this step that a later section of the same step joined: where the joining
    part begins, and what the section owed before it (its board, its end, its picture), to split the part off
    again if it is still open when the step ends."""

    section: SectionRecord
    at: int
    board: bool
    end_step: int | None
    image: dict[str, Any] | None
    marked: bool  # the joining part began with a turn or phase start (it ends at its end marker, not a render)


class SectionWriter:
    def __init__(self, game_id: int, latest: SectionRecord | None) -> None:
        self.game_id = game_id
        self.number = latest.number if latest is not None else 0
        self.latest = latest
        self.current = latest.copy() if latest is not None and not latest.closed else None
        # who the game waited for before this step: the base for deciding whom to mention
        self.awaited: list[int] = list(latest.awaited) if latest is not None else []
        self.changed: list[SectionRecord] = []
        self.changes: dict[int, SectionChange] = {}
        self._merge: _Merge | None = None

    # ---- building -----------------------------------------------------------------------------------

    def _touch(self, section: SectionRecord) -> SectionChange:
        if not any(s is section for s in self.changed):
            self.changed.append(section)
        if section.number not in self.changes:
            self.changes[section.number] = SectionChange(number=section.number, opened=False)
        return self.changes[section.number]

    def _open(self, *, marked: bool) -> SectionRecord:
        self.number += 1
        section = SectionRecord(game_id=self.game_id, number=self.number, marked=marked, awaited=list(self.awaited))
        self.current = section
        self._touch(section).opened = True
        return section

    def line(self, step: int, text: str, **marks: bool) -> None:
        section = self.current or self._join_closed(step) or self._open(marked=False)
        section.lines = [*section.lines, {"step": step, "text": text, **marks}]
        self._touch(section).lines.append(text)

    def event(self, step: int, event: Event) -> None:
        """One public event of the step (private ones are shown only to their seat, elsewhere)."""
        if event.private_to is not None:
            return
        if event.starts_section:
            if self.current is not None and self.current.lines and not self._bare(self.current):
                self.close(step)
            if self.current is None:
                if self._join_closed(step, marked=True) is None:
                    self._open(marked=True)
            else:  # an empty section opened to carry a question, or a bare heading, becomes this turn
                self.current.marked = True
        elif event.ends_section and self.current is None:
            self._reopen(step)
        self.line(step, event.text, **({"head": True} if event.starts_section else {}))
        section = self.current
        assert section is not None
        if event.data:
            # The latest event of each kind that carries data: the front end shows the newest one the game
            # can draw (the dice as they lie, not the stamina change that followed the roll).
            image = section.image or {"n": 0, "events": {}}
            number = image["n"] + 1
            events = dict(image["events"]) | {event.kind: {"data": event.data, "step": step, "n": number}}
            section.image = {"n": number, "events": events}
        if event.render:
            section.board = True
        marked = section.marked or (self._merge is not None and section is self._merge.section and self._merge.marked)
        if event.ends_section or (event.render and not marked):
            self.close(step)

    def _join_closed(self, step: int, *, marked: bool = False) -> SectionRecord | None:
        """Sections that end in the same step share one message and one board: a section beginning after
        another closed in this very step joins it (nobody has seen it frozen yet; its board, drawn at the end
        of the step, would be the same picture). If the joining part is still open when the step ends,
        `finish` splits it off as a section of its own, the live message."""
        closed_now = [s for s in self.changed if s.closed and s.end_step == step]
        if not closed_now:
            return None
        section = self.current = closed_now[-1]
        self._merge = _Merge(section=section, at=len(section.lines), board=section.board,
                             end_step=section.end_step, image=section.image, marked=marked)
        section.closed, section.board, section.awaited = False, False, list(self.awaited)
        change = self._touch(section)
        change.closed, change.board_step = False, None
        return section

    def _split_merge(self) -> None:
        """The part that joined a closed section is still open at the step's end: it becomes a section of its
        own, and the closed one is as it was (its lines, board, picture and end)."""
        merge, self._merge = self._merge, None
        assert merge is not None
        old = merge.section
        moved = old.lines[merge.at:]
        image = old.image if old.image != merge.image else None
        board = old.board
        old.lines, old.image, old.board = old.lines[:merge.at], merge.image, merge.board
        old.closed, old.end_step, old.awaited, old.pings = True, merge.end_step, [], []
        change = self._touch(old)
        change.closed, change.board_step = True, merge.end_step if old.board else None
        if moved:
            change.lines = change.lines[: len(change.lines) - len(moved)]
        self.current = None
        new = self._open(marked=merge.marked)
        new.lines, new.image, new.board = moved, image, board
        self._touch(new).lines = [str(line["text"]) for line in moved]

    def _bare(self, section: SectionRecord) -> bool:
        """A section begun in this very step that asked nothing and owes no board (a phase's heading followed
        at once by the first turn): it runs on into the next section instead of standing alone as a
        one-line message. The part of a step that joined a closed section is judged the same way."""
        if self._merge is not None and section is self._merge.section:
            return not section.board
        if not section.board and section.lines and all(line.get("head") for line in section.lines):
            return True  # only headings so far (a phase begun, a question asked, nothing said): run on
        change = self.changes.get(section.number)
        return change is not None and change.opened and not section.board

    def _reopen(self, step: int) -> bool:
        """Reopen the section that ended in this very step (nobody has seen it frozen yet), so that what
        closes after it in the same step ("the investigation phase ends" after the last turn, the game's
        result) joins it instead of standing alone as a one-line message with a second, identical board."""
        closed_now = [s for s in self.changed if s.closed and s.end_step == step]
        if not closed_now:
            return False
        section = self.current = closed_now[-1]
        section.closed, section.awaited = False, list(self.awaited)
        change = self._touch(section)
        change.closed, change.board_step = False, None
        return True

    def close(self, step: int) -> None:
        section = self.current
        if section is None:
            return
        if self._merge is not None and section is self._merge.section:
            section.board = section.board or self._merge.board  # one board, at the end of the step
            self._merge = None
        section.closed, section.end_step = True, step
        change = self._touch(section)
        change.closed = True
        change.board_step = step if section.board else None
        self.awaited = list(section.awaited)  # the next section mentions only users not awaited here
        section.awaited, section.pings = [], []  # a frozen message waits for nobody
        self.current = None

    def undo(self, step: int, text: str) -> None:
        """A moderator went back to `step`: the open section strikes what was undone and says so."""
        if self.current is not None:
            self.current.lines = [line | {"undone": True} if line["step"] > step else line
                                  for line in self.current.lines]
        self.line(step, text, undo=True)

    def finish(self, step: int, awaited: Sequence[int], *, over_line: str | None = None) -> list[SectionRecord]:
        """End the step: the game's result closes its last section; a question with no open section opens
        one; mentions for newly awaited users. Returns the changed sections (each with its rev bumped)."""
        if over_line is not None:
            if self.current is None:
                self._reopen(step)  # the result belongs to the section that just ended
            self.line(step, over_line)
            self.close(step)
            awaited = []
        elif self._merge is not None and self.current is self._merge.section:
            self._split_merge()
        if over_line is None and awaited and self.current is None:
            self._open(marked=False)
        section = self.current
        newly: list[int] = []
        if section is not None:
            # Touched even when nothing else changed: the step changed the questions its message carries.
            newly = [u for u in dict.fromkeys(awaited) if u not in section.awaited]
            section.awaited = list(dict.fromkeys(awaited))
            self._touch(section)
        for changed in self.changed:
            changed.rev += 1
        if section is not None:  # mentions owed only to users still awaited; the newly awaited at this rev
            kept = [p for p in section.pings if p[0] in section.awaited and p[0] not in newly]
            section.pings = kept + [[u, section.rev] for u in newly]
        return self.changed

    # ---- results ------------------------------------------------------------------------------------

    def latest_after(self) -> SectionRecord | None:
        """The game's latest section once the step is written (for the service's cache)."""
        if self.current is not None:
            return self.current
        if self.changed:
            return max(self.changed, key=lambda s: s.number)
        return self.latest

    def summary(self) -> list[SectionChange]:
        return [self.changes[n] for n in sorted(self.changes)]


def shown_lines(section: SectionRecord) -> list[str]:
    """The section's lines as the channel shows them: its opening line and each turn's or phase's start in
    bold, what a moderator undid struck through."""
    out = []
    for i, line in enumerate(section.lines):
        text = str(line["text"])
        if line.get("undone"):
            text = f"~~{text}~~"
        elif line.get("undo"):
            text = f"{UNDO_MARK} {text}"
        elif line.get("head") or (i == 0 and section.marked):
            text = f"**{text}**"
        out.append(text)
    return out
