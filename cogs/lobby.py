"""``/play <game>`` opens a lobby: Join, Leave, Add bot, Start (host). The subcommands are generated from each
game's options model (``cogs.play_command``) and call ``open_lobby``."""
from __future__ import annotations

from contextlib import nullcontext
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_rules.limits import OPTION_DESCRIPTION, OPTION_LABEL, SELECT_OPTIONS
from bot.errors import HostError
from bot.games import controls_hooks
from bot.i18n import t
from bot.lengths import expected_minutes
from bot.policies import LEVELS, check_level
from bot.replies import fill_original, withdraw_original
from bot.storage import BotLevel, GameStatus
from bot.table import Table
from engines import BadOptions, EngineError, Json, get_engine

from .common import NO_MENTIONS, GameItem, host, names_for, public_language, select_values
from .custom_ids import ID, VERSION
from .limits import count_creation, room_for, server_limits
from .permissions import require
from .private_table import adopt_board, in_group_dm, open_private_table, table_place
from .table_thread import lobby_note, thread_plan

DEFAULT_TIMER = 120
MAX_TIMER = 3600
TimerOption = app_commands.Range[int, 0, MAX_TIMER]
LOBBY_OPS = ("join", "leave", "start")
LEVEL_CHOICES = [app_commands.Choice(name=level.value, value=level.value) for level in LEVELS]
OP_STYLES = {"join": discord.ButtonStyle.success, "leave": discord.ButtonStyle.secondary,
             "bot": discord.ButtonStyle.secondary, "start": discord.ButtonStyle.primary,
             "quick": discord.ButtonStyle.primary}


def lobby_embed(table: Table, locale: object | None) -> discord.Embed:
    """The lobby: who sits (bots with their level) and, while it waits, how to start; once started, that it
    started (or ended), with who plays — never "waiting for players" after Start."""
    engine = table.engine
    names = names_for(table, locale)
    seats = "\n".join(
        t("lobby.seat_line", locale, number=s.seat + 1, name=names(s.player),
          tags=bot_tag(s, locale) + (" 👑" if s.user_id == table.row.host_id and not s.is_bot else ""))
        for s in table.seats)
    game = t(f"game.{table.row.game}.name", locale)
    stage = lobby_stage(table)
    if stage == "":
        seats = "\n".join([seats, *length_lines(table, locale)])
    embed = discord.Embed(title=t(f"lobby.title{stage}", locale, game=game, id=table.id), description=seats,
                          colour=0x2ECC71 if stage == "" else 0x95A5A6)
    if stage == "":
        embed.set_footer(text=t("lobby.footer", locale, min=engine.min_players, max=engine.max_players,
                                count=len(table.seats)) + " · " + timer_text(table.row.turn_seconds, locale)
                         + length_text(table, locale))
    else:
        embed.set_footer(text=t(f"lobby.footer{stage}", locale, count=len(table.seats), id=table.id))
    return embed


def timer_text(seconds: int, locale: object | None) -> str:
    """The table's time per decision, as the lobby shows it before Start."""
    return t("lobby.timer", locale, seconds=seconds) if seconds > 0 else t("lobby.no_timer", locale)


def lobby_seats(table: Table) -> tuple[int, list[BotLevel]]:
    """The people and the bots' levels a length is expected for: the seats so far, seats missing to the game's
    minimum counted as people (who take longer than bots)."""
    bots = [seat.level for seat in table.seats if seat.is_bot]
    return max(len(table.seats), table.engine.min_players) - len(bots), bots


def start_labels(table: Table, locale: object | None) -> dict[str, str]:
    """Start and the quick start side by side, each with the length it deals and its expected minutes for the
    seats so far (the game's ``length_label``), so that the long game is a choice; none without the hook."""
    hooks = controls_hooks(table.row.game)
    if hooks.length_label is None or hooks.quick_options is None:
        return {}
    people, bots = lobby_seats(table)
    full = hooks.length_label(table.row.options, people, bots, locale)
    quick = hooks.length_label(hooks.quick_options(table.row.options), people, bots, locale)
    if full is None or quick is None:
        return {}
    return {"start": t("lobby.button.start_as", locale, length=full),
            "quick": t("lobby.button.quick_as", locale, length=quick)}


def length_lines(table: Table, locale: object | None) -> list[str]:
    """The game's lines on the match's length under the seats (Twin Pyramid: the lengths it offers), if any."""
    lines = controls_hooks(table.row.game).length_lines
    return [] if lines is None else ["", *lines(table.row.options, *lobby_seats(table), locale)]


def length_text(table: Table, locale: object | None) -> str:
    """The footer's " · about N minutes": the measured length for the seats so far and the table's options; empty
    where nothing was measured."""
    people, bots = lobby_seats(table)
    minutes = expected_minutes(table.row.game, table.row.options, people, bots)
    return "" if minutes is None else " · " + t("lobby.length", locale, minutes=minutes)


def lobby_stage(table: Table) -> str:
    """The suffix of the lobby's catalog keys: "" while it waits, "_started", "_over" (finished) or "_closed"."""
    if table.status is GameStatus.LOBBY:
        return ""
    if table.status is GameStatus.RUNNING:
        return "_started"
    return "_over" if table.status is GameStatus.FINISHED else "_closed"


def bot_tag(seat: Any, locale: object | None) -> str:
    """🤖 and, for a bot added as such, its level (a person's stand-in plays normal and shows no level)."""
    if not seat.is_bot:
        return ""
    if seat.user_id is not None:
        return " 🤖"
    return t("lobby.bot_tag", locale, level=t(f"bot.level.{seat.level}", locale))


def lobby_view(table: Table, locale: object | None) -> discord.ui.View:
    """Join, Leave, Start (and the game's quick start when the lobby offers one); below them one Add bot button
    per level (one click adds a bot of that level)."""
    view = discord.ui.View(timeout=None)
    hooks = controls_hooks(table.row.game)
    offered = hooks.quick_offered
    quick = offered is not None and offered(table.row.options, *lobby_seats(table))
    labels = start_labels(table, locale) if quick else {}
    for op in LOBBY_OPS:
        view.add_item(LobbyButton(table.id, op, locale, label=labels.get(op)))
    if quick:
        view.add_item(LobbyButton(table.id, "quick", locale, label=labels.get("quick")))
    for level in LEVELS:
        view.add_item(LobbyButton(table.id, "bot", locale, level))
    names = names_for(table, locale).plain()  # select labels show text as is
    removable = [discord.SelectOption(label=t("lobby.remove_option", locale, name=names(s.player))[:OPTION_LABEL],
                                      value=s.player,
                                      description=bot_tag(s, locale).strip()[:OPTION_DESCRIPTION] or None)
                 for s in table.seats if s.is_bot or s.user_id != table.row.host_id]
    if removable:
        view.add_item(RemoveSelect(table.id, table.version, removable, t("lobby.remove_placeholder", locale)))
    return view


async def open_lobby(interaction: discord.Interaction, game: str, options: Json, bots: int,
                     timer: int = DEFAULT_TIMER, level: str = BotLevel.NORMAL) -> None:
    """Create the table, add ``bots`` bot seats (as many as fit) and post the lobby message.
    ``timer``: seconds per decision before a bot moves for an absent player (0 = no timer); ``level``: the bots'."""
    service = host(interaction).service
    private = not table_place(interaction).abilities.server
    if not private:
        require(interaction)
    # Discord's client enforces the options' ranges; a forged request does not, so check them here too.
    if not 0 <= timer <= MAX_TIMER:
        raise BadOptions(option="timer", reason=f"0–{MAX_TIMER}")
    if not 0 <= bots < get_engine(game).max_players:
        raise BadOptions(option="bots", reason=f"0–{get_engine(game).max_players - 1}")
    bot_level = check_level(level)
    if private and not in_group_dm(interaction):  # a DM with the bot: against bots, started at once
        await open_private_table(interaction, game, options, bots, timer, bot_level)
        return
    limits = await server_limits(interaction)
    async with room_for(interaction, limits, GameStatus.LOBBY):
        count_creation(interaction, limits)
        table, lacking = await _create_lobby(interaction, game, options, timer)
    for _ in range(min(bots, table.engine.max_players - 1)):
        await service.add_bot(table.id, interaction.user.id, bot_level)
    locale = table.row.locale
    try:
        message = await fill_original(
            interaction, content=lobby_note(lacking, locale) or discord.utils.MISSING,
            embed=lobby_embed(table, locale), view=lobby_view(table, locale), allowed_mentions=NO_MENTIONS)
    except discord.HTTPException:  # nobody can see this lobby: close it, so it blocks nobody's next /play
        await service.end(table.id, interaction.user.id, is_admin=True)
        raise HostError("lobby_not_shown") from None
    await service.set_message(table, lobby_message_id=message.id)


async def _create_lobby(interaction: discord.Interaction, game: str, options: Json,
                        timer: int) -> tuple[Table, list[str]]:
    """The lobby's table (and its thread plan), after the public "thinking…" that covers the database work."""
    try:
        await interaction.response.defer(thinking=True)  # the database and the bot seats come before the lobby
    except discord.HTTPException:  # Discord lost the interaction: nothing was created, nobody is blocked
        raise HostError("lobby_not_shown") from None
    in_thread, lacking = await thread_plan(interaction)
    assert interaction.channel_id is not None
    try:
        table = await host(interaction).service.create_lobby(
            game=game, guild_id=interaction.guild_id, channel_id=interaction.channel_id,
            user_id=interaction.user.id, name=interaction.user.display_name, options=options,
            locale=await public_language(interaction), turn_seconds=timer, open_thread=in_thread)
    except (HostError, EngineError):  # refused: the public "thinking…" goes, the refusal is shown only to them
        await withdraw_original(interaction)
        raise
    return table, lacking


class LobbyButton(GameItem,
                  template=rf"gh:lobby:(?P<gid>{ID}):(?P<op>join|leave|bot|start|quick)(?::(?P<level>easy|normal|strong))?"):
    def __init__(self, game_id: int, op: str, locale: object | None = None, level: str | None = None,
                 label: str | None = None) -> None:
        label = label or (t(f"lobby.button.{op}", locale) if level is None else
                          t("lobby.button.bot_level", locale, level=t(f"bot.level.{level}", locale)))
        super().__init__(discord.ui.Button(label=label, style=OP_STYLES[op], row=0 if level is None else 1,
                                           custom_id=f"gh:lobby:{game_id}:{op}" + (f":{level}" if level else "")))
        self.game_id, self.op, self.level = game_id, op, level

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item,
                             match: Any) -> "LobbyButton":
        return cls(int(match["gid"]), match["op"], interaction.locale, match["level"])

    async def run(self, interaction: discord.Interaction) -> None:
        service = host(interaction).service
        user = interaction.user
        await adopt_board(interaction, await service.table(self.game_id))  # a group DM's lobby no token edits
        if self.op == "join":
            await service.join(self.game_id, user.id, user.display_name)
        elif self.op == "leave":
            await service.leave_lobby(self.game_id, user.id)
        elif self.op == "bot":
            await service.add_bot(self.game_id, user.id, check_level(self.level or BotLevel.NORMAL))
        else:  # start, or the quick start: the game's quick length instead of the lobby's
            if table_place(interaction).abilities.server:  # (a group DM: written through presses only)
                require(interaction)
            table = await service.table(self.game_id)
            hosting = table.row.host_id == user.id  # anyone else: refused as not host
            quick = controls_hooks(table.row.game).quick_options if self.op == "quick" else None
            gate = (room_for(interaction, await server_limits(interaction), GameStatus.RUNNING) if hosting
                    else nullcontext())
            async with gate:
                await service.start(self.game_id, user.id, quick)
        started = self.op in ("start", "quick")
        interaction.extras["committed"] = "start" if started else "lobby"  # what a failed answer says
        # The lobby message itself is redrawn by the table cog's listener; acknowledge quietly.
        if not interaction.response.is_done():
            await interaction.response.defer()


class RemoveSelect(GameItem, template=rf"gh:lobbyrm:(?P<gid>{ID}):(?P<ver>{VERSION})"):
    """The host takes a bot or a person out of the lobby; anyone else is told only the host can. It carries the
    lobby's version: a choice made on a lobby that changed meanwhile (a bot's number reused) is refused."""

    def __init__(self, game_id: int, version: int, options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None) -> None:
        options = (options or [discord.SelectOption(label="?", value="?")])[:SELECT_OPTIONS]
        super().__init__(discord.ui.Select(custom_id=f"gh:lobbyrm:{game_id}:{version}", options=options,
                                           placeholder=placeholder, row=2))
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any, match: Any) -> "RemoveSelect":
        return cls(int(match["gid"]), int(match["ver"]), list(getattr(item, "options", [])) or None,
                   getattr(item, "placeholder", None))

    async def run(self, interaction: discord.Interaction) -> None:
        offered = {option.value for option in self.item.options}  # type: ignore[attr-defined]  # item is a Select
        chosen = [v for v in select_values(interaction) if v in offered]  # only what this select offers
        if not chosen:
            raise HostError("seat_gone")
        await host(interaction).service.remove_seat(self.game_id, interaction.user.id, chosen[0], self.version)
        interaction.extras["committed"] = "lobby"
        await interaction.response.defer()  # the lobby is redrawn by the table's writer


async def setup(bot: commands.Bot) -> None:
    from .play_command import play_group  # imported here: it builds on this module's open_lobby

    bot.add_dynamic_items(LobbyButton, RemoveSelect)
    bot.tree.add_command(play_group())


__all__ = ["open_lobby", "lobby_embed", "lobby_view", "HostError", "DEFAULT_TIMER", "TimerOption", "LEVEL_CHOICES"]
