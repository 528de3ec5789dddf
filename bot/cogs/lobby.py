"""`/game …`: open, join, leave, start, follow and abandon the game in this channel.

Every command goes through the one GameService path; this module only turns Discord input into service
calls and the service's Reply into messages. Commands that render an image (start, board) defer at once;
the others answer directly unless the service is slow (see `replies.within_deadline`).
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.actors import actor_for, channel_of, guild_of
from bot.replies import send_reply, within_deadline
from bot.service import PAGE_MAX, UserError
from engine.core.errors import UnknownGame
from engine.core.game import OptionSpec
from engine.core.prompt import Option
from engine.games import get_game

if TYPE_CHECKING:
    from bot.bot import MiskatonicBot

CHOICES_MAX = 25


def parse_options(text: str | None) -> dict[str, str]:
    """'start=12 difficulty=hard' -> {'start': '12', 'difficulty': 'hard'}."""
    out: dict[str, str] = {}
    for token in (text or "").replace(",", " ").split():
        key, sep, value = token.partition("=")
        if not sep or not key or not value:
            raise UserError(f"'{token}' is not an option: write options as key=value, e.g. start=12.")
        out[key.strip().lower()] = value.strip()
    return out


def _choice(name: str, value: str) -> app_commands.Choice[str]:
    return app_commands.Choice(name=name[:100], value=value[:100])


def _fold(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def resolve_character(game: str | None, typed: str | None) -> str | None:
    """The character id `typed` names in `game`: its id, or its name or an unambiguous part of the name or
    id, in any case ("ada", "Whitcombe", "night nurse"). None stays None (a random character). A name that
    fits several is refused with the candidates; one that fits none with the whole list: each character
    with what its label says (its game's numbers) and its ability."""
    if typed is None or not game:
        return typed
    try:
        options = get_game(game).characters()
    except UnknownGame:
        return typed  # the service names the games there are
    if not options:
        return typed
    q = _fold(typed)
    if not q:
        return None

    def name(o: Option) -> str:
        return _fold(o.label.split(",")[0].split("(")[0])

    exact = [o for o in options if q in (_fold(o.id), name(o), _fold(o.label))]
    if len(exact) == 1:
        return exact[0].id
    words = q.split()
    found = exact or [o for o in options if all(w in f"{_fold(o.id)} {_fold(o.label)}" for w in words)]
    if len(found) == 1:
        return found[0].id
    shown = typed if len(typed) <= 40 else typed[:39] + "…"
    if found:
        raise UserError(f"'{shown}' could be {', '.join(o.label.split(',')[0] for o in found[:10])}: say which.")
    listing = "\n".join(f"- {o.id}: {o.label}" + (f". {o.detail}" if o.detail else "") for o in options)
    raise UserError(f"There is no character called '{shown}'. The characters:\n{listing}")


@app_commands.guild_only()
class Lobby(commands.GroupCog, group_name="game",
            group_description="Open, join, start and follow the game in this channel."):
    def __init__(self, bot: MiskatonicBot) -> None:
        self.bot = bot
        super().__init__()

    # -- autocomplete ------------------------------------------------------------------------------------
    async def game_ids(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        typed = current.lower()
        return [_choice(f"{name} ({gid})", gid) for gid, name in self.bot.service.games()
                if typed in gid.lower() or typed in name.lower()][:CHOICES_MAX]

    async def option_pairs(self, interaction: discord.Interaction,
                           current: str) -> list[app_commands.Choice[str]]:
        """Complete the last `key=value` of the options string from the chosen game's option specs."""
        game = interaction.namespace.game
        specs = self.bot.service.option_specs(game) if game else []  # none for an unknown game id
        head, _, last = current.rpartition(" ")
        prefix = f"{head} " if head else ""
        key, sep, typed_value = last.partition("=")
        out: list[app_commands.Choice[str]] = []
        for spec in specs:
            if not sep and spec.id.startswith(key.lower()):
                label = f"{spec.id}={spec.default} — {spec.label}"
                out.append(_choice(prefix + label, f"{prefix}{spec.id}={spec.default}"))
            elif sep and spec.id == key.lower():
                for value in _values(spec):
                    if value.startswith(typed_value):
                        out.append(_choice(f"{prefix}{spec.id}={value}", f"{prefix}{spec.id}={value}"))
        return out[:CHOICES_MAX]

    async def investigators(self, interaction: discord.Interaction,
                            current: str) -> list[app_commands.Choice[str]]:
        if interaction.channel_id is None:
            return []  # not in a server channel: the command itself will say so
        game = await self.bot.service.channel_game(interaction.channel_id)
        return self._characters(game, current)

    def _characters(self, game: str | None, current: str) -> list[app_commands.Choice[str]]:
        """Each character whose id or label has every typed word, labelled with what the game says of it
        (its game's numbers, such as health and sanity) and as much of its ability as fits."""
        try:
            characters = get_game(game).characters() if game else []
        except Exception:  # autocomplete never fails: an unknown game or broken content is the command's to say
            return []
        words = _fold(current).split()
        return [_choice(f"{o.label}: {o.detail}" if o.detail else o.label, o.id) for o in characters
                if all(w in f"{_fold(o.id)} {_fold(o.label)}" for w in words)][:CHOICES_MAX]

    # -- commands ----------------------------------------------------------------------------------------
    async def new_investigators(self, interaction: discord.Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        return self._characters(interaction.namespace.game, current)

    @app_commands.command(name="new", description="Open a new game in this channel (others then /game join).")
    @app_commands.describe(game="Which game to play (start typing to see the list).",
                           options="Game options as key=value pairs separated by spaces, e.g. 'start=12'.",
                           investigator="Your investigator (you take the first seat): a name or part of one; "
                                        "empty for a random one.")
    @app_commands.autocomplete(game=game_ids, options=option_pairs, investigator=new_investigators)
    async def new(self, interaction: discord.Interaction, game: str, options: str | None = None,
                  investigator: str | None = None) -> None:
        opts = parse_options(options)
        character = resolve_character(game, investigator)
        work = self.bot.service.new_game(channel_of(interaction), guild_of(interaction), await actor_for(interaction),
                                         game, opts, character=character)
        await send_reply(interaction, await within_deadline(interaction, work))

    @app_commands.command(name="join", description="Take a seat at the game in this channel, or seat an AI "
                                                   "teammate.")
    @app_commands.describe(investigator="The investigator you will play: a name or part of one (start typing to "
                                        "see each one's numbers and ability); empty for a random one.",
                           bot="Seat an AI teammate instead (it plays that investigator; you stay seated).",
                           replace="Take over this AI teammate's seat (its number), even in a running game.")
    @app_commands.autocomplete(investigator=investigators)
    async def join(self, interaction: discord.Interaction, investigator: str | None = None, bot: bool = False,
                   replace: app_commands.Range[int, 1, 8] | None = None) -> None:
        channel = channel_of(interaction)
        character = resolve_character(await self.bot.service.channel_game(channel), investigator)
        work = self.bot.service.join(channel, await actor_for(interaction), character, ai=bot, replace=replace)
        await send_reply(interaction, await within_deadline(interaction, work))

    @app_commands.command(name="leave", description="Give up your seat before the game starts, or remove an AI "
                                                    "teammate.")
    @app_commands.describe(bot="The AI teammate's seat number to remove (the table's creator or a moderator).")
    async def leave(self, interaction: discord.Interaction, bot: app_commands.Range[int, 1, 8] | None = None) -> None:
        work = self.bot.service.leave(channel_of(interaction), await actor_for(interaction), ai_seat=bot)
        await send_reply(interaction, await within_deadline(interaction, work))

    @app_commands.command(name="why", description="Why the AI teammate made its last decision (private).")
    async def why(self, interaction: discord.Interaction) -> None:
        work = self.bot.service.why(channel_of(interaction), await actor_for(interaction))
        await send_reply(interaction, await within_deadline(interaction, work, ephemeral=True))

    @app_commands.command(name="start", description="Start the game with the investigators seated so far.")
    async def start(self, interaction: discord.Interaction) -> None:
        # Setting up and drawing the first board takes a while: defer at once.
        work = self.bot.service.start(channel_of(interaction), await actor_for(interaction))
        await send_reply(interaction, await within_deadline(interaction, work, defer_after=0))

    @app_commands.command(name="status", description="Where the game stands and whom it is waiting for.")
    async def status(self, interaction: discord.Interaction) -> None:
        work = self.bot.service.status(channel_of(interaction), await actor_for(interaction))
        await send_reply(interaction, await within_deadline(interaction, work))

    @app_commands.command(name="board", description="Show the board as it is now.")
    async def board(self, interaction: discord.Interaction) -> None:
        work = self.bot.service.board(channel_of(interaction), await actor_for(interaction))
        await send_reply(interaction, await within_deadline(interaction, work, defer_after=0))

    @app_commands.command(name="log", description="What has happened so far in this game, page by page.")
    @app_commands.describe(page="Which page of the log (1 = the first events).")
    async def log(self, interaction: discord.Interaction, page: app_commands.Range[int, 1, PAGE_MAX] = 1) -> None:
        work = self.bot.service.log(channel_of(interaction), await actor_for(interaction), page)
        await send_reply(interaction, await within_deadline(interaction, work))

    @app_commands.command(name="me", description="Your investigator and what only you may see (private).")
    async def me(self, interaction: discord.Interaction) -> None:
        work = self.bot.service.me(channel_of(interaction), await actor_for(interaction))
        await send_reply(interaction, await within_deadline(interaction, work, ephemeral=True))

    @app_commands.command(name="history", description="This channel's finished games and their results "
                                                      "(private).")
    @app_commands.describe(page="Which page (1 = the most recent games).")
    async def history(self, interaction: discord.Interaction,
                      page: app_commands.Range[int, 1, PAGE_MAX] = 1) -> None:
        work = self.bot.service.history(channel_of(interaction), page)
        await send_reply(interaction, await within_deadline(interaction, work, ephemeral=True))

    @app_commands.command(name="abandon", description="Vote to abandon the game in this channel.")
    async def abandon(self, interaction: discord.Interaction) -> None:
        work = self.bot.service.abandon(channel_of(interaction), await actor_for(interaction))
        await send_reply(interaction, await within_deadline(interaction, work))


def _values(spec: OptionSpec) -> list[str]:
    """Values worth suggesting for an option: its choices, or its default and bounds."""
    if spec.kind == "bool":
        return ["yes", "no"]
    if spec.kind == "int":
        return [str(v) for v in dict.fromkeys(x for x in (spec.default, spec.min, spec.max) if x is not None)]
    return [c.id for c in spec.choices]


async def setup(bot: MiskatonicBot) -> None:
    await bot.add_cog(Lobby(bot))
