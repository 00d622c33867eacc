"""The game service: the only door to games.

Every change runs under the table's lock, is checked (seat, turn, version), applied by the
engine, committed in one database transaction, and only then copied into memory (``Table.committed``),
published to listeners and acknowledged to the caller. A failed check or commit leaves memory and
database unchanged. Lobbies are ``service_lobby.LobbyOps``, seat changes of running tables
``service_seats.SeatOps``; moves, timers, notices and loading are here.
"""
from __future__ import annotations

import asyncio
import json
import logging
import random
import secrets
import time
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from typing import Any, Awaitable, Callable

from engines import Action, EngineError, get_engine

from .errors import HostError
from .games import engine_hooks
from .policies import choose_action
from .service_lobby import LobbyOps
from .service_seats import SeatOps
from .storage import SeatRow, ShardFilter, Storage, VersionConflict
from .storage.rows import BoardShown
from .table import ACTIVE, EndReason, Table, Update, UpdateKind

log = logging.getLogger(__name__)
Listener = Callable[[Update], Awaitable[None]]


TIMEOUTS_BEFORE_AWAY = 3  # decisions in a row that run out of time before a bot takes the seat
IDLE_TABLES_KEPT = 256  # finished or cancelled tables kept loaded (the least recently used leave first)


@dataclass
class _Loading:
    """One game being loaded: later callers wait for its lock, then find it loaded; gone once nobody waits."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    waiting: int = 0


class GameService(LobbyOps, SeatOps):
    def __init__(self, storage: Storage, *, clock: Callable[[], float] = time.time) -> None:
        self.storage = storage
        self.clock = clock
        self.shards: ShardFilter | None = None  # restart work covers only these shards' tables (None: all)
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

    def _changed(self, table: Table, kind: UpdateKind, events: list[Any] | None = None, actor: str | None = None,
                 reason: EndReason | None = None) -> Update:
        public = table.view(None) if table.state is not None else None
        update = Update(table, kind, table.version, list(events or []), actor, public, reason)
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

    async def last_finished_in_channel(self, channel_id: int) -> Table | None:
        ids = await self.storage.game_ids(status=("finished",), channel_id=channel_id)
        return await self.table(ids[-1]) if ids else None

    async def tables_waiting_on_bots(self) -> list[int]:
        return await self.storage.waiting_on_bots(self.shards)

    def forget(self, game_id: int) -> None:
        """Drop a table from the cache (its rows stay in the database; a Table still held elsewhere stays the
        game's one live object, see ``_idle``)."""
        self._tables.pop(game_id, None)

    def _deadline(self, table: Table, state: Any, seats: list[SeatRow] | None = None, *,
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
    def _bot_to_act(table: Table, state: Any, seats: list[SeatRow] | None = None) -> bool:
        bots = {s.player for s in (seats or table.seats) if s.is_bot}
        return any(p in bots for p in table.engine.to_act(state))

    async def _begin(self, table: Table) -> Update:
        """Deal the game for the seated players; the table is running once this commits."""
        engine = table.engine
        state = engine.new_game([s.player for s in table.seats], seed=table.row.seed, options=table.row.options)
        deadline = self._deadline(table, state)
        await self.storage.start_game(table.id, state=engine.dump(state), expected_version=table.version,
                                      bot_to_act=self._bot_to_act(table, state), deadline=deadline)
        table.committed(bumped=True, state=state, status="running", deadline=deadline)
        start_events = engine_hooks(table.row.game).start_events  # public events announcing the deal
        return self._changed(table, UpdateKind.STARTED, start_events(state) if start_events else [])

    # ---- playing -------------------------------------------------------------------
    async def act(self, game_id: int, user_id: int, action: Action | dict[str, Any],
                  expected_version: int | None) -> Update:
        """A human's move. ``expected_version`` comes from the control clicked (None: no check)."""
        table = await self.table(game_id)
        if table.paused:  # every seat's person is away: the table waits for one to resume it
            raise HostError("table_paused")
        seat = table.seat_of_user(user_id)
        if seat is None:
            raise HostError("not_seated")
        return await self.act_as(game_id, seat.player, action, expected_version)

    async def act_as(self, game_id: int, player: str, action: Action | dict[str, Any],
                     expected_version: int | None) -> Update:
        table = await self.table(game_id)
        async with table.lock:
            if table.status != "running":
                raise HostError("game_not_running")
            if table.paused:
                raise HostError("table_paused")
            if expected_version is not None and expected_version != table.version:
                raise HostError("stale")
            engine = table.engine
            state, events = engine.apply(table.state, player, action)
            action_model = action if isinstance(action, Action) else engine.parse_action(action)
            seat = table.seat_of(player)
            # A person's own move clears their run of timeouts.
            reset = replace(seat, timeouts=0) if seat and not seat.is_bot and seat.timeouts else None
            # Shielded: once the write is on its way, memory follows the database even if the caller goes away.
            return await asyncio.shield(self._commit(table, player, action_model, state, events, reset))

    async def _commit(self, table: Table, player: str, action: Action, state: Any, events: list,
                      seat: SeatRow | None = None, kind: UpdateKind = UpdateKind.ACTION) -> Update:
        engine = table.engine
        over = engine.result(state) is not None
        notices = [(p, ev.model_dump_json()) for ev in events if ev.visible_to for p in ev.visible_to]
        seats = [seat if seat is not None and s.seat == seat.seat else s for s in table.seats]
        deadline = self._deadline(table, state, seats)
        shown = self._told_after(table, state, seats)
        try:
            await self.storage.commit_action(
                table.id, expected_version=table.version, player=player, action=action.model_dump(mode="json"),
                state=engine.dump(state), status="finished" if over else "running", notices=notices,
                bot_to_act=self._bot_to_act(table, state, seats), deadline=deadline, seat=seat, board_shown=shown)
        except VersionConflict:
            raise HostError("stale") from None
        table.committed(bumped=True, state=state, seats=seats, deadline=deadline,
                        status="finished" if over else table.status, board_shown=shown or table.row.board_shown)
        return self._changed(table, UpdateKind.ENDED if over else kind, events, player)

    @staticmethod
    def _told_after(table: Table, state: Any, seats: list[SeatRow]) -> BoardShown | None:
        """People whose turn this move ends were told of that turn, not of their next one: the stored record of who
        was told forgets them in the move's own commit (a restart then pings their next turn). None: unchanged."""
        told = table.row.board_shown.told
        acting = {s.user_id for s in seats if s.player in table.engine.to_act(state) and not s.is_bot}
        if set(told) <= acting:
            return None
        return replace(table.row.board_shown, told=[u for u in told if u in acting])

    # ---- turn timers (seat changes of a running table: ``SeatOps``) ---------------------------------------
    def warn(self, table: Table) -> None:
        """Tell listeners that the decision now due is about to run out (nothing is stored)."""
        self._changed(table, UpdateKind.WARNING)

    async def expire(self, game_id: int, expected_version: int) -> list[Update]:
        """The decision due at ``expected_version`` ran out: a bot moves for each person who had to decide.
        After ``TIMEOUTS_BEFORE_AWAY`` in a row the seat goes to a bot until its player comes back — unless that
        leaves every person at the table away: then nobody moves, and the table pauses until one comes back."""
        table = await self.table(game_id)
        updates: list[Update] = []
        async with table.lock:
            if table.status != "running" or table.version != expected_version or table.row.deadline is None:
                return updates
            late = [p for p in table.to_act() if not table.is_bot(p)]
            after = [replace(s, timeouts=s.timeouts + 1, is_bot=True, away=True)
                     if s.player in late and s.timeouts + 1 >= TIMEOUTS_BEFORE_AWAY else s for s in table.seats]
            if late and self._everyone_away(after):
                updates.append(await asyncio.shield(self._pause(table, after)))
                return updates
            for player in late:
                if player not in table.to_act() or table.status != "running":
                    continue
                seat = table.seat_of(player)
                assert seat is not None
                timeouts = seat.timeouts + 1
                away = timeouts >= TIMEOUTS_BEFORE_AWAY
                rng = random.Random(f"{table.row.seed}:{table.version}:{player}:timeout")
                action = choose_action(table.engine, table.state, player, rng)
                state, events = table.engine.apply(table.state, player, action)
                changed = replace(seat, timeouts=timeouts, is_bot=away or seat.is_bot, away=away)
                updates.append(await asyncio.shield(
                    self._commit(table, player, action, state, events, changed, kind=UpdateKind.TIMEOUT)))
        return updates

    async def _pause(self, table: Table, seats: list[SeatRow], actor: str | None = None) -> Update:
        """Every person at the table is away: store the seats and the pause, no deadline, no bot to move."""
        now = self.clock()
        try:
            await self.storage.replace_seats(table.id, seats, expected_version=table.version, bot_to_act=False,
                                             deadline=None, paused_at=now)
        except VersionConflict:
            raise HostError("stale") from None
        table.committed(bumped=True, seats=seats, deadline=None, paused_at=now)
        return self._changed(table, UpdateKind.PAUSED, actor=actor)

    async def close_idle(self, game_id: int, paused_at: float) -> Update | None:
        """A table paused at ``paused_at`` that nobody resumed is closed; its game stays stored, without a result."""
        table = await self.table(game_id)
        async with table.lock:
            if not table.paused or table.row.paused_at != paused_at:
                return None  # resumed (or ended) meanwhile
            return await self._finish(table, "cancelled", reason=EndReason.IDLE)

    async def tables_paused(self) -> list[int]:
        return await self.storage.paused(self.shards)

    async def lobbies_touched(self) -> list[tuple[int, float]]:
        return await self.storage.lobbies(self.shards)

    async def tables_with_deadlines(self) -> list[int]:
        return await self.storage.with_deadlines(self.shards)

    @staticmethod
    def _abandoned(seats: list[SeatRow]) -> bool:
        """Every person who sat at the table has left (or is away): nobody is left to play for."""
        people = [s for s in seats if s.user_id is not None]
        return bool(people) and all(s.is_bot for s in people)

    @classmethod
    def _everyone_away(cls, seats: list[SeatRow]) -> bool:
        """No person plays at the table, and one of them is only away (they may come back): it pauses, not closes."""
        return cls._abandoned(seats) and any(s.away for s in seats if s.user_id is not None)

    async def _finish(self, table: Table, status: str, *, reason: EndReason | None = None,
                      actor: str | None = None) -> Update:
        try:
            await self.storage.update_game(table.id, expected_version=table.version, bump=True, status=status,
                                           deadline=None)
        except VersionConflict:
            raise HostError("stale") from None
        table.committed(bumped=True, status=status, deadline=None)
        return self._changed(table, UpdateKind.ENDED, actor=actor, reason=reason)

    async def peek_notices(self, table: Table, player: str) -> tuple[list[dict[str, Any]], int | None]:
        """A player's pending private events and the id to acknowledge once they were shown (``ack_notices``);
        they stay stored until then, so a view that never reached the player loses nothing."""
        rows = await self.storage.peek_notices(table.id, player)
        return [json.loads(event) for _, event in rows], (rows[-1][0] if rows else None)

    async def ack_notices(self, table: Table, player: str, up_to_id: int | None) -> None:
        if up_to_id is not None:
            await self.storage.drop_notices(table.id, player, up_to_id)

    # ---- when the table's channel cannot be reached ----------------------------------------
    async def pause_clock(self, game_id: int) -> None:
        """Stop the table's turn clock: nobody is timed out by a table they cannot see. Bots still move."""
        table = await self.table(game_id)
        async with table.lock:
            if table.clock_paused or table.status != "running":
                return
            table.clock_paused = True
            if table.row.deadline is not None:
                await self.storage.update_game(table.id, expected_version=table.version, deadline=None)
                table.committed(bumped=False, deadline=None)
            self._changed(table, UpdateKind.CLOCK)

    async def resume_clock(self, game_id: int) -> None:
        """The channel is reachable again: the decision now due gets its full time afresh."""
        table = await self.table(game_id)
        async with table.lock:
            if not table.clock_paused:
                return
            table.clock_paused = False
            if table.status != "running":
                return
            deadline = self._deadline(table, table.state)
            if deadline is not None:
                await self.storage.update_game(table.id, expected_version=table.version, deadline=deadline)
                table.committed(bumped=False, deadline=deadline)
            self._changed(table, UpdateKind.CLOCK)

    async def note_output(self, table: Table, **fields: Any) -> None:
        """Record what the table's players were shown (``Storage.note_output``: board message, results, tidy end);
        memory follows once it is stored."""
        await self.storage.note_output(table.id, **fields)
        table.committed(bumped=False, **fields)

    async def tables_to_show(self) -> list[int]:
        return await self.storage.tables_to_show(self.shards)

    async def set_message(self, table: Table, **ids: int) -> None:
        """Remember the lobby/board message ids (so a restarted bot edits the same messages); under the table's
        lock, checked against its version (another process changing the table makes this fail, not overwrite)."""
        await self._note(table, **ids)

    async def settle_thread(self, table: Table, thread_id: int | None) -> None:
        """A table that was to move to a thread at its start: it now plays in ``thread_id`` (its lobby stays in
        the channel), or, with None, in its channel. Stored before anything is written there, so a restarted bot
        writes to the same place."""
        fields: dict[str, object] = {"open_thread": False}
        if thread_id is not None:
            fields |= {"channel_id": thread_id, "lobby_channel_id": table.row.channel_id}
        await self._note(table, **fields)

    async def leave_thread(self, table: Table) -> None:
        """The table's thread was deleted: it plays on in its lobby's channel, with a new board message there."""
        if table.row.lobby_channel_id:
            await self._note(table, channel_id=table.row.lobby_channel_id, lobby_channel_id=None,
                             board_message_id=None)

    async def end_gone(self, game_id: int) -> Update | None:
        """The table's channel was deleted: it ends (its game stays stored, without a result)."""
        table = await self.table(game_id)
        async with table.lock:
            if table.status not in ACTIVE:
                return None
            return await self._finish(table, "cancelled", reason=EndReason.CHANNEL_GONE)

    async def _note(self, table: Table, **fields: Any) -> None:
        """Store fields that are not a move (no version bump) under the table's lock, checked against its version
        (another process changing the table makes this fail, not overwrite)."""
        async with table.lock:
            try:
                await self.storage.update_game(table.id, expected_version=table.version, bump=False, **fields)
            except VersionConflict:
                raise HostError("stale") from None
            table.committed(bumped=False, **fields)


__all__ = ["GameService", "EngineError", "HostError"]
