"""What a seat cannot see, scrambled: `scramble(state, seat, rng)` permutes or re-deals only the parts of a game
state hidden from that seat, so an agent that decides from what the seat may see answers the same on both.

Hidden in every game: the order of every deck and draw pile, the draws to come from a cup or bag (its order),
and the game's own random number generator (reseeded). Per game:

* Elder Sign (only deck order and the cup are hidden): the adventure, other world, item, spell, ally and
  mythos decks; the monster cup.
* Eldritch Horror (Reference Guide, Hidden Information): every encounter, asset, artifact, spell, condition,
  mythos and mystery deck, but for what shows of a top card: the Spell and Condition decks lie face up (a copy
  of the top card's front stays on top) and the Expedition deck's top back names the Active Expedition's site
  (a card of that site stays on top); the Monster cup; the Clue pool; the Gate stack below the Gates an effect
  revealed (those stay on top, in order); the back of each Spell and Condition an investigator holds, swapped
  with a copy of the same front still in its deck (a card turned over right now shows its back, and stays).
* Arkham Horror 3e (rules summary, Conditions: nobody looks at a condition's back): every neighborhood, street,
  anomaly, monster, headline and asset deck and the event deck; the cup's order; the back of each dark pact an
  investigator holds, swapped with another dark pact copy in the condition pile (a blessed/cursed card shows
  the side that is up, so it stays).
* The card game: each investigator's deck order (its own too, but for the top cards a search of it is showing
  that investigator right now), the encounter deck, the chaos bag's order, the campaign's pool of basic
  weaknesses not dealt; the other investigators' hands: each is shuffled into its investigator's deck and the
  same number of cards dealt back (a hand's size is public, its cards are not).

A swap of hidden backs exchanges two copies' ids everywhere in the state; it is recorded in `renamed` (old id
-> new id, both ways), so a test can compare an option that names the card before and after.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

from engine.core.deck import Deck
from engine.core.game import GameState


def _reseed(state: GameState, rng: random.Random) -> None:
    state.rng.state = rng.getrandbits(64)


def _shuffle_decks(decks: dict[str, Deck], rng: random.Random) -> None:
    for deck in decks.values():
        rng.shuffle(deck.draw_pile)


def _elder_sign(state: Any, seat: int, rng: random.Random) -> None:
    _shuffle_decks(state.decks, rng)
    rng.shuffle(state.cup)


def _copy_group(card: str) -> str:
    """The front a copy shares with its siblings: the id without its copy number ("...amnesia-2" -> "...amnesia")."""
    stem, _, number = card.rpartition("-")
    return stem if number.isdigit() else card


def _twins(held: list[str], pile: list[str], rng: random.Random) -> dict[str, str]:
    """For each card of `held`, a random copy of the same front in `pile`, or itself: what the holder cannot tell
    apart. Returned as a transposition (each pair both ways)."""
    swaps: dict[str, str] = {}
    free = list(pile)
    for card in held:
        twins = [other for other in free if _copy_group(other) == _copy_group(card)]
        pick = rng.randrange(len(twins) + 1)
        if pick < len(twins):
            other = twins[pick]
            free.remove(other)
            swaps[card], swaps[other] = other, card
    return swaps


def _eldritch_backs(state: Any, rng: random.Random) -> dict[str, str]:
    swaps: dict[str, str] = {}
    for kind in ("spell", "condition"):
        held = [card for inv in state.investigators for card in (inv.spells if kind == "spell" else inv.conditions)
                if card not in state.flipped]
        swaps |= _twins(held, state.decks[kind].draw_pile, rng)
    return swaps


def _eldritch(state: Any, seat: int, rng: random.Random) -> None:
    from engine.eldritch.ops import content

    sites = content(state).expeditions
    # what shows of a deck's top card: the front of a Spell or Condition (those decks lie face up), the site on
    # an Expedition card's back (the Active Expedition token stands there)
    showing: dict[str, Callable[[str], str | None]] = {"spell": _copy_group, "condition": _copy_group,
                                                       "expedition": lambda card: sites[card].site}
    tops = {kind: (shows, shows(state.decks[kind].draw_pile[-1])) for kind, shows in showing.items()
            if state.decks[kind].draw_pile}
    _shuffle_decks(state.decks, rng)
    for kind, (shows, was) in tops.items():
        pile = state.decks[kind].draw_pile
        pile.append(pile.pop(rng.choice([i for i, card in enumerate(pile) if shows(card) == was])))
    rng.shuffle(state.cup)
    rng.shuffle(state.clue_pool)
    shown = len(state.revealed_gates)  # the revealed Gates are the top of the stack, in order
    cut = len(state.gate_stack) - shown
    below = state.gate_stack[:cut]
    rng.shuffle(below)
    state.gate_stack[:cut] = below


def _arkham3_backs(state: Any, rng: random.Random) -> dict[str, str]:
    from engine.arkham3.board import content

    conditions = content(state).conditions
    held = [card for row in state.table if row.inv is not None for card, face in row.inv.conditions.items()
            if face == "front"]  # a dark pact: the blessed/cursed card shows the side that is up
    pile = [card for card in state.conditions_pile if conditions[card].kind == "dark_pact"]
    return _twins(held, pile, rng)


def _arkham3(state: Any, seat: int, rng: random.Random) -> None:
    for deck in state.decks.values():
        rng.shuffle(deck)
    rng.shuffle(state.event_deck)
    rng.shuffle(state.cup)


def _arkham_lcg(state: Any, seat: int, rng: random.Random) -> None:
    if state.campaign is not None:
        rng.shuffle(state.campaign.weakness_pool)
    rng.shuffle(state.bag)
    if state.scenario is not None:
        rng.shuffle(state.scenario.encounter_deck)
    for n, inv in enumerate(state.invs):
        if n != seat:
            # its own cards in hand are re-dealt from hand and deck together (an encounter card kept in a hand
            # cannot come from the deck, so it stays)
            mine = [uid for uid in inv.hand if state.cards[uid].owner == n]
            kept = [uid for uid in inv.hand if state.cards[uid].owner != n]
            cards = mine + inv.deck
            rng.shuffle(cards)
            inv.hand, inv.deck = kept + cards[:len(mine)], cards[len(mine):]
            for uid in cards[:len(mine)]:
                state.cards[uid].zone = "hand"
            for uid in inv.deck:
                state.cards[uid].zone = "deck"
        else:
            # the top cards a search of its own deck is showing the seat stay where they are
            shown = max((int(f.args.get("count", 0)) for f in state.flow.stack
                         if f.op == "search_deck" and f.seat == n == seat), default=0)
            cut = max(0, len(inv.deck) - shown)
            below = inv.deck[:cut]
            rng.shuffle(below)
            inv.deck[:cut] = below


SCRAMBLES: dict[str, Callable[[Any, int, random.Random], None]] = {
    "elder-sign": _elder_sign, "eldritch": _eldritch, "arkham3": _arkham3, "arkham-lcg": _arkham_lcg}
#: game -> the copies whose hidden backs are swapped (a transposition of card ids)
BACKS: dict[str, Callable[[Any, random.Random], dict[str, str]]] = {
    "eldritch": _eldritch_backs, "arkham3": _arkham3_backs}


def renamer(renamed: dict[str, str]) -> Callable[[str], str]:
    """Replace every card id of `renamed` in a text (an option id, a JSON dump) at once, whole ids only."""
    if not renamed:
        return lambda text: text
    pattern = re.compile(r"(?<![\w.-])(" + "|".join(re.escape(k) for k in renamed) + r")(?![\w-])")
    return lambda text: pattern.sub(lambda m: renamed[m.group(1)], text)


def _transpose(state: GameState, swaps: dict[str, str]) -> GameState:
    """The state with each card id of `swaps` exchanged for its partner everywhere it is named (in hand, in the
    deck, in a pending step's arguments, in "used this round" marks)."""
    return type(state).model_validate_json(renamer(swaps)(state.model_dump_json()))


def scramble(state: GameState, seat: int, rng: random.Random, renamed: dict[str, str] | None = None) -> GameState:
    """A copy of `state` with everything hidden from `seat` permuted, and the game's RNG reseeded. Card ids
    exchanged on the way are added to `renamed` (old id -> new id)."""
    swaps = BACKS[state.game](state, rng) if state.game in BACKS else {}
    out = _transpose(state, swaps) if swaps else state.model_copy(deep=True)
    if renamed is not None:
        renamed.update(swaps)
    SCRAMBLES[state.game](out, seat, rng)
    _reseed(out, rng)
    return out
