"""What a table's writer shows for an update: the event lines it adds to the board (public events, timeouts, seat
changes, pauses and early ends), and which kinds of message it makes due."""
from __future__ import annotations

from enum import Enum
from typing import assert_never

from bot import render
from bot.i18n import t
from bot.storage import GameStatus
from bot.table import EndReason, Table, Update, UpdateKind
from engines import Event

from .common import names_for
from .outbox_fold import Line, plain_lines


class Output(Enum):
    """The kinds of message a table's writer keeps up to date, in the order it writes them."""

    LOBBY = "lobby"  # the lobby message: seats while open, then who plays, then the end
    BOARD = "board"  # the board message with the event lines and whose turn it is
    RESULT = "result"  # the finished table's result with Rematch, once, below its final board
    RETIRE = "retire"  # replaced boards reduced to their lines
    TOLD = "told"  # the end told in the lobby's channel (a table that played in its thread), once
    ARCHIVE = "archive"  # the finished table's thread archived, after a grace period


def due_after(update: Update) -> set[Output]:
    """What an update makes due. Every kind is matched: a new kind fails here, not silently."""
    ended = update.table.status is GameStatus.FINISHED
    match update.kind:
        case UpdateKind.LOBBY:
            return {Output.LOBBY}
        case UpdateKind.STARTED:
            return {Output.LOBBY, Output.BOARD}
        case (UpdateKind.ACTION | UpdateKind.TIMEOUT | UpdateKind.SEATS | UpdateKind.PAUSED | UpdateKind.RESUMED
              | UpdateKind.WARNING):
            return {Output.BOARD}
        case UpdateKind.ENDED:  # its thread is archived later (``TableOutbox.archive_later``)
            return {Output.LOBBY, Output.BOARD, Output.TOLD} | ({Output.RESULT} if ended else set())
        case UpdateKind.CLOCK:  # resumed: the board shows the new deadline (paused: the channel cannot be written)
            return {Output.BOARD} if update.table.row.deadline is not None else set()
    assert_never(update.kind)  # mypy checks that every kind is matched


def event_lines(update: Update) -> list[Line]:
    """The update's public event lines (each a bot's step where a bot seat's move or turn is told: a bot's steps
    fold into one line, ``outbox_fold``), with the game's legend once, on the table's first board."""
    table, locale = update.table, update.table.row.locale
    names = names_for(table, locale)
    lines = [Line(text, bot_of(table, ev)) for ev in update.events if ev.visible_to is None
             and (text := render.event_line(table.row.game, ev, names, locale))]
    if update.kind is UpdateKind.STARTED and update.public_view is not None:
        legend = render.board(table.row.game, update.public_view, names, locale).legend
        lines = ([Line(legend)] if legend else []) + lines
    seat = table.seat_of(update.actor) if update.actor else None
    if update.kind is UpdateKind.TIMEOUT and seat is not None:
        lines.insert(0, Line(t("table.timed_out", locale, player=names(update.actor))))
        if seat.away:
            lines.append(Line(t("table.seat_away", locale, player=names(update.actor))))
    if update.kind is UpdateKind.SEATS and seat is not None:
        lines.append(Line(t("table.seat_to_bot" if seat.is_bot else "table.seat_back", locale,
                            player=names(update.actor))))
    return lines + plain_lines(pause_lines(update))


def bot_of(table: Table, event: Event) -> str | None:
    """The bot seat whose step an event tells (its ``player``), if a bot holds that seat."""
    player = event.data.get("player")
    return player if isinstance(player, str) and table.is_bot(player) else None


def pause_lines(update: Update) -> list[str]:
    """The table paused, resumed, or was closed early (and why)."""
    table, locale = update.table, update.table.row.locale
    if update.kind is UpdateKind.PAUSED:
        return [t("table.paused", locale, id=table.id)]
    if update.kind is UpdateKind.RESUMED and update.actor:
        return [t("table.resumed", locale, player=names_for(table, locale)(update.actor))]
    if update.kind is not UpdateKind.ENDED or table.status is not GameStatus.CANCELLED:
        return []
    return [end_line(table, update.reason)]


def end_line(table: Table, reason: EndReason | None) -> str:
    """Why a table was ended before its game did (its lobby message says the same)."""
    locale = table.row.locale
    if reason is EndReason.IDLE:  # Discord shows the time in each reader's own time zone
        return t("table.paused_closed", locale, id=table.id, since=f"<t:{int(table.row.paused_at or 0)}:f>")
    keys = {EndReason.ABANDONED: "table.abandoned", EndReason.PAUSED_ENDED: "table.paused_ended",
            EndReason.CHANNEL_GONE: "table.channel_gone", EndReason.LOBBY_IDLE: "table.lobby_idle"}
    return t(keys.get(reason, "table.cancelled") if reason else "table.cancelled", locale, id=table.id)
