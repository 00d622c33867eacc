"""The channel side of a tournament: the sign-up message (its embed and Join / Leave / Check in buttons), the
standings message (with the knockout's bracket picture), each table's thread, and the messages every update of the
tournament posts or edits (``TournamentChannel.on_tournament``, delivered by ``TournamentWriter``)."""
from __future__ import annotations

import asyncio
import io
import logging
import weakref
from functools import partial
from typing import Any, Awaitable, Callable

import discord

from bot import literal
from bot.client import GameHostBot
from bot.delivery import REQUEST_TIMEOUT
from bot.discord_rules.limits import EMBED_DESCRIPTION, MESSAGE_CONTENT, THREAD_NAME
from bot.errors import user_message
from bot.i18n import t
from bot.refusals import FAILURES, MISSING_ACCESS, MISSING_PERMISSIONS
from bot.render.bracket_image import render_png as bracket_png
from bot.round_secrecy import standings_seen
from bot.tournaments import Tournament, TournamentService, TournamentTable, TournamentUpdate
from bot.tournaments import text as tx
from bot.tournaments.bracket import bracket
from bot.tournaments.formats import rules_of
from bot.tournaments.models import OPEN_STATES
from bot.tournaments.models import TournamentStatus as Status
from bot.tournaments.models import TournamentUpdateKind as Kind

from .common import NO_MENTIONS, GameItem, check_server, reply
from .custom_ids import ID
from .permissions import SAME_DEAL_PERMISSIONS, TOURNAMENT_PERMISSIONS, missing_in_channel, permission_names
from .tournament_comparison import due_round, post_comparison, posted_rounds
from .tournament_controls import tournaments
from .tournament_writer import NoncedChannel, Nonces

SIGNUP_OPS = ("join", "leave", "checkin")
SIGNUP_OPS_BY_STATUS = {Status.SIGNUP: ("join", "leave"), Status.CHECKIN: SIGNUP_OPS, Status.CHECKIN_CLOSED: ("leave",)}
OP_STYLES = {"join": discord.ButtonStyle.success, "leave": discord.ButtonStyle.secondary,
             "checkin": discord.ButtonStyle.primary, "back": discord.ButtonStyle.primary}
BRACKET = "bracket.png"
log = logging.getLogger(__name__)
# Threads made for a table on a try that then failed, by bot: (tournament, round, table, attempt) → thread id.
_made_threads: weakref.WeakKeyDictionary[discord.Client, dict[tuple[int, int, int, int], int]] = (
    weakref.WeakKeyDictionary())

def signup_embed(tournament: Tournament, locale: object | None) -> discord.Embed:
    embed = discord.Embed(title="🏆 " + tx.title(tournament, locale),
                          description="\n".join(tx.signup_lines(tournament, locale)), colour=0xF1C40F)
    footer = "tournament.signup_footer" if tournament.status in OPEN_STATES else "tournament.entered_footer"
    embed.set_footer(text=t(footer, locale, id=tournament.id, count=len(tournament.entrants)))
    return embed


def signup_view(tournament: Tournament, locale: object | None) -> discord.ui.View | None:
    """Join and Leave while sign-up is open, and Check in during check-in; once check-in has closed, only Leave
    (nobody joins or checks in after the deadline: the organiser may still add someone)."""
    ops = SIGNUP_OPS_BY_STATUS.get(tournament.status)
    if not ops:
        return None
    view = discord.ui.View(timeout=None)
    for op in ops:
        view.add_item(SignupButton(tournament.id, op, locale))
    return view


def back_view(tournament: Tournament, locale: object | None) -> discord.ui.View:
    """Under a round's no-show message: Seat me again."""
    view = discord.ui.View(timeout=None)
    view.add_item(SignupButton(tournament.id, "back", locale))
    return view


async def standings_message(service: TournamentService, tournament: Tournament,
                            locale: object | None) -> tuple[discord.Embed, list[discord.File]]:
    """The standings embed, and for a knockout under way or ended its bracket as a picture shown in the embed
    (drawn in a worker thread, never on the event loop)."""
    rows = await service.standings(standings_seen(tournament))  # a same-deal round's results: once it is over
    lines = "\n".join(tx.standing_lines(tournament, rows, locale))
    embed = discord.Embed(title=tx.standings_title(tournament, locale), description=lines[:EMBED_DESCRIPTION],
                          colour=0x3498DB)
    footer = ("tournament.knockout_footer" if tournament.knockout_stage else "tournament.standings_footer_same_deal"
              if rules_of(tournament).same_deal else "tournament.standings_footer")
    embed.set_footer(text=t(footer, locale, id=tournament.id, advance=tournament.advance))
    if not (tournament.knockout_stage and tournament.current_round):
        return embed, []
    rounds = bracket(tournament, rows)
    png = await asyncio.to_thread(bracket_png, rounds)
    embed.set_image(url=f"attachment://{BRACKET}")
    alt = t("tournament.bracket_alt", locale, rounds=len(rounds))
    return embed, [discord.File(io.BytesIO(png), filename=BRACKET, description=alt)]


class SignupButton(GameItem, template=rf"gh:tn:(?P<tid>{ID}):(?P<op>join|leave|checkin|back)"):
    """Join, Leave and Check in on the sign-up message; Seat me again under a round's no-show message."""

    def __init__(self, tournament_id: int, op: str, locale: object | None = None) -> None:
        super().__init__(discord.ui.Button(label=t(f"tournament.button.{op}", locale), style=OP_STYLES[op],
                                           custom_id=f"gh:tn:{tournament_id}:{op}"))
        self.tournament_id, self.op = tournament_id, op

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item,
                             match: Any) -> "SignupButton":
        return cls(int(match["tid"]), match["op"], interaction.locale)

    async def check_where(self, interaction: discord.Interaction) -> None:
        check_server(interaction, (await tournaments(interaction).get(self.tournament_id)).guild_id)

    async def run(self, interaction: discord.Interaction) -> None:
        service, user = tournaments(interaction), interaction.user
        if self.op == "join":
            await service.join(self.tournament_id, user.id, user.display_name)
        elif self.op == "leave":
            await service.leave(self.tournament_id, user.id)
        elif self.op == "back":
            await service.back(self.tournament_id, user.id)
        else:
            await service.check_in(self.tournament_id, user.id)
        await reply(interaction, t(f"tournament.done.{self.op}", interaction.locale))  # the message redraws itself


def thread_permissions(tournament: Tournament) -> tuple[tuple[str, ...], str]:
    """What the bot needs in a tournament's channel, and the permission that creates its tables' threads."""
    if rules_of(tournament).same_deal:
        return SAME_DEAL_PERMISSIONS, "create_private_threads"
    return TOURNAMENT_PERMISSIONS, "create_public_threads"


class TournamentChannel:
    """The channel side of every tournament change (the cog's half that talks to Discord for the service)."""

    bot: GameHostBot

    async def open_thread(self, tournament: Tournament, table: TournamentTable) -> int:
        """A thread per table, opened with the seated players mentioned (which also adds them to a public one). A
        same-deal tournament's is private (its round's other tables hold the same cards): only those seated there
        are added (bots need nothing), before anything is posted, and none of them may invite anyone else. A thread
        made on a try that failed later (a member refused, the first message lost) is taken up again on the next
        try rather than left behind, unseen, for a new one."""
        locale = tournament.locale
        key = (tournament.id, table.round, table.number, table.attempt)
        made = _made_threads.setdefault(self.bot, {})
        thread_id = made.get(key) or await self.create_table_thread(tournament, table)
        made[key] = thread_id
        entrants = [tournament.entrants[u] for u in table.players]
        try:
            if rules_of(tournament).same_deal:
                for entrant in entrants:
                    if not entrant.is_bot:
                        await self.bot.http.add_user_to_thread(thread_id, entrant.user_id)
            await self.point_to_replay(tournament, table, thread_id)
            intro = t("tournament.table_intro", locale, round=table.round, table=table.number,
                      players=" ".join(tx.seat_names(tournament, table, locale)))
            await self.bot.get_partial_messageable(thread_id).send(
                "\n".join([intro, *tx.rule_lines(tournament, table.round, locale)]),
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(e.user_id) for e in entrants
                                                                if not e.is_bot], everyone=False, roles=False))
        except discord.NotFound:
            made.pop(key, None)  # the thread is gone (deleted by someone): the next try makes a new one
            raise
        made.pop(key, None)
        return thread_id

    async def create_table_thread(self, tournament: Tournament, table: TournamentTable) -> int:
        """The table's thread: public, or private (not invitable) for a same-deal tournament."""
        locale = tournament.locale
        channel = self.bot.get_channel(tournament.channel_id) or await self.bot.fetch_channel(tournament.channel_id)
        name = t("tournament.thread_name", locale, name=tx.title(tournament, locale, literal.plain),
                 round=table.round, table=table.number)  # Discord shows a thread's name as is
        assert isinstance(channel, discord.TextChannel)  # tournaments are created in a text channel
        private = rules_of(tournament).same_deal
        thread = await channel.create_thread(
            name=name[:THREAD_NAME], auto_archive_duration=1440, invitable=not private,
            type=discord.ChannelType.private_thread if private else discord.ChannelType.public_thread)
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
            needed, thread_kind = thread_permissions(tournament)
            lacking = missing_in_channel(self.bot, tournament.guild_id, tournament.channel_id, needed)
            reason = t("tournament.not_opening.missing", locale,
                       missing=permission_names(lacking or [thread_kind], locale))
        else:
            reason = t("tournament.not_opening.error", locale, error=getattr(error, "status", type(error).__name__))
        text = t("tournament.not_opening", locale, name=tx.title(tournament, locale), round=table.round,
                 table=table.number, channel=f"<#{tournament.channel_id}>", reason=reason)
        try:
            user = self.bot.get_user(tournament.creator_id) or await self.bot.fetch_user(tournament.creator_id)
            await asyncio.wait_for(user.send(text, allowed_mentions=NO_MENTIONS), REQUEST_TIMEOUT)
        except FAILURES as failure:
            log.warning("tournament %s: could not tell its organiser (%s)", tournament.id, type(failure).__name__)

    async def on_tournament(self, update: TournamentUpdate, done: set[str], nonces: Nonces) -> None:
        """The channel side of one update, step by step. ``done``: the steps Discord took on an earlier try
        (skipped now); each step taken is added, so a try again after a failure posts nothing twice (and a post
        whose answer was lost carries the same nonce again: ``nonces``)."""
        tn, kind, locale = update.tournament, update.kind, update.tournament.locale
        service = self.bot.tournaments
        channel = NoncedChannel(self.bot, tn.channel_id, tn.guild_id, nonces)
        signup_id, standings_id = tn.signup_message_id, tn.standings_message_id
        steps: list[tuple[str, Callable[[], Awaitable[object]]]] = []
        if kind is not Kind.RESULT and signup_id:  # the sign-up message follows the tournament
            steps.append(("signup", lambda: channel.get_partial_message(signup_id).edit(
                content=None, embed=signup_embed(tn, locale), view=signup_view(tn, locale))))
        if kind in (Kind.CHECKIN, Kind.CHECKIN_CLOSED, Kind.NOT_STARTED, Kind.CHECKIN_REMINDER):
            steps.append(("checkin", lambda: self.on_checkin(update, channel)))
        if kind is Kind.STARTED:
            steps.append(("missed_checkin", lambda: self.call(channel, *tx.missed_checkin(tn, locale,
                                                                                           update.people))))
            steps.append(("standings", lambda: self.post_standings(channel, service, tn)))
        if kind in (Kind.ROUND, Kind.RESULT, Kind.BREAK) and standings_id:
            steps.append(("standings", lambda: self.edit_standings(channel, service, tn, standings_id)))
        if (compared := due_round(update, posted_rounds(self.bot))) is not None:
            steps.append(("comparison", lambda: post_comparison(self.bot, channel, tn, compared)))
        if kind is Kind.ROUND and (seated := update.round) is not None:
            steps.append(("round", lambda: self.call(
                channel, "\n".join(tx.round_lines(tn, seated, locale))[:MESSAGE_CONTENT], tx.called_people(tn, seated),
                always=True)))
        if kind is Kind.NO_SHOWS and (ended := update.round) is not None:
            for i, (text, people, back) in enumerate(tx.no_show_calls(tn, ended, update.people, locale)):
                steps.append((f"no_shows{i}", partial(self.call, channel, text, people,
                                                      view=back_view(tn, locale) if back else None)))
        if kind is Kind.BREAK and tn.next_round_at is not None:
            steps.append(("break", lambda: channel.send(tx.break_text(tn, locale), allowed_mentions=NO_MENTIONS)))
        if kind is Kind.FINISHED:
            steps.append(("final", lambda: self.post_final(channel, service, tn)))
        for name, step in steps:
            if name not in done:
                nonces.at(name)
                await step()
                done.add(name)

    @staticmethod
    async def post_standings(channel: discord.PartialMessageable, service: TournamentService,
                             tn: Tournament) -> None:
        embed, files = await standings_message(service, tn, tn.locale)
        message = await channel.send(embed=embed, files=files, allowed_mentions=NO_MENTIONS)
        await service.set_messages(tn, standings_message_id=message.id)

    @staticmethod
    async def edit_standings(channel: discord.PartialMessageable, service: TournamentService, tn: Tournament,
                             message_id: int) -> None:
        embed, files = await standings_message(service, tn, tn.locale)
        await channel.get_partial_message(message_id).edit(embed=embed, attachments=files)

    async def on_checkin(self, update: TournamentUpdate, channel: discord.PartialMessageable) -> None:
        """Check-in opened (the entrants not checked in are called), closed at its deadline (those dropped are told
        why, once), or its deadline could not start the tournament (the channel is told why)."""
        tn, locale = update.tournament, update.tournament.locale
        if update.kind is Kind.CHECKIN:
            await self.call(channel, *tx.checkin_call(tn, locale))
        elif update.kind is Kind.CHECKIN_REMINDER:
            await self.call(channel, *tx.checkin_reminder(tn, locale, update.people))
        elif update.kind is Kind.CHECKIN_CLOSED:
            await self.call(channel, *tx.missed_checkin(tn, locale, update.people, at_deadline=True))
        elif update.error is not None:
            await channel.send(t("tournament.not_started", locale, name=tx.title(tn, locale),
                                 reason=user_message(update.error, locale)), allowed_mentions=NO_MENTIONS)

    @staticmethod
    async def call(channel: discord.PartialMessageable, text: str, people: list[int], *,
                   always: bool = False, view: discord.ui.View | None = None) -> None:
        """A message in the tournament's channel that pings exactly ``people`` (none: sent only if ``always``)."""
        if people or always:
            await channel.send(text, view=view or discord.utils.MISSING, allowed_mentions=discord.AllowedMentions(
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
        embed, files = await standings_message(service, tn, locale)
        final = await channel.send(tx.finished_text(tn, locale), embed=embed,
                                   files=files, allowed_mentions=NO_MENTIONS)
        await service.set_messages(tn, standings_message_id=final.id)  # a correction after the end edits it
