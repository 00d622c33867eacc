"""When a table's channel cannot be reached: what its host is told, once per cause, naming the real one (a locked
thread, missing access, a missing permission, a deleted channel)."""
from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import aiohttp
import discord

from bot.i18n import t
from bot.table import Table

from .common import NO_MENTIONS
from .permissions import TABLE_PERMISSIONS, missing_in_channel, permission_names
from .refusals import Refusal

if TYPE_CHECKING:
    from bot.client import GameHostBot

log = logging.getLogger(__name__)
DM_TIMEOUT = 20.0


class Reach:
    def __init__(self, bot: "GameHostBot", game_id: int) -> None:
        self.bot, self.game_id = bot, game_id
        self.cause: Refusal | None = None  # why the table's channel cannot be written to now (None: it can)

    async def cannot_reach(self, table: Table, refusal: Refusal, *, lobby_channel: bool) -> None:
        """The first refusal of a cause tells the host; the same cause again tells nobody."""
        if self.cause is refusal:
            return
        self.cause = refusal
        channel_id = (lobby_channel and table.row.lobby_channel_id) or table.row.channel_id
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

    async def tell_host_gone(self, table: Table) -> None:
        await self.tell_host(table, t("outbox.gone", table.row.locale, id=table.id))

    async def tell_host(self, table: Table, text: str) -> None:
        try:
            user = self.bot.get_user(table.row.host_id) or await self.bot.fetch_user(table.row.host_id)
            await asyncio.wait_for(user.send(text, allowed_mentions=NO_MENTIONS), DM_TIMEOUT)
        except (discord.HTTPException, asyncio.TimeoutError, OSError, aiohttp.ClientError) as error:
            log.warning("table %s: could not tell its host (%s)", table.id, type(error).__name__)
