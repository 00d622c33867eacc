"""Where a table plays, stored on both backends (migration SQLite 0010 / PostgreSQL 0006): a lobby that is to move
to its thread, the move recorded with the lobby's channel kept, both channels finding the table, the server
setting, and a restarted service reading it all back."""
from __future__ import annotations

from bot.service import GameService
from bot.storage import Storage

ALICE, CHANNEL, THREAD = 101, 1_234_567_890_123_456_789, 1_234_567_890_123_456_999  # 64-bit snowflakes


async def test_a_table_moves_to_its_thread_and_both_channels_find_it(service: GameService, db_url: str) -> None:
    table = await service.create_lobby(game="akuma", guild_id=1, channel_id=CHANNEL, user_id=ALICE, name="Alice",
                                       open_thread=True)
    for _ in range(2):
        await service.add_bot(table.id, ALICE)
    await service.start(table.id, ALICE)
    assert table.row.open_thread and table.row.lobby_channel_id is None
    await service.settle_thread(table, THREAD)
    assert (table.row.channel_id, table.row.lobby_channel_id, table.row.open_thread) == (THREAD, CHANNEL, False)
    assert [t.id for t in await service.tables_in_channel(CHANNEL)] == [table.id]
    assert [t.id for t in await service.tables_in_channel(THREAD)] == [table.id]
    other = await service.create_lobby(game="akuma", guild_id=1, channel_id=CHANNEL, user_id=ALICE + 1, name="Bob")
    await service.settle_thread(other, None)  # gave up on a thread: it stays where it is
    assert (other.row.channel_id, other.row.lobby_channel_id, other.row.open_thread) == (CHANNEL, None, False)
    fresh = GameService(await Storage.open(db_url))  # a restarted bot reads where the table plays
    try:
        again = await fresh.table(table.id)
        assert (again.row.channel_id, again.row.lobby_channel_id, again.row.open_thread) == (THREAD, CHANNEL, False)
    finally:
        await fresh.storage.close()


async def test_the_server_setting_is_kept_beside_the_language(service: GameService) -> None:
    storage = service.storage
    assert await storage.guild_tables(7) is None  # never chosen: threads
    await storage.set_guild_language(7, "ja")
    await storage.set_guild_tables(7, "channel")
    assert (await storage.guild_tables(7), await storage.guild_language(7)) == ("channel", "ja")
    await storage.set_guild_tables(7, "thread")
    await storage.set_guild_language(7, None)
    assert (await storage.guild_tables(7), await storage.guild_language(7)) == ("thread", None)
