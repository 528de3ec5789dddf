"""Answering a prompt by clicking: what happens after a button, a select menu or an answer form is used.

A click is acknowledged at once without a visible message (a deferred update), then goes through the one
service path. On success the game's section message shows the step (bot/turns.py); a click on a player's
own private controls also turns those into a record of the decision. A click on a prompt that has passed
gets a private "This choice has passed.": a section message that is still live is shown again as it now is
(its current controls), any other message loses its stale components. A click by someone the prompt does
not wait for gets a private refusal and leaves the message alone.

The "Answer" button of a section message (several players asked at once, or a private question) opens the
clicking player's own controls privately.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Protocol

import discord
from discord import ui

from bot.actors import actor_for, channel_of
from bot.components import Answer, decode_tokens, form_help, needs_prompt, parse_form, prompt_view, split_seq
from bot.errors import report_error, tell
from bot.replies import own_prompt_text, send, send_reply
from bot.service import UserError
from bot.service_text import join_names
from engine.core.prompt import Prompt

if TYPE_CHECKING:
    from bot.service import GameService
    from bot.turns import TablePublisher

log = logging.getLogger(__name__)

PASSED = "This choice has passed."
NOTHING_FOR_YOU = "Nothing is waiting for you here right now."
CONTENT_MAX = 2000
PLAIN_FORM = "Type the option numbers, or the amount."


class PlayHost(Protocol):
    """What the prompt clicks need of the running client: the service and the table publisher."""

    @property
    def service(self) -> GameService: ...

    @property
    def publisher(self) -> TablePublisher: ...


class PromptPlay:
    """The bot's `PromptHandler` (see bot/components.py)."""

    def __init__(self, bot: PlayHost) -> None:
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
                await self._passed(interaction, game_id)
                return
        try:
            reply = await service.choose(channel_id, actor, seq, choice, amount, game_id=game_id,
                                         epoch=epoch)
        except UserError as error:
            # Whether the prompt has passed decides what to say: the service's sentence for a refusal
            # ("not yours"), or "This choice has passed." and the stale components removed.
            if await self._pending(interaction, game_id, seq, epoch) is None:
                await self._passed(interaction, game_id)
            else:
                await tell(interaction, str(error))
            return
        if reply.applied:
            await self._record_decision(interaction, actor.name, label)
        await send_reply(interaction, reply)

    async def _pending(self, interaction: discord.Interaction, game_id: int, seq: int,
                       epoch: int | None = None) -> Prompt | None:
        return await self.bot.service.pending_prompt(channel_of(interaction), game_id, seq, epoch)

    async def _passed(self, interaction: discord.Interaction, game_id: int | None = None) -> None:
        message = interaction.message
        if message is not None and message.components:
            live = game_id is not None and not message.flags.ephemeral and \
                await self.bot.publisher.live_message(channel_of(interaction), game_id, message.id)
            if live and game_id is not None:
                # The game's living message: show it as it now is (its current controls), never strip it.
                await self.bot.publisher.publish(interaction.channel, game_id, refresh=True)
            else:
                try:
                    await interaction.edit_original_response(view=None)
                except discord.HTTPException:
                    log.warning("could not remove stale components from message %s", message.id)
        await tell(interaction, PASSED)

    async def _record_decision(self, interaction: discord.Interaction, who: str, label: str) -> None:
        """A player's own private controls become a record of what they decided (the channel's section
        message is the publisher's)."""
        message = interaction.message
        if message is None or not message.flags.ephemeral:
            return
        line = f"✔ {who}: {label}" if label else f"✔ {who} answered."
        content = f"{message.content}\n{line}" if message.content else line
        try:
            await interaction.edit_original_response(content=content[:CONTENT_MAX], view=None)
        except discord.HTTPException:
            log.warning("could not update prompt message %s", message.id)

    # -- the "Answer" button: a player's own controls, privately ------------------------------------------
    async def open_own(self, interaction: discord.Interaction, game_id: int, epoch: int) -> None:
        try:
            # Acknowledged before the database is read: a slow read must not cost the click its 3 seconds.
            await interaction.response.defer()
            cards = [c for c in await self.bot.service.pending(channel_of(interaction))
                     if c.game_id == game_id and c.epoch == epoch]
            if not cards:
                await self._passed(interaction, game_id)
                return
            mine = [c for c in cards if interaction.user.id in c.user_ids]
            if not mine:
                waiting = join_names([f"<@{u}>" for u in dict.fromkeys(u for c in cards for u in c.user_ids)])
                await tell(interaction, f"{NOTHING_FOR_YOU} (The game waits for {waiting}.)")
                return
            for card in mine:
                await send(interaction, own_prompt_text(card), ephemeral=True,
                           view=prompt_view(card.game_id, card.prompt, card.epoch, to_its_seats=True))
        except Exception as error:
            await report_error(interaction, error)

    # -- answer forms (prompts too large for buttons) ----------------------------------------------------
    async def open_form(self, interaction: discord.Interaction, game_id: int, seq: int) -> None:
        # The form is the acknowledgement, and it must come first: it is built from the game in memory (no
        # database read); a game not in memory (after a restart) gets a plain form, checked once submitted.
        try:
            epoch, seq = split_seq(seq)
            prompt = None
            known = self.bot.service.remembered_prompts(channel_of(interaction), game_id)
            if known is not None:
                prompt = next((p for p in known[1] if p.seq == seq), None) if known[0] == epoch else None
                if prompt is None:
                    await interaction.response.defer()
                    await self._passed(interaction, game_id)
                    return
            await interaction.response.send_modal(AnswerForm(self, game_id, seq, prompt, interaction.id, epoch))
        except Exception as error:
            await report_error(interaction, error)


class AnswerForm(ui.Modal):
    """A typed answer: an amount, or option numbers (for MANY over 25 options, and ORDER). Without the
    prompt (the game was not in memory when the form opened) it asks plainly, and the answer is read against
    the prompt once submitted."""

    def __init__(self, play: PromptPlay, game_id: int, seq: int, prompt: Prompt | None, opened_by: int,
                 epoch: int = 0) -> None:
        # The interaction id keeps two players' open forms apart: modals are found by custom_id.
        super().__init__(title=(prompt.title if prompt else "")[:45] or "Your answer",
                         custom_id=f"mk:f:{game_id}:{seq}:{opened_by}", timeout=900)
        self.play, self.game_id, self.seq, self.prompt, self.epoch = play, game_id, seq, prompt, epoch
        helper = form_help(prompt) if prompt is not None else PLAIN_FORM
        self.answer: ui.TextInput[AnswerForm] = ui.TextInput(label=helper[:45], placeholder=helper[:100],
                                                              max_length=400)
        self.add_item(self.answer)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        prompt = self.prompt or await self.play._pending(interaction, self.game_id, self.seq, self.epoch)
        if prompt is None:
            await self.play._passed(interaction, self.game_id)
            return
        try:
            typed = parse_form(prompt, self.answer.value)
        except ValueError as error:
            await tell(interaction, str(error))
            return
        await self.play._apply(interaction, self.game_id, self.seq, [], self.answer.value,
                               typed=typed, epoch=self.epoch)

    # This is ui.Modal's own signature: discord.py's Modal.on_error drops the base class's `item` argument,
    # so its types contradict its BaseView (a modal error has no item), and mypy reports that here.
    async def on_error(self, interaction: discord.Interaction, error: Exception, /) -> None:  # type: ignore[override]
        await report_error(interaction, error)
