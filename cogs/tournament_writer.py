"""The channel side of a tournament, outside its lock: the service emits updates while it holds the tournament's
lock; this writer only queues them and returns, and one task per tournament makes the Discord calls in order.
Sign-up redraws are coalesced (the message shows the tournament as it is when drawn, so one redraw covers every
Join / Leave / Check-in queued before it)."""
from __future__ import annotations

import asyncio
import logging
from typing import Awaitable, Callable

from bot.tournaments import TournamentUpdate
from bot.tournaments.models import TournamentUpdateKind

log = logging.getLogger(__name__)
Deliver = Callable[[TournamentUpdate], Awaitable[None]]


class TournamentWriter:
    def __init__(self, deliver: Deliver) -> None:
        self.deliver = deliver
        self._queues: dict[int, list[TournamentUpdate]] = {}
        self._tasks: dict[int, asyncio.Task] = {}

    def push(self, update: TournamentUpdate) -> None:
        """Queue an update (never awaits Discord); a sign-up redraw already waiting covers this one."""
        queue = self._queues.setdefault(update.tournament.id, [])
        if update.kind is TournamentUpdateKind.SIGNUP and any(u.kind is TournamentUpdateKind.SIGNUP for u in queue):
            return
        queue.append(update)
        task = self._tasks.get(update.tournament.id)
        if task is None or task.done():
            self._tasks[update.tournament.id] = asyncio.create_task(self._run(update.tournament.id))

    def pending(self, tournament_id: int) -> int:
        return len(self._queues.get(tournament_id, []))

    async def _run(self, tournament_id: int) -> None:
        await asyncio.sleep(0)  # let the interaction that caused the update be answered first
        queue = self._queues[tournament_id]
        while queue:
            update = queue.pop(0)
            try:
                await self.deliver(update)
            except Exception:
                log.exception("tournament %s: could not show %s", tournament_id, update.kind)
        del self._queues[tournament_id]  # all shown: the next update starts a new queue and writer
        del self._tasks[tournament_id]
