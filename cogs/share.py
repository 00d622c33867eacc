"""Links to a finished game's replay page outside Discord (issue 56): **Share** under a table's result answers,
only to whoever pressed it, a public link to the game's spectator view and — to someone who played there — a
link to their own seat's view, labelled "anyone with this link sees your hand". Where the table played out of
the server's public sight (a private thread or channel, a DM), only someone who sat at it is given links. A
server's moderators turn links to its games off with ``/config links off`` (every link already given stops
opening at once), and ``/game unshare`` revokes links. The pages themselves are ``bot.web``'s."""
from __future__ import annotations

import time
from typing import Any

import discord

from bot.errors import HostError
from bot.i18n import t
from bot.place import PlaceKind
from bot.shares import issue, shows_every_hand
from bot.storage import GameStatus
from bot.table import Table

from .common import GameItem, host, is_admin, reply
from .custom_ids import ID, valid_id
from .look_back import check_can_see, check_round_secret, opening


def publicly_seen(client: discord.Client, table: Table) -> bool:
    """Whether the table played where anyone in its server could read it: a channel (or a public thread in one)
    that the server's @everyone may view, as the cache holds it. A private thread or channel, a DM, or a channel
    the cache does not know counts as private."""
    if table.place.kind is PlaceKind.PRIVATE:
        return False
    channel = client.get_channel(table.place.channel_id)
    if isinstance(channel, discord.Thread) and channel.is_private():
        return False
    if not isinstance(channel, (discord.abc.GuildChannel, discord.Thread)):
        return False
    return channel.permissions_for(channel.guild.default_role).view_channel


def lifetime(settings: Any, locale: object) -> str:
    """How long a link opens, as it is (``WEB_LINK_DAYS`` is whole hours): days, or hours when not whole days."""
    days, hours = settings.link_lifetime()
    return t("share.lifetime_days", locale, days=days) if days else t("share.lifetime_hours", locale, hours=hours)


def link(base_url: str, token: str) -> str:
    return f"{base_url.rstrip('/')}/r/{token}"


async def share_links(interaction: discord.Interaction, table_id: int) -> None:
    """The links of a finished table for whoever asked (ephemeral): the spectator's, and their own seat's."""
    bot = host(interaction)
    settings = bot.settings
    if not settings.web_on():
        raise HostError("share_no_web")
    table = await bot.service.table(table_id)
    check_can_see(interaction, table)
    await check_round_secret(interaction, table)
    if table.status is not GameStatus.FINISHED:
        raise HostError("share_not_finished", game_id=table_id)
    if not await shows_every_hand(bot.storage, table_id):  # as /game record and Reveal: a round's tables may
        raise HostError("share_round_running", game_id=table_id)  # hold the same deal's secrets
    guild_id = table.row.guild_id
    if guild_id is not None and not await bot.storage.guild_web_links(guild_id):
        raise HostError("share_links_off")
    seat = next((s for s in table.seats if s.user_id == interaction.user.id), None)  # handed to a bot too
    if seat is None and not publicly_seen(interaction.client, table):
        raise HostError("share_private", game_id=table_id)
    opening(interaction)  # counted with reviews and records: each press makes new links
    base, days = settings.web_base_url or "", settings.web_link_days
    locale = interaction.locale
    public = await issue(bot.storage, table_id, None, interaction.user.id, days)
    lines = [t("share.public", locale, id=table_id, url=link(base, public), lifetime=lifetime(settings, locale))]
    if seat is not None:
        own = await issue(bot.storage, table_id, seat.seat, interaction.user.id, days)
        lines += ["", t("share.seat", locale, url=link(base, own))]
    lines += ["", t("share.revoke", locale, id=table_id)]
    await reply(interaction, "\n".join(lines))


async def revoke_links(interaction: discord.Interaction, table_id: int) -> None:
    """Revoke the links to a table: those the caller made, or, with Manage Server, every one."""
    if not valid_id(table_id):  # a typed number no table can have
        raise HostError("no_such_game", game_id=table_id)
    bot = host(interaction)
    table = await bot.service.table(table_id)
    check_can_see(interaction, table)
    everyone = is_admin(interaction)
    count = await bot.storage.revoke_shares(table_id, time.time(),
                                            created_by=None if everyone else interaction.user.id)
    key = "share.revoked_all" if everyone else "share.revoked"
    await reply(interaction, t(key if count else f"{key}_none", interaction.locale, id=table_id, count=count))


class ShareButton(GameItem, template=rf"gh:share:(?P<gid>{ID})"):
    """**Share** under a finished table's result (when the bot serves pages: ``WEB_BASE_URL``)."""

    def __init__(self, game_id: int, locale: object | None = None) -> None:
        super().__init__(discord.ui.Button(label=t("result.share", locale), emoji="🔗",
                                           style=discord.ButtonStyle.secondary, custom_id=f"gh:share:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any, match: Any) -> "ShareButton":
        return cls(int(match["gid"]), interaction.locale)

    async def run(self, interaction: discord.Interaction) -> None:
        await share_links(interaction, self.game_id)
