"""Where a table plays (:class:`Place`), read from its stored row through one function (:func:`place_of`).

Three stored fields say it (``channel_id``, ``lobby_channel_id``, ``open_thread``); nothing else reads them to
decide where a message goes. A table plays in a server channel (its lobby and board in one channel or thread,
possibly about to move to a thread started from its lobby message) or in a thread opened from its lobby (the lobby
stays in the channel). A table of no server (a DM or group DM with a user-installed bot) is carried by interaction
tokens: the bot is not a member there and writes only through answers to clicks. What the bot can do at each kind of
place is one row of :data:`ABILITIES`; code elsewhere asks the place (``in_thread``, ``by_token``, ``rated``), never
compares kinds.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from .discord_rules.limits import MAX_PRIVATE_FOLLOWUPS

if TYPE_CHECKING:
    from bot.storage.rows import GameRow


class PlaceKind(Enum):
    CHANNEL = "channel"  # a server channel (or a thread where someone ran /play): lobby and board together
    THREAD = "thread"  # a thread opened from its lobby message; the lobby stays in the channel
    PRIVATE = "private"  # a DM or group DM: written only through interaction tokens (no channel writes)

    @property
    def abilities(self) -> "Abilities":
        return ABILITIES[self]


@dataclass(frozen=True)
class Abilities:
    """What the bot can do at one kind of place."""

    channel_writes: bool  # it posts, edits and deletes there itself (else only through people's presses' tokens)
    nonces: bool  # a post carries a nonce Discord answers a repeat of with the message it has
    own_thread: bool  # a thread opened for the table: archived after its end, its end told in the lobby's channel
    server: bool  # a server's: ratings, tournaments, settings, limits and permission checks
    followups: int | None  # followups one press may send there (None: the bot writes in the channel itself)


ABILITIES = {
    PlaceKind.CHANNEL: Abilities(channel_writes=True, nonces=True, own_thread=False, server=True, followups=None),
    PlaceKind.THREAD: Abilities(channel_writes=True, nonces=True, own_thread=True, server=True, followups=None),
    PlaceKind.PRIVATE: Abilities(channel_writes=False, nonces=False, own_thread=False, server=False,
                                 followups=MAX_PRIVATE_FOLLOWUPS),
}


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

    @property
    def in_thread(self) -> bool:
        """It plays in a thread opened from its lobby (archived after its end; its end told in the lobby's channel)."""
        return self.kind.abilities.own_thread

    @property
    def by_token(self) -> bool:
        """The bot writes there only through people's presses (a DM or group DM)."""
        return not self.kind.abilities.channel_writes

    @property
    def rated(self) -> bool:
        """Ratings, tournaments and settings belong to a server."""
        return self.kind.abilities.server

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
    if not place.in_thread:
        return {}
    return {"channel_id": place.lobby_channel_id, "lobby_channel_id": None, "board_message_id": None}
