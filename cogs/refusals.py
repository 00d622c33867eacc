"""Discord's answers to a table's writer, sorted: what each refusal means and how long to wait before trying again.

Discord bans a bot's IP for an hour after 10,000 invalid requests (401, 403, 429) in ten minutes, so every kind of
refusal has a defined reaction and a backoff of its own, and one process-wide budget (:class:`RefusalBudget`) keeps
all the writers together far below that limit.
"""
from __future__ import annotations

import asyncio
import time
from collections import deque
from enum import Enum
from typing import Callable

import aiohttp
import discord

UNKNOWN_CHANNEL, UNKNOWN_MESSAGE = 10003, 10008
MISSING_ACCESS, MISSING_PERMISSIONS, ARCHIVED = 50001, 50013, 50083
THREAD_LOCKED, THREAD_LIMIT = 160005, 160006


class Refusal(Enum):
    """Why a request did not go through."""

    TRANSIENT = "transient"  # 5xx, a timeout, a reset connection: try again soon
    RATE_LIMITED = "rate_limited"  # 429: wait as long as Discord says
    ARCHIVED = "archived"  # 50083: the thread was archived; unarchive it, then write
    LOCKED = "locked"  # 160005: a moderator locked the thread
    NO_ACCESS = "no_access"  # 50001: the bot cannot see the channel
    NO_PERMISSION = "no_permission"  # 50013: a permission is missing there
    CHANNEL_GONE = "channel_gone"  # 10003: the channel or thread was deleted
    MESSAGE_GONE = "message_gone"  # 10008: the message was deleted
    THREAD_LIMIT = "thread_limit"  # 160006: the server has as many active threads as Discord allows
    INVALID = "invalid"  # anything else: Discord refuses the request itself, so trying again cannot help

    @property
    def unreachable(self) -> bool:
        """The table's channel cannot be written to until someone changes something in the server."""
        return self in (Refusal.LOCKED, Refusal.NO_ACCESS, Refusal.NO_PERMISSION)

    @property
    def counts_as_invalid(self) -> bool:
        """Counted in the process-wide budget: every refusal but a server error or a broken connection (Discord
        counts 401, 403 and 429 answers; counting every 4xx leaves a margin)."""
        return self not in (Refusal.TRANSIENT,)


_CODES = {ARCHIVED: Refusal.ARCHIVED, THREAD_LOCKED: Refusal.LOCKED, MISSING_ACCESS: Refusal.NO_ACCESS,
          MISSING_PERMISSIONS: Refusal.NO_PERMISSION, UNKNOWN_CHANNEL: Refusal.CHANNEL_GONE,
          UNKNOWN_MESSAGE: Refusal.MESSAGE_GONE, THREAD_LIMIT: Refusal.THREAD_LIMIT}
TRANSPORT = (asyncio.TimeoutError, OSError, aiohttp.ClientError, discord.DiscordServerError)


def classify(error: BaseException) -> Refusal:
    if isinstance(error, discord.RateLimited):
        return Refusal.RATE_LIMITED
    if isinstance(error, discord.HTTPException):
        if error.status == 429:
            return Refusal.RATE_LIMITED
        if error.status >= 500:
            return Refusal.TRANSIENT
        return _CODES.get(error.code, Refusal.INVALID)
    if isinstance(error, TRANSPORT):
        return Refusal.TRANSIENT
    return Refusal.INVALID


def retry_after(error: BaseException) -> float:
    """What Discord asked to wait (a 429), else 0."""
    if isinstance(error, discord.RateLimited):
        return error.retry_after
    response = getattr(error, "response", None)
    header = getattr(response, "headers", {}).get("Retry-After") if response is not None else None
    try:
        return float(header) if header is not None else 0.0
    except ValueError:
        return 0.0


class Backoff:
    """Exponential waits of one table's writer: ``first`` doubling up to ``most``; ``reset`` after a success."""

    def __init__(self, first: float, most: float) -> None:
        self.first, self.most = first, most
        self.failures = 0

    def next(self) -> float:
        self.failures += 1
        return min(self.most, self.first * 2 ** (self.failures - 1))

    def reset(self) -> None:
        self.failures = 0


class RefusalBudget:
    """Refused requests of the whole process in a sliding window. Writers ask ``wait()`` before writing: past
    ``limit`` refusals in ``window`` seconds they hold back until the oldest refusal leaves the window. The default
    (500 in 10 minutes) is a twentieth of Discord's 10,000."""

    def __init__(self, limit: int = 500, window: float = 600.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit, self.window, self.clock = limit, window, clock
        self._times: deque[float] = deque()
        self.total = 0  # every refusal counted since start (tests, logs)

    def _trim(self) -> None:
        cutoff = self.clock() - self.window
        while self._times and self._times[0] <= cutoff:
            self._times.popleft()

    def refused(self) -> None:
        self._times.append(self.clock())
        self.total += 1

    def wait(self) -> float:
        """Seconds to hold back before the next request (0: go ahead)."""
        self._trim()
        if len(self._times) < self.limit:
            return 0.0
        return max(0.0, self._times[len(self._times) - self.limit] + self.window - self.clock())
