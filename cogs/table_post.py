"""What a running table's board message says: the event lines since it was posted, then whose turn it is (and
the time warning), above the board itself; and the controls it carries.

The board is re-posted at the bottom of the channel whenever a person's turn begins, so the board a person
decides on is the last message; the board it replaces keeps its lines as a plain log (picture and controls
removed). Within a turn, and for the bots' moves, the current board is edited instead.
"""
from __future__ import annotations

from typing import Sequence

import discord

from bot.i18n import join_list, t
from bot.table import Table, human_player

from .board import board_view
from .common import deadline_mark, names_for
from .controls import BackButton
from .paused import paused_view


def named(table: Table, people: Sequence[int], mentioned: Sequence[int] = ()) -> str:
    """People as @mentions where they are pinged, else by the name the board uses (bold), listed with the
    language's separator (``**alice**, **bob**``; ``**alice**、**bob**``)."""
    locale = table.row.locale
    names = names_for(table, locale)
    return join_list((f"<@{u}>" if u in mentioned else f"**{names(human_player(u))}**" for u in people), locale)


def turn_lines(table: Table, people: Sequence[int], mentioned: Sequence[int], clock: bool = True) -> list[str]:
    """Whose turn it is and (``clock``) when their time runs out; at a paused table, who may resume it and how. (The
    time warning is a message of its own: ``outbox_board.BoardWriter``.)"""
    locale = table.row.locale
    if table.paused:
        away = [s.user_id for s in table.seats if s.user_id is not None]
        key = "table.paused_board" if table.place.rated else "table.paused_board_private"  # (no Manage Server)
        return [t(key, locale, players=named(table, away))]
    if not people:
        return []
    deadline = deadline_mark(table) if clock else None
    return [t("table.your_turn", locale, players=named(table, people, mentioned)) if deadline is None
            else t("table.your_turn_until", locale, players=named(table, people, mentioned), deadline=deadline)]


def table_view(table: Table, locale: object | None) -> discord.ui.View | None:
    """The board's controls: My hand and the turn's public buttons, and I'm back while a bot plays for a person;
    at a paused table My hand, Resume and End table."""
    if table.paused:
        return paused_view(table, locale)
    view = board_view(table, locale, public_controls=True)
    if view is not None and any(s.is_bot and s.user_id is not None for s in table.seats):
        view.add_item(BackButton(table.id, locale))
    return view
