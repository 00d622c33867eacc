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
