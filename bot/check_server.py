"""The token part of ``python -m bot check``: log in over HTTP only (no gateway) and ask Discord about this bot —
its servers, the privileged intents its code asks for against the application's flags, and with a channel the
permissions every feature needs there (computed from the fetched guild, roles, member and channel overwrites)."""
from __future__ import annotations

from typing import Any, Optional

import discord

from .check import Finding
from .i18n import t
from .permissions import TOURNAMENT_PERMISSIONS

NEEDED_PERMISSIONS = TOURNAMENT_PERMISSIONS  # tables, board pictures, restarts, tournaments and table threads
PRIVILEGED_INTENTS = {  # intent → the application flags that allow it (full or "limited", under 100 servers)
    "members": ("gateway_guild_members", "gateway_guild_members_limited"),
    "presences": ("gateway_presence", "gateway_presence_limited"),
    "message_content": ("gateway_message_content", "gateway_message_content_limited"),
}


async def server_findings(token: str, channel_id: Optional[int], lang: str,
                          client: Optional[discord.Client] = None) -> list[Finding]:
    from .client import bot_intents

    client = client or discord.Client(intents=bot_intents())
    try:
        try:
            await client.login(token)
        except discord.LoginFailure:
            return [Finding(False, t("check.login_failed", lang), t("check.login_fix", lang))]
        findings = [Finding(True, t("check.logged_in", lang, name=str(client.user)))]
        findings += await guild_findings(client, lang)
        findings += await intent_findings(client, lang)
        if channel_id is not None:
            findings += await channel_findings(client, channel_id, lang)
        return findings
    finally:
        await client.close()


async def guild_findings(client: discord.Client, lang: str) -> list[Finding]:
    guilds = [guild async for guild in client.fetch_guilds(limit=None)]
    if not guilds:
        return [Finding(False, t("check.no_guilds", lang), t("check.invite_fix", lang))]
    names = ", ".join(f"{g.name} ({g.id})" for g in guilds)
    return [Finding(True, t("check.guilds", lang, count=len(guilds), names=names))]


async def intent_findings(client: discord.Client, lang: str) -> list[Finding]:
    """Each privileged intent the code asks for must be switched on for the application (else login is refused
    at the gateway with 4014); none asked for is a pass."""
    flags = (await client.application_info()).flags
    wanted = [name for name in PRIVILEGED_INTENTS if getattr(client.intents, name)]
    if not wanted:
        return [Finding(True, t("check.intents_none", lang))]
    return [Finding(any(getattr(flags, flag) for flag in PRIVILEGED_INTENTS[name]),
                    t("check.intent", lang, intent=name), t("check.intent_fix", lang, intent=name))
            for name in wanted]


async def channel_findings(client: discord.Client, channel_id: int, lang: str) -> list[Finding]:
    channel = await fetch_guild_channel(client, channel_id)
    if channel is None:
        return [Finding(False, t("check.channel_unknown", lang, id=channel_id), t("check.channel_fix", lang))]
    assert client.user is not None
    member = await channel.guild.fetch_member(client.user.id)
    permissions = channel.permissions_for(member)
    return [Finding(getattr(permissions, name),
                    t("check.permission", lang, permission=t(f"perm.{name}", lang), channel=channel.name),
                    t("check.permission_fix", lang, permission=t(f"perm.{name}", lang), channel=channel.name))
            for name in NEEDED_PERMISSIONS]


async def fetch_guild_channel(client: discord.Client, channel_id: int) -> Optional[Any]:
    """The channel with its real guild (roles included), so ``permissions_for`` sees roles and overwrites."""
    try:
        data = await client.http.get_channel(channel_id)
    except (discord.NotFound, discord.Forbidden):
        return None
    # discord.py builds channel objects from raw payloads only through this private factory
    factory, _ = discord.channel._guild_channel_factory(data["type"])
    guild_id = data.get("guild_id")
    if factory is None or guild_id is None:
        return None
    guild = await client.fetch_guild(int(str(guild_id)))
    return factory(state=client._connection, guild=guild, data=data)
