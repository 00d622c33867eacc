"""Where a table plays (:class:`Place`), read from its stored row through one function (:func:`place_of`).

Three stored fields say it (``channel_id``, ``lobby_channel_id``, ``open_thread``); nothing else reads them to
decide where a message goes. A table plays in a server channel (its lobby and board in one channel or thread,
possibly about to move to a thread started from its lobby message) or in a thread opened from its lobby (the lobby
stays in the channel). A table of no server (a DM or group DM with a user-installed bot) is carried by interaction
tokens: the bot is not a member there and writes only through answers to clicks.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.storage.rows import GameRow


class PlaceKind(Enum):
    CHANNEL = "channel"  # a server channel (or a thread where someone ran /play): lobby and board together
    THREAD = "thread"  # a thread opened from its lobby message; the lobby stays in the channel
    PRIVATE = "private"  # a DM or group DM: written only through interaction tokens (no channel writes)


@dataclass(frozen=True)
class Place:
    kind: PlaceKind
    guild_id: int | None
    channel_id: int  # where it plays: its board and result
    lobby_channel_id: int  # where its lobby is (the channel it plays in, unless it moved to a thread)
    moves_to_thread: bool  # a server lobby that moves, at its start, to a thread started from its lobby message

    @property
    def channel_ids(self) -> tuple[int, ...]:
        """Every channel of the table, where it plays first."""
        if self.lobby_channel_id == self.channel_id:
            return (self.channel_id,)
        return (self.channel_id, self.lobby_channel_id)

    def channel_for(self, *, lobby: bool) -> int:
        return self.lobby_channel_id if lobby else self.channel_id


def place_of(row: "GameRow") -> Place:
    """The one reading of where a table plays."""
    if row.guild_id is None:
        kind = PlaceKind.PRIVATE
    elif row.lobby_channel_id:
        kind = PlaceKind.THREAD
    else:
        kind = PlaceKind.CHANNEL
    return Place(kind=kind, guild_id=row.guild_id, channel_id=row.channel_id,
                 lobby_channel_id=row.lobby_channel_id or row.channel_id,
                 moves_to_thread=row.open_thread and kind is PlaceKind.CHANNEL)


def moved_to_thread(place: Place, thread_id: int | None) -> dict[str, object]:
    """The row fields of a table that was to move to a thread at its start and now plays in ``thread_id`` (or, with
    None, stays in its channel)."""
    fields: dict[str, object] = {"open_thread": False}
    if thread_id is not None:
        fields |= {"channel_id": thread_id, "lobby_channel_id": place.channel_id}
    return fields


def back_from_thread(place: Place) -> dict[str, object]:
    """The row fields of a table whose thread was deleted: it plays on in its lobby's channel, with a new board."""
    if place.kind is not PlaceKind.THREAD:
        return {}
    return {"channel_id": place.lobby_channel_id, "lobby_channel_id": None, "board_message_id": None}
