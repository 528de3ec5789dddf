"""The card game's deckbuilding: deck legality, experience costs, upgrades between scenarios and deck codes.

Pure functions over a `Content` and plain data: no I/O, no randomness. The rules and their sources (the official FAQ
by section, and digest §14, our rules summary's deckbuilding section, whose rulings docs/arkham_lcg.md writes out):

* **Deck size** (digest §14 "Deck frame", FAQ Q on permanent cards): the cards that count toward the
  investigator's `deck_size` are every card *except* signature cards (the investigator's own, listed in
  `signatures` or `signature_weakness`), weaknesses (basic or signature) and `permanent` cards. The count must
  equal `deck_size` exactly.
* **Deckbuilding options** (FAQ §1.15): each counted or permanent card must fit at least one option (class or
  trait, level range). An option with a `limit` is read as an "other" line: a card falls into it only when no
  unlimited option takes it, and the limited lines together may supply at most their limits (copies count).
  Signature cards and weaknesses are exempt (FAQ "Definitions: signature cards"; basic weaknesses are dealt,
  not chosen).
* **Copies by title** (FAQ §2.3: limits count copies by title): all versions of one name (levels and subtitles
  alike) share one limit, the smallest `deck_limit` among the versions in the deck; so an exceptional card
  (limit 1) allows one copy of its title, a myriad card three. Signature cards do not count toward a title's
  limit (FAQ "Definitions: signature cards"); weaknesses do not either.
* **Signature cards** (FAQ "Definitions: signature cards"): exactly the listed number of each (a card listed
  twice in `signatures` is required twice) and exactly one copy of the signature weakness; no other
  investigator's signature card.
* **Basic weaknesses**: a deck may hold any (they are dealt by the campaign). When the caller knows which were
  dealt (`dealt=`), the deck may not hold more copies of one than were dealt. Purchases never add a weakness.

Experience (`upgrade_cost`, `legal_upgrades`): see their docstrings. Not modelled: multi-class cards (a card has
one class in the schema), the Taboo list, bonded cards, and a required card lost in play (FAQ Q: the
requirement then disappears; the campaign record has no place to say so yet).
"""

from __future__ import annotations

import base64
import binascii
import zlib
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache

from pydantic import BaseModel

from engine.arkham_lcg.content import Content, DeckOption, Investigator, PlayerCard
from engine.arkham_lcg.state import InvestigatorRecord
from engine.core.errors import IllegalAction
from engine.core.trusted import trusted

CODE_PREFIX = "L1."
#: a deck code longer than this is not a deck (a guard before decoding untrusted text)
MAX_CODE_CHARS = 8000
#: the decompressed text of a code may not exceed this (a guard against compression bombs)
MAX_PLAIN_BYTES = 64_000
MAX_COPIES = 99
BREAKS_A_RULE = "That purchase would break a deckbuilding rule."


class Upgrade(BaseModel):
    """One purchase between scenarios: `add` one copy of a card, `remove` one copy (None: nothing leaves),
    for `cost` experience. `label` is what the player reads."""

    add: str
    remove: str | None = None
    cost: int
    label: str


@dataclass(frozen=True)
class _Problem:
    """A broken rule: `key` names the rule and its subject, `amount` how badly (so a move can be seen to make
    a broken deck no worse), `text` the sentence for the player."""

    key: tuple[str, str]
    amount: int
    text: str


# ---------------------------------------------------------------- small helpers

def _title(card: PlayerCard) -> str:
    return _title_of(card.name)


@lru_cache(maxsize=4096)
def _title_of(name: str) -> str:
    return " ".join(name.split()).casefold()


def display(card: PlayerCard) -> str:
    """A card's name as a player reads it in a list: name, subtitle, and its level when it has one above 0."""
    name = f"{card.name}: {card.subtitle}" if card.subtitle else card.name
    return f"{name} (level {card.level})" if card.level else name


def _investigator(content: Content, investigator_id: str) -> Investigator:
    inv = content.investigators.get(investigator_id)
    if inv is None:
        raise IllegalAction(f"There is no investigator '{investigator_id}' in this content.")
    return inv


def _is_own_signature(inv: Investigator, cid: str, card: PlayerCard) -> bool:
    return card.signature_of == inv.id or cid in inv.signatures or cid == inv.signature_weakness


def counts_toward_size(inv: Investigator, cid: str, card: PlayerCard) -> bool:
    """Whether a copy of this card counts toward the investigator's deck size (digest §14: requirements,
    weaknesses and permanent cards do not; nor does another investigator's signature card, which is refused
    on its own)."""
    return not (_is_own_signature(inv, cid, card) or card.signature_of is not None or card.weakness is not None
                or card.permanent)


def deck_count(content: Content, investigator_id: str, deck: Mapping[str, int]) -> int:
    """How many cards of `deck` count toward the investigator's deck size (unknown ids are not counted)."""
    inv = _investigator(content, investigator_id)
    total = 0
    for cid, n in deck.items():
        card = content.player.get(cid)
        if card is not None and n > 0 and counts_toward_size(inv, cid, card):
            total += n
    return total


def _fits(option: DeckOption, card: PlayerCard) -> bool:
    if card.level is None or not option.min_level <= card.level <= option.max_level:
        return False
    if card.cls in option.classes:
        return True
    wanted = {t.casefold() for t in option.traits}
    return any(t.casefold() in wanted for t in card.traits)


def _describe(option: DeckOption) -> str:
    parts: list[str] = []
    if option.classes:
        parts.append(" or ".join(option.classes) + " cards")
    if option.traits:
        parts.append("cards with the trait " + " or ".join(option.traits))
    what = " and ".join(parts)
    levels = (f"level {option.min_level}" if option.min_level == option.max_level
              else f"levels {option.min_level}–{option.max_level}")
    cap = f", up to {option.limit}" if option.limit is not None else ""
    return f"{what} ({levels}{cap})"


def _buyable(card: PlayerCard) -> bool:
    """A card a player may choose: not a weakness, not anyone's signature card, with a level."""
    return card.weakness is None and card.signature_of is None and card.level is not None


# ---------------------------------------------------------------- legality

def _problems(content: Content, inv: Investigator, deck: Mapping[str, int],
              dealt: Mapping[str, int] | None) -> list[_Problem]:
    out: list[_Problem] = []
    known: dict[str, tuple[PlayerCard, int]] = {}
    for cid in sorted(deck):
        n = deck[cid]
        if n < 0:
            out.append(_Problem(("count", cid), -n, f"The deck lists {n} copies of '{cid}'; a count cannot be "
                                                   "negative."))
            continue
        if n == 0:
            continue
        card = content.player.get(cid)
        if card is None:
            out.append(_Problem(("unknown", cid), n, f"The deck names '{cid}', which is not a player card in "
                                                     "this content."))
            continue
        known[cid] = (card, n)

    # size (the `size` key is special: a move may bring it closer to the target, never further)
    size = sum(n for cid, (card, n) in known.items() if counts_toward_size(inv, cid, card))
    if size != inv.deck_size:
        out.append(_Problem(("size", ""), abs(size - inv.deck_size),
                            f"The deck has {size} cards that count toward its size; {inv.name} needs exactly "
                            f"{inv.deck_size} (signature cards, weaknesses and permanent cards are not counted)."))

    # signature cards: exact counts, and nobody else's
    required = Counter(inv.signatures)
    required[inv.signature_weakness] += 1
    for sid in sorted(required):
        have = known.get(sid, (None, 0))[1]
        if have != required[sid]:
            card = content.player.get(sid)
            name = display(card) if card else sid
            kind = "signature weakness" if sid == inv.signature_weakness else "signature card"
            out.append(_Problem(("signature", sid), abs(have - required[sid]),
                                f"{inv.name}'s deck must hold exactly {required[sid]} "
                                f"{'copy' if required[sid] == 1 else 'copies'} of {name} (their {kind}); "
                                f"it holds {have}."))
    for cid, (card, n) in known.items():
        if card.signature_of is not None and card.signature_of != inv.id:
            owner = content.investigators.get(card.signature_of)
            who = owner.name if owner else card.signature_of
            out.append(_Problem(("foreign", cid), n, f"{display(card)} is {who}'s signature card; no other "
                                                     "investigator's deck may hold it."))
        elif card.signature_of == inv.id and cid not in required:
            out.append(_Problem(("foreign", cid), n, f"{display(card)} belongs to {inv.name} but is not among "
                                                     "their deckbuilding requirements."))

    # basic weaknesses: never more than were dealt
    if dealt is not None:
        for cid, (card, n) in known.items():
            if card.weakness == "basic" and n > dealt.get(cid, 0):
                out.append(_Problem(("weakness", cid), n - dealt.get(cid, 0),
                                    f"The deck holds {n} {'copy' if n == 1 else 'copies'} of the basic weakness "
                                    f"{display(card)}, but only {dealt.get(cid, 0)} "
                                    f"{'was' if dealt.get(cid, 0) == 1 else 'were'} dealt; basic weaknesses "
                                    "are dealt, never chosen."))

    # the cards the player chose: deckbuilding options and copies by title
    chosen = {cid: (card, n) for cid, (card, n) in known.items()
              if card.weakness is None and card.signature_of is None and cid not in required}
    out += _option_problems(inv, chosen)
    out += _title_problems(chosen)
    return out


def _option_problems(inv: Investigator, chosen: Mapping[str, tuple[PlayerCard, int]]) -> list[_Problem]:
    """FAQ §1.15: an unlimited option takes a card first; only cards no unlimited option takes use the limited
    lines, whose limits are shared out by a matching (a copy fits any limited line it qualifies for)."""
    out: list[_Problem] = []
    limited = [(i, o) for i, o in enumerate(inv.deck_options) if o.limit is not None]
    # each copy that needs a limited line, with the lines it may use
    needs: list[tuple[str, list[int]]] = []
    for cid, (card, n) in chosen.items():
        if any(o.limit is None and _fits(o, card) for o in inv.deck_options):
            continue
        lines = [i for i, o in limited if _fits(o, card)]
        if not lines:
            allowed = "; ".join(_describe(o) for o in inv.deck_options)
            out.append(_Problem(("option", cid), n, f"{display(card)} is not a card {inv.name} may take "
                                                    f"(allowed: {allowed})."))
            continue
        needs += [(cid, lines)] * n
    if not needs:
        return out
    left = _unplaced(needs, {i: o.limit or 0 for i, o in limited})
    if left:
        over = Counter(left)
        names = ", ".join(f"{display(chosen[cid][0])} ×{k}" for cid, k in sorted(over.items()))
        lines_used = sorted({i for _, lines in needs for i in lines})
        caps = "; ".join(_describe(inv.deck_options[i]) for i in lines_used)
        out.append(_Problem(("limit", ""), len(left), f"Too many cards from {inv.name}'s limited options ({caps}); "
                                                      f"these do not fit: {names}."))
    return out


def _unplaced(needs: list[tuple[str, list[int]]], capacity: dict[int, int]) -> list[str]:
    """Place each copy on one of its lines (bipartite matching by augmenting paths); return the card ids of the
    copies that could not be placed."""
    holder: dict[tuple[int, int], int] = {}  # (line, slot) -> index into needs

    def place(k: int, seen: set[tuple[int, int]]) -> bool:
        for line in needs[k][1]:
            for slot in range(capacity[line]):
                key = (line, slot)
                if key in seen:
                    continue
                seen.add(key)
                if key not in holder or place(holder[key], seen):
                    holder[key] = k
                    return True
        return False

    return [cid for k, (cid, _) in enumerate(needs) if not place(k, set())]


def _title_problems(chosen: Mapping[str, tuple[PlayerCard, int]]) -> list[_Problem]:
    by_title: dict[str, list[tuple[PlayerCard, int]]] = {}
    for card, n in chosen.values():
        by_title.setdefault(_title(card), []).append((card, n))
    out: list[_Problem] = []
    for title in sorted(by_title):
        group = by_title[title]
        total = sum(n for _, n in group)
        limit = min(card.deck_limit for card, _ in group)
        if total <= limit:
            continue
        name = group[0][0].name
        strict = [c for c, _ in group if c.deck_limit == limit]
        if any(c.exceptional for c in strict):
            why = f"{name} is exceptional: a deck may hold only 1 copy of its title"
        elif any(c.myriad for c in strict):
            why = f"{name} is myriad: a deck may hold at most 3 copies of its title"
        else:
            why = (f"a deck may hold at most {limit} {'copy' if limit == 1 else 'copies'} of {name} "
                   "(copies at every level count together)")
        out.append(_Problem(("title", title), total - limit, f"The deck holds {total} copies of {name}; {why}."))
    return out


def deck_errors(content: Content, investigator_id: str, deck: Mapping[str, int],
                dealt: Mapping[str, int] | None = None) -> list[str]:
    """Every reason `deck` (card id -> copies) is not a legal deck for the investigator, as sentences; empty
    when it is legal. The rules are listed in this module's docstring. `dealt` (basic weakness id -> copies
    dealt to this investigator), when given, caps the basic weaknesses the deck may hold."""
    inv = content.investigators.get(investigator_id)
    if inv is None:
        return [f"There is no investigator '{investigator_id}' in this content."]
    return [p.text for p in _problems(content, inv, deck, dealt)]


# ---------------------------------------------------------------- experience

def _card(content: Content, cid: str) -> PlayerCard:
    card = content.player.get(cid)
    if card is None:
        raise IllegalAction(f"'{cid}' is not a player card in this content.")
    return card


def is_upgrade(old: PlayerCard, new: PlayerCard) -> bool:
    """Whether `new` is a higher-level version of `old` (same name, subtitle ignored)."""
    return (_title(old) == _title(new) and old.level is not None and new.level is not None
            and new.level > old.level)


def upgrade_cost(content: Content, from_id: str | None, to_id: str, owned: Mapping[str, int] | None = None) -> int:
    """Experience to buy one copy of `to_id`.

    * A new card (`from_id` None): its experience, the level (doubled if exceptional); 0 for a level-0 card.
      The FAQ §1.8 minimum of 1 for a *purchase* of a level-0 card is applied by `purchase_cost`, because
      FAQ §1.18 waives it when refilling a deck below its size.
    * An upgrade of a copy of the same name to a higher level: the difference in experience, at least 1
      (a higher level always costs more, so the FAQ §1.8 note that the minimum does not apply to upgrades
      changes nothing).
    * Myriad (FAQ §1.20, digest §14): when `owned` (the deck before the purchase) already holds `to_id`, a
      further copy costs 0.

    Raises IllegalAction for a card no one may buy (a weakness, a signature card) or a `from_id` that is not a
    lower level of the same name.
    """
    new = _card(content, to_id)
    if not _buyable(new):
        raise IllegalAction(f"{display(new)} cannot be bought with experience (weaknesses and signature cards are "
                            "not chosen).")
    if owned is not None and new.myriad and owned.get(to_id, 0) > 0:
        return 0
    if from_id is None:
        return new.xp
    old = _card(content, from_id)
    if not is_upgrade(old, new):
        raise IllegalAction(f"{display(new)} is not a higher-level version of {display(old)}.")
    return max(1, new.xp - old.xp)


def _removable(inv: Investigator, cid: str, card: PlayerCard) -> str | None:
    """Why a copy of this card cannot be taken out of the deck by a purchase, or None if it can."""
    if _is_own_signature(inv, cid, card) or card.signature_of is not None:
        return f"{display(card)} is a signature card; it stays in the deck."
    if card.weakness is not None:
        return f"{display(card)} is a weakness; a purchase cannot take it out of the deck."
    if card.permanent:
        return f"{display(card)} is permanent; once in a deck it cannot be swapped out."
    return None


def purchase_cost(content: Content, investigator_id: str, deck: Mapping[str, int], add: str,
                  remove: str | None, *, size: int | None = None) -> int:
    """The experience one purchase costs with this deck (see `legal_upgrades` for the rules). `size`: the
    deck's count toward its size, when the caller knows it."""
    inv = _investigator(content, investigator_id)
    new = _card(content, add)
    if remove is not None and is_upgrade(_card(content, remove), new):
        return upgrade_cost(content, remove, add, owned=deck)
    price = upgrade_cost(content, None, add, owned=deck)
    if price == 0 and new.myriad and deck.get(add, 0) > 0:
        return 0  # a further myriad copy: the title's price was paid with the first copy
    refill = (remove is None and new.level == 0 and counts_toward_size(inv, add, new)
              and (deck_count(content, inv.id, deck) if size is None else size) < inv.deck_size)
    if refill:
        return 0
    return max(1, price)


@dataclass
class _Before:
    """What checking a purchase needs to know of the deck before it, worked out once for all the candidate
    purchases of one deck: each candidate then looks only at what one added and one removed card can change."""

    size: int  # cards counting toward the deck size
    amounts: dict[tuple[str, str], int]  # how badly each broken rule is broken
    required: frozenset[str]  # the signature cards and weakness
    titles: dict[str, list[tuple[str, PlayerCard, int]]]  # the chosen cards by title: (id, card, copies)
    needs: list[tuple[str, list[int]]]  # each chosen copy that needs a limited option, with the lines it may use
    capacity: dict[int, int]  # the limited lines' limits
    unplaced: dict[tuple[tuple[int, ...], str | None], int] = field(default_factory=dict)  # worked out so far
    lines: dict[str, tuple[int, ...] | None] = field(default_factory=dict)  # a card's limited lines (None: free)
    #: whether (add, remove) breaks its title's limit worse, worked out so far; remove None when it is of
    #: another title (the answer is then the add's alone)
    titled: dict[tuple[str, str | None], bool] = field(default_factory=dict)
    held_titles: dict[str, str] = field(default_factory=dict)  # each chosen card's title
    #: a purchase's price, worked out so far, by (add, remove); remove "" for any card of another title (the
    #: price is then the added card's alone)
    prices: dict[tuple[str, str | None], int] = field(default_factory=dict)


def _before(content: Content, inv: Investigator, deck: Mapping[str, int]) -> _Before:
    required = frozenset([*inv.signatures, inv.signature_weakness])
    titles: dict[str, list[tuple[str, PlayerCard, int]]] = {}
    needs: list[tuple[str, list[int]]] = []
    limited = [(i, o) for i, o in enumerate(inv.deck_options) if o.limit is not None]
    for cid, n in sorted(deck.items()):
        card = content.player.get(cid)
        if card is None or n <= 0 or card.weakness is not None or card.signature_of is not None or cid in required:
            continue
        titles.setdefault(_title(card), []).append((cid, card, n))
        if not any(o.limit is None and _fits(o, card) for o in inv.deck_options):
            lines = [i for i, o in limited if _fits(o, card)]
            if lines:
                needs += [(cid, lines)] * n
    return _Before(size=deck_count(content, inv.id, deck),
                   amounts={p.key: p.amount for p in _problems(content, inv, deck, None)}, required=required,
                   titles=titles, needs=needs, capacity={i: o.limit or 0 for i, o in limited},
                   held_titles={cid: title for title, group in titles.items() for cid, _, _ in group})


def _made_worse(content: Content, inv: Investigator, before: _Before, add: str, remove: str | None) -> bool | None:
    """Whether adding a copy of `add` (a card a player may buy) and taking out one of `remove` (a card a
    purchase may take out) breaks a rule other than the size worse than the deck before did; None when the move
    touches a deckbuilding requirement, for the whole deck's check to decide.

    Only the chosen cards change, so only the deckbuilding options and the copies by title can get worse: the
    options by the added card (a removed copy frees what it held) and the titles by the added card's title
    (taking out a copy of another title only lowers that title's count or raises its limit)."""
    if add in before.required or remove in before.required:
        return None
    card = content.player[add]
    if add not in before.lines:
        free = any(o.limit is None and _fits(o, card) for o in inv.deck_options)
        before.lines[add] = None if free else tuple(
            i for i, o in enumerate(inv.deck_options) if o.limit is not None and _fits(o, card))
    lines = before.lines[add]
    if lines is not None:
        if not lines:
            return True
        key = (lines, remove)
        left = before.unplaced.get(key)
        if left is None:
            needs = list(before.needs)
            if remove is not None:
                gone = next((k for k, (cid, _) in enumerate(needs) if cid == remove), None)
                if gone is not None:
                    del needs[gone]
            left = before.unplaced[key] = len(_unplaced([*needs, (add, list(lines))], before.capacity))
        if left > before.amounts.get(("limit", ""), 0):
            return True
    title = _title(card)
    same = remove if remove is not None and before.held_titles.get(remove) == title else None
    found = before.titled.get((add, same))
    if found is not None:
        return found
    group = {cid: (c, n) for cid, c, n in before.titles.get(title, [])}
    held = group.get(add, (card, 0))[1]
    group[add] = (card, held + 1)
    if remove in group:
        kept = group[remove][1] - 1
        if kept > 0:
            group[remove] = (group[remove][0], kept)
        else:
            del group[remove]
    over = sum(n for _, n in group.values()) - min(c.deck_limit for c, _ in group.values())
    found = before.titled[(add, same)] = over > before.amounts.get(("title", title), 0)
    return found


def _move_error(content: Content, inv: Investigator, deck: Mapping[str, int], add: str, remove: str | None,
                known: _Before | None = None) -> tuple[int, dict[str, int], str | None]:
    """Price and check one purchase: (cost, the deck after it, why it is not allowed or None). `known`, the
    deck's facts for checking many purchases of it, spares going through the whole deck for each (a move that
    breaks a deckbuilding rule is then refused with `BREAKS_A_RULE`, not the sentence naming the rule)."""
    card = content.player.get(add)
    if card is None:
        return 0, dict(deck), f"'{add}' is not a player card in this content."
    if not _buyable(card):
        return 0, dict(deck), f"{display(card)} cannot be bought (weaknesses and signature cards are never chosen)."
    if remove is not None:
        if deck.get(remove, 0) <= 0:
            return 0, dict(deck), f"There is no copy of '{remove}' in the deck to take out."
        if remove == add:
            return 0, dict(deck), "A card cannot be swapped for itself."
        why = _removable(inv, remove, _card(content, remove))
        if why:
            return 0, dict(deck), why
    after = dict(deck)
    after[add] = after.get(add, 0) + 1
    if remove is not None:
        after[remove] -= 1
        if after[remove] == 0:
            del after[remove]
    if known is None:
        cost = purchase_cost(content, inv.id, deck, add, remove)
        before = {p.key: p.amount for p in _problems(content, inv, deck, None)}
        size_before = deck_count(content, inv.id, deck)
        size_after = deck_count(content, inv.id, after)
    else:
        cost = purchase_cost(content, inv.id, deck, add, remove, size=known.size)
        before, size_before = known.amounts, known.size
        size_after = size_before + counts_toward_size(inv, add, card) - (
            remove is not None and counts_toward_size(inv, remove, content.player[remove]))
    # a purchase may bring the size toward the target, never away from it (FAQ §1.18 refills)
    if not min(size_before, inv.deck_size) <= size_after <= max(size_before, inv.deck_size):
        if size_after > size_before:
            return cost, after, (f"{display(card)} would make the deck too large: take a card out for it "
                                 f"({inv.name}'s deck holds {inv.deck_size} counted cards).")
        return cost, after, "That would leave the deck short of its size."
    worse = None if known is None else _made_worse(content, inv, known, add, remove)
    if worse:
        return cost, after, BREAKS_A_RULE  # a list leaves the move out: which rule it breaks is not read
    if worse is None:
        for p in _problems(content, inv, after, None):
            if p.key[0] == "size":
                continue
            if p.amount > before.get(p.key, 0):
                return cost, after, p.text
    if cost == 0 and remove is not None and not is_upgrade(content.player[remove], card):
        # A free swap may not take out a card that could then be bought back free (a myriad copy). Free moves
        # then only add cards already held, so a cycle of them could hold no such swap, and free upgrades
        # raise the deck's levels: a chain of free moves never returns to an earlier deck.
        back = content.player[remove]
        if back.myriad and after.get(remove, 0) > 0:
            return cost, after, f"Swapping out a copy of {display(back)} for a free copy would go round in circles."
    return cost, after, None


def _label(content: Content, up_add: str, up_remove: str | None, cost: int,
           names: dict[str, str] | None = None) -> str:
    """A purchase as a player reads it; `names`, when given, keeps each card's `display` for the next labels."""
    if names is None:
        names = {}
    new = names.get(up_add)
    if new is None:
        new = names[up_add] = display(content.player[up_add])
    if up_remove is None:
        return f"Add {new} — {cost} XP"
    old = names.get(up_remove)
    if old is None:
        old = names[up_remove] = display(content.player[up_remove])
    return f"Swap {old} for {new} — {cost} XP"


def legal_upgrades(content: Content, record: InvestigatorRecord) -> list[Upgrade]:
    """Every purchase the investigator can afford now (`cost <= record.xp`) that keeps the deck legal.

    A purchase adds one copy of a card that is not a weakness or a signature card and fits the investigator's
    options. It takes out one copy of a card that is not a signature card, a weakness or permanent (FAQ Q:
    permanent cards cannot be swapped), unless the deck needs no removal: the new card is permanent (it does
    not count toward size) or the deck is below its size (FAQ §1.18).

    Prices:
    * a higher level of a card taking out a lower level of the same name: the difference (`upgrade_cost`);
    * any other new card: its experience, at least 1 (FAQ §1.8) — so swapping a level-0 card for another
      level-0 card costs 1;
    * a level-0 card added to a deck below its size (after a forced removal or a change of deck size, FAQ
      §1.18): 0;
    * a further copy of a myriad card the deck already holds: 0 (FAQ §1.20, "XP paid once").

    The deck after the purchase breaks no rule the deck did not already break, and its size moves toward the
    target, never away. A free swap (not an upgrade) never takes out a myriad card that would stay in the deck,
    so a player (or an agent) taking free purchases one after another cannot go round in circles.

    Sorted: refills of a short deck first (cheapest first), then upgrades of cards in the deck (dearest first),
    then other purchases (dearest first); ties by label.
    """
    if record.status != "active":
        return []
    return [up.model_copy() for up in _kept(content, record) if up.cost <= record.xp]


def can_upgrade(content: Content, record: InvestigatorRecord) -> bool:
    """Whether `legal_upgrades` offers any purchase (asked before each upgrade question; nothing is copied)."""
    return record.status == "active" and any(up.cost <= record.xp for up in _kept(content, record))


def _kept(content: Content, record: InvestigatorRecord) -> tuple[Upgrade, ...]:
    """Every purchase for the record's deck at any price, from `_PURCHASES` (shared: never handed out)."""
    deck = tuple(sorted((cid, n) for cid, n in record.deck.items() if n > 0))
    key = (id(content), record.code, deck)
    kept = _PURCHASES.get(key)
    if kept is None or kept[0] is not content:
        if len(_PURCHASES) >= PURCHASES_KEPT:
            _PURCHASES.clear()
        kept = _PURCHASES[key] = (content, _every_purchase(content, record.code, deck))
    return kept[1]


#: every purchase for a deck, kept: a campaign's upgrade question reads the list several times per answer. Keyed
#: by the content object's id (the entry holds the object, so the id cannot be reused while it is kept).
_PURCHASES: dict[tuple[int, str, tuple[tuple[str, int], ...]], tuple[Content, tuple[Upgrade, ...]]] = {}
PURCHASES_KEPT = 256


def _every_purchase(content: Content, code: str, held: tuple[tuple[str, int], ...]) -> tuple[Upgrade, ...]:
    """Every purchase that keeps this deck legal, at any price, in `legal_upgrades`' order."""
    inv = _investigator(content, code)
    deck = dict(held)
    known = _before(content, inv, deck)
    short = known.size < inv.deck_size
    removes: list[str | None] = [None]
    for cid in sorted(deck):
        card = content.player.get(cid)
        if card is not None and deck[cid] > 0 and _removable(inv, cid, card) is None:
            removes.append(cid)
    adds = [cid for cid in sorted(content.player)
            if _buyable(content.player[cid]) and any(_fits(o, content.player[cid]) for o in inv.deck_options)]
    counted = {cid: counts_toward_size(inv, cid, content.player[cid]) for cid in deck if cid in content.player}
    ranked: list[tuple[tuple[int, int, str, str, str], Upgrade]] = []
    names: dict[str, str] = {}  # each card's name in the labels, written once for the hundreds of purchases
    for add in adds:
        new = content.player[add]
        adds_one = counts_toward_size(inv, add, new)
        for remove in removes:
            if remove is None and adds_one and not short:
                continue  # cheap skip: it would overfill the deck
            cost = _candidate(content, inv, deck, known, add, new, adds_one, remove, counted)
            if cost is not None:
                ranked.append(ranked_upgrade(content, inv, add, remove, cost, names))
    ranked.sort(key=lambda pair: pair[0])
    return tuple(up for _, up in ranked)


def _candidate(content: Content, inv: Investigator, deck: Mapping[str, int], known: _Before, add: str,
               new: PlayerCard, adds_one: bool, remove: str | None, counted: Mapping[str, bool]) -> int | None:
    """`_move_error` with `known` for one of `_every_purchase`'s candidates, which are bought cards a player
    may buy and removals of held cards a purchase may take out: its cost when the purchase is allowed, else
    None. The same tests in the same order, without the deck after the move (only its size and one count are
    read)."""
    if remove == add:
        return None
    size_after = known.size + adds_one - (remove is not None and counted[remove])
    if not min(known.size, inv.deck_size) <= size_after <= max(known.size, inv.deck_size):
        return None
    worse = _made_worse(content, inv, known, add, remove)
    if worse:
        return None
    if worse is None:  # a deckbuilding requirement is touched: the whole deck's check decides
        whole, _, why = _move_error(content, inv, deck, add, remove, known)
        return whole if why is None else None
    key = (add, remove if remove is None or _title(content.player[remove]) == _title(new) else "")
    cost = known.prices.get(key)
    if cost is None:
        cost = known.prices[key] = purchase_cost(content, inv.id, deck, add, remove, size=known.size)
    if cost == 0 and remove is not None:
        back = content.player[remove]
        if back.myriad and deck[remove] > 1 and not is_upgrade(back, new):
            return None  # a free swap that could be bought back free (see `_move_error`)
    return cost


def ranked_upgrade(content: Content, inv: Investigator, add: str, remove: str | None, cost: int,
                   names: dict[str, str] | None = None) -> tuple[tuple[int, int, str, str, str], Upgrade]:
    """A legal purchase and its place in the list: first what fills a short deck (cheapest first), then true
    upgrades of a card held (dearest first), then swaps (dearest first); ties by label."""
    if remove is None and counts_toward_size(inv, add, content.player[add]):
        group, order = 0, cost
    elif remove is not None and is_upgrade(content.player[remove], content.player[add]):
        group, order = 1, -cost
    else:
        group, order = 2, -cost
    label = _label(content, add, remove, cost, names)
    # built without validating again (engine/core/trusted.py): a purchase list holds hundreds
    up = trusted(Upgrade, {"add": add, "remove": remove, "cost": cost, "label": label})
    return (group, order, label, add, remove or ""), up


def apply_upgrade(content: Content, record: InvestigatorRecord, upgrade: Upgrade) -> InvestigatorRecord:
    """A copy of `record` with the purchase made: the deck changed and the experience spent. Raises
    IllegalAction (the record untouched) when the purchase is not one `legal_upgrades` would offer now."""
    if record.status != "active":
        raise IllegalAction("Only an active investigator can spend experience.")
    inv = _investigator(content, record.code)
    deck = {cid: n for cid, n in record.deck.items() if n > 0}
    cost, after, why = _move_error(content, inv, deck, upgrade.add, upgrade.remove)
    if why is not None:
        raise IllegalAction(why)
    if upgrade.cost != cost:
        raise IllegalAction(f"That purchase now costs {cost} XP, not {upgrade.cost}; choose it again.")
    if cost > record.xp:
        raise IllegalAction(f"That purchase costs {cost} XP; {inv.name} has {record.xp} XP to spend.")
    return record.model_copy(update={"deck": after, "xp": record.xp - cost}, deep=True)


# ---------------------------------------------------------------- starting decks and deck codes

def starting_deck(content: Content, investigator_id: str, weakness: str) -> dict[str, int]:
    """A new campaign deck: the investigator's starter deck, their signature cards (a card listed twice gives two
    copies), their signature weakness and the dealt basic weakness `weakness`."""
    inv = _investigator(content, investigator_id)
    dealt = content.player.get(weakness)
    if dealt is None or dealt.weakness != "basic":
        raise IllegalAction(f"'{weakness}' is not a basic weakness in this content.")
    deck: Counter[str] = Counter(inv.starter_deck)
    deck.update(inv.signatures)
    deck[inv.signature_weakness] += 1
    deck[weakness] += 1
    return {cid: deck[cid] for cid in sorted(deck) if deck[cid] > 0}


def deck_code(deck: Mapping[str, int]) -> str:
    """A code a player can paste: `L1.` then the URL-safe base64 (no padding) of the zlib-compressed text
    `id:n,id:n` with ids sorted. The same deck always gives the same code. Raises IllegalAction for a count
    below 1 or above 99, or an id that is empty or holds `:`, `,` or whitespace."""
    parts: list[str] = []
    for cid in sorted(deck):
        n = deck[cid]
        if not cid or any(ch in cid for ch in ":,") or any(ch.isspace() for ch in cid):
            raise IllegalAction(f"'{cid}' cannot be written in a deck code.")
        if not 1 <= n <= MAX_COPIES:
            raise IllegalAction(f"A deck code holds 1 to {MAX_COPIES} copies of a card, not {n} of '{cid}'.")
        parts.append(f"{cid}:{n}")
    packed = zlib.compress(",".join(parts).encode("utf-8"), 9)
    return CODE_PREFIX + base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")


def parse_deck_code(code: str) -> dict[str, int]:
    """The deck a code from `deck_code` stands for. Raises IllegalAction for anything else."""
    bad = IllegalAction("That is not a deck code (it should start with L1. and be copied whole).")
    text = code.strip()
    if len(text) > MAX_CODE_CHARS or not text.startswith(CODE_PREFIX):
        raise bad
    body = text[len(CODE_PREFIX):]
    try:
        packed = base64.b64decode(body + "=" * (-len(body) % 4), altchars=b"-_", validate=True)
        unzip = zlib.decompressobj()
        raw = unzip.decompress(packed, MAX_PLAIN_BYTES)
        if unzip.unconsumed_tail or not unzip.eof or unzip.unused_data:
            raise bad
        plain = raw.decode("utf-8")
    except (binascii.Error, zlib.error, UnicodeDecodeError, ValueError) as exc:
        raise bad from exc
    deck: dict[str, int] = {}
    if not plain:
        return deck
    for part in plain.split(","):
        cid, sep, num = part.partition(":")
        if (not sep or not cid or cid in deck or not num.isascii() or not num.isdigit()
                or any(ch.isspace() for ch in cid) or not 1 <= int(num) <= MAX_COPIES or num != str(int(num))):
            raise bad
        deck[cid] = int(num)
    if list(deck) != sorted(deck):
        raise bad
    return deck
