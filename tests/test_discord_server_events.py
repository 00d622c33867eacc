"""The server-level events the table writers listen to (cogs/table_events.py) fed as raw gateway payloads: the bot's
role regaining a permission (GUILD_ROLE_UPDATE) wakes a writer that could not write at once, and the bot removed from
a server (GUILD_DELETE) stops its tables' clocks without telling anyone, writing again once it is back
(GUILD_CREATE). The writer's own retries and probes are put an hour away, so only the event can wake it: a missed
event leaves it waiting, and the wait fails once nothing has moved for a while (``Harness.until``)."""
from __future__ import annotations

import random

import discord
import pytest

from bot.policies import choose_action
from cogs.outbox import TableOutbox

from .discord_harness import Harness
from .discord_harness_payloads import guild_payload
from .discord_helpers import board_message
from .test_discord_akuma import ALICE_ID, PLAYER, open_table
from .test_discord_faults import POST, outbox, until
from .test_discord_output import shows_move

HOUR = 3600.0


@pytest.fixture(autouse=True)
def retries_an_hour_away(monkeypatch) -> None:
    for wait in ("unreachable_first", "unreachable_max", "probe_every", "server_probe_every"):
        monkeypatch.setattr(TableOutbox, wait, HOUR)


def bot_role(h: Harness, permissions: discord.Permissions) -> dict:
    """GUILD_ROLE_UPDATE of the bot's managed role with these permissions (as an admin would edit it)."""
    return {"guild_id": str(h.guild_id), "role": {
        "id": str(h.guild_id + 1), "name": "GameHost", "permissions": str(permissions.value), "position": 1,
        "color": 0, "hoist": False, "managed": True, "mentionable": False, "flags": 0}}


async def move(h: Harness, table) -> None:
    action = choose_action(table.engine, table.state, PLAYER, random.Random(3))
    await h.bot.service.act_as(table.id, PLAYER, action, table.version)


def refuse_writes(h: Harness, code: int) -> list:
    """Discord refuses the bot's messages in the table's channel with this code (50013: a missing permission;
    50001: no access, as for a server the bot is no longer in)."""
    return [h.server.faults.fail("POST", POST.replace(r"\d+", str(h.channel_id), 1), status=403, code=code,
                                 times=None),
            h.server.faults.fail("PATCH", rf"/channels/{h.channel_id}/messages/\d+", status=403, code=code,
                                 times=None)]


async def test_a_role_given_its_permission_back_wakes_the_writer_at_once(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice)
    box = outbox(h, table)
    full = h.app_permissions
    h.dispatch("GUILD_ROLE_UPDATE", bot_role(h, discord.Permissions(full.value & ~discord.Permissions(
        send_messages=True).value)))  # an admin takes Send Messages from the bot's role
    faults = refuse_writes(h, 50013)
    await move(h, table)
    await until(h, lambda: box.reach.cause is not None)
    assert table.clock_paused and table.row.deadline is None
    for fault in faults:
        h.server.faults.faults.remove(fault)
    h.dispatch("GUILD_ROLE_UPDATE", bot_role(h, full))  # and gives it back
    await until(h, lambda: box.reach.cause is None and not box.pending())
    assert shows_move(board_message(h, table)) == table.moves and not table.clock_paused


async def test_removed_from_the_server_holds_the_clock_quietly_and_writes_again_once_back(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice)
    box = outbox(h, table)
    dms_before = len(h.dm_messages(alice))
    faults = refuse_writes(h, 50001)  # gone from the server: Discord refuses the bot there
    h.dispatch("GUILD_DELETE", {"id": str(h.guild_id)})
    await until(h, lambda: box.reach.cause is not None)
    if table.status == "running":
        assert table.clock_paused and table.row.deadline is None
    await move(h, table)  # a move made meanwhile (the table plays on without the bot's messages) is kept
    await h.settle()
    assert len(h.dm_messages(alice)) == dms_before  # the server let the bot go: nobody is told it cannot write
    for fault in faults:
        h.server.faults.faults.remove(fault)
    h.dispatch("GUILD_CREATE", guild_payload(h))  # invited back
    await until(h, lambda: box.reach.cause is None and not box.pending())
    assert shows_move(board_message(h, table)) == table.moves and not table.clock_paused
