"""The deliberate rule breaks (tests/breaks, run by `python -m tests.breaks`) stay applicable: every break's old
text is still found exactly once in its module, so an engine change cannot quietly turn a break into a no-op
(the runner also checks that each patched module compiles); each game keeps at least the minimum number of
breaks, each one named once. This only reads the list; it never applies a break."""

from __future__ import annotations

from collections import Counter

from tests.breaks import GAMES, MIN_PER_GAME, all_breaks


def test_every_break_still_applies() -> None:
    problems = [p for b in all_breaks() for p in b.problems(compiles=False)]
    assert not problems, "\n".join(problems)


def test_each_game_has_enough_distinct_breaks() -> None:
    breaks = all_breaks()
    per_game = Counter(b.game for b in breaks)
    for game in GAMES:
        assert per_game[game] >= MIN_PER_GAME, f"{game}: {per_game[game]} breaks, at least {MIN_PER_GAME} needed"
    assert set(per_game) == set(GAMES)
    keys = Counter(b.key for b in breaks)
    assert not [k for k, n in keys.items() if n > 1], "two breaks share a description"
    assert len({(b.module, b.old, b.new) for b in breaks}) == len(breaks), "two breaks make the same change"
