"""The fake Discord itself, driven by a tiny discord.py bot: the protocol facts the bot's own e2e tests rely
on (handshake, sharding, command sync, interaction callbacks, follow-ups with files, component dispatch,
autocomplete) and the refusals Discord would give."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.e2e.fakediscord import ClientRefused, FakeDiscord, point_discord_py_at, skip_identify_delay

pytestmark = pytest.mark.e2e


class Counter(discord.ui.DynamicItem[discord.ui.Button], template=r"t:(?P<n>\d+)"):
    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"n{n}", custom_id=f"t:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(content=f"clicked {self.n}", view=None)


def tiny_bot(shards: int | None) -> commands.AutoShardedBot:
    bot = commands.AutoShardedBot(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                                  shard_count=shards, guild_ready_timeout=0.05)
    group = app_commands.Group(name="t", description="test commands")

    @group.command(name="ping", description="answer pong")
    @app_commands.describe(n="a number", who="someone")
    async def ping(interaction: discord.Interaction, n: app_commands.Range[int, 1, 9],
                   who: discord.Member | None = None) -> None:
        await interaction.response.send_message(f"pong {n} {who.name if who else '-'}", ephemeral=True)

    @group.command(name="draw", description="defer, then a file and a button")
    async def draw(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        view = discord.ui.View(timeout=None)
        view.add_item(Counter(7))
        await interaction.followup.send("drawn", view=view, file=discord.File(io.BytesIO(b"PNG"), "board.png"),
                                        embed=discord.Embed().set_image(url="attachment://board.png"))

    @group.command(name="twice", description="acknowledge twice (a bug)")
    async def twice(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("one")
        await interaction.client.http.request(  # type: ignore[attr-defined]
            discord.http.Route("GET", "/nowhere"))

    @group.command(name="pick", description="autocomplete")
    @app_commands.describe(thing="a thing")
    async def pick(interaction: discord.Interaction, thing: str) -> None:
        await interaction.response.send_message(thing)

    @pick.autocomplete("thing")
    async def things(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=t, value=t) for t in ("apple", "apricot", "banana") if t.startswith(current)]

    bot.tree.add_command(group)
    bot.add_dynamic_items(Counter)
    return bot


@pytest.fixture(params=[1, 2], ids=["1shard", "2shards"])
async def world(request) -> AsyncIterator[tuple[FakeDiscord, commands.AutoShardedBot]]:
    fake = FakeDiscord()
    await fake.start()
    with point_discord_py_at(fake.api_base, fake.gateway_url):
        bot = tiny_bot(request.param)
        skip_identify_delay(bot)
        await bot.login(fake.token)
        task = asyncio.create_task(bot.connect())
        await asyncio.wait_for(bot.wait_until_ready(), 10)
        await bot.tree.sync()
        yield fake, bot
        await bot.close()
        await asyncio.wait_for(task, 10)
    await fake.stop()


async def test_handshake_sharding_and_sync(world) -> None:
    fake, bot = world
    assert sorted(g.name for g in bot.guilds) == ["Arkham", "Dunwich"]
    shards = {i["shard"][0] for i in fake.gateway.identifies}
    assert shards == set(range(bot.shard_count))
    if bot.shard_count == 2:
        # Each guild lives on its own shard, so interactions prove the per-shard dispatch.
        assert bot.get_guild(fake.guild("Arkham").id).shard_id != bot.get_guild(fake.guild("Dunwich").id).shard_id
    assert set(fake.catalog.global_commands) == {"t"}
    assert fake.failures == []


async def test_slash_command_with_member_option(world) -> None:
    fake, _ = world
    for guild in ("Arkham", "Dunwich"):
        ix = await fake.slash("t ping", user=fake.alice, channel=fake.channel("table-1", guild), n=3, who=fake.bob)
        cb = await fake.expect_callback(ix)
        assert cb.type == 4 and cb.ephemeral and cb.content == "pong 3 bob"
    with pytest.raises(ClientRefused):
        await fake.slash("t ping", user=fake.alice, n=10)  # outside the declared range: a client refuses
    with pytest.raises(ClientRefused):
        await fake.slash("t ping", user=fake.alice)  # required option missing
    assert fake.failures == []


async def test_defer_followup_file_and_restartless_button(world) -> None:
    fake, _ = world
    ix = await fake.slash("t draw", user=fake.carol)
    msg = await fake.reply(ix)
    assert ix.callback.type == 5
    assert msg.content == "drawn" and msg.filenames == ["board.png"] and msg.file("board.png").data == b"PNG"
    assert msg.embeds[0]["image"]["url"] == "attachment://board.png"
    click = await fake.click("t:7", msg, user=fake.dave)
    updated = await fake.reply(click)
    assert updated.id == msg.id and updated.content == "clicked 7" and updated.components == []
    with pytest.raises(ClientRefused):
        await fake.click("t:7", msg, user=fake.dave)  # the button is gone
    assert fake.failures == []


async def test_autocomplete(world) -> None:
    fake, _ = world
    choices = await fake.choices("t pick", "thing", "ap", user=fake.alice)
    assert [c["value"] for c in choices] == ["apple", "apricot"]


async def test_refusals_are_recorded_as_failures(world) -> None:
    fake, _ = world
    ix = await fake.slash("t twice", user=fake.alice)
    await fake.expect_callback(ix)
    await fake.wait_until(lambda: fake.failures, "a recorded failure")
    assert any("/nowhere" in f for f in fake.take_failures())


async def test_recommended_shard_count_from_gateway_bot() -> None:
    """With no shard count, AutoShardedClient asks GET /gateway/bot and opens that many shards."""
    fake = FakeDiscord(recommended_shards=2)
    await fake.start()
    with point_discord_py_at(fake.api_base, fake.gateway_url):
        bot = tiny_bot(None)
        skip_identify_delay(bot)
        await bot.login(fake.token)
        task = asyncio.create_task(bot.connect())
        await asyncio.wait_for(bot.wait_until_ready(), 10)
        assert bot.shard_count == 2 and len(fake.gateway.sessions) == 2
        assert any(r.path == "/gateway/bot" for r in fake.requests)
        await bot.close()
        await asyncio.wait_for(task, 10)
    await fake.stop()
    assert fake.failures == []
