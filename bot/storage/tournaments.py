"""Tournaments' rows (``0004_tournaments.sql``) behind the storage seam: every change one transaction."""
from __future__ import annotations

import json
import time
from enum import Enum
from typing import TYPE_CHECKING, Any

from .backend import Database, Tx
from .games import _where_shards
from .rows import ShardFilter

if TYPE_CHECKING:  # the models import the storage package (SeatRow): load them lazily, not at import time
    from bot.tournaments.models import Entrant, EntrantStatus, Tournament, TournamentStatus, TournamentTable

_TOURNAMENT_FIELDS = ("guild_id", "channel_id", "creator_id", "name", "game", "format", "rounds", "seats_min",
                      "seats_max", "final_table", "first_round", "checkin", "status", "current_round", "seed",
                      "locale", "signup_message_id", "standings_message_id", "bot_level", "break_seconds",
                      "next_round_at", "checkin_until", "turn_seconds", "start_at_deadline", "advance",
                      "checkin_remind_at", "swiss_rounds", "cut", "deal")
_UPDATABLE = {"status", "current_round", "rounds", "checkin", "signup_message_id", "standings_message_id",
              "next_round_at", "checkin_until", "checkin_remind_at"}


def _plain(value: Any) -> Any:
    """A value as the database stores it: a flag as 0/1, an enum member (a ``StrEnum``) as its text."""
    if isinstance(value, bool):
        return int(value)
    return str(value) if isinstance(value, Enum) else value


class TournamentStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def create(self, tournament: Tournament) -> int:
        now = time.time()
        values = [_plain(getattr(tournament, f)) for f in _TOURNAMENT_FIELDS]
        marks = ", ".join("?" * (len(values) + 3))
        async with self.db.transaction() as tx:
            return int(await tx.fetchval(
                f"INSERT INTO tournaments ({', '.join(_TOURNAMENT_FIELDS)}, options, created_at, updated_at) "
                f"VALUES ({marks}) RETURNING id", *values, json.dumps(tournament.options), now, now))

    async def update(self, tournament_id: int, **fields: Any) -> None:
        unknown = set(fields) - _UPDATABLE
        if unknown:
            raise ValueError(f"not updatable: {unknown}")
        sets = "".join(f"{k} = ?, " for k in fields)
        async with self.db.transaction() as tx:
            await tx.execute(f"UPDATE tournaments SET {sets}updated_at = ? WHERE id = ?",
                             *(_plain(v) for v in fields.values()), time.time(),
                             tournament_id)

    # ---- entrants --------------------------------------------------------------------
    async def add_entrants(self, tournament_id: int, entrants: list[Entrant]) -> None:
        async with self.db.transaction() as tx:
            await tx.executemany(
                "INSERT INTO tournament_entrants (tournament_id, user_id, name, is_bot, status, seq) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [(tournament_id, e.user_id, e.name, int(e.is_bot), str(e.status), e.seq) for e in entrants])

    async def remove_entrant(self, tournament_id: int, user_id: int) -> None:
        async with self.db.transaction() as tx:
            await tx.execute("DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?",
                             tournament_id, user_id)

    async def set_entrant_status(self, tournament_id: int, user_ids: list[int], status: EntrantStatus) -> None:
        async with self.db.transaction() as tx:
            await tx.executemany(
                "UPDATE tournament_entrants SET status = ? WHERE tournament_id = ? AND user_id = ?",
                [(str(status), tournament_id, uid) for uid in user_ids])

    # ---- rounds and tables -----------------------------------------------------------
    async def open_round(self, tournament: Tournament, number: int, tables: list[TournamentTable]) -> None:
        """Write the round's tables (byes with their points) and the tournament's round number together (it is
        running from then on); ``tables`` get their ids."""
        async with self.db.transaction() as tx:
            for table in tables:
                await self._insert_table(tx, tournament.id, number, table)
                await self._write_results(tx, table)
            await tx.execute("UPDATE tournaments SET current_round = ?, status = 'running', updated_at = ? "
                             "WHERE id = ?", number, time.time(), tournament.id)

    @staticmethod
    async def _insert_table(tx: Tx, tournament_id: int, number: int, table: TournamentTable) -> None:
        table.id = int(await tx.fetchval(
            "INSERT INTO tournament_tables (tournament_id, round, number, attempt, players, status) "
            "VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
            tournament_id, number, table.number, table.attempt, json.dumps(table.seat_list()), str(table.status)))

    async def add_table(self, tournament_id: int, table: TournamentTable) -> None:
        async with self.db.transaction() as tx:
            await self._insert_table(tx, tournament_id, table.round, table)

    async def set_table(self, table: TournamentTable) -> None:
        """Write a table's status, game, thread and results (results are replaced) in one transaction."""
        async with self.db.transaction() as tx:
            await tx.execute("UPDATE tournament_tables SET status = ?, game_id = ?, channel_id = ? WHERE id = ?",
                             str(table.status), table.game_id, table.channel_id, table.id)
            await tx.execute("DELETE FROM tournament_results WHERE table_id = ?", table.id)
            await self._write_results(tx, table)

    @staticmethod
    async def _write_results(tx: Tx, table: TournamentTable) -> None:
        await tx.executemany(
            "INSERT INTO tournament_results (table_id, user_id, place, points, forfeit, no_show) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [(table.id, uid, place, float(points), int(uid in table.forfeits), int(uid in table.no_shows))
             for uid, (place, points) in table.results.items()])

    # ---- loading ---------------------------------------------------------------------
    async def load(self, tournament_id: int) -> Tournament | None:
        from bot.tournaments.models import Entrant, Tournament, TournamentTable

        row = await self.db.fetchrow(f"SELECT id, options, {', '.join(_TOURNAMENT_FIELDS)} FROM tournaments "
                                     "WHERE id = ?", tournament_id)
        if row is None:
            return None
        data = {k: row[k] for k in row.keys()}
        data["options"] = json.loads(data["options"])
        data["final_table"], data["checkin"] = bool(data["final_table"]), bool(data["checkin"])
        data["start_at_deadline"] = bool(data["start_at_deadline"])
        tournament = Tournament(**data)
        for r in await self.db.fetch("SELECT user_id, name, is_bot, status, seq FROM tournament_entrants "
                                     "WHERE tournament_id = ? ORDER BY seq", tournament_id):
            tournament.entrants[r["user_id"]] = Entrant(r["user_id"], r["name"], bool(r["is_bot"]), r["status"],
                                                        r["seq"])
        for r in await self.db.fetch("SELECT id, round, number, attempt, players, status, game_id, channel_id "
                                     "FROM tournament_tables WHERE tournament_id = ? ORDER BY round, id",
                                     tournament_id):
            seats = json.loads(r["players"])  # in seat order, null where a bot fills the seat (same-deal rounds)
            tournament.tables.append(TournamentTable(
                r["id"], r["round"], r["number"], [u for u in seats if u is not None], r["status"], r["game_id"],
                r["channel_id"], r["attempt"], fill=[i for i, u in enumerate(seats) if u is None]))
        by_id = {t.id: t for t in tournament.tables}
        for r in await self.db.fetch("SELECT r.table_id, r.user_id, r.place, r.points, r.forfeit, r.no_show "
                                     "FROM tournament_results r JOIN tournament_tables t ON t.id = r.table_id "
                                     "WHERE t.tournament_id = ?", tournament_id):
            by_id[r["table_id"]].results[r["user_id"]] = (r["place"], r["points"])
            if r["forfeit"]:
                by_id[r["table_id"]].forfeits.add(r["user_id"])
            if r["no_show"]:
                by_id[r["table_id"]].no_shows.add(r["user_id"])
        return tournament

    async def ids(self, *, statuses: tuple[TournamentStatus, ...], channel_id: int | None = None,
                  shards: ShardFilter | None = None) -> list[int]:
        sql = f"SELECT id FROM tournaments WHERE status IN ({', '.join('?' * len(statuses))})"
        params: list[Any] = [str(s) for s in statuses]
        if channel_id is not None:
            sql += " AND channel_id = ?"
            params.append(channel_id)
        sql = _where_shards(sql, params, shards)
        return [r[0] for r in await self.db.fetch(sql + " ORDER BY id", *params)]

    async def tournament_of_game(self, game_id: int) -> int | None:
        return await self.db.fetchval("SELECT tournament_id FROM tournament_tables WHERE game_id = ?", game_id)
