"""How a table's writer reaches a DM or group DM (``PlaceKind.PRIVATE``): through people's interaction tokens only.

The bot is not a member there (an app installed to a person's account): it cannot post or edit in the channel, only
answer interactions. Each press on the table's controls (and the ``/play`` that opened it) becomes a
:class:`Carrier`; the table keeps the carriers whose tokens still live (:class:`TokenOutlet`). A new message goes out
as a followup of the newest press that has one left, and a message is edited (or deleted) with whichever live
token sent it. Discord
allows a token for 15 minutes and, for such an app outside a server, 5 followups (``bot.discord_rules.tokens``); the
last followup of each press is kept back for the one message that holds true without another write — that the
table waits for a press, clock stopped. With no live token, or only the kept followup, nothing else can be posted
(:class:`NoLiveToken`), and the table waits until the next press brings a new carrier; a token Discord refused
(``Carrier.refused``) counts as ended."""
from __future__ import annotations

import asyncio
from typing import Any, Awaitable, Callable, Coroutine

import discord

from bot.delivery import Delivery
from bot.discord_rules.limits import MAX_PRIVATE_FOLLOWUPS, TOKEN_LIFETIME
from bot.outgoing import Outgoing
from bot.replies import awaits_answer, fill_original

TOKEN_MARGIN = 30.0  # a token this close to its end is not started on (a request may take a while)
TOKEN_NOTICE = 60.0  # the board says the table waits for a press this long before the last token ends
KEPT_FOLLOWUPS = 1  # followups of each press kept for saying that the table waits
Clock = Callable[[], float]


class NoLiveToken(Exception):
    """Nothing to write with: every token ended, was refused or used its followups (the table waits for a press)."""


class NotThisToken(Exception):
    """Live tokens, none of which sent this message: it keeps what it shows."""


class Carrier:
    """One press (or ``/play``) whose token the writer writes with; shared by every table it carries."""

    def __init__(self, interaction: discord.Interaction, delivery: Delivery) -> None:
        self.interaction, self.delivery, self.clock = interaction, delivery, delivery.clock
        self.since = self.clock()  # when the press arrived (about when Discord made it)
        self.followups = 0
        self.sent: set[int] = set()  # messages this token may edit: its followups ...
        self.source = updated_message(interaction)  # ... and the public message the press updates in place (or the
        # deferred /play's original response, once ``TokenOutlet.send`` filled it)

    def alive(self) -> bool:
        return not self.delivery.refuses(self.interaction.token) and self.clock() < self.ends_at()

    def ends_at(self) -> float:
        return self.since + TOKEN_LIFETIME - TOKEN_MARGIN

    def can_edit(self, message_id: int | None) -> bool:
        return self.alive() and message_id is not None and (message_id in self.sent or message_id == self.source)

    def can_send(self, *, kept: bool = False) -> bool:
        """A followup is left (``kept``: the one kept for saying the table waits counts too)."""
        left = MAX_PRIVATE_FOLLOWUPS - (0 if kept else KEPT_FOLLOWUPS)
        return self.alive() and (self.followups < left or awaits_answer(self.interaction))

    def refused(self) -> None:
        """Discord no longer takes this token (401 50027, 404 10015, 40094): nothing more is written with it, by the
        table's writer or anyone else in the bot (its live hand view)."""
        self.delivery.token_refused(self.interaction.token)


def updated_message(interaction: discord.Interaction) -> int | None:
    """The public message a press answered by updating in place (a lobby's Join, Start…): its token edits it."""
    updates = (discord.InteractionResponseType.deferred_message_update, discord.InteractionResponseType.message_update)
    message = interaction.message
    if interaction.response.type not in updates or message is None or message.flags.ephemeral:
        return None
    return message.id


class TokenOutlet:
    """A DM or group DM: the presses whose tokens still live, newest last; what the writer sends, edits and deletes
    there. No nonces (a webhook takes none), no threads, a followup budget per press."""

    nonces = False
    warns_in_board = True  # the time warning: a line of the board (no followup for it)
    kept = 100  # live presses remembered at most (their tokens end within 15 minutes; a press that sent nothing
    # goes first): every message a live token sent stays editable

    def __init__(self) -> None:
        self.carriers: list[Carrier] = []
        self.used: Carrier | None = None  # the press whose token the last request went out with

    @property
    def carrier(self) -> Carrier | None:
        """The newest press: new messages go out as its followups."""
        return self.carriers[-1] if self.carriers else None

    def add(self, carrier: Carrier) -> None:
        live = [c for c in self.carriers if c.alive() and c is not carrier]
        while len(live) >= self.kept:
            idle = next((c for c in live if not c.sent and c.source is None), live[0])
            live.remove(idle)
        self.carriers = [*live, carrier]

    def alive(self) -> bool:
        return any(c.alive() for c in self.carriers)

    def ends_at(self) -> float | None:
        """When the last live token ends (None: none lives)."""
        return max((c.ends_at() for c in self.carriers if c.alive()), default=None)

    def last_word(self, board_id: int | None) -> float | None:
        """When the last live token that could still say the table waits ends: one that can edit the board, or
        post with its kept followup (None: none can)."""
        able = [c.ends_at() for c in self.carriers if c.can_edit(board_id) or c.can_send(kept=True)]
        return max(able, default=None)

    def editor(self, message_id: int | None) -> Carrier | None:
        """The newest live press whose token sent (or updated) ``message_id``."""
        return next((c for c in reversed(self.carriers) if c.can_edit(message_id)), None)

    def can_edit(self, message_id: int | None) -> bool:
        return self.editor(message_id) is not None

    def poster(self, *, kept: bool = False) -> Carrier | None:
        """The newest press whose token lives and has a followup left (``kept``: the last one counts)."""
        return next((c for c in reversed(self.carriers) if c.can_send(kept=kept)), None)

    def can_post(self, *, kept: bool = False) -> bool:
        return self.poster(kept=kept) is not None

    async def send(self, message: Outgoing, *, kept: bool = False) -> int:
        """A followup of the newest press that has one left (``kept``: its last followup may be used); a deferred
        ``/play``'s "thinking…" is filled by editing it (Discord's rule after a defer), which is no followup: it
        becomes the message the token edits as its original."""
        carrier = self.used = self.poster(kept=kept)
        if carrier is None:
            raise NoLiveToken()
        if awaits_answer(carrier.interaction):
            original = await fill_original(carrier.interaction, **message.edit())
            carrier.source = original.id
            return original.id
        carrier.followups += 1
        sent = await carrier.interaction.followup.send(wait=True, **message.without_nonce().send())
        carrier.sent.add(sent.id)
        return sent.id

    async def edit(self, message_id: int, message: Outgoing) -> None:
        carrier = self._editor_of(message_id)
        if message_id == carrier.source:
            await carrier.interaction.edit_original_response(**message.edit())
        else:
            await carrier.interaction.followup.edit_message(message_id, **message.edit())

    async def delete(self, message_id: int) -> None:
        carrier = self._editor_of(message_id)
        if message_id == carrier.source:
            await carrier.interaction.delete_original_response()
        else:
            await carrier.interaction.followup.delete_message(message_id)

    def _editor_of(self, message_id: int) -> Carrier:
        carrier = self.used = self.editor(message_id)
        if carrier is None:
            raise NotThisToken() if self.alive() else NoLiveToken()
        return carrier

    def refused(self) -> None:
        """Discord refused the token the last request went out with: that press ends."""
        if self.used is not None:
            self.used.refused()


class PressWait:
    """A DM table's wait for the next press: shortly before the last live token ends, its board says the table
    waits (and its clock stops, so nobody's time runs out unseen); the next press ends the wait. It sleeps on the
    delivery's clock (``sleep``), the clock tokens are counted on."""

    def __init__(self) -> None:
        self._task: asyncio.Task[None] | None = None

    def schedule(self, ends: float | None, clock: Clock, sleep: Callable[[float], Awaitable[None]],
                 notice: Callable[[], Coroutine[Any, Any, None]]) -> None:
        """The notice a minute before ``ends`` (None: nothing could say it)."""
        self.cancel()
        if ends is None:
            return
        delay = max(0.0, ends - TOKEN_NOTICE - clock())

        async def wait() -> None:
            await sleep(delay)
            await notice()
        self._task = asyncio.create_task(wait())

    def cancel(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task = None
