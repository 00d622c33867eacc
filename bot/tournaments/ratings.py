"""Ratings per server and game: OpenSkill's Plackett–Luce model (built for free-for-all multiplayer, ties
allowed), updated after every finished game with two or more people — tournament tables and casual tables alike.
The people are rated by their order among themselves; the host's bots are ignored.

Every person of every finished game is also recorded for ``/stats`` (one person with bots counts there, unrated).
Recording is idempotent (keyed by game id, checked inside the transaction), so a replayed update or the
start-up ``catch_up`` never applies a result twice; a cancelled table changes nothing.
"""
from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Callable

from openskill.models import PlackettLuce

from bot.service import GameService
from bot.storage import GameStatus, ShardFilter, Storage
from bot.storage.ratings import Skill
from bot.storage.rows import SeatRow
from bot.table import Table, Update, UpdateKind

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
        if update.kind is UpdateKind.ENDED and update.table.status is GameStatus.FINISHED:
            await self.record_game(update.table)

    async def record_game(self, table: Table) -> bool:
        """Record the people of a finished game and, when there are two or more at a server's table, rate them by
        their order among themselves (a DM or group DM game is recorded, never rated): the host's bots are
        ignored, and a person whose seat a bot finished (away, left) still counts, so leaving a lost game does not
        dodge its rating; a tournament's no-show does not (``people_of``)."""
        result = table.result()
        humans = await self.people_of(table)
        if table.status is not GameStatus.FINISHED or result is None or not humans:
            return False
        place_of = places(result.ranking)
        places_by_user = {s.user_id: place_of[s.player] for s in humans if s.user_id is not None}
        rated = len(humans) >= 2 and table.place.rated  # ratings belong to a server
        fresh = self.default(0)
        return await self.storage.ratings.record_game(
            table.id, guild_id=table.row.guild_id or 0, game=table.row.game, seats=len(table.seats),
            places=places_by_user, rate=self._rater(places_by_user) if rated else None,
            default=(fresh.mu, fresh.sigma), now=time.time())

    async def people_of(self, table: Table) -> list[SeatRow]:
        """The seats of a game whose people count for ``/stats`` and ratings: every person's, except at a
        tournament's table a no-show's (a bot played the seat from before their first move: they did not play it,
        and the tournament scores them last). At a casual table leaving before one's first move still counts, so a
        bad deal is not dodged."""
        people = [s for s in table.seats if s.user_id is not None]
        never_moved = {s.seat for s in people if s.is_bot and not s.showed_up}
        if never_moved and await self.storage.tournaments.tournament_of_game(table.id) is not None:
            return [s for s in people if s.seat not in never_moved]
        return people

    def _rater(self, places_by_user: dict[int, int]) -> Callable[[dict[int, Skill]], dict[int, Skill]]:
        """The update of the people's ratings by their places among themselves (ratings before -> after)."""
        def rate(before: dict[int, Skill]) -> dict[int, Skill]:
            users = list(places_by_user)
            teams = [[self.model.rating(mu=before[u][0], sigma=before[u][1])] for u in users]
            new = self.model.rate(teams, ranks=[places_by_user[u] for u in users])
            return {u: (team[0].mu, team[0].sigma) for u, team in zip(users, new, strict=True)}
        return rate

    async def correct_game(self, game_id: int, places_by_user: dict[int, int]) -> bool:
        """A finished game's places corrected by hand: the ratings it changed are redone with the new places (and
        ``/stats`` shows them); False when the game was not recorded or nothing changes."""
        return await self.storage.ratings.correct_game(game_id, places_by_user, self._rater(places_by_user),
                                                       time.time())

    async def catch_up(self, games: GameService, shards: ShardFilter | None = None) -> int:
        """Record finished games the bot had no chance to record (it stopped between a game's last commit and
        the update reaching this listener) — of the owned shards' servers only, when ``shards`` is given."""
        done = 0
        for game_id in await self.storage.ratings.unrecorded_games(shards):
            done += await self.record_game(await games.table(game_id))
        return done

    async def unrate_game(self, game_id: int) -> bool:
        """A finished game voided by hand: the ratings it changed are undone (it stays in ``/stats``, unrated)."""
        return await self.storage.ratings.unrate_game(game_id, time.time())

    # ---- queries ---------------------------------------------------------------------
    async def _ratings(self, guild_id: int, game: str, user_ids: list[int]) -> dict[int, RatingRow]:
        found = {uid: self.default(uid) for uid in user_ids}
        for row in await self.storage.ratings.ratings(guild_id, game, user_ids):
            found[row[0]] = RatingRow(*row)
        return found

    async def ratings(self, guild_id: int | None, game: str, user_ids: list[int]) -> dict[int, RatingRow]:
        """Current ratings (a newcomer's default for unknown players; bot entrants have negative ids)."""
        return await self._ratings(guild_id or 0, game, [u for u in user_ids if u > 0])

    async def leaderboard(self, guild_id: int | None, game: str, limit: int = 10) -> list[RatingRow]:
        return [RatingRow(*r) for r in await self.storage.ratings.leaderboard(guild_id or 0, game, limit)]

    async def stats(self, guild_id: int | None, user_id: int, recent: int = 5) -> PlayerStats:
        guild = guild_id or 0
        store = self.storage.ratings
        placings = await store.placings(guild, user_id)
        ratings = {r[0]: RatingRow(*r[1:]) for r in await store.player_ratings(guild, user_id)}
        last = [RecentResult(r[0], r[1], r[2], r[3], bool(r[4]),
                             ordinal(r[7], r[8]) - ordinal(r[5], r[6]) if r[4] else None)
                for r in await store.recent_results(guild, user_id, recent)]
        return PlayerStats(user_id, sum(placings.values()), placings.get(1, 0), placings, ratings, last)
