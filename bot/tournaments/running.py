"""Running a tournament's rounds: seat a round, open each table (a thread, then an ordinary game of the host),
record results as tables end, start the next round when every table of the current one is done.

Everything for one tournament happens under its own lock; the game service's ``ended`` updates reach
``on_game_update`` and take the same lock, so results and round changes never interleave. All state is in
SQLite before anything is announced; ``resume`` picks up a running tournament after a restart (tables that ended
while the bot was down are recorded, tables not yet opened are opened).
"""
from __future__ import annotations

import asyncio
import logging
import random
from collections import Counter
from typing import Awaitable, Callable

from bot.errors import HostError
from bot.service import GameService
from bot.storage import Storage
from bot.table import Table, Update

from . import seating
from .models import BYE_POINTS, Tournament, TournamentTable, TournamentUpdate, ranking_points
from .ratings import RatingService
from .standings import Standing, compute_standings, pairing_order
from .store import TournamentStore

log = logging.getLogger(__name__)
OpenTable = Callable[[Tournament, TournamentTable], Awaitable[int]]
TournamentListener = Callable[[TournamentUpdate], Awaitable[None]]


class RoundRunner:
    def __init__(self, storage: Storage, games: GameService, ratings: RatingService) -> None:
        self.store = TournamentStore(storage)
        self.games = games
        self.ratings = ratings
        self.open_table: OpenTable = self._same_channel  # the Discord cog installs one that opens a thread
        self._cache: dict[int, Tournament] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._game_index: dict[int, int] = {}  # game id -> tournament id, set before any await after creation
        self._listeners: list[TournamentListener] = []
        self._emitting: dict[int, asyncio.Task[None]] = {}
        self._opening: dict[int, asyncio.Task[None]] = {}
        self.open_retry = (1.0, 60.0)  # first and longest wait before a table whose thread failed is tried again
        games.subscribe(self.on_game_update)

    # ---- plumbing --------------------------------------------------------------------
    def subscribe(self, listener: TournamentListener) -> None:
        self._listeners.append(listener)

    async def _emit(self, tournament: Tournament, kind: str, round_number: int | None = None) -> None:
        """Hand the change to listeners in order, in the background: no lock is held across a Discord call."""
        update = TournamentUpdate(tournament, kind, round_number)
        previous = self._emitting.get(tournament.id)

        async def deliver() -> None:
            if previous is not None:
                await asyncio.wait([previous])
            for listener in list(self._listeners):
                try:
                    await listener(update)
                except Exception:
                    log.exception("tournament listener failed on %s %s", tournament.id, kind)

        task = asyncio.create_task(deliver())
        self._emitting[tournament.id] = task
        task.add_done_callback(lambda done, tid=tournament.id: self._emitting.get(tid) is done
                               and self._emitting.pop(tid))

    async def idle(self) -> None:
        """Wait until every table being opened is open and every change was handed to listeners (tests)."""
        while busy := [t for t in (*self._opening.values(), *self._emitting.values()) if not t.done()]:
            await asyncio.wait(busy)

    def lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    async def get(self, tournament_id: int) -> Tournament:
        tournament = self._cache.get(tournament_id)
        if tournament is None:
            tournament = await self.store.load(tournament_id)
            if tournament is None:
                raise HostError("tournament.unknown", id=tournament_id)
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
        t = tournament
        rng = random.Random(f"{t.seed}:{number}")
        ratings = await self.rating_points(t)
        history = [tb.players for tb in t.tables if tb.status in ("pending", "running", "finished", "cancelled")]
        byes_had = Counter(uid for tb in t.tables if tb.status == "bye" for uid in tb.players)
        active = [e.user_id for e in t.active_entrants()]
        if t.is_final_round(number):
            return [seating.final_table(pairing_order(t, ratings), t.seats_min, t.seats_max)], []
        if t.format == "roundrobin":
            return seating.round_robin_round(active, number - 1, t.seats_min, t.seats_max, history, byes_had, rng)
        if number > 1:
            order = pairing_order(t, ratings)
        elif t.first_round == "rating":
            order = sorted(active, key=lambda u: (-ratings.get(u, 0.0), t.entrants[u].seq))
        else:
            order = active[:]
            rng.shuffle(order)
        return seating.swiss_round(order, t.seats_min, t.seats_max, history, byes_had, rng)

    async def _start_round(self, tournament: Tournament, number: int) -> None:
        groups, byes = await self._seat_round(tournament, number)
        tables = [TournamentTable(0, number, i + 1, players) for i, players in enumerate(groups)]
        tables += [TournamentTable(0, number, len(groups) + i + 1, [uid], "bye", results={uid: (1, BYE_POINTS)})
                   for i, uid in enumerate(byes)]
        await self.store.open_round(tournament, number, tables)
        tournament.tables += tables
        tournament.current_round, tournament.status = number, "running"
        if number == 1:
            await self._emit(tournament, "started")
        await self._open_pending(tournament, announce=number)

    async def _open_pending(self, tournament: Tournament, announce: int | None = None) -> None:
        """Open the round's tables in the background (a thread each is a Discord call: never under the lock);
        a table whose thread could not be made is tried again until it opens."""
        task = self._opening.get(tournament.id)
        if task is None or task.done():
            self._opening[tournament.id] = asyncio.create_task(self._open_all(tournament.id, announce))
        elif announce is not None:  # a round started while the last one's tables were still opening
            task.add_done_callback(lambda _: asyncio.ensure_future(self._open_pending(tournament, announce)))

    async def _open_all(self, tournament_id: int, announce: int | None) -> None:
        """Open every pending table, then announce the round (its lines link each table's thread)."""
        wait = self.open_retry[0]
        while True:
            tournament = await self.get(tournament_id)
            pending = [t for t in tournament.tables if t.status == "pending"]
            if tournament.status != "running" or not pending:
                if announce is not None and tournament.status == "running":
                    await self._emit(tournament, "round", announce)
                return
            try:
                for table in pending:
                    await self._launch(tournament, table)
            except Exception as error:  # noqa: BLE001 - Discord down, a lost permission: try again later
                log.warning("tournament %s: opening a table failed (%s); trying again in %.0f s", tournament_id,
                            error, wait)
                await asyncio.sleep(wait)
                wait = min(self.open_retry[1], wait * 2)

    def _seed(self, tournament: Tournament, table: TournamentTable) -> int:
        return random.Random(f"{tournament.seed}:{table.round}:{table.number}:{table.attempt}").getrandbits(62)

    async def _launch(self, tournament: Tournament, table: TournamentTable) -> None:
        """Open the table's thread (once, outside the lock) and start its game with the seated entrants."""
        if table.channel_id is None:
            channel_id = await self.open_table(tournament, table)
            async with self.lock(tournament.id):
                if table.channel_id is None and table.status == "pending":
                    table.channel_id = channel_id
                    await self.store.set_table(table)
        async with self.lock(tournament.id):
            if table.status == "pending":
                await self._start_game(tournament, table)

    async def _start_game(self, tournament: Tournament, table: TournamentTable) -> None:
        game = None
        if table.channel_id != tournament.channel_id:  # a restart between the game's creation and its record
            game = next(iter(await self.games.tables_in_channel(table.channel_id)), None)
        if game is None:
            seats = [tournament.entrants[uid].seat(i) for i, uid in enumerate(table.players)]
            game = await self.games.create_seated_table(
                game=tournament.game, guild_id=tournament.guild_id, channel_id=table.channel_id, seats=seats,
                host_id=tournament.creator_id, seed=self._seed(tournament, table), options=tournament.options,
                locale=tournament.locale)
        self._game_index[game.id] = tournament.id
        table.game_id, table.status = game.id, "running"
        await self.store.set_table(table)

    # ---- results -----------------------------------------------------------------------
    async def on_game_update(self, update: Update) -> None:
        """GameService listener: a tournament table that ended scores its players; a finished round moves on."""
        if update.kind != "ended":
            return
        game_id = update.table.id
        tournament_id = self._game_index.get(game_id) or await self.store.tournament_of_game(game_id)
        if tournament_id is None:
            return
        async with self.lock(tournament_id):
            tournament = await self.get(tournament_id)
            table = tournament.table_of_game(game_id)
            if table is None or table.status != "running":
                return  # voided, set by hand or cancelled by the organiser: already dealt with
            await self._record(tournament, table, update.table)
            await self._advance_if_round_done(tournament)

    async def _record(self, tournament: Tournament, table: TournamentTable, game: Table) -> None:
        result = game.result()
        if game.status == "finished" and result is not None:
            entrant_of = {tournament.entrants[uid].player: uid for uid in table.players}
            table.results = ranking_points([[entrant_of[p] for p in group] for group in result.ranking])
            table.status = "finished"
        else:  # ended from the table itself (/game end): nobody scores
            table.results, table.status = {}, "cancelled"
        await self.store.set_table(table)
        await self._emit(tournament, "result", table.round)

    async def _advance_if_round_done(self, tournament: Tournament) -> None:
        if tournament.status == "running" and all(
                t.done for t in tournament.round_tables(tournament.current_round)):
            await self._next_round_or_finish(tournament)

    async def _next_round_or_finish(self, tournament: Tournament) -> None:
        number = tournament.current_round + 1
        enough = len(tournament.active_entrants()) >= tournament.seats_min
        if number > tournament.total_rounds or not enough:
            await self._finish(tournament, "finished")
        else:
            await self._start_round(tournament, number)

    async def _finish(self, tournament: Tournament, status: str) -> None:
        await self.store.update(tournament.id, status=status)
        tournament.status = status
        await self._emit(tournament, status)

    async def resume(self) -> int:
        """After a restart: record tables that ended meanwhile, open tables not yet opened, move on where a round
        is complete. Returns how many tournaments are running."""
        ids = await self.store.ids(statuses=("running",))
        for tournament_id in ids:
            async with self.lock(tournament_id):
                tournament = await self.get(tournament_id)
                for table in [t for t in tournament.tables if t.status == "running" and t.game_id]:
                    game = await self.games.table(table.game_id)  # type: ignore[arg-type]
                    if game.status in ("finished", "cancelled"):
                        await self._record(tournament, table, game)
                await self._open_pending(tournament)
                await self._advance_if_round_done(tournament)
        return len(ids)
