"""The public reviews shared with **Show the table** (``cogs.review.start_shared``): one per table while its
message stands, so a table's thread is never flooded. Bounded (the least recently shared give way first: a
process running for months keeps a few hundred, not one per table it ever shared), and a review a moderator
deleted is forgotten when the table is shared next, so it can be shared again."""
from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

import discord

from .refusals import TRANSPORT, UNKNOWN_CHANNEL, UNKNOWN_MESSAGE

SHARED_KEPT = 256  # shared reviews remembered


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
