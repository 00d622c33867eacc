"""``/tournament``: create, sign up (Join / Leave / Check in buttons), start, and the organiser's tools. Each
table is an ordinary game of the host in its own thread, opened by the bot with the seated players mentioned;
the standings message in the tournament's channel follows every result; final standings are posted publicly."""
from __future__ import annotations

import asyncio
import logging
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import literal
from bot.errors import HostError
from bot.i18n import t
from bot.tournaments import Tournament, TournamentService, TournamentTable, TournamentUpdate
from bot.tournaments import text as tx
from bot.tournaments.models import TournamentUpdateKind as Kind
from bot.tournaments.service import MAX_BREAK, MAX_CHECKIN_MINUTES, MAX_TURN_SECONDS

from .common import NO_MENTIONS, GameItem, check_server, game_choices, host, is_admin, public_language, reply
from .custom_ids import ID, SEAT, number, valid_id
from .limits import PEOPLE_TO_START, count_creation, refuse_tournament_size, refuse_unless_organiser, server_limits
from .lobby import LEVEL_CHOICES
from .outbox import REQUEST_TIMEOUT
from .permissions import TOURNAMENT_PERMISSIONS, missing_in_channel, permission_names, require
from .refusals import FAILURES, MISSING_ACCESS, MISSING_PERMISSIONS
from .tournament_writer import TournamentWriter

SIGNUP_OPS = ("join", "leave", "checkin")
OP_STYLES = {"join": discord.ButtonStyle.success, "leave": discord.ButtonStyle.secondary,
             "checkin": discord.ButtonStyle.primary}
MENTION = re.compile(rf"<@!?({ID})>")
WHICH = "Tournament number (only needed when the channel has several)"
log = logging.getLogger(__name__)


def tournaments(interaction: discord.Interaction) -> TournamentService:
    return host(interaction).tournaments


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
    embed.set_footer(text=t("tournament.standings_footer", locale, id=tournament.id))
    return embed


def parse_ranking(text: str, players: list[int]) -> list[list[int]]:
    """``"@Ann > @Bob = 3 > 1"``: places separated by ``>`` (or ``,``), ties by ``=``; a player is a mention or
    a seat number (bots have no mention)."""
    ranking = []
    for part in re.split(r"[>,]", text):
        group = []
        for token in filter(None, (s.strip() for s in part.split("="))):
            mention = MENTION.fullmatch(token)
            if mention:
                group.append(int(mention[1]))
            elif (seat := number(token, SEAT)) is not None and 1 <= seat <= len(players):
                group.append(players[seat - 1])
            else:
                raise HostError("tournament.bad_ranking", count=len(players))
        if group:
            ranking.append(group)
    return ranking


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

    tournament = app_commands.Group(name="tournament", description="Community tournaments", guild_only=True)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        service: TournamentService = bot.tournaments  # type: ignore[attr-defined]  # a GameHostBot, typed as commands.Bot
        service.open_table = self.open_thread
        service.on_open_failing = self.tell_organiser
        self.writer = TournamentWriter(self.on_tournament)  # Discord calls outside the tournament's lock
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
        entrants = [tournament.entrants[u] for u in table.players]
        await thread.send(
            t("tournament.table_intro", locale, round=table.round, table=table.number,
              players=" ".join(e.mention for e in entrants)),
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(e.user_id) for e in entrants
                                                            if not e.is_bot], everyone=False, roles=False))
        return thread.id

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

    async def on_tournament(self, update: TournamentUpdate) -> None:
        tn, kind, locale = update.tournament, update.kind, update.tournament.locale
        service: TournamentService = self.bot.tournaments  # type: ignore[attr-defined]  # a GameHostBot, typed as commands.Bot
        channel = self.bot.get_partial_messageable(tn.channel_id, guild_id=tn.guild_id)
        if kind is not Kind.RESULT and tn.signup_message_id:  # the sign-up message follows the tournament
            await channel.get_partial_message(tn.signup_message_id).edit(
                content=None, embed=signup_embed(tn, locale), view=signup_view(tn, locale))
        if kind is Kind.CHECKIN:
            await self.call(channel, *tx.checkin_call(tn, locale))
        if kind is Kind.STARTED:
            await self.call(channel, *tx.missed_checkin(tn, locale))
            message = await channel.send(embed=await standings_embed(service, tn, locale),
                                         allowed_mentions=NO_MENTIONS)
            await service.set_messages(tn, standings_message_id=message.id)
        if kind in (Kind.ROUND, Kind.RESULT, Kind.BREAK) and tn.standings_message_id:
            await channel.get_partial_message(tn.standings_message_id).edit(
                embed=await standings_embed(service, tn, locale))
        if kind is Kind.ROUND and update.round is not None:
            await self.call(channel, "\n".join(tx.round_lines(tn, update.round, locale))[:2000],
                            tx.called_people(tn, update.round), always=True)
        if kind is Kind.BREAK and tn.next_round_at is not None:
            await channel.send(tx.break_text(tn, locale), allowed_mentions=NO_MENTIONS)
        if kind is Kind.FINISHED:
            await self.post_final(channel, service, tn)

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
        await channel.send(t("tournament.finished", locale, name=tx.title(tn, locale)),
                           embed=await standings_embed(service, tn, locale), allowed_mentions=NO_MENTIONS)

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
            raise HostError("tournament.which", ids=", ".join(str(x.id) for x in found))
        return found[0]

    # ---- commands ---------------------------------------------------------------------------
    @tournament.command(name="create")
    @app_commands.describe(game="The game every table plays", format="Swiss, or round robin for small fields",
                           rounds="Rounds (Swiss default 3; round robin: enough for everyone to meet)",
                           min_seats="Smallest table (default: the game's)", max_seats="Largest table",
                           final_table="A final table for the top players after the rounds",
                           first_round="Round 1 seating: random, or by rating",
                           bots="Bot entrants to fill the field", name="A name for the tournament",
                           bot_level="The bot entrants' level: easy, normal or strong",
                           timer="Seconds per decision at its tables before a bot moves (0 = no timer)",
                           break_minutes="Pause between rounds, for drops (0 = the next round starts at once)")
    @app_commands.choices(game=game_choices(),
                          format=[app_commands.Choice(name="Swiss", value="swiss"),
                                  app_commands.Choice(name="Round robin", value="roundrobin")],
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
                     break_minutes: app_commands.Range[int, 0, MAX_BREAK // 60] = 2) -> None:
        """Create a tournament here and post its public sign-up message (Join / Leave)."""
        service = tournaments(interaction)
        assert interaction.channel_id is not None
        require(interaction, TOURNAMENT_PERMISSIONS, "tournament.missing_permissions")
        limits = await server_limits(interaction)
        refuse_unless_organiser(interaction, limits)
        refuse_tournament_size(limits, bots, rounds)
        service.check_create(game, format, rounds, min_seats, max_seats, first_round, bot_level=bot_level,
                             break_seconds=break_minutes * 60, turn_seconds=timer)
        count_creation(interaction, limits)
        await interaction.response.defer(thinking=True)  # the database and up to 64 bot entrants come next
        tn = await service.create(
            game=game, guild_id=interaction.guild_id, channel_id=interaction.channel_id,
            creator_id=interaction.user.id, name=name or "", format=format, rounds=rounds, seats_min=min_seats,
            seats_max=max_seats, final_table=final_table, first_round=first_round,
            locale=await public_language(interaction), bot_level=bot_level, break_seconds=break_minutes * 60,
            turn_seconds=timer)
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
        plays_on = await tournaments(interaction).replace(tn.id, interaction.user.id, player.id,
                                                          is_admin=is_admin(interaction))
        key = "tournament.done.replace" if plays_on else "tournament.done.replace_closed"
        await reply(interaction, t(key, interaction.locale, player=player.mention))

    @tournament.command(name="void")
    @app_commands.describe(table="The table number (#) shown on its board", tournament=WHICH)
    async def void(self, interaction: discord.Interaction, table: int, tournament: int | None = None) -> None:
        """Void a table of the current round and replay it with a new deal."""
        tn = await self.resolve(interaction, tournament)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await tournaments(interaction).void(tn.id, interaction.user.id, table, is_admin=is_admin(interaction))
        await reply(interaction, t("tournament.done.void", interaction.locale, table=table))

    @tournament.command(name="set-result")
    @app_commands.describe(table="The table number (#) shown on its board",
                           ranking="Places best first: @a > @b = @c > 4 (ties with =, seat numbers for bots)",
                           tournament=WHICH)
    async def set_result(self, interaction: discord.Interaction, table: int, ranking: str,
                         tournament: int | None = None) -> None:
        """Set a table's result by hand (a running game there is stopped)."""
        tn = await self.resolve(interaction, tournament)
        record = tn.table_of_game(table)
        if record is None:
            raise HostError("tournament.unknown_table", table=table)
        parsed = parse_ranking(ranking, record.players)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await tournaments(interaction).set_result(tn.id, interaction.user.id, table, parsed,
                                                  is_admin=is_admin(interaction))
        await reply(interaction, t("tournament.done.set_result", interaction.locale, table=table))

    @tournament.command(name="next-round")
    @app_commands.describe(tournament=WHICH)
    async def next_round(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        """Start the next round now; tables still playing are stopped and score nothing."""
        tn = await self.resolve(interaction, tournament)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await tournaments(interaction).next_round(tn.id, interaction.user.id, is_admin=is_admin(interaction))
        await reply(interaction, t("tournament.done.next_round", interaction.locale))

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
    bot.add_dynamic_items(SignupButton)
    await bot.add_cog(TournamentCog(bot))
