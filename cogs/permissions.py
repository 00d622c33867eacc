"""What the bot must be allowed to do where a table or a tournament plays, and the check that refuses a command
in a channel or thread where it is not (naming what is missing, in the reader's language)."""
from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.errors import HostError
from bot.permissions import SAME_DEAL_PERMISSIONS, TABLE_PERMISSIONS, TOURNAMENT_PERMISSIONS

__all__ = ["SAME_DEAL_PERMISSIONS", "TABLE_PERMISSIONS", "TOURNAMENT_PERMISSIONS", "missing", "missing_in_channel",
           "permission_names", "require"]
from bot.i18n import join_list, t

if TYPE_CHECKING:
    from discord.ext import commands

def needed_here(needed: tuple[str, ...], in_thread: bool) -> tuple[str, ...]:
    """In a thread, Discord asks for Send Messages in Threads instead of Send Messages."""
    if not in_thread:
        return needed
    return tuple(dict.fromkeys("send_messages_in_threads" if p == "send_messages" else p for p in needed))


def missing(perms: discord.Permissions, needed: tuple[str, ...], *, in_thread: bool = False) -> list[str]:
    return [p for p in needed_here(needed, in_thread) if not getattr(perms, p)]


def permission_names(names: list[str], locale: object | None) -> str:
    return join_list((t(f"perm.{name}", locale) for name in names), locale)


def require(interaction: discord.Interaction, needed: tuple[str, ...] = TABLE_PERMISSIONS,
            code: str = "missing_permissions") -> None:
    """Refuse the command when the bot lacks a permission it needs in this channel or thread. Discord sends the
    bot's own permissions there with every interaction (``app_permissions``)."""
    in_thread = isinstance(interaction.channel, discord.Thread) or (
        getattr(interaction.channel, "type", None) in (discord.ChannelType.public_thread,
                                                       discord.ChannelType.private_thread))
    lacking = missing(interaction.app_permissions, needed, in_thread=in_thread)
    if lacking:
        raise HostError(code, missing=permission_names(lacking, interaction.locale))


def missing_in_channel(bot: "commands.Bot", guild_id: int | None, channel_id: int,
                       needed: tuple[str, ...]) -> list[str]:
    """What the bot lacks in a channel, from the gateway's cache (roles, overwrites, the bot's member); empty when
    the cache does not know the channel."""
    guild = bot.get_guild(guild_id) if guild_id else None
    channel = guild.get_channel_or_thread(channel_id) if guild else None
    if guild is None or channel is None or guild.me is None:
        return []
    return missing(channel.permissions_for(guild.me), needed, in_thread=isinstance(channel, discord.Thread))
