"""Same-deal rounds' equal tables (issue 55): one table size per round with bots in the seats the field leaves,
at least two tables, seats rotated so that a player is compared with others about equally often; the bots filling
seats score for nobody; a stored round keeps which seats bots fill."""
from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from bot.errors import HostError
from bot.levels import BotLevel
from bot.tournaments import same_deal
from bot.tournaments.models import Deal, Format, TableStatus, TournamentTable
from bot.tournaments.settings import TournamentSettings

from .test_tournament_service import ORGANISER, Host


@pytest.mark.parametrize(("low", "high"), [(2, 2), (2, 4), (3, 4), (3, 6), (4, 4)])
def test_one_table_size_with_fewest_bots_and_two_tables(low: int, high: int) -> None:
    for count in range(1, 40):
        size = same_deal.table_size(count, low, high)
        if count <= low:
            assert size is None, count  # one table at most: nothing to compare
            continue
        assert size is not None and low <= size <= high
        tables = math.ceil(count / size)
        fills = tables * size - count
        assert tables >= 2
        assert all(math.ceil(count / s) < 2 or math.ceil(count / s) * s - count >= fills
                   for s in range(low, high + 1)), (count, size)
        people_low, people_high = same_deal.balanced_range(count, size)
        assert people_high == size and people_low * tables <= count and people_low >= 1


def finished(layouts: list[list[int | None]], number: int) -> list[TournamentTable]:
    tables = [TournamentTable.from_seats(number, i + 1, seats) for i, seats in enumerate(layouts)]
    for table in tables:
        table.status = TableStatus.FINISHED
    return tables


def test_seats_rotate_so_nobody_is_compared_with_the_same_person_twice_while_others_are_left() -> None:
    history: list[TournamentTable] = []
    for number in range(1, 5):  # the same two tables of four, four rounds: each meets each of the other table once
        layouts = same_deal.lay_out([[1, 2, 3, 4], [5, 6, 7, 8]], 4, history, random.Random(number))
        assert all(sorted(u for u in lay if u is not None) == group
                   for lay, group in zip(layouts, [[1, 2, 3, 4], [5, 6, 7, 8]], strict=True))
        history += finished(layouts, number)
    pairs, held = same_deal.compared(history)
    assert len(pairs) == 16 and set(pairs.values()) == {1}
    assert max(held.values()) <= 2 and len({seat for _, seat in held}) == 4


def test_a_replayed_or_cancelled_table_compares_nobody() -> None:
    tables = finished([[1, 2], [3, 4]], 1)
    replay = TournamentTable.from_seats(1, 2, [4, 3])
    replay.attempt, replay.status = 1, TableStatus.FINISHED
    tables[1].status = TableStatus.VOID
    pairs, _ = same_deal.compared([*tables, replay])
    assert not pairs


def test_bots_fill_the_seats_left_and_the_seat_list_keeps_them() -> None:
    layouts = same_deal.lay_out([[1, 2, 3], [4, 5]], 3, [], random.Random(1))
    assert [len(lay) for lay in layouts] == [3, 3] and sum(u is None for lay in layouts for u in lay) == 1
    table = TournamentTable.from_seats(1, 2, layouts[1])
    assert table.seat_list() == layouts[1] and sorted(table.players) == [4, 5] and len(table.fill) == 1


def test_a_same_deal_tournament_has_no_final_table_and_needs_two_tables() -> None:
    with pytest.raises(HostError) as err:
        TournamentSettings(game="pileup", format=Format.SWISS, deal=Deal.SAME, final_table=True).check()
    assert err.value.code == "tournament.same_deal_final_table"


async def test_a_same_deal_start_needs_two_tables(db_url: str) -> None:
    host = await Host.open(db_url)
    tn = await host.tournaments.create(game="pileup", guild_id=5, channel_id=50, creator_id=ORGANISER, seed=3,
                                       seats_min=3, seats_max=4, deal="same")
    await host.tournaments.add_bots(tn.id, ORGANISER, 3)
    with pytest.raises(HostError) as err:
        await host.tournaments.start(tn.id, ORGANISER)
    assert err.value.code == "tournament.too_few_players" and err.value.fields["min"] == 4
    assert tn.status == "signup" and not tn.tables
    await host.close()


async def test_a_same_deal_swiss_seats_equal_tables_with_bots_in_the_seats_left(db_url: str) -> None:
    """Seven bots at tables of three or four seats, three rounds: every round two tables of four, one seat a bot
    fills (named, at the tournament's bot level), the same seat list after a reload; the filling bot scores for
    nobody and every entrant plays every round (no byes)."""
    host = await Host.open(db_url)
    tn = await host.tournaments.create(game="pileup", guild_id=5, channel_id=50, creator_id=ORGANISER, seed=8,
                                       seats_min=3, seats_max=4, rounds=3, deal="same", bot_level="easy")
    await host.tournaments.add_bots(tn.id, ORGANISER, 7)
    await host.tournaments.start(tn.id, ORGANISER)
    await host.idle()
    assert tn.status == "finished" and tn.current_round == 3
    for number in (1, 2, 3):
        tables = tn.round_tables(number)
        assert [len(t.seat_list()) for t in tables] == [4, 4] and sum(len(t.fill) for t in tables) == 1
        assert all(t.status is TableStatus.FINISHED and set(t.results) == set(t.players) for t in tables)
        filled = next(t for t in tables if t.fill)
        game = await host.games.table(filled.game_id)
        bot = game.seats[filled.fill[0]]
        assert bot.is_bot and bot.user_id is None and bot.name == f"Bot in seat {filled.fill[0] + 1}"
        assert bot.level is BotLevel.EASY and bot.player not in {e.player for e in tn.entrants.values()}
        places = sorted(p for p, _ in filled.results.values())
        assert len(places) == 3 and places[-1] <= 4  # places among the table's four seats, the bot's left out
    assert Counter(u for t in tn.tables for u in t.players) == Counter({u: 3 for u in tn.entrants})
    stored = await host.storage.tournaments.load(tn.id)
    assert stored is not None
    assert [t.seat_list() for t in stored.tables] == [t.seat_list() for t in tn.tables]
    await host.close()


@pytest.mark.parametrize(("locale", "said"), [("en", "at least 4 entrants, for two tables"), ("ja", "4人以上")])
async def test_the_sign_up_says_a_same_deal_start_needs_two_tables(db_url: str, locale: str, said: str) -> None:
    from bot.tournaments.text import signup_lines

    host = await Host.open(db_url)
    tn = await host.tournaments.create(game="pileup", guild_id=5, channel_id=50, creator_id=ORGANISER, seed=3,
                                       seats_min=3, seats_max=4, deal="same", locale=locale)
    assert said in signup_lines(tn, locale)[0]
    own = await host.tournaments.create(game="pileup", guild_id=5, channel_id=50, creator_id=ORGANISER, seed=3,
                                        seats_min=3, seats_max=4, locale=locale)
    assert said not in signup_lines(own, locale)[0]
    await host.close()


async def test_a_same_deal_round_killed_mid_round_keeps_its_deal_and_seats(db_url: str) -> None:
    """One table of the round played out, the other held still, the process stops; after the restart the held
    table goes on from its stored game (the round's seed, its seats and its filling bot unchanged) and the round
    is scored as if nothing happened."""
    held: set[int] = set()
    first = await Host.open(db_url, allow=lambda game_id: game_id not in held)
    tn = await first.tournaments.create(game="rocca", guild_id=5, channel_id=50, creator_id=ORGANISER, seed=12,
                                        seats_min=3, seats_max=4, rounds=2, deal="same")
    await first.tournaments.add_bots(tn.id, ORGANISER, 7)
    held.update(range(2, 100))  # every game but the first (round 1's first table) is held still
    await first.tournaments.start(tn.id, ORGANISER)
    await first.idle()
    round1 = tn.round_tables(1)
    assert [t.status for t in round1] == [TableStatus.FINISHED, TableStatus.RUNNING]
    before = {t.number: (t.seat_list(), (await first.games.table(t.game_id)).row.seed) for t in round1}
    assert before[1][1] == before[2][1]
    await first.close()

    second = await Host.restarted(db_url)
    tn = await second.tournaments.get(tn.id)
    assert tn.status == "finished" and tn.current_round == 2
    after = {t.number: (t.seat_list(), (await second.games.table(t.game_id)).row.seed) for t in tn.round_tables(1)}
    assert after == before and all(t.status is TableStatus.FINISHED for t in tn.tables)
    assert all(len(t.seat_list()) == 4 for t in tn.tables) and sum(len(t.fill) for t in tn.round_tables(2)) == 1
    await second.close()
