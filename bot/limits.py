"""Limits that keep one member from making the bot do much (issue 32, "amplification"): who may create and start
tournaments, caps on what a tournament, a member and a server may have open or running, and how many things a
member may create a minute. Each server's admins change them with ``/config limits`` and ``/config organiser``.

The defaults are what a real community does not reach in normal play: a person hosts one or two tables at a time
(3), a busy server has a few dozen people at tables at once (25 lobbies, 25 running tables), a community
tournament fills its field with a handful of bots (16) over an evening (10 rounds), and nobody opens more than a
couple of lobbies, tables or tournaments a minute (3)."""
from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager
from enum import Enum

from annotated_types import Ge, Le
from discord import app_commands
from pydantic import BaseModel, ConfigDict, Field

from .errors import HostError

MINUTE = 60.0


class Cap(str, Enum):
    """A limit a server's admins may change: a field of ``Limits`` (and its column in ``guild_settings``)."""
    TOURNAMENT_BOTS = "tournament_bots"
    TOURNAMENT_ROUNDS = "tournament_rounds"
    LOBBIES_PER_MEMBER = "lobbies_per_member"
    LOBBIES_PER_SERVER = "lobbies_per_server"
    TABLES_PER_MEMBER = "tables_per_member"
    TABLES_PER_SERVER = "tables_per_server"
    CREATIONS_PER_MINUTE = "creations_per_minute"


class Limits(BaseModel):
    """One server's limits (the defaults until its admins change one): the one table of the caps. Each cap's
    default and the range an admin may choose (``ge``/``le``; the upper ends are what the bot itself can carry) are
    read from here by ``/config limits`` (generated from these fields), by storage (its columns) and by the
    commands whose options a cap bounds (``/tournament create``'s ``bots`` and ``rounds``)."""
    model_config = ConfigDict(frozen=True)

    tournament_bots: int = Field(16, ge=0, le=64)
    tournament_rounds: int = Field(10, ge=1, le=20)
    lobbies_per_member: int = Field(3, ge=1, le=25)
    lobbies_per_server: int = Field(25, ge=1, le=500)
    tables_per_member: int = Field(3, ge=1, le=25)
    tables_per_server: int = Field(25, ge=1, le=500)
    creations_per_minute: int = Field(3, ge=1, le=60)
    organiser_role_id: int | None = None

    def cap(self, cap: Cap) -> int:
        value: int = getattr(self, cap.value)
        return value

    def changed(self, changes: dict[Cap, int]) -> "Limits":
        """These limits with ``changes`` applied; a value outside its bounds is refused."""
        for cap, value in changes.items():
            low, high = BOUNDS[cap]
            if not low <= value <= high:
                raise HostError("limit.out_of_range", limit=cap.value, low=low, high=high)
        return self.model_copy(update={cap.value: value for cap, value in changes.items()})

    @classmethod
    def from_columns(cls, columns: dict[str, int | None]) -> "Limits":
        """From stored columns (NULL: the default)."""
        return cls(**{k: v for k, v in columns.items() if k in cls.model_fields and v is not None})


def bounds(name: str) -> tuple[int, int]:
    """The range a field of ``Limits`` may take (its ``ge`` and ``le``)."""
    metadata = Limits.model_fields[name].metadata
    low = next(m.ge for m in metadata if isinstance(m, Ge))
    high = next(m.le for m in metadata if isinstance(m, Le))
    return int(low), int(high)  # type: ignore[call-overload]  # annotated_types' bounds are the ints given above


# The range an admin may choose for each cap, read from the model.
BOUNDS: dict[Cap, tuple[int, int]] = {cap: bounds(cap.value) for cap in Cap}
assert {cap.value for cap in Cap} == set(Limits.model_fields) - {"organiser_role_id"}, "every cap is a field"


def refuse_over(cap: Cap, limits: Limits, count: int) -> None:
    """Refuse when ``count`` things already reach the cap (so one more would exceed it)."""
    if count >= limits.cap(cap):
        raise HostError(f"limit.{cap.value}", max=limits.cap(cap))


class CreationCooldowns:
    """Per member and server: how many lobbies, tables and tournaments they may create a minute. One bucket per
    member shared by ``/play``, Rematch and ``/tournament create`` (a member alternating between them gets no more),
    which is why this is not ``app_commands.checks.cooldown`` (one bucket per command, none for a button); the
    buckets are discord.py's own ``app_commands.Cooldown``. Buckets that refilled are dropped, so memory stays
    bounded by the members who created something in the last minute."""

    def __init__(self) -> None:
        self._buckets: dict[tuple[int | None, int], app_commands.Cooldown] = {}
        self._next_sweep = 0.0

    def hit(self, guild_id: int | None, user_id: int, per_minute: int, now: float | None = None) -> None:
        """Count one creation, or refuse it (``limit.cooldown``, with the seconds to wait) and count nothing."""
        now = time.time() if now is None else now
        self._sweep(now)
        key = (guild_id, user_id)
        bucket = self._buckets.get(key)
        if bucket is None or bucket.rate != per_minute:
            bucket = self._buckets[key] = app_commands.Cooldown(per_minute, MINUTE)
        retry_after = bucket.update_rate_limit(now)
        if retry_after:
            raise HostError("limit.cooldown", max=per_minute, seconds=max(1, round(retry_after)))

    def _sweep(self, now: float) -> None:
        if now < self._next_sweep:
            return
        self._next_sweep = now + MINUTE
        for key, bucket in list(self._buckets.items()):
            if bucket.get_tokens(now) == bucket.rate:
                del self._buckets[key]

    def __len__(self) -> int:
        return len(self._buckets)


class Gates:
    """One lock per key (a server), kept only while someone holds or waits for it, so memory does not grow with
    every server the bot ever saw. A cap is checked and what it counts is written under the server's gate: two
    ``/play`` at the same instant are counted one after the other (a count made before either was written let both
    through)."""

    def __init__(self) -> None:
        self._gates: dict[Hashable, tuple[asyncio.Lock, int]] = {}

    @asynccontextmanager
    async def hold(self, key: Hashable) -> AsyncIterator[None]:
        lock, users = self._gates.get(key, (asyncio.Lock(), 0))
        self._gates[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._gates[key]
            if users == 1:
                del self._gates[key]
            else:
                self._gates[key] = (lock, users - 1)

    def __len__(self) -> int:
        return len(self._gates)
