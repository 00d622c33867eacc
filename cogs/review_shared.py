"""The public reviews shared with **Show the table** (``cogs.review.start_shared``): one per table while its
message stands, so a table's thread is never flooded. Bounded (the least recently shared give way first: a
process running for months keeps a few hundred, not one per table it ever shared), and a review a moderator
deleted is forgotten when the table is shared next, so it can be shared again.

Its post goes the way a table's writer sorts Discord's answers (``post_shared``): an archived thread is
unarchived, a server error, broken connection or rate limit is tried again after a wait (a few times, within the
clicker's wait), every refusal counts in the bot's shared budget, and nothing is sent while that budget is spent."""
from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass
from typing import Awaitable, Callable

import discord
from discord.ext import commands

from .refusals import (
    TRANSPORT,
    UNKNOWN_CHANNEL,
    UNKNOWN_MESSAGE,
    Backoff,
    Refusal,
    RefusalBudget,
    classify,
    retry_after,
)

SHARED_KEPT = 256  # shared reviews remembered
POST_TRIES = 4  # sends of one shared review (each after the wait its refusal calls for)
POST_BACKOFF = (0.5, 4.0)  # seconds: the first wait after a failure, and the longest


@dataclass(frozen=True)
class SharedReview:
    channel_id: int
    message_id: int
    link: str


class SharedReviews:
    def __init__(self, kept: int = SHARED_KEPT) -> None:
        self.kept = kept
        self._by_table: OrderedDict[int, SharedReview] = OrderedDict()

    def add(self, table_id: int, *, channel_id: int, message_id: int, link: str) -> None:
        self._by_table[table_id] = SharedReview(channel_id, message_id, link)
        self._by_table.move_to_end(table_id)
        while len(self._by_table) > self.kept:
            self._by_table.popitem(last=False)

    def tables(self) -> list[int]:
        return list(self._by_table)

    async def standing(self, client: discord.Client, table_id: int) -> SharedReview | None:
        """The table's shared review, if its message is still there (one GET, only when it is shared again); a
        deleted one (or its channel) is forgotten. When Discord cannot say, it counts as standing."""
        shared = self._by_table.get(table_id)
        if shared is None:
            return None
        try:
            await client.http.get_message(shared.channel_id, shared.message_id)
        except discord.NotFound as error:
            if error.code in (UNKNOWN_MESSAGE, UNKNOWN_CHANNEL) and self._by_table.get(table_id) is shared:
                del self._by_table[table_id]
                return None
        except (discord.HTTPException, *TRANSPORT):
            pass  # no access to read it, or Discord failing: not known to be gone
        return shared


async def post_shared(client: discord.Client, channel_id: int, guild_id: int | None,
                      send: Callable[[], Awaitable[discord.Message]]) -> discord.Message | None:
    """Send a shared review (``send``) as a table's writer would (its refusals counted in its server's share of the
    budget); None when Discord would not take it."""
    tables = client.get_cog("TableCog") if isinstance(client, commands.Bot) else None
    budget: RefusalBudget | None = getattr(tables, "refusals", None)  # the bot's, shared by every table's writer
    backoff = Backoff(*POST_BACKOFF)
    for _ in range(POST_TRIES):
        if budget is not None and budget.wait(guild_id) > 0:
            return None  # the bot is refused too often just now: no more refused requests for a review
        try:
            return await send()
        except (discord.HTTPException, *TRANSPORT) as error:
            refusal = classify(error)
            if budget is not None and refusal.counts_as_invalid:
                budget.refused(guild_id)
            if refusal is Refusal.ARCHIVED:  # a quiet thread is archived: reopen it, then send again
                try:
                    await client.http.edit_channel(channel_id, archived=False)
                except (discord.HTTPException, *TRANSPORT) as again:
                    if budget is not None and classify(again).counts_as_invalid:
                        budget.refused(guild_id)
                    return None
            elif refusal in (Refusal.TRANSIENT, Refusal.RATE_LIMITED):
                await asyncio.sleep(max(retry_after(error), backoff.next()))
            else:
                return None
    return None
