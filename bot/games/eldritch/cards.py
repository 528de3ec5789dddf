"""Eldritch Horror's cards for `/card` (its bot manifest's `cards`): the cards whose faces anyone may read
(encounter decks stay out, as in `/eh card`), their text as `/eh card` gives it, and where each lies now as
the spectator's view shows it (Spells and Conditions by their fronts only, digest 8)."""

from __future__ import annotations

from typing import Any

from bot.games.eldritch.readers import _card_lines, _card_tables, space_label
from bot.games.manifest import CardBook, CardEntry
from engine.core.errors import IllegalAction
from engine.core.game import GameState
from engine.eldritch.content import EldritchContent, content_of, default_content
from engine.eldritch.state import EldritchState
from engine.eldritch.view import CardFace, EldritchView

#: the readers' kind -> the kind of a view's card face
FACE_KINDS = {"Asset": "asset", "Artifact": "artifact", "Spell": "spell", "Condition": "condition",
              "Mythos": "mythos", "Mystery": "mystery"}


def _cards(c: EldritchContent) -> dict[str, tuple[str, Any]]:
    return {card.id: (kind, card) for kind, table in _card_tables(c) for card in table.values()}


def entries() -> list[CardEntry]:
    """One entry per card as players name it: numbered copies of a Spell or Condition read the same."""
    seen: set[tuple[str, str]] = set()
    out = []
    for cid, (kind, card) in _cards(default_content()).items():
        if (kind, card.name) not in seen:
            seen.add((kind, card.name))
            out.append(CardEntry(id=cid, name=card.name, kind=kind[0].upper() + kind[1:]))
    return out


def text(card_id: str, state: GameState | None, seat: int | None) -> str:
    c = content_of(state.content_version) if isinstance(state, EldritchState) else default_content()
    found = _cards(c).get(card_id)
    if found is None:
        raise IllegalAction(f"No Eldritch Horror card has the id '{card_id}'.")
    return "\n".join(_card_lines(*found))


def _same(face: CardFace, kind: str, name: str) -> bool:
    return face.name == name and face.kind == FACE_KINDS.get(kind)


def where(card_id: str, view: Any) -> str | None:
    """Where the card is in the game `view` shows (a spectator's view), or None when nowhere public."""
    if not isinstance(view, EldritchView):
        return None
    found = _cards(content_of(view.content_version)).get(card_id)
    if found is None:
        return None
    kind, card = found
    places: list[str] = []
    if view.ancient_one.id == card_id:
        places.append(f"the Ancient One of this game{' (awakened)' if view.awakened else ''}: doom {view.doom}, "
                      f"Mysteries solved {len(view.solved)}/{view.mysteries_needed}")
    if view.mystery is not None and _same(view.mystery, kind, card.name):
        places.append(f"the active Mystery ({view.mystery_progress})")
    if any(_same(f, kind, card.name) for f in view.solved):
        places.append("a solved Mystery")
    if any(_same(f, kind, card.name) for f in view.ongoing):
        places.append("in play as an ongoing Mythos card")
    if any(_same(f, kind, card.name) for f in view.reserve):
        places.append("in the reserve, to acquire")
    spaces = {s.id: s for s in view.spaces}
    if kind == "Monster":
        for m in view.monsters:
            if m.kind == card_id:
                hurt = f", {m.damage} damage on it" if m.damage else ""
                places.append(f"on {space_label(spaces[m.space]) if m.space in spaces else m.space}{hurt}")
    for inv in view.investigators:
        if inv.card == card_id:
            state = " (defeated)" if inv.defeated else " (eliminated)" if inv.eliminated else ""
            places.append(f"played by {inv.player}{state}")
        held = sum(1 for f in [*inv.possessions, *inv.conditions] if _same(f, kind, card.name))
        if held:
            places.append(f"held by {inv.player}" + (f" ({inv.name})" if inv.name else "")
                          + (f", {held} copies" if held > 1 else ""))
    return "; ".join(places) if places else None


CARDS = CardBook(entries=entries, text=text, where=where)
