"""`/es …`: Elder Sign's own commands. Acting commands answer the pending prompt (same as its buttons);
`odds` and `card` only read. Everything goes through `bot.games.game_command` → `GameService.choose`."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.game_commands import GameCommands

if TYPE_CHECKING:
    from bot.bot import MiskatonicBot


@app_commands.guild_only()
class ElderSign(GameCommands, commands.GroupCog, group_name="es",
                group_description="Elder Sign: act on your turn, odds, cards."):
    command_group = "es"

    def __init__(self, bot: MiskatonicBot) -> None:
        self.bot = bot
        super().__init__()

    async def ac_move(self, i: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._suggest(i, "move", current)

    async def ac_task(self, i: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._suggest(i, "task", current)

    async def ac_use(self, i: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._suggest(i, "use", current)

    async def ac_focus(self, i: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._suggest(i, "focus", current)

    async def ac_assist(self, i: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._suggest(i, "assist", current)

    async def ac_entrance(self, i: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._suggest(i, "entrance", current)

    @app_commands.command(name="move", description="Move to an adventure, an Other World or the Entrance.")
    @app_commands.describe(place="Where to go (start typing: the cards on the table).")
    @app_commands.autocomplete(place=ac_move)
    async def move(self, interaction: discord.Interaction, place: str) -> None:
        await self._run(interaction, "move", place=place)

    @app_commands.command(name="roll", description="Roll your dice (or roll on after a failed roll).")
    async def roll(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "roll")

    @app_commands.command(name="task", description="Complete a task with the dice you rolled.")
    @app_commands.describe(choice="Which task, with which dice (start typing to see what your roll can do).")
    @app_commands.autocomplete(choice=ac_task)
    async def task(self, interaction: discord.Interaction, choice: str | None = None) -> None:
        await self._run(interaction, "task", choice=choice)

    @app_commands.command(name="clue", description="Spend a clue to reroll some of your dice.")
    async def clue(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "clue")

    @app_commands.command(name="use", description="Use an item, spell, ally or your investigator's ability.")
    @app_commands.describe(item="What to use (start typing: what you can use right now).")
    @app_commands.autocomplete(item=ac_use)
    async def use(self, interaction: discord.Interaction, item: str | None = None) -> None:
        await self._run(interaction, "use", item=item)

    @app_commands.command(name="fail", description="Declare a failed roll: discard a die and roll again.")
    async def fail(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "fail")

    @app_commands.command(name="focus", description="After a failed roll, keep one die aside for later.")
    @app_commands.describe(die="Which die to keep.")
    @app_commands.autocomplete(die=ac_focus)
    async def focus(self, interaction: discord.Interaction, die: str | None = None) -> None:
        await self._run(interaction, "focus", die=die)

    @app_commands.command(name="assist", description="After a failed roll, ask someone on your card for help.")
    @app_commands.describe(who="Which investigator to ask.")
    @app_commands.autocomplete(who=ac_assist)
    async def assist(self, interaction: discord.Interaction, who: str | None = None) -> None:
        await self._run(interaction, "assist", who=who)

    @app_commands.command(name="entrance", description="Take your one action at the Entrance.")
    @app_commands.describe(action="First Aid, Lost & Found, a souvenir, or nothing.")
    @app_commands.autocomplete(action=ac_entrance)
    async def entrance(self, interaction: discord.Interaction, action: str | None = None) -> None:
        await self._run(interaction, "entrance", action=action)

    @app_commands.command(name="giveup", description="Give up the adventure (it fails) or end your attack.")
    async def giveup(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "giveup")

    @app_commands.command(name="sheet", description="An investigator at a glance: stamina, sanity, clues, cards.")
    @app_commands.describe(player="Whose investigator (leave empty for yours).")
    async def sheet(self, interaction: discord.Interaction, player: discord.Member | None = None) -> None:
        await self._read_about(interaction, "sheet", player)

    @app_commands.command(name="odds", description="Your exact chances at each card with your dice (private).")
    @app_commands.describe(place="One card only (leave empty for every card on the table).")
    async def odds(self, interaction: discord.Interaction, place: str | None = None) -> None:
        await self._run(interaction, "odds", ephemeral=True, place=place)

    @app_commands.command(name="card", description="Read any Elder Sign card (private).")
    @app_commands.describe(name="The card's name, or part of it.")
    async def card(self, interaction: discord.Interaction, name: str) -> None:
        await self._run(interaction, "card", ephemeral=True, name=name)


async def setup(bot: MiskatonicBot) -> None:
    await bot.add_cog(ElderSign(bot))
