"""Acknowledge a click at once while the process is behind, so Discord never shows "This interaction failed".

Discord wants the first answer to an interaction within 3 s. A quiet process answers directly (one callback that
carries the answer); a busy one (more than a few interactions in flight, counting those that arrived and wait for
their handler to start, or a click already older than ``MAX_AGE`` by its snowflake when its handler starts) first
sends the deferral of the kind the handler's answer needs, and the handler then edits the original response instead
of answering (``bot.replies.answer_hand``, ``bot.replies.reply``): never a second initial response, never a
followup where the original is still empty. In a burst, a deferred handler's work waits until the burst's other
interactions are acknowledged too (at most ``ACK_FIRST_S``): Discord's 3 s run for all of them from the same
instant, and the work of the first ones read would otherwise delay the deferrals of the last.
"""
from __future__ import annotations

import asyncio
import enum
import time
from contextlib import asynccontextmanager
from typing import AsyncIterator

import discord

MAX_IN_FLIGHT = 4  # interactions being handled at once above which a new one is deferred first
MAX_AGE = 1.0  # seconds since Discord created the interaction above which it is deferred first
ACK_FIRST_S = 1.0  # longest a deferred handler's work waits for the other interactions' acknowledgements
EARLY = "acknowledged_early"  # interaction.extras: the Acknowledgement sent before the handler ran
FILLED = "original_filled"  # interaction.extras: the early deferral's original response was written


class Acknowledgement(enum.Enum):
    """How a handler's answer will look, hence which deferral stands in for it."""

    UPDATE = "update"  # it edits the message the component sits on: DEFERRED_UPDATE_MESSAGE
    EPHEMERAL_REPLY = "ephemeral_reply"  # it sends a new ephemeral message: DEFERRED_CHANNEL_MESSAGE, ephemeral


class Backlog:
    """The interactions this process is handling now; decides when a new one is deferred first."""

    def __init__(self, max_in_flight: int = MAX_IN_FLIGHT, max_age: float = MAX_AGE) -> None:
        self.in_flight = 0
        self.waiting: set[int] = set()  # interactions that arrived and whose handler has not started yet
        self.unacknowledged: dict[int, float] = {}  # arrived, not yet acknowledged (nor let go): when they arrived
        self._all_acknowledged = asyncio.Event()
        self.max_in_flight, self.max_age = max_in_flight, max_age
        self.deferred = 0  # how many were deferred first (benches and logs)

    def arrived(self, interaction: discord.Interaction) -> None:
        """Called as the gateway event is parsed, before any handler runs: a burst counts from its first click."""
        self.waiting.add(interaction.id)
        self.unacknowledged[interaction.id] = time.monotonic()
        self._all_acknowledged.clear()

    def acknowledged(self, interaction: discord.Interaction) -> None:
        """It was acknowledged, or will be answered in a way nothing here waits for (a modal, a slash command)."""
        self.unacknowledged.pop(interaction.id, None)
        if not self.unacknowledged:
            self._all_acknowledged.set()

    async def others_acknowledged(self) -> None:
        """Until every interaction that arrived is acknowledged, or ``ACK_FIRST_S`` after the oldest still waiting
        arrived (one nobody acknowledges, e.g. a handler that failed, holds nobody up for longer)."""
        if not self.unacknowledged:
            return
        waited = time.monotonic() - min(self.unacknowledged.values())
        if waited >= ACK_FIRST_S:
            self.unacknowledged.clear()
            self._all_acknowledged.set()
            return
        try:
            await asyncio.wait_for(self._all_acknowledged.wait(), ACK_FIRST_S - waited)
        except TimeoutError:
            pass

    def started(self, interaction: discord.Interaction) -> None:
        """Its handler (or, for interactions no control handles, the bot's ``on_interaction``) has started."""
        self.waiting.discard(interaction.id)

    def behind(self, interaction: discord.Interaction) -> bool:
        age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
        return self.in_flight + len(self.waiting) > self.max_in_flight or age > self.max_age

    @asynccontextmanager
    async def handling(self, interaction: discord.Interaction,
                       kind: Acknowledgement | None) -> AsyncIterator[None]:
        """Counts ``interaction`` as in flight while the block runs; defers it first (``kind``) when behind.
        ``kind`` None: the handler answers in a way no deferral can stand for (a modal): never deferred here."""
        self.started(interaction)
        self.in_flight += 1
        try:
            if kind is not None and not interaction.response.is_done() and self.behind(interaction):
                await acknowledge(interaction, kind)
                self.deferred += 1
                self.acknowledged(interaction)
                # The other handlers send their deferrals before this one's work (in a burst of 1,000 at a quarter
                # core, going once round the loop took first-ack p99 from 2.5-3.2 s to 0.8-1.4 s; waiting for all
                # of them measured in docs/performance.md, issue 45).
                await self.others_acknowledged()
            else:
                self.acknowledged(interaction)  # it answers directly
            yield
        finally:
            self.in_flight -= 1
            self.acknowledged(interaction)


async def acknowledge(interaction: discord.Interaction, kind: Acknowledgement) -> None:
    if kind is Acknowledgement.UPDATE:
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=True, thinking=True)
    interaction.extras[EARLY] = kind


def early(interaction: discord.Interaction) -> Acknowledgement | None:
    """The deferral sent before the handler ran, while its original response is still to be written."""
    return None if interaction.extras.get(FILLED) else interaction.extras.get(EARLY)
