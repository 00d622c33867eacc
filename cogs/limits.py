"""The limits of ``bot.limits`` checked where a member asks for something: before ``/play`` opens a lobby, a lobby
starts, Rematch opens a table, and ``/tournament create`` or ``start``. Every check comes before anything is
written or sent, so a refusal changes nothing; each says which limit it hit and who can change it."""
from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import discord

from bot.errors import HostError
from bot.limits import Cap, Limits, refuse_over
from bot.storage import GameStatus

from .common import host, is_admin

# A tournament starts only with at least this many people entered: bots alone must not keep the bot busy.
PEOPLE_TO_START = 1


async def server_limits(interaction: discord.Interaction) -> Limits:
    """This server's limits (the defaults outside a server)."""
    if interaction.guild_id is None:
        return Limits()
    return await host(interaction).storage.guild_limits(interaction.guild_id)


def count_creation(interaction: discord.Interaction, limits: Limits) -> None:
    """One more lobby, table or tournament by this member: refused when they created too many this minute."""
    host(interaction).creations.hit(interaction.guild_id, interaction.user.id, limits.creations_per_minute)


@asynccontextmanager
async def room_for(interaction: discord.Interaction, limits: Limits, status: GameStatus) -> AsyncIterator[None]:
    """Refuse one more open lobby (``GameStatus.LOBBY``) or running table (``RUNNING``) of this member, or of this
    server, beyond its cap; the body (which opens or starts it) runs under the server's gate, so a second request
    at the same instant is counted after the first one is written."""
    key = interaction.guild_id if interaction.guild_id is not None else (None, interaction.user.id)  # (a person)
    async with host(interaction).gates.hold(key):
        await refuse_if_full(interaction, limits, status)
        yield


async def refuse_if_full(interaction: discord.Interaction, limits: Limits, status: GameStatus) -> None:
    """The caps of ``room_for``, checked now (without the gate: only where nothing is opened after it). Outside a
    server a person's own lobbies and tables in every DM and group DM count together, bounded as a member's are in
    a server by default."""
    storage = host(interaction).storage
    member, server = ((Cap.LOBBIES_PER_MEMBER, Cap.LOBBIES_PER_SERVER) if status is GameStatus.LOBBY
                      else (Cap.TABLES_PER_MEMBER, Cap.TABLES_PER_SERVER))
    if interaction.guild_id is None:
        hosted = await storage.count_games(None, status, host_id=interaction.user.id)
        if hosted >= limits.cap(member):
            raise HostError(f"limit.private.{member.value}", max=limits.cap(member))
        return
    refuse_over(member, limits, await storage.count_games(interaction.guild_id, status,
                                                         host_id=interaction.user.id))
    refuse_over(server, limits, await storage.count_games(interaction.guild_id, status))


def may_organise(interaction: discord.Interaction, limits: Limits) -> bool:
    """Manage Server, or the server's organiser role (set with ``/config organiser``)."""
    if is_admin(interaction):
        return True
    role = limits.organiser_role_id
    member = interaction.user
    return role is not None and isinstance(member, discord.Member) and member.get_role(role) is not None


async def organises_all(interaction: discord.Interaction) -> bool:
    """May run every tournament of this server, whoever created it (co-organisers): Manage Server, or the server's
    organiser role."""
    return interaction.guild_id is not None and may_organise(interaction, await server_limits(interaction))


def refuse_unless_organiser(interaction: discord.Interaction, limits: Limits) -> None:
    if not may_organise(interaction, limits):
        role = limits.organiser_role_id
        raise HostError("limit.organiser" if role is None else "limit.organiser_role", role=f"<@&{role}>")


def refuse_tournament_size(limits: Limits, bots: int, rounds: int | None) -> None:
    """A tournament's bot entrants and rounds within the server's caps."""
    if bots > limits.tournament_bots:
        raise HostError("limit.tournament_bots", max=limits.tournament_bots)
    if rounds is not None and rounds > limits.tournament_rounds:
        raise HostError("limit.tournament_rounds", max=limits.tournament_rounds)
