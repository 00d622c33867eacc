"""What every cog shares: the one place errors become ephemeral replies, and the base of
every persistent control (a ``DynamicItem`` whose ``custom_id`` holds the game id and version)."""
from __future__ import annotations

import math
from collections.abc import Mapping

import discord
from discord import app_commands

from bot import literal, render
from bot.acknowledge import Acknowledgement
from bot.client import GameHostBot
from bot.errors import HostError
from bot.games import games
from bot.i18n import language, t
from bot.replies import NO_MENTIONS, reply, reply_error
from bot.storage import GameStatus
from bot.table import Table

__all__ = ["public_language", "game_choices", "NO_MENTIONS", "reply", "reply_error", "as_host", "host", "GameItem",
           "names_for", "board_embed", "is_admin", "check_server", "deadline_mark"]


def deadline_mark(table: Table) -> str | None:
    """When the decision now due runs out, as a Discord timestamp each reader's client counts down in their own
    language (``<t:…:R>``: "in 2 minutes"); the absolute time, so an edited message stays right. None while no
    clock runs (no timer, bots deciding, a paused table, a held clock, a table not running): never a wrong one."""
    deadline = table.row.deadline
    if deadline is None or table.status is not GameStatus.RUNNING or table.paused or table.clock_paused:
        return None
    return f"<t:{math.ceil(deadline)}:R>"


def game_choices() -> list[app_commands.Choice[str]]:
    """Every registered game as a slash-command choice, labelled with its name (localised by the Translator)."""
    return [app_commands.Choice(name=t(f"game.{g}.name", "en"), value=g) for g in games()]


def as_host(client: discord.Client) -> GameHostBot:
    """The bot with its shared parts (storage, services, the one way out): the cogs are loaded only by a
    ``GameHostBot``, and a client that is not one is refused here rather than failing later on a missing part."""
    if not isinstance(client, GameHostBot):
        raise TypeError(f"the cogs run in a GameHostBot, not a {type(client).__name__}")
    return client


def host(interaction: discord.Interaction) -> GameHostBot:
    return as_host(interaction.client)


def select_values(interaction: discord.Interaction) -> list[str]:
    """The values a select's interaction carries, as text (none for any other payload); never trusted: the caller
    keeps only those its select offers."""
    data: Mapping[str, object] = interaction.data or {}
    values = data.get("values")
    return [str(v) for v in values] if isinstance(values, list) else []


async def public_language(interaction: discord.Interaction) -> str:
    """The language of a server's public messages: set with /config language, else the server's own locale."""
    if interaction.guild_id is not None:
        chosen = await host(interaction).storage.guild_language(interaction.guild_id)
        if chosen:
            return chosen
    return language(interaction.guild_locale or interaction.locale)


def check_server(interaction: discord.Interaction, guild_id: int | None) -> None:
    """A table or tournament is acted on only from its own server (a forged custom_id or table number names one of
    another server; its permissions would be read from the wrong server). One without a server stays open."""
    if guild_id is not None and guild_id != interaction.guild_id:
        raise HostError("other_server")


def check_where(interaction: discord.Interaction, table: Table) -> None:
    """A table's controls act only where it is: its channel, its thread and its lobby's channel (a DM table's, only
    in that DM). A press from anywhere else carries a custom_id copied or forged onto another message."""
    check_server(interaction, table.row.guild_id)
    if interaction.channel_id not in table.place.channel_ids:
        raise HostError("table_elsewhere", game_id=table.id)


class GameItem(discord.ui.DynamicItem[discord.ui.Item], template=r"gh:never"):
    """Base of persistent controls: ``run`` does the work, once the table (or tournament) the control names is
    known to belong to the clicker's server; every error is answered ephemerally."""

    game_id: int
    anywhere = False  # it acts on the table from wherever the person may look at it (looking back), not only there

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            async with host(interaction).backlog.handling(interaction, self.acknowledgement(interaction)):
                await self.check_where(interaction)
                await self.run(interaction)
        except Exception as error:  # the single error boundary for controls
            await reply_error(interaction, error)
        if interaction.guild_id is None:  # a DM table: this press's token shows what follows (refused or not)
            from .private_table import carry_press  # (it builds on this module)
            try:
                await carry_press(interaction, self.game_id)
            except Exception as error:  # a press whose table cannot be read: nothing to carry
                await reply_error(interaction, error)

    def acknowledgement(self, interaction: discord.Interaction) -> Acknowledgement | None:
        """The deferral that stands for this control's answer when the process is behind (``bot.acknowledge``);
        None: never deferred first (its answer is a modal, or it defers itself)."""
        return None

    async def check_where(self, interaction: discord.Interaction) -> None:
        """What the control acts on is acted on from here: its table's server (``anywhere``), else where the table
        is (``check_where``); a tournament's control says its own."""
        table = await host(interaction).service.table(self.game_id)
        if self.anywhere:
            check_server(interaction, table.row.guild_id)
        else:
            check_where(interaction, table)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Other bots' clicks are ignored; every other check (seat, turn, version) answers with a message."""
        return not interaction.user.bot

    async def run(self, interaction: discord.Interaction) -> None:
        raise NotImplementedError


def names_for(table: Table, locale: object | None = None) -> render.Names:
    """The seats' names as Discord markdown shows them literally; ``.plain()`` for labels, footers, alt text and
    pictures (where Discord shows text as is)."""
    return render.seat_names(table.seats, table.row.locale if locale is None else locale, literal.markdown)


def board_embed(table: Table, locale: object | None) -> discord.Embed:
    """The public board: rendered from the spectator view only (its footer with the names as written: Discord
    shows a footer as is)."""
    view, names = table.view(None), names_for(table, locale)
    board = render.board(table.row.game, view, names, locale)
    embed = discord.Embed(title=board.title, description="\n".join(board.lines), colour=0x8E44AD)
    if board.footer:
        embed.set_footer(text=render.board(table.row.game, view, names.plain(), locale).footer)
    embed.set_author(name=t("common.table_number", locale, id=table.id, move=table.moves))
    return embed


def is_admin(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction, "permissions", None)
    return bool(perms and (perms.manage_guild or perms.administrator))

