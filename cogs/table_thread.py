"""Where a casual table plays: in a public thread started from its lobby message (the default), or in the channel
(``/config tables channel``, a channel that cannot hold threads, or one where the bot may not open them).

``/play`` decides (``thread_plan``) and the lobby says once why a table stays in the channel; at the start the
table's writer opens the thread (``open_thread``), adds the seated people and records it as where the table
plays, before anything is written there. Whatever goes wrong while opening it, the table plays in the channel
and its first message says why: a game never fails to start because of its thread. A thread opened from a
message shares that message's id, so a restart that opens it again (160004) finds the same thread.
"""
from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Literal

import discord

from bot.discord_errors import (
    FAILURES,
    MISSING_ACCESS,
    MISSING_PERMISSIONS,
    THREAD_EXISTS,
    THREAD_LIMIT,
    UNKNOWN_CHANNEL,
)
from bot.discord_rules.limits import THREAD_NAME
from bot.i18n import t
from bot.storage import GameStatus, TablesIn
from bot.table import ACTIVE, Table

from .common import NO_MENTIONS, host
from .permissions import missing, missing_in_channel, permission_names
from .table_result import result_message

if TYPE_CHECKING:
    from bot.client import GameHostBot

log = logging.getLogger(__name__)
THREAD_PERMISSIONS = ("create_public_threads", "send_messages_in_threads")
THREAD_PARENTS = (discord.ChannelType.text, discord.ChannelType.news)  # channels whose messages can start threads
AUTO_ARCHIVE_MINUTES: Literal[1440] = 1440  # a quiet thread is archived after a day; the table's writer opens it again
CALL_TIMEOUT = 20.0  # seconds one Discord call may take


async def thread_plan(interaction: discord.Interaction) -> tuple[bool, list[str]]:
    """Whether a table opened here moves to its own thread at Start; and, when the server wants threads but the
    bot may not open them here, the permissions it lacks (what the lobby says once)."""
    if interaction.guild_id is None:
        return False, []
    if await host(interaction).storage.guild_tables(interaction.guild_id) is TablesIn.CHANNEL:
        return False, []
    if getattr(interaction.channel, "type", None) not in THREAD_PARENTS:
        return False, []  # already a thread (or a channel without threads): the table plays right here
    lacking = missing(interaction.app_permissions, THREAD_PERMISSIONS)
    return not lacking, lacking


def thread_name(table: Table) -> str:
    locale = table.row.locale
    return t("table.thread_name", locale, game=t(f"game.{table.row.game}.name", locale), id=table.id)[:THREAD_NAME]


async def open_thread(bot: "GameHostBot", table: Table) -> tuple[int | None, str | None]:
    """Start the table's thread from its lobby message and add the seated people: the thread's id, or None and the
    line telling the channel why the table plays there instead."""
    channel_id, message_id = table.row.channel_id, table.row.lobby_message_id
    if not message_id:
        return None, None
    try:
        data = await asyncio.wait_for(bot.http.start_thread_with_message(
            channel_id, message_id, name=thread_name(table), auto_archive_duration=AUTO_ARCHIVE_MINUTES),
            CALL_TIMEOUT)
        thread_id = int(data["id"])
    except FAILURES as error:
        if getattr(error, "code", None) != THREAD_EXISTS:
            log.warning("table %s: no thread (%s); it plays in its channel", table.id, describe(error))
            return None, why_not(bot, table, error)
        thread_id = message_id  # opened before a restart: a message's thread has the message's id
    for seat in table.seats:
        if seat.user_id is not None and not seat.is_bot:
            try:
                await asyncio.wait_for(bot.http.add_user_to_thread(thread_id, seat.user_id), CALL_TIMEOUT)
            except FAILURES as error:  # they are added anyway once the board names them with a ping
                log.warning("table %s: could not add %s to its thread (%s)", table.id, seat.user_id,
                            describe(error))
    return thread_id, None


def describe(error: BaseException) -> str:
    """Discord's answer as the channel is told it: the HTTP status and Discord's error code when it sent one (a body
    without a code reads as code 0, which is not shown)."""
    status, code = getattr(error, "status", None), getattr(error, "code", None)
    return (f"{status} {code}" if code else f"{status}") if status else type(error).__name__


def why_not(bot: "GameHostBot", table: Table, error: BaseException) -> str:
    """The line the channel gets when the table's thread could not be opened."""
    locale = table.row.locale
    if getattr(error, "code", None) == THREAD_LIMIT:
        return t("table.no_thread.limit", locale)
    if getattr(error, "code", None) in (MISSING_ACCESS, MISSING_PERMISSIONS):
        lacking = missing_in_channel(bot, table.row.guild_id, table.row.channel_id, THREAD_PERMISSIONS)
        return t("table.no_thread.missing", locale,
                 missing=permission_names(lacking or list(THREAD_PERMISSIONS[:1]), locale))
    return t("table.no_thread.error", locale, error=describe(error))


def lobby_note(lacking: list[str], locale: object | None) -> str | None:
    """What the lobby says when its table will stay in the channel for want of a permission."""
    return t("lobby.here_not_thread", locale, missing=permission_names(lacking, locale)) if lacking else None


async def post_result(bot: "GameHostBot", table: Table, nonce: str) -> bool:
    """A table that played in its thread has ended: the channel of its lobby gets its result (the same places and
    notes as the result in the thread, without Rematch, which stays in the thread) or that it was ended, as one
    message linking the thread. Other tables: nothing (False)."""
    place = table.place
    if table.status in ACTIVE or not place.in_thread:
        return False
    locale, thread = table.row.locale, f"<#{place.channel_id}>"
    channel = bot.get_partial_messageable(place.lobby_channel_id, guild_id=place.guild_id)
    finished = table.status is GameStatus.FINISHED and table.state is not None
    embed = discord.utils.MISSING
    if finished:
        embed = result_message(table, locale, rematch=False, board_above=False).embed
    try:
        await channel.send(t("table.result_in_thread" if finished else "table.ended_in_thread", locale, id=table.id,
                             thread=thread), embed=embed, nonce=nonce, allowed_mentions=NO_MENTIONS)
    except discord.HTTPException as error:
        if error.code not in (UNKNOWN_CHANNEL, MISSING_ACCESS, MISSING_PERMISSIONS):
            raise  # the table's writer tries again (or drops it when Discord refuses the message itself)
        log.warning("table %s: its result could not be told in its lobby's channel (%s)", table.id, error.code)
    return True
