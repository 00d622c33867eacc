"""Drops, pauses between rounds and forfeits through the real services (SQLite and PostgreSQL): a drop during the
pause keeps the person out of the next seating; a drop during a round lets them finish the game, which counts; a
seat a bot plays for someone who dropped is a forfeit (last place, no points), kept over a restart; a pause under
way survives a restart and ends on time."""
from __future__ import annotations

import asyncio
import time

import pytest

from bot.errors import HostError
from bot.tournaments import Tournament

from .conftest import rows
from .test_tournament_service import ORGANISER, Host

ALICE, BOB, CAROL = 101, 102, 103


async def people_and_bots(host: Host, bots: int, **options) -> Tournament:
    tn = await host.tournaments.create(game="akuma", guild_id=5, channel_id=50, creator_id=ORGANISER, seed=4,
                                       seats_min=3, seats_max=3, **options)
    for uid, name in ((ALICE, "alice"), (BOB, "bob"), (CAROL, "carol")):
        await host.tournaments.join(tn.id, uid, name)
    await host.tournaments.add_bots(tn.id, ORGANISER, bots)
    return tn


async def settle_people_tables(host: Host, tn: Tournament) -> None:
    """Bot-only tables play themselves; a table with people gets its seat order as its result, by hand."""
    await host.idle()
    for table in [t for t in tn.round_tables(tn.current_round) if t.status == "running"]:
        await host.tournaments.set_result(tn.id, ORGANISER, table.game_id, [[u] for u in table.players])
    await host.idle()


async def test_a_drop_in_the_pause_is_out_of_the_next_round(db_url: str) -> None:
    host = await Host.open(db_url)
    tn = await people_and_bots(host, 6, break_seconds=600, rounds=2)
    await host.tournaments.start(tn.id, ORGANISER)
    await settle_people_tables(host, tn)
    assert tn.current_round == 1 and tn.next_round_at is not None and tn.next_round_at > time.time() + 500
    assert all(t.done for t in tn.round_tables(1)) and not tn.round_tables(2)  # nobody seated during the pause
    assert rows(db_url, "SELECT next_round_at IS NOT NULL FROM tournaments") in ([(1,)], [(True,)])
    await host.tournaments.drop(tn.id, ALICE, ALICE)
    await host.tournaments.next_round(tn.id, ORGANISER)  # the organiser ends the pause at once
    await host.tournaments.openings(tn.id)
    seated = [u for t in tn.round_tables(2) for u in t.players]
    assert tn.current_round == 2 and tn.next_round_at is None and ALICE not in seated and len(seated) == 8
    standings = {r.user_id: r for r in await host.tournaments.standings(tn)}
    assert standings[ALICE].dropped and standings[ALICE].forfeits == 0 and standings[ALICE].games == 1
    await settle_people_tables(host, tn)
    assert tn.status == "finished" and tn.next_round_at is None  # no pause after the last round
    await host.close()


async def test_a_drop_during_a_game_counts_it_and_a_bot_seat_after_it_is_a_forfeit(db_url: str) -> None:
    host = await Host.open(db_url)
    tn = await people_and_bots(host, 6, rounds=1)
    await host.tournaments.start(tn.id, ORGANISER)
    await host.idle()
    alice_table, bob_table = tn.live_table_of(ALICE), tn.live_table_of(BOB)
    assert alice_table is not None and bob_table is not None
    await host.tournaments.drop(tn.id, ALICE, ALICE)  # plays on: her game counts
    await host.tournaments.drop(tn.id, BOB, BOB)
    assert (await host.games.table(alice_table.game_id)).seat_of_user(ALICE) is not None
    await host.tournaments.replace(tn.id, ORGANISER, BOB)  # a bot plays Bob's seat after he dropped
    for table in {alice_table.id: alice_table, bob_table.id: bob_table}.values():
        if table.status == "running" or table.status == "cancelled":
            await host.tournaments.set_result(tn.id, ORGANISER, table.game_id, [[u] for u in table.players])
    await host.idle()
    tn = await host.tournaments.get(tn.id)  # over now, so read from storage (an ended tournament is not kept)
    alice_table, bob_table = (next(t for t in tn.tables if t.id == old.id) for old in (alice_table, bob_table))
    assert BOB in bob_table.forfeits and bob_table.results[BOB] == (len(bob_table.players), 0.0)
    assert ALICE not in alice_table.forfeits and alice_table.results[ALICE][1] == 3.0  # first in seat order
    others = [u for u in bob_table.players if u != BOB]  # the others move up, in their order
    assert [bob_table.results[u][0] for u in others] == list(range(1, len(others) + 1))
    await host.close()
    again = await Host.open(db_url)
    reloaded = await again.tournaments.get(tn.id)
    stored = next(t for t in reloaded.tables if t.id == bob_table.id)
    assert stored.forfeits == {BOB} and stored.results[BOB] == (len(bob_table.players), 0.0)
    rows_by_id = {r.user_id: r for r in await again.tournaments.standings(reloaded)}
    assert (rows_by_id[BOB].forfeits, rows_by_id[BOB].games, rows_by_id[BOB].points) == (1, 0, 0.0)
    assert rows_by_id[ALICE].games == 1 and rows_by_id[ALICE].dropped
    await again.close()


async def test_a_pause_survives_a_restart_and_ends_on_time(db_url: str) -> None:
    first = await Host.open(db_url)
    tn = await first.tournaments.create(game="akuma", guild_id=5, channel_id=50, creator_id=ORGANISER, seed=4,
                                        rounds=2, break_seconds=1)
    await first.tournaments.add_bots(tn.id, ORGANISER, 6)
    await first.tournaments.start(tn.id, ORGANISER)
    await first.idle()
    assert tn.current_round == 1 and tn.next_round_at is not None
    await first.close()  # "crash" during the pause
    second = await Host.open(db_url)
    assert await second.tournaments.resume() == 1
    await asyncio.sleep(1.2)
    await second.idle()
    tn = await second.tournaments.get(tn.id)
    assert tn.status == "finished" and tn.current_round == 2 and tn.next_round_at is None
    await second.close()


async def test_bad_pause_or_timer_is_refused_and_changes_nothing(db_url: str) -> None:
    host = await Host.open(db_url)
    for bad in ({"break_seconds": -1}, {"break_seconds": 31 * 60}, {"turn_seconds": 601}):
        with pytest.raises(HostError) as refused:
            await host.tournaments.create(game="akuma", guild_id=5, channel_id=50, creator_id=ORGANISER, **bad)
        assert refused.value.code in ("tournament.bad_break", "tournament.bad_timer")
    assert rows(db_url, "SELECT COUNT(*) FROM tournaments") == [(0,)]
    tn = await host.tournaments.create(game="akuma", guild_id=5, channel_id=50, creator_id=ORGANISER, rounds=1,
                                       turn_seconds=45)
    await host.tournaments.join(tn.id, ALICE, "alice")
    await host.tournaments.add_bots(tn.id, ORGANISER, 3)
    with pytest.raises(HostError):
        await host.tournaments.open_checkin(tn.id, ORGANISER, minutes=0)
    assert tn.status == "signup" and rows(db_url, "SELECT status FROM tournaments") == [("signup",)]
    await host.tournaments.start(tn.id, ORGANISER)
    await host.tournaments.openings(tn.id)
    game = await host.games.table(tn.round_tables(1)[0].game_id)
    assert game.row.turn_seconds == 45  # the tournament's time per decision at its tables
    await host.close()


async def test_a_table_voided_in_the_pause_is_replayed_before_the_next_round(db_url: str) -> None:
    host = await Host.open(db_url)
    tn = await host.tournaments.create(game="akuma", guild_id=5, channel_id=50, creator_id=ORGANISER, seed=4,
                                       rounds=2, break_seconds=1)
    await host.tournaments.add_bots(tn.id, ORGANISER, 6)
    await host.tournaments.start(tn.id, ORGANISER)
    await host.idle()
    assert tn.current_round == 1 and tn.next_round_at is not None
    host.allow = lambda game_id: False  # the replay waits
    await host.tournaments.void(tn.id, ORGANISER, tn.round_tables(1)[0].game_id)
    await host.tournaments.openings(tn.id)
    await asyncio.sleep(1.2)
    assert tn.current_round == 1 and tn.next_round_at is None  # the pause ended without seating round 2
    host.allow = lambda game_id: True
    replay = tn.round_tables(1)[-1]
    host.scheduler.kick(replay.game_id)
    await host.idle()
    assert replay.status == "finished" and tn.next_round_at is not None  # a new pause, then round 2
    await asyncio.sleep(1.2)
    await host.idle()
    assert tn.status == "finished" and tn.current_round == 2
    await host.close()
