"""The running table in the channel: the board message kept current, public events, turn pings,
and ``/game status|leave|end``."""
from __future__ import annotations

import asyncio
import io
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import render
from bot.errors import HostError
from bot.i18n import t
from bot.table import Table, Update

from .common import NO_MENTIONS, board_embed, host, is_admin, names_for, reply
from .controls import PERSISTENT_ITEMS, BackButton, HandButton, game_module
from .lobby import lobby_embed, lobby_view

log = logging.getLogger(__name__)


def board_view(table: Table, locale: object | None, *, public_controls: bool = False) -> discord.ui.View | None:
    """My hand, plus (on turn messages) the game's public buttons such as a dice roll."""
    if table.status != "running":
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(HandButton(table.id, locale))
    extra = getattr(game_module(table.row.game), "public_controls", None)
    if public_controls and extra is not None:
        for item in extra(table, locale):
            view.add_item(item)
    return view


async def board_image(table: Table, locale: object | None) -> discord.File | None:
    """The board picture for games that have one, rendered in a worker thread (never on the event loop)."""
    draw = getattr(render.game_module(table.row.game), "image", None)
    if draw is None:
        return None
    png = await asyncio.to_thread(draw, table.view(None), names_for(table, locale), locale)
    return discord.File(io.BytesIO(png), filename="board.png", description=t("board.image_alt", locale))


async def board_message_kwargs(table: Table, locale: object | None) -> dict[str, Any]:
    embed = board_embed(table, locale)
    kwargs: dict[str, Any] = {"embed": embed, "view": board_view(table, locale)}
    image = await board_image(table, locale)
    if image is not None:
        embed.set_image(url="attachment://board.png")
        kwargs["attachments"] = [image]
    return kwargs


class TableCog(commands.Cog):
    """Keeps every table's channel in step with the game."""

    game = app_commands.Group(name="game", description="The table in this channel", guild_only=True)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        host_bot = bot  # the GameHostBot
        host_bot.service.subscribe(self.on_update)  # type: ignore[attr-defined]

    # ---- the channel side of every update ------------------------------------------
    async def on_update(self, update: Update) -> None:
        table = update.table
        channel = self.bot.get_partial_messageable(table.row.channel_id, guild_id=table.row.guild_id)
        locale = table.row.locale
        if update.kind == "lobby":
            if table.row.lobby_message_id:
                await channel.get_partial_message(table.row.lobby_message_id).edit(
                    embed=lobby_embed(table, locale), view=lobby_view(table, locale))
            return
        if update.kind == "warning":
            await self.post_warning(channel, table, update, locale)
            return
        if update.kind == "started":
            if table.row.lobby_message_id:
                await channel.get_partial_message(table.row.lobby_message_id).edit(
                    content=t("lobby.started", locale), embed=lobby_embed(table, locale), view=None)
            kwargs = await board_message_kwargs(table, locale)
            files = kwargs.pop("attachments", [])
            message = await channel.send(**kwargs, files=files, allowed_mentions=NO_MENTIONS)
            await self.bot.service.set_message(table, board_message_id=message.id)  # type: ignore[attr-defined]
        elif table.row.board_message_id and update.version == table.version:
            await channel.get_partial_message(table.row.board_message_id).edit(
                **await board_message_kwargs(table, locale))
        await self.post_events(channel, table, update, locale)

    async def post_events(self, channel: discord.PartialMessageable, table: Table, update: Update,
                          locale: str) -> None:
        names = names_for(table, locale)
        lines = [line for ev in update.events if ev.visible_to is None
                 and (line := render.event_line(table.row.game, ev, names, locale))]
        view = None
        seat = table.seat_of(update.actor) if update.actor else None
        if update.kind == "timeout" and seat is not None:
            lines.insert(0, t("table.timed_out", locale, player=names(update.actor)))
            if seat.away:
                lines.append(t("table.seat_away", locale, player=names(update.actor)))
                view = discord.ui.View(timeout=None)
                view.add_item(BackButton(table.id, locale))
        if update.kind == "seats" and seat is not None:
            lines.append(t("table.seat_to_bot" if seat.is_bot else "table.seat_back", locale,
                           player=names(update.actor)))
            if seat.is_bot and table.status == "running":
                view = discord.ui.View(timeout=None)
                view.add_item(BackButton(table.id, locale))
        if update.kind == "ended" and table.status == "cancelled":
            lines.append(t("table.abandoned" if update.reason == "abandoned" else "table.cancelled", locale,
                           id=table.id))
        mention_ids: list[int] = []
        if table.status == "running" and update.version == table.version and view is None:
            mention_ids = table.user_ids_to_act()
            if mention_ids:
                lines.append(t("table.your_turn", locale, players=" ".join(f"<@{u}>" for u in mention_ids)))
                view = board_view(table, locale, public_controls=True)
        if not lines:
            return
        await channel.send("\n".join(lines)[:2000], view=view,
                           allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in mention_ids],
                                                                    everyone=False, roles=False))

    async def post_warning(self, channel: discord.PartialMessageable, table: Table, update: Update,
                           locale: str) -> None:
        if update.version != table.version or table.row.deadline is None:
            return
        users = table.user_ids_to_act()
        if not users:
            return
        seconds = max(0, round(table.row.deadline - self.bot.service.clock()))  # type: ignore[attr-defined]
        await channel.send(t("table.time_warning", locale, players=" ".join(f"<@{u}>" for u in users),
                             seconds=seconds), view=board_view(table, locale),
                           allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in users],
                                                                    everyone=False, roles=False))

    # ---- /game ------------------------------------------------------------------------
    async def table_here(self, interaction: discord.Interaction, table_id: int | None) -> Table:
        service = host(interaction).service
        if table_id is not None:
            table = await service.table(table_id)
            if table.row.channel_id != interaction.channel_id:
                raise HostError("not_this_channel", game_id=table_id)
            return table
        tables = await service.tables_in_channel(interaction.channel_id or 0)
        mine = [tb for tb in tables if tb.seat_of_user(interaction.user.id)]
        if mine:
            return mine[0]
        if len(tables) == 1:
            return tables[0]
        if not tables:
            raise HostError("no_table_here")
        raise HostError("which_table", ids=", ".join(str(tb.id) for tb in tables))

    @game.command(name="status")
    @app_commands.describe(table="Table number (only needed when the channel has several)")
    async def status(self, interaction: discord.Interaction, table: int | None = None) -> None:
        """Show the board of the table in this channel, only to you."""
        tb = await self.table_here(interaction, table)
        if tb.status == "lobby":
            await reply(interaction, embed=lobby_embed(tb, interaction.locale))
        else:  # with My hand: a player reaches their hand even if the board message was lost or deleted
            await reply(interaction, embed=board_embed(tb, interaction.locale), view=board_view(tb, interaction.locale))

    @game.command(name="leave")
    async def leave(self, interaction: discord.Interaction) -> None:
        """Leave your table here: a lobby seat is freed, a running seat is taken over by a bot."""
        tb = await self.table_here(interaction, None)
        if tb.seat_of_user(interaction.user.id) is None:
            raise HostError("not_seated")
        service = host(interaction).service
        if tb.status == "lobby":
            await service.leave_lobby(tb.id, interaction.user.id)
        else:
            await service.hand_to_bot(tb.id, interaction.user.id)
        await reply(interaction, t("table.left", interaction.locale, id=tb.id))

    @game.command(name="kick")
    @app_commands.describe(player="The player to remove",
                           table="Table number (only needed when the channel has several)")
    async def kick(self, interaction: discord.Interaction, player: discord.User, table: int | None = None) -> None:
        """Remove a player from the table here (its host, or Manage Server); a bot takes a running seat."""
        tb = await self.table_here(interaction, table)
        await host(interaction).service.kick(tb.id, interaction.user.id, player.id, is_admin=is_admin(interaction))
        await reply(interaction, t("table.kicked", interaction.locale, player=player.display_name, id=tb.id))

    @game.command(name="timer")
    @app_commands.describe(seconds="Seconds per decision before a bot moves for an absent player (0 = no timer)",
                           table="Table number (only needed when the channel has several)")
    async def timer(self, interaction: discord.Interaction, seconds: app_commands.Range[int, 0, 3600],
                    table: int | None = None) -> None:
        """Change the time per decision at the table here (its host, or Manage Server)."""
        tb = await self.table_here(interaction, table)
        await host(interaction).service.set_turn_seconds(tb.id, interaction.user.id, seconds,
                                                         is_admin=is_admin(interaction))
        await reply(interaction, t("table.timer_set", interaction.locale, seconds=seconds, id=tb.id))

    @game.command(name="end")
    @app_commands.describe(table="Table number (only needed when the channel has several)")
    async def end(self, interaction: discord.Interaction, table: int | None = None) -> None:
        """End the table here (its host, or anyone with Manage Server)."""
        tb = await self.table_here(interaction, table)
        await host(interaction).service.end(tb.id, interaction.user.id, is_admin=is_admin(interaction))
        await reply(interaction, t("table.ended", interaction.locale, id=tb.id))


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(*PERSISTENT_ITEMS)
    await bot.add_cog(TableCog(bot))
