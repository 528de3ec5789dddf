"""`/card`: every readable card of a game (its bot manifest's `CardBook`), found by name, for autocomplete and
for the command itself, through the one name matcher every command uses (bot/games/lookup.py).

Autocomplete offers the cards spelt most like what was typed (fuzzy), each labelled with the card's kind; its
value is the card's id, so a picked suggestion is never ambiguous. Free text typed without picking a
suggestion is matched as every name argument is: an exact name wins, then whole words, the start of a name,
any part of it; a tie is refused with the candidates, and a name that fits nothing is answered with the
names spelt like it ("Did you mean …?"), never taken on a guess.
"""

from __future__ import annotations

from functools import cache

from bot.games.lookup import best, did_you_mean, echo, fold, fuzzy, listing
from bot.games.manifest import CardBook, CardEntry, bot_games, cards_of
from engine.core.errors import IllegalAction

#: Discord shows at most 25 suggestions, each label and value at most 100 characters
SUGGESTIONS, CHOICE_MAX = 25, 100


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


def _scored(game: str, typed: str, limit: int) -> list[CardEntry]:
    """The cards spelt most like `typed`, best first (alphabetically when nothing is typed)."""
    entries = catalog(game)
    if not fold(typed):
        return sorted(entries, key=lambda e: e.name)[:limit]
    return [entries[index] for index, _, _ in fuzzy(typed, _folded(game), limit)]


def suggest(game: str, typed: str) -> list[tuple[str, str]]:
    """(label, card id) for autocomplete: the cards `typed` names best (alphabetically when nothing typed)."""
    return [(f"{e.name} ({e.kind})"[:CHOICE_MAX], e.id[:CHOICE_MAX]) for e in _scored(game, typed, SUGGESTIONS)]


def resolve(game: str, typed: str) -> CardEntry:
    """The card `typed` names: a card id (a picked suggestion), an exact name, or the one card it names best
    (bot/games/lookup.py `best`); IllegalAction with the candidates, or with the names spelt like it,
    otherwise."""
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
    hits = best(typed, catalog(game), lambda e: e.name, lambda e: e.id)
    if len(hits) == 1:
        return hits[0]
    if hits:
        raise IllegalAction(f"'{echo(typed)}' could be {listing([f'{e.name} ({e.kind})' for e in hits])}. Say more "
                            "of the name, or pick a suggestion.")
    near = did_you_mean(typed, [e.name for e in catalog(game)])
    if near:
        raise IllegalAction(f"No card is called '{echo(typed)}'.{near}")
    raise IllegalAction(f"No card is called anything like '{echo(typed)}'. Start typing a name and pick one of the "
                        "suggestions.")
