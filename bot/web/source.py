"""Where the replay pages' games come from: the bot's database through links (``StoredReplays``: a token opens a
finished game, ``bot.shares.resolve`` decides), or one record file on the operator's own machine (``FileReplays``,
``python -m bot replay FILE --serve``: no tokens, the spectator's view and each seat's). A game is rebuilt by the
engine and checked once (``bot.review.SteppedReplay``), off the event loop, however many visitors ask together,
and the last few are kept."""
from __future__ import annotations

import asyncio
from typing import Protocol

from ..errors import HostError
from ..i18n import language
from ..replay import GameRecord, stored_record
from ..review import ReplayCache, SteppedReplay
from ..shares import resolve, shows_every_hand
from ..storage import Storage
from .page import Opened

WEB_REPLAYS_KEPT = 4  # rebuilt games the web side keeps (its own: the Discord viewer's cache is the cogs')


class ReplaySource(Protocol):
    async def open(self, key: str) -> Opened | None:
        """The replay ``key`` (a link's token) opens, or None: not found, and nothing more is said."""


class Rebuilds:
    """Rebuilt games by table id: from the cache, else rebuilt once however many ask while it runs."""

    def __init__(self, kept: int = WEB_REPLAYS_KEPT) -> None:
        self.cache = ReplayCache(size=kept)
        self._building: dict[int, asyncio.Future[SteppedReplay]] = {}

    async def rebuilt(self, record: GameRecord) -> SteppedReplay:
        cached = self.cache.get(record.table)
        if cached is not None:
            return cached
        building = self._building.get(record.table)
        if building is None:
            building = asyncio.ensure_future(asyncio.to_thread(SteppedReplay, record))
            self._building[record.table] = building
            building.add_done_callback(lambda done: self._built(record.table, done))
        return await asyncio.shield(building)

    def _built(self, table_id: int, done: asyncio.Future[SteppedReplay]) -> None:
        self._building.pop(table_id, None)
        if not done.cancelled() and done.exception() is None:
            self.cache.put(table_id, done.result())


class StoredReplays:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.rebuilds = Rebuilds()

    async def open(self, key: str) -> Opened | None:
        shared = await resolve(self.storage, key)
        if shared is None:
            return None
        cached = self.rebuilds.cache.get(shared.game.id)
        record = cached.record if cached is not None else await stored_record(self.storage, shared.game.id)
        replay = cached or await self.rebuilds.rebuilt(record)  # HostError: it does not replay exactly
        return Opened(replay, record.seat_player(shared.share.seat), language(shared.game.locale),
                      await shows_every_hand(self.storage, shared.game.id), base=f"/r/{key}")


class FileReplays:
    """One record, rebuilt and checked before the server starts: ``game`` its spectator's view, ``seat-N`` seat
    N's."""

    SPECTATOR = "game"

    def __init__(self, replay: SteppedReplay, lang: str) -> None:
        self.replay, self.lang = replay, lang

    def keys(self) -> list[tuple[str, int | None]]:
        return [(self.SPECTATOR, None), *((f"seat-{p.seat}", p.seat) for p in self.replay.record.players)]

    async def open(self, key: str) -> Opened | None:
        seat = dict(self.keys()).get(key, -1)
        if seat == -1:
            return None
        try:
            player = self.replay.record.seat_player(seat)
        except HostError:
            return None
        return Opened(self.replay, player, self.lang, True, base=f"/r/{key}")
