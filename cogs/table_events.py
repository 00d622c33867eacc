"""Discord's events about the places tables play in: a thread locked, unlocked, archived or deleted, a channel
deleted or its permissions changed, a role changed, the bot removed from or added back to a server. Each reaches
the writers of the tables there within seconds: a deleted thread or channel moves or ends its tables, and any
other change wakes the writers that could not write, so regained access is used at once instead of at their next
backoff."""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot.table import ACTIVE

from .outbox_channel import channel_gone

if TYPE_CHECKING:
    from bot.client import GameHostBot

    from .table import TableCog

log = logging.getLogger(__name__)


class TableEvents(commands.Cog):
    def __init__(self, bot: GameHostBot, tables: "TableCog") -> None:
        self.bot = bot
        self.tables = tables

    async def _tables_in(self, channel_id: int) -> list[int]:
        return await self.bot.storage.game_ids(status=ACTIVE, channel_id=channel_id)

    def _wake_guild(self, guild_id: int | None) -> None:
        """Writers that could not reach their channel try again now (one request each)."""
        for box in list(self.tables.outboxes.values()):
            if box.reach.cause is not None and box.guild_id in (None, guild_id):
                box.wake()

    async def _gone(self, channel_id: int) -> None:
        for game_id in await self._tables_in(channel_id):
            await channel_gone(self.tables.outbox(game_id), channel_id)

    @commands.Cog.listener()
    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        meta = payload.data.get("thread_metadata") or {}
        if meta.get("locked") or meta.get("archived"):
            return  # the next write finds out and says so (an archived thread is opened again)
        for game_id in await self._tables_in(payload.thread_id):
            self.tables.outbox(game_id).wake()

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self._gone(payload.thread_id)

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self._gone(channel.id)

    @commands.Cog.listener()
    async def on_guild_channel_update(self, before: discord.abc.GuildChannel,
                                      after: discord.abc.GuildChannel) -> None:
        self._wake_guild(after.guild.id)

    @commands.Cog.listener()
    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        self._wake_guild(after.guild.id)

    @commands.Cog.listener()
    async def on_guild_role_create(self, role: discord.Role) -> None:
        self._wake_guild(role.guild.id)

    @commands.Cog.listener()
    async def on_member_update(self, before: discord.Member, after: discord.Member) -> None:
        if after.id == getattr(self.bot.user, "id", None):  # the bot's own roles changed
            self._wake_guild(after.guild.id)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        for box in list(self.tables.outboxes.values()):
            if box.guild_id == guild.id:
                await box.removed()

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        self._wake_guild(guild.id)

    @commands.Cog.listener()
    async def on_guild_available(self, guild: discord.Guild) -> None:
        self._wake_guild(guild.id)
