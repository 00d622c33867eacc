"""Tables that survive Discord: each failure class Discord really produces, injected at the fake edge
(``tests/discord_faults.py``), and what players then see — the board eventually right, the ping and the result
delivered, the host told, the clock paused — with the database still the replay of its action log."""
from __future__ import annotations

import asyncio
import json
import random

import discord
import pytest

from bot.i18n import LANGUAGES, t
from bot.policies import choose_action
from cogs.permissions import permission_names
from engines import get_engine

from .discord_faults import RESET, TIMEOUT
from .discord_harness import Harness
from .discord_helpers import JOIN, MY_HAND, START, board_message, only_table, says
from .test_discord_akuma import ALICE_ID, PLAYER, open_table

POST = r"/channels/\d+/messages"
EDIT = r"/channels/\d+/messages/\d+"


def says_missing(text: str, key: str, permissions: list[str], **fields) -> bool:
    """Whether ``text`` holds the catalog line ``key`` naming the missing ``permissions`` as the bot names them (in
    the line's own language), with ``fields``."""
    return any(t(key, lang, missing=permission_names(permissions, lang), **fields) in text for lang in LANGUAGES)


async def until(h: Harness, done) -> None:
    """Let the bot run (its writers may be sleeping out a backoff) until ``done()`` holds (``Harness.until``)."""
    await h.until(done)


def outbox(h: Harness, table):
    return h.bot.get_cog("TableCog").outbox(table.id)


async def play_alice(h: Harness, table, seed: int = 3) -> None:
    """Alice moves (through the service, as her clicks would) until it is not her turn or the game is over."""
    rng = random.Random(seed)
    while table.status == "running" and PLAYER in table.to_act():
        action = choose_action(table.engine, table.state, PLAYER, rng)
        await h.bot.service.act_as(table.id, PLAYER, action, table.version)
        await h.settle()


async def replayed_equals_stored(h: Harness, table) -> None:
    row = await h.bot.storage.get_game(table.id)
    engine = get_engine(row.game)
    state = engine.load(row.state)
    assert engine.dump(state) == engine.dump(table.state)


async def test_board_and_ping_arrive_after_transient_failures(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice)
    h.server.faults.fail("PATCH", EDIT, status=503, times=2)
    h.server.faults.fail("POST", POST, error=TIMEOUT, times=1)
    h.server.faults.fail("POST", POST, error=RESET, times=1)
    version = table.version
    await play_alice(h, table)
    assert table.version > version
    await until(h, lambda: not outbox(h, table).pending())
    author = board_message(h, table).embeds[0]["author"]["name"]
    assert says(author, "common.table_number", id=table.id, move=table.moves)
    if table.status == "running" and PLAYER in table.to_act():
        assert f"<@{ALICE_ID}>" in h.channel_messages()[-1].content  # the turn ping was not lost
    await replayed_equals_stored(h, table)


async def test_a_post_stored_before_a_502_is_not_shown_twice(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice)
    before = len(h.channel_messages())
    h.server.faults.fail("POST", POST, status=502, after=True, times=1)  # stored, then lost on the way back
    await play_alice(h, table)
    await until(h, lambda: not outbox(h, table).pending())
    texts = [m.content for m in h.channel_messages()[before:]]
    assert len(texts) == len(set(texts)), texts  # the library's retry got the same message back (nonce)


async def test_a_deleted_board_is_posted_again_with_my_hand(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice)
    old = board_message(h, table)
    h.server.deleted.add(old.id)  # a moderator deleted it
    h.dispatch("MESSAGE_DELETE", {"id": str(old.id), "channel_id": str(old.channel_id), "guild_id": str(h.guild_id)})
    await play_alice(h, table)
    await until(h, lambda: not outbox(h, table).pending())
    new = board_message(h, table)
    assert new.id != old.id and not new.deleted
    if table.status == "running":
        assert new.button(MY_HAND)
        r = await h.click(alice, new, label=MY_HAND)
        assert r.ephemeral


async def test_lost_permission_pauses_the_clock_and_tells_the_host(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice)
    assert table.row.deadline is not None or PLAYER not in table.to_act()
    box = outbox(h, table)
    channel = h.server.channels[h.channel_id]
    # The bot's role loses Send Messages in the channel (Discord sends CHANNEL_UPDATE) and its writes get 50013.
    channel["permission_overwrites"] = [{"id": str(h.guild_id + 1), "type": 0, "allow": "0",
                                         "deny": str(discord.Permissions(send_messages=True).value)}]
    h.dispatch("CHANNEL_UPDATE", channel)
    fault = h.server.faults.fail("POST", POST.replace(r"\d+", str(h.channel_id), 1), status=403, code=50013,
                                 times=None)
    edits = h.server.faults.fail("PATCH", rf"/channels/{h.channel_id}/messages/\d+", status=403, code=50013,
                                 times=None)
    action = choose_action(table.engine, table.state, PLAYER, random.Random(3))  # Alice's first lead, no more
    await h.bot.service.act_as(table.id, PLAYER, action, table.version)
    await h.settle()
    assert table.status == "running"  # the seeded deal (seed 1) lasts well beyond its first trick
    await until(h, lambda: box.reach.cause is not None)
    assert table.clock_paused and table.row.deadline is None
    assert h.bot.timers._tasks.get(table.id) is None or h.bot.timers._tasks[table.id].done()
    dm = h.dm_messages(alice)
    # Without Send Messages, Discord denies Embed Links and Attach Files too: the host is told all three.
    assert dm and says_missing(dm[-1].content, "outbox.unreachable", ["send_messages", "embed_links", "attach_files"],
                               id=table.id, channel=f"<#{h.channel_id}>")
    # The admin fixes it: the writer catches up on its next try and the clock runs again.
    h.server.faults.faults.remove(fault)
    h.server.faults.faults.remove(edits)
    channel["permission_overwrites"] = []
    h.dispatch("CHANNEL_UPDATE", channel)
    await until(h, lambda: box.reach.cause is None and not box.pending())
    assert not table.clock_paused
    if PLAYER in table.to_act():
        assert table.row.deadline is not None
    await replayed_equals_stored(h, table)


async def test_an_archived_thread_is_unarchived_before_writing(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    parent = h.channel_id
    thread_id = h.server._create_thread(type("C", (), {"json": {"name": "akuma", "type": 11}})(),
                                        {"channel_id": str(parent)})[1]["id"]
    await h.settle()
    r = await h.slash(alice, "play akuma", channel=int(thread_id), bots=3, start="host")
    await h.click(alice, r.message, label=START)
    table = only_table(h)
    assert table.row.channel_id == int(thread_id)
    h.server.channels[int(thread_id)]["thread_metadata"]["archived"] = True  # Discord archived it: a quiet while
    await play_alice(h, table)
    await until(h, lambda: not outbox(h, table).pending())
    assert h.server.channels[int(thread_id)]["thread_metadata"]["archived"] is False
    author = board_message(h, table).embeds[0]["author"]["name"]
    assert says(author, "common.table_number", id=table.id, move=table.moves)


async def test_bots_do_not_wait_for_a_slow_discord(h: Harness) -> None:
    """With no Discord answer coming back until the test lets them, the bots' moves are committed all the same (a
    bot waiting for a round trip would wait for ever); the board follows once Discord answers again."""
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice)
    answers, respond = asyncio.Event(), h.server.respond

    async def held(call):
        response = await respond(call)
        await answers.wait()
        return response

    h.server.respond = held  # type: ignore[method-assign]
    version = table.version
    action = choose_action(table.engine, table.state, PLAYER, random.Random(5))
    await h.bot.service.act_as(table.id, PLAYER, action, table.version)
    # (no settle while the answers are held: the writer's requests wait for them, as they would for Discord)
    await h.until(lambda: table.status != "running" or PLAYER in table.to_act(), then_settle=False)
    assert table.version >= version + 2  # Alice's move and at least one bot's, no answer from Discord yet
    answers.set()
    await until(h, lambda: not outbox(h, table).pending())
    assert says(board_message(h, table).embeds[0]["author"]["name"], "common.table_number", id=table.id,
                move=table.moves)


async def test_every_interaction_is_answered_within_three_seconds_when_discord_is_slow(h: Harness) -> None:
    h.server.faults.deadlines = True
    h.server.faults.latency = 2.0  # each answer takes 2 s to come back; Discord's 3 s count from the click
    alice = h.user(ALICE_ID, "alice")
    r = await h.slash(alice, "play akuma", bots=3, start="host", expect_response=False)
    await until(h, lambda: r.responded and r.message_ids and h.message(r.message).components)
    r = await h.click(alice, r.message, label=START, expect_response=False)
    await until(h, lambda: r.responded)
    table = only_table(h)
    await until(h, lambda: table.row.board_message_id is not None)
    r = await h.click(alice, board_message(h, table), label=MY_HAND, expect_response=False)
    await until(h, lambda: r.responded)
    assert r.ephemeral
    r = await h.slash(alice, "game status", expect_response=False)
    await until(h, lambda: r.responded)
    late = [c for c in h.calls if c.status == 404 and (c.response or {}).get("code") == 10062]
    assert not late


async def test_the_edge_refuses_late_callbacks_and_old_tokens(h: Harness) -> None:
    from .discord_harness_http import Call

    h.server.faults.deadlines = True
    alice = h.user(ALICE_ID, "alice")
    r = await h.slash(alice, "game status")
    assert r.responded
    r.created -= 16 * 60  # fifteen minutes later
    call = Call("POST", f"/webhooks/{h.app_id}/{r.token}", {}, {"content": "late"}, {})
    answer = await h.server.respond(call)
    assert answer.status == 401 and '"code": 50027' in answer._text
    call = Call("POST", f"/interactions/{r.id}/{r.token}/callback", {}, {"type": 4, "data": {"content": "x"}}, {})
    answer = await h.server.respond(call)
    assert answer.status == 404 and '"code": 10062' in answer._text


@pytest.mark.parametrize("failure", [{"status": 400}, {"error": RESET}, {"error": TIMEOUT}],
                         ids=["refused", "reset", "timeout"])
async def test_a_failed_answer_after_a_move_does_not_say_nothing_changed(h: Harness, failure) -> None:
    """A prepared position: seed 1, the host leads, so Alice picks her first card and plays it. The answer fails
    after the move was committed: Discord refuses it, or the connection breaks or times out on the way."""
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice)
    assert PLAYER in table.to_act()
    hand = (await h.click(alice, board_message(h, table), label=MY_HAND)).message
    menu = hand.select(None)
    picked = (await h.select(alice, hand, menu["custom_id"], [menu["options"][0]["value"]])).message
    play = picked.button(None, r"gh:do:.*")
    assert not play.get("disabled")
    version = table.version
    # Discord refuses the updated hand (a 503 would be retried by the library and then succeed)
    h.server.faults.fail("POST", r"/interactions/\d+/[^/]+/callback", times=1, **failure)
    r = await h.click(alice, picked, play["custom_id"])
    assert table.version > version  # the move was committed
    assert not says(r.text, "error.unexpected") and says(r.text, "error.after_commit.move")


async def test_play_whose_lobby_was_lost_blocks_nobody(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    # Discord lost the interaction (10062): the lobby's answer never arrives; its error reply is a followup
    h.server.faults.fail("POST", r"/interactions/\d+/[^/]+/callback", status=404, code=10062, times=1)
    r = await h.slash(alice, "play akuma", bots=3, expect_response=False)
    assert not h.bot.service._tables or all(tb.status == "cancelled" for tb in h.bot.service._tables.values())
    r = await h.slash(alice, "play akuma", bots=3)
    assert r.responded and not r.ephemeral and r.message.button(JOIN)


async def test_play_is_refused_where_the_bot_cannot_post(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    h.app_permissions = discord.Permissions(h.app_permissions.value & ~discord.Permissions(
        send_messages=True, attach_files=True).value)
    r = await h.slash(alice, "play akuma", bots=3)
    assert r.ephemeral and says_missing(r.text, "error.missing_permissions", ["send_messages", "attach_files"])
    assert not h.bot.service._tables


async def test_private_notes_stay_until_shown(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice)
    victim = next(s.player for s in table.seats if s.is_bot)
    stolen = table.state.hands[PLAYER][0]  # a card she holds now, as after a steal (the note may show it to her)
    event = '{"type": "stolen_card", "visible_to": ["%s"], "data": {"thief": "%s", "victim": "%s", "card": %s}}' % (
        PLAYER, PLAYER, victim, json.dumps(stolen))
    await h.bot.storage.db.execute("INSERT INTO notices (game_id, player, event) VALUES (?, ?, ?)",
                                   table.id, PLAYER, event)
    h.server.faults.fail("POST", r"/interactions/\d+/[^/]+/callback", status=404, code=10062, times=2)
    await h.click(alice, board_message(h, table), label=MY_HAND, expect_response=False)
    assert await h.bot.storage.peek_notices(table.id, PLAYER)  # not shown: still stored
    r = await h.click(alice, board_message(h, table), label=MY_HAND)
    assert "🔒" in r.text
    assert not await h.bot.storage.peek_notices(table.id, PLAYER)


async def test_sustained_rate_limits_two_tables_in_one_channel_catch_up(h: Harness) -> None:
    """Discord's real limits (5 messages / 5 s per channel) and every tenth write a 2 s 429: both games run to
    their end without waiting, and both boards end on their last move."""
    h.server.faults.rate_limits = True
    alice, bob = h.user(ALICE_ID, "alice"), h.user(102, "bob")
    tables = []
    for user, channel in ((alice, "general"), (bob, "general")):
        r = await h.slash(user, "play akuma", bots=3, start="host", channel=channel)
        await h.click(user, r.message, label=START)
        tables.append(next(tb for tb in h.bot.service._tables.values() if tb.row.host_id == user.id))
    for _ in range(0, 40, 10):
        h.server.faults.fail("POST", POST, status=429, retry_after=2.0, times=1)
    rng = random.Random(9)

    def people_due() -> list:
        return [(tb, p) for tb in tables if tb.status == "running" for p in tb.to_act() if not tb.is_bot(p)]

    while any(tb.status == "running" for tb in tables):  # the two people move as soon as it is their turn
        await until(h, lambda: people_due() or all(tb.status != "running" for tb in tables))
        for table, player in people_due():
            action = choose_action(table.engine, table.state, player, rng)
            await h.bot.service.act_as(table.id, player, action, table.version)
    await until(h, lambda: all(not outbox(h, tb).pending() for tb in tables))
    for table in tables:
        author = board_message(h, table).embeds[0]["author"]["name"]
        assert says(author, "common.table_number", id=table.id, move=table.moves)


async def test_play_with_bots_is_deferred_before_a_slow_database(h: Harness) -> None:
    """Each bot seat takes 1.5 s to store and every Discord answer 2 s: /play answers (defers) at once, and the
    lobby with its three bots appears when they are seated."""
    h.server.faults.deadlines = True
    h.server.faults.latency = 2.0
    add_bot = h.bot.service.add_bot

    async def slow_add_bot(*args, **kwargs):
        await asyncio.sleep(1.5)
        return await add_bot(*args, **kwargs)

    h.bot.service.add_bot = slow_add_bot
    alice = h.user(ALICE_ID, "alice")
    r = await h.slash(alice, "play akuma", bots=3, expect_response=False)
    await until(h, lambda: r.message_ids and h.message(r.message).components)
    late = [c for c in h.calls if c.status == 404 and (c.response or {}).get("code") == 10062]
    assert not late and r.type == "deferred" and not r.ephemeral
    assert h.message(r.message).button(JOIN) and h.message(r.message).text.count("Bot") >= 3


async def test_a_failed_answer_after_start_says_the_game_started(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    r = await h.slash(alice, "play akuma", bots=3, start="host")
    h.server.faults.fail("POST", r"/interactions/\d+/[^/]+/callback", status=400, times=1)  # Start's answer refused
    started = await h.click(alice, r.message, label=START)
    assert only_table(h).status == "running"
    assert says(started.text, "error.after_commit.start") and not says(started.text, "error.after_commit.move")
