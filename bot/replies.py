"""A service `Reply` as Discord messages, and answering an interaction without missing its 3-second window.

A step of a game (a click, a game command, a moderator's undo) is shown in the channel by the game's living
section message (bot/turns.py): its reply's narration, pictures and prompts are already part of that
section, so here the interaction only gets what is private (or a short private "done" when a command needs
an answer), and then the publisher brings the channel up to date. Any other reply (the lobby, /game status)
is sent as messages: its public text (the last one carrying the images), then what only the caller may see;
a reply that is entirely private (/game me) shows the caller's prompts privately, after its text. The first
message is the interaction's initial response unless the interaction was deferred, in which case the first
follow-up fills the "thinking…" message.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable
from typing import Any, Protocol, TypeVar, cast

import discord

from bot.components import extra_text, prompt_view, shown_privately
from bot.service import GameService, Image, PromptCard, Reply
from bot.turns import TablePublisher

log = logging.getLogger(__name__)

T = TypeVar("T")
CONTENT_MAX = 2000  # Discord refuses a longer message outright, and the user would get no answer at all
CUT_MARK = "…"
IMAGES_PER_MESSAGE = 10
DONE = "✔ Done."
NO_PINGS = discord.AllowedMentions.none()
# How long a command may work before it defers: Discord drops an interaction not answered in 3 s, and
# the answer itself needs a round trip.
DEFER_AFTER = 1.0


async def within_deadline(interaction: discord.Interaction, work: Awaitable[T], *, ephemeral: bool = False,
                          defer_after: float = DEFER_AFTER) -> T:
    """Await `work`; if it has not finished after `defer_after` seconds, defer (thinking) meanwhile.

    `ephemeral` is what the answer will mostly be: a deferral fixes whether the first follow-up is private.
    """
    task = asyncio.ensure_future(work)
    if defer_after > 0:
        done, _ = await asyncio.wait({task}, timeout=defer_after)
        if done:
            return task.result()
    if not interaction.response.is_done():
        await interaction.response.defer(thinking=True, ephemeral=ephemeral)
        interaction.extras["public_thinking"] = not ephemeral
    return await task


def fit(text: str, limit: int = CONTENT_MAX) -> str:
    """`text` cut to Discord's message limit, marked where it was cut. Every message the bot sends (replies,
    follow-ups, errors) passes through here: a reply that echoes user input can never be refused."""
    return text if len(text) <= limit else text[: limit - len(CUT_MARK)] + CUT_MARK


def image_files(images: list[Image]) -> tuple[list[discord.File], list[discord.Embed]]:
    files, embeds = [], []
    for image in images:
        files.append(discord.File(io.BytesIO(image.data), filename=image.filename))
        embeds.append(discord.Embed().set_image(url=f"attachment://{image.filename}"))
    return files, embeds


async def send(interaction: discord.Interaction, content: str | None = None, *, ephemeral: bool = False,
               files: list[discord.File] | None = None, embeds: list[discord.Embed] | None = None,
               view: discord.ui.View | None = None, mentions: discord.AllowedMentions = NO_PINGS) -> int | None:
    """One message in answer to `interaction`: the initial response if none was given, else a follow-up.
    Returns the message id when Discord reports it."""
    kwargs: dict[str, Any] = {"ephemeral": ephemeral, "allowed_mentions": mentions}
    if content:
        kwargs["content"] = fit(content)
    if files:
        kwargs["files"] = files
    if embeds:
        kwargs["embeds"] = embeds
    if view is not None:
        kwargs["view"] = view
    if not interaction.response.is_done():
        callback = await interaction.response.send_message(**kwargs)
        return callback.message_id
    if ephemeral and interaction.extras.get("public_thinking"):
        # The next follow-up would fill the public "thinking…" message: remove it so this stays private.
        interaction.extras["public_thinking"] = False
        await interaction.delete_original_response()
    if not ephemeral and interaction.extras.get("private_thinking"):
        # ... and the private one (a slash command's acknowledgement, bot/bot.py) so this is public.
        interaction.extras["private_thinking"] = False
        await interaction.delete_original_response()
    interaction.extras["public_thinking"] = interaction.extras["private_thinking"] = False
    message = await interaction.followup.send(wait=True, **kwargs)
    return message.id


class _Host(Protocol):
    """What the reply helpers need of the running client."""

    @property
    def service(self) -> GameService: ...

    @property
    def publisher(self) -> TablePublisher: ...


def service_of(interaction: discord.Interaction) -> GameService:
    # The handlers take a plain `discord.Interaction`, whose client discord.py types as the base Client.
    return cast(_Host, interaction.client).service


def publisher_of(interaction: discord.Interaction) -> TablePublisher:
    return cast(_Host, interaction.client).publisher


async def send_reply(interaction: discord.Interaction, reply: Reply) -> None:
    # From here on a failure must not be reported as "nothing was changed" (bot/errors.py reads this).
    interaction.extras["applied"] = reply.applied
    private_files = [discord.File(io.BytesIO(f.data), filename=f.filename) for f in reply.files]
    shown_by_table = reply.table is not None and reply.narrated
    public = [] if shown_by_table else list(reply.public)
    images = [] if shown_by_table else list(reply.images)
    while images and not public:
        public.append("")
    for index, text in enumerate(public):
        # Images go with the last public message (10 per message at most, the rest after it).
        batch = images[:IMAGES_PER_MESSAGE] if index == len(public) - 1 else []
        images = images[len(batch):]
        files, embeds = image_files(batch)
        await send(interaction, text or None, files=files, embeds=embeds)
    while images:
        files, embeds = image_files(images[:IMAGES_PER_MESSAGE])
        images = images[IMAGES_PER_MESSAGE:]
        await send(interaction, None, files=files, embeds=embeds)
    private = list(reply.ephemeral) or ([""] if private_files else [])
    for text in private:
        await send(interaction, text or None, ephemeral=True, files=private_files)
        private_files = []
    # A private answer (/game me) shows the caller's prompts privately too; in the channel, prompts are part
    # of the game's section message.
    if not reply.public and not reply.images and reply.ephemeral and reply.table is None:
        await post_prompts(interaction, reply.prompts)
    if not interaction.response.is_done() or interaction.extras.get("public_thinking") \
            or interaction.extras.get("private_thinking"):
        # A command has to be answered; what it did is in the channel.
        await send(interaction, DONE, ephemeral=True)
    if reply.table is not None:
        await publisher_of(interaction).publish(interaction.channel, reply.table, refresh=reply.refresh)
        # A question that asks the player who just acted, and that the channel shows only behind "Answer" or
        # "Your cards…", rides on the private reply to their own click: no second click to open it.
        own = [c for c in reply.prompts
               if interaction.user.id in c.user_ids and shown_privately(c.prompt, len(reply.prompts))]
        if own and not reply.closed_game_id:
            await post_prompts(interaction, own)


async def post_prompts(interaction: discord.Interaction, cards: list[PromptCard]) -> None:
    """The caller's own prompts, privately, each with its controls."""
    for card in cards:
        view = prompt_view(card.game_id, card.prompt, card.epoch, to_its_seats=True)
        await send(interaction, own_prompt_text(card), view=view, ephemeral=True)


def own_prompt_text(card: PromptCard) -> str:
    """A prompt shown to the player it asks: what is asked and why (and the numbered options when the
    answer is typed)."""
    prompt = card.prompt
    parts = [f"{prompt.title}" + (f" ({prompt.reason})" if prompt.reason else ""),
             extra_text(prompt, to_its_seats=True)]
    return fit("\n".join(p for p in parts if p))
