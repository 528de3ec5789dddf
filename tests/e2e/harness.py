"""The bot under test, connected to a fake Discord, and the moves players make (shared by the e2e tests
and the interaction benchmark)."""

from __future__ import annotations

import asyncio
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import update
from sqlmodel import col

from bot.bot import MiskatonicBot
from bot.components import OPTION_TEXT_MAX, option_token
from bot.settings import Settings
from bot.store import Game
from bot.store.migrate import upgrade
from engine.core.prompt import Action, Prompt, PromptKind
from engine.games import register
from tests.e2e.fakediscord import (
    FakeChannel,
    FakeDiscord,
    FakeInteraction,
    FakeMessage,
    FakeUser,
    skip_identify_delay,
)

PROMPT_ID = re.compile(r"^mk:[pse]:(?P<game>\d+):(?P<seq>\d+)")
MENTION = re.compile(r"<@!?(\d+)>")


def register_test_games() -> None:
    register("countdown", "tests.support.countdown:RULES")
    register("countdown-duo", "tests.bot.games:DUO")  # needs two players
    register("countdown-pair", "tests.bot.games:PAIR")  # someone else awaited mid-section
    register("countdown-pair", "tests.bot.games:PAIR")  # someone else awaited mid-section
    register("sampler", "tests.e2e.games:SAMPLER")  # one decision of every shape
    register("duet", "tests.e2e.games:DUET")  # every seat asked at once


def sqlite_url(path: Path) -> str:
    return f"sqlite+aiosqlite:///{path}"


def migrated_template(directory: Path) -> Path:
    """A migrated empty database; tests copy it (running Alembic once instead of per test)."""
    path = directory / "template.db"
    upgrade(sqlite_url(path))
    return path


def fresh_db(template: Path, directory: Path, name: str = "game.db") -> str:
    target = directory / name
    shutil.copyfile(template, target)
    return sqlite_url(target)


def bot_settings(fake: FakeDiscord, database_url: str) -> Settings:
    # The reminder loop is driven by hand in tests (`bot.reminders.run_once`), so its timer is long.
    # Start-up's board drawing is left out: its caches are the process's, and the tests start many bots.
    return Settings(DISCORD_TOKEN=fake.token, DATABASE_URL=database_url, REMINDER_CHECK_SECONDS=3600,
                    SHARD_COUNT=None, SHARD_IDS=None, DEV_GUILD_ID=None, WARM_PICTURES=False, AI_PACE_MS=0)


@dataclass
class RunningBot:
    bot: MiskatonicBot
    task: asyncio.Task[None]

    async def stop(self) -> None:
        await self.bot.close()
        await asyncio.wait_for(self.task, 10)


async def start_bot(fake: FakeDiscord, database_url: str, shards: int, *, sync: bool = True) -> RunningBot:
    """Start a MiskatonicBot in this event loop against `fake` (discord.py must already point at it)."""
    bot = MiskatonicBot(bot_settings(fake, database_url), shard_count=shards, guild_ready_timeout=0.05)
    skip_identify_delay(bot)
    await bot.login(fake.token)
    task = asyncio.create_task(bot.connect(), name="bot-connect")
    await asyncio.wait_for(bot.wait_until_ready(), 10)
    if sync:
        await bot.tree.sync()
    return RunningBot(bot, task)


class Table:
    """Moves players make, and what they read, in one channel."""

    def __init__(self, fake: FakeDiscord, channel: FakeChannel) -> None:
        self.fake = fake
        self.channel = channel

    async def command(self, path: str, user: FakeUser, **options: object) -> FakeMessage:
        """Run a slash command and return the message the user sees as its answer."""
        ix = await self.fake.slash(path, user=user, channel=self.channel, **options)
        return await self.fake.reply(ix, timeout=10)

    async def refused(self, path: str, user: FakeUser, **options: object) -> str:
        """Run a command that must fail: its answer is private and is all that is sent."""
        ix = await self.fake.slash(path, user=user, channel=self.channel, **options)
        msg = await self.fake.reply(ix, timeout=10)
        assert msg.ephemeral, f"/{path} answered publicly: {msg.text()!r}"
        await self.fake.settle()
        assert ix.followups_taken == len(ix.followups), f"/{path} also sent {ix.followups[ix.followups_taken:]}"
        return msg.text()

    def prompt_messages(self) -> list[FakeMessage]:
        """Messages in this channel that still carry prompt components, oldest first."""
        return [m for m in self.fake.channel_messages(self.channel)
                if any(PROMPT_ID.match(cid) for cid in m.custom_ids())]

    async def no_live_controls(self, timeout: float = 20.0) -> bool:
        """Wait until no message of the channel carries live prompt controls (the last pass of the publisher
        may still be drawing the final board when the bot has been quiet for a moment)."""
        await self.fake.wait_until(lambda: not self.prompt_messages(), "no live controls", timeout)
        return True

    async def current_prompt(self, timeout: float = 10.0) -> FakeMessage:
        """The newest message with live prompt components."""
        def newest() -> FakeMessage | None:
            found = self.prompt_messages()
            return found[-1] if found else None
        return await self.fake.wait_until(newest, f"a prompt in #{self.channel.name}", timeout)

    def awaited(self, prompt: FakeMessage) -> list[FakeUser]:
        """Who a prompt message waits for (the users it mentions)."""
        users = self.fake.world.all_users()
        return [users[int(uid)] for uid in MENTION.findall(prompt.content)]

    async def choose(self, prompt: FakeMessage, label: str, user: FakeUser | None = None) -> FakeInteraction:
        """Click the button labelled `label` on `prompt` as the awaited user (or `user`)."""
        who = user or self.awaited(prompt)[0]
        return await self.fake.click(prompt.button(label), prompt, user=who)

    async def outcome(self, click: FakeInteraction, timeout: float = 10.0) -> list[FakeMessage]:
        """Everything a click produced once the bot has finished with it: its private follow-ups (a refusal)
        and the channel messages posted or edited since (a move shows in the section's message, then the
        board and the next section follow)."""
        def changed() -> list[FakeMessage]:
            return [m for m in self.fake.channel_messages(self.channel) if m.updated_at > click.dispatched_at]

        def finished() -> bool:
            return any(m.ephemeral for m in click.followups) or bool(changed())
        await self.fake.wait_until(finished, f"the outcome of click {click.id}", timeout)
        await self.fake.settle()
        return [*click.followups, *(m for m in changed() if m not in click.followups)]

    def posted_since(self, since: float) -> list[FakeMessage]:
        """Channel messages posted after `since` (time.monotonic()), deleted ones included, but not a
        command's "thinking…" placeholder that the bot removed to answer privately."""
        return [m for m in self.fake.messages.values()
                if m.channel_id == self.channel.id and not m.ephemeral and m.created_at > since
                and not (m.deleted and m.interaction_id is not None and not (m.content or m.embeds or m.files))]


def prompt_ids(message: FakeMessage) -> tuple[int, int]:
    """(game id, prompt seq) of a prompt message."""
    for cid in message.custom_ids():
        m = PROMPT_ID.match(cid)
        if m:
            return int(m["game"]), int(m["seq"])
    raise AssertionError(f"message {message.id} has no prompt components")


async def open_table(table: Table, players: list[FakeUser], *, game: str = "countdown",
                     options: str | None = None) -> FakeMessage:
    """/game new (its creator takes the first seat), the others join, /game start; returns the first
    prompt message."""
    opts = {"options": options} if options else {}
    await table.command("game new", players[0], game=game, **opts)
    for player in players[1:]:
        await table.command("game join", player)
    await table.command("game start", players[0])
    return await table.current_prompt()



ANSWER_ID = re.compile(r"^mk:a:(?P<game>\d+):")


def live_controls(fake: FakeDiscord, channel: FakeChannel, user: FakeUser, game_id: int,
                  seq: int) -> FakeMessage | None:
    """The newest message `user` sees (the channel's, or one only they see) with components answering
    prompt `seq` of game `game_id`."""
    found = None
    for m in fake.messages.values():
        if m.channel_id != channel.id or m.deleted or (m.ephemeral and m.visible_to != user.id):
            continue
        for cid in m.custom_ids():
            hit = PROMPT_ID.match(cid)
            if hit and int(hit["game"]) == game_id and int(hit["seq"]) % 1_000_000 == seq:
                found = m
    return found


def answer_button(fake: FakeDiscord, channel: FakeChannel, game_id: int) -> tuple[FakeMessage, str] | None:
    """The channel message with the button that opens a player's own controls (simultaneous or private
    questions), and its custom_id."""
    for m in reversed(fake.channel_messages(channel)):
        for cid in m.custom_ids():
            hit = ANSWER_ID.match(cid)
            if hit and int(hit["game"]) == game_id:
                return m, cid
    return None


async def controls_for(fake: FakeDiscord, channel: FakeChannel, user: FakeUser, game_id: int, seq: int,
                       timeout: float = 20.0) -> FakeMessage:
    """The components `user` clicks to answer prompt `seq`: in the channel, or opened privately with the
    channel's "Answer" button when several players are asked at once."""
    opened: set[int] = set()

    def ready() -> FakeMessage | None:
        return live_controls(fake, channel, user, game_id, seq)

    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        found = ready()
        if found is not None:
            return found
        button = answer_button(fake, channel, game_id)
        if button is not None and button[0].id not in opened and not opened:
            # the question may ride on the private reply to this player's own last click: look for it first
            try:
                return await fake.wait_until(ready, f"own controls for prompt {seq}", 1.0)
            except AssertionError:
                button = answer_button(fake, channel, game_id)  # the channel may have moved on meanwhile
        if button is not None and button[0].id not in opened:
            opened.add(button[0].id)
            ix = await fake.click(button[1], button[0], user=user)
            await fake.expect_callback(ix, timeout=10)
        remaining = deadline - loop.time()
        if remaining <= 0:
            shown = [(m.id, m.ephemeral, m.content[:80], m.custom_ids()) for m in fake.messages.values()
                     if m.channel_id == channel.id and not m.deleted][-6:]
            raise AssertionError(f"no controls for prompt {seq} of game {game_id} reached {user.name}; "
                                 f"the last messages: {shown}; failures: {fake.failures}")
        try:
            await fake.wait_until(ready, f"controls for prompt {seq}", min(remaining, 0.5))
        except AssertionError:
            continue  # not yet: look for the "Answer" button again


async def answer_with_controls(fake: FakeDiscord, channel: FakeChannel, user: FakeUser, game_id: int,
                               prompt: Prompt, action: Action) -> FakeInteraction:
    """Answer `prompt` with `action` the way a player does: its button, its menu, or its amount button
    (opened privately through "Answer" when the question is private or several players are asked)."""
    message = await controls_for(fake, channel, user, game_id, prompt.seq)
    index = [o.id for o in prompt.options].index
    if not message.ephemeral and any(prompt.options[index(c)].private for c in action.choice):
        # a card in hand is not shown in the channel: it is in the private reply to the player's last click,
        # or "Your cards…" opens the question privately
        def private() -> FakeMessage | None:
            found = live_controls(fake, channel, user, game_id, prompt.seq)
            return found if found is not None and found.ephemeral else None
        def opener() -> tuple[FakeMessage, str] | None:
            shown = live_controls(fake, channel, user, game_id, prompt.seq)
            cid = next((c for c in shown.custom_ids() if ANSWER_ID.match(c)), None) if shown is not None else None
            return (shown, cid) if shown is not None and cid is not None else None
        try:
            message = await fake.wait_until(private, f"own controls of prompt {prompt.seq}", 1.0)
        except AssertionError:
            shown, cid = await fake.wait_until(opener, f"'Your cards…' for prompt {prompt.seq}", 10)
            await fake.expect_callback(await fake.click(cid, shown, user=user), timeout=10)
            message = await fake.wait_until(private, f"the private controls of prompt {prompt.seq}", 10)
    if prompt.kind is PromptKind.AMOUNT:  # one button per value
        amount = f"a{action.amount}"
        cid = next(c for c in message.custom_ids() if c.startswith("mk:p:") and c.split(":", 4)[4] == amount)
        return await fake.click(cid, message, user=user)
    if prompt.kind is PromptKind.MANY or message.selects():
        tokens = [option_token(prompt, index(c), OPTION_TEXT_MAX) for c in action.choice]
        select = next(s for s in message.selects() if {o["value"] for o in s["options"]} >= set(tokens))
        return await fake.select(select["custom_id"], tokens, message, user=user)
    wanted = {f"i{action.choice[0]}", f"#{index(action.choice[0])}"}
    cid = next(c for c in message.custom_ids() if c.startswith("mk:p:") and c.split(":", 4)[4] in wanted)
    return await fake.click(cid, message, user=user)


async def seed_lobby(running: RunningBot, table: Table, seed: int) -> None:
    """Give the channel's open lobby a fixed seed (the lobby has no seed option): the game is the same every
    run, so a test can play it to its end with an agent."""
    store = running.bot.service.store
    lobby = await store.open_game(table.channel.id)
    assert lobby is not None and lobby.id is not None
    async with store.session() as session:
        await session.exec(update(Game).where(col(Game.id) == lobby.id).values(seed=seed))
        await session.commit()


async def open_game_id(running: RunningBot, table: Table) -> int:
    """The id of the channel's open game."""
    game = await running.bot.service.store.open_game(table.channel.id)
    assert game is not None and game.id is not None
    return game.id


def no_repeated_board(posted: list[FakeMessage]) -> bool:
    """No board is posted as the same picture as the board before it (an unchanged table is not shown twice),
    and every board in the channel is the one laid out for Discord's inline size (1100 px wide: twice the ~550
    px Discord shows; the 1600 px full board is `/game board`, privately)."""
    boards = [m.boards[-1].data for m in posted if m.boards and not m.deleted]
    widths = {int.from_bytes(b[16:20], "big") for b in boards}  # the PNG header's width
    assert widths <= {1100}, f"channel boards of widths {sorted(widths)}"
    repeated = [n for n in range(1, len(boards)) if boards[n] == boards[n - 1]]
    assert not repeated, f"boards {repeated} repeat the one before them ({len(boards)} boards)"
    return True
