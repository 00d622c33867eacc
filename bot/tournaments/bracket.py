"""A knockout's bracket as data for its picture (``bot.render.bracket_image``): each round a column of boxes, one per
table (or bye), with its entrants in the order the text bracket lists them (best placed first once the table ended,
else in seat order) and who went on marked; the rounds the plan still has to play as empty boxes of their sizes."""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot import literal

from . import knockout
from .models import TableStatus, Tournament, TournamentStatus, TournamentTable
from .standings import Standing, knockout_final, went_on


class BoxState(StrEnum):
    PLAYING = "playing"      # seated, no result yet
    DONE = "done"            # finished: places, who went on
    CANCELLED = "cancelled"  # cancelled before its end: its best seeds went on
    BYE = "bye"              # went on without playing
    PLANNED = "planned"      # a later round of the plan, not seated yet


@dataclass(frozen=True)
class BracketEntry:
    name: str               # as typed, less hidden characters (``literal.plain``)
    number: int             # what stands for a name the font cannot draw: a bot's number, else the person's place
                            # in the standings (0 while still in: none yet)
    is_bot: bool
    place: int | None       # the place at the table, once it ended
    advanced: bool          # went on to the next round (or won the final table)


@dataclass(frozen=True)
class BracketBox:
    table: int | None       # the table's number as the commands and the text bracket give it (None: a bye, a plan)
    state: BoxState
    entries: tuple[BracketEntry, ...]
    seats: int              # the seats drawn (a planned box has no entrants yet)


@dataclass(frozen=True)
class BracketRound:
    number: int
    final: bool
    boxes: tuple[BracketBox, ...]


def bracket(tournament: Tournament, rows: list[Standing]) -> list[BracketRound]:
    """The rounds seated so far, then (while the tournament runs) the rounds its plan still has to seat."""
    places = {row.user_id: row.place for row in rows}
    rounds = []
    for number in range(tournament.swiss_rounds + 1, tournament.current_round + 1):  # the knockout's rounds
        tables = [tb for tb in tournament.round_tables(number) if tb.status != TableStatus.VOID]
        if tables:
            final = knockout_final(tournament, number) is not None
            boxes = tuple(_box(tournament, table, final, places) for table in tables)
            rounds.append(BracketRound(number, final, boxes))
    if tournament.status == TournamentStatus.RUNNING:
        rounds += _planned(tournament)
    return rounds


def _box(tournament: Tournament, table: TournamentTable, final: bool, places: dict[int, int]) -> BracketBox:
    if table.status == TableStatus.BYE:
        entries: tuple[BracketEntry, ...] = (_entry(tournament, table.players[0], places, None, True),)
        return BracketBox(None, BoxState.BYE, entries, 1)
    size = len(table.players)
    if table.status == TableStatus.FINISHED:
        order = sorted(table.players, key=lambda u: (table.results.get(u, (size, 0.0))[0], table.players.index(u)))
        state = BoxState.DONE
    else:
        order = list(table.players)
        state = BoxState.CANCELLED if table.status == TableStatus.CANCELLED else BoxState.PLAYING
    if final:
        through = {u for u in order if table.results.get(u, (size, 0.0))[0] == 1} if state is BoxState.DONE else set()
    else:
        through = {u for _, _, u in went_on(tournament, table)}
    shown_place = state is BoxState.DONE
    entries = tuple(_entry(tournament, u, places, table.results.get(u, (size, 0.0))[0] if shown_place else None,
                           u in through) for u in order)
    return BracketBox(table.number, state, entries, size)


def _entry(tournament: Tournament, user_id: int, places: dict[int, int], place: int | None,
           advanced: bool) -> BracketEntry:
    entrant = tournament.entrants[user_id]
    number = -user_id if entrant.is_bot else places.get(user_id, 0)
    return BracketEntry(literal.plain(entrant.name), number, entrant.is_bot, place, advanced)


def _planned(tournament: Tournament) -> list[BracketRound]:
    """The rounds still to seat, as the plan has them for the field going on (none when no plan fits it)."""
    t = tournament
    current = t.round_tables(t.current_round)
    count = sum(len(went_on(t, tb)) if tb.done else min(t.advance, len(tb.players)) for tb in current
                if tb.status != TableStatus.VOID)
    if not current or knockout_final(t, t.current_round) is not None:
        return []
    plan = knockout.plan(count, t.seats_min, t.seats_max, t.advance) or ()
    return [BracketRound(t.current_round + i + 1, step.final,
                         tuple([BracketBox(None, BoxState.PLANNED, (), size) for size in step.sizes]
                               + [BracketBox(None, BoxState.PLANNED, (), 1)] * step.byes))
            for i, step in enumerate(plan)]
