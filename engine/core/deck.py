"""Decks of cards: a draw pile, a discard pile and a game-box pile (out of the game).

The top of the draw pile is the *end* of the list, so a draw is an O(1) pop. Faces are hidden by default:
`public_view()` shows counts only, and the discard pile's top card, which is face-up on a real table.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, Field

from engine.core.rng import Rng


class Reshuffle(StrEnum):
    NEVER = "never"  # an empty draw pile stays empty
    WHEN_EMPTY = "when_empty"  # shuffle the discard pile into a new draw pile when a draw finds it empty


class Deck(BaseModel):
    name: str
    draw_pile: list[str] = Field(default_factory=list)
    discard_pile: list[str] = Field(default_factory=list)
    box: list[str] = Field(default_factory=list)
    reshuffle: Reshuffle = Reshuffle.NEVER

    @classmethod
    def shuffled(cls, name: str, cards: list[str], rng: Rng, reshuffle: Reshuffle = Reshuffle.NEVER) -> Deck:
        deck = cls(name=name, draw_pile=list(cards), reshuffle=reshuffle)
        rng.shuffle(deck.draw_pile)
        return deck

    def __len__(self) -> int:
        return len(self.draw_pile)

    def draw(self, rng: Rng) -> str | None:
        """Take the top card, or None when none is left (after a reshuffle, if the policy allows one)."""
        if not self.draw_pile and self.reshuffle is Reshuffle.WHEN_EMPTY and self.discard_pile:
            self.draw_pile = self.discard_pile
            self.discard_pile = []
            rng.shuffle(self.draw_pile)
        return self.draw_pile.pop() if self.draw_pile else None

    def take(self, card: str) -> bool:
        """Remove a specific card from the draw pile (a search). False if it is not there."""
        try:
            self.draw_pile.remove(card)
        except ValueError:
            return False
        return True

    def peek(self, n: int = 1) -> list[str]:
        """The top n cards, top first. Only the engine calls this; views never expose it."""
        return list(reversed(self.draw_pile[-n:])) if n > 0 else []

    def put_bottom(self, card: str) -> None:
        self.draw_pile.insert(0, card)

    def put_top(self, card: str) -> None:
        self.draw_pile.append(card)

    def discard(self, card: str) -> None:
        self.discard_pile.append(card)

    def to_box(self, card: str) -> None:
        self.box.append(card)

    def shuffle(self, rng: Rng) -> None:
        rng.shuffle(self.draw_pile)

    def cards(self) -> list[str]:
        return self.draw_pile + self.discard_pile + self.box

    def public_view(self) -> dict[str, object]:
        return {
            "name": self.name,
            "draw": len(self.draw_pile),
            "discard": len(self.discard_pile),
            "discard_top": self.discard_pile[-1] if self.discard_pile else None,
        }
