"""Ratings: OpenSkill Plackett–Luce after every finished game with two or more people, by their order among
themselves (checked against the openskill library), idempotent over restarts, nothing for cancelled tables or a
lone person with bots; leaderboard and stats."""
from __future__ import annotations

import random
from itertools import pairwise

import pytest
from openskill.models import PlackettLuce

from bot.policies import choose_action
from bot.service import GameService
from bot.storage import GameRow, SeatRow, Storage
from bot.table import Table
from bot.tournaments import RatingService
from bot.tournaments.ratings import places
from engines import Result

from .conftest import rows

GUILD = 5
PEOPLE = (101, 102, 103)



async def play_out(games: GameService, table: Table, seed: int) -> None:
    """Every seat (people too) plays the bot policy through the service until the game is over."""
    rng = random.Random(seed)
    while table.status == "running":
        player = table.to_act()[0]
        await games.act_as(table.id, player, choose_action(table.engine, table.state, player, rng), table.version)
    await games.drain()


async def people_table(games: GameService, seed: int, people=PEOPLE, bots: int = 0) -> Table:
    seats = [SeatRow(0, f"u{u}", f"P{u}", u, False) for u in people]
    seats += [SeatRow(0, f"bot{i}", f"Bot {i}", None, True) for i in range(1, bots + 1)]
    return await games.create_seated_table(game="akuma", guild_id=GUILD, channel_id=9, seats=seats, host_id=1,
                                           seed=seed)


@pytest.fixture
async def host(db_url: str):
    storage = await Storage.open(db_url)
    games = GameService(storage)
    ratings = RatingService(storage)
    games.subscribe(ratings.on_update)
    yield games, ratings
    await games.drain()
    await storage.close()


async def test_ratings_follow_openskill_plackett_luce(host, db_url: str) -> None:
    games, ratings = host
    model = PlackettLuce()
    expected = {u: model.rating() for u in PEOPLE}
    for seed in (1, 2, 3):
        table = await people_table(games, seed)
        await play_out(games, table, seed)
        place = {int(p[1:]): pl for p, pl in places(table.result().ranking).items()}
        new = model.rate([[expected[u]] for u in PEOPLE], ranks=[place[u] for u in PEOPLE])
        expected = {u: team[0] for u, team in zip(PEOPLE, new, strict=True)}
    stored = await ratings.ratings(GUILD, "akuma", list(PEOPLE))
    for u in PEOPLE:
        assert stored[u].mu == pytest.approx(expected[u].mu) and stored[u].sigma == pytest.approx(expected[u].sigma)
        assert stored[u].games == 3
    assert sum(stored[u].wins for u in PEOPLE) >= 3  # a shared first place is a win for each
    board = await ratings.leaderboard(GUILD, "akuma")
    assert [r.user_id for r in board] == sorted(PEOPLE, key=lambda u: -(expected[u].mu - 3 * expected[u].sigma))
    assert await ratings.leaderboard(GUILD + 1, "akuma") == []  # per server


async def test_ties_share_a_rank(host, db_url: str) -> None:
    games, ratings = host
    table = await people_table(games, 4)
    await play_out(games, table, 4)
    # A recorded game with a tie, fed by hand: two players share first.
    game_id = await games.storage.create_game(guild_id=GUILD, channel_id=9, game="akuma", options={}, seed=1,
                                              host_id=1, locale="en", seats=[])
    tied = Table(GameRow(game_id, GUILD, 9, "akuma", {}, 1, "finished", 1,
                         seats=[SeatRow(i, f"u{u}", "x", u) for i, u in enumerate(PEOPLE)]))
    tied.result = lambda: Result(ranking=[["u101", "u102"], ["u103"]])  # type: ignore[method-assign]
    before = await ratings.ratings(GUILD, "akuma", list(PEOPLE))
    assert await ratings.record_game(tied)
    model = PlackettLuce()
    new = model.rate([[model.rating(mu=before[u].mu, sigma=before[u].sigma)] for u in PEOPLE], ranks=[1, 1, 3])
    after = await ratings.ratings(GUILD, "akuma", list(PEOPLE))
    for u, team in zip(PEOPLE, new, strict=True):
        assert after[u].mu == pytest.approx(team[0].mu)
        assert after[u].sigma == pytest.approx(team[0].sigma)


async def test_idempotent_cancelled_and_bot_tables_change_nothing(host, db_url: str) -> None:
    games, ratings = host
    table = await people_table(games, 5)
    await play_out(games, table, 5)
    snapshot = rows(db_url, "SELECT * FROM ratings ORDER BY user_id")
    assert len(snapshot) == 3
    assert not await ratings.record_game(table)  # the same game again: nothing
    assert await ratings.catch_up(games) == 0
    assert rows(db_url, "SELECT * FROM ratings ORDER BY user_id") == snapshot

    cancelled = await people_table(games, 6)
    await games.end(cancelled.id, 1, is_admin=True)
    await games.drain()
    alone_with_bots = await people_table(games, 7, people=PEOPLE[:1], bots=2)
    await play_out(games, alone_with_bots, 7)
    assert rows(db_url, "SELECT * FROM ratings ORDER BY user_id") == snapshot
    assert rows(db_url, "SELECT COUNT(*) FROM game_results WHERE game_id = ?", cancelled.id) == [(0,)]
    assert rows(db_url, "SELECT user_id, rated FROM game_results WHERE game_id = ? ORDER BY user_id",
                alone_with_bots.id) == [(101, 0)]  # counted in stats, unrated: nobody to be rated against


async def test_people_at_a_table_with_bots_are_rated_by_their_order_among_themselves(host, db_url: str) -> None:
    """Two people and a bot: both people are rated as a two-player game in their relative order, the bot ignored;
    a person whose seat a bot took over (left the table) is still rated."""
    games, _ratings = host
    table = await people_table(games, 8, people=PEOPLE[:2], bots=1)
    await games.hand_to_bot(table.id, PEOPLE[1])  # a bot finishes the second person's game
    await play_out(games, table, 8)
    result = (await games.table(table.id)).result()
    order = places(result.ranking)
    mine = {u: order[f"u{u}"] for u in PEOPLE[:2]}
    model = PlackettLuce()
    fresh = model.rating()
    expected = model.rate([[model.rating(mu=fresh.mu, sigma=fresh.sigma)] for _ in PEOPLE[:2]],
                          ranks=[mine[u] for u in PEOPLE[:2]])
    got = dict(rows(db_url, "SELECT user_id, mu FROM ratings ORDER BY user_id"))
    assert set(got) == set(PEOPLE[:2])
    for u, team in zip(PEOPLE[:2], expected, strict=True):
        assert got[u] == pytest.approx(team[0].mu)
    assert rows(db_url, "SELECT user_id, rated FROM game_results WHERE game_id = ? ORDER BY user_id",
                table.id) == [(u, 1) for u in PEOPLE[:2]]


async def test_catch_up_after_a_restart_records_missed_games_once(db_url: str) -> None:
    storage = await Storage.open(db_url)
    games = GameService(storage)  # no rating listener: the bot "stopped" before the update was delivered
    table = await people_table(games, 8)
    await play_out(games, table, 8)
    await storage.close()
    storage = await Storage.open(db_url)
    games, ratings = GameService(storage), RatingService(storage)
    assert await ratings.catch_up(games) == 1
    assert await ratings.catch_up(games) == 0
    assert rows(db_url, "SELECT COUNT(*), SUM(games) FROM ratings") == [(3, 3)]
    stats = await ratings.stats(GUILD, PEOPLE[0])
    assert stats.games == 1 and sum(stats.placings.values()) == 1 and "akuma" in stats.ratings
    assert stats.recent[0].game_id == table.id and stats.recent[0].rated and stats.recent[0].change is not None
    await storage.close()


async def test_two_processes_recording_at_once_lose_no_update(db_url: str) -> None:
    """Two storages (two processes) record games of the same players at the same time, and the same game twice:
    every rated game counts once and no rating update is lost (row locks, not a read-modify-write race)."""
    import asyncio

    stores = [await Storage.open(db_url) for _ in range(2)]
    games = [GameService(s) for s in stores]
    services = [RatingService(s) for s in stores]
    tables = []
    for n in range(4):
        table = await people_table(games[n % 2], seed=40 + n)
        await play_out(games[n % 2], table, n)
        tables.append(table)
    recorded = await asyncio.gather(*[services[n % 2].record_game(t) for n, t in enumerate(tables)],
                                    *[services[(n + 1) % 2].record_game(t) for n, t in enumerate(tables)])
    assert sum(recorded) == 4  # each game once, whichever process got there first
    assert rows(db_url, "SELECT user_id, games FROM ratings ORDER BY user_id") == [(u, 4) for u in PEOPLE]
    # The updates chain: each game's 'before' is the previous game's 'after', the last 'after' is the rating.
    chained = rows(db_url, "SELECT user_id, mu_before, mu_after FROM game_results ORDER BY user_id, created_at")
    for user in PEOPLE:
        mine = [(b, a) for u, b, a in chained if u == user]
        assert all(prev[1] == pytest.approx(nxt[0]) for prev, nxt in pairwise(mine))
        assert rows(db_url, "SELECT mu FROM ratings WHERE user_id = ?", user)[0][0] == pytest.approx(mine[-1][1])
    for store in stores:
        await store.close()


async def test_a_corrected_game_is_rated_as_if_played_so(host, db_url: str) -> None:
    """One rated game, then its places corrected by hand: the ratings are those the corrected places give from the
    same start (OpenSkill recomputed), the wins and the recorded places follow, the games are not counted twice; a
    correction that changes nothing, or of a game never recorded, writes nothing."""
    games, ratings = host
    model = PlackettLuce()
    table = await people_table(games, 1)
    await play_out(games, table, 1)
    order = sorted(PEOPLE, key=lambda u: places(table.result().ranking)[f"u{u}"])
    corrected = {u: place for place, u in enumerate(reversed(order), start=1)}
    assert await ratings.correct_game(table.id, corrected)
    new = model.rate([[model.rating()] for _ in PEOPLE], ranks=[corrected[u] for u in PEOPLE])
    stored = await ratings.ratings(GUILD, "akuma", list(PEOPLE))
    for u, team in zip(PEOPLE, new, strict=True):
        assert stored[u].mu == pytest.approx(team[0].mu) and stored[u].sigma == pytest.approx(team[0].sigma)
        assert stored[u].games == 1 and stored[u].wins == int(corrected[u] == 1)
    assert dict(rows(db_url, "SELECT user_id, place FROM game_results WHERE game_id = ?", table.id)) == corrected
    snapshot = rows(db_url, "SELECT * FROM ratings ORDER BY user_id")
    assert not await ratings.correct_game(table.id, corrected)  # unchanged
    assert not await ratings.correct_game(table.id + 99, corrected)  # never recorded
    assert rows(db_url, "SELECT * FROM ratings ORDER BY user_id") == snapshot


async def test_a_voided_game_gives_back_what_it_changed(host, db_url: str) -> None:
    """A rated game voided by hand: the ratings go back to what they were before it, its game and win are taken off;
    the voided game stays recorded (for /stats), unrated, and is never rated again."""
    games, ratings = host
    first = await people_table(games, 1)
    await play_out(games, first, 1)
    after_first = await ratings.ratings(GUILD, "akuma", list(PEOPLE))
    assert await ratings.unrate_game(first.id)
    back = await ratings.ratings(GUILD, "akuma", list(PEOPLE))
    fresh = ratings.default(0)
    for u in PEOPLE:
        assert back[u].mu == pytest.approx(fresh.mu) and back[u].sigma == pytest.approx(fresh.sigma)
        assert (back[u].games, back[u].wins) == (0, 0) and after_first[u].games == 1
    assert rows(db_url, "SELECT COUNT(*), SUM(rated) FROM game_results WHERE game_id = ?", first.id) == [
        (len(PEOPLE), 0)]
    assert not await ratings.unrate_game(first.id)  # once
    assert not await ratings.record_game(first)  # still recorded: never rated again
