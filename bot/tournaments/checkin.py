"""Check-in that closes itself: at a tournament's check-in deadline the entrants not checked in are dropped (told
why, once) and, when its organiser chose it at creation, the tournament starts. A deadline survives a restart
(``resume`` schedules the deadlines of the tournaments still in check-in)."""
from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Callable

from bot.errors import HostError

from .models import EntrantStatus, TournamentUpdateKind

if TYPE_CHECKING:
    from .models import Tournament
    from .service import TournamentService

now: Callable[[], float] = time.time  # the clock the deadlines are read on (a test moves it on)
STEP = 1.0  # seconds between looks at the clock while a deadline is ahead


class CheckinDeadlines:
    def __init__(self, service: TournamentService) -> None:
        self.service = service
        self._tasks: dict[int, asyncio.Task] = {}
        self._closed = False

    def schedule(self, tournament: Tournament) -> None:
        """Close the tournament's check-in at its deadline (a new deadline replaces the one scheduled)."""
        if self._closed or tournament.status != "checkin" or tournament.checkin_until is None:
            return
        old = self._tasks.get(tournament.id)
        if old is not None and not old.done():
            old.cancel()
        task = asyncio.create_task(self._close_at(tournament.id, tournament.checkin_until),
                                   name=f"tournament-{tournament.id}-checkin")
        self._tasks[tournament.id] = task
        task.add_done_callback(lambda done: self._tasks.pop(tournament.id, None) if
                               self._tasks.get(tournament.id) is done else None)

    async def _close_at(self, tournament_id: int, until: float) -> None:
        while now() < until:
            await asyncio.sleep(min(STEP, max(0.0, until - now())) or STEP)
        await self.close_checkin(tournament_id, until)

    async def close_checkin(self, tournament_id: int, until: float) -> None:
        """The check-in deadline ``until`` has come: whoever has not checked in is dropped (and told, once); then,
        when the organiser chose it, the tournament starts (a refusal is told in its channel)."""
        service = self.service
        async with service.lock(tournament_id):
            t = await service.get(tournament_id)
            if t.status != "checkin" or t.checkin_until != until:
                return  # started, cancelled or given a new deadline meanwhile
            absent = [u for u, e in t.entrants.items() if e.status != "checked_in" and e.status != "dropped"]
            await service.store.set_entrant_status(t.id, absent, EntrantStatus.DROPPED)
            for uid in absent:
                t.entrants[uid].status = EntrantStatus.DROPPED
            await service.rounds.emit(t, TournamentUpdateKind.CHECKIN_CLOSED, people=absent)
        if t.start_at_deadline:
            try:
                await service.start(t.id, t.creator_id, is_admin=True, min_people=1)
            except HostError as refused:
                await service.rounds.emit(t, TournamentUpdateKind.NOT_STARTED, error=refused)

    async def resume(self) -> int:
        """After a restart: the deadlines of the tournaments still in check-in (a passed one closes at once)."""
        service = self.service
        ids = await service.store.ids(statuses=("checkin",), shards=service.games.shards)
        for tournament_id in ids:
            self.schedule(await service.get(tournament_id))
        return len(ids)

    async def close(self) -> None:
        self._closed = True
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
