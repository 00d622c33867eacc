"""Where a table's writer writes, one kind per place (``bot.place``): a server channel or thread, which the bot
writes to itself (:class:`ChannelOutlet`), or a DM or group DM, written through people's presses only
(``outbox_token.TokenOutlet``). Both take the same typed message (``bot.outgoing.Outgoing``) and say what they can
do (``nonces``, ``can_edit``, ``can_post``)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from bot.outgoing import Outgoing

from .outbox_token import TokenOutlet

if TYPE_CHECKING:
    from bot.client import GameHostBot


class ChannelOutlet:
    """A server channel or thread: the bot posts (with a nonce Discord answers a repeat of with the message it has),
    edits and deletes there itself."""

    nonces = True
    warns_in_board = False  # the time warning: a message of its own, with its ping

    def __init__(self, bot: "GameHostBot", channel_id: int, guild_id: int | None) -> None:
        self.channel = bot.get_partial_messageable(channel_id, guild_id=guild_id)

    def can_edit(self, message_id: int | None) -> bool:
        return message_id is not None

    def can_post(self, *, kept: bool = False) -> bool:
        return True

    async def send(self, message: Outgoing, *, kept: bool = False) -> int:
        return (await self.channel.send(**message.send())).id

    async def edit(self, message_id: int, message: Outgoing) -> None:
        await self.channel.get_partial_message(message_id).edit(**message.edit())

    async def delete(self, message_id: int) -> None:
        await self.channel.get_partial_message(message_id).delete()


Outlet = ChannelOutlet | TokenOutlet
