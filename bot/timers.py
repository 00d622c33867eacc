"""Turn timers: a decision a person must make has a stored deadline; a warning goes out shortly before,
and when it passes a bot moves for them (``GameService.expire``). Deadlines live in the database, so a
restarted bot times the same decisions again (``resume``). A paused table (every person away) has no deadline;
its timer closes it once it has waited ``close_paused_after`` seconds (``GameService.close_idle``). A lobby nobody
changed for ``close_lobby_after`` seconds is closed too (``GameService.close_idle_lobby``): its host may have left
the server, which the bot cannot see without the members intent."""
from __future__ import annotations

import asyncio
import logging
import time
from typing import Awaitable, Callable

from .service import GameService
from .storage import GameStatus
from .table import Update, UpdateKind

log = logging.getLogger(__name__)
WARN_BEFORE = 30.0  # seconds left when the player is warned
CLOSE_PAUSED_AFTER = 7 * 86400.0  # seconds a paused table waits for someone to come back before it is closed
CLOSE_LOBBY_AFTER = 24 * 3600.0  # seconds a lobby nobody joins, leaves or starts stays open (0: for ever)


class TurnTimers:
    def __init__(self, service: GameService, *, warn_before: float = WARN_BEFORE,
                 close_paused_after: float = CLOSE_PAUSED_AFTER, close_lobby_after: float = CLOSE_LOBBY_AFTER,
                 clock: Callable[[], float] = time.time,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self.service = service
        self.warn_before = warn_before
        self.close_paused_after = close_paused_after
        self.close_lobby_after = close_lobby_after
        self.clock = clock
        self.sleep = sleep
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._expiring: set[asyncio.Future] = set()  # expiries under way (shielded from re-arming; close awaits)
        self._closed = False  # after close, updates still being delivered arm no timer (the storage closes next)
        service.subscribe(self.on_update)

    async def on_update(self, update: Update) -> None:
        if update.kind is not UpdateKind.WARNING and update.version == update.table.version:
            self.schedule(update.table.id)

    def schedule(self, game_id: int, touched_at: float | None = None) -> None:
        """(Re)arm the timer of a table for the deadline it has now; a table with none is left untimed. A lobby is
        timed from ``touched_at``, when it last changed (None: now)."""
        old = self._tasks.pop(game_id, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        if self._closed:
            return
        table = self.service._tables.get(game_id)
        if table is not None and table.paused and table.row.paused_at is not None:
            task = asyncio.create_task(self._close_later(game_id, table.row.paused_at))
        elif table is not None and table.status is GameStatus.LOBBY and self.close_lobby_after > 0:
            touched_at = self.clock() if touched_at is None else touched_at
            task = asyncio.create_task(self._close_lobby_later(game_id, table.version, touched_at))
        elif table is None or table.status is not GameStatus.RUNNING or table.row.deadline is None:
            return
        else:
            task = asyncio.create_task(self._run(game_id, table.version, table.row.deadline))
        self._tasks[game_id] = task
        task.add_done_callback(lambda done: self._drop_task(game_id, done))

    def _drop_task(self, game_id: int, done: asyncio.Task[None]) -> None:
        if self._tasks.get(game_id) is done:  # a timer that ran out keeps no entry
            del self._tasks[game_id]

    async def resume(self) -> int:
        """After a restart: time again every stored deadline, the wait of every paused table, and every open lobby
        from when it last changed."""
        self._closed = False  # resuming (re)opens closed timers
        ids = await self.service.tables_with_deadlines() + await self.service.tables_paused()
        for game_id in ids:
            await self.service.table(game_id)
            self.schedule(game_id)
        lobbies = await self.service.lobbies_touched()
        for game_id, touched_at in lobbies:
            await self.service.table(game_id)
            self.schedule(game_id, touched_at)
        return len(ids) + len(lobbies)

    async def _close_later(self, game_id: int, paused_at: float) -> None:
        await self._close_at(paused_at + self.close_paused_after, lambda: self.service.close_idle(game_id, paused_at),
                             "the paused table", game_id)

    async def _close_lobby_later(self, game_id: int, version: int, touched_at: float) -> None:
        await self._close_at(touched_at + self.close_lobby_after,
                             lambda: self.service.close_idle_lobby(game_id, version), "the idle lobby", game_id)

    async def _close_at(self, close_at: float, close: Callable[[], Awaitable[object]], what: str,
                        game_id: int) -> None:
        """Wait until ``close_at``, then ``close`` (shielded: re-arming this timer must not cut the close short)."""
        try:
            while self.clock() < close_at:
                await self.sleep(close_at - self.clock())
            closing = asyncio.ensure_future(close())
            self._expiring.add(closing)
            closing.add_done_callback(self._expiring.discard)
            await asyncio.shield(closing)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("closing %s %s failed", what, game_id)

    async def _run(self, game_id: int, version: int, deadline: float) -> None:
        try:
            table = await self.service.table(game_id)
            warn_at = deadline - self.warn_before
            if self.clock() < warn_at:
                await self.sleep(warn_at - self.clock())
                if table.version != version:
                    return
                self.service.warn(table)
            if self.clock() < deadline:
                await self.sleep(deadline - self.clock())
            # Shielded: re-arming the timer for the next decision must not cut a running expiry short.
            expiry = asyncio.ensure_future(self.service.expire(game_id, version))
            self._expiring.add(expiry)
            expiry.add_done_callback(self._expiring.discard)
            await asyncio.shield(expiry)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("turn timer of table %s failed", game_id)

    async def close(self) -> None:
        self._closed = True
        for task in self._tasks.values():
            task.cancel()
        await asyncio.gather(*self._tasks.values(), return_exceptions=True)
        self._tasks.clear()
        await asyncio.gather(*self._expiring, return_exceptions=True)
