"""Each casual table in its own public thread started from its lobby message (the server default), through the
harness on the strict edge: the channel keeps the lobby, its "playing in thread" line and the result; /config
tables channel keeps tables in the channel; without the permission, or when Discord refuses the thread, the table
plays in the channel and says why; a restart keeps a table in its thread."""
from __future__ import annotations

import random
from pathlib import Path
from types import SimpleNamespace

import discord

from bot.i18n import LANGUAGES, t
from bot.policies import choose_action
from cogs.table_thread import THREAD_PERMISSIONS, describe

from .discord_harness import Harness
from .discord_helpers import JOIN, MY_HAND, START, board_message, only_table, says, start_harness
from .test_discord_akuma import ALICE_ID, ENGINE, take_turn
from .test_discord_faults import says_missing

BOB_ID = 102
THREADS = "POST /channels/{channel_id}/messages/{message_id}/threads"
ADD_MEMBER = "PUT /channels/{channel_id}/thread-members/{user_id}"
NO_THREADS = discord.Permissions(
    view_channel=True, send_messages=True, embed_links=True, attach_files=True, read_message_history=True)


async def open_and_start(h: Harness, alice, *, bob=None, bots: int = 3):
    """Alice's /play akuma lobby (Bob joins when given), started by Alice: the lobby message and the table."""
    r = await h.slash(alice, "play akuma", bots=bots - (bob is not None))
    lobby = r.message
    if bob is not None:
        await h.click(bob, lobby, label=JOIN)
    await h.click(alice, lobby, label=START)
    return lobby, only_table(h)


async def finish(h: Harness, table, seed: int = 3) -> None:
    """The people move (through the service, as their clicks would) until the game is over."""
    rng = random.Random(seed)
    while table.status == "running":
        for user_id in table.user_ids_to_act():
            await h.bot.service.act(table.id, user_id, choose_action(ENGINE, table.state, f"u{user_id}", rng), None)
        await h.settle()


def threads_opened(h: Harness) -> list:
    return [c for c in h.calls if c.route == THREADS and c.status == 201]


async def test_a_table_plays_in_its_own_thread_and_the_channel_keeps_lobby_and_result(tmp_path: Path) -> None:
    h = await start_harness(tmp_path / "bot.db", tables=None)  # never configured: the default
    try:
        alice, bob = h.user(ALICE_ID, "alice"), h.user(BOB_ID, "bob")
        lobby, table = await open_and_start(h, alice, bob=bob)
        thread = h.guild.get_thread(lobby.id)  # started from the lobby message: it shares its id
        assert thread is not None and thread.parent_id == h.channel_id and str(table.id) in thread.name
        assert table.row.channel_id == thread.id and table.row.lobby_channel_id == h.channel_id
        stored = await h.bot.storage.get_game(table.id)
        assert (stored.channel_id, stored.lobby_channel_id, stored.open_thread) == (thread.id, h.channel_id, False)
        added = {int(c.path.rsplit("/", 1)[1]) for c in h.calls if c.route == ADD_MEMBER}
        assert added == {ALICE_ID, BOB_ID}  # the seated people, not the bots
        assert board_message(h, table).channel_id == thread.id
        # The channel: only the lobby, which now points to the thread; no controls left on it.
        assert [m.id for m in h.channel_messages()] == [lobby.id]
        assert f"<#{thread.id}>" in lobby.content and lobby.components == []
        # Board and hand clicks work in the thread.
        r = await h.click(bob, board_message(h, table), label=MY_HAND)
        assert r.ephemeral and says(r.text, "hand.header")
        rng = random.Random(2)
        for _ in range(2):
            if table.status == "running" and ALICE_ID in table.user_ids_to_act():
                await take_turn(h, alice, table, rng)
            elif table.status == "running":
                await h.bot.service.act(table.id, BOB_ID, choose_action(ENGINE, table.state, f"u{BOB_ID}", rng),
                                        None)
                await h.settle()
        assert all(m.channel_id == thread.id for m in h.channel_messages(thread.id))
        assert len(h.channel_messages(thread.id)) >= 1
        await finish(h, table)
        await h.settle()
        # The end: the final board in the thread, and one result message in the channel linking it.
        assert says(board_message(h, table).text, "common.final_ranking")
        channel = h.channel_messages()
        assert channel[0].id == lobby.id and len(channel) == 2
        result = channel[1]
        assert says(result.text, "table.result_in_thread", id=table.id, thread=f"<#{thread.id}>")
        assert says(result.text, "result.winners")
        assert not says(result.text, "result.rematch")  # neither Rematch nor "the board is above" is true here
        assert not says(result.text, "result.footer") and not says(result.text, "result.footer_board")
        assert result.components == []
        in_thread = [m for m in h.channel_messages(thread.id) if says(m.text, "result.winners")]
        assert len(in_thread) == 1 and says(str(in_thread[0].components), "result.rematch")  # it stays in the thread
        assert len(threads_opened(h)) == 1
    finally:
        await h.close()


async def test_config_tables_channel_keeps_tables_in_the_channel(tmp_path: Path) -> None:
    h = await start_harness(tmp_path / "bot.db", tables=None)
    try:
        mod = h.user(104, "mod", permissions=discord.Permissions(manage_guild=True), locale="ja")
        r = await h.slash(mod, "config tables", where="channel")
        assert r.ephemeral and t("config.tables.channel", "ja") in r.text  # in the mod's Japanese
        assert await h.bot.storage.guild_tables(h.guild_id) == "channel"
        alice = h.user(ALICE_ID, "alice")
        lobby, table = await open_and_start(h, alice)
        assert threads_opened(h) == [] and table.row.lobby_channel_id is None
        assert table.row.channel_id == h.channel_id and board_message(h, table).channel_id == h.channel_id
        assert says(lobby.text, "lobby.started")
        r = await h.slash(mod, "config tables", where="thread")
        assert r.ephemeral and t("config.tables.thread", "ja") in r.text
        assert await h.bot.storage.guild_tables(h.guild_id) == "thread"
    finally:
        await h.close()


async def test_without_thread_permissions_the_lobby_says_so_once(tmp_path: Path) -> None:
    h = await start_harness(tmp_path / "bot.db", tables=None)
    try:
        h.app_permissions = NO_THREADS
        alice = h.user(ALICE_ID, "alice")
        r = await h.slash(alice, "play akuma", bots=3)
        lobby = r.message
        assert says_missing(lobby.content, "lobby.here_not_thread", list(THREAD_PERMISSIONS))
        await h.click(alice, lobby, label=START)
        table = only_table(h)
        assert not table.row.open_thread and table.row.lobby_channel_id is None
        assert [c for c in h.calls if c.route == THREADS] == []  # not even tried
        assert board_message(h, table).channel_id == h.channel_id
        said = [m for m in h.channel_messages() if says(m.text, "perm.create_public_threads")]
        assert said == []  # said once, in the lobby, which now says the game has started
    finally:
        await h.close()


async def test_when_discord_refuses_the_thread_the_game_starts_in_the_channel(tmp_path: Path) -> None:
    h = await start_harness(tmp_path / "bot.db", tables=None)
    try:
        alice = h.user(ALICE_ID, "alice")
        r = await h.slash(alice, "play akuma", bots=3)
        assert r.message.content == ""  # threads allowed: nothing to say
        h.app_permissions = NO_THREADS  # taken away between /play and Start: Discord answers 50013
        await h.click(alice, r.message, label=START)
        table = only_table(h)
        refused = [c for c in h.calls if c.route == THREADS]
        assert [(c.status, c.response["code"]) for c in refused] == [(403, 50013)]
        assert table.status == "running" and table.row.channel_id == h.channel_id and not table.row.open_thread
        assert board_message(h, table).channel_id == h.channel_id
        said = [m.text for m in h.channel_messages() if says(m.text, "table.no_thread.missing")]
        # once, in the channel's first board message
        assert len(said) == 1 and says_missing(said[0], "table.no_thread.missing", ["create_public_threads"])
        assert says(r.message.text, "lobby.started")
        # Another table: a Discord outage (503) while opening the thread also leaves the game in the channel.
        h.app_permissions = discord.Permissions.all()
        await h.slash(alice, "game end")
        h.server.faults.fail("POST", r"/channels/\d+/messages/\d+/threads", status=503)
        r = await h.slash(alice, "play akuma", bots=3)
        await h.click(alice, r.message, label=START)
        table = next(t for t in h.bot.service._tables.values() if t.status == "running")  # type: ignore[attr-defined]
        assert table.row.channel_id == h.channel_id
        outage = describe(discord.HTTPException(SimpleNamespace(status=503, reason="Service Unavailable"),  # type: ignore[arg-type]
                                                 ""))  # as the bot words the 503 it got (a body without a code)
        assert outage == "503"  # not "503 0": Discord sent no code
        assert sum(says(m.text, "table.no_thread.error", error=outage) for m in h.channel_messages()) == 1
    finally:
        await h.close()


async def test_a_restart_mid_game_keeps_the_table_in_its_thread(tmp_path: Path) -> None:
    db = tmp_path / "bot.db"
    h1 = await start_harness(db, tables=None)
    alice = h1.user(ALICE_ID, "alice")
    lobby, table = await open_and_start(h1, alice)
    thread_id = lobby.id
    await take_turn(h1, alice, table, random.Random(2))
    board_payload, thread_payload = board_message(h1, table).payload, h1.server.channels[thread_id]
    lobby_payload, version = lobby.payload, table.version
    await h1.close()

    def discord_kept(h: Harness) -> None:  # Discord still has the thread and the messages
        h.server.channels[thread_id] = thread_payload
        h.adopt(lobby_payload)
        h.adopt(board_payload)

    h2 = await start_harness(db, tables=None, discord_has=discord_kept)
    try:
        h2.dispatch("THREAD_CREATE", {**thread_payload, "newly_created": False})
        alice = h2.user(ALICE_ID, "alice")
        table2 = await h2.bot.service.table(table.id)
        assert table2.row.channel_id == thread_id and table2.row.lobby_channel_id == h2.channel_id
        assert table2.version == version
        await take_turn(h2, alice, table2, random.Random(5))
        await h2.settle()
        assert table2.version > version
        assert board_message(h2, table2).channel_id == thread_id  # new boards still go to the thread
        assert [m.id for m in h2.channel_messages()] == [lobby.id]  # nothing new in the channel
        assert [c for c in h2.calls if c.route == THREADS] == []  # no second thread
    finally:
        await h2.close()


async def test_a_thread_opened_before_a_restart_is_found_again(tmp_path: Path) -> None:
    """The thread was opened but not yet recorded when the bot stopped: opening it again answers 160004, and the
    table plays in that thread (a message's thread has the message's id)."""
    h = await start_harness(tmp_path / "bot.db", tables=None)
    try:
        alice = h.user(ALICE_ID, "alice")
        r = await h.slash(alice, "play akuma", bots=3)
        lobby = r.message
        h.server._create_thread(type("C", (), {"json": {"name": "akuma"}})(),
                                {"channel_id": str(h.channel_id), "message_id": str(lobby.id)})
        await h.click(alice, lobby, label=START)
        table = only_table(h)
        assert [c.response["code"] for c in h.calls if c.route == THREADS] == [160004]
        assert table.row.channel_id == lobby.id and board_message(h, table).channel_id == lobby.id
    finally:
        await h.close()


async def test_the_edge_starts_threads_as_discord_does(h: Harness) -> None:
    """The fake edge refuses what Discord refuses when a thread is started from a message."""
    alice = h.user(ALICE_ID, "alice")
    lobby = (await h.slash(alice, "play akuma", bots=3)).message
    where = {"channel_id": str(h.channel_id), "message_id": str(lobby.id)}

    def start(body: dict, params: dict = where) -> tuple[int, dict]:
        return h.server._create_thread(type("C", (), {"json": body})(), params)

    for body, field in (({"name": ""}, "name"), ({"name": "x" * 101}, "name"),
                        ({"name": "ok", "auto_archive_duration": 30}, "auto_archive_duration")):
        status, answer = start(body)
        assert (status, answer["code"]) == (400, 50035) and field in answer["errors"], body
    h.app_permissions = NO_THREADS
    assert start({"name": "ok"}) == (403, {"message": "Missing Permissions", "code": 50013})
    h.app_permissions = discord.Permissions.all()
    assert start({"name": "ok"}, {**where, "message_id": "1"})[1]["code"] == 10008
    status, thread = start({"name": "ok", "auto_archive_duration": 1440})
    assert status == 201 and thread["id"] == str(lobby.id) and h.server.messages[lobby.id]["flags"] & 32
    assert start({"name": "again"})[1]["code"] == 160004
    assert start({"name": "inner"}, {"channel_id": thread["id"]})[1]["code"] == 50024
    await h.settle()


async def test_game_commands_reach_the_table_from_the_channel_and_from_its_thread(tmp_path: Path) -> None:
    h = await start_harness(tmp_path / "bot.db", tables=None)
    try:
        alice = h.user(ALICE_ID, "alice")
        lobby, table = await open_and_start(h, alice)
        for where in (h.channel_id, lobby.id):
            r = await h.slash(alice, "game status", channel=where)
            assert r.ephemeral and says(r.text, "common.table_number", id=table.id, move=table.moves), where
        r = await h.slash(alice, "play akuma", bots=3)  # still seated at the table of this channel's lobby
        assert r.message.deleted and r.messages[-1].ephemeral and says(r.messages[-1].text, "error.already_seated")
        r = await h.slash(alice, "game end", channel=h.channel_id, table=table.id)
        assert r.ephemeral and table.status == "cancelled"
        await h.settle()
        said = [m.text for m in h.channel_messages()]
        ended = [[t("table.ended_in_thread", lang, id=table.id, thread=f"<#{lobby.id}>")] for lang in LANGUAGES]
        assert said[1:] in ended  # the lobby, then the end
        assert any(says(m.text, "table.cancelled", id=table.id) for m in h.channel_messages(lobby.id))
    finally:
        await h.close()
