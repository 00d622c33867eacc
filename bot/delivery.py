"""The bot's one way out to Discord (:class:`Delivery`, owned by the bot): every writer — a table's, a tournament's,
the shared review — hands it a :class:`Job`, and one loop carries the job through Discord's answers.

The loop holds a job back while its server has used its share of the refusal budget (``RefusalBudget``), gives
each try ``timeout`` seconds, sorts every failure (``refusals.classify``) and counts it in the budget, waits out a
failure Discord asks to be tried again (a 5xx, a broken connection, a rate limit: the job's growing ``Backoff`` or
Discord's Retry-After, whichever is longer), and asks the job how it reacts to anything else (a locked thread, a
dead interaction token, a refused message): wait, go on, or stop. Posts carry a nonce stable across tries and
restarts (:func:`stable_nonce`), so a repeat after a lost answer is answered with the message Discord kept.
"""
from __future__ import annotations

import asyncio
import hashlib
import time
from typing import TYPE_CHECKING, Awaitable, Callable, Protocol

from .discord_rules.limits import TOKEN_LIFETIME
from .refusals import Backoff, Refusal, RefusalBudget, classify, retry_after

if TYPE_CHECKING:
    import discord

REQUEST_TIMEOUT = 20.0  # seconds one try may take before it counts as failed (and is tried again)


class Job(Protocol):
    """What a writer gives the loop: one try at a time, and its reactions."""

    @property
    def guild_id(self) -> int | None:
        """Whose share of the refusal budget its refusals take."""

    @property
    def table_id(self) -> int | None:
        """The table they are counted for too (tests and logs)."""

    @property
    def backoff(self) -> Backoff:
        """Its waits after failures Discord asks to be tried again."""

    async def attempt(self) -> float | None:
        """One step: None once nothing is left, else the seconds to wait before the next (0: at once)."""

    async def held(self, seconds: float) -> bool:
        """Its server's share of the budget is spent for ``seconds``: False gives the job up."""

    async def refused(self, refusal: Refusal, error: BaseException, wait: float) -> float | None:
        """A try failed: seconds to wait before the next (``wait``: what the loop suggests for a failure Discord asks
        to be tried again, else 0), or None to stop."""

    async def sleep(self, seconds: float) -> None:
        """Wait (a writer may end the wait early when something changes)."""


class Delivery:
    def __init__(self, budget: RefusalBudget | None = None, timeout: float = REQUEST_TIMEOUT) -> None:
        self.budget = budget if budget is not None else RefusalBudget()
        self.timeout = timeout
        self.clock: Callable[[], float] = time.monotonic  # what interaction tokens' lifetimes are counted on ...
        self.sleep: Callable[[float], Awaitable[None]] = asyncio.sleep  # ... and waited on (tests move both)
        self._refused_tokens: dict[str, float] = {}  # interaction tokens Discord refused, and when

    # ---- interaction tokens ------------------------------------------------------------------------
    def token_refused(self, token: str) -> None:
        """Discord refused this interaction token (10015, 50027, 40094): nobody in the bot writes with it again."""
        now = self.clock()
        self._refused_tokens = {t: at for t, at in self._refused_tokens.items() if now - at < TOKEN_LIFETIME}
        self._refused_tokens[token] = now

    def refuses(self, token: str) -> bool:
        return token in self._refused_tokens

    async def run(self, job: Job) -> None:
        """Carry ``job`` until it says nothing is left or stops."""
        while True:
            hold = self.budget.wait(job.guild_id)
            if hold > 0:
                if not await job.held(hold):
                    return
                await job.sleep(hold)
                continue
            try:
                async with asyncio.timeout(self.timeout):  # (in this task: no update is missed between tries)
                    wait = await job.attempt()
            except Exception as error:  # every failure is sorted here, and the job says how it reacts
                wait = await job.refused(*self.sort_out(job, error))
            else:
                job.backoff.reset()
            if wait is None:
                return
            if wait > 0:
                await job.sleep(wait)

    def sort_out(self, job: Job, error: BaseException) -> tuple[Refusal, BaseException, float]:
        """The refusal ``error`` is (counted in the budget), with the wait the loop suggests for it."""
        refusal = classify(error)
        if refusal.counts_as_invalid:
            self.budget.refused(job.guild_id, job.table_id)
        wait = max(retry_after(error), job.backoff.next()) if refusal.retried else 0.0
        return refusal, error, wait

    async def unarchive(self, http: "discord.http.HTTPClient", thread_id: int, guild_id: int | None,
                        table_id: int | None = None) -> Refusal | None:
        """A thread Discord archived after a quiet while, opened again before a write (None), or why that was
        refused (counted like any refusal; a thread the bot may not reopen reads as locked)."""
        try:
            async with asyncio.timeout(self.timeout):
                await http.edit_channel(thread_id, archived=False)
        except Exception as again:  # locked, no permission, or Discord down
            refusal = self.counted(guild_id, again, table_id)
            return Refusal.LOCKED if refusal is Refusal.NO_PERMISSION else refusal
        return None

    def counted(self, guild_id: int | None, error: BaseException, table_id: int | None = None) -> Refusal:
        """A failed request made beside a job (an unarchive, a probe): sorted and counted like the job's own."""
        refusal = classify(error)
        if refusal.counts_as_invalid:
            self.budget.refused(guild_id, table_id)
        return refusal


def stable_nonce(*what: object) -> str:
    """The same nonce on every try, before and after a restart (Discord takes up to 25 characters): Discord answers
    a repeat of a post with the message it has."""
    digest = hashlib.sha256(":".join(["gamehost", *map(str, what)]).encode()).digest()
    return str(int.from_bytes(digest[:8], "big") >> 1)
