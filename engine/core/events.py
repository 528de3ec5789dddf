"""Events: what happened, in words players read, with the card or rule that caused it."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class Event(BaseModel):
    kind: str  # machine-readable: "dice.rolled", "doom.added", "phase.ended", "game.won" ...
    text: str  # narration for the game log
    seat: int | None = None  # whose event it is, if anyone's
    cause: str = ""  # the card id or rule that caused it ("why did that happen?")
    data: dict[str, Any] = Field(default_factory=dict)
    private_to: int | None = None  # hidden-information events: only this seat may read them
    render: bool = False  # true when a board image should follow (a turn or phase ended, the game ended)
