"""Bounded memory (issue 41): a lobby closed before any deal (Leave by everyone, ``/game end`` by its host, the
idle close) takes its table writer out of memory once its end is written; the map of shared reviews is bounded
and forgets one a moderator deleted, so the table can be shared again."""
from __future__ import annotations

import gc

from cogs import review_shared
from cogs.outbox import TableOutbox

from .discord_harness import Harness
from .discord_helpers import LEAVE, Key, says
from .test_discord_review import ALICE, played_table

PERSON = 300


def live_writers() -> int:
    gc.collect()
    return sum(isinstance(o, TableOutbox) for o in gc.get_objects())


async def test_lobbies_closed_before_a_deal_leave_no_writer_behind(h: Harness) -> None:
    tables = h.bot.get_cog("TableCog")
    baseline, writers = len(tables.outboxes), live_writers()
    closed = []
    for number in range(6):
        user = h.user(PERSON + number, f"p{number}")
        lobby = (await h.slash(user, "play akuma")).message
        table = next(t for t in h.bot.service._tables.values() if t.row.lobby_message_id == lobby.id)
        if number % 3 == 0:
            await h.click(user, lobby, label=LEAVE)
        elif number % 3 == 1:
            await h.slash(user, "game end", table=table.id)
        else:
            await h.bot.service.close_idle_lobby(table.id, table.version)
        await h.settle()
        closed.append((table, lobby))
    for table, lobby in closed:  # each was told as before: its lobby says it was closed, without buttons
        assert table.status == "cancelled" and h.message(lobby.id).components == []
        assert (await h.bot.storage.get_game(table.id)).end_tidied
    assert len(tables.outboxes) == baseline and live_writers() == writers


async def test_a_deleted_shared_review_can_be_shared_again(h: Harness) -> None:
    table = await played_table(h, "akuma", seed=7)
    alice = h.user(ALICE, "alice")
    mine = (await h.slash(alice, "game review", table=table.id)).messages[-1]
    await h.click(alice, mine, label=Key("review.share"))
    first = h.channel_messages(table.row.channel_id)[-1]
    assert says(first.text, "review.shared_by")
    again = await h.click(alice, mine, label=Key("review.share"))
    assert says(again.text, "error.review_share_open")  # it stands: one public review per table
    h.server.deleted.add(first.id)  # a moderator deleted it
    r = await h.click(alice, mine, label=Key("review.share"))
    assert says(r.messages[-1].text, "review.shared")
    second = h.channel_messages(table.row.channel_id)[-1]
    assert second.id != first.id and says(second.text, "review.shared_by") and not second.deleted


def test_the_shared_reviews_kept_are_bounded() -> None:
    shared = review_shared.SharedReviews(kept=3)
    for table_id in range(1, 8):
        shared.add(table_id, channel_id=10, message_id=100 + table_id, link=f"link{table_id}")
    assert shared.tables() == [5, 6, 7]  # the oldest shares give way
