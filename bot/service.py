"""The game service: the only door to games.

Every change runs under the table's lock, is checked (seat, turn, version), applied by the
engine, committed in one database transaction, and only then copied into memory (``Table.committed``),
published to listeners and acknowledged to the caller. A failed check or commit leaves memory and
database unchanged. A move changes the table's own state in place (``Table.move``, no copy): until its commit
ends the lock stays held and ``Table.state`` reads as the committed state; a refusal or a failed commit takes
the stored state back. The service is built of parts: what they share (storage, loading, publishing, dealing,
pausing, ending) is ``service_core.ServiceCore``; lobbies are ``service_lobby.Lobbies``, seat changes of running
tables ``service_seats.Seats``; moves, timers, notices and what the players were shown are here.
"""
from __future__ import annotations

import asyncio
import random
import time
from dataclasses import replace
from typing import Any, Callable, Coroutine

from engines import Action, EngineError, Event, Json

from .errors import HostError
from .place import back_from_thread, moved_to_thread, place_of
from .policies import choose_action
from .service_core import ServiceCore
from .service_lobby import Lobbies
from .service_seats import Seats
from .storage import GameStatus, SeatRow, ShardFilter, Storage, VersionConflict
from .storage.rows import BoardShown
from .table import ACTIVE, EndReason, Table, Update, UpdateKind

TIMEOUTS_BEFORE_AWAY = 3  # decisions in a row that run out of time before a bot takes the seat


def away_after(seat: SeatRow, tournament: bool) -> int:
    """Timeouts in a row before a bot takes the seat: at a tournament's table, one for a person who has not moved
    there yet (a no-show must not hold the round up three times over)."""
    return 1 if tournament and not seat.showed_up else TIMEOUTS_BEFORE_AWAY


class GameService:
    def __init__(self, storage: Storage, *, clock: Callable[[], float] = time.time) -> None:
        self.core = ServiceCore(storage, clock=clock)
        self.storage = storage
        self.shards: ShardFilter | None = None  # restart work covers only these shards' tables (None: all)
        self.lobbies = lobbies = Lobbies(self.core)
        self.seats = seats = Seats(self.core, lobbies)
        # The public calls of the core and of the parts, callable on the service (bound methods: typed as theirs).
        core = self.core
        self.subscribe, self.drain, self.forget = core.subscribe, core.drain, core.forget
        self.table, self.tables_in_channel = core.table, core.tables_in_channel
        self.create_lobby, self.join, self.leave_lobby = lobbies.create_lobby, lobbies.join, lobbies.leave_lobby
        self.remove_seat, self.add_bot, self.start = lobbies.remove_seat, lobbies.add_bot, lobbies.start
        self.close_idle_lobby, self.rematch = lobbies.close_idle_lobby, lobbies.rematch
        self.create_bot_table, self.create_seated_table = lobbies.create_bot_table, lobbies.create_seated_table
        self.come_back, self.kick, self.hand_to_bot = seats.come_back, seats.kick, seats.hand_to_bot
        self.end, self.set_turn_seconds = seats.end, seats.set_turn_seconds
        # The core's cache and the updates it is publishing (the same dicts, never rebound): the turn timers, the
        # memory soak and tests look into them.
        self._tables, self._loading, self._publishing = core._tables, core._loading, core._publishing

    # ---- the core's settings (tests make deals reproducible and set the clock; the soak keeps fewer idle tables) --
    @property
    def clock(self) -> Callable[[], float]:
        return self.core.clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:
        self.core.clock = clock

    @property
    def new_seed(self) -> Callable[[], int]:
        return self.core.new_seed

    @new_seed.setter
    def new_seed(self, new_seed: Callable[[], int]) -> None:
        self.core.new_seed = new_seed

    @property
    def idle_tables_kept(self) -> int:
        return self.core.idle_tables_kept

    @idle_tables_kept.setter
    def idle_tables_kept(self, count: int) -> None:
        self.core.idle_tables_kept = count

    # ---- finding tables -------------------------------------------------------------
    async def last_finished_in_channel(self, channel_id: int) -> Table | None:
        ids = await self.storage.game_ids(status=(GameStatus.FINISHED,), channel_id=channel_id)
        return await self.table(ids[-1]) if ids else None

    async def tables_waiting_on_bots(self) -> list[int]:
        return await self.storage.waiting_on_bots(self.shards)

    # ---- playing -------------------------------------------------------------------
    async def act(self, game_id: int, user_id: int, action: Action | Json,
                  expected_version: int | None) -> Update:
        """A human's move. ``expected_version`` comes from the control clicked (None: no check)."""
        table = await self.table(game_id)
        if table.paused:  # every seat's person is away: the table waits for one to resume it
            raise HostError("table_paused")
        seat = table.seat_of_user(user_id)
        if seat is None:
            raise HostError("not_seated")
        return await self.act_as(game_id, seat.player, action, expected_version)

    async def act_as(self, game_id: int, player: str, action: Action | Json,
                     expected_version: int | None) -> Update:
        table = await self.table(game_id)
        await table.lock.acquire()
        try:
            if table.status is not GameStatus.RUNNING:
                raise HostError("game_not_running")
            if table.paused:
                raise HostError("table_paused")
            if expected_version is not None and expected_version != table.version:
                raise HostError("stale")
            action_model = action if isinstance(action, Action) else table.engine.parse_action(action)
            seat = table.seat_of(player)
            # A person's own move clears their run of timeouts; their first one says they showed up.
            reset = None
            if seat is not None and not seat.is_bot and (seat.timeouts or not seat.showed_up):
                reset = replace(seat, timeouts=0, showed_up=True)
            events = table.move(player, action_model)  # in place, no copy: a refusal takes the stored state back
        except BaseException:
            table.lock.release()
            raise
        return await self._commit_locked(table, self._commit(table, player, action_model, table.moved, events, reset))

    @staticmethod
    async def _commit_locked(table: Table, commit: Coroutine[Any, Any, Update]) -> Update:
        """Run ``commit`` shielded (once the write is on its way, memory follows the database even if the caller
        goes away) and release the table's lock, which the caller holds, only once it has ended: until then the
        table's state is the one being committed, changed in place, and no other change may start from it."""
        task = asyncio.ensure_future(commit)
        task.add_done_callback(lambda _: table.lock.release())
        return await asyncio.shield(task)

    async def _commit(self, table: Table, player: str, action: Action, state: Any, events: list,
                      seat: SeatRow | None = None, kind: UpdateKind = UpdateKind.ACTION) -> Update:
        """Store the move that made ``state`` (the table's own state changed in place: ``Table.move``, or a new
        one) and bring memory in line; if it cannot be stored, the table's state is the stored one again."""
        engine = table.engine
        try:
            over = engine.result(state) is not None
            seats = [seat if seat is not None and s.seat == seat.seat else s for s in table.seats]
            deadline = self.core.deadline(table, state, seats)
            shown = self._told_after(table, state, seats)
            text = engine.dump(state)
            mover = table.seat_of(player)  # as it was before this move: a bot playing a person's seat stands in
            stand_in = kind is UpdateKind.TIMEOUT or (mover is not None and mover.is_bot and mover.user_id is not None)
            await self.storage.commit_action(
                table.id, expected_version=table.version, player=player, action=action.model_dump(mode="json"),
                state=text, status=GameStatus.FINISHED if over else GameStatus.RUNNING,
                notices=[(p, ev.model_dump_json()) for ev in events if ev.visible_to for p in ev.visible_to],
                bot_to_act=self.core.bot_to_act(table, state, seats), deadline=deadline, seat=seat, board_shown=shown,
                stand_in=stand_in)
        except BaseException as error:
            if table.moving:
                table.restore()
            if isinstance(error, VersionConflict):
                raise HostError("stale") from None
            raise
        table.committed(bumped=True, state=state, state_text=text, seats=seats, deadline=deadline,
                        status=GameStatus.FINISHED if over else table.status,
                        board_shown=shown or table.row.board_shown, moves=table.row.moves + 1)
        return self.core.changed(table, UpdateKind.ENDED if over else kind, events, player, logged=True)

    @staticmethod
    def _told_after(table: Table, state: Any, seats: list[SeatRow]) -> BoardShown | None:
        """People whose turn this move ends were told of that turn, not of their next one: the stored record of who
        was told forgets them in the move's own commit (a restart then pings their next turn). None: unchanged."""
        told = table.row.board_shown.told
        acting = {s.user_id for s in seats if s.player in table.engine.to_act(state) and not s.is_bot}
        if set(told) <= acting:
            return None
        return replace(table.row.board_shown, told=[u for u in told if u in acting])

    # ---- turn timers (seat changes of a running table: ``Seats``) ---------------------------------------
    def warn(self, table: Table) -> None:
        """Tell listeners that the decision now due is about to run out (nothing is stored)."""
        self.core.changed(table, UpdateKind.WARNING)

    async def expire(self, game_id: int, expected_version: int) -> list[Update]:
        """The decision due at ``expected_version`` ran out: a bot moves for each person who had to decide.
        After ``TIMEOUTS_BEFORE_AWAY`` in a row the seat goes to a bot until its player comes back — unless that
        leaves every person at the table away: then nobody moves, and the table pauses until one comes back.
        A tournament's table never pauses (its round would wait): its bots play every seat to the end, and a
        person who has not shown up there at all (no move of their own yet) is handed to a bot at the first
        timeout (``away_after``)."""
        table = await self.table(game_id)
        updates: list[Update] = []
        async with table.lock:
            if (table.status is not GameStatus.RUNNING or table.version != expected_version
                    or table.row.deadline is None):
                return updates
            late = [p for p in table.to_act() if not table.is_bot(p)]
            plays_on = bool(late) and await self.core.plays_on(table)
            after = [replace(s, timeouts=s.timeouts + 1, is_bot=True, away=True)
                     if s.player in late and s.timeouts + 1 >= away_after(s, plays_on) else s for s in table.seats]
            if late and self.core.everyone_away(after) and not plays_on:
                updates.append(await asyncio.shield(self.core.pause(table, after)))
                return updates
            for player in late:
                if player not in table.to_act() or table.status is not GameStatus.RUNNING:
                    continue
                seat = table.seat_of(player)
                assert seat is not None
                timeouts = seat.timeouts + 1
                away = timeouts >= away_after(seat, plays_on)
                rng = random.Random(f"{table.row.seed}:{table.version}:{player}:timeout")
                action = choose_action(table.engine, table.state, player, rng)
                state, events = table.engine.apply(table.state, player, action)
                changed = replace(seat, timeouts=timeouts, is_bot=away or seat.is_bot, away=away)
                updates.append(await asyncio.shield(
                    self._commit(table, player, action, state, events, changed, kind=UpdateKind.TIMEOUT)))
        return updates

    async def close_idle(self, game_id: int, paused_at: float) -> Update | None:
        """A table paused at ``paused_at`` that nobody resumed is closed; its game stays stored, without a result."""
        table = await self.table(game_id)
        async with table.lock:
            if not table.paused or table.row.paused_at != paused_at:
                return None  # resumed (or ended) meanwhile
            return await self.core.finish(table, GameStatus.CANCELLED, reason=EndReason.IDLE)

    async def tables_paused(self) -> list[int]:
        return await self.storage.paused(self.shards)

    async def lobbies_touched(self) -> list[tuple[int, float]]:
        return await self.storage.lobbies(self.shards)

    async def tables_with_deadlines(self) -> list[int]:
        return await self.storage.with_deadlines(self.shards)

    async def peek_notices(self, table: Table, player: str) -> tuple[list[Event], int | None]:
        """A player's pending private events and the id to acknowledge once they were shown (``ack_notices``);
        they stay stored until then, so a view that never reached the player loses nothing."""
        rows = await self.storage.peek_notices(table.id, player)
        return [Event.model_validate_json(event) for _, event in rows], (rows[-1][0] if rows else None)

    async def ack_notices(self, table: Table, player: str, up_to_id: int | None) -> None:
        if up_to_id is not None:
            await self.storage.drop_notices(table.id, player, up_to_id)

    # ---- when the table's channel cannot be reached ----------------------------------------
    async def pause_clock(self, game_id: int) -> None:
        """Stop the table's turn clock: nobody is timed out by a table they cannot see. Bots still move."""
        table = await self.table(game_id)
        async with table.lock:
            if table.clock_paused or table.status is not GameStatus.RUNNING:
                return
            table.clock_paused = True
            if table.row.deadline is not None:
                await self.storage.update_game(table.id, expected_version=table.version, deadline=None)
                table.committed(bumped=False, deadline=None)
            self.core.changed(table, UpdateKind.CLOCK)

    async def resume_clock(self, game_id: int) -> None:
        """The channel is reachable again: the decision now due gets its full time afresh."""
        table = await self.table(game_id)
        async with table.lock:
            if not table.clock_paused:
                return
            table.clock_paused = False
            if table.status is not GameStatus.RUNNING:
                return
            deadline = self.core.deadline(table, table.state)
            if deadline is not None:
                await self.storage.update_game(table.id, expected_version=table.version, deadline=deadline)
                table.committed(bumped=False, deadline=deadline)
            self.core.changed(table, UpdateKind.CLOCK)

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
        await self._note(table, **moved_to_thread(place_of(table.row), thread_id))

    async def leave_thread(self, table: Table) -> None:
        """The table's thread was deleted: it plays on in its lobby's channel, with a new board message there."""
        fields = back_from_thread(place_of(table.row))
        if fields:
            await self._note(table, **fields)

    async def end_gone(self, game_id: int) -> Update | None:
        """The table's channel was deleted: it ends (its game stays stored, without a result)."""
        table = await self.table(game_id)
        async with table.lock:
            if table.status not in ACTIVE:
                return None
            return await self.core.finish(table, GameStatus.CANCELLED, reason=EndReason.CHANNEL_GONE)

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
