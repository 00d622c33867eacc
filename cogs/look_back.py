"""What every way of looking back at a finished table shares (issue 42, items 4 and 6): review, ``/game record``
and Reveal follow one rule for who may look (``check_can_see``, ``all_hands_allowed``), read one cache of rebuilt
games, rebuild a game at most once at a time however many people ask together, and are opened under one
per-member cooldown (stepping a viewer is not: it is cheap once the game is rebuilt)."""
from __future__ import annotations

import time
import weakref

import discord
from discord import app_commands

from bot.errors import HostError
from bot.rebuilds import Rebuilds
from bot.replay import GameRecord, stored_record
from bot.review import ReplayCache, SteppedReplay
from bot.round_secrecy import kept_from
from bot.shares import shows_every_hand
from bot.table import Table

from .common import GameItem, host

LOOKS_PER_MINUTE = 6  # reviews, reveals and records one member may open a minute (each may rebuild a game)
MINUTE = 60.0


class LookBack:
    """One bot's rebuilt games (``bot.rebuilds.Rebuilds``: the bot's one cache, shared with its web side), and the
    members' cooldown buckets (discord.py's ``app_commands.Cooldown``; refilled ones dropped, so memory stays
    bounded by who looked back this minute)."""

    def __init__(self, games: Rebuilds | None = None) -> None:
        self.games = games if games is not None else Rebuilds()
        self.cache = self.games.cache
        self._buckets: dict[tuple[int | None, int], app_commands.Cooldown] = {}
        self._next_sweep = 0.0

    @property
    def rebuilds(self) -> int:
        """Games rebuilt since the start (the tests count them)."""
        return self.games.count

    async def rebuilt(self, record: GameRecord) -> SteppedReplay:
        """The game of ``record`` from the cache, else rebuilt off the event loop, once however many ask."""
        return await self.games.rebuilt(record)

    def hit(self, guild_id: int | None, user_id: int, now: float | None = None) -> None:
        """Count one opening, or refuse it (``look_back_cooldown``, with the seconds to wait) and count nothing."""
        now = time.time() if now is None else now
        if now >= self._next_sweep:
            self._next_sweep = now + MINUTE
            for key, bucket in list(self._buckets.items()):
                if bucket.get_tokens(now) == bucket.rate:
                    del self._buckets[key]
        bucket = self._buckets.setdefault((guild_id, user_id), app_commands.Cooldown(LOOKS_PER_MINUTE, MINUTE))
        retry_after = bucket.update_rate_limit(now)
        if retry_after:
            raise HostError("look_back_cooldown", max=LOOKS_PER_MINUTE, seconds=max(1, round(retry_after)))


_look_backs: weakref.WeakKeyDictionary[discord.Client, LookBack] = weakref.WeakKeyDictionary()


def look_back(client: discord.Client) -> LookBack:
    """This bot's look-back state (a restarted bot starts with none)."""
    found = _look_backs.get(client)
    if found is None:
        found = _look_backs[client] = LookBack(getattr(client, "rebuilds", None))
    return found


def opening(interaction: discord.Interaction) -> None:
    """A review, Reveal or record being opened: counted against the member's cooldown."""
    look_back(interaction.client).hit(interaction.guild_id, interaction.user.id)


class LookBackItem(GameItem, template=r"gh:never:look"):
    """A control that looks back at a finished table (review, Reveal): it answers wherever the person may see the
    table (``check_can_see``), not only where it played."""

    anywhere = True


def can_see(interaction: discord.Interaction, table: Table) -> bool:
    """Whether the clicker may look back at ``table``: someone who played there, or a member who can see the
    channel or thread it played in (its lobby's channel when the thread is not in the cache), as the cache holds
    their permissions; at a DM or group DM table, someone pressing from that DM or group DM (the bot cannot read
    its members: whoever presses there is one). A table whose channel is gone is open to its players only."""
    user = interaction.user
    if any(s.user_id == user.id for s in table.seats):
        return True
    if table.place.by_token:  # a DM or group DM: whoever presses from it is one of its members
        return interaction.channel_id in table.place.channel_ids
    if not isinstance(user, discord.Member):
        return False
    for channel_id in table.place.channel_ids:
        channel = interaction.client.get_channel(channel_id)
        if isinstance(channel, (discord.abc.GuildChannel, discord.Thread)):
            return channel.permissions_for(user).view_channel
    return False


def check_can_see(interaction: discord.Interaction, table: Table) -> None:
    """One rule for review, record and Reveal: a table of this server, played where the clicker can see; a table of
    a DM or group DM, for its players and, from that DM or group DM, its members. Each refusal says its reason."""
    if table.place.by_token:
        if not can_see(interaction, table):
            raise HostError("look_back_private", game_id=table.id)
        return
    if table.row.guild_id != interaction.guild_id:
        raise HostError("other_server")
    if not can_see(interaction, table):
        raise HostError("look_back_hidden", game_id=table.id)


async def check_round_secret(interaction: discord.Interaction, table: Table) -> None:
    """A same-deal tournament round's table while the round is played: only those seated there see it (its other
    tables hold the same cards), so anyone else is refused with why (``bot.round_secrecy``)."""
    if await kept_from(host(interaction).storage, table.id, interaction.user.id):
        raise HostError("same_deal_round_secret", game_id=table.id)


async def all_hands_allowed(interaction: discord.Interaction, table_id: int) -> bool:
    """Every hand may be shown once the game is over, but a tournament game's only once its round is over."""
    return await shows_every_hand(host(interaction).storage, table_id)


async def rebuilt_game(interaction: discord.Interaction, table_id: int) -> SteppedReplay:
    """A finished table's game from the cache, else read from storage and rebuilt (once at a time)."""
    cached = look_back(interaction.client).cache.get(table_id)
    if cached is not None:
        return cached
    record = await stored_record(host(interaction).storage, table_id)
    return await look_back(interaction.client).rebuilt(record)


def replay_cache(client: discord.Client) -> ReplayCache:
    """This bot's rebuilt games."""
    return look_back(client).cache
