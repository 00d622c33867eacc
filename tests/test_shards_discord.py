"""Two real bots (``AutoShardedBot``s from ``bot.client.make_bot``) on one database, each owning one of two shards,
driven through the Discord harness: tables in a guild of each shard are played by clicking; one bot is killed
mid-game (its tasks cancelled where they stand, its connections dropped — no close) and started again. The
restarted bot resumes only its own tables and plays them to the end, the other bot's rows never change meanwhile
and its tables then finish too; every game in the database is the replay of its action log; a third bot whose
range overlaps is refused. On SQLite and PostgreSQL."""
from __future__ import annotations

import itertools
import json
import random

import pytest

from bot.client import make_bot
from bot.errors import HostError
from bot.settings import Settings
from bot.storage import ShardsTaken
from cogs.common import board_embed
from engines import EngineError, get_engine

from . import ui_driver
from .conftest import rows
from .discord_harness import Harness
from .discord_helpers import START, board_message, kill

COUNT = 2
PEOPLE = {"general": (101, "alice"), "games": (102, "bob")}  # one person (and two bot seats) per channel


def guild_on(shard: int) -> int:
    return (450_000_000_000 * COUNT + shard) << 22  # a real-sized snowflake with (id >> 22) % COUNT == shard


def settings(db_url: str, shard_ids: str, delay: float = 0) -> Settings:
    return Settings(_env_file=None, discord_token=None, database_url=db_url, bot_move_delay=delay,
                    shard_count=COUNT, shard_ids=shard_ids)


async def start_bot(db_url: str, shard: int, adopt: list[dict] = ()) -> Harness:
    """A bot process owning ``shard``, with the messages Discord kept from an earlier process of that shard."""
    bot = make_bot(settings(db_url, str(shard)), sync_commands=False)
    assert bot.shard_ids == [shard] and bot.shard_count == COUNT  # the AutoShardedBot path
    h = Harness(bot, guild_id=guild_on(shard))
    for payload in adopt:
        h.adopt(payload)
    await h.start()
    await h.bot.storage.set_guild_tables(h.guild_id, "channel")  # the tables and their boards in the channels
    h.allow_errors(HostError, EngineError)
    seeds = itertools.count(shard * 100)
    h.bot.service.new_seed = lambda: next(seeds)  # reproducible deals
    return h


async def open_tables(h: Harness) -> dict[int, object]:
    """In each channel its person opens Akuma with two bot seats and starts it; returns user id -> table."""
    tables = {}
    for channel, (uid, name) in PEOPLE.items():
        user = h.user(uid, name)
        r = await h.slash(user, "play akuma", bots=2, start="host", channel=channel)
        await h.click(user, r.message, label=START)
        tables[uid] = next(t for t in h.bot.service._tables.values()
                           if t.row.channel_id == h.channel_ids[channel] and t.status == "running")
    return tables


async def play(h: Harness, tables: dict[int, object], moves: int | None, rng: random.Random) -> None:
    """Each person makes ``moves`` moves (None: until the game ends) through their hand view."""
    for uid, table in tables.items():
        user = h.users.get(uid) or h.user(uid, dict(PEOPLE.values())[uid])
        done = 0
        while table.status == "running" and (moves is None or done < moves):
            acted = await ui_driver.act(h, user, table, rng)
            assert acted.applied, acted.reply.text
            done += 1


async def until_bots_think(h: Harness, tables: dict[int, object], rng: random.Random) -> None:
    """With the bots thinking for a minute: each person moves until a bot seat is due (and thinking)."""
    h.bot.scheduler.delay = 60
    for uid, table in tables.items():
        while not any(table.is_bot(p) for p in table.to_act()):
            assert (await ui_driver.act(h, h.users[uid], table, rng)).applied
    await h.settle()
    assert all(table.status == "running" for table in tables.values())


def game_rows(db_url: str, ids) -> dict[int, tuple]:
    found = rows(db_url, "SELECT id, version, status, state, deadline, board_message_id FROM games")
    actions = dict(rows(db_url, "SELECT game_id, COUNT(*) FROM actions GROUP BY game_id"))
    seats = rows(db_url, "SELECT game_id, seat, player, user_id, is_bot FROM seats ORDER BY game_id, seat")
    return {r[0]: (*r[1:], actions.get(r[0], 0), [s for s in seats if s[0] == r[0]]) for r in found if r[0] in ids}


def replay_problems(db_url: str) -> list[str]:
    """Games whose stored state is not new_game + their action log replayed."""
    problems = []
    for gid, game, seed, options, state in rows(db_url, "SELECT id, game, seed, options, state FROM games"):
        if state is None:
            continue
        engine = get_engine(game)
        players = [p for (p,) in rows(db_url, "SELECT player FROM seats WHERE game_id = ? ORDER BY seat", gid)]
        replayed = engine.new_game(players, seed=seed, options=json.loads(options))
        for player, action in rows(db_url, "SELECT player, action FROM actions WHERE game_id = ? ORDER BY seq", gid):
            replayed, _ = engine.apply(replayed, player, engine.parse_action(json.loads(action)))
        if engine.dump(replayed) != state:
            problems.append(f"game {gid}: stored state is not the replay of its action log")
    return problems


def assert_boards_show(h: Harness, tables) -> None:
    """Each table's public board (the message Discord holds) is the render of its final state and version."""
    for table in tables:
        embed = board_message(h, table).embeds[0]
        expected = board_embed(table, table.row.locale).to_dict()
        assert table.status == "finished"
        assert (embed["author"]["name"], embed.get("description")) == \
            (expected["author"]["name"], expected.get("description")), table.id


async def test_two_bots_on_disjoint_shards_one_killed_and_restarted(db_url: str) -> None:
    first, second = await start_bot(db_url, 0), await start_bot(db_url, 1)
    rng = random.Random(16)
    restarted = None
    try:
        await assert_overlap_refused(db_url)
        mine, theirs = await open_tables(first), await open_tables(second)
        await play(first, mine, 2, rng)
        await play(second, theirs, 2, rng)
        await until_bots_think(first, mine, rng)  # it dies while its bots think
        await until_bots_think(second, theirs, rng)  # and so do the other bot's: a restart must leave them be
        kept = [m.payload for m in (first.message(i) for i in list(first.server.messages))]
        await kill(first)

        their_ids = {t.id for t in theirs.values()}
        untouched = game_rows(db_url, their_ids)
        assert len(untouched) == 2
        restarted = await start_bot(db_url, 0, adopt=kept)
        assert set(restarted.bot.service._tables) == {t.id for t in mine.values()}  # resumed its own, only
        resumed = {uid: await restarted.bot.service.table(t.id) for uid, t in mine.items()}
        assert all(t.version > mine[uid].version for uid, t in resumed.items())  # its bots moved on at once
        await play(restarted, resumed, None, rng)
        assert set(restarted.bot.service._tables) == {t.id for t in mine.values()}
        assert game_rows(db_url, their_ids) == untouched  # not one write to the other shard's tables
        assert_boards_show(restarted, resumed.values())

        await second.bot.scheduler.close()  # its bots stop thinking slowly (in the other process, nothing else)
        second.bot.scheduler.delay = 0
        assert await second.bot.scheduler.resume() == 2  # both of its tables still waited on their bots
        await second.settle()
        await play(second, theirs, None, rng)  # and the other bot plays on as if nothing happened
        assert_boards_show(second, theirs.values())
        assert {s for (s,) in rows(db_url, "SELECT status FROM games")} == {"finished"}
        assert replay_problems(db_url) == []
    finally:
        for h in (restarted, second):
            if h is not None:
                await h.close()
        await first.close(check=False)  # after the kill: nothing left to close


async def assert_overlap_refused(db_url: str) -> None:
    """A third bot for shards 0-1 stops in its setup with the clear message, and changes nothing."""
    bot = make_bot(settings(db_url, "0-1"), sync_commands=False)
    h = Harness(bot, guild_id=guild_on(0))
    with pytest.raises(ShardsTaken) as refused:
        await h.start()
    await h.close(check=False)
    assert refused.value.taken == [0, 1]
    assert "owned by another running process" in str(refused.value) and "SHARD_IDS" in str(refused.value)
