"""Ratings and results (``0004_tournaments.sql``) behind the storage seam.

Recording a game is one transaction that locks the game's row first (two processes recording the same game
queue, and the second sees the first's results and stops) and the players' rating rows before reading them
(``SELECT … FOR UPDATE`` on PostgreSQL; SQLite's write transaction locks the whole file), so concurrent games
of the same players never lose an update."""
from __future__ import annotations

import time
from typing import Any, Callable

from .backend import Database, Tx
from .games import _where_shards
from .rows import ShardFilter

Skill = tuple[float, float]  # (mu, sigma)
Rate = Callable[[dict[int, Skill]], dict[int, Skill]]  # ratings before -> after, by user id


class RatingStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def record_game(self, game_id: int, *, guild_id: int, game: str, seats: int,
                          places: dict[int, int], rate: Rate | None, default: Skill, now: float) -> bool:
        """Store every human's place (``places``: user id -> place) and, when ``rate`` is given, their new
        ratings; False (and nothing written) if the game was recorded already."""
        async with self.db.transaction() as tx:
            await tx.fetch(f"SELECT id FROM games WHERE id = ?{self.db.for_update}", game_id)
            if await tx.fetchrow("SELECT 1 FROM game_results WHERE game_id = ? LIMIT 1", game_id) is not None:
                return False
            users = sorted(places)  # one lock order for every transaction
            before: dict[int, Skill] = {}
            after: dict[int, Skill] = {}
            if rate is not None:
                before = await self._lock_ratings(tx, guild_id, game, users, default, now)
                # Stamped under the players' row locks, so the results of one player read in commit order.
                now = max(now, time.time())
                after = rate(before)
                await tx.executemany(
                    "UPDATE ratings SET mu = ?, sigma = ?, games = ratings.games + 1, wins = ratings.wins + ?, "
                    "updated_at = ? WHERE guild_id = ? AND game = ? AND user_id = ?",
                    [(*after[u], int(places[u] == 1), now, guild_id, game, u) for u in users])
            await tx.executemany(
                "INSERT INTO game_results (game_id, user_id, guild_id, game, place, seats, rated, mu_before, "
                "sigma_before, mu_after, sigma_after, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(game_id, u, guild_id, game, places[u], seats, int(rate is not None),
                  *before.get(u, (None, None)), *after.get(u, (None, None)), now) for u in users])
        return True

    async def correct_game(self, game_id: int, places: dict[int, int], rate: Rate, now: float) -> bool:
        """A recorded game's places corrected by hand (a tournament's set-result after the game ended): each
        person's rating moves by the difference between the update the corrected places give and the one recorded,
        their wins follow. False (nothing written) when the game was not recorded, for other people, or its places
        are unchanged."""
        async with self.db.transaction() as tx:
            await tx.fetch(f"SELECT id FROM games WHERE id = ?{self.db.for_update}", game_id)
            rows = await tx.fetch("SELECT user_id, guild_id, game, place, rated, mu_before, sigma_before, mu_after, "
                                  "sigma_after FROM game_results WHERE game_id = ? ORDER BY user_id", game_id)
            if not rows or {r[0] for r in rows} != set(places) or all(r[3] == places[r[0]] for r in rows):
                return False
            guild_id, game, users = rows[0][1], rows[0][2], [r[0] for r in rows]
            after: dict[int, Skill] = {}
            if rows[0][4]:
                after = rate({r[0]: (r[5], r[6]) for r in rows})
                current = await self._locked_skills(tx, guild_id, game, users)
                await tx.executemany(
                    "UPDATE ratings SET mu = ?, sigma = ?, wins = ratings.wins + ?, updated_at = ? "
                    "WHERE guild_id = ? AND game = ? AND user_id = ?",
                    [(current[r[0]][0] + after[r[0]][0] - r[7], max(1e-6, current[r[0]][1] + after[r[0]][1] - r[8]),
                      int(places[r[0]] == 1) - int(r[3] == 1), now, guild_id, game, r[0]) for r in rows])
            await tx.executemany(
                "UPDATE game_results SET place = ?, mu_after = ?, sigma_after = ? WHERE game_id = ? AND user_id = ?",
                [(places[r[0]], *after.get(r[0], (r[7], r[8])), game_id, r[0]) for r in rows])
        return True

    async def unrate_game(self, game_id: int, now: float) -> bool:
        """A rated game voided by hand (a tournament's void after the end): each person's rating moves back by
        what the game changed, its game and win are taken off, and the game stays recorded (its places for
        ``/stats``) as unrated, so it is never rated again. False when it was not rated."""
        async with self.db.transaction() as tx:
            await tx.fetch(f"SELECT id FROM games WHERE id = ?{self.db.for_update}", game_id)
            rows = await tx.fetch("SELECT user_id, guild_id, game, place, mu_before, sigma_before, mu_after, "
                                  "sigma_after FROM game_results WHERE game_id = ? AND rated = 1 ORDER BY user_id",
                                  game_id)
            if not rows:
                return False
            guild_id, game, users = rows[0][1], rows[0][2], [r[0] for r in rows]
            current = await self._locked_skills(tx, guild_id, game, users)
            await tx.executemany(
                "UPDATE ratings SET mu = ?, sigma = ?, games = ratings.games - 1, wins = ratings.wins - ?, "
                "updated_at = ? WHERE guild_id = ? AND game = ? AND user_id = ?",
                [(current[r[0]][0] - (r[6] - r[4]), max(1e-6, current[r[0]][1] - (r[7] - r[5])), int(r[3] == 1),
                  now, guild_id, game, r[0]) for r in rows])
            await tx.execute("UPDATE game_results SET rated = 0, mu_after = mu_before, sigma_after = sigma_before "
                             "WHERE game_id = ?", game_id)
        return True

    async def _locked_skills(self, tx: Tx, guild_id: int, game: str, users: list[int]) -> dict[int, Skill]:
        """The players' current ratings in the server and game, read under a row lock (in user order)."""
        return {r[0]: (r[1], r[2]) for r in await tx.fetch(
            f"SELECT user_id, mu, sigma FROM ratings WHERE guild_id = ? AND game = ? "
            f"AND user_id IN ({', '.join('?' * len(users))}) ORDER BY user_id{self.db.for_update}",
            guild_id, game, *users)}

    async def _lock_ratings(self, tx: Tx, guild_id: int, game: str, users: list[int], default: Skill,
                            now: float) -> dict[int, Skill]:
        """Make sure every player has a row (a newcomer's default), then read them all under a row lock."""
        await tx.executemany(
            "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, games, wins, updated_at) "
            "VALUES (?, ?, ?, ?, ?, 0, 0, ?) ON CONFLICT (guild_id, game, user_id) DO NOTHING",
            [(guild_id, game, u, *default, now) for u in users])
        return await self._locked_skills(tx, guild_id, game, users)

    async def unrecorded_games(self, shards: ShardFilter | None = None) -> list[int]:
        """Finished games with a human seat and no recorded result (the process stopped in between)."""
        params: list[Any] = []
        sql = _where_shards(
            "SELECT g.id FROM games g WHERE g.status = 'finished' "
            "AND EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.is_bot = 0 AND s.user_id IS NOT NULL) "
            "AND NOT EXISTS (SELECT 1 FROM game_results r WHERE r.game_id = g.id)", params, shards, "g.guild_id")
        return [r[0] for r in await self.db.fetch(sql + " ORDER BY g.id", *params)]

    # ---- queries: plain tuples -------------------------------------------------------
    async def ratings(self, guild_id: int, game: str, user_ids: list[int]) -> list[tuple]:
        """(user_id, mu, sigma, games, wins) of those of ``user_ids`` who have a rating."""
        if not user_ids:
            return []
        rows = await self.db.fetch(
            f"SELECT user_id, mu, sigma, games, wins FROM ratings WHERE guild_id = ? AND game = ? "
            f"AND user_id IN ({', '.join('?' * len(user_ids))})", guild_id, game, *user_ids)
        return [tuple(r) for r in rows]

    async def leaderboard(self, guild_id: int, game: str, limit: int) -> list[tuple]:
        rows = await self.db.fetch(
            "SELECT user_id, mu, sigma, games, wins FROM ratings WHERE guild_id = ? AND game = ? AND games > 0 "
            "ORDER BY mu - 3 * sigma DESC, games DESC, user_id LIMIT ?", guild_id, game, limit)
        return [tuple(r) for r in rows]

    async def placings(self, guild_id: int, user_id: int) -> dict[int, int]:
        rows = await self.db.fetch("SELECT place, COUNT(*) FROM game_results WHERE guild_id = ? AND user_id = ? "
                                   "GROUP BY place ORDER BY place", guild_id, user_id)
        return {r[0]: r[1] for r in rows}

    async def player_ratings(self, guild_id: int, user_id: int) -> list[tuple]:
        """(game, user_id, mu, sigma, games, wins) of every game the player is rated in."""
        rows = await self.db.fetch("SELECT game, user_id, mu, sigma, games, wins FROM ratings WHERE guild_id = ? "
                                   "AND user_id = ? AND games > 0 ORDER BY game", guild_id, user_id)
        return [tuple(r) for r in rows]

    async def recent_results(self, guild_id: int, user_id: int, limit: int) -> list[tuple]:
        rows = await self.db.fetch(
            "SELECT game_id, game, place, seats, rated, mu_before, sigma_before, mu_after, sigma_after "
            "FROM game_results WHERE guild_id = ? AND user_id = ? ORDER BY created_at DESC, game_id DESC LIMIT ?",
            guild_id, user_id, limit)
        return [tuple(r) for r in rows]
