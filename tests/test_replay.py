"""Exact replays (issue 33, item 1) on both backends: whole games played through the service — bot tables of every
game, and a Pile up table of two people and a bot with timeouts, a seat a bot took over, a seat left and taken back,
hand-outs in one action, then its rematch — are every one rebuilt by the engine from the stored seed, options and
log, reaching the stored final state. A log changed behind the service's back, or a game of another engine
version, is refused; a game stored before versions were recorded replays only if it reproduces its end."""
from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bench.memory_soak import measure
from bot.errors import HostError
from bot.policies import choose_action
from bot.replay import GameRecord, rebuild, rebuild_stored, state_digest, stored_record
from bot.scheduler import BotScheduler
from bot.service import TIMEOUTS_BEFORE_AWAY, GameService
from bot.storage import LEGACY_ENGINE_VERSION, SeatRow, Storage
from bot.table import Table
from engines import GAMES, get_engine
from engines.pileup import GiveAll

from .conftest import rows

ALICE, BOB = 101, 102
SEEDS = (11, 12)


def person_move(table: Table, player: str, rng: random.Random) -> Any:
    """A person's move: Pile up's minus cards all handed out in one action when some are to give, else a move
    of the bots' policy."""
    state = table.state
    if table.row.game == "pileup" and state.phase == "give" and state.give_left > 0:
        return GiveAll(cards=tuple(state.minus[player][:state.give_left]))
    return choose_action(table.engine, state, player, rng)


async def play_turn(service: GameService, scheduler: BotScheduler, table: Table, rng: random.Random) -> bool:
    """The bots' moves, then one person's; False once the game is over."""
    await scheduler.idle()
    if table.status != "running":
        return False
    people = [p for p in table.to_act() if not table.is_bot(p)]
    assert people, f"table {table.id} waits for nobody"
    await service.act_as(table.id, people[0], person_move(table, people[0], rng), None)
    return True


async def play_out(service: GameService, scheduler: BotScheduler, table: Table, rng: random.Random) -> None:
    """The bots move through the scheduler, the people here, until the game is over."""
    for _ in range(20000):
        if not await play_turn(service, scheduler, table, rng):
            return
    raise AssertionError(f"table {table.id} did not end")


def seat_of(table: Table, user_id: int) -> SeatRow:
    return next(s for s in table.seats if s.user_id == user_id)


async def time_out_until_away(service: GameService, scheduler: BotScheduler, table: Table) -> None:
    """Alice lets her decisions run out until a bot takes her seat (``expire`` is what the turn timer calls)."""
    for _ in range(200):
        await scheduler.idle()
        alice = seat_of(table, ALICE)
        if alice.away:
            return
        if alice.player in table.to_act():
            await service.expire(table.id, table.version)
        else:
            await service.act_as(table.id, table.to_act()[0], person_move(table, table.to_act()[0],
                                                                          random.Random(1)), None)
    raise AssertionError("Alice's seat never went to a bot")


async def pileup_table_with_everything(service: GameService, scheduler: BotScheduler) -> list[int]:
    """Timeouts, a take-over, a seat left and taken back, hand-outs in one action, and a rematch: both tables' ids."""
    table = await service.create_lobby(game="pileup", guild_id=1, channel_id=10, user_id=ALICE, name="Alice",
                                       seed=5)
    await service.join(table.id, BOB, "Bob")
    await service.add_bot(table.id, ALICE)
    await service.start(table.id, ALICE)
    await time_out_until_away(service, scheduler, table)
    assert seat_of(table, ALICE).timeouts == TIMEOUTS_BEFORE_AWAY and seat_of(table, ALICE).is_bot
    await service.come_back(table.id, ALICE)
    await service.hand_to_bot(table.id, BOB)  # Bob leaves his seat to a bot ...
    moves = len(await service.storage.action_log(table.id))
    for _ in range(100):  # ... which plays it while he is gone ...
        await play_turn(service, scheduler, table, random.Random(4))
        if len(await service.storage.action_log(table.id)) > moves + 6:
            break
    await service.come_back(table.id, BOB)  # ... and he takes it back
    await play_out(service, scheduler, table, random.Random(2))
    played = [table.id]
    # the bots' choices follow the table's id, which differs by backend: rematch until a person has handed out
    for attempt in range(8):
        rematch = await service.rematch(played[-1], BOB)
        await play_out(service, scheduler, rematch, random.Random(3 + attempt))
        played.append(rematch.id)
        if await hand_outs(service, played):
            break
    return played


async def hand_outs(service: GameService, game_ids: list[int]) -> int:
    """Minus cards handed out in one action (``give_all``) in these games."""
    logs = [await service.storage.action_log(game_id) for game_id in game_ids]
    return sum(entry.action["type"] == "give_all" for log in logs for entry in log)


async def bot_tables_of_every_game(service: GameService, scheduler: BotScheduler) -> list[int]:
    ids = []
    for game in GAMES:
        engine = get_engine(game)
        for seed in SEEDS:
            players = engine.min_players + seed % (engine.max_players - engine.min_players + 1)
            options = {"rounds": 1} if game == "twinpyramid" else None  # two rounds: bench/replay_speed.py
            table = await service.create_bot_table(game=game, players=players, seed=seed, channel_id=20 + seed,
                                                   options=options, levels=["easy", "normal"])
            ids.append(table.id)
    await scheduler.idle()
    return ids


async def test_every_finished_game_replays_exactly(service: GameService) -> None:
    scheduler = BotScheduler(service, delay=0)
    try:
        played = await bot_tables_of_every_game(service, scheduler) + await pileup_table_with_everything(
            service, scheduler)
    finally:
        await scheduler.close()
    finished = await service.storage.game_ids(status=("finished",))
    assert set(played) <= set(finished)
    seen_games, handed_out = set(), 0
    for game_id in finished:
        table = await service.table(game_id)
        replay = await rebuild_stored(service.storage, game_id)
        log = await service.storage.action_log(game_id)
        assert len(replay) == len(log) + 1 and table.row.engine_version == table.engine.version
        assert state_digest(replay.frames[-1].state) == state_digest(table.state)
        assert table.engine.result(replay.frames[-1].state) == table.result()
        seen_games.add(table.row.game)
        handed_out += sum(1 for entry in log if entry.action["type"] == "give_all")
    assert seen_games == set(GAMES)
    assert handed_out, "no hand-out in one action was played"


async def finished_akuma(service: GameService) -> int:
    scheduler = BotScheduler(service, delay=0)
    table = await service.create_bot_table(game="akuma", players=3, seed=7, channel_id=30)
    await scheduler.idle()
    await scheduler.close()
    assert table.status == "finished"
    return table.id


async def refusal(service: GameService, game_id: int) -> str:
    with pytest.raises(HostError) as refused:
        await rebuild_stored(service.storage, game_id)
    return refused.value.code


async def test_another_version_is_refused_and_a_legacy_game_replays_only_if_it_verifies(
        service: GameService, db_url: str) -> None:
    game_id = await finished_akuma(service)
    rows(db_url, "UPDATE games SET engine_version = ? WHERE id = ?", get_engine("akuma").version + 1, game_id)
    assert await refusal(service, game_id) == "replay_other_version"
    rows(db_url, "UPDATE games SET engine_version = ? WHERE id = ?", LEGACY_ENGINE_VERSION, game_id)
    assert len(await rebuild_stored(service.storage, game_id)) > 1  # a legacy game that verifies is replayed
    first = json.loads(rows(db_url, "SELECT action FROM actions WHERE game_id = ? AND seq = 1", game_id)[0][0])
    engine = get_engine("akuma")
    record = await stored_record(service.storage, game_id)
    dealt = engine.new_game([p.player for p in record.players], seed=record.seed, options=record.options)
    other = next(a for a in engine.legal_actions(dealt, record.actions[0].player)
                 if a.model_dump(mode="json") != first)
    rows(db_url, "UPDATE actions SET action = ? WHERE game_id = ? AND seq = 1",
         json.dumps(other.model_dump(mode="json")), game_id)
    assert await refusal(service, game_id) == "replay_legacy_mismatch"
    rows(db_url, "UPDATE games SET engine_version = ? WHERE id = ?", engine.version, game_id)
    assert await refusal(service, game_id) == "replay_mismatch"


async def test_a_record_file_replays_and_a_changed_one_is_refused(service: GameService) -> None:
    game_id = await finished_akuma(service)
    record = await stored_record(service.storage, game_id)
    again = GameRecord.read(record.dump())
    assert again == record and len(rebuild(again)) == len(record.actions) + 1
    data = json.loads(record.dump())
    for change in ({"seed": record.seed + 1}, {"actions": data["actions"][:-1]},
                   {"final_state_sha256": "0" * 64}):
        with pytest.raises(HostError) as refused:
            rebuild(GameRecord.read(json.dumps(data | change)))
        assert refused.value.code == "replay_mismatch", change
    for garbage in (b"not json", json.dumps(data | {"seed": "x"}), json.dumps({"format": "other"})):
        with pytest.raises(HostError) as unreadable:
            GameRecord.read(garbage)
        assert unreadable.value.code == "record_unreadable"
    with pytest.raises(HostError) as no_seat:
        record.seat_player(len(record.players))
    assert no_seat.value.code == "replay_no_seat"


async def test_every_game_the_benchs_soak_stored_replays_exactly(db_url: str) -> None:
    """The bench's own database (``python -m bench.memory_soak``: tables of easy bots played to their end, lobbies
    left, tables ended by their host, in batches): every finished game in it replays to its stored final state."""
    await measure(db_url, batches=2, tables=12, lookups=0)
    storage = await Storage.open(db_url)
    try:
        finished = await storage.game_ids(status=("finished",))
        assert len(finished) >= 4
        for game_id in finished:
            replay = await rebuild_stored(storage, game_id)
            assert len(replay) == len(await storage.action_log(game_id)) + 1
    finally:
        await storage.close()
