"""The channel side of a tournament, outside its lock: the service emits updates while it holds the tournament's
lock; this writer only queues them and returns, and one task per tournament makes the Discord calls in order.
Sign-up redraws are coalesced (the message shows the tournament as it is when drawn, so one redraw covers every
Join / Leave / Check-in queued before it).

Discord's refusals are sorted as a table's writer sorts them (``refusals.classify``): a server error, a broken
connection or a rate limit is tried again after a growing wait (``Backoff``, or as long as Discord asks), up to
``tries`` times; anything else is given up and logged. Every refusal counts in the bot's shared budget
(``RefusalBudget``), and the writer holds back while that budget is spent. An update is delivered in steps
(``Steps``): a try again repeats only the steps Discord did not take, so nothing is posted twice."""
from __future__ import annotations

import asyncio
import logging
from typing import Awaitable, Callable

from bot.tournaments import TournamentUpdate
from bot.tournaments.models import TournamentUpdateKind

from .refusals import Backoff, Refusal, RefusalBudget, classify, retry_after

log = logging.getLogger(__name__)
Steps = set[str]  # the steps of one update Discord took already (a try again skips them)
Deliver = Callable[[TournamentUpdate, Steps], Awaitable[None]]


class TournamentWriter:
    backoff_first, backoff_max = 0.5, 30.0  # seconds: the first wait after a failure, and the longest
    tries = 6  # failed deliveries of one update (about a minute of waits) before it is given up

    def __init__(self, deliver: Deliver, budget: RefusalBudget | None = None) -> None:
        self.deliver = deliver
        self.budget = budget if budget is not None else RefusalBudget()
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
        backoff = Backoff(self.backoff_first, self.backoff_max)
        done: Steps = set()
        while queue:
            update = queue.pop(0)  # out of the queue while it is drawn: a sign-up change meanwhile is queued anew
            wait = await self._try(update, done, backoff)
            if wait is None:  # shown, or given up: the next one
                done, backoff = set(), Backoff(self.backoff_first, self.backoff_max)
            else:
                queue.insert(0, update)  # first again once the wait is over (a sign-up change meanwhile joins it)
                await asyncio.sleep(wait)
        del self._queues[tournament_id]  # all shown: the next update starts a new queue and writer
        del self._tasks[tournament_id]

    async def _try(self, update: TournamentUpdate, done: Steps, backoff: Backoff) -> float | None:
        """One delivery of ``update``: None once it is done with (shown, or given up), else the seconds to wait
        before trying it again."""
        guild_id = update.tournament.guild_id
        hold = self.budget.wait(guild_id)
        if hold > 0:
            return hold
        try:
            await self.deliver(update, done)
        except Exception as error:  # every failure is sorted below
            refusal = classify(error)
            if refusal.counts_as_invalid:
                self.budget.refused(guild_id)
            if refusal in (Refusal.TRANSIENT, Refusal.RATE_LIMITED) and backoff.failures < self.tries:
                wait = max(retry_after(error), backoff.next())
                log.warning("tournament %s: showing %s failed (%s); trying again in %.1f s", update.tournament.id,
                            update.kind, type(error).__name__, wait)
                return wait
            log.error("tournament %s: could not show %s; given up", update.tournament.id, update.kind,
                      exc_info=error)
        return None
