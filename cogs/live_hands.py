"""Hand views that update themselves: each person's latest hand view of a table is redrawn after every change,
for as long as Discord lets the bot edit it (an interaction token lives 15 minutes).

A hand view is an ephemeral message only its person sees; the bot can edit it through the interaction that
answered with it (``edit_original_response``). Each person's redraws run one at a time and coalesce (the latest
table wins), and a redraw is never lost to a click answered meanwhile: every answer that draws a hand registers
itself again, and a redraw follows when the table moved on while it was being drawn. A redraw shows the
person's private notes ("you drew …") but does not count them as delivered: only a view they opened or clicked
does, so a note is never lost in a view they dismissed. A person has one hand view per table: opening a new one
(My hand) deletes the older ones once the new one is shown (an ephemeral message can be deleted through its
interaction's token while it lives), so presses leave no trail of old views.
"""
from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Awaitable, Callable

import discord
import discord.ext.commands

from bot.errors import HostError
from bot.refusals import Refusal, classify
from bot.replies import Attachments
from bot.storage import GameStatus
from bot.table import Table

if TYPE_CHECKING:
    from bot.client import GameHostBot

log = logging.getLogger(__name__)
NOTE_MARK = "🔒 "  # how a hand view marks a private note
EDIT_WINDOW = 14 * 60.0  # seconds a hand view stays editable (Discord: 15 minutes per interaction token)


@dataclass
class _Live:
    interaction: discord.Interaction
    since: float
    drawn_at: int  # the table version it shows
    notes: str | None  # the private notes it showed, kept in its redraws until the person answers again
    deadline: float | None  # the decision's deadline it shows (the clock pauses and resumes within a version)
    dirty: bool = False
    task: asyncio.Task[None] | None = field(default=None, repr=False)
    older: list[tuple[discord.Interaction, float]] = field(default_factory=list)  # older views (and since), to delete


HandDrawer = Callable[[discord.Interaction, Table, str | None], Awaitable[tuple[str, discord.ui.View]]]
HandFiles = Callable[[discord.ui.View], Attachments]


class LiveHands:
    def __init__(self, bot: "GameHostBot", draw: HandDrawer, files: HandFiles) -> None:
        self.bot, self.draw, self.files = bot, draw, files  # how the controls draw a hand view, and its pictures
        self._live: dict[int, dict[int, _Live]] = {}  # table id -> person -> their latest hand view

    def clock(self) -> float:
        """What interaction tokens' lifetimes are counted on (the bot's delivery clock)."""
        return self.bot.delivery.clock()

    def remember(self, interaction: discord.Interaction, table: Table, drawn_at: int, content: str) -> None:
        """``interaction`` just answered with ``interaction.user``'s hand view of ``table`` at ``drawn_at``."""
        key = (table.id, interaction.user.id)
        views = self._live.setdefault(table.id, {})
        old = views.get(key[1])
        notes = "\n".join(line for line in content.splitlines() if line.startswith(NOTE_MARK)) or None
        live = views[key[1]] = _Live(interaction, self.clock(), drawn_at, notes, table.row.deadline)
        if old is not None and old.task is not None and not old.task.done():
            live.task = old.task  # the running redraw picks up the new interaction on its next round
        if old is not None and opened_new_message(interaction):  # one hand view per person: the older one goes
            live.older = [*old.older, (old.interaction, old.since)]
        if table.version != drawn_at or live.older:  # the table moved on while this answer was drawn
            self._schedule(key, live)
        if table.status is not GameStatus.RUNNING and (live.task is None or live.task.done()):
            self._forget(key)  # an ended table changes no more: its views are never redrawn

    def changed(self, table: Table) -> None:
        """The table changed: redraw every live hand view of it (a finished table's views once, then forget)."""
        views = self._live.get(table.id, {})
        for person, live in list(views.items()):
            if self.clock() - live.since > EDIT_WINDOW:
                self._forget((table.id, person))
                continue
            self._schedule((table.id, person), live)

    def _forget(self, key: tuple[int, int]) -> None:
        views = self._live.get(key[0], {})
        views.pop(key[1], None)
        if not views:
            self._live.pop(key[0], None)

    def _schedule(self, key: tuple[int, int], live: _Live) -> None:
        live.dirty = True
        if live.task is None or live.task.done():
            live.task = asyncio.create_task(self._redraw(key))

    async def _redraw(self, key: tuple[int, int]) -> None:
        while (live := self._live.get(key[0], {}).get(key[1])) is not None and live.dirty:
            live.dirty = False
            await _delete_older(live, self.clock)
            if self.clock() - live.since > EDIT_WINDOW or self.bot.delivery.refuses(live.interaction.token):
                self._forget(key)  # its token ended (or Discord refused it): it cannot be edited any more
                return
            table = await self.bot.service.table(key[0])
            if (live.drawn_at == table.version and live.deadline == table.row.deadline
                    and table.status is GameStatus.RUNNING):
                continue
            # What the view will show, taken before drawing: the table may move on while the view is drawn and sent
            # (the change marks it dirty again), and marking the newer version as shown would skip that redraw.
            version, deadline = table.version, table.row.deadline
            try:
                content, view = await self.draw(live.interaction, table, live.notes)
                await live.interaction.edit_original_response(content=content, view=view, **self.files(view))
                live.drawn_at, live.deadline = version, deadline
            except (discord.HTTPException, HostError) as error:  # dismissed, its token ended or refused, left
                if self._ended(live, error):
                    log.debug("hand view of table %s can no longer be edited (%s)", key[0], error)
                    self._forget(key)
                    return
                log.warning("redrawing a hand view of table %s failed (%s)", key[0], type(error).__name__)
                if table.status is not GameStatus.RUNNING:
                    self._forget(key)
                return
            except Exception as error:  # one failed redraw must not stop the others
                log.warning("redrawing a hand view of table %s failed (%s)", key[0], type(error).__name__)
                if table.status is not GameStatus.RUNNING:
                    self._forget(key)
                return
            if table.status is not GameStatus.RUNNING:
                self._forget(key)
                return


    def _ended(self, live: _Live, error: BaseException) -> bool:
        """Whether a failed redraw means the view can never be edited again: dismissed, the person left, or Discord
        no longer takes its token (then no one in the bot writes with it again)."""
        if isinstance(error, discord.HTTPException) and classify(error) is Refusal.TOKEN_GONE:
            self.bot.delivery.token_refused(live.interaction.token)
            return True
        return isinstance(error, (discord.NotFound, discord.Forbidden, HostError))


async def _delete_older(live: _Live, clock: Callable[[], float]) -> None:
    """Older hand views of this person are deleted, the newer one being shown (in this person's redraw task, so
    an edit of an older view still under way cannot land after its deletion)."""
    while live.older:
        older, since = live.older.pop(0)
        if clock() - since > EDIT_WINDOW:
            continue  # its token ended: Discord would refuse (the person may dismiss it)
        try:
            await older.delete_original_response()
        except discord.HTTPException as error:  # dismissed, or its token expired: nothing left to delete
            log.debug("an older hand view could not be deleted (%s)", error)


def opened_new_message(interaction: discord.Interaction) -> bool:
    """Whether the hand view answering ``interaction`` is a new ephemeral message (My hand, /game hand) rather than
    the same view edited in place (a click inside it)."""
    return interaction.message is None or not interaction.message.flags.ephemeral


def live_hands(client: discord.Client) -> LiveHands | None:
    """The bot's live hand views (kept by the table cog; None where it is not loaded)."""
    cog = client.get_cog("TableCog") if isinstance(client, discord.ext.commands.Bot) else None
    return getattr(cog, "hands", None)
