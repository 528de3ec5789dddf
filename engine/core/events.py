"""Events: what happened, in words players read, with the card or rule that caused it.

Front ends show a game as a sequence of sections (one per turn, or per phase for games without turns). The
engine marks them with event kinds every game shares, so no front end needs to know any game:

* an event of kind `turn.started` or `phase.started` begins a new section (its text is the section's first
  line);
* an event of kind `turn.ended` or `phase.ended` ends the current section;
* in a game that emits no start marker, a section starts with whatever happens next and ends at the first
  event with `render=True` (the old meaning of render: "a phase ended").

`render=True` still asks for a board picture: it follows when the section that holds the event ends.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

TURN_STARTED, TURN_ENDED = "turn.started", "turn.ended"
PHASE_STARTED, PHASE_ENDED = "phase.started", "phase.ended"
SECTION_STARTS = frozenset({TURN_STARTED, PHASE_STARTED})
SECTION_ENDS = frozenset({TURN_ENDED, PHASE_ENDED})


class Event(BaseModel):
    kind: str  # machine-readable: "dice.rolled", "doom.added", "phase.ended", "game.won" ...
    text: str  # narration for the game log
    seat: int | None = None  # whose event it is, if anyone's
    cause: str = ""  # the card id or rule that caused it ("why did that happen?")
    data: dict[str, Any] = Field(default_factory=dict)
    private_to: int | None = None  # hidden-information events: only this seat may read them
    render: bool = False  # true when a board image should follow (a turn or phase ended, the game ended)

    @property
    def starts_section(self) -> bool:
        return self.kind in SECTION_STARTS

    @property
    def ends_section(self) -> bool:
        return self.kind in SECTION_ENDS
