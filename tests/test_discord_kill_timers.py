"""A killed bot does nothing afterwards (issue 41): the harness's ``abandon`` cancels the timers its bot armed, so
an ended table's archive timer, armed before the kill, never starts a writer of the dead process."""
from __future__ import annotations

import asyncio
from pathlib import Path

from cogs.outbox import TableOutbox

from .discord_helpers import kill, start_harness
from .test_discord_akuma import ALICE_ID
from .test_discord_output_reach import open_in_thread


async def test_a_killed_bots_archive_timer_never_runs(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(TableOutbox, "archive_grace", 0.3)
    h = await start_harness(tmp_path / "bot.db", tables=None)
    alice = h.user(ALICE_ID, "alice")
    table = await open_in_thread(h, alice)
    await h.slash(alice, "game end", table=table.id)
    await h.settle()
    box = h.bot.get_cog("TableCog").outbox(table.id)
    assert box._archive_timer is not None and not box._archive_timer.cancelled()  # armed, 0.3 s to go
    calls = len(h.calls)
    await kill(h)
    await asyncio.sleep(0.6)
    assert box._task is None or box._task.done()  # no writer was started after the kill
    assert [c for c in h.calls[calls:] if c.method == "PATCH"] == []  # the thread was not archived by a dead bot
