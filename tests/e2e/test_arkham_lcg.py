"""A two-player campaign of the card game's shipped campaign (all three scenarios, an upgrade bought between the
first and the second) through Discord: `/campaign new`, `join`, `start`, each scenario played to its end with
`/lcg` slash commands where one stands for the decision (investigate, move, fight, play …) and with the
prompt's buttons or the private "Answer" controls for the rest, `/lcg hand` read privately with its buttons.

What the issue asks of the channel (issue 15): a picture after every phase; every narration line shown once;
no live controls between scenarios; and **no private card ever in a public message**: every version of every
message the fake Discord received that is not ephemeral (its text, embeds, buttons and menus) is checked
against the names of the cards in the investigators' hands at that moment that nobody else can see."""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.games.arkham_lcg.commands import COMMANDS
from engine import api
from engine.arkham_lcg import board
from engine.arkham_lcg.agent import SmartAgent
from engine.arkham_lcg.state import LcgState
from engine.core.game import GameState
from tests.e2e.fakediscord import FakeDiscord, FakeUser
from tests.e2e.fakediscord.interactions import FakeInteraction
from tests.e2e.fakediscord.messages import FakeMessage
from tests.e2e.harness import RunningBot, Table, answer_with_controls, no_repeated_board, open_game_id
from tests.e2e.test_campaign import seed_campaign
from tests.e2e.test_elder_sign import _state, _stepped, narration
from tests.support.typed_commands import typed_command

pytestmark = pytest.mark.e2e
SEED = 2  # the campaign's seed: after the first scenario both investigators have experience to spend
AGENT_SEED = 7
SCENARIOS = ("Low Water", "Gull Rock", "The Bell Beneath")


@pytest.fixture
def shards() -> int:
    return 1


def _strings(node: Any) -> Iterator[str]:
    """Every word a reader sees in a message's components: button labels, menu options, text displays."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("label", "description", "placeholder", "content", "title") and isinstance(value, str):
                yield value
            else:
                yield from _strings(value)
    elif isinstance(node, list):
        for item in node:
            yield from _strings(item)


def public_words(message: FakeMessage) -> str:
    return "\n".join([message.text(), *_strings(message.components), *message.filenames])


def secret_names(state: GameState) -> frozenset[str]:
    """The names of the cards in the investigators' hands that nothing public shows: not in any play area,
    discard pile, threat area, location, the victory display … (the spectator's view)."""
    if not isinstance(state, LcgState) or state.scenario is None:
        return frozenset()
    public = json.dumps(api.view(state, None).model_dump(mode="json"), ensure_ascii=False)
    names = {board.name(state, uid) for i in state.invs for uid in i.hand}
    return frozenset(n for n in names if n not in public)


@dataclass
class SecretWatch:
    """Every version of every public message, and the hands' secret names over time: a message posted or edited
    between two looks at the game must name no card that was secret at both (lag-proof: the bot may publish a
    step's narration a little after the step is committed)."""

    versions: list[tuple[float, int, str]] = field(default_factory=list)
    looks: list[tuple[float, frozenset[str]]] = field(default_factory=list)

    def watch(self, message: FakeMessage) -> None:
        if not message.ephemeral:
            self.versions.append((time.monotonic(), message.id, public_words(message)))

    def look(self, state: GameState) -> None:
        self.looks.append((time.monotonic(), secret_names(state)))

    def leaks(self) -> list[tuple[int, str, str]]:
        found = []
        for at, message_id, words in self.versions:
            before = [names for t, names in self.looks if t <= at][-1:] or [frozenset()]
            after = [names for t, names in self.looks if t > at][:1] or before
            for name in before[0] & after[0]:
                if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", words):
                    found.append((message_id, name, words[:300]))
        return found


async def play_scenario(fake: FakeDiscord, table: Table, running: RunningBot, users: dict[int, FakeUser],
                        watch: SecretWatch, slashes: Counter[str]) -> tuple[int, int]:
    """The channel's scenario game to its end, with the smart agent's choices typed as `/lcg` commands where one
    stands for them, clicked otherwise; (its game id, the buttons and menus used)."""
    game_id = await open_game_id(running, table)
    seats = await running.bot.service.store.seats(game_id)
    agent = SmartAgent(AGENT_SEED)
    clicks = 0
    read_hand = False
    for _ in range(3000):
        state = await _state(running, game_id)
        watch.look(state)
        if state.over:
            await fake.settle()
            watch.look(state)
            return game_id, clicks
        pending = api.prompts(state)
        prompt = pending[0]
        action = agent.act(state, prompt)
        user = users[seats[action.seat].user_id]
        if not read_hand and prompt.private and state.turn == action.seat:
            # your hand, privately, with the buttons of the question you are asked; the answer below uses them
            asked = await fake.slash("lcg hand", user=user, channel=table.channel)
            hand = await fake.reply(asked, timeout=10)
            assert hand.ephemeral and hand.text().startswith("**Your hand**"), hand.text()
            controls = await fake.wait_until(lambda: [m for m in asked.followups if m.custom_ids()],  # noqa: B023
                                             "the hand's buttons", 10)
            assert all(m.ephemeral for m in controls)
            read_hand = True
        typed = typed_command(COMMANDS, state, prompt, action, agent) if len(pending) == 1 else None
        ix: FakeInteraction
        if typed is not None:
            ix = await fake.slash(f"lcg {typed.command}", user=user, channel=table.channel, **typed.args())
            slashes[typed.command] += 1
        else:
            ix = await answer_with_controls(fake, table.channel, user, game_id, prompt, action)
            clicks += 1
        await fake.expect_callback(ix, timeout=10)
        refused = await _stepped(fake, running, game_id, state.step, ix)
        assert not refused, (prompt.title, action, refused)
    raise AssertionError("the scenario did not end")


async def test_the_shipped_campaign_in_a_channel(fake: FakeDiscord, table: Table, running: RunningBot) -> None:
    alice, bob = fake.alice, fake.bob
    store = running.bot.service.store
    watch = SecretWatch()
    fake.watchers.append(watch.watch)
    await table.command("campaign new", alice, game="arkham-lcg", difficulty="easy", investigator="Augustin")
    await seed_campaign(running, table, SEED)
    await table.command("campaign join", bob, investigator="Hamid")
    users = {alice.id: alice, bob.id: bob}
    slashes: Counter[str] = Counter()
    clicks = 0
    played: list[int] = []
    for n, scenario in enumerate(SCENARIOS):
        since = time.monotonic()
        await table.command("campaign start" if n == 0 else "campaign next", alice if n != 1 else bob)
        typed_before, interactions_before = sum(slashes.values()), len(fake.interactions)
        game_id, used = await play_scenario(fake, table, running, users, watch, slashes)
        moves = used + sum(slashes.values()) - typed_before
        played.append(game_id)
        clicks += used
        final = await _state(running, game_id)
        assert isinstance(final, LcgState) and final.over
        emitted = Counter(e.text for e in await store.public_events(game_id))

        def unshown() -> Counter[str]:
            return emitted - narration(table.posted_since(since))  # noqa: B023  (read at once, in the loop)

        # the last section (its picture rendered first) may still be on its way when the game is over
        try:
            await fake.wait_until(lambda: not unshown(), "the scenario's last lines", 20)
        except AssertionError:
            raise AssertionError(f"narration never shown: {list(unshown())[:6]}") from None
        posted = table.posted_since(since)
        # a newly awaited player is mentioned by a message that stays, never by one deleted after (issue 27)
        gone = [m.content[:80] for m in posted if m.deleted]
        assert not gone, f"a public message was posted, then deleted: {gone}"
        # issue 27 through the real client: a calm channel, one click a move (hand cards chosen privately); a short
        # scenario whose players alternate on nearly every step pings (posts) more often per move than the 100-move
        # measure of test_channel_figures.py (<= 0.35). Measured: 0.26, 0.41, 0.37 messages; 1.04-1.15 clicks.
        assert len(posted) / moves <= 0.45, ("public messages per move", len(posted), moves)
        assert (len(fake.interactions) - interactions_before) / moves <= 1.2, "interactions per move"
        assert any(scenario in line for line in narration(posted)), scenario
        boards = [m for m in posted if m.boards]
        # a board at least once a round played to its end (phases that end in one step share one), and never
        # the same picture twice in a row (issue 27)
        assert len(boards) >= final.round - 1, (len(boards), final.round)
        assert no_repeated_board(posted)
        assert await table.no_live_controls(), "no live controls between scenarios"
        if n == 0:
            log = await table.command("campaign log", bob)
            assert "Low Water" in log.text()
            offered = await fake.choices("campaign upgrade", "card", "", user=alice, channel=table.channel)
            assert offered and len(offered) <= 25
            bought = await table.command("campaign upgrade", alice, card=offered[0]["value"])
            assert bought.text().startswith("Bought: "), bought.text()
    assert len(set(played)) == 3
    row = await store.current_campaign(table.channel.id)
    assert row is not None and row.data["status"] == "over" and len(row.data["record"]["results"]) == 3
    assert {"investigate", "move"} <= set(slashes) and clicks > 0, (slashes, clicks)
    # the channel's history and the server's record name the scenarios and investigators (the card book)
    history = await table.command("game history", bob)
    assert all(name in history.text() for name in SCENARIOS), history.text()
    stats = await table.command("stats", alice)
    assert "Augustin Ferreira" in stats.text() and "Dr. Hamid Farouk" in stats.text(), stats.text()
    card = await table.command("lcg card", bob, name="Low Water")
    assert card.ephemeral and "Scenario 1 of" in card.text() and "(reached)" in card.text()
    assert watch.versions and sum(1 for _, secret in watch.looks if secret) > 100  # hands were there to leak
    leaks = watch.leaks()
    assert not leaks, leaks[:5]


def test_the_watch_catches_a_hand_card_named_in_public() -> None:
    """The leak check itself: a public message naming a card secret before and after it is a leak; a card
    named once it was no longer secret (played) is not; an ephemeral message is never checked."""
    watch = SecretWatch(looks=[(1.0, frozenset({"Tide Chart", "Rope"})), (3.0, frozenset({"Rope"}))])
    watch.versions = [(2.0, 10, "alice plays Tide Chart."), (2.5, 11, "Buttons: Play Rope (1 resource)"),
                      (3.5, 12, "Roper's Knot")]
    assert [(m, name) for m, name, _ in watch.leaks()] == [(11, "Rope")]
    private = FakeMessage(id=13, channel_id=1, guild_id=1, author=FakeUser(id=1, name="bot"), content="Rope",
                          flags=64)
    watch.watch(private)
    assert len(watch.versions) == 3
