"""Effect lists, checked at load time: the grammar every game's content shares.

An effect list is a YAML list; each entry is a mapping with exactly one verb. What a verb's argument may be
is its *kind*. A game declares its vocabulary as `{verb: kind}` and may add kinds of its own (a dice game adds
die colours and faces); the shared kinds are:

    int      a non-zero whole number (negative = lose)      pos       a whole number of at least 1
    true     the literal `true`                             effects   a nested effect list
    branches a list of two or more effect lists (a choice)

`EffectGrammar(verbs, kinds).check(value, where)` raises ValueError naming the entry and the verb, which the
content loader turns into a 'file:line (id): reason' error.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

#: a kind's check: (argument) -> None, or an error sentence ending the "'verb' takes ..." message
KindCheck = Callable[[Any], str | None]


def _int(arg: Any) -> str | None:
    return None if isinstance(arg, int) and not isinstance(arg, bool) and arg != 0 else "a non-zero whole number"


def _pos(arg: Any) -> str | None:
    return None if isinstance(arg, int) and not isinstance(arg, bool) and arg >= 1 else "a whole number of at least 1"


def _true(arg: Any) -> str | None:
    return None if arg is True else "the value true"


def key_problem(arg: Any, allowed: set[str], required: set[str]) -> str | None:
    """A kind check's helper for a mapping argument: what is wrong with its keys (the end of "'verb' takes ..."),
    or None."""
    if not isinstance(arg, dict):
        return f"a mapping with {', '.join(sorted(required | allowed))}"
    extra = set(arg) - allowed - required
    if extra:
        return f"only the keys {', '.join(sorted(required | allowed))} (not {', '.join(sorted(extra))})"
    missing = required - set(arg)
    if missing:
        return f"the keys {', '.join(sorted(missing))}"
    return None


BASE_KINDS: dict[str, KindCheck] = {"int": _int, "pos": _pos, "true": _true}


class EffectGrammar:
    """One game's effect vocabulary: verb -> kind, with the game's extra kinds."""

    def __init__(self, verbs: Mapping[str, str], kinds: Mapping[str, KindCheck] | None = None) -> None:
        self.verbs = dict(verbs)
        self.kinds = {**BASE_KINDS, **(kinds or {})}
        unknown = {k for k in self.verbs.values() if k not in self.kinds and k not in ("effects", "branches")}
        if unknown:
            raise ValueError(f"effect verbs use unknown kinds: {', '.join(sorted(unknown))}")

    def check(self, value: Any, where: str) -> list[dict[str, Any]]:
        """Validate an effect list; raise ValueError naming the offending entry and verb."""
        if value is None:
            return []
        if not isinstance(value, list):
            raise ValueError(f"{where}: an effect list must be a YAML list")
        for i, eff in enumerate(value):
            here = f"{where}[{i}]"
            if not isinstance(eff, dict) or len(eff) != 1:
                raise ValueError(f"{here}: each effect is a mapping with exactly one verb, got {eff!r}")
            (verb, arg), = eff.items()
            kind = self.verbs.get(verb)
            if kind is None:
                raise ValueError(f"{here}: unknown verb '{verb}' (known: {', '.join(sorted(self.verbs))})")
            if kind == "effects":
                self.check(arg, f"{here}.{verb}")
            elif kind == "branches":
                if not isinstance(arg, list) or len(arg) < 2:
                    raise ValueError(f"{here}: '{verb}' takes a list of at least two effect lists")
                for j, branch in enumerate(arg):
                    self.check(branch, f"{here}.{verb}[{j}]")
            else:
                wrong = self.kinds[kind](arg)
                if wrong is not None:
                    raise ValueError(f"{here}: '{verb}' takes {wrong}")
        return value
