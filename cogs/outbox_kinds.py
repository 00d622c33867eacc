"""The table writer's kinds of channel message (:data:`OUTPUTS`): for each, what to write, in which channel, and
what is dropped when Discord refuses the message itself. The writer (:class:`cogs.outbox.TableOutbox`) goes through
them in this order; everything about retrying and reaching the channel stays there."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Awaitable, Callable

import discord

from bot.i18n import t
from bot.table import Table

from .common import NO_MENTIONS
from .lobby import lobby_embed, lobby_view
from .outbox_lines import Output, end_line
from .refusals import UNKNOWN_MESSAGE
from .table_result import result_message
from .table_thread import post_result

if TYPE_CHECKING:
    from .outbox import TableOutbox


@dataclass(frozen=True)
class OutputKind:
    write: Callable[["TableOutbox", Table], Awaitable[bool]]  # True: something was written
    in_lobby_channel: bool  # written to the lobby's channel rather than where the table plays
    give_up: Callable[["TableOutbox"], None]  # Discord refused the message itself: what is dropped


def nothing(_: "TableOutbox") -> None:
    return None


def stable_nonce(game_id: int, what: str) -> str:
    """The same nonce on every try, before and after a restart: Discord answers a repeat with the message it has."""
    digest = hashlib.sha256(f"gamehost:{game_id}:{what}".encode()).digest()
    return str(int.from_bytes(digest[:8], "big") >> 1)


async def write_lobby(outbox: "TableOutbox", table: Table) -> bool:
    if not table.row.lobby_message_id:
        return False
    locale = table.row.locale
    if table.status == "lobby":
        kwargs: dict[str, Any] = {"embed": lobby_embed(table, locale), "view": lobby_view(table, locale)}
    else:  # started (who plays, no buttons), over, or ended before it finished
        key = {"running": "lobby.started", "finished": "lobby.over"}.get(table.status)
        content = t(key, locale, id=table.id) if key else end_line(table, outbox.end_reason)
        if table.status == "running" and table.row.lobby_channel_id:  # it plays in its thread
            content = t("lobby.playing_in_thread", locale, thread=f"<#{table.row.channel_id}>")
        kwargs = {"content": content, "embed": lobby_embed(table, locale), "view": None}
    try:
        await outbox.channel(table, lobby=True).get_partial_message(table.row.lobby_message_id).edit(**kwargs)
    except discord.NotFound as error:
        if error.code != UNKNOWN_MESSAGE:
            raise
        if table.status != "lobby":
            return False  # a deleted lobby of a table that started is not brought back
        message = await outbox.channel(table, lobby=True).send(**kwargs, allowed_mentions=NO_MENTIONS)
        await outbox.bot.service.set_message(table, lobby_message_id=message.id)
    return True


async def write_board(outbox: "TableOutbox", table: Table) -> bool:
    return await outbox.board.write(table, outbox.channel(table))


async def write_result(outbox: "TableOutbox", table: Table) -> bool:
    """The finished table's result (``table_result.result_message``), once, below its final board; a tournament
    table's has no Rematch (the tournament seats its next round)."""
    if table.row.result_shown or table.status != "finished":
        return False
    if Output.BOARD in outbox.due or outbox.board.pending():  # the final board's lines come first
        outbox.due.add(Output.RESULT)
        return False
    rematch = await outbox.bot.storage.tournaments.tournament_of_game(table.id) is None
    kwargs = result_message(table, table.row.locale, rematch=rematch)
    await outbox.channel(table).send(**kwargs, nonce=stable_nonce(table.id, "result"))
    await outbox.bot.service.note_output(table, result_shown=True)
    return True


async def retire(outbox: "TableOutbox", table: Table) -> bool:
    return await outbox.board.retire_old_boards(outbox.channel(table))


async def write_told(outbox: "TableOutbox", table: Table) -> bool:
    if table.row.told_shown or table.status in ("lobby", "running"):
        return False
    wrote = await post_result(outbox.bot, table, stable_nonce(table.id, "told"))
    await outbox.bot.service.note_output(table, told_shown=True)
    return wrote


async def archive(outbox: "TableOutbox", table: Table) -> bool:
    """An ended table's thread is archived once everything else is written; a table in a channel (or a lobby closed
    before any deal, wherever it was opened) only marks itself tidy."""
    if table.row.end_tidied or table.status in ("lobby", "running"):
        return False
    if outbox.due & {Output.LOBBY, Output.BOARD, Output.RESULT, Output.TOLD} or outbox.board.old_boards:
        outbox.due.add(Output.ARCHIVE)  # (a refusal of those would loop here without a pause: it raises first)
        return False
    if table.state is not None and (table.row.lobby_channel_id or in_own_thread(outbox, table)):  # it played
        await outbox.bot.http.edit_channel(table.row.channel_id, archived=True)
    await outbox.bot.service.note_output(table, end_tidied=True)
    return True


def in_own_thread(outbox: "TableOutbox", table: Table) -> bool:
    """A thread the bot opened for the table without a lobby (a tournament's table); not a thread where
    someone started a game."""
    channel = outbox.bot.get_channel(table.row.channel_id)
    me = outbox.bot.user
    return isinstance(channel, discord.Thread) and me is not None and channel.owner_id == me.id


def give_up_board(outbox: "TableOutbox") -> None:
    outbox.board.give_up()
    if outbox.board.lines:
        outbox.due.add(Output.BOARD)


def give_up_retire(outbox: "TableOutbox") -> None:
    if outbox.board.old_boards:
        outbox.board.old_boards.pop(0)


OUTPUTS: dict[Output, OutputKind] = {  # in the order they are written
    Output.LOBBY: OutputKind(write_lobby, True, nothing),
    Output.BOARD: OutputKind(write_board, False, give_up_board),
    Output.RESULT: OutputKind(write_result, False, nothing),
    Output.RETIRE: OutputKind(retire, False, give_up_retire),
    Output.TOLD: OutputKind(write_told, True, nothing),
    Output.ARCHIVE: OutputKind(archive, False, nothing),
}
assert list(OUTPUTS) == list(Output), "every kind of output has one row, in the order of Output"
