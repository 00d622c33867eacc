"""Servers' limits on both backends (migration SQLite 0011 / PostgreSQL 0007): the defaults until an admin changes
one, changes kept beside the other settings, the organiser role set and cleared, the counts the caps are checked
against (a tournament's tables never count against its creator; tables of no server counted apart), and the
cooldown buckets."""
from __future__ import annotations

import pytest

from bot.errors import HostError
from bot.limits import BOUNDS, Cap, CreationCooldowns, Limits
from bot.service import GameService
from bot.storage import SeatRow, Storage

GUILD, OTHER, CHANNEL, ROLE = 900_000_000_000_000_001, 900_000_000_000_000_002, 1_234_567_890_123_456_789, \
    1_234_567_890_123_456_000  # 64-bit snowflakes
ALICE, BOB = 101, 102


async def test_limits_are_the_defaults_until_changed_and_are_kept(service: GameService, db_url: str) -> None:
    storage = service.storage
    assert await storage.guild_limits(GUILD) == Limits()
    await storage.set_guild_language(GUILD, "ja")
    await storage.set_guild_limits(GUILD, {Cap.TOURNAMENT_BOTS: 4, Cap.CREATIONS_PER_MINUTE: 10})
    await storage.set_organiser_role(GUILD, ROLE)
    await storage.set_guild_limits(GUILD, {Cap.TABLES_PER_SERVER: 100})
    expected = Limits(tournament_bots=4, creations_per_minute=10, tables_per_server=100, organiser_role_id=ROLE)
    assert await storage.guild_limits(GUILD) == expected
    assert await storage.guild_language(GUILD) == "ja"  # the other settings stay
    assert await storage.guild_limits(OTHER) == Limits()  # per server
    fresh = await Storage.open(db_url)
    try:
        assert await fresh.guild_limits(GUILD) == expected
        await fresh.set_organiser_role(GUILD, None)
        assert (await fresh.guild_limits(GUILD)).organiser_role_id is None
    finally:
        await fresh.close()


async def test_counts_per_member_and_server_leave_tournament_tables_to_their_caps(service: GameService) -> None:
    storage = service.storage
    for user in (ALICE, BOB):
        await service.create_lobby(game="akuma", guild_id=GUILD, channel_id=CHANNEL + user, user_id=user,
                                   name=str(user))
    await service.create_lobby(game="akuma", guild_id=OTHER, channel_id=CHANNEL, user_id=ALICE, name="a")
    assert await storage.count_games(GUILD, "lobby") == 2
    assert await storage.count_games(GUILD, "lobby", host_id=ALICE) == 1
    for dm in (1, 2):  # lobbies of no server (DMs, group DMs): counted together, apart from every server's
        await service.create_lobby(game="akuma", guild_id=None, channel_id=CHANNEL + 1000 + dm, user_id=ALICE,
                                   name="a")
    assert await storage.count_games(None, "lobby", host_id=ALICE) == 2
    assert await storage.count_games(None, "lobby", host_id=BOB) == 0 and await storage.count_games(None, "lobby") == 2
    assert await storage.count_games(GUILD, "lobby") == 2
    seats = [SeatRow(0, f"u{ALICE}", "a", ALICE), *(SeatRow(0, f"bot{i}", f"Bot {i}", None, True) for i in (1, 2))]
    casual = await service.create_seated_table(game="akuma", guild_id=GUILD, channel_id=CHANNEL, seats=seats,
                                               host_id=ALICE, seed=1)
    hosted = await service.create_seated_table(game="akuma", guild_id=GUILD, channel_id=CHANNEL + 9, seats=seats,
                                               host_id=ALICE, seed=2)
    await storage.db.execute("INSERT INTO tournaments (guild_id, channel_id, creator_id, game, format, rounds, "
                             "seats_min, seats_max, status, seed, created_at, updated_at) VALUES "
                             "(?, ?, ?, 'akuma', 'swiss', 1, 3, 4, 'running', 1, 0, 0)", GUILD, CHANNEL, ALICE)
    tournament_id = await storage.db.fetchval("SELECT MAX(id) FROM tournaments")
    await storage.db.execute("INSERT INTO tournament_tables (tournament_id, round, number, players, status, game_id) "
                             "VALUES (?, 1, 1, '[]', 'running', ?)", tournament_id, hosted.id)
    assert casual.status == "running"
    assert await storage.count_games(GUILD, "running") == 2  # the server's load: every running table
    assert await storage.count_games(GUILD, "running", host_id=ALICE) == 1  # her own: not the tournament's


def test_a_limit_outside_its_bounds_is_refused() -> None:
    for cap, (low, high) in BOUNDS.items():
        assert Limits().changed({cap: high}).cap(cap) == high
        with pytest.raises(HostError) as refused:
            Limits().changed({cap: low - 1})
        assert refused.value.code == "limit.out_of_range" and refused.value.fields["limit"] == cap.value


def test_cooldown_buckets_refuse_beyond_the_rate_and_forget_refilled_members() -> None:
    cooldowns = CreationCooldowns()
    for _ in range(3):
        cooldowns.hit(GUILD, ALICE, 3, now=1000.0)
    with pytest.raises(HostError) as refused:
        cooldowns.hit(GUILD, ALICE, 3, now=1010.0)
    assert refused.value.code == "limit.cooldown" and refused.value.fields == {"max": 3, "seconds": 50}
    cooldowns.hit(OTHER, ALICE, 3, now=1010.0)  # another server: its own bucket
    cooldowns.hit(GUILD, BOB, 3, now=1010.0)
    cooldowns.hit(GUILD, ALICE, 3, now=1061.0)  # a minute after her first: refilled
    for user in range(1000, 1100):
        cooldowns.hit(GUILD, user, 3, now=2000.0)
    cooldowns.hit(GUILD, ALICE, 3, now=2100.0)  # the sweep drops every bucket that refilled
    assert len(cooldowns) == 1
