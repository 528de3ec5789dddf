"""Interaction latency and channel traffic of the real bot against the fake Discord on loopback (SQLite file
database).

    python -m tests.bench.bench_interactions [--turns 240] [--tables 1] [--shards 1]
    python -m tests.bench.bench_interactions --game elder-sign [--seed 5]
    python -m tests.bench.bench_interactions --game arkham-lcg [--seed 5]

`countdown` (the default) plays countdown games by button clicks (each click is a whole turn: it commits an
action and ends with a board image) and reads `/game log` between turns. `elder-sign` plays one seeded
two-player Elder Sign game to its end, every decision by the components a player would click (a random
agent picks the answer). `arkham-lcg` plays the card game's first scenario (Low Water, easy) for two players to
its end the same way, the smart agent deciding (hands are private: a turn's question is answered through the
private "Answer" controls), and counts the timing windows the engine opened against the questions it asked: a
window nobody can respond to asks nothing, so it posts and edits no message. All print:

* interaction → first callback: how long Discord waits for the acknowledgement (must stay far below 3 s);
* click → updated message: what a player waits for until the channel shows the result of their move (the
  first channel message, new or edited, that holds a new narration line);
* /game board → its image (countdown);
* channel traffic per turn: messages posted in the channel (deleted ones included), edits of messages,
  and mentions that pinged someone.

Figures depend on the machine; they are printed, not asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import os
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.service import latest_state
from bot.store import Game
from engine import api
from engine.agents import RandomAgent
from engine.core.prompt import PromptKind
from tests.e2e.channel_figures import TABLES, play_table
from tests.e2e.fakediscord import FakeChannel, FakeDiscord, FakeInteraction, FakeMessage, point_discord_py_at
from tests.e2e.harness import (
    Table,
    answer_with_controls,
    controls_for,
    fresh_db,
    live_controls,
    migrated_template,
    open_table,
    register_test_games,
    seed_lobby,
    start_bot,
)

CLICKABLE = ("mk:p:", "mk:s:")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def line(name: str, seconds: list[float]) -> str:
    if not seconds:
        return f"{name:<38} n=0"
    ms = [s * 1000 for s in seconds]
    return (f"{name:<38} n={len(ms):<5} p50={percentile(ms, 50):7.1f} ms  p95={percentile(ms, 95):7.1f} ms  "
            f"p99={percentile(ms, 99):7.1f} ms  max={max(ms):7.1f} ms  mean={statistics.fmean(ms):7.1f} ms")


class Figures:
    def __init__(self) -> None:
        self.callback: list[float] = []
        self.click_update: list[float] = []
        self.board_image: list[float] = []
        self.turns = 0

    def acked(self, ix: FakeInteraction) -> None:
        assert ix.latency is not None
        self.callback.append(ix.latency)


def public_lines(fake: FakeDiscord, channel: FakeChannel) -> Counter[str]:
    """Every narration-like line the channel shows now, counted (not who-we-wait-for lines, not decision
    marks)."""
    out: Counter[str] = Counter()
    for m in fake.channel_messages(channel):
        for text in m.text().splitlines():
            text = text.strip("*~ ")
            if text and "<@" not in text and not text.startswith(("✔", "Waiting for", "⏳")):
                out[text] += 1
    return out


async def until_narrated(fake: FakeDiscord, channel: FakeChannel, before: Counter[str], click: FakeInteraction,
                         figures: Figures, moved_on: Callable[[], bool] = lambda: False) -> None:
    """Record when the channel first shows a line it did not show before the click (or, for a step that
    narrates nothing, when the clicked prompt's controls have moved on)."""
    def shown() -> bool:
        return bool(public_lines(fake, channel) - before) or moved_on()
    await fake.wait_until(shown, "the move shown in the channel", 20)
    figures.click_update.append(time.monotonic() - click.dispatched_at)


async def play_countdown(fake: FakeDiscord, table: Table, turns: int, figures: Figures) -> None:
    players = [fake.alice, fake.bob, fake.carol]
    prompt = await open_table(table, players, options="start=30")
    for turn in range(turns):
        seen = prompt.id, prompt.custom_ids()
        before = public_lines(fake, table.channel)
        click = await table.choose(prompt, "Take 1")
        await until_narrated(fake, table.channel, before, click, figures)
        figures.acked(click)
        figures.turns += 1
        log = await fake.slash("game log", user=players[turn % 3], channel=table.channel)
        await fake.reply(log)
        figures.acked(log)
        if turn % 10 == 0:
            board = await fake.slash("game board", user=players[0], channel=table.channel)
            shown = await fake.reply(board)
            figures.acked(board)
            figures.board_image.append(shown.updated_at - board.dispatched_at)

        def next_prompt(seen: tuple[int, list[str]] = seen) -> FakeMessage | None:
            live = table.prompt_messages()
            return next((m for m in reversed(live) if (m.id, m.custom_ids()) != seen), None)
        try:
            prompt = await fake.wait_until(next_prompt, "the next prompt", 3)
        except AssertionError:
            # 30 taken: the game is won; open the next one in the same channel.
            prompt = await open_table(table, players, options="start=30")


async def seeded_lobby(table: Table, seed: int, running: object) -> tuple[Any, Game]:
    """The channel's store and open lobby, given a fixed seed so the game is the same every run."""
    store = running.bot.service.store  # type: ignore[attr-defined]
    await seed_lobby(running, table, seed)  # type: ignore[arg-type]
    game = await store.open_game(table.channel.id)
    assert game is not None and game.id is not None
    return store, game


async def play_elder_sign(fake: FakeDiscord, table: Table, seed: int, figures: Figures, running: object) -> None:
    alice, bob = fake.alice, fake.bob
    await table.command("game new", alice, game="elder-sign", options="ancient_one=dagon",
                        investigator="ada-whitcombe")
    store, game = await seeded_lobby(table, seed, running)
    await table.command("game join", bob, investigator="margarethe-vogel")
    await table.command("game start", alice)
    agent = RandomAgent(seed)
    users = {0: alice, 1: bob}
    for _ in range(5000):
        state = await latest_state(store, game.id)
        if state.over:
            break
        prompt = api.prompts(state)[0]
        action = agent.act(state, prompt)
        user = users[action.seat]
        message = await controls_for(fake, table.channel, user, game.id, prompt.seq)
        cid = next(c for c in message.custom_ids() if c.startswith(CLICKABLE) and
                   int(c.split(":")[3]) % 1_000_000 == prompt.seq)
        before = public_lines(fake, table.channel)
        if cid.startswith("mk:s:"):
            ids = [o.id for o in prompt.options]
            tokens = []
            for choice in action.choice:
                index = ids.index(choice)
                select = next(s for s in message.selects()
                              if any(o["value"] in (f"i{choice}", f"#{index}") for o in s["options"]))
                tokens.append(next(o["value"] for o in select["options"] if o["value"] in (f"i{choice}", f"#{index}")))
            ix = await fake.select(select["custom_id"], tokens, message, user=user)
        else:
            assert prompt.kind is not PromptKind.MANY
            index = [o.id for o in prompt.options].index(action.choice[0]) if action.choice else -1
            wanted = {f"i{action.choice[0]}", f"#{index}"} if action.choice else {f"a{action.amount}"}
            button = next(b for b in message.buttons() if b.get("custom_id", "").split(":", 4)[-1] in wanted)
            ix = await fake.click(button, message, user=user)
        await fake.expect_callback(ix, timeout=10)
        figures.acked(ix)
        # The narration is shown only after the step is committed, so the next read sees the new state.
        await until_narrated(fake, table.channel, before, ix, figures,
                             lambda s=prompt.seq, u=user: live_controls(fake, table.channel, u, game.id, s) is None)
    figures.turns = (await latest_state(store, game.id)).turn_number  # type: ignore[attr-defined]
    await fake.settle()


class WindowCount:
    """Counts, in this process, the card game's reaction windows ("when/after" an event) the engine resolved
    (the bot runs in the same process). A window re-opened after a response counts again."""

    def __init__(self) -> None:
        from engine.arkham_lcg.ops import FLOW

        self.opened = 0
        op = FLOW.ops["window"]
        FLOW.ops["window"] = dataclasses.replace(op, run=self._counting(op.run))  # type: ignore[call-arg]

    def _counting(self, run: Callable[..., None]) -> Callable[..., None]:
        def counted(state: object, frame: object, events: object) -> None:
            self.opened += 1
            run(state, frame, events)
        return counted


async def play_card_game(fake: FakeDiscord, table: Table, seed: int, figures: Figures, running: object) -> str:
    from engine.arkham_lcg.agent import SmartAgent

    count = WindowCount()
    alice, bob = fake.alice, fake.bob
    await table.command("game new", alice, game="arkham-lcg", options="play=low_water difficulty=easy")
    store, game = await seeded_lobby(table, seed, running)
    await table.command("game join", bob)
    await table.command("game start", alice)
    agent = SmartAgent(seed)
    users = {0: alice, 1: bob}
    asked = Counter[str]()
    turns: set[tuple[int, int]] = set()
    for _ in range(5000):
        state = (await latest_state(store, game.id))
        if state.over:
            break
        if state.turn is not None:  # type: ignore[attr-defined]
            turns.add((state.round, state.turn))  # type: ignore[attr-defined]
        prompt = api.prompts(state)[0]
        action = agent.act(state, prompt)
        asked["reaction" if prompt.title.startswith("Respond ") else
              "player window" if any(o.id == "pass" for o in prompt.options) else "other"] += 1
        before = public_lines(fake, table.channel)
        ix = await answer_with_controls(fake, table.channel, users[action.seat], game.id, prompt, action)
        await fake.expect_callback(ix, timeout=10)
        figures.acked(ix)
        await until_narrated(fake, table.channel, before, ix, figures,
                             lambda s=prompt.seq, u=users[action.seat]: live_controls(
                                 fake, table.channel, u, game.id, s) is None)
    figures.turns = len(turns)
    await fake.settle()
    return (f"reaction windows resolved: {count.opened}, questions they asked: {asked['reaction']} (so at least "
            f"{count.opened - asked['reaction']} windows asked nobody and posted or edited nothing); player-window "
            f"questions: {asked['player window']}; other questions: {asked['other']}")


def traffic(fake: FakeDiscord, channels: list[FakeChannel], turns: int, since: float) -> str:
    ids = {c.id for c in channels}
    messages = [m for m in fake.messages.values() if m.channel_id in ids and not m.ephemeral
                and m.created_at >= since]
    edits = sum(m.edits for m in messages)
    pings = sum(len(getattr(m, "pinged", m.mentions)) for m in messages)
    n = max(1, turns)
    return (f"channel traffic over {turns} turns: {len(messages) / n:.2f} messages/turn "
            f"({len(messages)} posted, {sum(m.deleted for m in messages)} later deleted), "
            f"{edits / n:.2f} edits/turn, {pings / n:.2f} pings/turn")


async def run(game: str, turns: int, tables: int, shards: int, seed: int) -> tuple[Figures, str]:
    register_test_games()
    figures = Figures()
    extra = ""
    with tempfile.TemporaryDirectory() as tmp:
        url = fresh_db(migrated_template(Path(tmp)), Path(tmp))
        fake = FakeDiscord()
        await fake.start()
        with point_discord_py_at(fake.api_base, fake.gateway_url):
            running = await start_bot(fake, url, shards)
            try:
                channels = [c for g in fake.world.guilds.values() for c in g.channels.values()][:tables]
                started = time.perf_counter()
                since = time.monotonic()
                if game.startswith("table:"):
                    channels = channels[:1]
                    table_figures = await play_table(fake, Table(fake, channels[0]), game.removeprefix("table:"),
                                                     seed, turns, running)
                    if os.environ.get("BENCH_SHOW_MESSAGES"):  # what the channel got, a line a message
                        print("\n".join(f"  {m}" for m in table_figures.messages()))
                    extra = table_figures.line()
                elif game == "elder-sign":
                    channels = channels[:1]
                    await play_elder_sign(fake, Table(fake, channels[0]), seed, figures, running)
                elif game == "arkham-lcg":
                    channels = channels[:1]
                    extra = await play_card_game(fake, Table(fake, channels[0]), seed, figures, running)
                else:
                    per_table = max(1, turns // len(channels))
                    await asyncio.gather(*(play_countdown(fake, Table(fake, ch), per_table, figures)
                                           for ch in channels))
                await fake.settle()
                elapsed = time.perf_counter() - started
            finally:
                await running.stop()
        await fake.stop()
    if fake.failures:
        raise SystemExit(f"the fake recorded failures: {fake.failures}")
    print(f"{game}: {len(figures.callback)} interactions in {elapsed:.1f} s over {len(channels)} table(s), "
          f"{shards} shard(s)")
    if extra:
        print(extra)
    return figures, traffic(fake, channels, figures.turns, since)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="countdown",
                        choices=["countdown", "elder-sign", "arkham-lcg", *(f"table:{g}" for g in TABLES)],
                        help="table:<game>: issue 27's channel figures per move (--turns moves)")
    parser.add_argument("--turns", type=int, default=240, help="countdown: button clicks in all")
    parser.add_argument("--tables", type=int, default=1, help="countdown: channels playing at once (1-5)")
    parser.add_argument("--shards", type=int, default=1)
    parser.add_argument("--seed", type=int, default=5, help="elder-sign, arkham-lcg: the game's and the agent's seed")
    args = parser.parse_args()
    figures, traffic_line = asyncio.run(run(args.game, args.turns, args.tables, args.shards, args.seed))
    print(line("interaction -> first callback", figures.callback))
    print(line("click -> updated message", figures.click_update))
    if figures.board_image:
        print(line("/game board -> image", figures.board_image))
    print(traffic_line)


if __name__ == "__main__":
    main()
