"""The comparison after a same-deal round (issue 55), in the tournament's channel: one message per seat (names
shown literally, never as mentions) with a Review button per table, opening that table's review from that seat.

When: once every table of the round is done, with the update that follows it — the pause (``BREAK``), else the
next round's seating (``ROUND``) or the end (``FINISHED``); each round is posted once per process (a restart
during a pause that then ends the tournament may post it once more). Never while a table of the round plays."""
from __future__ import annotations

import weakref
from typing import Any

import discord

from bot.client import GameHostBot
from bot.outgoing import Outgoing
from bot.tournaments import Tournament, TournamentUpdate
from bot.tournaments import comparison as cmp
from bot.tournaments.formats import rules_of
from bot.tournaments.models import TableStatus
from bot.tournaments.models import TournamentUpdateKind as Kind

from .custom_ids import ID, SEAT
from .look_back import LookBackItem
from .review import open_viewer

_posted: weakref.WeakKeyDictionary[discord.Client, set[tuple[int, int]]] = weakref.WeakKeyDictionary()


def due_round(update: TournamentUpdate, posted: set[tuple[int, int]]) -> int | None:
    """The same-deal round whose comparison this update posts (None: none). A pause follows a round's end; without
    one (no pause, or the organiser moved on mid-round, cancelling the tables still playing) the next round's
    seating or the end does; a final table is no comparison."""
    tn = update.tournament
    if not rules_of(tn).same_deal:
        return None
    if update.kind is Kind.BREAK:
        number = update.round or 0
    elif update.kind is Kind.ROUND and update.round:
        number = update.round - 1
        cancelled = any(tb.status is TableStatus.CANCELLED for tb in tn.round_tables(number))
        if tn.break_seconds and not cancelled:
            return None  # its pause posted it
    elif update.kind is Kind.FINISHED:
        number = tn.current_round
    else:
        return None
    if number < 1 or tn.is_final_round(number) or (tn.id, number) in posted:
        return None
    if not any(tb.status is TableStatus.FINISHED for tb in tn.round_tables(number)):
        return None
    return number


def posted_rounds(bot: discord.Client) -> set[tuple[int, int]]:
    return _posted.setdefault(bot, set())


async def game_facts(bot: GameHostBot, tn: Tournament, number: int) -> cmp.GameFacts:
    """Each compared table's seats: the name seated there and the game's own score for it."""
    facts: cmp.GameFacts = {}
    for tb in cmp.compared_tables(tn, number):
        if tb.game_id is None:
            continue
        game = await bot.service.table(tb.game_id)
        result = game.result()
        scores = result.scores if result is not None else {}
        facts[tb.game_id] = {s.seat: (s.name, scores.get(s.player)) for s in game.seats}
    return facts


def comparison_view(part: cmp.Part, locale: object | None) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for held in part.held:
        if held.game_id:
            view.add_item(CompareReviewButton(held.game_id, held.seat, cmp.button_label(held, locale)))
    return view


def comparison_messages(tn: Tournament, number: int, facts: cmp.GameFacts) -> list[Outgoing]:
    """The round's comparison as messages to send: its heading, then one message per seat (a seat of more than 25
    tables, or of more than an embed holds, several), each with its tables' Review buttons."""
    locale = tn.locale
    parts = cmp.parts(tn, number, facts, locale)
    heading = cmp.heading(tn, number, locale)
    if not parts:
        return [Outgoing(content=heading)]
    return [Outgoing(content=heading if i == 0 else None,
                     embed=discord.Embed(title=part.title, description="\n".join(part.lines), colour=0x9B59B6),
                     view=comparison_view(part, locale))
            for i, part in enumerate(parts)]


async def post_comparison(bot: GameHostBot, channel: discord.abc.Messageable, tn: Tournament, number: int) -> None:
    for message in comparison_messages(tn, number, await game_facts(bot, tn, number)):
        await channel.send(**message.send())
    posted_rounds(bot).add((tn.id, number))


class CompareReviewButton(LookBackItem, template=rf"gh:cmp:(?P<gid>{ID}):(?P<seat>{SEAT})"):
    """Review under a same-deal round's comparison: the table's review following the seat compared (another's
    hand, which the viewer shows only once the round is over, or the clicker's own)."""

    def __init__(self, game_id: int, seat: int, label: str = "") -> None:
        super().__init__(discord.ui.Button(label=label or "·", emoji="🎞️", style=discord.ButtonStyle.secondary,
                                           custom_id=f"gh:cmp:{game_id}:{seat}"))
        self.game_id, self.seat = game_id, seat

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any, match: Any) -> "CompareReviewButton":
        return cls(int(match["gid"]), int(match["seat"]))

    async def run(self, interaction: discord.Interaction) -> None:
        await open_viewer(interaction, self.game_id, self.seat)
