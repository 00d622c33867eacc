"""When a table's channel cannot be reached: what its host is told, once per cause, naming the real one (a locked
thread, missing access, a missing permission, a deleted channel); and whether the gateway's cache says it still
cannot be (the writer's cheap look before trying again)."""
from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

import discord

from bot.i18n import t
from bot.refusals import FAILURES, Refusal, RefusalBudget
from bot.table import Table

from .common import NO_MENTIONS
from .permissions import TABLE_PERMISSIONS, missing, missing_in_channel, permission_names

if TYPE_CHECKING:
    from bot.client import GameHostBot

log = logging.getLogger(__name__)
DM_TIMEOUT = 20.0
# The least a board post needs (text and its picture): the cache's look does not wait for the rest of
# TABLE_PERMISSIONS, which a server may well never grant while boards still go through.
WRITE_NEEDS = ("view_channel", "send_messages", "attach_files")


class Reach:
    def __init__(self, bot: "GameHostBot", game_id: int) -> None:
        self.bot, self.game_id = bot, game_id
        self.cause: Refusal | None = None  # why the table's channel cannot be written to now (None: it can)
        self.channel_id: int | None = None  # the channel that refused
        self.tried_at = 0.0  # when the writer last asked Discord while it could not reach it (time.monotonic)

    def may_probe(self, table: Table, budget: RefusalBudget, every: float, server_every: float) -> bool:
        """An unreachable table asks Discord again in its server's turn (``server_every``: a server's held tables
        ask together, not each) when the gateway's cache says its channel could take the message (or does not know
        it). When the cache says it still could not, it asks once every ``every`` seconds for its whole server all
        the same: a permission given back without an event leaves the cache wrong, and nothing else would tell."""
        if self.cache_refuses(table):
            return time.monotonic() - self.tried_at >= every and budget.may_probe(table.row.guild_id, every)
        return budget.may_probe(table.row.guild_id, server_every)

    async def cannot_reach(self, table: Table, refusal: Refusal, *, lobby_channel: bool) -> None:
        """The first refusal of a cause tells the host; the same cause again tells nobody."""
        channel_id = table.place.channel_for(lobby=lobby_channel)
        self.channel_id = channel_id
        if self.cause is refusal:
            return
        self.cause = refusal
        log.warning("table %s: its channel %s cannot be reached (%s); clock paused", table.id, channel_id,
                    refusal.value)
        locale = table.row.locale
        where = f"<#{channel_id}>"
        if refusal is Refusal.LOCKED:
            text = t("outbox.unreachable.locked", locale, id=table.id, channel=where)
        elif refusal is Refusal.NO_ACCESS:
            text = t("outbox.unreachable.no_access", locale, id=table.id, channel=where)
        else:
            lacking = missing_in_channel(self.bot, table.row.guild_id, channel_id, TABLE_PERMISSIONS)
            text = t("outbox.unreachable", locale, id=table.id, channel=where,
                     missing=permission_names(lacking or ["send_messages"], locale))
        await self.tell_host(table, text)

    def cache_refuses(self, table: Table) -> bool:
        """The gateway's cache says the channel that refused still would: a locked thread the bot may not manage,
        or a permission the bot lacks there. False when it looks writable or the cache does not know it (a server
        the bot left, a channel not cached): then only a request can tell."""
        guild = self.bot.get_guild(table.row.guild_id) if table.row.guild_id else None
        channel = guild.get_channel_or_thread(self.channel_id or table.place.channel_id) if guild else None
        if guild is None or channel is None or guild.me is None:
            return False
        perms = channel.permissions_for(guild.me)
        if isinstance(channel, discord.Thread) and channel.locked and not perms.manage_threads:
            return True
        return bool(missing(perms, WRITE_NEEDS, in_thread=isinstance(channel, discord.Thread)))

    async def tell_host_gone(self, table: Table) -> None:
        await self.tell_host(table, t("outbox.gone", table.row.locale, id=table.id))

    async def tell_host(self, table: Table, text: str) -> None:
        try:
            user = self.bot.get_user(table.row.host_id) or await self.bot.fetch_user(table.row.host_id)
            await asyncio.wait_for(user.send(text, allowed_mentions=NO_MENTIONS), DM_TIMEOUT)
        except FAILURES as error:
            log.warning("table %s: could not tell its host (%s)", table.id, type(error).__name__)
