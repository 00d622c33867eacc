"""The lobby and the end of a table through the harness (strict edge): after Start the lobby says who plays and
has no buttons; the host removes a bot or a person before Start; a person joining a lobby full of bots takes a
bot's seat; the end posts one clear result with a Rematch button, removes the table's controls, and a Rematch
seats the same people and bots with the same options (once, however often it is pressed)."""
from __future__ import annotations

from .discord_harness import Harness
from .discord_helpers import only_table

ALICE, BOB, CAROL = 101, 102, 103


async def test_after_start_the_lobby_says_who_plays_and_has_no_buttons(h: Harness) -> None:
    alice, bob = h.user(ALICE, "alice"), h.user(BOB, "bob")
    r = await h.slash(alice, "play akuma", bots=1, level="strong")
    lobby = r.message
    await h.click(bob, lobby, label="Join")
    assert "waiting for players" in lobby.text and "presses Start" in lobby.text
    await h.click(alice, lobby, label="Start")
    await h.settle()
    table = only_table(h)
    lobby = h.message(lobby.id)
    assert table.status == "running"
    assert "waiting for players" not in lobby.text and "presses Start" not in lobby.text, lobby.text
    assert f"playing (table #{table.id})" in lobby.text and "has started" in lobby.text
    assert "alice" in lobby.text and "bob" in lobby.text and "Bot 1 🤖 (strong)" in lobby.text
    assert "3 players" in lobby.text
    assert lobby.components == []  # no Join, Leave, Add bot or Start any more


async def test_host_removes_a_bot_or_a_person_and_nobody_else_can(h: Harness) -> None:
    alice, bob, carol = h.user(ALICE, "alice"), h.user(BOB, "bob"), h.user(CAROL, "carol")
    lobby = (await h.slash(alice, "play akuma", bots=2)).message
    await h.click(bob, lobby, label="Join")
    table = next(iter(h.bot.service._tables.values()))  # type: ignore[attr-defined]
    menu = lobby.select(r"gh:lobbyrm:\d+")
    assert {o["value"] for o in menu["options"]} == {"bot1", "bot2", f"u{BOB}"}  # never the host's own seat
    version = table.version
    for stranger in (bob, carol):  # a seated guest and a passer-by: refused, only to them, nothing changes
        r = await h.select(stranger, lobby, r"gh:lobbyrm:\d+", ["bot1"])
        assert r.ephemeral and "Only the host" in r.text
    assert table.version == version and len(table.seats) == 4
    await h.select(alice, lobby, r"gh:lobbyrm:\d+", ["bot1"])
    await h.settle()
    assert [s.player for s in table.seats] == [f"u{ALICE}", "bot2", f"u{BOB}"]
    assert "Bot 2" in h.message(lobby.id).text and "Bot 1" not in h.message(lobby.id).text
    await h.select(alice, h.message(lobby.id), r"gh:lobbyrm:\d+", [f"u{BOB}"])
    await h.settle()
    assert [s.player for s in table.seats] == [f"u{ALICE}", "bot2"] and "bob" not in h.message(lobby.id).text
    r = await h.click(bob, h.message(lobby.id), label="Join")  # a removed person may join again
    assert table.seat_of_user(BOB) is not None


async def test_a_friend_joining_a_lobby_full_of_bots_takes_a_bots_seat(h: Harness) -> None:
    alice, bob, carol = h.user(ALICE, "alice"), h.user(BOB, "bob"), h.user(CAROL, "carol")
    lobby = (await h.slash(alice, "play diamondbox", bots=3)).message
    table = next(iter(h.bot.service._tables.values()))  # type: ignore[attr-defined]
    assert len(table.seats) == table.engine.max_players == 4
    r = await h.click(bob, lobby, label="Join")
    assert not r.ephemeral, r.text  # not "this table is full"
    await h.settle()
    assert [s.player for s in table.seats] == [f"u{ALICE}", "bot1", "bot2", f"u{BOB}"]
    await h.click(carol, h.message(lobby.id), label="Join")
    await h.click(h.user(104, "dave"), h.message(lobby.id), label="Join")
    assert [s.player for s in table.seats] == [f"u{ALICE}", f"u{104}", f"u{CAROL}", f"u{BOB}"]
    r = await h.click(h.user(105, "erin"), h.message(lobby.id), label="Join")  # four people: now it is full
    assert r.ephemeral and "full" in r.text and table.seat_of_user(105) is None
    await h.click(alice, h.message(lobby.id), label="Start")
    assert table.status == "running" and not any(s.is_bot for s in table.seats)
