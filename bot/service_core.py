"""What every part of the game service shares: storage, the loaded tables, publishing, and the table changes the
parts have in common (dealing, pausing, ending, the turn deadline).

``GameService`` (``bot/service.py``) owns one ``ServiceCore`` and gives it to its parts (``service_lobby.Lobbies``,
``service_seats.Seats``) when it builds them; they change tables only through it.
"""
from __future__ import annotations

import asyncio
import logging
import secrets
import time
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable

from engines import Json, get_engine

from .errors import HostError
from .games import engine_hooks
from .storage import GameStatus, SeatRow, Storage, VersionConflict
from .table import ACTIVE, EndReason, Table, Update, UpdateKind

log = logging.getLogger(__name__)
Listener = Callable[[Update], Awaitable[None]]

IDLE_TABLES_KEPT = 256  # finished or cancelled tables kept loaded (the least recently used leave first)


@dataclass
class _Loading:
    """One game being loaded: later callers wait for its lock, then find it loaded; gone once nobody waits."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    waiting: int = 0


class ServiceCore:
    def __init__(self, storage: Storage, *, clock: Callable[[], float] = time.time) -> None:
        self.storage = storage
        self.clock = clock
        self.new_seed: Callable[[], int] = lambda: secrets.randbits(62)  # tests make deals reproducible
        self._tables: OrderedDict[int, Table] = OrderedDict()  # active tables, and recently used idle ones
        self._live: weakref.WeakValueDictionary[int, Table] = weakref.WeakValueDictionary()  # every Table in use
        self._loading: dict[int, _Loading] = {}
        self.idle_tables_kept = IDLE_TABLES_KEPT
        self._busy_tables = 0  # tables that could not be evicted at the last eviction
        self._listeners: list[Listener] = []
        self._publishing: dict[int, asyncio.Task[None]] = {}

    # ---- listeners -----------------------------------------------------------------
    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def _publish(self, update: Update) -> None:
        """Deliver updates to listeners in commit order per table, without holding the table lock."""
        previous = self._publishing.get(update.table.id)

        async def deliver() -> None:
            if previous is not None:
                await asyncio.wait([previous])
            for listener in list(self._listeners):
                try:
                    await listener(update)
                except Exception:
                    log.exception("listener failed on table %s update %s", update.table.id, update.kind)

        game_id = update.table.id

        def forget(done: asyncio.Task[None]) -> None:
            if self._publishing.get(game_id) is done:
                self._publishing.pop(game_id)

        task = asyncio.create_task(deliver())
        self._publishing[game_id] = task
        task.add_done_callback(forget)

    async def drain(self) -> None:
        """Wait until every published update has been delivered (tests, demo, shutdown)."""
        while self._publishing:
            await asyncio.wait(list(self._publishing.values()))

    def changed(self, table: Table, kind: UpdateKind, events: list[Any] | None = None, actor: str | None = None,
                reason: EndReason | None = None, *, logged: bool = False) -> Update:
        update = Update(table, kind, table.version, list(events or []), actor, reason, logged,
                        state_text=table.row.state)
        self._publish(update)
        return update

    # ---- loading -------------------------------------------------------------------
    async def table(self, game_id: int) -> Table:
        table = self._cached(game_id)
        if table is not None:
            return table
        if not 0 < game_id < 2 ** 63:  # a forged id no BIGINT column can hold
            raise HostError("no_such_game", game_id=game_id)
        loading = self._loading.setdefault(game_id, _Loading())
        loading.waiting += 1
        try:
            async with loading.lock:
                return self._cached(game_id) or await self._load(game_id)
        finally:  # found or not, the lock leaves with its last waiter: an unknown id leaves nothing behind
            loading.waiting -= 1
            if not loading.waiting:
                del self._loading[game_id]

    async def _load(self, game_id: int) -> Table:
        row = await self.storage.get_game(game_id)
        if row is None:
            raise HostError("no_such_game", game_id=game_id)
        state = get_engine(row.game).load(row.state) if row.state else None
        table = self._tables[game_id] = self._live[game_id] = Table(row, state)
        self._evict_idle()
        return table

    def _cached(self, game_id: int) -> Table | None:
        """The loaded table (now the most recently used), also one evicted from the cache but still held."""
        table = self._tables.get(game_id)
        if table is not None:
            self._tables.move_to_end(game_id)
            return table
        table = self._live.get(game_id)
        if table is not None:
            self._tables[game_id] = table
            self._evict_idle()
        return table

    # There is never more than one live Table object per game: code holds one across awaits and serialises on
    # its lock. Only idle tables leave the cache (not lobby or running, lock free, no update being published),
    # eviction drops only the cache's own reference, and ``_live`` hands the same object back for as long as
    # anything still holds it; a game is read from the database again only once nothing does.
    def _idle(self, table: Table) -> bool:
        return table.status not in ACTIVE and not table.lock.locked() and table.id not in self._publishing

    def _evict_idle(self) -> None:
        """Keep at most ``idle_tables_kept`` idle tables loaded, the most recently used. Lobbies and running
        tables stay (their number is bounded by the limits on creating them)."""
        if len(self._tables) <= self._busy_tables + self.idle_tables_kept:
            return
        idle = [game_id for game_id, table in self._tables.items() if self._idle(table)]  # oldest first
        for game_id in idle[:max(0, len(idle) - self.idle_tables_kept)]:
            del self._tables[game_id]
        self._busy_tables = len(self._tables) - min(len(idle), self.idle_tables_kept)

    async def tables_in_channel(self, channel_id: int) -> list[Table]:
        ids = await self.storage.game_ids(status=ACTIVE, channel_id=channel_id)
        return [await self.table(i) for i in ids]

    def forget(self, game_id: int) -> None:
        """Drop a table from the cache (its rows stay in the database; a Table still held elsewhere stays the
        game's one live object, see ``_idle``)."""
        self._tables.pop(game_id, None)

    async def refuse_if_seated(self, channel_id: int, user_id: int, *, except_game: int | None = None) -> None:
        for other in await self.tables_in_channel(channel_id):
            if other.id != except_game and other.seat_of_user(user_id) is not None:
                raise HostError("already_seated", game_id=other.id)

    # ---- what the parts share: the deadline, dealing, pausing, ending ----------------------
    def deadline(self, table: Table, state: Any, seats: list[SeatRow] | None = None, *,
                 paused: bool | None = None) -> float | None:
        """When the decision now due runs out: only while a person (not a bot) must decide, and never while the
        table is paused (``paused``: whether it will be once this write commits; None: as it is now)."""
        paused = table.paused if paused is None else paused
        if table.row.turn_seconds <= 0 or table.clock_paused or paused or table.engine.result(state) is not None:
            return None
        bots = {s.player for s in (seats or table.seats) if s.is_bot}
        if all(p in bots for p in table.engine.to_act(state)):
            return None
        return self.clock() + table.row.turn_seconds

    @staticmethod
    def bot_to_act(table: Table, state: Any, seats: list[SeatRow] | None = None) -> bool:
        bots = {s.player for s in (seats or table.seats) if s.is_bot}
        return any(p in bots for p in table.engine.to_act(state))

    @staticmethod
    def abandoned(seats: list[SeatRow]) -> bool:
        """Every person who sat at the table has left (or is away): nobody is left to play for."""
        people = [s for s in seats if s.user_id is not None]
        return bool(people) and all(s.is_bot for s in people)

    @classmethod
    def everyone_away(cls, seats: list[SeatRow]) -> bool:
        """No person plays at the table, and one of them is only away (they may come back): it pauses, not closes."""
        return cls.abandoned(seats) and any(s.away for s in seats if s.user_id is not None)

    async def plays_on(self, table: Table) -> bool:
        """A tournament's table plays on with bots when its people are away or gone, and never pauses: its round
        waits for it. A casual table pauses instead (or closes when nobody is left)."""
        return await self.storage.tournaments.tournament_of_game(table.id) is not None

    async def begin(self, table: Table, options: Json | None = None) -> Update:
        """Deal the game for the seated players, with the table's options or ``options`` instead (stored with the
        game, which replays from them); the table is running once this commits."""
        engine = table.engine
        chosen = table.row.options if options is None else options
        state = engine.new_game([s.player for s in table.seats], seed=table.row.seed, options=chosen)
        deadline = self.deadline(table, state)
        text = engine.dump(state)
        await self.storage.start_game(table.id, state=text, expected_version=table.version,
                                      bot_to_act=self.bot_to_act(table, state), deadline=deadline,
                                      engine_version=engine.version, options=options)
        table.committed(bumped=True, state=state, state_text=text, status=GameStatus.RUNNING, deadline=deadline,
                        engine_version=engine.version, options=chosen)
        start_events = engine_hooks(table.row.game).start_events  # public events announcing the deal
        return self.changed(table, UpdateKind.STARTED, start_events(state) if start_events else [])

    async def pause(self, table: Table, seats: list[SeatRow], actor: str | None = None) -> Update:
        """Every person at the table is away: store the seats and the pause, no deadline, no bot to move."""
        now = self.clock()
        try:
            await self.storage.replace_seats(table.id, seats, expected_version=table.version, bot_to_act=False,
                                             deadline=None, paused_at=now)
        except VersionConflict:
            raise HostError("stale") from None
        table.committed(bumped=True, seats=seats, deadline=None, paused_at=now)
        return self.changed(table, UpdateKind.PAUSED, actor=actor)

    async def finish(self, table: Table, status: GameStatus, *, reason: EndReason | None = None,
                     actor: str | None = None) -> Update:
        try:  # the reason is stored with the end: a restart tells the same reason
            await self.storage.update_game(table.id, expected_version=table.version, bump=True, status=status,
                                           deadline=None, end_reason=reason)
        except VersionConflict:
            raise HostError("stale") from None
        table.committed(bumped=True, status=status, deadline=None, end_reason=reason)
        return self.changed(table, UpdateKind.ENDED, actor=actor, reason=reason)
