"""Ephemeral replies, and the one place a domain error becomes the user's message."""
from __future__ import annotations

import asyncio
import logging
from typing import Any

import aiohttp
import discord

from engines import EngineError

from .errors import HostError, user_message
from .i18n import t

log = logging.getLogger(__name__)
NO_MENTIONS = discord.AllowedMentions.none()
# How the answer to an interaction can fail after its change was committed: Discord refused or failed it, or the
# connection broke or timed out on the way.
ANSWER_FAILURES = (discord.HTTPException, asyncio.TimeoutError, OSError, aiohttp.ClientError)
AFTER_COMMIT = ("move", "back", "start", "lobby", "end", "tournament_start")  # error.after_commit.<what>


async def reply(interaction: discord.Interaction, content: str | None = None, *,
                embed: discord.Embed | None = None, view: discord.ui.View | None = None) -> None:
    """Answer ephemerally, whether or not the interaction was already answered or deferred."""
    kwargs: dict[str, Any] = {"content": content, "ephemeral": True, "allowed_mentions": NO_MENTIONS}
    if embed is not None:
        kwargs["embed"] = embed
    if view is not None:
        kwargs["view"] = view
    if interaction.response.is_done():
        await interaction.followup.send(**kwargs)
    else:
        await interaction.response.send_message(**kwargs)


async def reply_error(interaction: discord.Interaction, error: BaseException) -> None:
    """Domain errors carry their message; anything else is logged and gets a generic apology."""
    committed = interaction.extras.get("committed", False)
    if committed and isinstance(error, ANSWER_FAILURES):  # the change stands; only its answer was lost
        log.warning("interaction %s: the answer after a committed change failed (%s)", interaction.id,
                    type(error).__name__)
        what = committed if committed in AFTER_COMMIT else "move"
        text = t(f"error.after_commit.{what}", interaction.locale)
    else:
        if not isinstance(error, (HostError, EngineError)):
            log.error("unexpected error handling interaction %s", interaction.id, exc_info=error)
        text = user_message(error, interaction.locale)
    try:
        await reply(interaction, "⚠️ " + text)
    except discord.HTTPException:
        log.warning("could not send an error reply for interaction %s", interaction.id)


async def reply_unknown_control(interaction: discord.Interaction) -> None:
    await reply(interaction, "⚠️ " + t("error.unknown_control", interaction.locale))
