"""The bot's one cache of rebuilt games (issue 42, item 4; issue 56): a finished game is rebuilt by the engine and
checked (``bot.review.SteppedReplay``) off the event loop, at most once at a time however many ask together —
whoever asks while it runs waits for the same rebuild — and the last few are kept (``bot.review.ReplayCache``).
The Discord viewer, Reveal and ``/game record`` (``cogs.look_back``) and the web side's replay pages
(``bot.web.source``) read the same one, so a game looked at in both is rebuilt and held once."""
from __future__ import annotations

import asyncio

from .replay import GameRecord
from .review import ReplayCache, SteppedReplay


class Rebuilds:
    def __init__(self, cache: ReplayCache | None = None) -> None:
        self.cache = cache if cache is not None else ReplayCache()
        self._building: dict[int, asyncio.Future[SteppedReplay]] = {}
        self.count = 0  # games rebuilt since the start (the tests count them)

    async def rebuilt(self, record: GameRecord) -> SteppedReplay:
        """The game of ``record`` from the cache, else rebuilt off the event loop, once however many ask."""
        cached = self.cache.get(record.table)
        if cached is not None:
            return cached
        building = self._building.get(record.table)
        if building is None:
            building = asyncio.ensure_future(self._rebuild(record))
            self._building[record.table] = building
            building.add_done_callback(lambda _: self._building.pop(record.table, None))
        return await asyncio.shield(building)

    async def _rebuild(self, record: GameRecord) -> SteppedReplay:
        self.count += 1
        replay = await asyncio.to_thread(SteppedReplay, record)
        self.cache.put(record.table, replay)
        return replay
