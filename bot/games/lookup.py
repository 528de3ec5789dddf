"""Finding what a player typed: an option of the pending prompt, a card, a space or a player, by name.

Shared by every game's commands so that `/es use item:lamp` and `/eh travel destination:lond` understand
names the same way: an exact name (or id) wins, then whole words in any order, then the start of the name or
of its words, then any part of it. A query that still fits several things equally well is refused with the
candidates listed, never guessed. A query that fits nothing is answered with the names spelt most like it
("Did you mean Sydney?", by rapidfuzz), never acted on: this module is the one place that spelling is judged,
for options, cards, spaces and players alike (autocomplete's fuzzy order comes from here too).

A prompt may name choices that are closed now with why (`Prompt.unavailable`): a value that names one of
those is answered with its reason ("Hunting Rifle costs $4; you have $2.") rather than a list of options.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from typing import Protocol, TypeVar

from rapidfuzz import fuzz, process, utils

from engine.core.errors import IllegalAction
from engine.core.prompt import Option, Unavailable

#: the longest piece of a player's input a message repeats back
ECHO_MAX = 40
#: how many candidates an error lists
LISTED = 10
#: "did you mean": a name must score this much (`spelling`, 0-100) to be suggested, and come this close to the
#: best-scoring name; at most SUGGESTED names are suggested
SUGGEST_MIN, SUGGEST_NEAR, SUGGESTED = 75.0, 10.0, 3

T = TypeVar("T")
S = TypeVar("S", bound="Seated")
Opt = TypeVar("Opt", bound=Option)

_WORD = re.compile(r"[\w'-]+")
_REMARK = re.compile(r"\s*\([^()]*\)$")
_THE = re.compile(r"^the ")


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


def fold(text: str) -> str:
    """A name as spelling is compared: NFKC-normalised, lower case, punctuation as spaces."""
    return utils.default_process(unicodedata.normalize("NFKC", text))


def fuzzy(query: str, folded: Sequence[str], limit: int | None = None,
          cutoff: float = 40.0) -> list[tuple[int, float, bool]]:
    """(index, score 0-100, whether the name holds every typed word) of the `folded` names (see `fold`) spelt
    like `query`, best first: a name holding every typed word, then the higher score (WRatio weighs partial
    matches and word order), then one that starts with what was typed, then the given order."""
    q = fold(query)
    if not q:
        return []
    typed = q.split()
    found = process.extract(q, folded, scorer=fuzz.WRatio, processor=None, limit=None, score_cutoff=cutoff)
    scored = [(index, score, all(w in folded[index] for w in typed)) for _, score, index in found]
    scored.sort(key=lambda hit: (not hit[2], -hit[1], not folded[hit[0]].startswith(q), hit[0]))
    return scored[:limit]


def spelling(query: str, name: str) -> float:
    """How alike `query` and `name` are spelt, 0-100: the best of the whole name (its words in any order) and
    of each run of as many of its words as were typed ("pnakotik" against each word of "The Pnakotic
    Fragment"), a leading "the" aside. Unlike autocomplete's order, a word in common earns nothing alone."""
    q = _THE.sub("", fold(query))
    n = _THE.sub("", fold(name))
    if not q or not n:
        return 0.0
    score = max(fuzz.ratio(q, n), fuzz.token_sort_ratio(q, n))  # the words in any order
    k, parts = len(q.split()), n.split()
    for at in range(len(parts) - k + 1):
        score = max(score, fuzz.ratio(q, " ".join(parts[at:at + k])))
    return score


def closest(query: str, names: Iterable[str], limit: int = SUGGESTED) -> list[str]:
    """The names spelt most like `query` ("Sidney" -> Sydney), best first: only names that score at least
    SUGGEST_MIN by `spelling` and come within SUGGEST_NEAR of the best. A suggestion, never a pick."""
    scored = [(spelling(query, n), i, n) for i, n in enumerate(dict.fromkeys(n for n in names if n))]
    scored = [hit for hit in scored if hit[0] >= SUGGEST_MIN]
    if not scored:
        return []
    scored.sort(key=lambda hit: (-hit[0], hit[1]))
    top = scored[0][0]
    return [n for score, _, n in scored if score >= top - SUGGEST_NEAR][:limit]


def did_you_mean(query: str, names: Iterable[str]) -> str:
    """" Did you mean Sydney?" (with a leading space, to follow a sentence), or "" when no name is close."""
    near = closest(query, names)
    if not near:
        return ""
    return f" Did you mean {near[0] if len(near) == 1 else ', '.join(near[:-1]) + ' or ' + near[-1]}?"


def bare(label: str) -> str:
    """A label without what follows its name: a closing remark in brackets ("Sydney (1 ship ticket)") or
    a colon ("Southside: 3 spaces, pay $1"): the name a player would type."""
    return _REMARK.sub("", label.split(": ")[0]) or label


def _named(options: Sequence[Opt], value: str, label: Callable[[Option], str]) -> list[Opt]:
    """The options `value` names: by id or whole label, else by part of either, else by `best`'s ranks."""
    v = " ".join(value.split()).casefold()
    exact = [o for o in options if o.id.casefold() == v or label(o).casefold() == v]
    if exact:
        return exact[:1]
    return ([o for o in options if v in label(o).casefold() or v in o.id.casefold()]
            or best(value, options, label, lambda o: o.id))


def refusal(closed: Sequence[Unavailable], value: str | None = None,
            label: Callable[[Option], str] = lambda o: o.label) -> str | None:
    """Why the closed choice `value` names (or, with no value, every closed choice) cannot be taken now: its
    reason when they share one, None when `value` names none of them or they differ."""
    named = _named(closed, value, label) if value else list(closed)
    reasons = list(dict.fromkeys(u.why for u in named if u.why))
    return reasons[0] if len(reasons) == 1 else None


def pick_option(options: list[Option], value: str, label: Callable[[Option], str] = lambda o: o.label,
                closed: Sequence[Unavailable] = (), what: str = "a choice") -> str:
    """The id of the option `value` names (its id, its label or part of it). IllegalAction otherwise: the
    reason when it names a choice that is `closed` now (Prompt.unavailable), the names spelt like it when it
    names nothing ("is not <what> you can pick now. Did you mean …?"), else the options; several matches are
    listed."""
    partial = _named(options, value, label)
    if len(partial) == 1:
        return partial[0].id
    if partial:
        raise IllegalAction(f"'{echo(value)}' matches several options: {listing([label(o) for o in partial])}. "
                            "Say more of the one you mean.")
    why = refusal(closed, value, label)
    if why is not None:
        raise IllegalAction(why)
    near = did_you_mean(value, [bare(label(o)) for o in [*options, *closed]])
    if near:
        raise IllegalAction(f"'{echo(value)}' is not {what} you can pick now.{near}")
    if not options:
        raise IllegalAction(f"'{echo(value)}' is not {what} you can pick now.")
    raise IllegalAction(f"'{echo(value)}' is not one of: {listing([label(o) for o in options])}.")


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
        near = did_you_mean(query, [*(r.player for r in rows), *(name(r) for r in rows)])
        raise IllegalAction(f"Nobody at this table is called '{echo(query)}'."
                            + (near or f" Players: {listing(names)}."))
    raise IllegalAction(f"'{echo(query)}' fits several players: {listing(names)}. Say more of the name.")
