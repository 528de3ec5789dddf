"""Arkham Horror 3e's cards for `/card` (its bot manifest's `cards`): investigators, assets and monsters
(encounters, events, headlines and archive cards are read when they come into play, as in `/ah card`), their
text as `/ah card` gives it, and where each lies now as the spectator's view shows it."""

from __future__ import annotations

from typing import Any

from bot.games.arkham3.readers import card_lines, readable_cards
from bot.games.manifest import CardBook, CardEntry
from engine.arkham3.view import ArkhamView
from engine.core.errors import IllegalAction
from engine.core.game import GameState


def _cards() -> dict[str, tuple[str, Any]]:
    return {card.id: (kind, card) for kind, card in readable_cards()}


def entries() -> list[CardEntry]:
    seen: set[tuple[str, str]] = set()
    out = []
    for cid, (kind, card) in _cards().items():
        if (kind, card.name) not in seen:
            seen.add((kind, card.name))
            out.append(CardEntry(id=cid, name=card.name, kind=kind.title() if kind != "asset" else card.kind.title()))
    return out


def text(card_id: str, state: GameState | None, seat: int | None) -> str:
    found = _cards().get(card_id)
    if found is None:
        raise IllegalAction(f"No Arkham Horror card has the id '{card_id}'.")
    return "\n".join(card_lines(*found))


def where(card_id: str, view: Any) -> str | None:
    """Where the card is in the game `view` shows (a spectator's view), or None when nowhere public."""
    if not isinstance(view, ArkhamView):
        return None
    found = _cards().get(card_id)
    if found is None:
        return None
    kind, card = found
    places: list[str] = []
    names = {s.id: s.name for s in view.spaces}
    for inv in view.investigators:
        if kind == "investigator" and inv.name == card.name:
            places.append(f"played by {inv.player}")
        held = sum(1 for a in inv.assets if a.name == card.name)
        if held:
            places.append(f"held by {inv.player}" + (f" ({inv.name})" if inv.name else "")
                          + (f", {held} copies" if held > 1 else ""))
    if kind == "asset" and any(a.name == card.name for a in view.display):
        places.append("in the item display, to buy")
    if kind == "monster":
        for m in view.monsters:
            if m.name == card.name:
                at = names.get(m.space or "", "engaged") if not m.engaged else "engaged"
                places.append(f"{at}, {m.status}, {m.damage}/{m.health} damage")
    return "; ".join(places) if places else None


CARDS = CardBook(entries=entries, text=text, where=where)
