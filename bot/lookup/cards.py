"""`/card`: every readable card of a game (its bot manifest's `CardBook`), found by name with fuzzy matching
(`rapidfuzz`), for autocomplete and for the command itself.

Autocomplete offers the best matches of what was typed, each labelled with the card's kind; its value is the
card's id, so a picked suggestion is never ambiguous. Free text typed without picking a suggestion is matched
the same way: an exact name wins, then a clear fuzzy favourite; a close race is refused with the candidates.
"""

from __future__ import annotations

import unicodedata
from functools import cache

from rapidfuzz import fuzz, process, utils

from bot.games.lookup import echo, listing
from bot.games.manifest import CardBook, CardEntry, bot_games, cards_of
from engine.core.errors import IllegalAction

#: Discord shows at most 25 suggestions, each label and value at most 100 characters
SUGGESTIONS, CHOICE_MAX = 25, 100
#: a free-text name must score this much (0-100) to be taken, and beat the next card by this much
ACCEPT, LEAD = 70.0, 4.0


def fold(text: str) -> str:
    return utils.default_process(unicodedata.normalize("NFKC", text))


@cache
def book(game: str) -> CardBook | None:
    manifest = bot_games().get(game)
    return cards_of(manifest) if manifest is not None else None


@cache
def catalog(game: str) -> tuple[CardEntry, ...]:
    """Every readable card of `game`, in the game's order (empty for a game without a card book)."""
    cards = book(game)
    return tuple(cards.entries()) if cards is not None else ()


@cache
def _folded(game: str) -> tuple[str, ...]:
    return tuple(fold(e.name) for e in catalog(game))


def by_id(game: str, card_id: str) -> CardEntry | None:
    return next((e for e in catalog(game) if e.id == card_id), None)


def _scored(game: str, typed: str, limit: int) -> list[tuple[CardEntry, float, bool]]:
    """(card, score 0-100, whether the name holds every typed word), best first."""
    entries = catalog(game)
    query = fold(typed)
    if not query:
        return [(e, 0.0, True) for e in sorted(entries, key=lambda e: e.name)[:limit]]
    words = query.split()
    # WRatio weighs partial matches and word order; a name that holds every typed word comes first, then
    # one that starts with what was typed
    found = process.extract(query, _folded(game), scorer=fuzz.WRatio, processor=None, limit=None,
                            score_cutoff=40)
    names = _folded(game)
    scored = [(index, score, all(w in names[index] for w in words)) for _, score, index in found]
    scored.sort(key=lambda hit: (not hit[2], -hit[1], not names[hit[0]].startswith(query), hit[0]))
    return [(entries[index], score, holds) for index, score, holds in scored[:limit]]


def suggest(game: str, typed: str) -> list[tuple[str, str]]:
    """(label, card id) for autocomplete: the cards `typed` names best (alphabetically when nothing typed)."""
    return [(f"{e.name} ({e.kind})"[:CHOICE_MAX], e.id[:CHOICE_MAX]) for e, _, _ in _scored(game, typed, SUGGESTIONS)]


def resolve(game: str, typed: str) -> CardEntry:
    """The card `typed` names: a card id (a picked suggestion), an exact name, or a clear fuzzy favourite;
    IllegalAction with the candidates otherwise."""
    picked = by_id(game, typed.strip())
    if picked is not None:
        return picked
    query = fold(typed)
    if not query:
        raise IllegalAction("Say which card: name:<the card's name> (start typing to see the cards).")
    exact = [e for e, name in zip(catalog(game), _folded(game), strict=True) if name == query]
    if len(exact) == 1:
        return exact[0]
    if exact:
        raise IllegalAction(f"Several cards are called '{echo(typed)}': "
                            f"{listing([f'{e.name} ({e.kind})' for e in exact])}. Pick one from the suggestions.")
    scored = _scored(game, typed, 6)
    holding = [e for e, _, holds in scored if holds]
    if len(holding) == 1:
        return holding[0]
    if not holding and scored and scored[0][1] >= ACCEPT and (len(scored) == 1 or scored[0][1] - scored[1][1] >= LEAD):
        return scored[0][0]
    if not scored:
        raise IllegalAction(f"No card is called anything like '{echo(typed)}'. Start typing a name and pick one "
                            "of the suggestions.")
    names = [f"{e.name} ({e.kind})" for e in holding or [e for e, _, _ in scored]]
    raise IllegalAction(f"'{echo(typed)}' could be {listing(names)}. Say more of the name, or pick a suggestion.")
