"""A service `Reply` as Discord messages, and answering an interaction without missing its 3-second window.

Order of messages: the public narration (the last one carrying the images), then one message per prompt
(with its components, mentioning who it waits for), then what only the caller may see. A reply that is
entirely private (/game me) shows its prompts privately, after its text. The first message is
the interaction's initial response unless the interaction was deferred, in which case the first follow-up
fills the "thinking…" message.

One live prompt message per game: after posting a prompt, the service is told its message id and the
message that carried the previous prompt loses its components, so the channel never shows two sets of
buttons for one game.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, TypeVar, cast

import discord

from bot.components import extra_text, prompt_view
from bot.service import GameService, Image, PromptCard, Reply

if TYPE_CHECKING:
    from bot.bot import MiskatonicBot

log = logging.getLogger(__name__)

T = TypeVar("T")
CONTENT_MAX = 2000  # Discord refuses a longer message outright, and the user would get no answer at all
CUT_MARK = "…"
IMAGES_PER_MESSAGE = 10
NO_PINGS = discord.AllowedMentions.none()
PINGS = discord.AllowedMentions(users=True, roles=False, everyone=False)
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


def prompt_text(card: PromptCard) -> str:
    """The card's sentence (who we wait for, and why) with those players mentioned, so they are pinged."""
    mentions = " ".join(f"<@{uid}>" for uid in card.user_ids)
    parts = [card.text, mentions, extra_text(card.prompt)]
    return fit("\n".join(p for p in parts if p))


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
    interaction.extras["public_thinking"] = False
    message = await interaction.followup.send(wait=True, **kwargs)
    return message.id


def service_of(interaction: discord.Interaction) -> GameService:
    # The handlers take a plain `discord.Interaction`, whose client discord.py types as the base Client.
    return cast("MiskatonicBot", interaction.client).service


async def send_reply(interaction: discord.Interaction, reply: Reply) -> None:
    # From here on a failure must not be reported as "nothing was changed" (bot/errors.py reads this).
    interaction.extras["applied"] = reply.applied
    private_files = [discord.File(io.BytesIO(f.data), filename=f.filename) for f in reply.files]
    public = list(reply.public)
    images = list(reply.images)
    while images and not public:
        public.append("")
    for index, text in enumerate(public):
        # Images go with the last narration message (10 per message at most, the rest after it).
        batch = images[:IMAGES_PER_MESSAGE] if index == len(public) - 1 else []
        images = images[len(batch):]
        files, embeds = image_files(batch)
        await send(interaction, text or None, files=files, embeds=embeds)
    while images:
        files, embeds = image_files(images[:IMAGES_PER_MESSAGE])
        images = images[IMAGES_PER_MESSAGE:]
        await send(interaction, None, files=files, embeds=embeds)
    # A private answer (/game me) shows the caller's prompts privately too, after its text, leaving the
    # channel's live prompt message alone.
    private_only = not reply.public and not reply.images and bool(reply.ephemeral)
    if not private_only:
        await post_prompts(interaction, reply.prompts)
    private = list(reply.ephemeral) or ([""] if private_files else [])
    for text in private:
        await send(interaction, text or None, ephemeral=True, files=private_files)
        private_files = []
    if private_only:
        await post_prompts(interaction, reply.prompts, private=True)
    if reply.closed_game_id is not None:
        # The game is over: its last prompt message must not keep live buttons.
        keep = {interaction.message.id} if interaction.message is not None else set()
        await strip_prompt_message(interaction.channel, service_of(interaction), reply.closed_game_id, keep)
    if not interaction.response.is_done():
        # A reply with nothing to show still has to answer the interaction.
        await interaction.response.send_message("Done.", ephemeral=True)


async def post_prompts(interaction: discord.Interaction, cards: list[PromptCard], *, private: bool = False) -> None:
    posted: dict[int, list[int]] = {}
    for card in cards:
        message_id = await send(interaction, prompt_text(card), view=prompt_view(card.game_id, card.prompt, card.epoch),
                                mentions=PINGS, ephemeral=private)
        if message_id is not None and not private:
            posted.setdefault(card.game_id, []).append(message_id)
    keep = {m for ids in posted.values() for m in ids}
    if interaction.message is not None:
        keep.add(interaction.message.id)  # the clicked message is updated by the click itself
    for game_id, ids in posted.items():
        await replace_prompt_message(interaction.channel, service_of(interaction), game_id, ids[-1], keep)


async def strip_prompt_message(channel: Any, service: GameService, game_id: int, keep: set[int]) -> None:
    """The game has no prompt message any more: strip the components of the last one."""
    await replace_prompt_message(channel, service, game_id, None, keep)


async def replace_prompt_message(channel: Any, service: GameService, game_id: int, message_id: int | None,
                                 keep: set[int]) -> None:
    """Record `message_id` as the game's prompt message and strip the components of the one before it."""
    previous = await service.remember_prompt_message(game_id, message_id)
    if previous is None or previous in keep or not isinstance(channel, discord.abc.Messageable):
        return
    try:
        # Every channel an interaction comes from has get_partial_message; discord.abc.Messageable (which
        # also covers users) does not declare it.
        await channel.get_partial_message(previous).edit(view=None)  # type: ignore[attr-defined]
    except discord.HTTPException:
        # Deleted, or too old to matter: a click on it is refused as stale anyway.
        log.info("could not strip the old prompt message %s of game %s", previous, game_id)
