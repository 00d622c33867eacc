"""A table's controls act only where the table is (issue 52, item 4): a press carrying a table's custom_id from any
other channel — a group DM table's Join from a server channel, another DM or another group DM; a server table's
My hand or move from another channel of the server — is refused with why and changes nothing. Looking back
(Review, Reveal) answers wherever the person may see the table."""
from __future__ import annotations

import re

import pytest

from .discord_harness import Harness
from .discord_helpers import JOIN, MY_HAND, board_message, only_table, says
from .test_discord_akuma import ALICE_ID, open_table

BOB_ID, MALLORY_ID = 102, 103


def copied_to(h: Harness, message, channel_id: int):
    """``message`` as a forged copy in another channel: the same components (custom ids), a new id."""
    payload = dict(message.payload)
    payload.update(id=str(int(payload["id"]) + 7), channel_id=str(channel_id))
    payload.pop("guild_id", None)
    if channel_id in h.channel_ids.values():
        payload["guild_id"] = str(h.guild_id)
    return h.adopt(payload)


@pytest.mark.parametrize("where", ["server channel", "another DM", "another group DM"])
async def test_a_group_dm_lobby_cannot_be_joined_from_outside(h: Harness, where: str) -> None:
    alice, bob, mallory = h.user(ALICE_ID, "alice"), h.user(BOB_ID, "bob"), h.user(MALLORY_ID, "mallory")
    group = h.group_dm(alice, bob)
    lobby = (await h.slash(alice, "play rocca", channel=group)).message
    elsewhere = {"server channel": h.channel_id, "another DM": h.dm(mallory),
                 "another group DM": h.group_dm(mallory, bob)}[where]
    table = await h.bot.service.table(int(lobby.components[0]["custom_id"].split(":")[2]))
    seats = [s.player for s in table.seats]
    r = await h.click(mallory, copied_to(h, lobby, elsewhere), label=JOIN)
    assert r.ephemeral and says(r.text, "error.table_elsewhere", game_id=table.id), r.text
    assert [s.player for s in table.seats] == seats  # nobody was seated
    assert (await h.click(bob, lobby, label=JOIN)).type is not None  # from the group DM itself it works
    assert [s.player for s in table.seats] == [*seats, f"u{BOB_ID}"]


async def test_a_server_tables_controls_act_only_in_its_channel(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice)
    version = table.version
    other = h.channel_ids["games"]
    r = await h.click(alice, copied_to(h, board_message(h, table), other), label=MY_HAND)
    assert r.ephemeral and says(r.text, "error.table_elsewhere", game_id=table.id)
    r = await h.click(alice, board_message(h, table), label=MY_HAND)  # where it plays: her hand
    assert r.ephemeral and says(r.text, "hand.header")
    seat = table.seat_of("u101").seat  # her first legal move, as a button of her hand would send it
    move = f"gh:do:{table.id}:{table.version}:{seat}.0"
    forged = copied_to(h, r.message, other)
    forged.payload["components"] = [{"type": 1, "components": [{"type": 2, "style": 1, "label": "move",
                                                                "custom_id": move}]}]
    r = await h.click(alice, forged, re.escape(move))
    assert says(r.text, "error.table_elsewhere", game_id=table.id) and table.version == version
    r = await h.click(alice, copied_to(h, forged, board_message(h, table).channel_id), re.escape(move))
    assert table.version > version  # the same press where the table plays is her move


async def test_a_dm_tables_controls_act_only_in_that_dm(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    dm = h.dm(alice)
    await h.slash(alice, "play akuma", channel=dm, bots=3, start="host")
    table = only_table(h)
    version = table.version
    r = await h.click(alice, copied_to(h, board_message(h, table), h.channel_id), label=MY_HAND)
    assert r.ephemeral and says(r.text, "error.table_elsewhere", game_id=table.id) and table.version == version
