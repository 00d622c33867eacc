"""Running a tournament's rounds: seat a round, open each table (a thread, then an ordinary game of the host),
record results as tables end (a seat a bot played for a person who dropped is a forfeit), and once every table of
the round is done pause (``break_seconds``, drops take effect) before seating the next one.

Everything for one tournament happens under its own lock; the game service's ``ended`` updates reach
``on_game_update`` and take the same lock, so results and round changes never interleave. All state is in
the database before anything is announced; ``resume`` picks up a running tournament after a restart (tables that ended
while the bot was down are recorded, tables not yet opened are opened).
"""
from __future__ import annotations

import asyncio
import logging
import random
import time
import weakref
from typing import Any, Awaitable, Callable, Coroutine

from bot.errors import HostError
from bot.service import GameService
from bot.storage import GameStatus, Storage
from bot.table import Table, Update, UpdateKind
from engines import Json
from engines.streams import STREAMS_FIELD, Streams

from .absence import mark_away, round_no_shows
from .formats import min_field, rules_of
from .models import (
    BYE_POINTS,
    ENDED_STATES,
    EntrantStatus,
    TableStatus,
    Tournament,
    TournamentStatus,
    TournamentTable,
    TournamentUpdate,
    TournamentUpdateKind,
)
from .ratings import RatingService
from .same_deal import fill_seat, table_results
from .standings import Standing, compute_standings, score_absent_seats

log = logging.getLogger(__name__)
OPEN_BACKOFF = (1.0, 2.0, 5.0, 10.0, 30.0, 60.0)  # seconds before each new try to open a table; then every minute
OpenTable = Callable[[Tournament, TournamentTable], Awaitable[int]]
OpenFailing = Callable[[Tournament, TournamentTable, Exception], Awaitable[None]]
TournamentListener = Callable[[TournamentUpdate], Awaitable[None]]
TELL_AFTER = 3  # failed tries to open a table's thread before the organiser is told (once per round)


class RoundRunner:
    def __init__(self, storage: Storage, games: GameService, ratings: RatingService) -> None:
        self.store = storage.tournaments
        self.games = games
        self.ratings = ratings
        self.open_table: OpenTable = self._same_channel  # the Discord cog installs one that opens a thread
        self._cache: dict[int, Tournament] = {}
        # A lock lives while a task holds or waits for it; one nobody uses is dropped (none per past tournament).
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._game_index: dict[int, int] = {}  # game id -> tournament id, set before any await after creation
        self._listeners: list[TournamentListener] = []
        self._openers: dict[int, asyncio.Task] = {}  # tournament id -> the task opening its pending tables
        self._wake: dict[int, asyncio.Event] = {}  # set: the opener has tables to try at once
        self._settled: dict[int, asyncio.Event] = {}  # set: every pending table had its try since the last wake
        self._unannounced: dict[int, int] = {}  # tournament id -> its round to announce once every table is open
        self._failures: dict[tuple[int, int, int, int], int] = {}  # (tournament, round, table, attempt) -> fails
        self._told: set[tuple[int, int]] = set()  # (tournament, round) whose organiser was told of a failing table
        self._breaks: dict[int, asyncio.Task] = {}  # tournament id -> the task ending its pause between rounds
        self._closed = False
        self.on_open_failing: OpenFailing = self._nobody_to_tell  # the Discord cog installs one that tells
        games.subscribe(self.on_game_update)

    # ---- plumbing --------------------------------------------------------------------
    def subscribe(self, listener: TournamentListener) -> None:
        self._listeners.append(listener)

    async def emit(self, tournament: Tournament, kind: TournamentUpdateKind, round_number: int | None = None, *,
                   people: list[int] | None = None, error: Exception | None = None) -> None:
        update = TournamentUpdate(tournament, kind, round_number, people or [], error)
        for listener in list(self._listeners):
            try:
                await listener(update)
            except Exception:
                log.exception("tournament listener failed on %s %s", tournament.id, kind)

    def lock(self, tournament_id: int) -> asyncio.Lock:
        lock = self._locks.get(tournament_id)
        if lock is None:
            self._locks[tournament_id] = lock = asyncio.Lock()
        return lock

    async def get(self, tournament_id: int) -> Tournament:
        tournament = self._cache.get(tournament_id)
        if tournament is None:
            tournament = await self.store.load(tournament_id)
            if tournament is None:
                raise HostError("tournament.unknown", id=tournament_id)
            if tournament.status in ENDED_STATES:  # read (standings, a corrected result) but not kept: see _forget
                return tournament
            self._cache[tournament_id] = tournament
            self._game_index.update({t.game_id: tournament_id for t in tournament.tables if t.game_id})
        return tournament

    @staticmethod
    async def _same_channel(tournament: Tournament, table: TournamentTable) -> int:
        return tournament.channel_id

    async def rating_points(self, tournament: Tournament) -> dict[int, float]:
        rows = await self.ratings.ratings(tournament.guild_id, tournament.game, list(tournament.entrants))
        return {uid: row.ordinal for uid, row in rows.items()}

    async def standings(self, tournament: Tournament) -> list[Standing]:
        return compute_standings(tournament, await self.rating_points(tournament))

    # ---- seating a round -------------------------------------------------------------
    async def _seat_round(self, tournament: Tournament, number: int) -> tuple[list[list[int]], list[int]]:
        return rules_of(tournament).seat(tournament, number, await self.rating_points(tournament))

    async def start_round(self, tournament: Tournament, number: int, *, missed: list[int] | None = None) -> None:
        """Seat the round and commit its tables as pending; the caller holds the lock. The tables are opened by
        the opener task once the lock is released (never a Discord call under the lock); it announces the round
        when every table of it is open. ``missed``: who the start dropped for not checking in."""
        groups, byes = await self._seat_round(tournament, number)
        lay_out = rules_of(tournament).lay_out
        if lay_out is None:
            tables = [TournamentTable(0, number, i + 1, players) for i, players in enumerate(groups)]
        else:  # a same-deal round: every table as many seats, bots in the seats left
            tables = [TournamentTable.from_seats(number, i + 1, seats)
                      for i, seats in enumerate(lay_out(tournament, number, groups))]
        tables += [TournamentTable(0, number, len(groups) + i + 1, [uid], TableStatus.BYE,
                                   results={uid: (1, BYE_POINTS)}) for i, uid in enumerate(byes)]
        await self.store.open_round(tournament, number, tables)
        tournament.tables += tables
        tournament.current_round, tournament.status = number, TournamentStatus.RUNNING
        if number == 1:
            await self.emit(tournament, TournamentUpdateKind.STARTED, people=missed)
        self._unannounced[tournament.id] = number
        self.open_soon(tournament.id)

    def open_soon(self, tournament_id: int) -> None:
        """Have the tournament's opener open its pending tables now (it starts, or wakes from its backoff)."""
        if self._closed:
            return  # the storage closes next; a restart's resume opens the pending tables
        self._wake.setdefault(tournament_id, asyncio.Event()).set()
        self._settled.setdefault(tournament_id, asyncio.Event()).clear()
        task = self._openers.get(tournament_id)
        if task is None or task.done():
            self._openers[tournament_id] = self._task(self._openers, tournament_id, self._keep_opening(tournament_id),
                                                      "opener")

    @staticmethod
    def _task(tasks: dict[int, asyncio.Task], tournament_id: int, work: Coroutine[Any, Any, None],
              what: str) -> asyncio.Task:
        """A tournament's opener or pause task, which leaves ``tasks`` once done (unless replaced meanwhile)."""
        task = asyncio.create_task(work, name=f"tournament-{tournament_id}-{what}")

        def drop(done: asyncio.Task) -> None:
            if tasks.get(tournament_id) is done:
                del tasks[tournament_id]
        task.add_done_callback(drop)
        return task

    async def openings(self, tournament_id: int | None = None) -> None:
        """Wait until no table (of this tournament, or of any) is waiting for its first try to open; a table
        that keeps failing is left to its retries. Never call this while holding a tournament's lock."""
        for tid in [tournament_id] if tournament_id is not None else list(self._settled):
            if tid in self._settled:
                await self._settled[tid].wait()

    async def close(self) -> None:
        """Stop opening tables (before the storage closes); a restart's ``resume`` opens what is left."""
        self._closed = True
        tasks = [*self._openers.values(), *self._breaks.values()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _keep_opening(self, tournament_id: int) -> None:
        """Open the pending tables, retrying with backoff: each thread is opened outside the tournament's lock,
        then the lock is taken to record it and start its game; the round is announced once every table is
        open. Returns when no table is pending (a new round or a void wakes or restarts it)."""
        wake, settled = self._wake[tournament_id], self._settled[tournament_id]
        attempt = 0
        try:
            while True:
                wake.clear()
                tournament = await self.get(tournament_id)
                for table in [t for t in tournament.tables if t.status is TableStatus.PENDING and t.channel_id is None]:
                    await self._open_channel(tournament, table)
                async with self.lock(tournament_id):
                    if await self._launch_opened(tournament):
                        return
                if wake.is_set():
                    continue  # new tables meanwhile: try them at once
                settled.set()
                await self._back_off(wake, OPEN_BACKOFF[min(attempt, len(OPEN_BACKOFF) - 1)])
                attempt += 1
        finally:
            settled.set()

    @staticmethod
    async def _back_off(wake: asyncio.Event, delay: float) -> None:
        """Sleep ``delay`` seconds in steps of at most one, ending early when woken (new tables to open)."""
        waited = 0.0
        while waited < delay and not wake.is_set():
            step = min(1.0, delay - waited)
            await asyncio.sleep(step)
            waited += step

    async def _launch_opened(self, tournament: Tournament) -> bool:
        """Under the lock: start the games of the tables whose thread is open; True when nothing is left to open
        (the round is announced then, once)."""
        if tournament.status is TournamentStatus.RUNNING:
            for table in [t for t in tournament.tables if t.status is TableStatus.PENDING and t.channel_id is not None]:
                try:
                    await self._launch(tournament, table)
                except Exception:
                    log.exception("tournament %s: table %s.%s did not start; retrying", tournament.id, table.round,
                                  table.number)
        running = tournament.status is TournamentStatus.RUNNING
        if running and any(t.status is TableStatus.PENDING for t in tournament.tables):
            return False
        if running and self._unannounced.pop(tournament.id, None) == tournament.current_round:
            await self.emit(tournament, TournamentUpdateKind.ROUND, tournament.current_round)
        return True

    async def _open_channel(self, tournament: Tournament, table: TournamentTable) -> None:
        try:
            channel_id = await self.open_table(tournament, table)
        except Exception as error:
            key = (tournament.id, table.round, table.number, table.attempt)
            self._failures[key] = failures = self._failures.get(key, 0) + 1
            log.warning("tournament %s: table %s.%s did not open (%s times); retrying", tournament.id, table.round,
                        table.number, failures, exc_info=True)
            if failures == TELL_AFTER and (tournament.id, table.round) not in self._told:
                self._told.add((tournament.id, table.round))
                await self._tell_not_opening(tournament, table, error)
            return
        async with self.lock(tournament.id):
            if table.status is TableStatus.PENDING and table.channel_id is None:
                table.channel_id = channel_id
                await self.store.set_table(table)

    async def _tell_not_opening(self, tournament: Tournament, table: TournamentTable, error: Exception) -> None:
        try:
            await self.on_open_failing(tournament, table, error)
        except Exception:
            log.exception("tournament %s: could not tell the organiser that a table does not open", tournament.id)

    @staticmethod
    async def _nobody_to_tell(tournament: Tournament, table: TournamentTable, error: Exception) -> None:
        return None

    @staticmethod
    def table_deal(tournament: Tournament, table: TournamentTable) -> tuple[int, Json]:
        """The game seed and options a table is dealt with. Each table its own deal (seeded by its round, number and
        attempt), or, in a same-deal round, every table of the round the round's deal: one seed and the engines'
        per-seat streams, so seat i of every table gets the same cards, draws and dice whatever the others play. A
        replayed (voided) table was seen by its players: it gets a deal of its own attempt, never the round's again."""
        if not rules_of(tournament).same_deal:
            key = f"{tournament.seed}:{table.round}:{table.number}:{table.attempt}"
            return random.Random(key).getrandbits(62), dict(tournament.options)
        key = f"{tournament.seed}:{table.round}:same:{table.attempt}"
        return random.Random(key).getrandbits(62), {**tournament.options, STREAMS_FIELD: Streams.PER_SEAT.value}

    async def _launch(self, tournament: Tournament, table: TournamentTable) -> None:
        """Start the game of a table whose thread is open, with the seated entrants (under the lock)."""
        assert table.channel_id is not None
        game = None
        if table.channel_id != tournament.channel_id:  # a restart between the game's creation and its record
            game = next(iter(await self.games.tables_in_channel(table.channel_id)), None)
        if game is None:
            seats = [tournament.entrants[uid].seat(i, tournament.bot_level) if uid is not None
                     else fill_seat(tournament, i) for i, uid in enumerate(table.seat_list())]
            seed, options = self.table_deal(tournament, table)
            game = await self.games.create_seated_table(
                game=tournament.game, guild_id=tournament.guild_id, channel_id=table.channel_id, seats=seats,
                host_id=tournament.creator_id, seed=seed, options=options,
                locale=tournament.locale, turn_seconds=tournament.turn_seconds)
        self._game_index[game.id] = tournament.id
        table.game_id, table.status = game.id, TableStatus.RUNNING
        await self.store.set_table(table)
        for uid in table.players:  # dropped while the table waited for its thread: a bot plays the seat
            entrant = tournament.entrants[uid]
            if entrant.status is EntrantStatus.DROPPED and not entrant.is_bot and game.seat_of_user(uid) is not None:
                await self.games.hand_to_bot(game.id, uid)

    # ---- results -----------------------------------------------------------------------
    async def on_game_update(self, update: Update) -> None:
        """GameService listener: a tournament table that ended scores its players; a finished round moves on."""
        if update.kind is not UpdateKind.ENDED:
            return
        game_id = update.table.id
        tournament_id = self._game_index.get(game_id) or await self.store.tournament_of_game(game_id)
        if tournament_id is None:
            return
        async with self.lock(tournament_id):
            tournament = await self.get(tournament_id)
            table = tournament.table_of_game(game_id)
            if table is None or table.status is not TableStatus.RUNNING:
                return  # voided, set by hand or cancelled by the organiser: already dealt with
            await self._record(tournament, table, update.table)
            await self.advance_if_round_done(tournament)

    async def _record(self, tournament: Tournament, table: TournamentTable, game: Table) -> None:
        result = game.result()
        if game.status is GameStatus.FINISHED and result is not None:
            table.results, table.fill_places = table_results(tournament, table, result.ranking)
            table.status = TableStatus.FINISHED
            score_absent_seats(tournament, table, game)
        else:  # ended from the table itself (/game end): nobody scores
            table.results, table.status = {}, TableStatus.CANCELLED
        await self.store.set_table(table)
        await mark_away(self.store, tournament, table)
        await self.emit(tournament, TournamentUpdateKind.RESULT, table.round)

    async def advance_if_round_done(self, tournament: Tournament) -> None:
        """Under the lock: once every table of the round is done, pause before the next round (drops then take
        effect), or seat it at once when the tournament has no pause, or finish after the last round."""
        if tournament.status is not TournamentStatus.RUNNING or tournament.next_round_at is not None or not all(
                t.done for t in tournament.round_tables(tournament.current_round)):
            return
        ended, going_on = tournament.current_round, self._has_next_round(tournament, counting_away=True)
        # told once, in the channel where the organiser sees it too: left out until they come back
        absent = round_no_shows(tournament) if going_on else []
        if tournament.break_seconds > 0 and going_on:
            if absent:
                await self.emit(tournament, TournamentUpdateKind.NO_SHOWS, ended, people=absent)
            tournament.next_round_at = time.time() + tournament.break_seconds
            await self.store.update(tournament.id, next_round_at=tournament.next_round_at)
            self._schedule_break_end(tournament)
            await self.emit(tournament, TournamentUpdateKind.BREAK, tournament.current_round)
        else:  # no pause: told once the next round is seated (or it ended), so what they are told holds then
            await self.next_round_or_finish(tournament)
            if absent:
                await self.emit(tournament, TournamentUpdateKind.NO_SHOWS, ended, people=absent)

    def _has_next_round(self, tournament: Tournament, *, counting_away: bool = False) -> bool:
        """Whether a round follows: the plan has one, and enough entrants to seat it (``counting_away``: the away
        too, for the pause, during which they may come back)."""
        rules = rules_of(tournament)
        total = rules.rounds_after(tournament, counting_away) + (1 if tournament.final_table else 0)
        field = tournament.active_entrants() if counting_away else tournament.seatable_entrants()
        return tournament.current_round < total and len(field) >= min_field(tournament)

    def _schedule_break_end(self, tournament: Tournament) -> None:
        if self._closed or tournament.next_round_at is None:
            return
        old = self._breaks.get(tournament.id)
        if old is not None and not old.done():
            old.cancel()
        self._breaks[tournament.id] = self._task(self._breaks, tournament.id,
                                                 self._end_break(tournament.id, tournament.next_round_at), "break")

    async def _end_break(self, tournament_id: int, at: float) -> None:
        await asyncio.sleep(max(0.0, at - time.time()))
        async with self.lock(tournament_id):
            tournament = await self.get(tournament_id)
            if tournament.status is not TournamentStatus.RUNNING or tournament.next_round_at != at:
                return  # the organiser moved on already, or ended it
            if all(t.done for t in tournament.round_tables(tournament.current_round)):
                await self.next_round_or_finish(tournament)
            else:  # a table voided during the pause is replayed: a new pause follows once it ends
                tournament.next_round_at = None
                await self.store.update(tournament.id, next_round_at=None)

    async def next_round_or_finish(self, tournament: Tournament) -> None:
        """Under the lock: end the pause (if any) and seat the next round, or finish."""
        if tournament.next_round_at is not None:
            tournament.next_round_at = None
            await self.store.update(tournament.id, next_round_at=None)
        planned = rules_of(tournament).rounds_after(tournament, False)
        if planned != tournament.rounds:  # a round robin or knockout re-planned after a drop or a cancelled table
            tournament.rounds = planned
            await self.store.update(tournament.id, rounds=planned)
        if self._has_next_round(tournament):
            await self.start_round(tournament, tournament.current_round + 1)
        else:
            await self.finish(tournament, TournamentStatus.FINISHED)

    async def finish(self, tournament: Tournament, status: TournamentStatus) -> None:
        await self.store.update(tournament.id, status=status, next_round_at=None)
        tournament.status, tournament.next_round_at = status, None
        await self.emit(tournament, TournamentUpdateKind(status))
        self._forget(tournament)

    def _forget(self, tournament: Tournament) -> None:
        """An ended tournament changes no more: what memory kept of it goes (a later look, e.g. its standings,
        reloads it from storage), so memory does not grow with every tournament a server runs."""
        tid = tournament.id
        self._cache.pop(tid, None)
        for table in tournament.tables:
            if table.game_id is not None and self._game_index.get(table.game_id) == tid:
                del self._game_index[table.game_id]
        self._unannounced.pop(tid, None)
        self._told.difference_update({key for key in self._told if key[0] == tid})
        for key in [key for key in self._failures if key[0] == tid]:
            del self._failures[key]
        self._wake.pop(tid, None)
        self._settled.pop(tid, None)

    async def resume(self) -> int:
        """After a restart: record tables that ended meanwhile, open tables not yet opened, move on where a round
        is complete. Returns how many tournaments are running (of the owned shards' servers, with shards)."""
        ids = await self.store.ids(statuses=(TournamentStatus.RUNNING,), shards=self.games.shards)
        for tournament_id in ids:
            async with self.lock(tournament_id):
                tournament = await self.get(tournament_id)
                for table in [t for t in tournament.tables if t.status is TableStatus.RUNNING and t.game_id]:
                    game = await self.games.table(table.game_id)  # type: ignore[arg-type]  # tables without a game id are filtered out above
                    if game.status in (GameStatus.FINISHED, GameStatus.CANCELLED):
                        await self._record(tournament, table, game)
                pending = [t for t in tournament.tables if t.status is TableStatus.PENDING]
                if any(t.round == tournament.current_round and t.attempt == 0 for t in pending):
                    self._unannounced[tournament_id] = tournament.current_round  # it never opened, so never shown
                if pending:
                    self.open_soon(tournament_id)
                self._schedule_break_end(tournament)  # a pause under way ends when it was due
                await self.advance_if_round_done(tournament)
        return len(ids)
