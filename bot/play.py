"""Answering a prompt by clicking: what happens after a button, a select menu or an answer form is used.

A click is acknowledged at once without a visible message (a deferred update), then goes through the one
service path. On success the prompt message is edited to record the decision (its components removed) and
the narration, board image and next prompt follow. A click on a prompt that has passed gets a private
"This choice has passed." and the stale components are removed from that message; a click by someone the
prompt does not wait for gets a private refusal and leaves the message alone.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import ui

from bot.actors import actor_for, channel_of
from bot.components import Answer, decode_tokens, form_help, needs_prompt, parse_form, split_seq
from bot.errors import report_error, tell
from bot.replies import send_reply
from bot.service import UserError
from engine.core.prompt import Prompt

if TYPE_CHECKING:
    from bot.bot import MiskatonicBot

log = logging.getLogger(__name__)

PASSED = "This choice has passed."
CONTENT_MAX = 2000


class PromptPlay:
    """The bot's `PromptHandler` (see bot/components.py)."""

    def __init__(self, bot: MiskatonicBot) -> None:
        self.bot = bot

    async def answer(self, interaction: discord.Interaction, answer: Answer, label: str) -> None:
        try:
            await interaction.response.defer()
            epoch, seq = split_seq(answer.seq)
            await self._apply(interaction, answer.game_id, seq, answer.tokens, label, epoch=epoch)
        except Exception as error:  # components' errors never reach the tree's handler
            await report_error(interaction, error)

    async def _apply(self, interaction: discord.Interaction, game_id: int, seq: int, tokens: list[str],
                     label: str, *, typed: tuple[list[str], int | None] | None = None,
                     epoch: int | None = None) -> None:
        channel_id = channel_of(interaction)
        actor = await actor_for(interaction)
        service = self.bot.service
        if typed is not None:
            choice, amount = typed
        else:
            prompt = await self._pending(interaction, game_id, seq, epoch) if needs_prompt(tokens) else None
            try:
                choice, amount = decode_tokens(tokens, prompt)
            except LookupError:
                await self._passed(interaction)
                return
        try:
            reply = await service.choose(channel_id, actor, seq, choice, amount, game_id=game_id,
                                         epoch=epoch)
        except UserError as error:
            # Whether the prompt has passed decides what to say: the service's sentence for a refusal
            # ("not yours"), or "This choice has passed." and the stale components removed.
            if await self._pending(interaction, game_id, seq, epoch) is None:
                await self._passed(interaction)
            else:
                await tell(interaction, str(error))
            return
        if reply.prompts or reply.public or reply.images:
            await self._record_decision(interaction, actor.name, label)
        await send_reply(interaction, reply)

    async def _pending(self, interaction: discord.Interaction, game_id: int, seq: int,
                       epoch: int | None = None) -> Prompt | None:
        return await self.bot.service.pending_prompt(channel_of(interaction), game_id, seq, epoch)

    async def _passed(self, interaction: discord.Interaction) -> None:
        if interaction.message is not None and interaction.message.components:
            try:
                await interaction.edit_original_response(view=None)
            except discord.HTTPException:
                log.warning("could not remove stale components from message %s", interaction.message.id)
        await tell(interaction, PASSED)

    async def _record_decision(self, interaction: discord.Interaction, who: str, label: str) -> None:
        """Turn the prompt message into a record of what was decided, without its components."""
        message = interaction.message
        if message is None:
            return
        line = f"✔ {who}: {label}" if label else f"✔ {who} answered."
        content = f"{message.content}\n{line}" if message.content else line
        try:
            await interaction.edit_original_response(content=content[:CONTENT_MAX], view=None)
        except discord.HTTPException:
            log.warning("could not update prompt message %s", message.id)

    # -- answer forms (prompts too large for buttons) ----------------------------------------------------
    async def open_form(self, interaction: discord.Interaction, game_id: int, seq: int) -> None:
        try:
            epoch, seq = split_seq(seq)
            prompt = await self._pending(interaction, game_id, seq, epoch)
            if prompt is None:
                await interaction.response.defer()
                await self._passed(interaction)
                return
            await interaction.response.send_modal(AnswerForm(self, game_id, prompt, interaction.id, epoch))
        except Exception as error:
            await report_error(interaction, error)


class AnswerForm(ui.Modal):
    """A typed answer: an amount, or option numbers (for MANY over 25 options, and ORDER)."""

    def __init__(self, play: PromptPlay, game_id: int, prompt: Prompt, opened_by: int, epoch: int = 0) -> None:
        # The interaction id keeps two players' open forms apart: modals are found by custom_id.
        super().__init__(title=prompt.title[:45] or "Your answer",
                         custom_id=f"mk:f:{game_id}:{prompt.seq}:{opened_by}", timeout=900)
        self.play, self.game_id, self.prompt, self.epoch = play, game_id, prompt, epoch
        self.answer: ui.TextInput[AnswerForm] = ui.TextInput(label=form_help(prompt)[:45],
                                                              placeholder=form_help(prompt)[:100], max_length=400)
        self.add_item(self.answer)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        try:
            typed = parse_form(self.prompt, self.answer.value)
        except ValueError as error:
            await tell(interaction, str(error))
            return
        await self.play._apply(interaction, self.game_id, self.prompt.seq, [], self.answer.value,
                               typed=typed, epoch=self.epoch)

    # This is ui.Modal's own signature: discord.py's Modal.on_error drops the base class's `item` argument,
    # so its types contradict its BaseView (a modal error has no item), and mypy reports that here.
    async def on_error(self, interaction: discord.Interaction, error: Exception, /) -> None:  # type: ignore[override]
        await report_error(interaction, error)
