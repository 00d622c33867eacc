"""Check-in: opening it, checking in, the organiser entering someone (``CheckIn``'s commands, callable on the
service), and a check-in that closes itself: shortly before a tournament's check-in deadline the entrants not checked
in yet are reminded (once); at the deadline check-in closes (nobody joins or checks in after it), the entrants not
checked in are dropped (told why, once) and, when its organiser chose it at creation, the tournament starts. The
reminder and the deadline survive a restart (``resume`` schedules the tournaments still in check-in; a reminder whose
time passed while the bot was down still goes out if the deadline has not)."""
from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Callable

from bot.errors import HostError

from .models import OPEN_STATES, Entrant, EntrantStatus, TournamentStatus, TournamentUpdateKind
from .settings import MAX_CHECKIN_MINUTES, REMIND_BEFORE

if TYPE_CHECKING:
    from .models import Tournament
    from .service import TournamentService

now: Callable[[], float] = time.time  # the clock the deadlines are read on (a test moves it on)
STEP = 1.0  # seconds between looks at the clock while a deadline is ahead


class CheckIn:
    """Check-in: its commands (opening it, checking in, the organiser entering someone) and its deadline."""

    def __init__(self, service: TournamentService) -> None:
        self.service = service
        self._tasks: dict[int, asyncio.Task] = {}
        self._closed = False

    def schedule(self, tournament: Tournament) -> None:
        """Close the tournament's check-in at its deadline (a new deadline replaces the one scheduled)."""
        if self._closed or tournament.status != TournamentStatus.CHECKIN or tournament.checkin_until is None:
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
        tournament = await self.service.get(tournament_id)
        remind = tournament.checkin_remind_at
        if remind is not None:
            await self._wait_until(min(remind, until))
            await self.remind(tournament_id, until)
        await self._wait_until(until)
        await self.close_checkin(tournament_id, until)

    @staticmethod
    async def _wait_until(moment: float) -> None:
        while now() < moment:
            await asyncio.sleep(min(STEP, max(0.0, moment - now())) or STEP)

    async def remind(self, tournament_id: int, until: float) -> None:
        """The one reminder before the deadline ``until``: the people entered and not checked in are pinged (none
        when the deadline has come already); stored as sent first, so a restart does not send it twice."""
        service = self.service
        async with service.lock(tournament_id):
            t = await service.get(tournament_id)
            if t.status != TournamentStatus.CHECKIN or t.checkin_until != until or t.checkin_remind_at is None:
                return
            await service.store.update(t.id, checkin_remind_at=None)
            t.checkin_remind_at = None
            people = [e.user_id for e in t.active_entrants() if not e.is_bot and e.status != EntrantStatus.CHECKED_IN]
            if people and now() < until:
                await service.rounds.emit(t, TournamentUpdateKind.CHECKIN_REMINDER, people=people)

    async def open(self, tournament_id: int, actor: int, *, organises_all: bool = False,
                   minutes: int = 10) -> Tournament:
        """From now on only entrants who check in are seated when the tournament starts (bots are checked in);
        ``minutes``: the deadline shown to the entrants (the organiser starts the tournament after it)."""
        if not 1 <= minutes <= MAX_CHECKIN_MINUTES:
            raise HostError("tournament.bad_checkin", max=MAX_CHECKIN_MINUTES)
        service = self.service
        async with service.lock(tournament_id):
            t = await service.get(tournament_id)
            service.check_organiser(t, actor, organises_all=organises_all)
            service.require_state(t, TournamentStatus.SIGNUP)
            bots = [u for u, e in t.entrants.items() if e.is_bot]
            until = round(now() + minutes * 60)
            remind = until - min(REMIND_BEFORE, minutes * 60 / 3)  # 5 minutes before, or a third of a short window
            await service.store.set_entrant_status(t.id, bots, EntrantStatus.CHECKED_IN)
            await service.store.update(t.id, status=TournamentStatus.CHECKIN, checkin=1, checkin_until=until,
                                    checkin_remind_at=remind)
            for uid in bots:
                t.entrants[uid].status = EntrantStatus.CHECKED_IN
            t.status, t.checkin, t.checkin_until = TournamentStatus.CHECKIN, True, until
            t.checkin_remind_at = remind
            await service.rounds.emit(t, TournamentUpdateKind.CHECKIN)
            self.schedule(t)
            return t

    async def check_in(self, tournament_id: int, user_id: int) -> Tournament:
        service = self.service
        async with service.lock(tournament_id):
            t = await service.get(tournament_id)
            if t.status == TournamentStatus.CHECKIN_CLOSED:
                raise HostError("tournament.checkin_closed")
            if t.status != TournamentStatus.CHECKIN:
                raise HostError("tournament.no_checkin")
            entrant = t.entrants.get(user_id)
            if entrant is None:
                raise HostError("tournament.you_not_entered")
            if entrant.status == EntrantStatus.CHECKED_IN:
                raise HostError("tournament.already_checked_in")
            await service.store.set_entrant_status(t.id, [user_id], EntrantStatus.CHECKED_IN)
            entrant.status = EntrantStatus.CHECKED_IN
            await service.rounds.emit(t, TournamentUpdateKind.SIGNUP)
            return t

    async def add_player(self, tournament_id: int, actor: int, user_id: int, name: str, *,
                         organises_all: bool = False) -> Tournament:
        """The organiser enters a person before the start, checked in when check-in was opened: also after its
        deadline, and someone the deadline dropped."""
        service = self.service
        async with service.lock(tournament_id):
            t = await service.get(tournament_id)
            service.check_organiser(t, actor, organises_all=organises_all)
            service.require_state(t, *OPEN_STATES)
            status = EntrantStatus.CHECKED_IN if t.checkin else EntrantStatus.ENTERED
            entrant = t.entrants.get(user_id)
            if entrant is None:
                await service.enter(t, [Entrant(user_id, name[:32], False, status)])
                return t
            if entrant.status == status:
                raise HostError("tournament.already_entered_player")
            await service.store.set_entrant_status(t.id, [user_id], status)
            entrant.status = status
            await service.rounds.emit(t, TournamentUpdateKind.SIGNUP)
            return t

    async def close_checkin(self, tournament_id: int, until: float) -> None:
        """The check-in deadline ``until`` has come: whoever has not checked in is dropped (and told, once); then,
        when the organiser chose it, the tournament starts (a refusal is told in its channel)."""
        service = self.service
        async with service.lock(tournament_id):
            t = await service.get(tournament_id)
            if t.status != TournamentStatus.CHECKIN or t.checkin_until != until:
                return  # started, cancelled or given a new deadline meanwhile
            absent = [u for u, e in t.entrants.items()
                      if e.status not in (EntrantStatus.CHECKED_IN, EntrantStatus.DROPPED)]
            await service.store.set_entrant_status(t.id, absent, EntrantStatus.DROPPED)
            await service.store.update(t.id, status=TournamentStatus.CHECKIN_CLOSED, checkin_remind_at=None)
            for uid in absent:
                t.entrants[uid].status = EntrantStatus.DROPPED
            t.status, t.checkin_remind_at = TournamentStatus.CHECKIN_CLOSED, None
            await service.rounds.emit(t, TournamentUpdateKind.CHECKIN_CLOSED, people=absent)
        if t.start_at_deadline:
            try:
                await service.start(t.id, t.creator_id, organises_all=True, min_people=1)
            except HostError as refused:
                await service.rounds.emit(t, TournamentUpdateKind.NOT_STARTED, error=refused)

    async def resume(self) -> int:
        """After a restart: the deadlines of the tournaments still in check-in (a passed one closes at once)."""
        service = self.service
        ids = await service.store.ids(statuses=(TournamentStatus.CHECKIN,), shards=service.games.shards)
        for tournament_id in ids:
            self.schedule(await service.get(tournament_id))
        return len(ids)

    async def close(self) -> None:
        self._closed = True
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
