"""`/lcg …`: the card game's own commands. Acting commands answer the pending prompt (the same as its
buttons): each destination, enemy, card and ability is an option of the turn menu, picked by the command's
argument, and autocomplete lists only what is legal now. `hand`, `area`, `bag`, `card` and `log` only read,
privately; `hand` also brings the asker's own pending questions with their buttons. Everything goes through
`bot.games.game_command` → `GameService.choose`."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.game_commands import GameCommands
from bot.lookup.cards import suggest

if TYPE_CHECKING:
    from bot.bot import MiskatonicBot


@app_commands.guild_only()
class CardGame(GameCommands, commands.GroupCog, group_name="lcg",
               group_description="Arkham Horror: The Card Game: your actions, hand, play area, chaos bag, cards."):
    command_group = "lcg"

    def __init__(self, bot: MiskatonicBot) -> None:
        self.bot = bot
        super().__init__()

    async def ac_move(self, i: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._suggest(i, "move", current)

    async def ac_fight(self, i: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._suggest(i, "fight", current)

    async def ac_evade(self, i: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._suggest(i, "evade", current)

    async def ac_engage(self, i: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._suggest(i, "engage", current)

    async def ac_play(self, i: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._suggest(i, "play", current)

    async def ac_activate(self, i: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._suggest(i, "activate", current)

    async def ac_card(self, i: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=label, value=value) for label, value in suggest("arkham-lcg", current)]

    @app_commands.command(name="investigate",
                          description="Investigate your location: intellect against its shroud for a clue.")
    async def investigate(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "investigate")

    @app_commands.command(name="move", description="Move to a connecting location (1 action).")
    @app_commands.describe(to="Where to (start typing: the locations connected to yours).")
    @app_commands.autocomplete(to=ac_move)
    async def move(self, interaction: discord.Interaction, to: str | None = None) -> None:
        await self._run(interaction, "move", to=to)

    @app_commands.command(name="fight", description="Fight an enemy at your location (combat against its fight).")
    @app_commands.describe(enemy="Which enemy (start typing: those you can attack).")
    @app_commands.autocomplete(enemy=ac_fight)
    async def fight(self, interaction: discord.Interaction, enemy: str | None = None) -> None:
        await self._run(interaction, "fight", enemy=enemy)

    @app_commands.command(name="evade", description="Evade an enemy engaged with you (agility against its evade).")
    @app_commands.describe(enemy="Which enemy (start typing: those engaged with you).")
    @app_commands.autocomplete(enemy=ac_evade)
    async def evade(self, interaction: discord.Interaction, enemy: str | None = None) -> None:
        await self._run(interaction, "evade", enemy=enemy)

    @app_commands.command(name="engage", description="Engage an enemy at your location.")
    @app_commands.describe(enemy="Which enemy (start typing: those here not engaged with you).")
    @app_commands.autocomplete(enemy=ac_engage)
    async def engage(self, interaction: discord.Interaction, enemy: str | None = None) -> None:
        await self._run(interaction, "engage", enemy=enemy)

    @app_commands.command(name="draw", description="Draw 1 card (1 action).")
    async def draw(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "draw")

    @app_commands.command(name="resource", description="Gain 1 resource (1 action).")
    async def resource(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "resource")

    @app_commands.command(name="play", description="Play a card from your hand (an action, or free if fast).")
    @app_commands.describe(card="Which card (start typing: the cards you can play now, with their cost).")
    @app_commands.autocomplete(card=ac_play)
    async def play(self, interaction: discord.Interaction, card: str | None = None) -> None:
        await self._run(interaction, "play", card=card)

    @app_commands.command(name="activate", description="Use an ability of a card, your investigator, a location.")
    @app_commands.describe(ability="Which ability (start typing: the ones you can use now).")
    @app_commands.autocomplete(ability=ac_activate)
    async def activate(self, interaction: discord.Interaction, ability: str | None = None) -> None:
        await self._run(interaction, "activate", ability=ability)

    @app_commands.command(name="resign", description="Resign: leave the scenario safely, where a card lets you.")
    async def resign(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "resign")

    @app_commands.command(name="advance", description="Spend the group's clues to advance the act.")
    async def advance(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "advance")

    @app_commands.command(name="end", description="End your turn.")
    async def end(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "end")

    @app_commands.command(name="hand", description="Your hand, privately, with the buttons of your pending choice.")
    async def hand(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "hand", ephemeral=True)

    @app_commands.command(name="area", description="An investigator's play and threat areas, numbers, skills.")
    @app_commands.describe(player="Whose area (leave empty for yours).")
    async def area(self, interaction: discord.Interaction, player: discord.Member | None = None) -> None:
        await self._read_about(interaction, "area", player)

    @app_commands.command(name="sheet", description="An investigator's play and threat areas, numbers (private).")
    @app_commands.describe(player="Whose sheet (leave empty for yours).")
    async def sheet(self, interaction: discord.Interaction, player: discord.Member | None = None) -> None:
        await self._read_about(interaction, "area", player)

    @app_commands.command(name="odds", description="Your chances in a test: the chaos bag, pass by N (private).")
    async def odds(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "bag", ephemeral=True)

    @app_commands.command(name="bag", description="The chaos bag's tokens and your chance to pass a test by N.")
    async def bag(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "bag", ephemeral=True)

    @app_commands.command(name="card", description="Read a card: player card, investigator, enemy, location (private).")
    @app_commands.describe(name="The card's name, or part of it (start typing for suggestions).")
    @app_commands.autocomplete(name=ac_card)
    async def card(self, interaction: discord.Interaction, name: str) -> None:
        await self._run(interaction, "card", ephemeral=True, name=name)


async def setup(bot: MiskatonicBot) -> None:
    await bot.add_cog(CardGame(bot))
