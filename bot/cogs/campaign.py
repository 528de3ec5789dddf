"""`/campaign …`: a campaign that lives in this channel, for every game played as campaigns (its manifest says
so): open a lobby, gather players, start, and between scenarios read the log, spend experience, trade decks,
change the group and play the next scenario. Each scenario is an ordinary game of the channel, played with
its buttons and the game's own commands.

Every command goes through the campaign service (bot/campaigns.py), which goes through GameService; this
module only turns Discord input into those calls. What changes the campaign is said in the channel; what is
yours (your deck code, what you bought) and every refusal only to you.
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.actors import actor_for, channel_of, guild_of
from bot.campaigns import CampaignService, campaigns_for
from bot.cogs.lobby import resolve_character
from bot.replies import send_reply, within_deadline
from engine.games import get_game

if TYPE_CHECKING:
    from bot.bot import MiskatonicBot

CHOICES_MAX = 25


def _choice(name: str, value: str) -> app_commands.Choice[str]:
    return app_commands.Choice(name=name[:100], value=value[:100])


def _fold(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def character_choices(game: str | None, current: str) -> list[app_commands.Choice[str]]:
    """The game's investigators with every typed word, labelled with their numbers and ability."""
    try:
        characters = get_game(game).characters() if game else []
    except Exception:  # autocomplete never fails: an unknown game is the command's to say
        return []
    words = _fold(current).split()
    return [_choice(f"{o.label}: {o.detail}" if o.detail else o.label, o.id) for o in characters
            if all(w in f"{_fold(o.id)} {_fold(o.label)}" for w in words)][:CHOICES_MAX]


@app_commands.guild_only()
class Campaigns(commands.GroupCog, group_name="campaign",
                group_description="A campaign in this channel: scenarios played one after another, one record."):
    def __init__(self, bot: MiskatonicBot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def campaigns(self) -> CampaignService:
        return campaigns_for(self.bot.service)

    # -- autocomplete ------------------------------------------------------------------------------------
    async def game_ids(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        typed = _fold(current)
        return [_choice(f"{name} ({gid})", gid) for gid, name in self.campaigns.games()
                if typed in _fold(gid) or typed in _fold(name)][:CHOICES_MAX]

    async def difficulties(self, interaction: discord.Interaction,
                           current: str) -> list[app_commands.Choice[str]]:
        game = interaction.namespace.game
        specs = [s for s in self.campaigns.campaign_options(game) if s.id == "difficulty"] if game else []
        typed = _fold(current)
        return [_choice(c.label, c.id) for spec in specs for c in spec.choices
                if typed in _fold(c.id) or typed in _fold(c.label)][:CHOICES_MAX]

    async def new_investigators(self, interaction: discord.Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        return character_choices(interaction.namespace.game, current)

    async def investigators(self, interaction: discord.Interaction,
                            current: str) -> list[app_commands.Choice[str]]:
        if interaction.channel_id is None:
            return []
        return character_choices(await self.campaigns.channel_game(interaction.channel_id), current)

    async def upgrades(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        if interaction.channel_id is None:
            return []
        offers = await self.campaigns.upgrade_choices(interaction.channel_id, interaction.user.id, current)
        return [_choice(label, value) for label, value in offers]

    # -- commands ----------------------------------------------------------------------------------------
    @app_commands.command(name="new", description="Open a campaign in this channel (others then /campaign join).")
    @app_commands.describe(game="Which game (only games played as campaigns; start typing to see them).",
                           difficulty="How hard the whole campaign is (start typing to see the levels).",
                           investigator="Your investigator (you take the first seat): a name or part of one; "
                                        "empty for one dealt at random.")
    @app_commands.autocomplete(game=game_ids, difficulty=difficulties, investigator=new_investigators)
    async def new(self, interaction: discord.Interaction, game: str, difficulty: str,
                  investigator: str | None = None) -> None:
        character = resolve_character(game, investigator)
        work = self.campaigns.new(channel_of(interaction), guild_of(interaction), await actor_for(interaction),
                                  game, difficulty, character)
        await send_reply(interaction, await within_deadline(interaction, work))

    @app_commands.command(name="join", description="Take a seat in this channel's campaign (before it starts, or "
                                                   "between scenarios).")
    @app_commands.describe(investigator="Your investigator: a name or part of one. Between scenarios: empty to take "
                                        "over an investigator whose player left; a name for a new investigator.",
                           bot="Seat an AI teammate instead: it plays its scenarios, keeps its deck and spends its "
                               "experience.",
                           replace="Take over the AI teammate in this seat (its number), with its investigator and "
                                   "deck.")
    @app_commands.autocomplete(investigator=investigators)
    async def join(self, interaction: discord.Interaction, investigator: str | None = None, bot: bool = False,
                   replace: app_commands.Range[int, 1, 8] | None = None) -> None:
        channel = channel_of(interaction)
        character = resolve_character(await self.campaigns.channel_game(channel), investigator)
        work = self.campaigns.join(channel, await actor_for(interaction), character, ai=bot, replace=replace)
        await send_reply(interaction, await within_deadline(interaction, work))

    @app_commands.command(name="leave", description="Give up your seat in the campaign (not during a scenario).")
    @app_commands.describe(retire="Between scenarios: take your investigator out of the campaign too (else they "
                                  "wait for another player).",
                           bot="Remove the AI teammate in this seat (its number) instead.")
    async def leave(self, interaction: discord.Interaction, retire: bool = False,
                    bot: app_commands.Range[int, 1, 8] | None = None) -> None:
        work = self.campaigns.leave(channel_of(interaction), await actor_for(interaction), retire, ai_seat=bot)
        await send_reply(interaction, await within_deadline(interaction, work))

    @app_commands.command(name="start", description="Begin the campaign: its first scenario's game starts here.")
    async def start(self, interaction: discord.Interaction) -> None:
        # Setting up a scenario and drawing its first picture takes a while: defer at once.
        work = self.campaigns.start(channel_of(interaction), await actor_for(interaction))
        await send_reply(interaction, await within_deadline(interaction, work, defer_after=0))

    @app_commands.command(name="log", description="The campaign's record: scenarios played, the log, the "
                                                  "investigators and who plays them.")
    async def log(self, interaction: discord.Interaction) -> None:
        work = self.campaigns.log(channel_of(interaction), await actor_for(interaction))
        await send_reply(interaction, await within_deadline(interaction, work))

    @app_commands.command(name="upgrade", description="Between scenarios: spend your investigator's experience, or "
                                                      "see what it buys (private).")
    @app_commands.describe(card="What to buy (start typing for what you can afford); leave it out for the list.")
    @app_commands.autocomplete(card=upgrades)
    async def upgrade(self, interaction: discord.Interaction, card: str | None = None) -> None:
        work = self.campaigns.upgrade(channel_of(interaction), await actor_for(interaction), card)
        await send_reply(interaction, await within_deadline(interaction, work, ephemeral=True))

    @app_commands.command(name="deck", description="Your investigator's deck, card by card, and its code (private).")
    async def deck(self, interaction: discord.Interaction) -> None:
        work = self.campaigns.deck(channel_of(interaction), await actor_for(interaction))
        await send_reply(interaction, await within_deadline(interaction, work, ephemeral=True))

    @app_commands.command(name="import", description="Bring your own deck (a deck code) before the first scenario "
                                                     "(private).")
    @app_commands.describe(code="The deck code, pasted whole (/campaign deck shows the code of your deck now).")
    async def import_(self, interaction: discord.Interaction, code: str) -> None:
        work = self.campaigns.import_deck(channel_of(interaction), await actor_for(interaction), code)
        await send_reply(interaction, await within_deadline(interaction, work, ephemeral=True))

    @app_commands.command(name="next", description="Between scenarios: the next scenario's game starts here.")
    async def next(self, interaction: discord.Interaction) -> None:
        work = self.campaigns.next(channel_of(interaction), await actor_for(interaction))
        await send_reply(interaction, await within_deadline(interaction, work, defer_after=0))


async def setup(bot: MiskatonicBot) -> None:
    campaigns_for(bot.service)  # installs the end-of-scenario hook before any game can end
    await bot.add_cog(Campaigns(bot))
