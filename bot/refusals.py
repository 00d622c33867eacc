"""Discord's answers to a table's writer, sorted: what each refusal means and how long to wait before trying again.

Discord bans a bot's IP for an hour after 10,000 invalid requests (401, 403, 429) in ten minutes, so every kind of
refusal has a defined reaction and a backoff of its own, and one process-wide budget (:class:`RefusalBudget`) keeps
all the writers together far below that limit, in shares: one server refusing everything never holds the writers
of another.
"""
from __future__ import annotations

import time
from collections import Counter, deque
from enum import Enum
from typing import Callable

import discord

from .discord_errors import (  # named once there; re-exported for the writers
    ARCHIVED,
    FAILURES,
    FOLLOWUP_LIMIT,
    INVALID_WEBHOOK_TOKEN,
    MISSING_ACCESS,
    MISSING_PERMISSIONS,
    THREAD_LIMIT,
    THREAD_LOCKED,
    TRANSPORT,
    UNKNOWN_CHANNEL,
    UNKNOWN_MESSAGE,
    UNKNOWN_WEBHOOK,
)

__all__ = ["ARCHIVED", "FAILURES", "MISSING_ACCESS", "MISSING_PERMISSIONS", "UNKNOWN_CHANNEL", "UNKNOWN_MESSAGE",
           "Backoff", "Refusal", "RefusalBudget", "classify", "retry_after"]


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
    TOKEN_GONE = "token_gone"  # 10015, 50027, 40094: the interaction token cannot write any more (wait for a press)
    INVALID = "invalid"  # anything else: Discord refuses the request itself, so trying again cannot help

    @property
    def unreachable(self) -> bool:
        """The table's channel cannot be written to until someone changes something in the server."""
        return self in (Refusal.LOCKED, Refusal.NO_ACCESS, Refusal.NO_PERMISSION)

    @property
    def retried(self) -> bool:
        """Discord (or the way to it) failed, or asked to wait: the same request goes through later."""
        return self in (Refusal.TRANSIENT, Refusal.RATE_LIMITED)

    @property
    def counts_as_invalid(self) -> bool:
        """Counted in the process-wide budget: every refusal but a server error or a broken connection (Discord
        counts 401, 403 and 429 answers; counting every 4xx leaves a margin)."""
        return self not in (Refusal.TRANSIENT,)


_CODES = {ARCHIVED: Refusal.ARCHIVED, THREAD_LOCKED: Refusal.LOCKED, MISSING_ACCESS: Refusal.NO_ACCESS,
          MISSING_PERMISSIONS: Refusal.NO_PERMISSION, UNKNOWN_CHANNEL: Refusal.CHANNEL_GONE,
          UNKNOWN_MESSAGE: Refusal.MESSAGE_GONE, THREAD_LIMIT: Refusal.THREAD_LIMIT,
          UNKNOWN_WEBHOOK: Refusal.TOKEN_GONE, INVALID_WEBHOOK_TOKEN: Refusal.TOKEN_GONE,
          FOLLOWUP_LIMIT: Refusal.TOKEN_GONE}


def classify(error: BaseException) -> Refusal:
    if isinstance(error, discord.RateLimited):
        return Refusal.RATE_LIMITED
    if isinstance(error, discord.HTTPException):
        if error.status == 429:
            return Refusal.RATE_LIMITED
        if error.status >= 500:
            return Refusal.TRANSIENT
        return _CODES.get(error.code, Refusal.INVALID)
    if isinstance(error, (*TRANSPORT, discord.DiscordServerError)):
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
    """Refused requests in a sliding window, counted for the whole process, per server and per table. Writers ask
    ``wait(guild_id)`` before writing. A server that reached its share (``server_limit`` refusals in ``window``
    seconds) holds back until its oldest refusal leaves the window, whatever the others do. When the process as a
    whole reaches ``limit`` (it can: many servers, each under its share), only the servers that caused it hold back:
    those at or over an even share of the limit among the servers refused in the window; a server with fewer
    refusals (or none) goes on. The default (500 in 10 minutes, 100 a server) is a twentieth of Discord's 10,000."""

    def __init__(self, limit: int = 500, window: float = 600.0, server_limit: int = 100,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limit, self.window, self.server_limit, self.clock = limit, window, server_limit, clock
        self._times: deque[tuple[float, int | None, int | None]] = deque()  # (when, server, table), oldest first
        self._servers: dict[int | None, deque[float]] = {}  # each server's refusals in the window, oldest first
        self._tables: Counter[int | None] = Counter()  # each table's refusals in the window
        self.total = 0  # every refusal counted since start (tests, logs)
        self.totals: Counter[int | None] = Counter()  # the same per server
        self._probed: dict[int | None, float] = {}  # when a held writer of each server last asked Discord
        self._held: dict[int | None, dict[int, Callable[[], None]]] = {}  # held writers' wakes, by server and table

    def _trim(self) -> None:
        cutoff = self.clock() - self.window
        while self._times and self._times[0][0] <= cutoff:
            _, server, table = self._times.popleft()
            times = self._servers[server]
            times.popleft()
            if not times:
                del self._servers[server]
            self._tables[table] -= 1
            if self._tables[table] <= 0:
                del self._tables[table]

    def refused(self, guild_id: int | None = None, table_id: int | None = None) -> None:
        now = self.clock()
        self._trim()
        self._times.append((now, guild_id, table_id))
        self._servers.setdefault(guild_id, deque()).append(now)
        self._tables[table_id] += 1
        self.total += 1
        self.totals[guild_id] += 1

    def wait(self, guild_id: int | None = None) -> float:
        """Seconds a writer of this server holds back before its next request (0: go ahead)."""
        self._trim()
        mine = self._servers.get(guild_id)
        if not mine:
            return 0.0
        now, waits = self.clock(), []
        if len(mine) >= self.server_limit:  # its own share is spent
            waits.append(mine[len(mine) - self.server_limit] + self.window - now)
        if len(self._times) >= self.limit and len(mine) * len(self._servers) >= self.limit:  # one of the causes
            waits.append(self._times[len(self._times) - self.limit][0] + self.window - now)
        return max(0.0, max(waits, default=0.0))

    def in_window(self) -> int:
        """Refusals of the whole process in the window now."""
        self._trim()
        return len(self._times)

    def of_server(self, guild_id: int | None) -> int:
        self._trim()
        return len(self._servers.get(guild_id, ()))

    def of_table(self, table_id: int | None) -> int:
        self._trim()
        return self._tables.get(table_id, 0)

    # ---- writers held because their channel refused them ---------------------------------------
    def may_probe(self, guild_id: int | None, every: float) -> bool:
        """Whether a held writer of this server may try a request now: the server's held writers together try at
        most once every ``every`` seconds (one probe tells for all: see ``reachable``)."""
        now = self.clock()
        last = self._probed.get(guild_id)
        if last is not None and now - last < every:
            return False
        if len(self._probed) >= 1000:  # servers that stopped probing leave
            self._probed = {g: at for g, at in self._probed.items() if now - at < every}
        self._probed[guild_id] = now
        return True

    def changed(self, guild_id: int | None) -> None:
        """Discord told of a change in the server (an event): its held writers may ask once now, whenever they
        last did (one request for the server, however many writers the event woke)."""
        self._probed.pop(guild_id, None)

    def hold(self, guild_id: int | None, table_id: int, wake: Callable[[], None]) -> None:
        """A writer of this server is held (its channel refused it): ``wake`` once another writer there gets
        through."""
        self._held.setdefault(guild_id, {})[table_id] = wake

    def reachable(self, guild_id: int | None, table_id: int) -> None:
        """A held writer of this server wrote again: the others held there try again now."""
        held = self._held.pop(guild_id, {})
        held.pop(table_id, None)
        for wake in held.values():
            wake()
