"""Storage and the game service against a real temporary SQLite file (design.md, Tests 3)."""
from __future__ import annotations

import asyncio

import pytest

from bot.errors import HostError
from bot.scheduler import BotScheduler
from bot.service import GameService
from bot.storage import SeatRow, Storage, VersionConflict
from bot.table import EndReason, UpdateKind
from engines import EngineError, get_engine

from .conftest import rows

ALICE, BOB, CAROL = 101, 102, 103


async def started_table(service: GameService, *, humans=(ALICE, BOB, CAROL), bots: int = 0, seed: int = 5):
    table = await service.create_lobby(game="akuma", guild_id=1, channel_id=10, user_id=humans[0], name="Alice",
                                       options={"start_player": 0}, seed=seed)
    for uid in humans[1:]:
        await service.join(table.id, uid, f"user{uid}")
    for _ in range(bots):
        await service.add_bot(table.id, humans[0])
    await service.start(table.id, humans[0])
    return table



async def test_migrations_are_recorded_and_idempotent(db_url: str) -> None:
    storage = await Storage.open(db_url)
    version = await storage.migrate()
    assert version >= 1
    assert await storage.migrate() == version
    backend = storage.backend
    await storage.close()
    if backend == "sqlite":
        assert rows(db_url, "PRAGMA user_version") == [(version,)]
        assert rows(db_url, "PRAGMA journal_mode") == [("wal",)]
    else:
        assert [v for (v,) in rows(db_url, "SELECT version FROM schema_migrations ORDER BY version")] == \
            list(range(1, version + 1))


async def test_migrations_run_once_when_processes_start_together(db_url: str) -> None:
    """Several storages opening one fresh database at once: each migration is applied exactly once."""
    if db_url.startswith("postgresql"):  # a blank database, not the migrated template
        rows(db_url, "DROP SCHEMA public CASCADE")
        rows(db_url, "CREATE SCHEMA public")
    storages = await asyncio.gather(*[Storage.open(db_url) for _ in range(4)])
    versions = {await s.migrate() for s in storages}
    for storage in storages:
        await storage.close()
    assert len(versions) == 1
    assert rows(db_url, "SELECT COUNT(*) FROM games") == [(0,)]


async def test_times_and_snowflakes_keep_their_precision(service: GameService) -> None:
    """A time.time() deadline and 64-bit ids come back exactly (REAL would lose seconds on PostgreSQL)."""
    snowflake = 1_234_567_890_123_456_789
    game_id = await service.storage.create_game(guild_id=snowflake, channel_id=snowflake + 1, game="akuma",
                                                options={}, seed=2 ** 62 - 1, host_id=snowflake + 2, locale="en",
                                                seats=[SeatRow(0, "u1", "A", snowflake + 3)])
    deadline = 1_790_000_000.123456
    await service.storage.start_game(game_id, state="{}", expected_version=0, bot_to_act=False, deadline=deadline)
    row = await service.storage.get_game(game_id)
    assert (row.guild_id, row.channel_id, row.host_id, row.seed) == (snowflake, snowflake + 1, snowflake + 2,
                                                                    2 ** 62 - 1)
    assert row.deadline == deadline and row.seats[0].user_id == snowflake + 3


async def test_lobby_rules(service: GameService) -> None:
    table = await service.create_lobby(game="akuma", guild_id=1, channel_id=10, user_id=ALICE, name="Alice")
    with pytest.raises(HostError) as err:
        await service.create_lobby(game="akuma", guild_id=1, channel_id=10, user_id=ALICE, name="Alice")
    assert err.value.code == "already_seated"
    with pytest.raises(HostError) as err:
        await service.start(table.id, ALICE)
    assert err.value.code == "not_enough_players"
    await service.join(table.id, BOB, "Bob")
    with pytest.raises(HostError) as err:
        await service.join(table.id, BOB, "Bob")
    assert err.value.code == "already_joined"
    with pytest.raises(HostError) as err:
        await service.add_bot(table.id, BOB)
    assert err.value.code == "host_only"
    for _ in range(4):
        await service.add_bot(table.id, ALICE)
    with pytest.raises(HostError) as err:
        await service.add_bot(table.id, ALICE)
    assert err.value.code == "table_full"
    await service.join(table.id, CAROL, "Carol")  # a person takes the last bot's seat of a full lobby
    assert [s.player for s in table.seats] == ["u101", "u102", "bot1", "bot2", "bot3", "u103"]
    await service.leave_lobby(table.id, CAROL)
    await service.add_bot(table.id, ALICE)
    # The host leaves: Bob hosts now; a second table in another channel is fine for Alice.
    await service.leave_lobby(table.id, ALICE)
    assert table.row.host_id == BOB
    other = await service.create_lobby(game="akuma", guild_id=1, channel_id=11, user_id=ALICE, name="Alice")
    assert other.id != table.id
    await service.start(table.id, BOB)
    assert table.status == "running" and table.state.players == ["u102", "bot1", "bot2", "bot3", "bot4"]


async def test_bad_options_are_refused_and_nothing_is_stored(service: GameService, db_url: str) -> None:
    with pytest.raises(EngineError):
        await service.create_lobby(game="akuma", guild_id=1, channel_id=10, user_id=ALICE, name="A",
                                   options={"start_player": "x"})
    with pytest.raises(EngineError):
        await service.create_lobby(game="nosuchgame", guild_id=1, channel_id=10, user_id=ALICE, name="A")
    assert rows(db_url, "SELECT COUNT(*) FROM games") == [(0,)]


async def test_act_commits_one_action_and_refuses_bad_input_without_change(service: GameService,
                                                                           db_url: str) -> None:
    table = await started_table(service)
    engine = get_engine("akuma")
    first = engine.to_act(table.state)[0]
    assert first == "u101"  # start_player option
    version = table.version
    state_before = engine.dump(table.state)
    card = table.state.hands[first][0]

    for attempt in [
        dict(user=BOB, action={"type": "play", "cards": [table.state.hands["u102"][0]]}, ver=version),  # not turn
        dict(user=ALICE, action={"type": "release", "cards": [card]}, ver=version),  # release on empty row
        dict(user=ALICE, action={"type": "play", "cards": ["W9"]}, ver=version),  # not in hand
        dict(user=ALICE, action={"type": "nonsense"}, ver=version),  # garbage
        dict(user=999, action={"type": "play", "cards": [card]}, ver=version),  # not seated
        dict(user=ALICE, action={"type": "play", "cards": [card]}, ver=version - 1),  # stale
    ]:
        with pytest.raises((HostError, EngineError)):
            await service.act(table.id, attempt["user"], attempt["action"], attempt["ver"])
        assert engine.dump(table.state) == state_before and table.version == version
    assert rows(db_url, "SELECT COUNT(*) FROM actions") == [(0,)]
    assert rows(db_url, "SELECT version FROM games WHERE id = ?", table.id) == [(version,)]

    update = await service.act(table.id, ALICE, {"type": "play", "cards": [card]}, version)
    assert update.version == version + 1 == table.version
    assert update.events[0].type == "played"
    stored = rows(db_url, "SELECT version, state FROM games WHERE id = ?", table.id)[0]
    assert stored[0] == table.version and engine.load(stored[1]) == table.state
    assert rows(db_url, "SELECT seq, player FROM actions WHERE game_id = ?", table.id) == [(1, "u101")]
    await service.drain()


async def test_simultaneous_clicks_on_one_version_apply_once(service: GameService, db_url: str) -> None:
    table = await started_table(service)
    card = table.state.hands["u101"][0]
    version = table.version
    results = await asyncio.gather(
        *[service.act(table.id, ALICE, {"type": "play", "cards": [card]}, version) for _ in range(5)],
        return_exceptions=True)
    applied = [r for r in results if not isinstance(r, Exception)]
    refused = [r for r in results if isinstance(r, HostError)]
    assert len(applied) == 1 and len(refused) == 4 and all(r.code == "stale" for r in refused)
    assert rows(db_url, "SELECT COUNT(*) FROM actions") == [(1,)]
    await service.drain()


async def test_restart_continues_the_game_from_the_database(db_url: str) -> None:
    storage = await Storage.open(db_url)
    service = GameService(storage)
    table = await started_table(service)
    engine = get_engine("akuma")
    for _ in range(6):  # a few real moves by whoever is to act
        player = engine.to_act(table.state)[0]
        action = engine.legal_actions(table.state, player)[0]
        await service.act_as(table.id, player, action, table.version)
    state, version = engine.dump(table.state), table.version
    await service.drain()
    await storage.close()

    storage2 = await Storage.open(db_url)
    service2 = GameService(storage2)
    table2 = await service2.table(table.id)
    assert engine.dump(table2.state) == state and table2.version == version
    # The stored state equals a replay of the append-only action log.
    replay = engine.new_game([s.player for s in table2.seats], seed=table2.row.seed, options=table2.row.options)
    for player, data in await storage2.actions(table.id):
        replay, _ = engine.apply(replay, player, data)
    assert engine.dump(replay) == state
    player = engine.to_act(table2.state)[0]
    await service2.act_as(table.id, player, engine.legal_actions(table2.state, player)[0], version)
    assert table2.version == version + 1
    await service2.drain()
    await storage2.close()


async def test_private_events_become_notices_for_those_players_only(service: GameService) -> None:
    table = await started_table(service)
    engine = get_engine("akuma")
    # Play until someone has a steal decision, then steal.
    for _ in range(400):
        player = engine.to_act(table.state)[0]
        legal = engine.legal_actions(table.state, player)
        steal = next((a for a in legal if a.type == "steal"), None)
        if steal is not None:
            await service.act_as(table.id, player, steal, table.version)
            break
        plays_with_2 = [a for a in legal if a.type == "play" and any(c[1] == "2" for c in a.cards)]
        await service.act_as(table.id, player, (plays_with_2 or legal)[0], table.version)
        if table.status != "running":
            pytest.skip("no steal happened in this seeded game")
    victim = steal.victim
    others = [p for p in table.state.players if p not in (player, victim)]
    thief_notices, up_to = await service.peek_notices(table, player)
    assert [n.type for n in thief_notices] == ["stolen_card"]
    assert thief_notices[0].data["card"] in table.state.hands[player]
    assert (await service.peek_notices(table, player))[0] == thief_notices  # kept until acknowledged
    victim_notices, _ = await service.peek_notices(table, victim)
    assert [n.type for n in victim_notices] == ["stolen_card"]
    for other in others:
        assert await service.peek_notices(table, other) == ([], None)
    await service.ack_notices(table, player, up_to)
    assert await service.peek_notices(table, player) == ([], None)  # shown once
    assert [n.type for n in (await service.peek_notices(table, victim))[0]] == ["stolen_card"]  # not theirs
    await service.drain()


async def test_bot_seats_play_a_whole_game_and_the_result_is_stored(service: GameService, db_url: str) -> None:
    table = await service.create_bot_table(game="akuma", players=5, seed=11, channel_id=3)
    scheduler = BotScheduler(service, delay=0)
    scheduler.kick(table.id)
    await scheduler.idle()
    assert table.status == "finished" and table.result() is not None
    assert rows(db_url, "SELECT status FROM games WHERE id = ?", table.id) == [("finished",)]
    logged = rows(db_url, "SELECT COUNT(*) FROM actions WHERE game_id = ?", table.id)[0][0]
    assert logged == table.version - 1  # start is version 1; one version per action


async def test_leaving_hands_the_seat_to_a_bot_and_end_needs_host_or_admin(service: GameService,
                                                                             db_url: str) -> None:
    table = await started_table(service)
    scheduler = BotScheduler(service, delay=0)
    with pytest.raises(HostError) as err:
        await service.end(table.id, BOB, is_admin=False)
    assert err.value.code == "host_or_admin_only"
    for uid in (ALICE, BOB):
        await service.hand_to_bot(table.id, uid)
    await scheduler.idle()
    if table.status == "running":  # the bots play Alice's and Bob's seats; Carol is still there
        assert table.seat_of("u101").is_bot and table.seat_of("u102").is_bot
        update = await service.hand_to_bot(table.id, CAROL)  # the last person leaves: the table closes
        assert update.kind is UpdateKind.ENDED and update.reason is EndReason.ABANDONED
    assert table.status in ("cancelled", "finished")
    assert rows(db_url, "SELECT status FROM games WHERE id = ?", table.id) == [(table.status,)]
    with pytest.raises(HostError):
        await service.end(table.id, ALICE, is_admin=True)
    other = await started_table(service, seed=6)
    await service.end(other.id, 555, is_admin=True)
    assert other.status == "cancelled"
    with pytest.raises(HostError) as err:
        await service.act(other.id, ALICE, {"type": "play", "cards": []}, other.version)
    assert err.value.code == "game_not_running"
    await scheduler.idle()


async def test_a_refused_seat_write_leaves_memory_as_it_was(service: GameService) -> None:
    """Memory follows the database only after a write committed: when the last person's leaving cannot be
    written (another process changed the table), their seat stays theirs in memory too."""
    table = await started_table(service, humans=(ALICE, BOB), bots=1)
    await service.hand_to_bot(table.id, ALICE)
    seats, version = [(s.player, s.is_bot) for s in table.seats], table.version
    await service.storage.update_game(table.id, expected_version=table.version, bump=True)  # another process
    with pytest.raises(VersionConflict):
        await service.hand_to_bot(table.id, BOB)  # would abandon the table
    assert [(s.player, s.is_bot) for s in table.seats] == seats and table.version == version
    assert table.status == "running"


async def test_concurrent_actions_of_many_tables_commit_together_and_all_survive(db_url: str) -> None:
    storage = await Storage.open(db_url)
    service = GameService(storage)
    engine = get_engine("akuma")
    tables = [await service.create_bot_table(game="akuma", players=3, seed=s, channel_id=s) for s in range(30)]
    moves = []
    for table in tables:
        player = table.to_act()[0]
        moves.append(service.act_as(table.id, player, engine.legal_actions(table.state, player)[0], table.version))
    # One table's row is changed behind the service's back: its write must fail alone.
    rows(db_url, "UPDATE games SET version = version + 100 WHERE id = ?", tables[7].id)
    results = await asyncio.gather(*moves, return_exceptions=True)
    failed = [i for i, r in enumerate(results) if isinstance(r, Exception)]
    assert failed == [7] and isinstance(results[7], HostError) and results[7].code == "stale"
    assert tables[7].version == 1  # memory unchanged for the refused one
    await service.drain()
    await storage.close()
    assert rows(db_url, "SELECT COUNT(*) FROM actions") == [(29,)]
    stored = dict(rows(db_url, "SELECT id, version FROM games"))
    assert all(stored[t.id] == 2 for i, t in enumerate(tables) if i != 7)


async def test_restart_wakes_only_tables_waiting_on_a_bot(db_url: str) -> None:
    storage = await Storage.open(db_url)
    service = GameService(storage)
    humans = await started_table(service)  # Alice (a human) is to act
    bots = await service.create_bot_table(game="akuma", players=3, seed=3, channel_id=77)
    await service.drain()
    await storage.close()
    assert rows(db_url, "SELECT id, bot_to_act FROM games ORDER BY id") == [(humans.id, 0), (bots.id, 1)]

    storage2 = await Storage.open(db_url)
    service2 = GameService(storage2)
    scheduler = BotScheduler(service2, delay=0)
    assert await scheduler.resume() == 1
    await scheduler.idle()
    assert (await service2.table(bots.id)).status == "finished"
    assert humans.id not in [t for t in service2._tables if service2._tables[t].status == "finished"]
    assert rows(db_url, "SELECT bot_to_act FROM games WHERE id = ?", bots.id) == [(0,)]
    await storage2.close()


async def test_a_tables_moves_count_its_logged_actions_not_its_lobby(service: GameService, db_url: str) -> None:
    """The number a board shows ("move n") is the moves logged, whatever else changed the table (joins, the
    start): the same in memory as the stored log, and read back so by a process that loads the table."""
    table = await started_table(service, humans=(ALICE, BOB), bots=1)
    assert table.moves == 0 and table.version > 0  # the joins and the start are changes, not moves
    scheduler = BotScheduler(service, delay=0)
    for uid in (ALICE, BOB, ALICE):
        seat = next(s for s in table.seats if s.user_id == uid)
        while seat.player not in table.to_act() and table.status == "running":
            scheduler.kick(table.id)
            await scheduler.idle()
        action = table.engine.legal_actions(table.state, seat.player)[0]
        await service.act(table.id, uid, action, table.version)
    scheduler.kick(table.id)
    await scheduler.idle()
    logged = rows(db_url, "SELECT COUNT(*) FROM actions WHERE game_id = ?", table.id)[0][0]
    assert table.moves == logged >= 3 and table.version > logged
    other = GameService(service.storage)  # another process reading the same table
    assert (await other.table(table.id)).moves == logged


async def test_a_move_a_bot_makes_for_a_person_is_logged_as_standing_in(service: GameService, db_url: str) -> None:
    """A person's own move is logged as theirs; the move a bot makes when their clock runs out, and every move
    it makes once their seat is handed to it, is logged as standing in (``stand_in``): what looking back reads
    (SQLite and PostgreSQL)."""
    table = await started_table(service, humans=(ALICE, BOB), bots=1)
    scheduler = BotScheduler(service, delay=0)
    own = stood_in = 0
    for _ in range(60):
        if table.status != "running" or (own and stood_in > 2):
            break
        acting = table.to_act()
        alice = next(s for s in table.seats if s.user_id == ALICE)
        bob = next(s for s in table.seats if s.user_id == BOB)
        if alice.player in acting:
            await service.act(table.id, ALICE, table.engine.legal_actions(table.state, alice.player)[0],
                              table.version)
            own += 1
        elif bob.player in acting:
            await service.expire(table.id, table.version)  # Bob's decision runs out: a bot moves for him
            stood_in += 1
        else:
            scheduler.kick(table.id)
            await scheduler.idle()
    await scheduler.idle()
    assert own and stood_in
    log = await service.storage.action_log(table.id)
    by_player = {s.player: s.user_id for s in table.seats}
    assert [a.stand_in for a in log] == [by_player[a.player] == BOB for a in log]
    stored = rows(db_url, "SELECT SUM(stand_in) FROM actions WHERE game_id = ?", table.id)[0][0]
    assert stored == sum(by_player[a.player] == BOB for a in log) > 0
