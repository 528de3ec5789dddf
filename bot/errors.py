"""What a user is told when an interaction fails, for slash commands and components alike.

A `UserError` (or an engine `IllegalAction`) is a sentence for the user: shown ephemerally, nothing changed.
A check failure (missing permission, wrong place) likewise. Anything else is a bug: logged with the
interaction id, and the user gets an ephemeral apology carrying that id, so a report can be matched to the
log line. The apology says "nothing was changed" only when that is true: after a commit (AppliedButFailed,
or a failure while the committed reply was being sent) it says the action was applied. View and
DynamicItem errors never reach `CommandTree.on_error`, so components call `report_error` themselves.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.replies import fit
from bot.service import AppliedButFailed, UserError
from bot.store.db import OUTAGE, is_outage, outage_cause
from engine.core.errors import EngineError

log = logging.getLogger(__name__)

GENERIC = "Something went wrong; nothing was changed (ref {ref})."
UNAVAILABLE = "The table's storage is unavailable right now; nothing was changed — try again in a moment."
APPLIED = ("Your action was applied, but something went wrong while showing it (ref {ref}). "
           "/game status shows where the game stands.")


def explain(error: BaseException) -> str | None:
    """The sentence for an expected error, or None when the error is a bug."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, UserError | EngineError):
        return str(error)
    if is_outage(error):
        return UNAVAILABLE
    if isinstance(error, app_commands.MissingPermissions):
        needed = ", ".join(p.replace("_", " ").title() for p in error.missing_permissions)
        return f"You need the {needed} permission to do that."
    if isinstance(error, app_commands.NoPrivateMessage):
        return "This command works only in a server channel."
    if isinstance(error, app_commands.CommandOnCooldown):
        return f"Slow down: try again in {error.retry_after:.0f} s."
    if isinstance(error, app_commands.TransformerError):
        return f"'{error.value}' is not a valid value here."
    if isinstance(error, app_commands.CheckFailure):
        return str(error) or "You may not use this command here."
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        return "This command has changed since your Discord app loaded it; please try again in a moment."
    return None


async def tell(interaction: discord.Interaction, text: str) -> None:
    """Say `text` to the interaction's user only, whatever has been answered so far."""
    text = fit(text)
    response = interaction.response
    if not response.is_done():
        await response.send_message(text, ephemeral=True)
        return
    if interaction.extras.get("public_thinking"):
        # A public "thinking…" message would be filled by the next follow-up, making it public: remove it
        # first so the sentence stays private.
        interaction.extras["public_thinking"] = False
        try:
            await interaction.delete_original_response()
        except discord.HTTPException:
            log.warning("could not delete the thinking message of interaction %s", interaction.id)
    interaction.extras["private_thinking"] = False  # a private "thinking…" is filled by this sentence
    await interaction.followup.send(text, ephemeral=True)


async def report_error(interaction: discord.Interaction, error: BaseException) -> None:
    if interaction.type is discord.InteractionType.autocomplete:
        # Autocomplete can only answer with choices; the command itself will report the problem.
        log.warning("autocomplete %s failed: %r", interaction.id, error)
        return
    original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    applied = isinstance(original, AppliedButFailed) or bool(interaction.extras.get("applied"))
    text = explain(error)
    if text == UNAVAILABLE:
        # Said once for the whole outage (its start and its end), not once per click.
        OUTAGE.failed(outage_cause(original))
        log.debug("interaction %s refused: the database is unavailable (%s)", interaction.id, outage_cause(original))
        if applied:
            text = APPLIED.format(ref=interaction.id)
    if text is None:
        log.error("interaction %s failed%s (user %s, channel %s, %s)", interaction.id,
                  " after its change was committed" if applied else "", interaction.user.id,
                  interaction.channel_id, describe(interaction), exc_info=original)
        text = (APPLIED if applied else GENERIC).format(ref=interaction.id)
    try:
        await tell(interaction, text)
    except discord.HTTPException:
        # The interaction may have expired; the log line above is then all that is left.
        log.warning("could not tell the user about the failure of interaction %s", interaction.id)


def describe(interaction: discord.Interaction) -> str:
    if interaction.command is not None:
        return f"/{interaction.command.qualified_name}"
    custom_id = interaction.data.get("custom_id", "?") if interaction.data is not None else "?"
    return f"component {custom_id}"


async def on_app_command_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
    """CommandTree.on_error."""
    await report_error(interaction, error)
