"""`/ah …`: Arkham Horror 3e's own commands. Acting commands answer the pending prompt (same as its buttons);
an action that opens a question (move, focus, attack, trade) is answered by the command's argument too.
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
class ArkhamHorror(GameCommands, commands.GroupCog, group_name="ah",
                   group_description="Arkham Horror 3e: your actions, sheets, the town, cards."):
    command_group = "ah"

    def __init__(self, bot: MiskatonicBot) -> None:
        self.bot = bot
        super().__init__()

    async def ac_move(self, i: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._suggest(i, "move", current)

    async def ac_focus(self, i: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._suggest(i, "focus", current)

    async def ac_attack(self, i: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._suggest(i, "attack", current)

    async def ac_trade(self, i: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._suggest(i, "trade", current)

    async def ac_action(self, i: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._suggest(i, "action", current)

    async def ac_buy(self, i: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._suggest(i, "buy", current)

    @app_commands.command(name="move", description="Move up to 2 spaces, and up to 2 more at $1 each.")
    @app_commands.describe(to="Where to (start typing: the spaces you can reach, with their cost).")
    @app_commands.autocomplete(to=ac_move)
    async def move(self, interaction: discord.Interaction, to: str | None = None) -> None:
        await self._run(interaction, "move", to=to)

    @app_commands.command(name="gather", description="Gather resources: gain $1.")
    async def gather(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "gather")

    @app_commands.command(name="focus", description="Focus a skill: a token to reroll a die of that skill later.")
    @app_commands.describe(skill="Which skill (start typing: the ones you may focus).")
    @app_commands.autocomplete(skill=ac_focus)
    async def focus(self, interaction: discord.Interaction, skill: str | None = None) -> None:
        await self._run(interaction, "focus", skill=skill)

    @app_commands.command(name="research", description="Research: test Observation to gain clues here.")
    async def research(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "research")

    @app_commands.command(name="ward", description="Ward: test Lore to remove doom from your space.")
    async def ward(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "ward")

    @app_commands.command(name="attack", description="Attack a monster on your space (Strength).")
    @app_commands.describe(monster="Which monster (start typing: those on your space).")
    @app_commands.autocomplete(monster=ac_attack)
    async def attack(self, interaction: discord.Interaction, monster: str | None = None) -> None:
        await self._run(interaction, "attack", monster=monster)

    @app_commands.command(name="evade", description="Evade the monsters engaged with you (Observation).")
    async def evade(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "evade")

    @app_commands.command(name="trade", description="Trade with an investigator on your space.")
    @app_commands.describe(player="Who to trade with (start typing: those on your space).")
    @app_commands.autocomplete(player=ac_trade)
    async def trade(self, interaction: discord.Interaction, player: str | None = None) -> None:
        await self._run(interaction, "trade", player=player)

    @app_commands.command(name="action", description="Use an action ability of a card or your investigator.")
    @app_commands.describe(component="Which ability (start typing: the ones you can use now).")
    @app_commands.autocomplete(component=ac_action)
    async def action(self, interaction: discord.Interaction, component: str | None = None) -> None:
        await self._run(interaction, "action", component=component)

    @app_commands.command(name="buy", description="Buy an item from the display when an effect lets you shop.")
    @app_commands.describe(item="Which item (start typing: what you can afford).")
    @app_commands.autocomplete(item=ac_buy)
    async def buy(self, interaction: discord.Interaction, item: str | None = None) -> None:
        await self._run(interaction, "buy", item=item)

    @app_commands.command(name="pass", description="End your turn without using your remaining actions.")
    async def pass_(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "pass")

    @app_commands.command(name="end", description="End your turn (the same as pass).")
    async def end(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "pass")

    @app_commands.command(name="odds", description="Your chances in a test: each skill's dice, with rerolls (private).")
    @app_commands.describe(player="Whose chances (leave empty for yours).")
    async def odds(self, interaction: discord.Interaction, player: discord.Member | None = None) -> None:
        await self._read_about(interaction, "odds", player)

    @app_commands.command(name="sheet", description="An investigator's sheet: skills, health, assets (private).")
    @app_commands.describe(player="Whose sheet (leave empty for yours).")
    async def sheet(self, interaction: discord.Interaction, player: discord.Member | None = None) -> None:
        await self._read_about(interaction, "sheet", player)

    @app_commands.command(name="map", description="A space of the town: what it adjoins and what is on it (private).")
    @app_commands.describe(space="A space's name (leave empty for where you stand).")
    async def map(self, interaction: discord.Interaction, space: str | None = None) -> None:
        await self._run(interaction, "map", ephemeral=True, space=space)

    @app_commands.command(name="card", description="Read an investigator, asset or monster card (private).")
    @app_commands.describe(name="The card's name, or part of it.")
    async def card(self, interaction: discord.Interaction, name: str) -> None:
        await self._run(interaction, "card", ephemeral=True, name=name)


async def setup(bot: MiskatonicBot) -> None:
    await bot.add_cog(ArkhamHorror(bot))
