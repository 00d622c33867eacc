"""Lobbies that cannot go on, through the harness (strict edge): a lobby nobody changed for a day is closed, its
message saying why (en and ja), its buttons gone, and a late click answered with a clear refusal; when the host
presses Leave while others sit, the next seated person hosts, the lobby names them (👑), and only they can Start.
The bot has only the Guilds intent, so it cannot see a host leave the server: the day's wait is what closes such
a lobby."""
from __future__ import annotations

import time
from pathlib import Path

import discord

from .conftest import rows
from .discord_harness import Harness
from .discord_helpers import JOIN, LEAVE, START, says, start_harness
from .test_discord_paused import advance, channel_text, labels, manual_time

ALICE, BOB, CAROL = 101, 102, 103
HOUR = 3600.0


async def test_a_lobby_nobody_changed_for_a_day_is_closed_and_says_why(h: Harness) -> None:
    clock = manual_time(h)
    alice, bob = h.user(ALICE, "alice"), h.user(BOB, "bob")
    lobby = (await h.slash(alice, "play akuma", bots=1)).message
    await advance(h, clock, 12 * HOUR)
    await h.click(bob, h.message(lobby.id), label=JOIN)  # a change: the day starts again
    await advance(h, clock, 23 * HOUR)
    assert h.message(lobby.id).components, "closed a day after its creation, not after its last change"
    stale = dict(h.message(lobby.id).payload)  # the lobby as a client that did not refresh still shows it
    stale["id"] = str(int(stale["id"]) + 1)
    await advance(h, clock, HOUR + 1)
    table = h.bot.service._tables[next(iter(h.bot.service._tables))]  # type: ignore[attr-defined]
    assert table.status == "cancelled" and table.result() is None
    closed = h.message(lobby.id)
    assert f"Table #{table.id} was closed: nobody joined, left or started its lobby for a long time" in closed.text
    assert f"closed (table #{table.id})" in closed.text and closed.components == []
    assert says(channel_text(h), "table.lobby_idle")
    r = await h.click(bob, h.adopt(stale), label=LEAVE)
    assert r.ephemeral and says(r.text, "error.not_in_lobby") and table.status == "cancelled"


async def test_japanese_lobby_closed_for_idleness(h: Harness) -> None:
    mod = h.user(104, "mod", permissions=discord.Permissions(manage_guild=True))
    await h.slash(mod, "config language", language="ja")
    clock = manual_time(h)
    lobby = (await h.slash(h.user(ALICE, "alice"), "play akuma", bots=1)).message
    await advance(h, clock, 24 * HOUR + 1)
    closed = h.message(lobby.id)
    assert "誰もロビーに参加・退出・開始しなかったため" in closed.text and "閉じました" in closed.text
    assert closed.components == []


async def test_after_a_restart_a_lobby_closes_a_day_after_its_last_change(tmp_path: Path) -> None:
    db = tmp_path / "bot.db"
    h1 = await start_harness(db)
    try:
        lobby = (await h1.slash(h1.user(ALICE, "alice"), "play akuma", bots=1)).message
        await h1.settle()
        payload = h1.message(lobby.id).payload
        table_id = next(iter(h1.bot.service._tables))  # type: ignore[attr-defined]
    finally:
        await h1.close()
    # Its last change 23 hours before the restart (as if the bot had been down that long).
    rows(db, "UPDATE games SET updated_at = ? WHERE id = ?", time.time() - 23 * HOUR, table_id)
    h2 = await start_harness(db, discord_has=lambda h: h.adopt(payload))
    try:
        clock = manual_time(h2)
        await h2.bot.timers.resume()  # type: ignore[attr-defined]  # the waits again, on the test's clock
        await advance(h2, clock, HOUR - 60)
        assert h2.message(lobby.id).components and says(h2.message(lobby.id).text, "lobby.title")
        await advance(h2, clock, 120)
        closed = h2.message(lobby.id)
        assert f"Table #{table_id} was closed: nobody joined" in closed.text and closed.components == []
    finally:
        await h2.close()


async def test_the_host_leaves_and_the_next_seated_person_hosts_named_on_the_lobby(h: Harness) -> None:
    alice, bob, carol = h.user(ALICE, "alice"), h.user(BOB, "bob"), h.user(CAROL, "carol")
    lobby = (await h.slash(alice, "play akuma", bots=1)).message
    await h.click(bob, h.message(lobby.id), label=JOIN)
    await h.click(carol, h.message(lobby.id), label=JOIN)
    assert "alice 👑" in h.message(lobby.id).text
    await h.click(alice, h.message(lobby.id), label=LEAVE)
    await h.settle()
    table = h.bot.service._tables[next(iter(h.bot.service._tables))]  # type: ignore[attr-defined]
    now = h.message(lobby.id)
    assert table.status == "lobby" and table.row.host_id == BOB
    assert "bob 👑" in now.text and "alice" not in now.text and "carol 👑" not in now.text
    assert "Join" in labels(now) and "Start" in labels(now)
    menu = now.select(r"gh:lobbyrm:\d+:\d+")  # the new host may remove seats, never their own
    assert {o["value"] for o in menu["options"]} == {"bot1", f"u{CAROL}"}
    r = await h.click(carol, now, label=START)
    assert r.ephemeral and says(r.text, "error.host_only") and table.status == "lobby"
    await h.click(bob, now, label=START)
    assert table.status == "running" and [s.user_id for s in table.seats if not s.is_bot] == [BOB, CAROL]


async def test_the_last_person_leaving_closes_the_lobby_and_its_buttons(h: Harness) -> None:
    alice = h.user(ALICE, "alice")
    lobby = (await h.slash(alice, "play akuma", bots=2)).message
    await h.click(alice, h.message(lobby.id), label=LEAVE)
    await h.settle()
    table = h.bot.service._tables[next(iter(h.bot.service._tables))]  # type: ignore[attr-defined]
    assert table.status == "cancelled" and h.message(lobby.id).components == []
