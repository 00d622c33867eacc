"""The tournament formats as one table of rules: how a round is seated, how many rounds are played (and what a drop
re-plans), and how places are decided. Seating, running, the service and the standings read ``rules_of`` instead of
comparing format names, so a format is one more row. A row is a format and a deal (``Deal``: each table its own, or
every table of a round the same): a combination without a row is refused at creation.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, replace
from typing import Callable, TypedDict

from bot.errors import HostError
from engines import get_engine

from . import knockout, matchpoints, round_robin, same_deal, seating
from .models import (
    ROUND_ROBIN_MAX,
    Deal,
    FirstRound,
    Format,
    TableStatus,
    Tournament,
    TournamentStatus,
    TournamentTable,
)
from .same_deal import Layout
from .standings import (
    RoundPoints,
    Standing,
    apply_final_table,
    compute_standings,
    knockout_field,
    knockout_final,
    knockout_places,
    pairing_order,
    placing_points,
    went_on,
)

Seating = tuple[list[list[int]], list[int]]  # (tables in seat order, byes)


@dataclass(frozen=True)
class FormatRules:
    seat: Callable[[Tournament, int, dict[int, float]], Seating]  # round ``number``'s tables and byes
    # Rounds a field of ``count`` plays from the start (None: the organiser's ``rounds``, as for a Swiss).
    planned: Callable[[Tournament, int], int] | None
    # Rounds before the final table given what was played: a round robin or a knockout re-plans after a drop
    # (``counting_away``: the away too, as during the pause, when they may still come back).
    rounds_after: Callable[[Tournament, bool], int]
    places: Callable[[Tournament, list[Standing]], list[Standing]]  # the final order, from the points' order
    min_entrants: int = 2
    max_entrants: int | None = None
    rounds_refused: str | None = None  # the error when the organiser gives ``rounds`` to a format that plans them
    final_table: bool = True            # may end with a final table of the top of the standings
    final_table_refused: str = "tournament.no_final_table"  # the error when it may not and the organiser asks
    advance: bool = False               # takes ``advance`` (the top k of each table go on)
    cut: bool = False                   # takes ``cut`` (the top k of a Swiss stage go on to a knockout)
    # Refuses (HostError) a correction (a set result, or a void when ``void``) of a table that later rounds rest on.
    check_correction: Callable[[Tournament, TournamentTable, bool], None] = lambda t, table, void: None
    # Every table of a round plays the same deal (the engines' per-seat streams) and a seat's result is compared
    # with the other tables' holders of that seat (issue 55).
    same_deal: bool = False
    # Round ``number``'s tables (seated by ``seat``) laid out seat by seat, None where a bot fills a seat (a
    # same-deal round's tables all have as many seats); None: the tables are seated as ``seat`` gives them.
    lay_out: Callable[[Tournament, int, list[list[int]]], list[Layout]] | None = None
    # The points a round gives at each of its finished tables: by place, or a same-deal round's matchpoints.
    round_points: Callable[[Tournament, int], RoundPoints] = placing_points


def rules_of(tournament: Tournament) -> FormatRules:
    return FORMATS[tournament.format, tournament.deal]


def min_field(tournament: Tournament) -> int:
    """The fewest entrants a round is seated with: one table's smallest size, or, when a round's tables are
    compared (same deal), one more, for two tables."""
    return tournament.seats_min + (1 if rules_of(tournament).same_deal else 0)


def rules_for(format: Format, deal: Deal) -> FormatRules:
    """The row of ``format`` played with ``deal``; refused (HostError) when the two do not go together."""
    rules = FORMATS.get((format, deal))
    if rules is None:
        raise HostError("tournament.same_deal_formats")
    return rules


def first_order(t: Tournament, ratings: dict[int, float], rng: random.Random) -> list[int]:
    """Round one's order (best seed first): by rating, or random."""
    active = [e.user_id for e in t.seatable_entrants()]
    if t.first_round is FirstRound.RATING:
        return sorted(active, key=lambda u: (-ratings.get(u, 0.0), t.entrants[u].seq))
    rng.shuffle(active)
    return active


def _rng(t: Tournament, number: int) -> random.Random:
    return random.Random(f"{t.seed}:{number}")


def _seat_final(t: Tournament, ratings: dict[int, float]) -> Seating:
    return [seating.final_table(pairing_order(t, ratings), t.seats_min, t.seats_max)], []


def _seat_swiss(t: Tournament, number: int, ratings: dict[int, float],
                sizes: tuple[int, int] | None = None) -> Seating:
    """A Swiss round: similar points together, repeat opponents avoided (``sizes``: people per table, when not the
    organiser's range)."""
    if t.is_final_round(number):
        return _seat_final(t, ratings)
    low, high = sizes or (t.seats_min, t.seats_max)
    rng = _rng(t, number)
    # a cancelled table is no meeting (it counts for nobody's opponents either); a void one was replayed
    history = [tb.players for tb in t.tables if tb.status in (TableStatus.PENDING, TableStatus.RUNNING,
                                                             TableStatus.FINISHED)]
    byes_had = Counter(uid for tb in t.tables if tb.status is TableStatus.BYE for uid in tb.players)
    rows = [r for r in compute_standings(t, ratings, through_round=t.rounds) if not (r.dropped or r.away)]
    order = [r.user_id for r in rows] if number > 1 else first_order(t, ratings, rng)
    points = {r.user_id: r.points for r in rows}
    return seating.swiss_round(order, low, high, history, byes_had, rng, points)


def _seat_same_deal_swiss(t: Tournament, number: int, ratings: dict[int, float]) -> Seating:
    """A same-deal Swiss round: the people spread over tables of one size (``same_deal.table_size``), so that the
    seats bots fill (``lay_out``) differ by at most one from table to table, and nobody has a bye."""
    count = len(t.seatable_entrants())
    size = same_deal.table_size(count, t.seats_min, t.seats_max)
    return _seat_swiss(t, number, ratings, None if size is None else same_deal.balanced_range(count, size))


def _lay_out_same_deal(t: Tournament, number: int, groups: list[list[int]]) -> list[Layout]:
    """Every table of a same-deal round given the same number of seats, bots in the seats left, and the seats
    rotated over the rounds (``same_deal.lay_out``)."""
    seated = sum(len(g) for g in groups)
    size = max([len(g) for g in groups] + [same_deal.table_size(seated, t.seats_min, t.seats_max) or 0])
    earlier = [tb for tb in t.tables if tb.round < number]
    return same_deal.lay_out(groups, size, earlier, random.Random(f"{t.seed}:{number}:seats"))


def _seat_round_robin(t: Tournament, number: int, ratings: dict[int, float]) -> Seating:
    if t.is_final_round(number):
        return _seat_final(t, ratings)
    first = round_robin.rounds_left(t, number - 1)[0]
    return first.tables, first.byes


def swiss_cut(t: Tournament, ratings: dict[int, float] | None = None) -> list[int]:
    """A Swiss stage's top ``cut`` who can be seated (not dropped, not away), best first: the knockout's seeds."""
    rows = compute_standings(t, ratings, through_round=t.swiss_rounds)
    return [r.user_id for r in rows if not (r.dropped or r.away)][:t.cut]


def _seat_knockout(t: Tournament, number: int, ratings: dict[int, float]) -> Seating:
    """A knockout's round, or the round of a Swiss stage before one (``swiss_rounds``: 0 for a knockout)."""
    if number <= t.swiss_rounds:
        return _seat_swiss(t, number, ratings)
    if number == t.swiss_rounds + 1:  # the knockout's first round: seeded by rating or at random, or by the Swiss
        order = swiss_cut(t, ratings) if t.swiss_rounds else first_order(t, ratings, _rng(t, number))
    else:
        order = knockout_field(t, number - 1)
    stage = [tb for tb in t.tables if tb.round > t.swiss_rounds]  # a Swiss stage's byes and games are its own
    byes_had = Counter(u for tb in stage if tb.status == TableStatus.BYE for u in tb.players)
    played = frozenset(u for tb in stage if tb.status in (TableStatus.FINISHED, TableStatus.CANCELLED)
                       for u in tb.players)
    last_byes = frozenset(u for tb in stage if tb.round == number - 1 and tb.status == TableStatus.BYE
                          for u in tb.players)
    seated = knockout.seat_round(order, t.seats_min, t.seats_max, t.advance, byes_had=byes_had, last_byes=last_byes,
                                 played=played if number > t.swiss_rounds + 1 else None)
    assert seated is not None, "the knockout's rounds_after says there is no next round"
    return seated


def _goes_on(t: Tournament, done: int, user_id: int) -> bool:
    """Whether ``user_id`` goes on from round ``done`` (over) of a knockout stage, or made a Swiss stage's cut at
    its last round: their absence aside."""
    if t.cut and done == t.swiss_rounds:
        rows = compute_standings(t, through_round=t.swiss_rounds)
        return user_id in [r.user_id for r in rows if not r.dropped][:t.cut]
    return any(u == user_id for tb in t.round_tables(done) for _, _, u in went_on(t, tb))


def can_come_back(t: Tournament, user_id: int) -> bool:
    """Whether an away entrant who presses Seat me again would be seated again: always in a Swiss or a round robin
    (and before a Swiss stage's last round is over); in a knockout, or at a Swiss stage's cut, only once the round is
    over and if they went on from it (or made the cut: their absence aside)."""
    if t.status != TournamentStatus.RUNNING:
        return False  # it ended (a knockout without a pause ends the moment too few are left): no seat to come back to
    done = t.current_round
    over = all(tb.done for tb in t.round_tables(done))
    if t.cut and done == t.swiss_rounds and over:
        return _goes_on(t, done, user_id)
    if not t.knockout_stage:
        return True
    return over and _goes_on(t, done, user_id)


def seated_without(t: Tournament, user_id: int) -> bool:
    """Whether an away entrant went on from the round before the current one (or made the cut) and the current
    round was seated without them: they came back too late for it, and a knockout seats only who goes on."""
    before, now = t.current_round - 1, t.current_round
    if before < 1 or not (t.advance and (before > t.swiss_rounds or (t.cut and before == t.swiss_rounds))):
        return False
    if any(user_id in tb.players for tb in t.round_tables(now)):
        return False
    return _goes_on(t, before, user_id)


def _knockout_rounds_after(t: Tournament, counting_away: bool = False) -> int:
    """The rounds planned at the start while a round is under way (and through a Swiss stage before the knockout);
    once a knockout round is done (or the Swiss stage), re-planned from who goes on (a drop can shorten it;
    ``counting_away``: with the no-shows who went on, who may come back during the pause); none after the final
    table."""
    done = t.current_round
    if done < t.swiss_rounds or done == 0 or not all(tb.done for tb in t.round_tables(done)):
        return t.rounds
    if knockout_final(t, done) is not None:
        return done
    field = swiss_cut(t) if done == t.swiss_rounds else knockout_field(t, done, counting_away=counting_away)
    left = knockout.rounds_for(len(field), t.seats_min, t.seats_max, t.advance)
    if not left and (len(field) > t.seats_max or get_engine(t.game).min_players <= len(field)):
        left = 1  # drops left a field no plan reaches: one round at the sizes that fit, then re-planned
    return done + left


def _knockout_correction(t: Tournament, table: TournamentTable, void: bool) -> None:
    """A knockout round whose players went on to the next one is settled: changing it would change who should have
    played since. After the end, the final table is corrected by its result, not voided (it would leave no final)."""
    if table.round < t.current_round and t.knockout_stage:  # a Swiss stage's rounds, before its cut, stay open
        if table.round <= t.swiss_rounds:
            raise HostError("tournament.swiss_round_settled", round=table.round)
        raise HostError("tournament.knockout_round_settled", round=table.round, next=table.round + 1)
    if void and t.status == TournamentStatus.FINISHED:
        raise HostError("tournament.knockout_final_void")


def _planned_round_robin(t: Tournament, count: int) -> int:
    return round_robin.planned_rounds(count, t.seats_min, t.seats_max, t.seed)


def _planned_knockout(t: Tournament, count: int) -> int:
    """A knockout's rounds for a field of ``count``; after a Swiss stage, its rounds and the knockout of its top
    ``cut`` (0, refused at the start, when the field is smaller than the cut or no knockout fits it)."""
    if not t.cut:
        return knockout.rounds_for(count, t.seats_min, t.seats_max, t.advance)
    rounds = knockout.rounds_for(t.cut, t.seats_min, t.seats_max, t.advance)
    return t.swiss_rounds + rounds if rounds and count >= t.cut else 0


def _final_table_places(t: Tournament, rows: list[Standing]) -> list[Standing]:
    return apply_final_table(t, rows) if t.final_table else rows


_SWISS = FormatRules(seat=_seat_swiss, planned=None, rounds_after=lambda t, away: t.rounds, places=_final_table_places)
_ROUND_ROBIN = FormatRules(seat=_seat_round_robin, planned=_planned_round_robin,
                           rounds_after=lambda t, away: round_robin.planned_total(t), places=_final_table_places,
                           max_entrants=ROUND_ROBIN_MAX, rounds_refused="tournament.round_robin_rounds")


class _SameDeal(TypedDict):
    """What a same-deal row changes of its own-deal row."""

    same_deal: bool
    final_table: bool
    final_table_refused: str
    round_points: Callable[[Tournament, int], RoundPoints]


_SAME = _SameDeal(same_deal=True, final_table=False, final_table_refused="tournament.same_deal_final_table",
                  round_points=matchpoints.round_points)
FORMATS: dict[tuple[Format, Deal], FormatRules] = {
    (Format.SWISS, Deal.OWN): _SWISS,
    (Format.ROUND_ROBIN, Deal.OWN): _ROUND_ROBIN,
    (Format.KNOCKOUT, Deal.OWN): FormatRules(seat=_seat_knockout, planned=_planned_knockout,
                                             rounds_after=_knockout_rounds_after, places=knockout_places,
                                             rounds_refused="tournament.knockout_rounds", final_table=False,
                                             advance=True, check_correction=_knockout_correction),
    # Challonge's two stages: ``rounds`` Swiss rounds, then a knockout of the top ``cut`` seeded by their standings.
    (Format.SWISS_KNOCKOUT, Deal.OWN): FormatRules(seat=_seat_knockout, planned=_planned_knockout,
                                                   rounds_after=_knockout_rounds_after, places=knockout_places,
                                                   final_table=False, advance=True, cut=True,
                                                   check_correction=_knockout_correction),
    # Same-deal rounds (issue 55): a Swiss or a round robin whose every round is one deal played at every table.
    # A final table is one table: nobody to compare it with.
    (Format.SWISS, Deal.SAME): replace(_SWISS, seat=_seat_same_deal_swiss, lay_out=_lay_out_same_deal, **_SAME),
    (Format.ROUND_ROBIN, Deal.SAME): replace(_ROUND_ROBIN, lay_out=_lay_out_same_deal, **_SAME),
}
assert {f for f, _ in FORMATS} == set(Format), "every format has its rules"


def first_round_tables(t: Tournament, count: int) -> int:
    """How many tables round 1 of a field of ``count`` seats (a knockout's plan, else the fewest byes and tables):
    what the start checks against the server's room for running tables."""
    if rules_of(t).advance and not t.swiss_rounds:
        rounds = knockout.plan(count, t.seats_min, t.seats_max, t.advance)
        return len(rounds[0].sizes) if rounds else 0
    size = same_deal.table_size(count, t.seats_min, t.seats_max) if rules_of(t).same_deal else None
    if size is not None:  # a same-deal round: every table of one size, bots filling what is left
        return -(-count // size)
    return len(seating.table_sizes(count, t.seats_min, t.seats_max)[0])

