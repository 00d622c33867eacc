"""Standings: points by placement (or, for a same-deal row, the matchpoints its ``FormatRules.round_points``
names), then the tie-breakers (opponents' points, then rating).

Opponents' points is the mean, over every opponent met (a repeat counts again), of that opponent's points, so
players seated at smaller tables are not penalised. After a final table, its placings decide the top places and
everyone else follows in Swiss order.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .models import EntrantStatus, TableStatus, Tournament, TournamentStatus, TournamentTable, ranking_points

if TYPE_CHECKING:
    from bot.table import Table

RoundPoints = dict[int, dict[int, float]]  # a round's points: {table number: {entrant: points}}
DECIDED = (TableStatus.FINISHED, TableStatus.CANCELLED, TableStatus.BYE)  # a knockout table that put players out


@dataclass
class Standing:
    user_id: int
    name: str
    points: float = 0.0
    games: int = 0           # tables played (a forfeit is not a game played)
    wins: int = 0            # outright firsts (a shared first is not a win)
    byes: int = 0
    forfeits: int = 0        # seats a bot played after this person dropped: last place, no points
    no_shows: int = 0        # tables where they never moved while a bot played their seat: the same
    game_points: float = 0.0
    bye_points: float = 0.0
    opponents: list[int] = field(default_factory=list)
    opp_points: float = 0.0
    rating: float = 0.0
    dropped: bool = False
    away: bool = False       # a no-show not back yet: not seated until they come back
    seq: int = 0
    place: int = 0           # shared when points and both tie-breakers are equal
    final_place: int | None = None
    out_round: int | None = None   # a knockout: the round this player went out in (None: still in, or a finalist)
    out_place: int = 0             # ... and their place at that table
    out_table: int = 0
    out_cancelled: bool = False    # ... a table cancelled before its end: placed there by seed
    decided: bool = False          # ... it ended with no final table: placed on top by the last round
    out_bye: bool = False          # ... that was a bye
    out_absent: bool = False       # ... did not play that table (a no-show, a forfeit, a bye): below who did
    left: bool = False             # ... went on from it, then played no more (dropped, or away)

    @property
    def key(self) -> tuple[float, float, float]:
        return (round(self.points, 4), round(self.opp_points, 4), round(self.rating, 4))


def compute_standings(tournament: Tournament, ratings: dict[int, float] | None = None, *,
                      through_round: int | None = None) -> list[Standing]:
    """Standings over the Swiss / round-robin rounds (up to ``through_round``), best first."""
    ratings = ratings or {}
    rows = {e.user_id: Standing(e.user_id, e.name, dropped=e.status == EntrantStatus.DROPPED, seq=e.seq,
                                away=e.status == EntrantStatus.AWAY, rating=ratings.get(e.user_id, 0.0))
            for e in tournament.entrants.values()}
    last = tournament.rounds if through_round is None else min(through_round, tournament.rounds)
    from .formats import rules_of  # the formats' table seats rounds with these standings: imported late

    rules = rules_of(tournament)
    round_points: dict[int, RoundPoints] = {}
    current = tournament.current_round
    playing = not all(tb.done for tb in tournament.round_tables(current))
    for table in tournament.tables:
        if table.round > last:
            continue
        if table.status is TableStatus.BYE and table.round == current and playing:
            continue  # a bye scores once its round is over, with the games played meanwhile (never before any)
        if table.status is TableStatus.BYE:
            for uid, (_, points) in table.results.items():
                rows[uid].points += points
                rows[uid].bye_points += points
                rows[uid].byes += 1
            continue
        if table.status is TableStatus.FINISHED:  # a cancelled or void table counts for nobody, opponents included
            if table.round not in round_points:
                round_points[table.round] = rules.round_points(tournament, table.round)
            _count_table(rows, table, round_points[table.round][table.number])
    for row in rows.values():
        if row.opponents:
            row.opp_points = sum(rows[o].points for o in row.opponents) / len(row.opponents)
    ordered = sorted(rows.values(), key=lambda r: (-r.key[0], -r.key[1], -r.key[2], r.seq))
    _number(ordered)
    if through_round is None:
        ordered = rules.places(tournament, ordered)
    return ordered


def placing_points(tournament: Tournament, number: int) -> RoundPoints:
    """The points round ``number`` gives at each finished table: by place, as recorded (``ranking_points``)."""
    return {tb.number: {uid: points for uid, (_, points) in tb.results.items()}
            for tb in tournament.round_tables(number) if tb.status is TableStatus.FINISHED}


def _count_table(rows: dict[int, Standing], table: TournamentTable, points_of: dict[int, float]) -> None:
    firsts = sum(1 for place, _ in table.results.values() if place == 1)
    for uid in table.players:
        row = rows[uid]
        row.opponents += [o for o in table.players if o != uid]
        if uid in table.forfeits:
            row.forfeits += 1
        elif uid in table.no_shows:
            row.no_shows += 1
        elif uid in table.results:
            place, _ = table.results[uid]
            points = points_of[uid]
            row.points += points
            row.game_points += points
            row.games += 1
            row.wins += place == 1 and firsts == 1


def _number(ordered: list[Standing]) -> None:
    for i, row in enumerate(ordered):
        row.place = ordered[i - 1].place if i and ordered[i - 1].key == row.key else i + 1


def apply_final_table(tournament: Tournament, ordered: list[Standing]) -> list[Standing]:
    final = [t for t in tournament.round_tables(tournament.rounds + 1) if t.status is TableStatus.FINISHED]
    if not final:
        return ordered
    table = final[-1]
    position = {row.user_id: i for i, row in enumerate(ordered)}
    finalists = sorted(table.players, key=lambda u: (table.results.get(u, (99, 0))[0], position[u]))
    by_id = {row.user_id: row for row in ordered}
    top = [by_id[u] for u in finalists]
    for row in top:
        row.final_place = table.results.get(row.user_id, (None, 0))[0]
    rest = [row for row in ordered if row.user_id not in table.players]
    out = top + rest
    for i, row in enumerate(out):
        same_final = i and row.final_place is not None and out[i - 1].final_place == row.final_place
        row.place = out[i - 1].place if same_final else i + 1
    for i, row in enumerate(rest, start=len(top)):
        row.place = out[i - 1].place if i > len(top) and out[i - 1].key == row.key else i + 1
    return out


def went_on(tournament: Tournament, table: TournamentTable) -> list[tuple[int, int, int]]:
    """A knockout table's players who go on, as ``(place, seat, entrant)``: its top ``advance`` (a tie across the
    cut goes to the better seed, who sits first); a bye's player; a table cancelled before its end sends on its
    best seeds. Nobody from a void table (it is replayed) or one still playing."""
    if table.status is TableStatus.BYE:
        return [(0, 0, table.players[0])]
    if table.status not in (TableStatus.FINISHED, TableStatus.CANCELLED):
        return []
    size = len(table.players)
    ranked = sorted((table.results.get(u, (size, 0.0))[0], seat, u) for seat, u in enumerate(table.players))
    return ranked[:tournament.advance]


def knockout_field(tournament: Tournament, done: int, *, counting_away: bool = False) -> list[int]:
    """Who plays the round after ``done``, best seed first: those who went on from it (byes first, then by their
    place at their table, their seat, their table), less the dropped and the away (no-shows not back; kept when
    ``counting_away``, as while they may still come back)."""
    going_on = sorted((place, seat, table.number, u) for table in tournament.round_tables(done)
                      for place, seat, u in went_on(tournament, table))
    return [u for *_, u in going_on if tournament.entrants[u].seatable
            or (counting_away and tournament.entrants[u].status == EntrantStatus.AWAY)]


def knockout_final(tournament: Tournament, number: int) -> TournamentTable | None:
    """Round ``number``'s table when that round was the knockout's final table (one table, no byes)."""
    if number <= tournament.swiss_rounds:
        return None  # a round of the Swiss stage before a knockout
    tables = [tb for tb in tournament.round_tables(number) if tb.status is not TableStatus.VOID]
    return tables[0] if len(tables) == 1 and tables[0].status is not TableStatus.BYE else None


def knockout_places(tournament: Tournament, ordered: list[Standing]) -> list[Standing]:
    """A knockout's order: those still in, then the final table's places, then everyone else by the round they
    went out in (later first), those who played that round before those who did not (a no-show, a forfeit, a bye
    and then a drop), then their place at that table; after a Swiss stage, those it left out follow in its order
    (``out_round`` 0). During the Swiss stage, its standings."""
    t = tournament
    if not t.knockout_stage:
        return ordered
    by_id = {row.user_id: row for row in ordered}
    position = {row.user_id: i for i, row in enumerate(ordered)}
    current = t.current_round
    final = knockout_final(t, current) if current and all(tb.done for tb in t.round_tables(current)) else None
    still_in: list[int] = []
    if final is None and current:
        live = [u for tb in t.round_tables(current) if not tb.done for u in tb.players]
        gone_on = [u for tb in t.round_tables(current) for _, _, u in went_on(t, tb)]
        still_in = [u for u in live + gone_on if t.entrants[u].status != EntrantStatus.DROPPED]
    for row in ordered:
        row.out_round = 0 if t.swiss_rounds else None  # not in the knockout: out after the Swiss stage
    for table in sorted((tb for tb in t.tables if tb.status in DECIDED
                         and tb.round > t.swiss_rounds), key=lambda tb: tb.round):
        for u in table.players:
            row = by_id[u]
            row.out_round, row.out_table = table.round, table.number
            # a table cancelled before its end has no places: its players are ranked by seed (seat order)
            row.out_place = table.results[u][0] if u in table.results else table.players.index(u) + 1
            row.out_cancelled = table.status is TableStatus.CANCELLED
            row.out_bye = table.status is TableStatus.BYE
            row.out_absent = row.out_bye or u in table.no_shows or u in table.forfeits
            row.left = any(went == u for *_, went in went_on(t, table))
    if t.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED) and final is None and current:
        # It ended without a final table (too few left for one, or the organiser ended it): the last round decides.
        # Those who went on from it come first, by their place there; equal places share (co-champions). A no-show
        # who went on by seed and never came back is no champion over those who played (unless nobody did).
        went = {u for tb in t.round_tables(current) for _, _, u in went_on(t, tb)
                if t.entrants[u].status != EntrantStatus.DROPPED}
        present = {u for u in went if t.entrants[u].status != EntrantStatus.AWAY}
        decided = sorted(present or went, key=lambda u: (by_id[u].out_place, by_id[u].seq))
        for u in decided:
            by_id[u].decided = True
        finalists = [by_id[u] for u in decided]
        still_in = []
    else:
        finalists = sorted((by_id[u] for u in final.players), key=lambda r: (r.out_place, r.seq)) if final else []
        for row in finalists:
            row.final_place, row.out_round = row.out_place, None
    top = [by_id[u] for u in still_in]
    for row in top:
        row.out_round, row.place = None, 0
    placed = set(still_in) | {row.user_id for row in finalists}
    rest = sorted((r for r in ordered if r.user_id not in placed),
                  key=lambda r: (-(r.out_round or 0), r.out_absent, r.out_place,
                                 r.seq if r.out_round else position[r.user_id]))
    out = top + finalists + rest
    for i, row in enumerate(out):
        if row in top:
            continue
        before = out[i - 1]
        same = i > len(top) and (before.final_place, before.out_round, before.out_absent, before.out_place,
                                 before.decided) == (row.final_place, row.out_round, row.out_absent, row.out_place,
                                                     row.decided)
        if row.out_round == 0:  # left out by a Swiss stage's cut: shared only on equal Swiss standing
            same = same and out[i - 1].key == row.key
        row.place = out[i - 1].place if same else i + 1  # those still in will finish above
    return out


def pairing_order(tournament: Tournament, ratings: dict[int, float]) -> list[int]:
    """The entrants the next seating takes, in standings order (the Swiss pairing order)."""
    return [row.user_id for row in compute_standings(tournament, ratings, through_round=tournament.rounds)
            if not (row.dropped or row.away)]


def score_absent_seats(tournament: Tournament, table: TournamentTable, game: Table, *, no_shows: bool = True) -> None:
    """A seat a bot played for someone absent scores nothing for them: last place (shared with any other absent
    seat), no points; the others move up in their order (as if the absent had left the table first; points by the
    table's size); the absent's place is the table's last (4 at four seats, for two absent as for one). Absent is a
    person who dropped and whose seat a bot played (a **forfeit**), or one who never made a move of their own at the
    table while a bot played their seat (a **no-show**: timed out before their first move, or replaced before it).
    A person still entered who moved at the table keeps the seat's result however it ended, as does a person who
    dropped but played the game to its end. ``no_shows=False``: the organiser set the places by hand, and they
    stand for everyone who did not drop."""
    forfeits: set[int] = set()
    absentees: set[int] = set()
    for uid in table.players:
        entrant = tournament.entrants[uid]
        seat = next((s for s in game.seats if s.user_id == uid), None)
        if entrant.is_bot or (seat is not None and not seat.is_bot):
            continue  # a bot entrant, or a person who played their seat to the end
        if entrant.status == EntrantStatus.DROPPED:
            forfeits.add(uid)
        elif no_shows and seat is not None and not seat.showed_up:
            absentees.add(uid)
    table.forfeits, table.no_shows = forfeits, absentees
    absent = forfeits | absentees
    if not absent or not table.results:
        return
    places = sorted({place for uid, (place, _) in table.results.items() if uid not in absent})
    ranking = [[uid for uid, (place, _) in table.results.items() if place == p and uid not in absent]
               for p in places]
    table.results = ranking_points(ranking + [sorted(absent)])  # points by the table's size
    # the absent share the table's last place, shown as its number (never "1." for a table nobody played)
    table.results.update({uid: (len(table.players), 0.0) for uid in absent})
