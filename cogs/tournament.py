"""``/tournament``: create, sign up (Join / Leave / Check in buttons), start, and the organiser's tools. Each
table is an ordinary game of the host in its own thread, opened by the bot with the seated players mentioned;
the standings message in the tournament's channel follows every result; final standings are posted publicly."""
from __future__ import annotations

import asyncio
import logging
from typing import Any, Awaitable, Callable

import discord
from discord import app_commands
from discord.ext import commands

from bot import literal
from bot.errors import HostError, user_message
from bot.i18n import t
from bot.tournaments import Tournament, TournamentService, TournamentTable, TournamentUpdate
from bot.tournaments import text as tx
from bot.tournaments.formats import rules_of
from bot.tournaments.models import TournamentUpdateKind as Kind
from bot.tournaments.settings import MAX_BREAK, MAX_CHECKIN_MINUTES, MAX_TURN_SECONDS

from .common import NO_MENTIONS, GameItem, check_server, game_choices, is_admin, public_language, reply
from .custom_ids import ID, valid_id
from .limits import PEOPLE_TO_START, count_creation, refuse_tournament_size, refuse_unless_organiser, server_limits
from .lobby import LEVEL_CHOICES
from .outbox import REQUEST_TIMEOUT
from .permissions import TOURNAMENT_PERMISSIONS, missing_in_channel, permission_names, require
from .refusals import FAILURES, MISSING_ACCESS, MISSING_PERMISSIONS
from .tournament_controls import (
    NextRoundButton,
    live_tables,
    next_round_question,
    next_round_view,
    parse_ranking,
    tournaments,
)
from .tournament_writer import TournamentWriter

SIGNUP_OPS = ("join", "leave", "checkin")
OP_STYLES = {"join": discord.ButtonStyle.success, "leave": discord.ButtonStyle.secondary,
             "checkin": discord.ButtonStyle.primary}
WHICH = "Tournament number (only needed when the channel has several)"
log = logging.getLogger(__name__)


def signup_embed(tournament: Tournament, locale: object | None) -> discord.Embed:
    embed = discord.Embed(title="🏆 " + tx.title(tournament, locale),
                          description="\n".join(tx.signup_lines(tournament, locale)), colour=0xF1C40F)
    footer = "tournament.signup_footer" if tournament.status in ("signup", "checkin") else "tournament.entered_footer"
    embed.set_footer(text=t(footer, locale, id=tournament.id, count=len(tournament.entrants)))
    return embed


def signup_view(tournament: Tournament, locale: object | None) -> discord.ui.View | None:
    if tournament.status not in ("signup", "checkin"):
        return None
    view = discord.ui.View(timeout=None)
    for op in SIGNUP_OPS if tournament.status == "checkin" else SIGNUP_OPS[:2]:
        view.add_item(SignupButton(tournament.id, op, locale))
    return view


async def standings_embed(service: TournamentService, tournament: Tournament,
                          locale: object | None) -> discord.Embed:
    rows = await service.standings(tournament)
    embed = discord.Embed(title=tx.standings_title(tournament, locale),
                          description="\n".join(tx.standing_lines(tournament, rows, locale))[:4000], colour=0x3498DB)
    footer = "tournament.knockout_footer" if rules_of(tournament).advance else "tournament.standings_footer"
    embed.set_footer(text=t(footer, locale, id=tournament.id, advance=tournament.advance))
    return embed


class SignupButton(GameItem, template=rf"gh:tn:(?P<tid>{ID}):(?P<op>join|leave|checkin)"):
    def __init__(self, tournament_id: int, op: str, locale: object | None = None) -> None:
        super().__init__(discord.ui.Button(label=t(f"tournament.button.{op}", locale), style=OP_STYLES[op],
                                           custom_id=f"gh:tn:{tournament_id}:{op}"))
        self.tournament_id, self.op = tournament_id, op

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item,
                             match: Any) -> "SignupButton":
        return cls(int(match["tid"]), match["op"], interaction.locale)

    async def server_of(self, interaction: discord.Interaction) -> int | None:
        return (await tournaments(interaction).get(self.tournament_id)).guild_id

    async def run(self, interaction: discord.Interaction) -> None:
        service, user = tournaments(interaction), interaction.user
        if self.op == "join":
            await service.join(self.tournament_id, user.id, user.display_name)
        elif self.op == "leave":
            await service.leave(self.tournament_id, user.id)
        else:
            await service.check_in(self.tournament_id, user.id)
        await reply(interaction, t(f"tournament.done.{self.op}", interaction.locale))  # the message redraws itself


class TournamentCog(commands.Cog):
    """The tournament commands, the sign-up buttons and the channel side of every tournament change."""

    tournament = app_commands.Group(name="tournament", description="Community tournaments")

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        service: TournamentService = bot.tournaments  # type: ignore[attr-defined]  # a GameHostBot, typed as commands.Bot
        service.open_table = self.open_thread
        service.on_open_failing = self.tell_organiser
        tables = bot.get_cog("TableCog")  # loaded first: its refusal budget is the bot's, shared by every writer
        budget = getattr(tables, "refusals", None)
        self.writer = TournamentWriter(self.on_tournament, budget)  # Discord calls outside the tournament's lock
        service.subscribe(self._queue)

    async def _queue(self, update: TournamentUpdate) -> None:
        self.writer.push(update)

    # ---- the channel side ---------------------------------------------------------------
    async def open_thread(self, tournament: Tournament, table: TournamentTable) -> int:
        """A public thread per table, opened with the seated players mentioned (which also adds them to it)."""
        locale = tournament.locale
        channel = self.bot.get_channel(tournament.channel_id) or await self.bot.fetch_channel(tournament.channel_id)
        name = t("tournament.thread_name", locale, name=tx.title(tournament, locale, literal.plain),
                 round=table.round, table=table.number)  # Discord shows a thread's name as is
        assert isinstance(channel, discord.TextChannel)  # tournaments are created in a text channel
        thread = await channel.create_thread(
            name=name[:100], type=discord.ChannelType.public_thread, auto_archive_duration=1440)
        await self.point_to_replay(tournament, table, thread.id)
        entrants = [tournament.entrants[u] for u in table.players]
        await thread.send(
            t("tournament.table_intro", locale, round=table.round, table=table.number,
              players=" ".join(e.mention for e in entrants)),
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(e.user_id) for e in entrants
                                                            if not e.is_bot], everyone=False, roles=False))
        return thread.id

    async def point_to_replay(self, tournament: Tournament, table: TournamentTable, thread_id: int) -> None:
        """A replay of a voided table: the voided table's thread says where it is replayed (best effort: the new
        table opens whether or not the old thread can be written to)."""
        voided = next((tb for tb in tournament.tables if (tb.round, tb.number, tb.attempt)
                       == (table.round, table.number, table.attempt - 1)), None)
        if voided is None or voided.channel_id in (None, tournament.channel_id):
            return
        text = t("tournament.replayed_in", tournament.locale, table=voided.game_id, where=f"<#{thread_id}>")
        try:
            await self.bot.get_partial_messageable(voided.channel_id).send(text, allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as failure:
            log.warning("tournament %s: the voided table's thread was not told of its replay (%s)", tournament.id,
                        failure.status)

    async def tell_organiser(self, tournament: Tournament, table: TournamentTable, error: Exception) -> None:
        """A table's thread still cannot be created after a few tries (the service keeps trying): its organiser
        hears it once, by DM, with the permission the bot lacks when Discord refused for want of one."""
        locale = tournament.locale
        if getattr(error, "code", None) in (MISSING_ACCESS, MISSING_PERMISSIONS):
            lacking = missing_in_channel(self.bot, tournament.guild_id, tournament.channel_id, TOURNAMENT_PERMISSIONS)
            reason = t("tournament.not_opening.missing", locale,
                       missing=permission_names(lacking or ["create_public_threads"], locale))
        else:
            reason = t("tournament.not_opening.error", locale, error=getattr(error, "status", type(error).__name__))
        text = t("tournament.not_opening", locale, name=tx.title(tournament, locale), round=table.round,
                 table=table.number, channel=f"<#{tournament.channel_id}>", reason=reason)
        try:
            user = self.bot.get_user(tournament.creator_id) or await self.bot.fetch_user(tournament.creator_id)
            await asyncio.wait_for(user.send(text, allowed_mentions=NO_MENTIONS), REQUEST_TIMEOUT)
        except FAILURES as failure:
            log.warning("tournament %s: could not tell its organiser (%s)", tournament.id, type(failure).__name__)

    async def on_tournament(self, update: TournamentUpdate, done: set[str]) -> None:
        """The channel side of one update, step by step. ``done``: the steps Discord took on an earlier try
        (skipped now); each step taken is added, so a try again after a failure posts nothing twice."""
        tn, kind, locale = update.tournament, update.kind, update.tournament.locale
        service: TournamentService = self.bot.tournaments  # type: ignore[attr-defined]  # a GameHostBot, typed as commands.Bot
        channel = self.bot.get_partial_messageable(tn.channel_id, guild_id=tn.guild_id)
        signup_id, standings_id = tn.signup_message_id, tn.standings_message_id
        steps: list[tuple[str, Callable[[], Awaitable[object]]]] = []
        if kind is not Kind.RESULT and signup_id:  # the sign-up message follows the tournament
            steps.append(("signup", lambda: channel.get_partial_message(signup_id).edit(
                content=None, embed=signup_embed(tn, locale), view=signup_view(tn, locale))))
        if kind in (Kind.CHECKIN, Kind.CHECKIN_CLOSED, Kind.NOT_STARTED):
            steps.append(("checkin", lambda: self.on_checkin(update, channel)))
        if kind is Kind.STARTED:
            steps.append(("missed_checkin", lambda: self.call(channel, *tx.missed_checkin(tn, locale,
                                                                                           update.people))))
            steps.append(("standings", lambda: self.post_standings(channel, service, tn)))
        if kind in (Kind.ROUND, Kind.RESULT, Kind.BREAK) and standings_id:
            steps.append(("standings", lambda: self.edit_standings(channel, service, tn, standings_id)))
        if kind is Kind.ROUND and (seated := update.round) is not None:
            steps.append(("round", lambda: self.call(channel, "\n".join(tx.round_lines(tn, seated, locale))[:2000],
                                                     tx.called_people(tn, seated), always=True)))
        if kind is Kind.BREAK and tn.next_round_at is not None:
            steps.append(("break", lambda: channel.send(tx.break_text(tn, locale), allowed_mentions=NO_MENTIONS)))
        if kind is Kind.FINISHED:
            steps.append(("final", lambda: self.post_final(channel, service, tn)))
        for name, step in steps:
            if name not in done:
                await step()
                done.add(name)

    @staticmethod
    async def post_standings(channel: discord.PartialMessageable, service: TournamentService,
                             tn: Tournament) -> None:
        message = await channel.send(embed=await standings_embed(service, tn, tn.locale), allowed_mentions=NO_MENTIONS)
        await service.set_messages(tn, standings_message_id=message.id)

    @staticmethod
    async def edit_standings(channel: discord.PartialMessageable, service: TournamentService, tn: Tournament,
                             message_id: int) -> None:
        await channel.get_partial_message(message_id).edit(embed=await standings_embed(service, tn, tn.locale))

    async def on_checkin(self, update: TournamentUpdate, channel: discord.PartialMessageable) -> None:
        """Check-in opened (the entrants not checked in are called), closed at its deadline (those dropped are told
        why, once), or its deadline could not start the tournament (the channel is told why)."""
        tn, locale = update.tournament, update.tournament.locale
        if update.kind is Kind.CHECKIN:
            await self.call(channel, *tx.checkin_call(tn, locale))
        elif update.kind is Kind.CHECKIN_CLOSED:
            await self.call(channel, *tx.missed_checkin(tn, locale, update.people, at_deadline=True))
        elif update.error is not None:
            await channel.send(t("tournament.not_started", locale, name=tx.title(tn, locale),
                                 reason=user_message(update.error, locale)), allowed_mentions=NO_MENTIONS)

    @staticmethod
    async def call(channel: discord.PartialMessageable, text: str, people: list[int], *,
                   always: bool = False) -> None:
        """A message in the tournament's channel that pings exactly ``people`` (none: sent only if ``always``)."""
        if people or always:
            await channel.send(text, allowed_mentions=discord.AllowedMentions(
                users=[discord.Object(u) for u in people], everyone=False, roles=False))

    async def post_final(self, channel: discord.PartialMessageable, service: TournamentService,
                         tn: Tournament) -> None:
        """The final standings, posted once: the running standings message makes way for them."""
        locale = tn.locale
        if tn.standings_message_id:
            try:
                await channel.get_partial_message(tn.standings_message_id).delete()
            except discord.NotFound:
                pass
        final = await channel.send(t("tournament.finished", locale, name=tx.title(tn, locale)),
                                   embed=await standings_embed(service, tn, locale), allowed_mentions=NO_MENTIONS)
        await service.set_messages(tn, standings_message_id=final.id)  # a correction after the end edits it

    # ---- helpers --------------------------------------------------------------------------
    async def resolve(self, interaction: discord.Interaction, tournament_id: int | None) -> Tournament:
        """The tournament named, else the one open or running in this channel (or the thread's parent)."""
        service = tournaments(interaction)
        if tournament_id is not None:
            if not valid_id(tournament_id):  # a forged number no BIGINT column can hold
                raise HostError("tournament.unknown", id=tournament_id)
            tournament = await service.get(tournament_id)
            check_server(interaction, tournament.guild_id)
            return tournament
        channel_id = getattr(interaction.channel, "parent_id", None) or interaction.channel_id or 0
        found = await service.in_channel(channel_id)
        if not found:
            raise HostError("tournament.none_here")
        if len(found) > 1:
            raise HostError("tournament.which", ids=[x.id for x in found])  # listed in the reader's language
        return found[0]

    async def resolve_table(self, interaction: discord.Interaction, tournament_id: int | None,
                            table: int) -> Tournament:
        """For a command on a table: the tournament named, else the one the table belongs to (running or ended:
        a correction after the end needs no ``tournament:``), else the one of this channel."""
        if tournament_id is None and valid_id(table):
            tournament_id = await tournaments(interaction).tournament_of_table(table)
        return await self.resolve(interaction, tournament_id)

    # ---- commands ---------------------------------------------------------------------------
    @tournament.command(name="create")
    @app_commands.describe(game="The game every table plays",
                           format="Swiss, round robin for small fields, or knockout",
                           rounds="Swiss rounds (default 3); a round robin plays what everyone needs to meet",
                           min_seats="Smallest table (default: the game's)", max_seats="Largest table",
                           final_table="A final table for the top players after the rounds",
                           first_round="Round 1 seating: random, or by rating",
                           bots="Bot entrants to fill the field", name="A name for the tournament",
                           bot_level="The bot entrants' level: easy, normal or strong",
                           timer="Seconds per decision at its tables before a bot moves (0 = no timer)",
                           break_minutes="Pause between rounds, for drops (0 = the next round starts at once)",
                           start_at_deadline="Start by itself when check-in closes (those not checked in are dropped)",
                           advance="Knockout only: how many players of each table go on")
    @app_commands.choices(game=game_choices(),
                          format=[app_commands.Choice(name="Swiss", value="swiss"),
                                  app_commands.Choice(name="Round robin", value="roundrobin"),
                                  app_commands.Choice(name="Knockout", value="knockout")],
                          first_round=[app_commands.Choice(name="random", value="random"),
                                       app_commands.Choice(name="by rating", value="rating")],
                          bot_level=LEVEL_CHOICES)
    async def create(self, interaction: discord.Interaction, game: str, format: str = "swiss",
                     rounds: app_commands.Range[int, 1, 20] | None = None,
                     min_seats: app_commands.Range[int, 2, 8] | None = None,
                     max_seats: app_commands.Range[int, 2, 8] | None = None, final_table: bool = False,
                     first_round: str = "random", bots: app_commands.Range[int, 0, 64] = 0,
                     name: str | None = None, bot_level: str = "normal",
                     timer: app_commands.Range[int, 0, MAX_TURN_SECONDS] = 120,
                     break_minutes: app_commands.Range[int, 0, MAX_BREAK // 60] = 2,
                     start_at_deadline: bool = False, advance: app_commands.Range[int, 1, 7] | None = None) -> None:
        """Create a tournament here and post its public sign-up message (Join / Leave)."""
        service = tournaments(interaction)
        assert interaction.channel_id is not None
        require(interaction, TOURNAMENT_PERMISSIONS, "tournament.missing_permissions")
        limits = await server_limits(interaction)
        refuse_unless_organiser(interaction, limits)
        refuse_tournament_size(limits, bots, rounds)
        service.check_create(game, format, rounds, min_seats, max_seats, first_round, bot_level=bot_level,
                             break_seconds=break_minutes * 60, turn_seconds=timer, final_table=final_table,
                             advance=advance)
        count_creation(interaction, limits)
        await interaction.response.defer(thinking=True)  # the database and up to 64 bot entrants come next
        tn = await service.create(
            game=game, guild_id=interaction.guild_id, channel_id=interaction.channel_id,
            creator_id=interaction.user.id, name=name or "", format=format, rounds=rounds, seats_min=min_seats,
            seats_max=max_seats, final_table=final_table, first_round=first_round,
            locale=await public_language(interaction), bot_level=bot_level, break_seconds=break_minutes * 60,
            turn_seconds=timer, start_at_deadline=start_at_deadline, advance=advance)
        if bots:
            await service.add_bots(tn.id, interaction.user.id, bots)
        view = signup_view(tn, tn.locale) or discord.utils.MISSING  # a new tournament signs up: never None
        message = await interaction.followup.send(embed=signup_embed(tn, tn.locale), view=view,
                                                  allowed_mentions=NO_MENTIONS, wait=True)
        await service.set_messages(tn, signup_message_id=message.id)

    @tournament.command(name="checkin")
    @app_commands.describe(tournament=WHICH, minutes="Minutes until the deadline shown to the entrants")
    async def checkin(self, interaction: discord.Interaction, tournament: int | None = None,
                      minutes: app_commands.Range[int, 1, MAX_CHECKIN_MINUTES] = 10) -> None:
        """Open the check-in window: only entrants who check in are seated at the start."""
        tn = await self.resolve(interaction, tournament)
        await tournaments(interaction).open_checkin(tn.id, interaction.user.id, is_admin=is_admin(interaction),
                                                    minutes=minutes)
        await reply(interaction, t("tournament.done.checkin_open", interaction.locale))

    @tournament.command(name="start")
    @app_commands.describe(tournament=WHICH)
    async def start(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        """Start the tournament (its creator, or Manage Server): round 1 is seated and its threads opened."""
        require(interaction, TOURNAMENT_PERMISSIONS, "tournament.missing_permissions")
        limits = await server_limits(interaction)
        refuse_unless_organiser(interaction, limits)
        tn = await self.resolve(interaction, tournament)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await tournaments(interaction).start(tn.id, interaction.user.id, is_admin=is_admin(interaction),
                                             min_people=PEOPLE_TO_START, max_rounds=limits.tournament_rounds)
        interaction.extras["committed"] = "tournament_start"  # a failed answer must not say nothing happened
        await reply(interaction, t("tournament.done.start", interaction.locale, id=tn.id))

    @tournament.command(name="drop")
    @app_commands.describe(player="The player to drop", tournament=WHICH)
    async def drop(self, interaction: discord.Interaction, player: discord.Member,
                   tournament: int | None = None) -> None:
        """Take a player out of the later rounds (organiser; players may drop themselves)."""
        tn = await self.resolve(interaction, tournament)
        playing = tn.status == "running" and tn.live_table_of(player.id) is not None
        await tournaments(interaction).drop(tn.id, interaction.user.id, player.id, is_admin=is_admin(interaction))
        key = "tournament.done.drop_after_game" if playing else "tournament.done.drop"
        await reply(interaction, t(key, interaction.locale, player=player.mention))

    @tournament.command(name="replace")
    @app_commands.describe(player="The player a bot stands in for", tournament=WHICH)
    async def replace(self, interaction: discord.Interaction, player: discord.Member,
                      tournament: int | None = None) -> None:
        """A bot plays the rest of this player's current game (the player stays entered)."""
        tn = await self.resolve(interaction, tournament)
        await tournaments(interaction).replace(tn.id, interaction.user.id, player.id, is_admin=is_admin(interaction))
        await reply(interaction, t("tournament.done.replace", interaction.locale, player=player.mention))

    @tournament.command(name="void")
    @app_commands.describe(table="The table number (#) shown on its board", tournament=WHICH)
    async def void(self, interaction: discord.Interaction, table: int, tournament: int | None = None) -> None:
        """Void a table of the current round and replay it with a new deal."""
        tn = await self.resolve_table(interaction, tournament, table)
        await interaction.response.defer(ephemeral=True, thinking=True)
        tn = await tournaments(interaction).void(tn.id, interaction.user.id, table, is_admin=is_admin(interaction))
        key = "tournament.done.void" if tn.status == "running" else "tournament.done.void_ended"
        await reply(interaction, t(key, interaction.locale, table=table))

    @tournament.command(name="set-result")
    @app_commands.describe(table="The table number (#) shown on its board",
                           ranking="Places best first: @a > @b = @c > 4 (ties with =; a mention, seat number or name)",
                           tournament=WHICH)
    async def set_result(self, interaction: discord.Interaction, table: int, ranking: str,
                         tournament: int | None = None) -> None:
        """Set a table's result by hand (a running game there is stopped)."""
        tn = await self.resolve_table(interaction, tournament, table)
        record = tn.table_of_game(table)
        if record is None:
            raise HostError("tournament.unknown_table", table=table)
        parsed = parse_ranking(ranking, tn, record, interaction.guild)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await tournaments(interaction).set_result(tn.id, interaction.user.id, table, parsed,
                                                  is_admin=is_admin(interaction))
        await reply(interaction, t("tournament.done.set_result", interaction.locale, table=table))

    @tournament.command(name="next-round")
    @app_commands.describe(tournament=WHICH)
    async def next_round(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        """Start the next round now; tables still playing are stopped and score nothing."""
        tn = await self.resolve(interaction, tournament)
        service, locale = tournaments(interaction), interaction.locale
        service.check_organiser(tn, interaction.user.id, is_admin=is_admin(interaction))
        if tn.status == "running" and live_tables(tn):  # tables would be cancelled: the organiser confirms first
            await reply(interaction, next_round_question(tn, locale), view=next_round_view(tn, locale))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        from_round = tn.current_round  # the round this command moves on from, whatever happens meanwhile
        moved = await service.next_round(tn.id, interaction.user.id, is_admin=is_admin(interaction),
                                         from_round=from_round)
        key = "tournament.done.next_round" if moved else "tournament.next_round_moved_on"
        await reply(interaction, t(key, locale, round=from_round))

    @tournament.command(name="end")
    @app_commands.describe(tournament=WHICH)
    async def end(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        """End the tournament: running tables stop, the standings so far are final and posted."""
        tn = await self.resolve(interaction, tournament)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await tournaments(interaction).end(tn.id, interaction.user.id, is_admin=is_admin(interaction))
        await reply(interaction, t("tournament.done.end", interaction.locale))

    @tournament.command(name="standings")
    @app_commands.describe(tournament=WHICH)
    async def standings(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        """Show the current standings, only to you."""
        tn = await self.resolve(interaction, tournament)
        await reply(interaction, embed=await standings_embed(tournaments(interaction), tn, interaction.locale))


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(SignupButton, NextRoundButton)
    await bot.add_cog(TournamentCog(bot))
