"""Acknowledge a click at once while the process is behind, so Discord never shows "This interaction failed".

Discord wants the first answer to an interaction within 3 s. A quiet process answers directly (one callback that
carries the answer); a busy one (more than a few interactions in flight, counting those that arrived and wait for
their handler to start, or a click already older than ``MAX_AGE`` by its snowflake when its handler starts) first
sends the deferral of the kind the handler's answer needs, and the handler then edits the original response instead
of answering (``bot.replies.answer_hand``, ``bot.replies.reply``): never a second initial response, never a
followup where the original is still empty.
"""
from __future__ import annotations

import asyncio
import enum
from contextlib import asynccontextmanager
from typing import AsyncIterator

import discord

from .collector import full_collections

MAX_IN_FLIGHT = 4  # interactions being handled at once above which a new one is deferred first
MAX_AGE = 1.0  # seconds since Discord created the interaction above which it is deferred first
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
        self.max_in_flight, self.max_age = max_in_flight, max_age
        self.deferred = 0  # how many were deferred first (benches and logs)

    def arrived(self, interaction: discord.Interaction) -> None:
        """Called as the gateway event is parsed, before any handler runs: a burst counts from its first click,
        and from then on full garbage collections wait until it is done (``bot.collector``)."""
        self.waiting.add(interaction.id)
        if self.in_flight + len(self.waiting) > self.max_in_flight:
            full_collections.hold(self)

    def started(self, interaction: discord.Interaction) -> None:
        """Its handler (or, for interactions no control handles, the bot's ``on_interaction``) has started."""
        self.waiting.discard(interaction.id)
        self._release_when_idle()

    def _release_when_idle(self) -> None:
        if not self.in_flight and not self.waiting:
            full_collections.release(self)

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
                # Once round the loop: the handlers already waiting send their deferrals before this one's work
                # (in a burst of 1,000 at a quarter core: first-ack p99 2.5-3.2 s -> 0.8-1.4 s).
                await asyncio.sleep(0)
            yield
        finally:
            self.in_flight -= 1
            self._release_when_idle()


async def acknowledge(interaction: discord.Interaction, kind: Acknowledgement) -> None:
    if kind is Acknowledgement.UPDATE:
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=True, thinking=True)
    interaction.extras[EARLY] = kind


def early(interaction: discord.Interaction) -> Acknowledgement | None:
    """The deferral sent before the handler ran, while its original response is still to be written."""
    return None if interaction.extras.get(FILLED) else interaction.extras.get(EARLY)
