"""Standings: points by placement, then the tie-breakers (opponents' points, then rating).

Opponents' points is the mean, over every opponent met (a repeat counts again), of that opponent's points, so
players seated at smaller tables are not penalised. After a final table, its placings decide the top places and
everyone else follows in Swiss order.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .models import Tournament, TournamentTable, ranking_points

if TYPE_CHECKING:
    from bot.table import Table


@dataclass
class Standing:
    user_id: int
    name: str
    points: float = 0.0
    games: int = 0           # tables played (a forfeit is not a game played)
    wins: int = 0            # outright firsts (a shared first is not a win)
    byes: int = 0
    forfeits: int = 0        # seats a bot played after this person dropped: last place, no points
    game_points: float = 0.0
    bye_points: float = 0.0
    opponents: list[int] = field(default_factory=list)
    opp_points: float = 0.0
    rating: float = 0.0
    dropped: bool = False
    seq: int = 0
    place: int = 0           # shared when points and both tie-breakers are equal
    final_place: int | None = None

    @property
    def key(self) -> tuple[float, float, float]:
        return (round(self.points, 4), round(self.opp_points, 4), round(self.rating, 4))


def compute_standings(tournament: Tournament, ratings: dict[int, float] | None = None, *,
                      through_round: int | None = None) -> list[Standing]:
    """Standings over the Swiss / round-robin rounds (up to ``through_round``), best first."""
    ratings = ratings or {}
    rows = {e.user_id: Standing(e.user_id, e.name, dropped=e.status == "dropped", seq=e.seq,
                                rating=ratings.get(e.user_id, 0.0)) for e in tournament.entrants.values()}
    last = tournament.rounds if through_round is None else min(through_round, tournament.rounds)
    for table in tournament.tables:
        if table.round > last:
            continue
        if table.status == "bye":
            for uid, (_, points) in table.results.items():
                rows[uid].points += points
                rows[uid].bye_points += points
                rows[uid].byes += 1
            continue
        if table.status == "finished":  # a cancelled or void table counts for nobody, opponents included
            _count_table(rows, table)
    for row in rows.values():
        if row.opponents:
            row.opp_points = sum(rows[o].points for o in row.opponents) / len(row.opponents)
    ordered = sorted(rows.values(), key=lambda r: (-r.key[0], -r.key[1], -r.key[2], r.seq))
    _number(ordered)
    if through_round is None and tournament.final_table:
        ordered = _apply_final_table(tournament, ordered)
    return ordered


def _count_table(rows: dict[int, Standing], table: TournamentTable) -> None:
    firsts = sum(1 for place, _ in table.results.values() if place == 1)
    for uid in table.players:
        row = rows[uid]
        row.opponents += [o for o in table.players if o != uid]
        if uid in table.forfeits:
            row.forfeits += 1
        elif uid in table.results:
            place, points = table.results[uid]
            row.points += points
            row.game_points += points
            row.games += 1
            row.wins += place == 1 and firsts == 1


def _number(ordered: list[Standing]) -> None:
    for i, row in enumerate(ordered):
        row.place = ordered[i - 1].place if i and ordered[i - 1].key == row.key else i + 1


def _apply_final_table(tournament: Tournament, ordered: list[Standing]) -> list[Standing]:
    final = [t for t in tournament.round_tables(tournament.rounds + 1) if t.status == "finished"]
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


def pairing_order(tournament: Tournament, ratings: dict[int, float]) -> list[int]:
    """Active entrants in standings order (the Swiss pairing order)."""
    return [row.user_id for row in compute_standings(tournament, ratings, through_round=tournament.rounds)
            if not row.dropped]


def forfeit_bot_seats(tournament: Tournament, table: TournamentTable, game: Table) -> None:
    """A seat a bot played for a person who dropped scores nothing for them: a forfeit, last place and no points;
    the others move up in their order (as if the person had left the table first). A person still entered whom the
    organiser replaced keeps the seat's result, as does a person who dropped but played the game to its end."""
    forfeits = {uid for uid in table.players if tournament.entrants[uid].status == "dropped"
                and not tournament.entrants[uid].is_bot and game.seat_of_user(uid) is None}
    if not forfeits or not table.results:
        return
    places = sorted({place for uid, (place, _) in table.results.items() if uid not in forfeits})
    ranking = [[uid for uid, (place, _) in table.results.items() if place == p and uid not in forfeits]
               for p in places]
    table.results = ranking_points(ranking + [sorted(forfeits)])
    table.results.update({uid: (len(table.players), 0.0) for uid in forfeits})
    table.forfeits = forfeits
