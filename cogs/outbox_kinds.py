"""The table writer's kinds of channel message (:data:`OUTPUTS`): for each, what to write, how it is written at
each kind of place a table plays in (``bot.place``), and what is dropped when Discord refuses the message itself.
The writer (:class:`cogs.outbox.TableOutbox`) goes through them in this order; everything about retrying and
reaching the channel stays there."""
from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from typing import TYPE_CHECKING, Awaitable, Callable, Mapping

import discord

from bot.delivery import stable_nonce
from bot.i18n import t
from bot.outgoing import Outgoing
from bot.place import PlaceKind
from bot.refusals import UNKNOWN_MESSAGE
from bot.storage import GameStatus
from bot.table import Table

from .lobby import lobby_embed, lobby_view
from .outbox_lines import Output, end_line
from .outbox_token import NotThisToken
from .outlet import ChannelOutlet, Outlet
from .table_result import result_message
from .table_thread import post_result

if TYPE_CHECKING:
    from .outbox import TableOutbox


class Writing(Enum):
    """How one kind of message is written at one kind of place."""

    PLAYS = "plays"  # in the channel or thread where the table plays
    LOBBY = "lobby"  # in the channel of its lobby
    TOKEN = "token"  # through a person's interaction token (the bot cannot write to the channel there)
    NOT = "not"  # nothing is written there; the kind only records itself as done (``OutputKind.skip``)


@dataclass(frozen=True)
class OutputKind:
    write: Callable[["TableOutbox", Table], Awaitable[bool]]  # True: something was written
    where: Mapping[PlaceKind, Writing]  # how it is written at each kind of place
    give_up: Callable[["TableOutbox"], None]  # Discord refused the message itself: what is dropped
    skip: Callable[["TableOutbox", Table], Awaitable[None]]  # not written at this place: what it records instead


def in_lobby_channel(table: Table, output: Output) -> bool:
    """The kind of message is written in the lobby's channel at this table's place (not where it plays)."""
    return OUTPUTS[output].where[table.place.kind] is Writing.LOBBY


def outlet(outbox: "TableOutbox", table: Table, output: Output) -> Outlet:
    """Where a kind of message is written at this table's place (``OUTPUTS``): where it plays, where its lobby is,
    or through people's presses."""
    place = table.place
    writing = OUTPUTS[output].where[place.kind]
    if writing is Writing.TOKEN:
        return outbox.tokens
    if writing not in (Writing.PLAYS, Writing.LOBBY):
        raise ValueError(f"table {table.id}: no channel writes of the {output.value} at a {place.kind.value}")
    return ChannelOutlet(outbox.bot, place.channel_for(lobby=writing is Writing.LOBBY), place.guild_id)


def nothing(_: "TableOutbox") -> None:
    return None


async def record_nothing(_: "TableOutbox", __: Table) -> None:
    return None


async def write_lobby(outbox: "TableOutbox", table: Table) -> bool:
    if not table.row.lobby_message_id:
        return False
    locale = table.row.locale
    if table.status is GameStatus.LOBBY:
        message = Outgoing(embed=lobby_embed(table, locale), view=lobby_view(table, locale))
    else:  # started (who plays, no buttons), over, or ended before it finished
        key = {GameStatus.RUNNING: "lobby.started", GameStatus.FINISHED: "lobby.over"}.get(table.status)
        content = t(key, locale, id=table.id) if key else end_line(table, outbox.end_reason)
        if table.status is GameStatus.RUNNING and table.place.in_thread:
            content = t("lobby.playing_in_thread", locale, thread=f"<#{table.place.channel_id}>")
        message = Outgoing(content=content, embed=lobby_embed(table, locale), view=None)
    where = outlet(outbox, table, Output.LOBBY)
    try:
        await where.edit(table.row.lobby_message_id, message)
    except NotThisToken:  # a group DM's lobby, edited only by a press on it: it keeps what it shows
        return False
    except discord.NotFound as error:
        if error.code != UNKNOWN_MESSAGE:
            raise
        if table.status is not GameStatus.LOBBY:
            return False  # a deleted lobby of a table that started is not brought back
        await outbox.bot.service.set_message(table, lobby_message_id=await where.send(message))
    return True


async def write_board(outbox: "TableOutbox", table: Table) -> bool:
    return await outbox.board.write(table, outlet(outbox, table, Output.BOARD))


async def write_result(outbox: "TableOutbox", table: Table) -> bool:
    """The finished table's result (``table_result.result_message``), once, below its final board; a tournament
    table's has no Rematch (the tournament seats its next round)."""
    if table.row.result_shown or table.status is not GameStatus.FINISHED:
        return False
    if Output.BOARD in outbox.due or outbox.board.pending():  # the final board's lines come first
        outbox.due.add(Output.RESULT)
        return False
    rematch = await outbox.bot.storage.tournaments.tournament_of_game(table.id) is None
    result = result_message(table, table.row.locale, rematch=rematch, share=outbox.bot.settings.web_on())
    await outlet(outbox, table, Output.RESULT).send(replace(result, nonce=stable_nonce(table.id, "result")),
                                                    kept=True)
    await outbox.bot.service.note_output(table, result_shown=True)
    return True


async def retire(outbox: "TableOutbox", table: Table) -> bool:
    return await outbox.board.retire_old_boards(outlet(outbox, table, Output.RETIRE))


async def write_told(outbox: "TableOutbox", table: Table) -> bool:
    if table.row.told_shown or table.status in (GameStatus.LOBBY, GameStatus.RUNNING):
        return False
    wrote = await post_result(outbox.bot, table, stable_nonce(table.id, "told"))
    await outbox.bot.service.note_output(table, told_shown=True)
    return wrote


async def told_nowhere(outbox: "TableOutbox", table: Table) -> None:
    """A table that played where its lobby is has no end to tell elsewhere: recorded as told."""
    if not table.row.told_shown and table.status not in (GameStatus.LOBBY, GameStatus.RUNNING):
        await outbox.bot.service.note_output(table, told_shown=True)


async def archive(outbox: "TableOutbox", table: Table) -> bool:
    """An ended table's thread is archived once everything else is written; a table in a channel (or a lobby closed
    before any deal, wherever it was opened) only marks itself tidy."""
    if table.row.end_tidied or table.status in (GameStatus.LOBBY, GameStatus.RUNNING):
        return False
    if outbox.due & {Output.LOBBY, Output.BOARD, Output.RESULT, Output.TOLD} or outbox.board.old_boards:
        outbox.due.add(Output.ARCHIVE)  # (a refusal of those would loop here without a pause: it raises first)
        return False
    if table.state is not None and (table.place.in_thread or in_own_thread(outbox, table)):
        await outbox.bot.http.edit_channel(table.place.channel_id, archived=True)
    await outbox.bot.service.note_output(table, end_tidied=True)
    return True


def in_own_thread(outbox: "TableOutbox", table: Table) -> bool:
    """A thread the bot opened for the table without a lobby (a tournament's table); not a thread where
    someone started a game."""
    channel = outbox.bot.get_channel(table.place.channel_id)
    me = outbox.bot.user
    return isinstance(channel, discord.Thread) and me is not None and channel.owner_id == me.id


async def tidied_nowhere(outbox: "TableOutbox", table: Table) -> None:
    """A DM or group DM table has no thread to archive: once everything else is shown, it is only marked tidy."""
    if table.row.end_tidied or table.status in (GameStatus.LOBBY, GameStatus.RUNNING):
        return
    if outbox.due & {Output.LOBBY, Output.BOARD, Output.RESULT, Output.TOLD}:
        outbox.due.add(Output.ARCHIVE)
        return
    await outbox.bot.service.note_output(table, end_tidied=True)


def give_up_board(outbox: "TableOutbox") -> None:
    outbox.board.give_up()
    if outbox.board.lines:
        outbox.due.add(Output.BOARD)


def give_up_retire(outbox: "TableOutbox") -> None:
    if outbox.board.old_boards:
        outbox.board.old_boards.pop(0)


def places(channel: Writing, thread: Writing, private: Writing) -> Mapping[PlaceKind, Writing]:
    return {PlaceKind.CHANNEL: channel, PlaceKind.THREAD: thread, PlaceKind.PRIVATE: private}


PLAYS, LOBBY, TOKEN, NOT = Writing.PLAYS, Writing.LOBBY, Writing.TOKEN, Writing.NOT
OUTPUTS: dict[Output, OutputKind] = {  # in the order they are written; per place: channel, thread, DM / group DM
    Output.LOBBY: OutputKind(write_lobby, places(LOBBY, LOBBY, TOKEN), nothing, record_nothing),
    Output.BOARD: OutputKind(write_board, places(PLAYS, PLAYS, TOKEN), give_up_board, record_nothing),
    Output.RESULT: OutputKind(write_result, places(PLAYS, PLAYS, TOKEN), nothing, record_nothing),
    Output.RETIRE: OutputKind(retire, places(PLAYS, PLAYS, TOKEN), give_up_retire, record_nothing),
    Output.TOLD: OutputKind(write_told, places(NOT, LOBBY, NOT), nothing, told_nowhere),
    Output.ARCHIVE: OutputKind(archive, places(PLAYS, PLAYS, NOT), nothing, tidied_nowhere),
}
assert list(OUTPUTS) == list(Output), "every kind of output has one row, in the order of Output"
assert all(set(kind.where) == set(PlaceKind) for kind in OUTPUTS.values()), "every kind says how, at every place"
