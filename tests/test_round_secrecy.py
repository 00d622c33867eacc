"""Same-deal secrecy's rule (issue 55, ``bot.round_secrecy``) on both backends: a table of a same-deal round is kept
from everyone not seated at it while any table of its round still plays (its other tables' entrants included),
and from nobody once the round's last table has ended; a tournament with its own deals keeps nothing back; a
voided attempt's game follows its round; a game of no tournament is kept from nobody."""
from __future__ import annotations

import pytest

from bot.round_secrecy import hidden_from, kept_from, standings_seen
from bot.storage import Storage
from bot.storage.rows import SeatRow
from bot.tournaments.models import Deal, TableStatus, Tournament, TournamentTable

ALICE, BOB, CAROL, SPECTATOR = 101, 102, 103, 109


async def a_game(storage: Storage) -> int:
    return await storage.create_game(guild_id=5, channel_id=51, game="akuma", options={}, seed=7, host_id=ALICE,
                                     locale="en", seats=[SeatRow(0, "p1", "alice", ALICE)])


async def a_round(storage: Storage, deal: Deal) -> tuple[Tournament, TournamentTable, TournamentTable]:
    """Round 1 of a running Swiss: table 1 (Alice, finished) and table 2 (Bob and Carol, playing)."""
    store = storage.tournaments
    tn = Tournament(id=0, guild_id=5, channel_id=50, creator_id=ALICE, game="akuma", format="swiss", rounds=2,
                    seats_min=3, seats_max=4, seed=7, status="running", deal=deal)
    tn.id = await store.create(tn)
    ours, other = TournamentTable(0, 1, 1, [ALICE, -1, -2]), TournamentTable(0, 1, 2, [BOB, CAROL, -3])
    await store.open_round(tn, 1, [ours, other])
    ours.status, ours.game_id = TableStatus.FINISHED, await a_game(storage)
    other.status, other.game_id = TableStatus.RUNNING, await a_game(storage)
    await store.set_table(ours)
    await store.set_table(other)
    return tn, ours, other


async def test_a_same_deal_round_is_kept_from_all_but_each_table_s_own(db_url: str) -> None:
    storage = await Storage.open(db_url)
    try:
        _, ours, other = await a_round(storage, Deal.SAME)
        first, second = ours.game_id or 0, other.game_id or 0
        assert not await kept_from(storage, first, ALICE)  # her own table
        for outsider in (BOB, CAROL, SPECTATOR):  # the round's other entrants too: they hold the same cards
            assert await kept_from(storage, first, outsider)
        assert await kept_from(storage, second, ALICE) and not await kept_from(storage, second, CAROL)
        assert not await kept_from(storage, await a_game(storage), SPECTATOR)  # no tournament's game
        other.status = TableStatus.FINISHED  # the round's last table ends: everything opens
        await storage.tournaments.set_table(other)
        for user in (ALICE, BOB, CAROL, SPECTATOR):
            assert not await kept_from(storage, first, user) and not await kept_from(storage, second, user)
    finally:
        await storage.close()


async def test_a_tournament_with_its_own_deals_keeps_nothing_back(db_url: str) -> None:
    storage = await Storage.open(db_url)
    try:
        _, ours, other = await a_round(storage, Deal.OWN)
        assert not await kept_from(storage, ours.game_id or 0, SPECTATOR)
        assert not await kept_from(storage, other.game_id or 0, ALICE)
    finally:
        await storage.close()


@pytest.mark.parametrize("status", [TableStatus.VOID, TableStatus.CANCELLED])
def test_a_voided_or_cancelled_table_follows_its_round(status: TableStatus) -> None:
    tn = Tournament(id=1, guild_id=5, channel_id=50, creator_id=ALICE, game="akuma", format="swiss", rounds=2,
                    seats_min=3, seats_max=4, seed=7, status="running", deal=Deal.SAME)
    ended = TournamentTable(1, 1, 1, [ALICE, -1, -2], status=status, game_id=11)
    replay = TournamentTable(1, 1, 1, [ALICE, -1, -2], status=TableStatus.RUNNING, game_id=13, attempt=1)
    tn.tables = [ended, replay, TournamentTable(1, 1, 2, [BOB, -3, -4], status=TableStatus.FINISHED, game_id=12)]
    assert hidden_from(tn, 11, BOB) and not hidden_from(tn, 11, ALICE)
    replay.status = TableStatus.FINISHED
    assert not hidden_from(tn, 11, BOB) and not hidden_from(tn, 12, ALICE)


def test_the_standings_count_a_same_deal_round_once_it_is_over() -> None:
    tn = Tournament(id=1, guild_id=5, channel_id=50, creator_id=ALICE, game="akuma", format="swiss", rounds=2,
                    seats_min=3, seats_max=4, seed=7, status="running", deal=Deal.SAME, current_round=1)
    ended = TournamentTable(1, 1, 1, [ALICE, -1, -2], status=TableStatus.FINISHED, game_id=11,
                            results={ALICE: (1, 3.0), -1: (2, 1.5), -2: (3, 0.0)})
    playing = TournamentTable(1, 1, 2, [BOB, -3, -4], status=TableStatus.RUNNING, game_id=12)
    tn.tables = [ended, playing]
    seen = standings_seen(tn)
    assert [tb.status for tb in seen.tables] == [TableStatus.RUNNING, TableStatus.RUNNING]
    assert not seen.tables[0].results and ended.results and ended.status is TableStatus.FINISHED  # a copy
    playing.status = TableStatus.FINISHED
    assert standings_seen(tn) is tn
    tn.deal, playing.status = Deal.OWN, TableStatus.RUNNING
    assert standings_seen(tn) is tn  # its own deals: every table counts as it ends
