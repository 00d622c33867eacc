"""The public reviews shared with **Show the table** (``cogs.review.start_shared``): one per table while its
message stands, so a table's thread is never flooded. Bounded (the least recently shared give way first: a
process running for months keeps a few hundred, not one per table it ever shared), and a review a moderator
deleted is forgotten when the table is shared next, so it can be shared again.

Its post goes through the bot's one way out (``post_shared``, ``bot.delivery``): an archived thread is unarchived,
a server error, broken connection or rate limit is tried again after a wait (a few times, within the clicker's
wait), every refusal counts in the bot's shared budget, and nothing is sent while its server's share is spent."""
from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass
from typing import Awaitable, Callable

import discord

from bot.delivery import Delivery
from bot.refusals import TRANSPORT, UNKNOWN_CHANNEL, UNKNOWN_MESSAGE, Backoff, Refusal

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
    """Send a shared review (``send``) through the bot's delivery loop (its refusals counted in its server's share of
    the budget); None when Discord would not take it."""
    delivery: Delivery = getattr(client, "delivery", None) or Delivery()  # the bot's, shared by every writer
    job = SharedPost(client, delivery, channel_id, guild_id, send)
    await delivery.run(job)
    return job.posted


class SharedPost:
    """One shared review's post, as a job of the delivery loop: ``POST_TRIES`` sends at most."""

    def __init__(self, client: discord.Client, delivery: Delivery, channel_id: int, guild_id: int | None,
                 send: Callable[[], Awaitable[discord.Message]]) -> None:
        self.client, self.delivery, self.channel_id, self.send = client, delivery, channel_id, send
        self.guild_id, self.table_id = guild_id, None
        self.backoff = Backoff(*POST_BACKOFF)
        self.posted: discord.Message | None = None
        self.tries = 0

    async def attempt(self) -> float | None:
        self.tries += 1
        self.posted = await self.send()
        return None

    async def held(self, seconds: float) -> bool:
        return False  # the bot is refused too often just now: no more refused requests for a review

    async def refused(self, refusal: Refusal, error: BaseException, wait: float) -> float | None:
        if self.tries >= POST_TRIES:
            return None
        if refusal is Refusal.ARCHIVED:  # a quiet thread is archived: reopen it, then send again
            return 0.0 if await self.delivery.unarchive(self.client.http, self.channel_id, self.guild_id) is None \
                else None
        return wait if refusal.retried else None

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)
