"""Bounded memory (issue 32): tables that end, and ids that do not exist, leave nothing behind.

The soak (``bench/memory_soak.py``) opens, plays and closes tables in batches and looks up unknown ids and other
channels' finished tables, on both backends; once warm, a batch must not add live objects. ``GAMEHOST_SOAK=1``
runs thousands of tables (a few minutes); the default and CI (``GAMEHOST_FULL=1``) runs take seconds. Through the
harness, the table cog's writers and the service's tables go back down once the tables have ended."""
from __future__ import annotations

import asyncio

import pytest

from bench.memory_soak import Batch, measure
from bot.errors import HostError
from bot.service import GameService
from bot.table import Table, Update, UpdateKind
from cogs.outbox import TableOutbox

from .discord_harness import Harness
from .discord_helpers import START, lift_limits
from .suite_level import LEVEL, Level

SOAK = LEVEL is Level.SOAK
KEPT = 16  # idle tables the service keeps loaded in these tests (the bot keeps 256)
GROWTH_BOUND = 500  # live objects a warm process may gain over the measured batches (a leaked table is ~30)


def table_of(figures: list[Batch]) -> str:
    return "\n".join(f"{b.tables} tables, {b.lookups} unknown ids: {b.objects} objects, {b.rss / 2**20:.1f} MB, "
                     f"{b.loaded} loaded, {b.loading} loading locks, {b.tasks} tasks" for b in figures)


async def cancelled_lobby(service: GameService, number: int) -> Table:
    table = await service.create_lobby(game="akuma", guild_id=1, channel_id=number, user_id=number, name="p")
    await service.leave_lobby(table.id, number)
    return table


async def test_idle_tables_leave_the_cache_but_a_held_table_stays_the_one_object(service: GameService) -> None:
    """Past the quota, the least recently used idle tables leave memory; one still held elsewhere (a writer, a
    listener) is handed back as the same object, and a table whose lock is held or that is still being
    published stays loaded."""
    service.idle_tables_kept = 2
    held = await cancelled_lobby(service, 1)
    locked = await cancelled_lobby(service, 2)
    async with locked.lock:
        others = [(await cancelled_lobby(service, n)).id for n in range(3, 9)]
        running = await service.create_lobby(game="akuma", guild_id=1, channel_id=50, user_id=50, name="p")
        for game_id in others:  # other channels' ended tables, looked at again
            await service.table(game_id)
        assert locked.id in service._tables and running.id in service._tables
    assert held.id not in service._tables and len(service._tables) <= 2 + 2  # the locked one, the lobby
    assert await service.table(held.id) is held  # never a second Table object for a game in use
    await service.drain()
    delivered = asyncio.Event()

    async def slow_listener(update: Update) -> None:
        if update.kind is UpdateKind.ENDED:
            await delivered.wait()

    service.subscribe(slow_listener)
    publishing = await cancelled_lobby(service, 9)  # its "ended" update is still being delivered
    for game_id in others:
        await service.table(game_id)
    assert publishing.id in service._publishing and publishing.id in service._tables
    delivered.set()
    await service.drain()


async def test_unknown_ids_leave_no_loading_lock_even_when_asked_at_once(service: GameService) -> None:
    table = await cancelled_lobby(service, 1)
    service.forget(table.id)
    missing = table.id + 1000
    answers = await asyncio.gather(*(service.table(i) for i in [missing] * 10 + [table.id] * 10),
                                   return_exceptions=True)
    assert all(isinstance(a, HostError) and a.code == "no_such_game" for a in answers[:10])
    found = answers[10:]
    assert all(a is found[0] for a in found) and isinstance(found[0], Table)  # one object for the game
    assert service._loading == {}
    with pytest.raises(HostError):
        await service.table(2 ** 63)
    assert service._loading == {}


async def test_live_objects_stay_flat_over_table_lifecycles_and_unknown_ids(db_url: str) -> None:
    sizes = {"batches": 5, "tables": 900, "lookups": 3000} if SOAK else {"batches": 4, "tables": 60, "lookups": 500}
    figures = await measure(db_url, idle_tables_kept=KEPT, **sizes)
    print(table_of(figures))
    warm, last = figures[1], figures[-1]  # the first batch warms up imports, statements and pools
    assert last.objects - warm.objects < GROWTH_BOUND, table_of(figures)
    assert last.loaded <= KEPT, table_of(figures)  # every table ended: only the idle ones kept
    assert last.loading == 0 and last.tasks == 0, table_of(figures)


def test_the_soak_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m bench.memory_soak`` (tiny here): a line per batch, and the growth from the first to the last."""
    from bench import memory_soak

    memory_soak.run(["sqlite"], batches=2, tables=6, lookups=10)
    out = capsys.readouterr().out
    assert "## Memory soak on sqlite" in out and "last minus first" in out
    batches = [[cell.strip() for cell in line.split("|")[1:3]] for line in out.splitlines()
               if line.startswith("| ") and line.split("|")[1].strip().isdigit()]
    assert batches == [["6", "10"], ["12", "20"]], out  # tables closed and unknown ids looked up so far


async def test_writers_and_tables_go_back_down_once_tables_end(h: Harness, monkeypatch) -> None:
    """Tables opened, started and ended through Discord, and ``/game status`` with numbers that do not exist: the
    writers of ended tables leave ``TableCog.outboxes`` once they have shown everything (the tidy end included,
    here without its grace period), the service keeps only its quota of idle tables, and no loading lock, bot task
    or timer stays behind."""
    monkeypatch.setattr(TableOutbox, "archive_grace", 0.0)
    await lift_limits(h)  # one member opens six tables in a row
    service = h.bot.service  # type: ignore[attr-defined]
    service.idle_tables_kept = 2
    cog = h.bot.get_cog("TableCog")
    alice = h.user(101, "alice")
    ended = []
    for _ in range(6):
        lobby = (await h.slash(alice, "play akuma", bots=2)).message
        await h.click(alice, lobby, label=START)
        table = next(t for t in service._tables.values() if t.status == "running")
        r = await h.slash(alice, "game end", table=table.id)
        assert f"Table #{table.id} is ended" in r.text, r.text
        ended.append(table.id)
        await h.settle()
    for number in range(ended[-1] + 1, ended[-1] + 41):
        r = await h.slash(alice, "game status", table=number)
        assert r.ephemeral and f"There is no table #{number}" in r.text, r.text
    await h.settle()
    assert [(await service.table(i)).status for i in ended] == ["cancelled"] * 6
    await h.settle()
    assert cog.outboxes == {}, sorted(cog.outboxes)  # type: ignore[union-attr]
    assert len(service._tables) <= 2 and service._loading == {}, (list(service._tables), service._loading)
    assert h.bot.scheduler._tasks == {} and h.bot.timers._tasks == {}  # type: ignore[attr-defined]
