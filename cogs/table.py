"""The running table in the channel: the board message kept current, public events, turn pings,
and ``/game status|leave|end|record`` (``record``: ``cogs/record.py``)."""
from __future__ import annotations

import asyncio
import logging
import time

import discord
from discord import app_commands
from discord.ext import commands

from bot import literal
from bot.client import GameHostBot
from bot.delivery import Delivery
from bot.errors import HostError
from bot.i18n import t
from bot.refusals import RefusalBudget
from bot.storage import GameStatus
from bot.table import Table, Update, UpdateKind

from .board import board_view
from .common import as_host, board_embed, check_server, host, is_admin, reply
from .controls import PERSISTENT_ITEMS, hand_message, redraw_files
from .custom_ids import valid_id
from .live_hands import LiveHands
from .lobby import lobby_embed
from .look_back import check_round_secret
from .outbox import TableOutbox
from .paused import PAUSED_ITEMS, paused_view
from .record import RevealButton, send_record
from .review import REVIEW_ITEMS, open_viewer
from .share import ShareButton, revoke_links
from .stale_hand import answer_stale_hand_control
from .table_events import TableEvents
from .table_result import RematchButton

log = logging.getLogger(__name__)
PING_CHOICES = [app_commands.Choice(name="on", value="on"), app_commands.Choice(name="off", value="off")]


class TableCog(commands.Cog):
    """Keeps every table's channel in step with the game."""

    game = app_commands.Group(name="game", description="The table in this channel")

    flush_seconds = 10.0  # how long a shutdown waits for the writers before stopping them

    def __init__(self, bot: GameHostBot) -> None:
        self.bot = bot
        self.outboxes: dict[int, TableOutbox] = {}
        self.delivery: Delivery = bot.delivery  # the one way out
        self.hands = LiveHands(bot, hand_message, redraw_files)
        bot.stale_control = answer_stale_hand_control
        bot.service.subscribe(self.on_update)

    @property
    def refusals(self) -> RefusalBudget:
        """Discord's refusals of every writer of the bot together (the delivery's budget)."""
        return self.delivery.budget

    # ---- the channel side of every update ------------------------------------------
    async def on_update(self, update: Update) -> None:
        """Never waits for Discord: the table's own writer brings its channel up to date."""
        if update.kind is not UpdateKind.CLOCK or update.table.row.deadline is not None:
            self.outbox(update.table.id).push(update)
        if update.kind not in (UpdateKind.WARNING, UpdateKind.LOBBY):  # CLOCK: hand views show the deadline
            self.hands.changed(update.table)

    def _writer_done(self, box: TableOutbox) -> None:
        """An ended table's writer has shown everything (result, end line, thread archived): it leaves memory (an
        update after that, if any, gets a new writer)."""
        if self.outboxes.get(box.game_id) is box:
            del self.outboxes[box.game_id]

    def outbox(self, game_id: int) -> TableOutbox:
        box = self.outboxes.get(game_id)
        if box is None:
            box = self.outboxes[game_id] = TableOutbox(self.bot, game_id, self._writer_done)
        return box

    async def cog_load(self) -> None:
        """At start-up, before turn timers resume: every table whose players may not have seen everything gets its
        board, turn ping, result and tidy end from the stored table (``TableOutbox.restore``)."""
        service = self.bot.service
        ids = await service.tables_to_show()
        for game_id in ids:
            await self.outbox(game_id).restore(await service.table(game_id))
        if ids:
            log.info("restoring what the players see at %d tables", len(ids))

    async def flush(self) -> None:
        """Shutdown: give the writers up to ``flush_seconds`` to finish what they can (a writer waiting out a
        refusal's backoff cannot), then stop them before storage closes; what they did not write is written after
        the next start, from the stored table."""
        boxes = list(self.outboxes.values())
        give_up = time.monotonic() + self.flush_seconds
        while any(box.writing() for box in boxes) and time.monotonic() < give_up:
            await asyncio.sleep(0.05)
        busy = sum(box.pending() for box in boxes)
        if busy:
            log.warning("shutdown: %d table writers had more to show; they go on after the next start", busy)
        for box in boxes:
            await box.stop()

    # ---- /game ------------------------------------------------------------------------
    async def table_here(self, interaction: discord.Interaction, table_id: int | None) -> Table:
        service = host(interaction).service
        if table_id is not None:
            table = await service.table(table_id)
            check_server(interaction, table.row.guild_id)
            if interaction.channel_id not in table.place.channel_ids:
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
        raise HostError("which_table", ids=[tb.id for tb in tables])  # listed in the reader's language

    @game.command(name="status")
    @app_commands.describe(table="Table number (only needed when the channel has several)")
    async def status(self, interaction: discord.Interaction, table: int | None = None) -> None:
        """Show the board of the table in this channel, only to you."""
        if table is not None and valid_id(table):  # a same-deal round's table asked for by number, from anywhere
            named = await host(interaction).service.table(table)
            check_server(interaction, named.row.guild_id)
            await check_round_secret(interaction, named)
        try:  # after the end: the last result here rather than "no table"
            tb = await self.table_here(interaction, table)
        except HostError as exc:
            last = await host(interaction).service.last_finished_in_channel(interaction.channel_id or 0)
            if exc.code != "no_table_here" or last is None:
                raise
            await check_round_secret(interaction, last)
            await reply(interaction, t("table.last_result", interaction.locale, id=last.id),
                        embed=board_embed(last, interaction.locale))
            return
        await check_round_secret(interaction, tb)  # a same-deal round's board: for those seated there
        if tb.status is GameStatus.LOBBY:
            await reply(interaction, embed=lobby_embed(tb, interaction.locale))
        elif tb.paused:  # what the paused board says and offers: Resume, End table
            await reply(interaction, t("table.paused", interaction.locale, id=tb.id),
                        embed=board_embed(tb, interaction.locale), view=paused_view(tb, interaction.locale))
        else:  # with My hand: a player reaches their hand even if the board message was lost or deleted
            await reply(interaction, embed=board_embed(tb, interaction.locale), view=board_view(tb, interaction.locale))

    @game.command(name="leave")
    async def leave(self, interaction: discord.Interaction) -> None:
        """Leave your table here: a lobby seat is freed, a running seat is taken over by a bot."""
        tb = await self.table_here(interaction, None)
        if tb.seat_of_user(interaction.user.id) is None:
            raise HostError("not_seated")
        service = host(interaction).service
        if tb.status is GameStatus.LOBBY:
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
        await reply(interaction, t("table.kicked", interaction.locale, player=literal.markdown(player.display_name),
                                   id=tb.id))

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

    @game.command(name="pings")
    @app_commands.describe(mode="on: you are @mentioned once when your turn begins; off: only named")
    @app_commands.choices(mode=PING_CHOICES)
    async def pings(self, interaction: discord.Interaction, mode: str) -> None:
        """Turn your turn pings on or off (for every table; you are still named when it is your turn)."""
        await host(interaction).storage.set_mute_pings(interaction.user.id, mode == "off")
        await reply(interaction, t(f"table.pings_{mode}", interaction.locale))

    @game.command(name="end")
    @app_commands.describe(table="Table number (only needed when the channel has several)")
    async def end(self, interaction: discord.Interaction, table: int | None = None) -> None:
        """End the table here (its host, or anyone with Manage Server)."""
        tb = await self.table_here(interaction, table)
        await host(interaction).service.end(tb.id, interaction.user.id, is_admin=is_admin(interaction))
        await reply(interaction, t("table.ended", interaction.locale, id=tb.id))

    @game.command(name="record")
    @app_commands.describe(table="Number of the finished table")
    async def record(self, interaction: discord.Interaction, table: int) -> None:
        """Get a finished table's game as a file to keep (only you see it)."""
        await send_record(interaction, table)

    @game.command(name="review")
    @app_commands.describe(table="Number of the finished table")
    async def review(self, interaction: discord.Interaction, table: int) -> None:
        """Step through a finished table's game, only for you."""
        await open_viewer(interaction, table)

    @game.command(name="unshare")
    @app_commands.describe(table="Number of the finished table")
    async def unshare(self, interaction: discord.Interaction, table: int) -> None:
        """Revoke the links to a finished table's replay page that you made (Manage Server: all of them)."""
        await revoke_links(interaction, table)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(*PERSISTENT_ITEMS, RematchButton, RevealButton, ShareButton, *REVIEW_ITEMS,
                          *PAUSED_ITEMS)
    tables = TableCog(as_host(bot))
    await bot.add_cog(tables)
    await bot.add_cog(TableEvents(tables.bot, tables))
