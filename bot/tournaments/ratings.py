"""Ratings per server and game: OpenSkill's Plackett–Luce model (built for free-for-all multiplayer, ties
allowed), updated after every finished game without bot seats — tournament tables and casual tables alike.

Every human seat of every finished game is also recorded for ``/stats`` (games with bots count there, unrated).
Recording is idempotent (keyed by game id, checked inside the transaction), so a replayed update or the
start-up ``catch_up`` never applies a result twice; a cancelled table changes nothing.
"""
from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from openskill.models import PlackettLuce

from bot.service import GameService
from bot.storage import Storage
from bot.table import Table, Update

log = logging.getLogger(__name__)


def ordinal(mu: float, sigma: float) -> float:
    """The displayed rating: a conservative estimate (mu - 3 sigma), 0 for a newcomer."""
    return mu - 3 * sigma


@dataclass
class RatingRow:
    user_id: int
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)


@dataclass
class RecentResult:
    game_id: int
    game: str
    place: int
    seats: int
    rated: bool
    change: float | None  # ordinal after - before, when rated


@dataclass
class PlayerStats:
    user_id: int
    games: int
    wins: int
    placings: dict[int, int]          # place -> how many times
    ratings: dict[str, RatingRow]     # game -> rating
    recent: list[RecentResult]


def places(ranking: list[list[str]]) -> dict[str, int]:
    """1-based place of every player; tied players share the better place."""
    out, place = {}, 1
    for group in ranking:
        for player in group:
            out[player] = place
        place += len(group)
    return out


class RatingService:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.model = PlackettLuce()

    def default(self, user_id: int) -> RatingRow:
        fresh = self.model.rating()
        return RatingRow(user_id, fresh.mu, fresh.sigma)

    async def on_update(self, update: Update) -> None:
        """GameService listener: record every finished table once."""
        if update.kind == "ended" and update.table.status == "finished":
            await self.record_game(update.table)

    async def record_game(self, table: Table) -> bool:
        """Record the human seats of a finished game and, when no seat is a bot, update their ratings."""
        result = table.result()
        humans = [s for s in table.seats if not s.is_bot and s.user_id is not None]
        if table.status != "finished" or result is None or not humans:
            return False
        place_of = places(result.ranking)
        rated = len(humans) == len(table.seats) >= 2
        guild, game, now = table.row.guild_id or 0, table.row.game, time.time()
        async with self.storage.transaction() as db:
            async with db.execute("SELECT 1 FROM game_results WHERE game_id = ? LIMIT 1", (table.id,)) as cur:
                if await cur.fetchone() is not None:
                    return False
            before = await self._ratings(guild, game, [s.user_id for s in humans])  # type: ignore[misc]
            after: dict[int, tuple[float, float]] = {}
            if rated:
                teams = [[self.model.rating(mu=before[s.user_id].mu, sigma=before[s.user_id].sigma)]
                         for s in humans]  # type: ignore[index]
                new = self.model.rate(teams, ranks=[place_of[s.player] for s in humans])
                after = {s.user_id: (team[0].mu, team[0].sigma) for s, team in zip(humans, new)}  # type: ignore[misc]
                await db.executemany(
                    "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, games, wins, updated_at) "
                    "VALUES (?, ?, ?, ?, ?, 1, ?, ?) ON CONFLICT (guild_id, game, user_id) DO UPDATE SET "
                    "mu = excluded.mu, sigma = excluded.sigma, games = games + 1, wins = wins + excluded.wins, "
                    "updated_at = excluded.updated_at",
                    [(guild, game, s.user_id, *after[s.user_id], int(place_of[s.player] == 1), now)  # type: ignore
                     for s in humans])
            await db.executemany(
                "INSERT INTO game_results (game_id, user_id, guild_id, game, place, seats, rated, mu_before, "
                "sigma_before, mu_after, sigma_after, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(table.id, s.user_id, guild, game, place_of[s.player], len(table.seats), int(rated),
                  before[s.user_id].mu if rated else None, before[s.user_id].sigma if rated else None,  # type: ignore
                  *(after[s.user_id] if rated else (None, None)), now) for s in humans])  # type: ignore[index]
        return True

    async def catch_up(self, games: GameService) -> int:
        """Record finished games the bot had no chance to record (it stopped between a game's last commit and
        the update reaching this listener)."""
        async with self.storage.db.execute(
            "SELECT g.id FROM games g WHERE g.status = 'finished' "
            "AND EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.is_bot = 0 AND s.user_id IS NOT NULL) "
            "AND NOT EXISTS (SELECT 1 FROM game_results r WHERE r.game_id = g.id) ORDER BY g.id") as cur:
            ids = [r[0] for r in await cur.fetchall()]
        done = 0
        for game_id in ids:
            done += await self.record_game(await games.table(game_id))
        return done

    # ---- queries ---------------------------------------------------------------------
    async def _ratings(self, guild_id: int, game: str, user_ids: list[int]) -> dict[int, RatingRow]:
        found = {uid: self.default(uid) for uid in user_ids}
        if not user_ids:
            return found
        async with self.storage.db.execute(
            f"SELECT user_id, mu, sigma, games, wins FROM ratings WHERE guild_id = ? AND game = ? "
            f"AND user_id IN ({', '.join('?' * len(user_ids))})", (guild_id, game, *user_ids)) as cur:
            for r in await cur.fetchall():
                found[r[0]] = RatingRow(*r)
        return found

    async def ratings(self, guild_id: int | None, game: str, user_ids: list[int]) -> dict[int, RatingRow]:
        """Current ratings (a newcomer's default for unknown players; bot entrants have negative ids)."""
        return await self._ratings(guild_id or 0, game, [u for u in user_ids if u > 0])

    async def leaderboard(self, guild_id: int | None, game: str, limit: int = 10) -> list[RatingRow]:
        async with self.storage.db.execute(
            "SELECT user_id, mu, sigma, games, wins FROM ratings WHERE guild_id = ? AND game = ? "
            "ORDER BY mu - 3 * sigma DESC, games DESC, user_id LIMIT ?", (guild_id or 0, game, limit)) as cur:
            return [RatingRow(*r) for r in await cur.fetchall()]

    async def stats(self, guild_id: int | None, user_id: int, recent: int = 5) -> PlayerStats:
        guild = guild_id or 0
        db = self.storage.db
        async with db.execute("SELECT place, COUNT(*) FROM game_results WHERE guild_id = ? AND user_id = ? "
                              "GROUP BY place ORDER BY place", (guild, user_id)) as cur:
            placings = {r[0]: r[1] for r in await cur.fetchall()}
        async with db.execute("SELECT game, user_id, mu, sigma, games, wins FROM ratings WHERE guild_id = ? "
                              "AND user_id = ? ORDER BY game", (guild, user_id)) as cur:
            ratings = {r[0]: RatingRow(*r[1:]) for r in await cur.fetchall()}
        async with db.execute(
            "SELECT game_id, game, place, seats, rated, mu_before, sigma_before, mu_after, sigma_after "
            "FROM game_results WHERE guild_id = ? AND user_id = ? ORDER BY created_at DESC, game_id DESC LIMIT ?",
                (guild, user_id, recent)) as cur:
            rows = await cur.fetchall()
        last = [RecentResult(r[0], r[1], r[2], r[3], bool(r[4]),
                             ordinal(r[7], r[8]) - ordinal(r[5], r[6]) if r[4] else None) for r in rows]
        return PlayerStats(user_id, sum(placings.values()), placings.get(1, 0), placings, ratings, last)
