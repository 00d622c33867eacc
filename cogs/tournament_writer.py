"""The channel side of a tournament, outside its lock: the service emits updates while it holds the tournament's
lock; this writer only queues them and returns, and one task per tournament makes the Discord calls in order.
Sign-up redraws are coalesced (the message shows the tournament as it is when drawn, so one redraw covers every
Join / Leave / Check-in queued before it).

Discord's answers are the bot's one way out's (``bot.delivery.Delivery``): a server error, a broken connection or
a rate limit is tried again after a growing wait (or as long as Discord asks), up to ``tries`` times; anything else
is given up and logged; every refusal counts in the bot's shared budget, and the writer holds back while its
server's share is spent. An update is delivered in steps (``Steps``): a try again repeats only the steps Discord
did not take, so nothing is posted twice; each post carries a nonce stable over the tries of its update
(``Nonces``), so a repeat after a lost answer is answered with the message Discord kept."""
from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any, Awaitable, Callable

import discord

from bot.delivery import Delivery, stable_nonce
from bot.refusals import Backoff, Refusal
from bot.tournaments import TournamentUpdate
from bot.tournaments.models import TournamentUpdateKind

log = logging.getLogger(__name__)
Steps = set[str]  # the steps of one update Discord took already (a try again skips them)


class Nonces:
    """The nonces of one update's posts: the same for a step's n-th post on every try of that update, so Discord
    answers a repeat after a lost answer with the message it kept; another update's differ."""

    def __init__(self) -> None:
        self.update = secrets.token_hex(8)
        self.step, self._sent = "", 0

    def at(self, step: str) -> None:
        self.step, self._sent = step, 0

    def next(self) -> str:
        self._sent += 1
        return stable_nonce("tournament", self.update, self.step, self._sent)


class NoncedChannel(discord.PartialMessageable):
    """A tournament's channel whose every post carries its update's next nonce (``Nonces``)."""

    def __init__(self, bot: discord.Client, channel_id: int, guild_id: int | None, nonces: Nonces) -> None:
        super().__init__(state=bot._connection, id=channel_id, guild_id=guild_id)  # as get_partial_messageable
        self.nonces = nonces

    async def send(self, *args: Any, **kwargs: Any) -> discord.Message:  # (every post: with its nonce)
        kwargs.setdefault("nonce", self.nonces.next())
        return await super().send(*args, **kwargs)


Deliver = Callable[[TournamentUpdate, Steps, Nonces], Awaitable[None]]


class TournamentWriter:
    backoff_first, backoff_max = 0.5, 30.0  # seconds: the first wait after a failure, and the longest
    tries = 6  # failed deliveries of one update (about a minute of waits) before it is given up

    def __init__(self, deliver: Deliver, delivery: Delivery | None = None) -> None:
        self.deliver = deliver
        self.delivery = delivery if delivery is not None else Delivery()
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
            await self.delivery.run(UpdateJob(self, queue))
        del self._queues[tournament_id]  # all shown: the next update starts a new queue and writer
        del self._tasks[tournament_id]


class UpdateJob:
    """The first queued update of one tournament, delivered step by step through the bot's delivery loop."""

    def __init__(self, writer: TournamentWriter, queue: list[TournamentUpdate]) -> None:
        self.writer, self.queue = writer, queue
        self.update = queue.pop(0)  # out of the queue while it is drawn: a sign-up change meanwhile is queued anew
        self.guild_id, self.table_id = self.update.tournament.guild_id, None
        self.backoff = Backoff(writer.backoff_first, writer.backoff_max)
        self.done: Steps = set()
        self.nonces = Nonces()

    async def attempt(self) -> float | None:
        await self.writer.deliver(self.update, self.done, self.nonces)
        return None

    async def held(self, seconds: float) -> bool:
        return True  # waits, first in its queue again

    async def refused(self, refusal: Refusal, error: BaseException, wait: float) -> float | None:
        tournament = self.update.tournament
        if refusal.retried and self.backoff.failures <= self.writer.tries:
            log.warning("tournament %s: showing %s failed (%s); trying again in %.1f s", tournament.id,
                        self.update.kind, type(error).__name__, wait)
            return wait
        log.error("tournament %s: could not show %s; given up", tournament.id, self.update.kind, exc_info=error)
        return None

    async def sleep(self, seconds: float) -> None:
        self.queue.insert(0, self.update)  # first again once the wait is over (a sign-up change meanwhile joins it)
        await asyncio.sleep(seconds)
        self.queue.remove(self.update)
