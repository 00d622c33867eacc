"""Ephemeral replies, and the one place a domain error becomes the user's message."""
from __future__ import annotations

import asyncio
import logging
from typing import Any, TypedDict

import discord

from engines import EngineError

from .acknowledge import EARLY, FILLED, Acknowledgement, early
from .discord_errors import DISCORD_FAILED, FAILURES
from .errors import HostError, user_message
from .i18n import t
from .outgoing import MISSING, Outgoing

log = logging.getLogger(__name__)
NO_MENTIONS = discord.AllowedMentions.none()
# How the answer to an interaction can fail after its change was committed: Discord refused or failed it, or the
# connection broke or timed out on the way.
ANSWER_FAILURES = FAILURES
AFTER_COMMIT = ("move", "back", "start", "lobby", "end", "tournament_start")  # error.after_commit.<what>
ANSWER_WINDOW = 30.0  # seconds after the interaction was created by which its error answer has been delivered
LAST_TRY = 5.0  # seconds an error answer still gets when the work itself ran past the window
ANSWER_TRIES = 3  # deliveries of an error answer (each with the library's own retries of a 5xx inside)
LOOK_TIMEOUT = 3.0  # seconds to read whether a deferred original still shows "thinking…"


async def reply(interaction: discord.Interaction, content: str | None = None, *,
                embed: discord.Embed | None = None, view: discord.ui.View | None = None,
                files: list[discord.File] | None = None) -> None:
    """Answer ephemerally, whether or not the interaction was already answered or deferred."""
    message = Outgoing.of(content, embed=embed if embed is not None else MISSING,
                          view=view if view is not None else MISSING, files=files or MISSING)
    if early(interaction) is Acknowledgement.EPHEMERAL_REPLY or awaits_answer(interaction):  # "thinking…" is ours
        await fill_original(interaction, **message.edit())
    elif interaction.response.is_done():
        await interaction.followup.send(ephemeral=True, **message.send())
    else:
        await interaction.response.send_message(ephemeral=True, **message.send())


class Attachments(TypedDict, total=False):
    """Pictures as an edit's argument (left out: the message keeps its own)."""

    attachments: list[discord.File]


class Files(TypedDict, total=False):
    """Pictures as a send's argument."""

    files: list[discord.File]


async def answer_hand(interaction: discord.Interaction, content: str, view: discord.ui.View,
                      files: list[discord.File] | None, *, in_place: bool) -> bool:
    """Answer with a hand view: ``in_place`` edits the clicked ephemeral message, else a new ephemeral message.
    After an early deferral (``bot.acknowledge``) the original response is edited instead: the "thinking…" message,
    or the clicked message when it is the clicker's own ephemeral view (never a public one: then a followup).
    Returns whether the interaction's original response now shows the hand (what its live redraws edit)."""
    kind = early(interaction)
    edits: Attachments = {} if files is None else {"attachments": files}
    sends: Files = {} if files is None else {"files": files}
    mine = interaction.message is not None and interaction.message.flags.ephemeral
    if kind is Acknowledgement.EPHEMERAL_REPLY or (kind is Acknowledgement.UPDATE and mine):
        await fill_original(interaction, content=content, view=view, **edits)
    elif interaction.response.is_done():
        await interaction.followup.send(content, view=view, ephemeral=True, **sends)
        return False
    elif in_place:
        await interaction.response.edit_message(content=content, view=view, **edits)
    else:
        await interaction.response.send_message(content, view=view, ephemeral=True, **sends)
    return True


def awaits_answer(interaction: discord.Interaction) -> bool:
    """Whether its handler deferred the interaction with "thinking…" and nothing has filled that yet: the answer
    edits that original response."""
    deferred = interaction.response.type is discord.InteractionResponseType.deferred_channel_message
    return deferred and not interaction.extras.get(FILLED)


async def withdraw_original(interaction: discord.Interaction) -> None:
    """Delete the deferred "thinking…": nothing fills it any more, so an answer after this is a message of its own."""
    await interaction.delete_original_response()
    interaction.extras[FILLED] = True


async def fill_original(interaction: discord.Interaction, **kwargs: Any) -> discord.InteractionMessage:
    """Write the answer of an interaction deferred first into its original response (Discord deprecates a
    followup for this); the message it now is."""
    message = await interaction.edit_original_response(**kwargs)
    interaction.extras[FILLED] = True
    return message


async def reply_error(interaction: discord.Interaction, error: BaseException) -> None:
    """Domain errors carry their message; anything else is logged and gets a generic apology. The answer is
    delivered within ``ANSWER_WINDOW`` (``deliver_error``): never "thinking…" until the token expires."""
    committed = interaction.extras.get("committed", False)
    if committed and isinstance(error, ANSWER_FAILURES):  # the change stands; only its answer was lost
        log.warning("interaction %s: the answer after a committed change failed (%s)", interaction.id,
                    type(error).__name__)
        what = committed if committed in AFTER_COMMIT else "move"
        text = t(f"error.after_commit.{what}", interaction.locale)
    elif isinstance(error, DISCORD_FAILED):  # Discord failed (the answer, or a request of the work): no bug of ours
        log.warning("interaction %s: Discord failed while it was handled (%s)", interaction.id, type(error).__name__)
        text = t("error.reply_failed", interaction.locale)
    else:
        if not isinstance(error, (HostError, EngineError)):
            log.error("unexpected error handling interaction %s", interaction.id, exc_info=error)
        text = user_message(error, interaction.locale)
    try:
        await deliver_error(interaction, "⚠️ " + text)
    except ANSWER_FAILURES as failure:
        log.warning("could not send an error reply for interaction %s (%s)", interaction.id, type(failure).__name__)


async def deliver_error(interaction: discord.Interaction, content: str) -> None:
    """Deliver an error answer, tried again while Discord fails, until ``ANSWER_WINDOW`` after the interaction was
    created (at least ``LAST_TRY`` from now). A deferral still showing "thinking…" is edited in place (PATCH
    @original): the followup that should have filled it may be the very request Discord keeps failing."""
    loop = asyncio.get_running_loop()
    age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    deadline = loop.time() + max(ANSWER_WINDOW - age, LAST_TRY)
    for attempt in range(ANSWER_TRIES):
        try:
            async with asyncio.timeout_at(deadline):
                if await _thinking(interaction):
                    await fill_original(interaction, content=content, embeds=[], attachments=[], view=None,
                                        allowed_mentions=NO_MENTIONS)
                else:
                    await reply(interaction, content)
            return
        except DISCORD_FAILED:
            wait = min(2.0 ** attempt, deadline - loop.time())
            if attempt + 1 == ANSWER_TRIES or wait <= 0:
                raise
            await asyncio.sleep(wait)


async def _thinking(interaction: discord.Interaction) -> bool:
    """Whether the interaction's handler deferred it with "thinking…" and nothing has replaced that yet (a
    followup may have: then an error goes in a followup of its own, never over the answer already shown)."""
    if EARLY in interaction.extras or interaction.extras.get(FILLED) or interaction.response.type is not (
            discord.InteractionResponseType.deferred_channel_message):
        return False  # not deferred, deferred early, or filled or withdrawn: ``reply`` knows where its answer goes
    try:
        async with asyncio.timeout(LOOK_TIMEOUT):
            original = await interaction.original_response()
    except ANSWER_FAILURES:
        return False  # unknown: a followup fills "thinking…" if it is still there, and adds a message if not
    if not original.flags.loading:  # filled (by an edit whose answer was lost): an error goes in a message of its own
        interaction.extras[FILLED] = True
    return original.flags.loading


async def reply_unknown_control(interaction: discord.Interaction) -> None:
    await reply(interaction, "⚠️ " + t("error.unknown_control", interaction.locale))
