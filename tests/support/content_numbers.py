"""Walking our content's YAML for texts whose numbers disagree with the data beside them (issue 30 item 12).
Shared by tests/test_content_numbers.py (every game: "gain 2 resources" and the like) and
tests/engine/arkham3/test_content_words.py (Arkham 3e's money)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any


def disagreements(node: Any, where: str, said: Callable[[str], list[int]], held: Callable[[Any], set[int]],
                  keys: tuple[str, ...] = ("text",)) -> Iterator[str]:
    """For every mapping in `node`: each number `said` finds in its texts (under `keys`) must be among the
    numbers `held` finds in that mapping; a mapping that holds no number at all is not checked (its effect is
    the engine's own code). Yields one line per disagreement, naming where it is."""
    if isinstance(node, dict):
        have = held(node)
        for key in keys:
            text = node.get(key)
            if isinstance(text, str) and have:
                for n in said(text):
                    if n not in have:
                        yield f"{where}/{key}: {text[:80]!r} says {n}; the data beside it holds {sorted(have)}"
        for key, value in node.items():
            yield from disagreements(value, f"{where}/{key}", said, held, keys)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from disagreements(value, f"{where}/{i}", said, held, keys)
