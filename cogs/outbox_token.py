"""How a table's writer reaches a DM or group DM (``PlaceKind.PRIVATE``): through a person's interaction token only.

The bot is not a member there (an app installed to a person's account): it cannot post or edit in the channel, only
answer interactions. Each press on the table's controls (and the ``/play`` that opened it) becomes the table's
:class:`Carrier`: what the writer shows next — the board, the bots' moves after that person's move, the result — goes
out as that interaction's followups, and a board sent through a token is edited with the same token. Discord allows
a token for 15 minutes and (for such an app outside a server) 5 followups: a carrier past either has nothing to
write with (:class:`NoLiveToken`), and the table waits, clock held, until the next press brings a new carrier."""
from __future__ import annotations

import asyncio
import time
from typing import Any, Callable, Coroutine

import discord

from bot.replies import awaits_answer, fill_original

TOKEN_LIFETIME = 15 * 60.0  # seconds Discord accepts an interaction token
TOKEN_MARGIN = 30.0  # a token this close to its end is not started on (a request may take a while)
MAX_FOLLOWUPS = 5  # followups per interaction for a user-installed app outside a server
TOKEN_NOTICE = 60.0  # the board says the table waits for a press this long before the last token ends


class NoLiveToken(Exception):
    """Nothing to write with: the last press's token expired or used its followups (the table waits for a press)."""


class NotThisToken(Exception):
    """A live token that cannot edit this message (sent with another press's token): it keeps what it shows."""


class Carrier:
    """One press (or ``/play``) whose token the writer writes with; shared by every table it carries."""

    def __init__(self, interaction: discord.Interaction, now: float | None = None) -> None:
        self.interaction = interaction
        self.since = time.monotonic() if now is None else now  # when the press arrived (about when Discord made it)
        self.followups = 0
        self.sent: set[int] = set()  # messages this token may edit: its followups ...
        self.source = updated_message(interaction)  # ... and the public message the press updates in place (or the
        # deferred /play's original response, once ``TokenChannel.send`` filled it)

    def can_edit(self, message_id: int | None) -> bool:
        return self.alive() and message_id is not None and (message_id in self.sent or message_id == self.source)

    def alive(self) -> bool:
        return time.monotonic() - self.since < TOKEN_LIFETIME - TOKEN_MARGIN

    def can_send(self) -> bool:
        return self.alive() and self.followups < MAX_FOLLOWUPS



def updated_message(interaction: discord.Interaction) -> int | None:
    """The public message a press answered by updating in place (a lobby's Join, Start…): its token edits it."""
    updates = (discord.InteractionResponseType.deferred_message_update, discord.InteractionResponseType.message_update)
    message = interaction.message
    if interaction.response.type not in updates or message is None or message.flags.ephemeral:
        return None
    return message.id


class TokenChannel:
    """What the table's writer writes to at a DM or group DM: the ``send`` / ``get_partial_message`` it uses on a
    channel, carried out with the carrier's token."""

    def __init__(self, carrier: Carrier | None) -> None:
        self.carrier = carrier

    def can_edit(self, message_id: int | None) -> bool:
        return self.carrier is not None and self.carrier.can_edit(message_id)

    async def send(self, content: str | None = None, *, nonce: object = None,
                   **kwargs: Any) -> discord.Message | discord.InteractionMessage:
        """A followup of the carrier; a deferred ``/play``'s "thinking…" is filled by editing it (Discord's rule after
        a defer), which is no followup: it becomes the message the token edits as its original."""
        del nonce  # followups take none; a repeat after a lost answer is not told apart (see the report)
        carrier = self.carrier
        if carrier is None or not carrier.alive():
            raise NoLiveToken()
        kwargs = {k: v for k, v in kwargs.items() if v is not discord.utils.MISSING}
        if awaits_answer(carrier.interaction):
            if "files" in kwargs:
                kwargs["attachments"] = kwargs.pop("files")
            original = await fill_original(carrier.interaction, content=content, **kwargs)
            carrier.source = original.id
            return original
        if not carrier.can_send():
            raise NoLiveToken()
        carrier.followups += 1
        message = await carrier.interaction.followup.send(content or discord.utils.MISSING, wait=True, **kwargs)
        carrier.sent.add(message.id)
        return message

    def get_partial_message(self, message_id: int) -> "TokenMessage":
        return TokenMessage(self, message_id)


class TokenMessage:
    def __init__(self, channel: TokenChannel, message_id: int) -> None:
        self.channel, self.id = channel, message_id

    async def edit(self, **kwargs: Any) -> None:
        carrier = self.channel.carrier
        if carrier is None or not carrier.alive():
            raise NoLiveToken()
        if not carrier.can_edit(self.id):
            raise NotThisToken()
        kwargs = {k: v for k, v in kwargs.items() if v is not discord.utils.MISSING}
        if self.id == carrier.source:
            await carrier.interaction.edit_original_response(**kwargs)
        else:
            await carrier.interaction.followup.edit_message(self.id, **kwargs)

    async def delete(self) -> None:
        carrier = self.channel.carrier
        if carrier is None or not carrier.can_edit(self.id):
            raise NoLiveToken()
        await carrier.interaction.followup.delete_message(self.id)


class PressWait:
    """A DM table's wait for the next press: shortly before the last press's token ends, its board says the table
    waits (and its clock stops, so nobody's time runs out unseen); the next press ends the wait."""

    def __init__(self) -> None:
        self.waiting = False
        self._timer: asyncio.TimerHandle | None = None
        self._task: asyncio.Task[None] | None = None

    def schedule(self, carrier: Carrier, notice: Callable[[], Coroutine[Any, Any, None]]) -> None:
        self.cancel()
        self.waiting = False
        delay = max(0.0, carrier.since + TOKEN_LIFETIME - TOKEN_MARGIN - TOKEN_NOTICE - time.monotonic())

        def due() -> None:
            self._task = asyncio.create_task(notice())
        self._timer = asyncio.get_running_loop().call_later(delay, due)

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
