"""A table's writer when its channel changes under it: the thread it plays in or its channel deleted, and the
thread it moves to at its start (``table_thread``)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from bot.i18n import t
from bot.table import ACTIVE, Table

from .outbox_fold import Line
from .outbox_lines import Output
from .table_thread import open_thread

if TYPE_CHECKING:
    from .outbox import TableOutbox


async def channel_gone(box: "TableOutbox", channel_id: int) -> None:
    """Discord says a channel or thread was deleted (an event, not a refused write)."""
    table = await box.bot.service.table(box.game_id)
    if table.status not in ACTIVE and not box.pending():
        return
    place = table.place
    if channel_id == place.channel_id:
        await lose_channel(box, table, lobby_channel=False)
    elif channel_id == place.lobby_channel_id:
        await lose_channel(box, table, lobby_channel=True)
    box.start_writing()


async def lose_channel(box: "TableOutbox", table: Table, *, lobby_channel: bool) -> None:
    """The table's thread was deleted: it moves back to its lobby's channel with a line saying so. Its channel was
    deleted (the lobby's channel takes its threads with it): it ends, its host is told once, and nothing more is
    written for it."""
    if box.gone:
        return
    if table.place.in_thread and not lobby_channel:
        await box.bot.service.leave_thread(table)
        box.board.add_lines([Line(t("table.thread_deleted", table.row.locale, id=table.id))])
        box.board.told.clear()  # the board they decide on is posted afresh, with its ping
        box.board.pinged.clear()
        box.due |= {Output.BOARD, Output.LOBBY}
        return
    box.gone = True
    box.due.clear()
    box.board.old_boards.clear()
    await box.reach.tell_host_gone(table)
    await box.bot.service.end_gone(table.id)
    await box.bot.service.note_output(table, result_shown=True, told_shown=True, end_tidied=True)


async def move_to_thread(box: "TableOutbox", table: Table) -> None:
    """At its start, before anything is written: the table moves to its thread, or says why it stays."""
    thread_id, why = await open_thread(box.bot, table)
    await box.bot.service.settle_thread(table, thread_id)
    if why:
        box.board.lines.insert(0, Line(why))
        box.due.add(Output.BOARD)
