"""What players see is as durable as what is stored (issue 31): a bot killed at any point of its output brings,
after the restart, every board to its game's version, delivers each turn ping once and each result once, and runs
no clock against a person who was not told it is their turn; a locked, deleted or unreachable thread has a
defined reaction with backoff; a shutdown flushes the writers before storage closes."""
from __future__ import annotations

import asyncio
import random
import sqlite3
import time
from pathlib import Path
from typing import Any

from bot.policies import choose_action
from bot.storage.rows import BoardShown

from .discord_harness import Harness
from .discord_helpers import board_message, kill, start_harness
from .test_discord_akuma import ALICE_ID, PLAYER, open_table

POSTS = "POST /channels/{channel_id}/messages"


RESULT_TITLE = "is over"  # "🏁 Akuma Trick — table #1 is over"


def is_result(call: Any) -> bool:
    embeds = (call.json or {}).get("embeds") or []
    return any(RESULT_TITLE in (e.get("title") or "") for e in embeds)


def results_in(h: Harness, channel_id: int) -> list[Any]:
    return [m for m in h.server.channel_messages(channel_id) if m.id not in h.server.deleted and any(
        RESULT_TITLE in (e.get("title") or "") for e in m.payload.get("embeds") or [])]


def refuse_posts(h: Harness, which, status: int = 503, code: int = 0, after: bool = False) -> list[int]:
    """Discord fails the posts ``which(call)`` picks (``after``: it stored the message first, then failed);
    returns a counter of the refusals."""
    default = h.server._post_message
    refused = [0]

    def post(call, params):
        if not which(call):
            return default(call, params)
        refused[0] += 1
        if after:
            default(call, params)
        return status, {"message": "refused by the test", "code": code}

    h.server.route("POST", "/channels/{channel_id}/messages", post)
    return refused


def kept_by_discord(old: Harness):
    """What Discord still has when the bot comes back: its channels, threads and messages."""
    def fill(new: Harness) -> None:
        new.server.channels.update({k: v for k, v in old.server.channels.items() if k not in new.server.channels})
        for message_id, payload in old.server.messages.items():
            if message_id not in old.server.deleted:
                new.adopt(payload)
        new.server._nonces.update(old.server._nonces)
    return fill


async def play_alice(h: Harness, table, rng: random.Random, moves: int = 1) -> None:
    for _ in range(moves):
        if table.status != "running" or PLAYER not in table.to_act():
            return
        action = choose_action(table.engine, table.state, PLAYER, rng)
        with h._owning():  # what the move starts belongs to the bot (and dies with it when it is killed)
            await h.bot.service.act_as(table.id, PLAYER, action, table.version)
        await h.settle()


async def until(done, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.02)


def shows_move(board: Any) -> int:
    """The move a board message shows ("Table #1 · move 12"): the moves its game had logged when it was drawn."""
    return int(board.embeds[0]["author"]["name"].rsplit(" ", 1)[1])


def stored(db: Path, game_id: int) -> sqlite3.Row:
    con = sqlite3.connect(db)
    con.row_factory = sqlite3.Row
    try:
        return con.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
    finally:
        con.close()


async def result_refused_then_killed(db: Path, **refusal: Any) -> tuple[Harness, int]:
    """A game played to its end while Discord refuses its result (``refusal``: see ``refuse_posts``), then the bot
    killed: the dead harness and the table's id."""
    h1 = await start_harness(db)
    table = await open_table(h1, h1.user(ALICE_ID, "alice"))
    refused = refuse_posts(h1, is_result, **refusal)
    rng = random.Random(4)
    while table.status == "running":
        await play_alice(h1, table, rng, moves=50)
    await until(lambda: refused[0] >= 1)
    assert not stored(db, table.id)["result_shown"]
    await kill(h1)
    return h1, table.id


async def restarted_result_count(db: Path, old: Harness, game_id: int) -> int:
    h2 = await start_harness(db, discord_has=kept_by_discord(old))
    try:
        await h2.settle()
        assert stored(db, game_id)["result_shown"] == 1
        return len(results_in(h2, h2.channel_id))
    finally:
        await h2.close()


async def test_a_result_lost_to_a_kill_is_posted_once_after_the_restart(tmp_path: Path) -> None:
    h1, game_id = await result_refused_then_killed(tmp_path / "bot.db")
    assert results_in(h1, h1.channel_id) == []  # killed while the result was still to be posted
    assert await restarted_result_count(tmp_path / "bot.db", h1, game_id) == 1


async def test_a_result_discord_stored_before_the_kill_is_not_posted_twice(tmp_path: Path) -> None:
    """Discord stored the result, then the answer was lost and the bot killed before it recorded it: the restart
    posts it again with the same nonce, and Discord answers with the message it has."""
    h1, game_id = await result_refused_then_killed(tmp_path / "bot.db", status=503, after=True)
    assert len(results_in(h1, h1.channel_id)) >= 1
    assert await restarted_result_count(tmp_path / "bot.db", h1, game_id) == 1


async def test_a_turn_ping_lost_to_a_kill_is_delivered_once_and_the_clock_waits_for_it(tmp_path: Path) -> None:
    db = tmp_path / "bot.db"
    h1 = await start_harness(db)
    alice = h1.user(ALICE_ID, "alice")
    table = await open_table(h1, alice)
    assert PLAYER in table.to_act()
    refused = refuse_posts(h1, lambda call: True)  # no new board message gets through
    await play_alice(h1, table, random.Random(5))
    await until(lambda: PLAYER in table.to_act() and refused[0] >= 1)
    version, moves = table.version, table.moves
    assert stored(db, table.id)["deadline"] is not None  # her clock runs, yet she was never told
    assert ALICE_ID not in BoardShown.load(stored(db, table.id)["board_shown"]).told
    await kill(h1)

    mark = time.time()
    h2 = await start_harness(db, discord_has=kept_by_discord(h1))
    try:
        await h2.settle()
        table2 = await h2.bot.service.table(table.id)
        assert table2.version == version
        pings = [c for c in h2.calls if c.route == POSTS and str(ALICE_ID) in map(
            str, ((c.json or {}).get("allowed_mentions") or {}).get("users", []))]
        assert len(pings) == 1 and f"<@{ALICE_ID}>" in pings[0].json["content"]
        assert table2.moves == moves and shows_move(board_message(h2, table2)) == moves
        # Her clock started when she was told, with the whole time of a decision.
        assert table2.row.deadline is not None and table2.row.deadline >= mark + table2.row.turn_seconds - 5
        assert ALICE_ID in table2.row.board_shown.told
    finally:
        await h2.close()


async def test_shutdown_flushes_the_writers_before_storage_closes(tmp_path: Path) -> None:
    db = tmp_path / "bot.db"
    h = await start_harness(db)
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice)
    h.server.faults.latency = 0.3  # a slow Discord: the board is still on its way when the bot closes
    action = choose_action(table.engine, table.state, PLAYER, random.Random(5))
    await h.bot.service.act_as(table.id, PLAYER, action, table.version)
    await h.bot.service.drain()
    await h.close()  # the bots stop first; the board then shows the last move they made
    assert shows_move(h.message(stored(db, table.id)["board_message_id"])) == table.moves
