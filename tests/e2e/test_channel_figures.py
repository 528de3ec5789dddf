"""Issue 27's figures, measured through the real discord.py client: for each game, one seeded two-player game of
100 moves, every decision answered through the components a player clicks (tests/e2e/channel_figures.py).

Done when: public messages per move <= 0.35 in every game, none posted then deleted, no board posted identical to
the one before it, interactions per move <= 1.1 (Elder Sign, Eldritch Horror, Arkham Horror 3e) and <= 1.2 (the
card game, whose hand cards are chosen privately).

The per-game E2E suites play other seeds to their end and check looser figures: a short game where the two
players alternate on nearly every step pings (and so posts) more often per move than a long one.
"""

from __future__ import annotations

import pytest

from tests.e2e.channel_figures import play_table
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.harness import RunningBot, Table, no_repeated_board

MOVES = 100
SEED = 5


@pytest.mark.parametrize("shards", [1])
@pytest.mark.parametrize(("game", "clicks_per_move"), [
    ("elder-sign", 1.1), ("eldritch", 1.1), ("arkham3", 1.1), ("arkham-lcg", 1.2)])
async def test_a_table_reads_at_a_glance(fake: FakeDiscord, table: Table, running: RunningBot, game: str,
                                         clicks_per_move: float) -> None:
    figures = await play_table(fake, table, game, SEED, MOVES, running)
    assert figures.moves >= 60, figures.line()  # long enough to mean something (a game may end sooner)
    assert figures.per_move <= 0.35, (figures.line(), figures.messages())
    assert figures.deleted == 0, figures.line()
    assert figures.repeated == 0 and no_repeated_board(figures.posted), figures.line()
    assert figures.interactions_per_move <= clicks_per_move, figures.line()
