"""Running a tournament's rounds: seat a round, open each table (a thread, then an ordinary game of the host),
record results as tables end, start the next round when every table of the current one is done.

Everything for one tournament happens under its own lock; the game service's ``ended`` updates reach
``on_game_update`` and take the same lock, so results and round changes never interleave. All state is in
the database before anything is announced; ``resume`` picks up a running tournament after a restart (tables that ended
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

log = logging.getLogger(__name__)
OPEN_BACKOFF = (1.0, 2.0, 5.0, 10.0, 30.0, 60.0)  # seconds before each new try to open a table; then every minute
OpenTable = Callable[[Tournament, TournamentTable], Awaitable[int]]
TournamentListener = Callable[[TournamentUpdate], Awaitable[None]]


class RoundRunner:
    def __init__(self, storage: Storage, games: GameService, ratings: RatingService) -> None:
        self.store = storage.tournaments
        self.games = games
        self.ratings = ratings
        self.open_table: OpenTable = self._same_channel  # the Discord cog installs one that opens a thread
        self._cache: dict[int, Tournament] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._game_index: dict[int, int] = {}  # game id -> tournament id, set before any await after creation
        self._listeners: list[TournamentListener] = []
        self._openers: dict[int, asyncio.Task] = {}  # tournament id -> the task retrying tables that did not open
        games.subscribe(self.on_game_update)

    # ---- plumbing --------------------------------------------------------------------
    def subscribe(self, listener: TournamentListener) -> None:
        self._listeners.append(listener)

    async def _emit(self, tournament: Tournament, kind: str, round_number: int | None = None) -> None:
        update = TournamentUpdate(tournament, kind, round_number)
        for listener in list(self._listeners):
            try:
                await listener(update)
            except Exception:
                log.exception("tournament listener failed on %s %s", tournament.id, kind)

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
        if await self._open_pending(tournament):
            await self._emit(tournament, "round", number)  # else announced once the retries opened every table

    async def _open_pending(self, tournament: Tournament) -> bool:
        """Open the tables not yet opened; True when all are. A table that fails (Discord refused or failed to
        create its thread) stays pending and is retried with backoff by a task of its own."""
        opened = True
        for table in [t for t in tournament.tables if t.status == "pending"]:
            try:
                await self._launch(tournament, table)
            except Exception:
                log.warning("tournament %s: table %s.%s did not open; retrying", tournament.id, table.round,
                            table.number, exc_info=True)
                opened = False
        if not opened:
            self._retry_later(tournament.id)
        return opened

    def _retry_later(self, tournament_id: int) -> None:
        task = self._openers.get(tournament_id)
        if task is None or task.done():
            self._openers[tournament_id] = asyncio.create_task(self._keep_opening(tournament_id))

    async def _keep_opening(self, tournament_id: int) -> None:
        """Retry the pending tables with backoff: each thread is opened outside the tournament's lock, then the
        lock is taken to record it and start its game; the round is announced once every table is open."""
        for attempt in range(1_000_000):
            await asyncio.sleep(OPEN_BACKOFF[min(attempt, len(OPEN_BACKOFF) - 1)])
            tournament = await self.get(tournament_id)
            for table in [t for t in tournament.tables if t.status == "pending" and t.channel_id is None]:
                await self._open_channel(tournament, table)
            async with self.lock(tournament_id):
                if tournament.status != "running" or not any(t.status == "pending" for t in tournament.tables):
                    return
                if await self._open_pending(tournament):
                    await self._emit(tournament, "round", tournament.current_round)
                    return

    async def _open_channel(self, tournament: Tournament, table: TournamentTable) -> None:
        try:
            channel_id = await self.open_table(tournament, table)
        except Exception:
            log.warning("tournament %s: table %s.%s still cannot open", tournament.id, table.round, table.number,
                        exc_info=True)
            return
        async with self.lock(tournament.id):
            if table.status == "pending" and table.channel_id is None:
                table.channel_id = channel_id
                await self.store.set_table(table)

    def _seed(self, tournament: Tournament, table: TournamentTable) -> int:
        return random.Random(f"{tournament.seed}:{table.round}:{table.number}:{table.attempt}").getrandbits(62)

    async def _launch(self, tournament: Tournament, table: TournamentTable) -> None:
        """Open the table's thread (once) and start its game with the seated entrants."""
        if table.channel_id is None:
            table.channel_id = await self.open_table(tournament, table)
            await self.store.set_table(table)
        game = None
        if table.channel_id != tournament.channel_id:  # a restart between the game's creation and its record
            game = next(iter(await self.games.tables_in_channel(table.channel_id)), None)
        if game is None:
            seats = [tournament.entrants[uid].seat(i, tournament.bot_level) for i, uid in enumerate(table.players)]
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
        is complete. Returns how many tournaments are running (of the owned shards' servers, with shards)."""
        ids = await self.store.ids(statuses=("running",), shards=self.games.shards)
        for tournament_id in ids:
            async with self.lock(tournament_id):
                tournament = await self.get(tournament_id)
                for table in [t for t in tournament.tables if t.status == "running" and t.game_id]:
                    game = await self.games.table(table.game_id)  # type: ignore[arg-type]  # tables without a game id are filtered out above
                    if game.status in ("finished", "cancelled"):
                        await self._record(tournament, table, game)
                await self._open_pending(tournament)
                await self._advance_if_round_done(tournament)
        return len(ids)
