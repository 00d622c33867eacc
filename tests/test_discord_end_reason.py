"""Nothing derived is lost at a kill (issue 41). A table's end reason is stored with its end: a lobby closed just
before the bot's process was killed, its lobby message not yet edited, tells the true reason after the restart, not
a bare "was closed"; the reason is written in the same transaction as the end, on both backends. The event lines a
board had not shown yet are rebuilt from the action log after the restart."""
from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bot.policies import choose_action
from bot.service import GameService
from bot.storage import Storage
from bot.table import EndReason
from cogs.outbox_fold import folded

from .discord_helpers import kill, says, start_harness
from .test_discord_akuma import PLAYER, open_table
from .test_discord_output import kept_by_discord

ALICE, BOB = 101, 102


def lobby_edit(call) -> bool:
    return call.method == "PATCH" and call.path.startswith("/channels/")


async def test_a_lobby_closed_idle_just_before_a_kill_says_why_after_the_restart(tmp_path: Path) -> None:
    db = tmp_path / "bot.db"
    h = await start_harness(db)
    lobby = (await h.slash(h.user(ALICE, "alice"), "play akuma", bots=1)).message
    table = next(t for t in h.bot.service._tables.values() if t.row.lobby_message_id == lobby.id)
    died = h.server.faults.die_at(lobby_edit)  # the process dies as it edits the lobby to say it closed
    with h._owning():  # what the close starts belongs to the bot, and dies with it
        await h.bot.service.close_idle_lobby(table.id, table.version)
    await asyncio.wait_for(died.wait(), 10)
    assert h.message(lobby.id).components  # not edited yet: its buttons are still there
    await kill(h)
    h2 = await start_harness(db, discord_has=kept_by_discord(h))
    try:
        await h2.settle()
        closed = h2.message(lobby.id)
        assert says(closed.text, "table.lobby_idle", id=table.id), closed.text
        assert not says(closed.text, "table.cancelled", id=table.id) and closed.components == []
        assert (await h2.bot.storage.get_game(table.id)).end_tidied
    finally:
        await h2.close()


async def test_the_end_reason_is_stored_with_the_end(db_url: str) -> None:
    storage = await Storage.open(db_url)
    try:
        service = GameService(storage)
        idle = await service.create_lobby(game="akuma", guild_id=1, channel_id=5, user_id=ALICE, name="alice", seed=1)
        left = await service.create_lobby(game="akuma", guild_id=1, channel_id=6, user_id=BOB, name="bob", seed=2)
        await service.close_idle_lobby(idle.id, idle.version)
        await service.leave_lobby(left.id, BOB)
    finally:
        await storage.close()
    storage = await Storage.open(db_url)  # a restart: what the database says, not what memory kept
    try:
        assert (await storage.get_game(idle.id)).end_reason == EndReason.LOBBY_IDLE.value
        assert (await storage.get_game(left.id)).end_reason is None  # its last person left: no stated reason
    finally:
        await storage.close()


def channel_text(h) -> str:
    return "\n".join(m.text for m in h.channel_messages())


@pytest.mark.parametrize("processed", [False, True], ids=["before-discord", "after-discord"])
async def test_lines_the_board_had_not_shown_at_a_kill_are_rebuilt_from_the_log(tmp_path: Path,
                                                                               processed: bool) -> None:
    """Alice moves; the process dies as its writer sends the board with her move's lines: before Discord sees it,
    or once Discord has it (the answer lost). After the restart the channel shows those lines once, rebuilt by
    the engine from the action log where Discord did not have them: not only whose turn it is, never twice."""
    db = tmp_path / "bot.db"
    h = await start_harness(db)
    table = await open_table(h, h.user(ALICE, "alice"))
    rng = random.Random(5)
    while PLAYER not in table.to_act():
        await asyncio.sleep(0.01)
    await h.settle()
    died = h.server.faults.die_at(lambda call: call.method in ("POST", "PATCH") and call.path.startswith("/channels/"),
                                  after=processed)
    with h._owning():
        await h.bot.service.act_as(table.id, PLAYER, choose_action(table.engine, table.state, PLAYER, rng),
                                   table.version)
    await asyncio.wait_for(died.wait(), 10)
    box = h.bot.get_cog("TableCog").outboxes[table.id]
    waiting = folded(box.board.lines)  # what the board was about to show
    assert waiting, "her move has public lines"
    before = channel_text(h)
    await kill(h)
    h2 = await start_harness(db, discord_has=kept_by_discord(h))
    try:
        h2.user(ALICE, "alice")
        await h2.settle()
        after = channel_text(h2)
        shown = {text: (before.count(text), after.count(text)) for text in waiting}
        assert all(now == then + (not processed) for then, now in shown.values()), (shown, after[-600:])
    finally:
        await h2.close()
