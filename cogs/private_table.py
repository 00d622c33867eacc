"""A table outside a server: ``/play <game> bots:N`` in a DM with the bot (installed to the person's account) plays a
whole game there against bots, carried by interaction tokens (``outbox_token``).

The table is stored as in a server (a lobby, its bot seats, the start, every move in the log), with no server and the
DM as its channel (``bot.place``: ``PlaceKind.PRIVATE``). Every press on its controls hands its token to the table's
writer (:func:`carry_press`), which shows what follows with it. In a group DM ``/play`` opens a lobby as in a server
(people join, add bots, start) on the same footing; a person's own install used in a server that has not added the
bot is refused with why (:func:`table_place`)."""
from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.errors import HostError
from bot.i18n import language
from bot.limits import Limits
from bot.place import PlaceKind
from bot.storage import BotLevel, GameStatus
from bot.table import Table
from engines import Json, get_engine

from .common import host
from .limits import count_creation, room_for
from .outbox_token import Carrier

if TYPE_CHECKING:
    from .table import TableCog

def table_place(interaction: discord.Interaction) -> PlaceKind:
    """Where a ``/play`` here would open its table, or why it cannot."""
    if interaction.guild_id is not None:
        if not interaction.is_guild_integration():
            raise HostError("server_without_bot")  # a person's own install: the bot cannot write in this server
        return PlaceKind.CHANNEL  # (or its thread: ``table_thread.thread_plan``)
    return PlaceKind.PRIVATE


def in_group_dm(interaction: discord.Interaction) -> bool:
    return bool(interaction.context.private_channel)


async def open_private_table(interaction: discord.Interaction, game: str, options: Json, bots: int,
                             timer: int, level: BotLevel) -> None:
    """The person and ``bots`` bots, started at once: its first board fills this command's "thinking…"."""
    engine = get_engine(game)
    if 1 + bots < engine.min_players:
        raise HostError("dm_needs_bots", min=engine.min_players - 1)
    service, user = host(interaction).service, interaction.user
    async with room_for(interaction, Limits(), GameStatus.RUNNING):  # a person's tables outside servers, bounded
        count_creation(interaction, Limits())  # the per-person cooldown, as in a server
        try:
            await interaction.response.defer(thinking=True)
        except discord.HTTPException:  # Discord lost the interaction: nothing was created
            raise HostError("lobby_not_shown") from None
        assert interaction.channel_id is not None
        table = await service.create_lobby(
            game=game, guild_id=None, channel_id=interaction.channel_id, user_id=user.id, name=user.display_name,
            options=options, locale=language(interaction.locale), turn_seconds=timer)
        for _ in range(min(bots, engine.max_players - 1)):
            await service.add_bot(table.id, user.id, level)
        tables_cog(interaction).outbox(table.id).carry(carrier(interaction))  # before the start: the board uses it
        await service.start(table.id, user.id)
    interaction.extras["committed"] = "start"


def tables_cog(interaction: discord.Interaction) -> "TableCog":
    from .table import TableCog  # the table cog imports this module

    cog = host(interaction).get_cog("TableCog")
    assert isinstance(cog, TableCog)  # the table cog is loaded with the bot
    return cog


def carried_here(interaction: discord.Interaction, table: Table) -> bool:
    place = table.place
    return place.by_token and place.channel_id == interaction.channel_id


async def carry_press(interaction: discord.Interaction, game_id: int) -> None:
    """A press in a DM on a table's control, answered: its token carries what that table shows next (and what a
    Rematch opened there shows first)."""
    if interaction.guild_id is not None or not interaction.response.is_done() or interaction.channel_id is None:
        return
    service = host(interaction).service
    try:
        tables = [await service.table(game_id), *await service.tables_in_channel(interaction.channel_id)]
    except HostError:
        return  # a forged control naming no table
    press = carrier(interaction)
    for table in {t.id: t for t in tables if carried_here(interaction, t)}.values():
        tables_cog(interaction).outbox(table.id).carry(press, table if table.id == game_id else None)


def carrier(interaction: discord.Interaction) -> Carrier:
    """The press as a carrier of what follows, its token's age counted on the bot's delivery clock."""
    return Carrier(interaction, host(interaction).delivery)


async def adopt_board(interaction: discord.Interaction, table: Table) -> None:
    """A press on a DM table's board (or lobby) that no live token can edit any more (the table waited for a press,
    or the bot restarted), or that says the table waits (the tokens that edit it end before the clock it will show):
    acknowledged as an update of that message, so its token edits it into what the table shows now (the press's own
    answer then follows as a followup) rather than posting it again below, or leaving it behind live."""
    message = interaction.message
    if (not carried_here(interaction, table) or interaction.response.is_done() or message is None
            or message.flags.ephemeral or message.id not in (table.row.board_message_id, table.row.lobby_message_id)):
        return
    outbox = tables_cog(interaction).outbox(table.id)
    waits = message.id == table.row.board_message_id and outbox.board.waiting is not None
    if outbox.tokens.can_edit(message.id) and not waits:
        return  # (a board saying the table waits: the tokens that edit it end within a minute, before its clock)
    await interaction.response.defer()
