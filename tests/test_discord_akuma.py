"""Akuma Trick through Discord: discord.py's real Interaction/Message objects fed with raw gateway
payloads, only the HTTP edge faked (docs/engine-contract.md, Tests 4)."""
from __future__ import annotations

import random
from pathlib import Path

import discord
import pytest

from bot.policies import choose_action
from engines import get_engine

from .discord_harness import Harness
from .discord_helpers import (
    IM_BACK,
    JOIN,
    LEAVE,
    MY_HAND,
    START,
    Key,
    action_button,
    assert_hands_only_ephemeral,
    board_message,
    line,
    only_table,
    says,
    start_harness,
)

ALICE_ID = 101
PLAYER = f"u{ALICE_ID}"
ENGINE = get_engine("akuma")


async def open_table(h: Harness, alice, bots: int = 3):
    r = await h.slash(alice, "play akuma", bots=bots, start="host")
    assert r.type == "deferred" and not r.ephemeral
    lobby = r.message
    labels = {c.get("label") for c in lobby.components}
    assert says(lobby.text, "common.bot_name", number=3)
    add_bot = Key("lobby.button.bot_level", level=line("bot.level.normal"))
    assert all(button.texts & labels for button in (JOIN, LEAVE, add_bot, START)), labels
    await h.click(alice, lobby, label=START)
    table = only_table(h)
    started = "lobby.playing_in_thread" if table.row.lobby_channel_id else "lobby.started"  # tables in threads
    assert table.status == "running" and says(lobby.text, started)
    return table


async def take_turn(h: Harness, alice, table, rng: random.Random) -> None:
    """Alice moves through her ephemeral hand view: selects, then Play / Release / Steal buttons."""
    r = await h.click(alice, board_message(h, table), label=MY_HAND)
    assert r.type == "message" and r.ephemeral
    hand = r.message
    view = table.view(PLAYER)
    for card in view.hand or []:
        assert card[1:] in hand.text
    action = choose_action(ENGINE, table.state, PLAYER, rng)
    gid = table.id
    if action.type in ("steal", "stop_stealing"):
        await h.click(alice, hand, action_button(hand, table, PLAYER, action))
    elif action.type == "release" and view.release_forced is not None:
        await h.click(alice, hand, action_button(hand, table, PLAYER, lambda a: a.type == "release"))
    else:
        await h.select(alice, hand, rf"gh:pick:{gid}:\d+:0:.*", action.cards)
        assert "✅" in hand.text, hand.text  # the preview says the selection is playable/releasable
        version = table.version
        await h.click(alice, hand, action_button(hand, table, PLAYER, lambda a: a.type == action.type
                                                 and sorted(a.cards) == sorted(action.cards)))
        assert table.version > version


async def test_four_seat_game_played_to_the_end_through_buttons_and_selects(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice)
    rng = random.Random(3)
    turns = 0
    while table.status == "running":
        assert table.to_act() == [PLAYER], "bots should have moved already"
        await take_turn(h, alice, table, rng)
        turns += 1
        assert turns < 300
    assert table.status == "finished" and table.result() is not None
    board = board_message(h, table)
    assert says(board.text, "common.final_ranking") and board.components == []  # no My hand once over
    assert any(says(m.text, "akuma.event.game_over") for m in h.channel_messages())
    assert assert_hands_only_ephemeral(h) >= turns
    status = await h.slash(alice, "game status")  # after the end: the last result here, not "no table"
    assert status.ephemeral and says(status.messages[-1].text, "table.last_result", id=table.id)
    assert says(status.messages[-1].text, "common.final_ranking") and status.messages[-1].components == []
    # Turn pings mention Alice only, and only Alice.
    pings = [c for c in h.calls if c.method == "POST" and f"<@{ALICE_ID}>" in ((c.json or {}).get("content") or "")]
    assert pings and all([str(u) for u in c.json["allowed_mentions"]["users"]] == [str(ALICE_ID)] for c in pings)
    assert all(not c.json["allowed_mentions"].get("parse") for c in pings)


async def test_errors_are_ephemeral_say_what_to_do_and_change_nothing(h: Harness) -> None:
    alice, bob = h.user(ALICE_ID, "alice"), h.user(102, "bob")
    table = await open_table(h, alice)
    board = board_message(h, table)
    # Not seated.
    r = await h.click(bob, board, label=MY_HAND)
    assert r.ephemeral and says(r.text, "error.not_seated")
    # An illegal release: a surplus card is named.
    rng = random.Random(1)
    while table.status == "running":
        view = table.view(PLAYER)
        if view.row and view.release_forced is None and not view.steals_left:
            cards = sorted(view.hand or [], key=lambda c: int(c[1:]))
            nonzero = [c for c in cards if c[1:] != "0"]
            if sum(int(c[1:]) for c in nonzero) > (view.release_number or 0) + 1 and len(nonzero) >= 2:
                break
        await take_turn(h, alice, table, rng)
    else:
        pytest.skip("no suitable release situation in this seeded game")
    state_before, version = ENGINE.dump(table.state), table.version
    r = await h.click(alice, board_message(h, table), label=MY_HAND)  # the board of this turn
    hand = r.message
    await h.select(alice, hand, rf"gh:pick:{table.id}:\d+:0:.*", nonzero)  # everything: surplus
    assert says(hand.text, "akuma.hand.cannot_release") and says(hand.text, "error.akuma.release_surplus")
    release = hand.button(label=Key("akuma.button.release", number=view.release_number))
    assert release.get("disabled")  # a release that would be refused cannot be sent (the note above says why)
    assert ENGINE.dump(table.state) == state_before and table.version == version
    # An out-of-date button: act once, then click the old hand's button again.
    stale_hand = (await h.click(alice, board_message(h, table), label=MY_HAND)).message
    await take_turn(h, alice, table, rng)
    if table.status == "running":
        old = [c for c in stale_hand.components
               if c.get("custom_id", "").startswith("gh:do:") and not c.get("disabled")]
        if old:
            version = table.version
            r = await h.click(alice, stale_hand, old[0]["custom_id"])
            assert r.ephemeral and says(r.text, "error.stale") and says(r.text, "hand.header")
            assert table.version == version
    # Forged or unknown custom ids get a clear answer too.
    assert table.version >= 0


async def test_game_commands_and_rules(h: Harness) -> None:
    alice, bob = h.user(ALICE_ID, "alice"), h.user(102, "bob")
    mod = h.user(103, "mod", permissions=discord.Permissions(manage_guild=True))
    r = await h.slash(alice, "rules", game="akuma")
    assert r.ephemeral and "Decision" in r.text and "release" in r.text.lower()
    r = await h.slash(alice, "game status")
    assert r.ephemeral and says(r.text, "error.no_table_here")
    table = await open_table(h, alice)
    r = await h.slash(bob, "game status")
    assert r.ephemeral and says(r.text, "game.akuma.name")
    r = await h.slash(bob, "game end")
    assert r.ephemeral and says(r.text, "error.host_or_admin_only") and table.status == "running"
    r = await h.slash(bob, "play akuma")  # a second lobby in the channel is fine for someone not seated
    assert not r.ephemeral
    r = await h.slash(alice, "play akuma")  # refused after the deferral: the public "thinking…" is deleted
    assert r.message.deleted and r.messages[-1].ephemeral and says(r.messages[-1].text, "error.already_seated")
    # Alice, the only person at the table, leaves: nobody is left to play for, so the table closes.
    r = await h.slash(alice, "game leave", channel=None)
    assert r.ephemeral
    assert table.status == "cancelled" and table.seat_of_user(ALICE_ID) is None
    assert any(says(m.text, "table.abandoned") for m in h.channel_messages())
    # A moderator (Manage Server) can end any table.
    other = next(t for t in h.bot.service._tables.values() if t.status == "lobby")
    r = await h.slash(mod, "game end", table=other.id)
    assert r.ephemeral and other.status == "cancelled"


async def test_restart_keeps_the_board_buttons_and_the_game(tmp_path: Path) -> None:
    db = tmp_path / "bot.db"
    h1 = await start_harness(db)
    alice = h1.user(ALICE_ID, "alice")
    table = await open_table(h1, alice)
    await take_turn(h1, alice, table, random.Random(2))
    board_payload = board_message(h1, table).payload
    state, version = ENGINE.dump(table.state), table.version
    await h1.close()

    h2 = await start_harness(db)
    try:
        alice = h2.user(ALICE_ID, "alice")
        board = h2.adopt(board_payload)
        r = await h2.click(alice, board, label=MY_HAND)  # an old button, handled by the new process
        assert r.ephemeral and says(r.text, "hand.header")
        table2 = await h2.bot.service.table(table.id)
        assert ENGINE.dump(table2.state) == state and table2.version == version
        await take_turn(h2, alice, table2, random.Random(5))
        assert table2.version > version
    finally:
        await h2.close()


async def test_forged_and_unknown_controls_get_a_clear_answer(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice)
    payload = dict(board_message(h, table).payload)
    forged = {  # the answer each gets: a catalog line, with its fields
        "gh:hand:99999": ("error.no_such_game", {"game_id": 99999}),
        "not-ours-at-all": ("error.unknown_control", {}),
        f"gh:do:{table.id}:{table.version}:0.999": ("error.bad_action", {}),
        f"gh:do:{table.id}:{table.version}:zz": ("error.unknown_control", {}),  # not <seat>.<index>: no control
        f"gh:do:{table.id}:0:0.0": ("error.stale", {}),
    }
    payload["id"] = str(int(payload["id"]) + 1)
    payload["components"] = [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": str(i), "custom_id": cid}]} for i, cid in enumerate(forged)]
    message = h.adopt(payload)
    state, version = ENGINE.dump(table.state), table.version
    for cid, (key, fields) in forged.items():
        r = await h.click(alice, message, cid)
        assert r.ephemeral and says(r.text, key, **fields), (cid, r.text)
    assert ENGINE.dump(table.state) == state and table.version == version


async def test_every_registered_game_has_a_play_subcommand(h: Harness) -> None:
    from engines import GAMES

    play = h.bot.tree.get_command("play")
    assert play is not None and sorted(c.name for c in play.commands) == sorted(GAMES)


async def test_a_player_who_left_comes_back_with_the_button(h: Harness) -> None:
    alice, bob = h.user(ALICE_ID, "alice"), h.user(102, "bob")
    r = await h.slash(alice, "play akuma", bots=2, start="host")
    await h.click(bob, r.message, label=JOIN)
    await h.click(alice, r.message, label=START)
    table = only_table(h)
    await h.slash(alice, "game leave")
    await h.settle()
    assert any(says(m.text, "table.seat_to_bot", player="alice") for m in h.channel_messages())
    assert table.seat_of(PLAYER).is_bot and table.status == "running"  # Bob still has to play
    board = board_message(h, table)  # I'm back is on the board while a bot plays a person's seat
    r = await h.click(bob, board, label=IM_BACK)
    assert r.ephemeral and says(r.text, "error.already_playing")  # Bob never left
    r = await h.click(alice, board, label=IM_BACK)
    assert r.ephemeral and says(r.text, "hand.header")
    assert not table.seat_of(PLAYER).is_bot
    assert any(says(m.text, "table.seat_back", player="alice") for m in h.channel_messages())
