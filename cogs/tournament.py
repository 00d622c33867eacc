"""``/tournament``: create, start, and the organiser's tools. Each table is an ordinary game of the host in its own
thread, opened by the bot with the seated players mentioned; the sign-up message, the standings message and the
final standings are the channel side's (``cogs.tournament_channel``)."""
from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import GameHostBot
from bot.errors import HostError
from bot.i18n import t
from bot.limits import Cap
from bot.replies import fill_original
from bot.storage import GameStatus
from bot.tournaments import Tournament, TournamentUpdate
from bot.tournaments.absence import Replaced
from bot.tournaments.formats import rules_of
from bot.tournaments.models import Deal, TournamentStatus
from bot.tournaments.settings import MAX_CHECKIN_MINUTES, TournamentSettings
from engines import Json

from .common import NO_MENTIONS, as_host, check_server, game_choices, host, public_language, reply
from .custom_ids import valid_id
from .limits import (
    PEOPLE_TO_START,
    count_creation,
    may_organise,
    organises_all,
    refuse_tournament_size,
    refuse_unless_organiser,
    server_limits,
)
from .lobby import LEVEL_CHOICES
from .model_options import model_command
from .permissions import SAME_DEAL_PERMISSIONS, TOURNAMENT_PERMISSIONS, require
from .tournament_channel import SignupButton, TournamentChannel, signup_embed, signup_view, standings_message
from .tournament_comparison import CompareReviewButton
from .tournament_controls import (
    NextRoundButton,
    live_tables,
    next_round_question,
    next_round_view,
    parse_ranking,
    tournaments,
)
from .tournament_writer import TournamentWriter

WHICH = "Tournament number (only needed when the channel has several)"
log = logging.getLogger(__name__)


def require_private_threads(interaction: discord.Interaction, same_deal: bool) -> None:
    """A same-deal tournament's tables play in private threads: refused where the bot cannot make them (it lacks
    the permission, or the channel is an announcement channel, which has no private threads)."""
    if not same_deal:
        return
    require(interaction, SAME_DEAL_PERMISSIONS, "tournament.missing_permissions")
    if getattr(interaction.channel, "type", None) is discord.ChannelType.news:
        raise HostError("tournament.same_deal_text_channel")


async def create(interaction: discord.Interaction, values: Json) -> None:
    """``/tournament create``: a tournament here and its public sign-up message (Join / Leave)."""
    settings = TournamentSettings.model_validate(values)
    service = tournaments(interaction)
    assert interaction.channel_id is not None
    require(interaction, TOURNAMENT_PERMISSIONS, "tournament.missing_permissions")
    limits = await server_limits(interaction)
    refuse_unless_organiser(interaction, limits)
    refuse_tournament_size(limits, settings.bots, settings.rounds)
    settings.check()
    require_private_threads(interaction, settings.deal is Deal.SAME)
    count_creation(interaction, limits)
    await interaction.response.defer(thinking=True)  # the database and up to 64 bot entrants come next
    tn = await service.create(guild_id=interaction.guild_id, channel_id=interaction.channel_id,
                              creator_id=interaction.user.id, locale=await public_language(interaction),
                              **settings.create_arguments())
    if settings.bots:
        await service.add_bots(tn.id, interaction.user.id, settings.bots)
    view = signup_view(tn, tn.locale) or discord.utils.MISSING  # a new tournament signs up: never None
    message = await fill_original(interaction, embed=signup_embed(tn, tn.locale), view=view,
                                  allowed_mentions=NO_MENTIONS)
    await service.set_messages(tn, signup_message_id=message.id)


def create_command() -> app_commands.Command:
    """``/tournament create``, generated from ``TournamentSettings``."""
    return model_command("create", "tournament.create", TournamentSettings, create,
                         choices={"game": game_choices(), "bot_level": LEVEL_CHOICES})


class TournamentCog(TournamentChannel, commands.Cog):
    """The tournament commands; the channel side of every tournament change is ``TournamentChannel``'s."""

    tournament = app_commands.Group(name="tournament", description="Community tournaments")

    def __init__(self, bot: GameHostBot) -> None:
        self.bot = bot
        service = bot.tournaments
        service.open_table = self.open_thread
        service.on_open_failing = self.tell_organiser
        # Discord calls outside the tournament's lock, through the one way out shared by every writer
        self.writer = TournamentWriter(self.on_tournament, bot.delivery)
        service.subscribe(self._queue)
        # generated from the settings model; added to this cog's copy of the group, so it is called without the cog
        self.tournament.add_command(create_command())

    async def _queue(self, update: TournamentUpdate) -> None:
        self.writer.push(update)


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
    @tournament.command(name="checkin")
    @app_commands.describe(tournament=WHICH, minutes="Minutes until the deadline shown to the entrants")
    async def checkin(self, interaction: discord.Interaction, tournament: int | None = None,
                      minutes: app_commands.Range[int, 1, MAX_CHECKIN_MINUTES] = 10) -> None:
        """Open the check-in window: only entrants who check in are seated at the start (organisers)."""
        tn = await self.resolve(interaction, tournament)
        await tournaments(interaction).open_checkin(tn.id, interaction.user.id, minutes=minutes,
                                                    organises_all=await organises_all(interaction))
        await reply(interaction, t("tournament.done.checkin_open", interaction.locale))

    @tournament.command(name="add")
    @app_commands.describe(player="The person to enter", tournament=WHICH)
    async def add(self, interaction: discord.Interaction, player: discord.Member,
                  tournament: int | None = None) -> None:
        """Enter a person before the start, checked in; also after check-in has closed (organisers)."""
        tn = await self.resolve(interaction, tournament)
        await tournaments(interaction).add_player(tn.id, interaction.user.id, player.id, player.display_name,
                                                  organises_all=await organises_all(interaction))
        await reply(interaction, t("tournament.done.add", interaction.locale, player=player.mention))

    @tournament.command(name="start")
    @app_commands.describe(tournament=WHICH)
    async def start(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        """Start the tournament (organisers): round 1 is seated and its threads opened."""
        require(interaction, TOURNAMENT_PERMISSIONS, "tournament.missing_permissions")
        limits = await server_limits(interaction)
        refuse_unless_organiser(interaction, limits)
        tn = await self.resolve(interaction, tournament)
        require_private_threads(interaction, rules_of(tn).same_deal)
        await interaction.response.defer(ephemeral=True, thinking=True)
        cap = limits.cap(Cap.TABLES_PER_SERVER)  # round 1's tables count towards the server's running tables
        running = await host(interaction).storage.count_games(interaction.guild_id, GameStatus.RUNNING)
        await tournaments(interaction).start(tn.id, interaction.user.id, min_people=PEOPLE_TO_START,
                                             max_rounds=limits.tournament_rounds,
                                             organises_all=may_organise(interaction, limits),
                                             table_room=(max(0, cap - running), cap))
        interaction.extras["committed"] = "tournament_start"  # a failed answer must not say nothing happened
        await reply(interaction, t("tournament.done.start", interaction.locale, id=tn.id))

    @tournament.command(name="drop")
    @app_commands.describe(player="The player to drop (default: yourself)", tournament=WHICH)
    async def drop(self, interaction: discord.Interaction, player: discord.Member | None = None,
                   tournament: int | None = None) -> None:
        """Take a player out of the later rounds (organisers; players may drop themselves)."""
        tn = await self.resolve(interaction, tournament)
        who = player or interaction.user
        playing = tn.status is TournamentStatus.RUNNING and tn.live_table_of(who.id) is not None
        await tournaments(interaction).drop(tn.id, interaction.user.id, who.id,
                                            organises_all=await organises_all(interaction))
        key = "tournament.done.drop_after_game" if playing else "tournament.done.drop"
        await reply(interaction, t(key, interaction.locale, player=who.mention))

    @tournament.command(name="replace")
    @app_commands.describe(player="The player a bot stands in for", tournament=WHICH)
    async def replace(self, interaction: discord.Interaction, player: discord.Member,
                      tournament: int | None = None) -> None:
        """A bot plays the rest of this player's current game (organisers; the player stays entered)."""
        tn = await self.resolve(interaction, tournament)
        replaced = await tournaments(interaction).replace(tn.id, interaction.user.id, player.id,
                                                          organises_all=await organises_all(interaction))
        key = "tournament.done.replace" if replaced is Replaced.NOW else "tournament.done.replace_already"
        await reply(interaction, t(key, interaction.locale, player=player.mention))

    @tournament.command(name="void")
    @app_commands.describe(table="The table number (#) shown on its board", tournament=WHICH)
    async def void(self, interaction: discord.Interaction, table: int, tournament: int | None = None) -> None:
        """Void a table of the current round and replay it with a new deal (organisers)."""
        tn = await self.resolve_table(interaction, tournament, table)
        await interaction.response.defer(ephemeral=True, thinking=True)
        tn = await tournaments(interaction).void(tn.id, interaction.user.id, table,
                                                 organises_all=await organises_all(interaction))
        key = "tournament.done.void" if tn.status is TournamentStatus.RUNNING else "tournament.done.void_ended"
        await reply(interaction, t(key, interaction.locale, table=table))

    @tournament.command(name="set-result")
    @app_commands.describe(table="The table number (#) shown on its board",
                           ranking="Places best first: @a > @b = @c > 4 (ties with =; a mention, seat number or name)",
                           tournament=WHICH)
    async def set_result(self, interaction: discord.Interaction, table: int, ranking: str,
                         tournament: int | None = None) -> None:
        """Set a table's result by hand (organisers; a running game there is stopped)."""
        tn = await self.resolve_table(interaction, tournament, table)
        everyone = await organises_all(interaction)
        tournaments(interaction).check_organiser(tn, interaction.user.id, organises_all=everyone)  # before parsing
        record = tn.table_of_game(table)
        if record is None:
            raise HostError("tournament.unknown_table", table=table)
        parsed = parse_ranking(ranking, tn, record, interaction.guild)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await tournaments(interaction).set_result(tn.id, interaction.user.id, table, parsed,
                                                  organises_all=everyone)
        await reply(interaction, t("tournament.done.set_result", interaction.locale, table=table))

    @tournament.command(name="next-round")
    @app_commands.describe(tournament=WHICH)
    async def next_round(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        """Start the next round now (organisers); tables still playing are stopped and score nothing."""
        tn = await self.resolve(interaction, tournament)
        service, locale = tournaments(interaction), interaction.locale
        everyone = await organises_all(interaction)
        service.check_organiser(tn, interaction.user.id, organises_all=everyone)
        # tables would be cancelled: the organiser confirms first
        if tn.status is TournamentStatus.RUNNING and live_tables(tn):
            await reply(interaction, next_round_question(tn, locale), view=next_round_view(tn, locale))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        from_round = tn.current_round  # the round this command moves on from, whatever happens meanwhile
        moved = await service.next_round(tn.id, interaction.user.id, organises_all=everyone,
                                         from_round=from_round)
        key = "tournament.done.next_round" if moved else "tournament.next_round_moved_on"
        await reply(interaction, t(key, locale, round=from_round))

    @tournament.command(name="end")
    @app_commands.describe(tournament=WHICH)
    async def end(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        """End the tournament (organisers): running tables stop, the standings so far are final."""
        tn = await self.resolve(interaction, tournament)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await tournaments(interaction).end(tn.id, interaction.user.id,
                                           organises_all=await organises_all(interaction))
        await reply(interaction, t("tournament.done.end", interaction.locale))

    @tournament.command(name="help")
    async def help(self, interaction: discord.Interaction) -> None:
        """Who may do what in a tournament on this server, only to you."""
        limits = await server_limits(interaction)
        role = limits.organiser_role_id
        locale = interaction.locale
        lines = [t("tournament.help.title", locale), t("tournament.help.organisers", locale),
                 t("tournament.help.create", locale), t("tournament.help.everyone", locale),
                 t("tournament.help.no_role", locale) if role is None
                 else t("tournament.help.role", locale, role=f"<@&{role}>")]
        await reply(interaction, "\n".join(lines))

    @tournament.command(name="standings")
    @app_commands.describe(tournament=WHICH)
    async def standings(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        """Show the current standings, only to you."""
        tn = await self.resolve(interaction, tournament)
        embed, files = await standings_message(tournaments(interaction), tn, interaction.locale)
        await reply(interaction, embed=embed, files=files)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(SignupButton, NextRoundButton, CompareReviewButton)
    await bot.add_cog(TournamentCog(as_host(bot)))
