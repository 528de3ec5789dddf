"""Elder Sign's cards for `/card` (its bot manifest's `cards`): every card of the shipped content, its text
as `/es card` gives it, and where it lies now as the spectator's view shows it (Elder Sign is open
information except deck order and the cup, digest 9.18)."""

from __future__ import annotations

from typing import Any

from bot.games.elder_sign.commands import card_text
from bot.games.manifest import CardBook, CardEntry
from engine.core.errors import IllegalAction
from engine.core.game import GameState
from engine.elder_sign.content import default_content
from engine.elder_sign.state import ElderSignState
from engine.elder_sign.view import CardView, ElderSignView

#: content table -> the kind a player reads in the suggestions
TABLES = (("investigators", "Investigator"), ("ancient_ones", "Ancient One"), ("adventures", "Adventure"),
          ("other_worlds", "Other World"), ("monsters", "Monster"), ("mythos", "Mythos"), ("items", ""))
ITEM_KINDS = {"common": "Common item", "unique": "Unique item", "spell": "Spell", "ally": "Ally"}


def _cards() -> dict[str, tuple[str, Any]]:
    c = default_content()
    out: dict[str, tuple[str, Any]] = {}
    for table, kind in TABLES:
        for card in getattr(c, table).values():
            out[card.id] = (kind or ITEM_KINDS[card.kind], card)
    return out


def entries() -> list[CardEntry]:
    return [CardEntry(id=cid, name=card.name, kind=kind) for cid, (kind, card) in _cards().items()]


def text(card_id: str, state: GameState | None, seat: int | None) -> str:
    found = _cards().get(card_id)
    if found is None:
        raise IllegalAction(f"No Elder Sign card has the id '{card_id}'.")
    own = state if isinstance(state, ElderSignState) else None
    # card names are unique in Elder Sign, so the exact name finds exactly this card
    body = card_text(found[1].name, own, seat if own is not None else None)
    lines = [line for line in body.splitlines() if not line.startswith("Also matching")]
    lines.insert(1, f"_{found[0]}_")
    return "\n".join(lines)


def _on_card(card: CardView, label: str) -> str:
    who = f", with {len(card.investigators)} investigator{'s' if len(card.investigators) != 1 else ''} on it" \
        if card.investigators else ""
    return f"{label}{who}"


def where(card_id: str, view: Any) -> str | None:
    """Where the card is in the game `view` shows (a spectator's view), or None when nowhere public."""
    if not isinstance(view, ElderSignView):
        return None
    found = _cards().get(card_id)
    if found is None:
        return None
    name = found[1].name
    places: list[str] = []
    if view.ancient_one.id == card_id:
        places.append(f"the Ancient One of this game: doom {view.ancient_one.doom}/"
                      f"{len(view.ancient_one.doom_track)}, Elder Signs {view.elder_signs}/"
                      f"{view.ancient_one.elder_sign_limit}")
    if view.mythos is not None and view.mythos.name == name:
        places.append("the Mythos card in force")
    for i, slot in enumerate(view.adventures):
        if slot is not None and slot.id == card_id:
            places.append(_on_card(slot, f"face up on the table (adventure {i + 1})"))
    for world in view.other_worlds:
        if world.id == card_id:
            places.append(_on_card(world, "open as an Other World"))
    for card in [*(a for a in view.adventures if a is not None), *view.other_worlds]:
        for monster in card.monsters:
            if monster.name == name:
                places.append(f"on {card.name}" + (" (defeated)" if monster.defeated else ""))
    for seat in view.investigators:
        if seat.investigator == name:
            places.append(f"played by {seat.player}, at {seat.location_name}")
        held = seat.items + seat.allies
        if name in held:
            places.append(f"held by {seat.player}" + (f" ({seat.investigator})" if seat.investigator else ""))
        if any(t.name == name for t in seat.trophies):
            places.append(f"a trophy of {seat.player}")
    return "; ".join(places) if places else None


CARDS = CardBook(entries=entries, text=text, where=where)
