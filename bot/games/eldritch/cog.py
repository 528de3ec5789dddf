"""`/eh …`: Eldritch Horror's own commands. Acting commands answer the pending prompt (same as its buttons);
`sheet`, `map` and `card` only read. Everything goes through `bot.games.game_command` → `GameService.choose`."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.game_commands import GameCommands

if TYPE_CHECKING:
    from bot.bot import MiskatonicBot


@app_commands.guild_only()
class EldritchHorror(GameCommands, commands.GroupCog, group_name="eh",
                     group_description="Eldritch Horror: your actions and encounter, sheets, the map, cards."):
    command_group = "eh"

    def __init__(self, bot: MiskatonicBot) -> None:
        self.bot = bot
        super().__init__()

    async def ac_travel(self, i: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._suggest(i, "travel", current)

    async def ac_trade(self, i: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._suggest(i, "trade", current)

    async def ac_prepare(self, i: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._suggest(i, "prepare", current)

    async def ac_action(self, i: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._suggest(i, "action", current)

    async def ac_encounter(self, i: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._suggest(i, "encounter", current)

    @app_commands.command(name="travel", description="Travel: one step, one more per train or ship ticket spent.")
    @app_commands.describe(destination="Where to go (start typing: only the spaces you can reach now, with the "
                                       "tickets each costs; leave empty to list them).")
    @app_commands.autocomplete(destination=ac_travel)
    async def travel(self, interaction: discord.Interaction, destination: str | None = None) -> None:
        await self._run(interaction, "travel", destination=destination)

    @app_commands.command(name="move", description="Move (travel): one step, one more per train or ship ticket.")
    @app_commands.describe(to="Where to go (start typing: only the spaces you can reach now, with the tickets "
                              "each costs; leave empty to list them).")
    @app_commands.autocomplete(to=ac_travel)
    async def move(self, interaction: discord.Interaction, to: str | None = None) -> None:
        await self._run(interaction, "travel", destination=to)

    @app_commands.command(name="rest", description="Rest: recover 1 Health and 1 Sanity (no Monster on your space).")
    async def rest(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "rest")

    @app_commands.command(name="trade", description="Trade with an investigator on your space (they must agree).")
    @app_commands.describe(player="Who to trade with (start typing: the investigators on your space).")
    @app_commands.autocomplete(player=ac_trade)
    async def trade(self, interaction: discord.Interaction, player: str | None = None) -> None:
        await self._run(interaction, "trade", player=player)

    @app_commands.command(name="prepare", description="Prepare for travel: gain a train or ship ticket.")
    @app_commands.describe(ticket="Which ticket: train or ship (only those your space's paths allow).")
    @app_commands.autocomplete(ticket=ac_prepare)
    async def prepare(self, interaction: discord.Interaction, ticket: str | None = None) -> None:
        await self._run(interaction, "prepare", ticket=ticket)

    @app_commands.command(name="acquire", description="Acquire assets: test Influence and buy from the reserve.")
    async def acquire(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "acquire")

    @app_commands.command(name="action", description="Use an action ability (your investigator's, a card's).")
    @app_commands.describe(component="Which ability (start typing: the ones you can use now).")
    @app_commands.autocomplete(component=ac_action)
    async def action(self, interaction: discord.Interaction, component: str | None = None) -> None:
        await self._run(interaction, "action", component=component)

    @app_commands.command(name="encounter", description="Choose your encounter in the Encounter phase.")
    @app_commands.describe(kind="Which encounter (start typing: only those you may have here now).")
    @app_commands.autocomplete(kind=ac_encounter)
    async def encounter(self, interaction: discord.Interaction, kind: str | None = None) -> None:
        await self._run(interaction, "encounter", kind=kind)

    @app_commands.command(name="pass", description="End your turn without using your remaining actions.")
    async def pass_(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "pass")

    @app_commands.command(name="end", description="End your turn (the same as pass).")
    async def end(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "pass")

    @app_commands.command(name="odds", description="Your chances in a test: each skill's dice, with clues (private).")
    @app_commands.describe(player="Whose chances (leave empty for yours).")
    async def odds(self, interaction: discord.Interaction, player: discord.Member | None = None) -> None:
        await self._read_about(interaction, "odds", player)

    @app_commands.command(name="sheet", description="An investigator's sheet: skills, health, possessions (private).")
    @app_commands.describe(player="Whose sheet (leave empty for yours).")
    async def sheet(self, interaction: discord.Interaction, player: discord.Member | None = None) -> None:
        await self._read_about(interaction, "sheet", player)

    @app_commands.command(name="map", description="A space of the world map: its paths and what is on it (private).")
    @app_commands.describe(space="A city's name or a space's number (leave empty for where you stand).")
    async def map(self, interaction: discord.Interaction, space: str | None = None) -> None:
        await self._run(interaction, "map", ephemeral=True, space=space)

    @app_commands.command(name="card", description="Read any Eldritch Horror card's face (private).")
    @app_commands.describe(name="The card's name, or part of it.")
    async def card(self, interaction: discord.Interaction, name: str) -> None:
        await self._run(interaction, "card", ephemeral=True, name=name)


async def setup(bot: MiskatonicBot) -> None:
    await bot.add_cog(EldritchHorror(bot))
