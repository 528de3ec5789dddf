"""Every registered slash command is invoked at least once through the fake Discord, and none of them
fails with the bot's internal-error apology (a bug such as `/es card` passing `name=` twice shows up here
as "Something went wrong"). The list of commands comes from the bot's own command tree, so a new command
without an invocation below fails `test_every_registered_command_has_an_invocation`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from discord import app_commands

from bot.errors import GENERIC
from tests.e2e.fakediscord import FakeDiscord, FakeUser
from tests.e2e.harness import RunningBot, Table
from tests.engine.arkham_lcg.conftest import lcg_pack  # noqa: F401  (the fixture)

pytestmark = pytest.mark.e2e

APOLOGY = GENERIC.split("(")[0].strip()

#: (command path, who runs it, its options) in the order of a short game of Elder Sign. A value that is a
#: callable gets the fake Discord (for users as option values). Acting /es commands may be refused by the
#: rules at that moment; what matters is that the command runs and answers with a sentence, not a crash.
Options = dict[str, Any]
STEPS: list[tuple[str, str, Options | Callable[[FakeDiscord], Options]]] = [
    ("game new", "alice", {"game": "elder-sign", "options": "ancient_one=nyarlathotep",
                           "investigator": "ada-whitcombe"}),
    ("game join", "carol", {}),
    ("game leave", "carol", {}),
    ("game join", "alice", {"bot": True}),
    ("game leave", "alice", {"bot": 2}),
    ("game join", "bob", {"investigator": "margarethe-vogel"}),
    ("game start", "alice", {}),
    ("game status", "bob", {}),
    ("game board", "bob", {}),
    ("game log", "bob", {"page": 1}),
    ("game me", "alice", {}),
    ("game why", "bob", {}),
    ("es card", "bob", {"name": "Nyarlathotep"}),
    ("es odds", "alice", {}),
    ("es sheet", "alice", lambda fake: {"player": fake.bob}),
    ("es move", "alice", {"place": "entrance"}),
    ("es entrance", "alice", {}),
    ("es move", "bob", {"place": "slot:0"}),
    ("es use", "bob", {}),
    ("es roll", "bob", {}),
    ("es clue", "bob", {}),
    ("es task", "bob", {}),
    ("es fail", "bob", {}),
    ("es focus", "bob", {}),
    ("es assist", "bob", {}),
    ("es giveup", "bob", {}),
    ("gm settings", "morgan", {"reminder_hours": 6, "ai_pace": 0.5}),
    ("gm skip", "morgan", {}),
    ("gm undo", "morgan", {"steps": 1}),
    ("gm export", "morgan", {}),
    ("gm audit", "morgan", {"page": 1}),
    ("gm replace", "morgan", lambda fake: {"player": fake.bob, "replacement": fake.erin}),
    ("gm kick", "morgan", lambda fake: {"player": fake.erin}),
    ("help", "bob", {}),
    ("rules", "bob", {"query": "focus"}),
    ("card", "bob", {"name": "es.ao.nyarlathotep"}),
    ("game abandon", "alice", {}),
    ("gm end", "morgan", {}),
    ("game history", "bob", {}),
    ("stats", "bob", {}),
    # Eldritch Horror's own commands, in a game of their own
    ("game new", "alice", {"game": "eldritch", "options": "ancient_one=azathoth"}),
    ("game join", "bob", {}),
    ("game start", "alice", {}),
    ("eh sheet", "alice", lambda fake: {"player": fake.bob}),
    ("eh map", "bob", {"space": "London"}),
    ("eh card", "bob", {"name": "Cultist"}),
    ("eh odds", "alice", {}),
    ("eh move", "alice", {}),
    ("eh travel", "alice", {}),
    ("eh rest", "alice", {}),
    ("eh trade", "alice", {}),
    ("eh prepare", "alice", {}),
    ("eh acquire", "alice", {}),
    ("eh action", "alice", {}),
    ("eh encounter", "alice", {}),
    ("eh pass", "bob", {}),
    ("eh end", "bob", {}),
    ("gm end", "morgan", {}),
    # Arkham Horror 3e's own commands
    ("game new", "alice", {"game": "arkham3", "options": "scenario=witch-light"}),
    ("game join", "bob", {}),
    ("game start", "alice", {}),
    ("ah sheet", "alice", lambda fake: {"player": fake.bob}),
    ("ah map", "bob", {}),
    ("ah card", "bob", {"name": "ghoul"}),
    ("ah odds", "alice", {}),
    ("ah move", "alice", {}),
    ("ah gather", "alice", {}),
    ("ah focus", "alice", {}),
    ("ah research", "alice", {}),
    ("ah ward", "alice", {}),
    ("ah attack", "alice", {}),
    ("ah evade", "alice", {}),
    ("ah trade", "alice", {}),
    ("ah action", "alice", {}),
    ("ah buy", "alice", {}),
    ("ah pass", "bob", {}),
    ("ah end", "bob", {}),
    ("gm end", "morgan", {}),
    # a campaign of the card game (bot/cogs/campaign.py); refusals count as answers too
    ("campaign new", "alice", {"game": "arkham-lcg", "difficulty": "easy"}),
    ("campaign join", "bob", {}),
    ("campaign leave", "bob", {}),
    ("campaign join", "bob", {}),
    ("campaign deck", "alice", {}),
    ("campaign import", "alice", {"code": "L1.not-a-deck"}),
    ("campaign start", "alice", {}),
    # the card game's own commands, in the campaign's first scenario (acting ones are refused at the mulligan)
    ("lcg hand", "alice", {}),
    ("lcg area", "bob", lambda fake: {"player": fake.alice}),
    ("lcg bag", "bob", {}),
    ("lcg odds", "bob", {}),
    ("lcg sheet", "bob", lambda fake: {"player": fake.alice}),
    ("lcg card", "bob", {"name": "Augustin Ferreira"}),
    ("lcg investigate", "alice", {}),
    ("lcg move", "alice", {"to": "anywhere"}),
    ("lcg fight", "alice", {}),
    ("lcg evade", "alice", {}),
    ("lcg engage", "alice", {}),
    ("lcg draw", "alice", {}),
    ("lcg resource", "alice", {}),
    ("lcg play", "alice", {"card": "anything"}),
    ("lcg activate", "alice", {}),
    ("lcg resign", "alice", {}),
    ("lcg advance", "alice", {}),
    ("lcg end", "alice", {}),
    ("campaign log", "bob", {}),
    ("campaign upgrade", "alice", {"card": "anything"}),
    ("campaign next", "alice", {}),
    ("gm end", "morgan", {"campaign": True}),
]


@pytest.fixture
def shards() -> int:
    return 1  # one shard is enough to reach every command; the sharded paths have their own tests


def registered(running: RunningBot) -> set[str]:
    """Qualified names of every invocable slash command (groups are not invocable, their leaves are)."""
    return {c.qualified_name for c in running.bot.tree.walk_commands() if isinstance(c, app_commands.Command)}


async def test_every_registered_command_has_an_invocation(running: RunningBot) -> None:
    missing = registered(running) - {path for path, _, _ in STEPS}
    assert not missing, f"add an invocation to STEPS for: {', '.join(sorted(missing))}"
    assert {path for path, _, _ in STEPS} <= registered(running), "STEPS names a command that is gone"


async def test_every_command_runs_without_an_internal_error(lcg_pack: str, fake: FakeDiscord,  # noqa: F811
                                                           table: Table, running: RunningBot) -> None:
    # lcg_pack: the card game's campaign steps play its small test pack (requested before `running`, so the bot's
    # tasks see the pin), which does not depend on the shipped content being complete
    answered: dict[str, str] = {}
    for path, who, options in STEPS:
        user: FakeUser = getattr(fake, who)
        opts = options(fake) if callable(options) else options
        message = await table.command(path, user, **opts)
        await fake.settle(quiet=0.05)
        text = message.text()
        assert APOLOGY not in text, f"/{path} failed inside the bot: {text!r}"
        answered[path] = text
    assert "Nyarlathotep" in answered["es card"]
    assert "Cultist" in answered["eh card"] and "Ghoul" in answered["ah card"]
    assert "Chances" in answered["es odds"]
    assert "Your hand" in answered["lcg hand"] and "Chaos bag" in answered["lcg bag"]
    assert "Augustin Ferreira" in answered["lcg card"] and "Test Scenario One" in answered["campaign log"]
    assert "can't /lcg investigate now" in answered["lcg investigate"]
    assert set(answered) == registered(running)
