"""Finding what a player typed: an option of the pending prompt, a card, a space or a player, by name.

Shared by every game's commands so that `/es use item:lamp` and `/eh travel destination:lond` understand
names the same way: an exact name (or id) wins, then whole words in any order, then the start of the name or
of its words, then any part of it. A query that still fits several things equally well is refused with the
candidates listed, never guessed.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from typing import Protocol, TypeVar

from engine.core.errors import IllegalAction
from engine.core.prompt import Option

#: the longest piece of a player's input a message repeats back
ECHO_MAX = 40
#: how many candidates an error lists
LISTED = 10

T = TypeVar("T")
S = TypeVar("S", bound="Seated")

_WORD = re.compile(r"[\w'-]+")


def echo(text: str) -> str:
    """A player's input as a message quotes it: stripped, and cut to ECHO_MAX characters."""
    text = " ".join(text.split())
    return text if len(text) <= ECHO_MAX else text[:ECHO_MAX - 1] + "…"


def words(text: str) -> list[str]:
    """The words of a name, NFKC-normalised and case-folded ("Tomás" and "TOMÁS" are the same word)."""
    return _WORD.findall(unicodedata.normalize("NFKC", text).casefold())


def rank(query: str, name: str, ident: str = "") -> int | None:
    """How well `query` names a thing called `name` (id `ident`): 0 exact name or id, 1 all its words, 2 the
    start of the name or of its words, 3 any part of it; None when it does not match at all."""
    q = " ".join(words(query))
    if not q:
        return None
    qwords = q.split()
    name_words = words(name)
    n = " ".join(name_words)
    short = ident.split(".")[-1].split(":")[-1].casefold()
    if q in (n, ident.casefold(), short):
        return 0
    if all(w in name_words for w in qwords):
        return 1
    if n.startswith(q) or n.removeprefix("the ").startswith(q) or all(
            any(w.startswith(x) for w in name_words) for x in qwords):
        return 2
    if q in n or (ident and q in ident.casefold()):
        return 3
    return None


def best(query: str, things: Iterable[T], name: Callable[[T], str], ident: Callable[[T], str] = lambda _: "",
         prefer: Callable[[T], int] = lambda _: 0) -> list[T]:
    """The things `query` names best, in their given order: the lowest rank, then the lowest `prefer`
    (e.g. 0 for the asker's own card). Empty when nothing matches."""
    scored = [(r, prefer(t), i, t) for i, t in enumerate(things) if (r := rank(query, name(t), ident(t))) is not None]
    if not scored:
        return []
    top = min((r, p) for r, p, _, _ in scored)
    return [t for r, p, _, t in sorted(scored, key=lambda s: s[:3]) if (r, p) == top]


def listing(names: list[str]) -> str:
    shown = ", ".join(names[:LISTED])
    return shown + (f" and {len(names) - LISTED} more" if len(names) > LISTED else "")


def pick_option(options: list[Option], value: str, label: Callable[[Option], str] = lambda o: o.label) -> str:
    """The id of the option `value` names (its id, its label or part of it), or IllegalAction listing the
    options when it names none or several."""
    v = " ".join(value.split()).casefold()
    exact = [o for o in options if o.id.casefold() == v or label(o).casefold() == v]
    if exact:
        return exact[0].id
    partial = [o for o in options if v in label(o).casefold() or v in o.id.casefold()]
    if not partial:
        partial = best(value, options, label, lambda o: o.id)
    if len(partial) == 1:
        return partial[0].id
    if not partial:
        raise IllegalAction(f"'{echo(value)}' is not one of: {listing([label(o) for o in options])}.")
    raise IllegalAction(f"'{echo(value)}' matches several options: {listing([label(o) for o in partial])}. "
                        "Say more of the one you mean.")


class Seated(Protocol):
    """What `find_seated` reads of a game view's investigator row."""

    seat: int
    player: str


def find_seated(rows: Sequence[S], query: str | None, asker: int | None, name: Callable[[S], str],
                ident: Callable[[S], str] = lambda _: "") -> S:
    """The row `query` names among a game's seats: "seat:N" (a Discord user picked in a command), a player's
    name, or an investigator's name (`name`, or its card id `ident`: "tomas" finds Tomás), each in part; no
    query means the asker's own row."""
    if not query:
        if asker is None:
            raise IllegalAction("Say whose sheet: player:<name> (you have no seat in this game).")
        return next(r for r in rows if r.seat == asker)
    if query.startswith("seat:") and query[5:].isdigit():
        found = [r for r in rows if r.seat == int(query[5:])]
        if found:
            return found[0]
        raise IllegalAction("That player has no seat in this game.")
    hits = best(query, rows, lambda r: r.player) or best(query, rows, name, ident)
    if len(hits) == 1:
        return hits[0]
    names = [f"{name(r)} ({r.player})" for r in (hits or rows)]
    if not hits:
        raise IllegalAction(f"Nobody at this table is called '{echo(query)}'. Players: {listing(names)}.")
    raise IllegalAction(f"'{echo(query)}' fits several players: {listing(names)}. Say more of the name.")
