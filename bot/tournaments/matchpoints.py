"""Matchpoints (issue 55): in a same-deal round every table plays the same deal, seat ``i`` of every table holding
the same cards, so a seat's result is compared only with the other tables' holders of that seat. Per seat, each
holder scores 1 per table whose holder they outscored and ½ per table they tied, as a share of the most they could
score (the tables that played the seat, less one). Pure: reads a round's tables, knows nothing of Discord.

What is compared is the place at the table as the tournament recorded it (``TournamentTable.results``): the game's
own verdict, given by every game, and the same measure whatever the game counts. A no-show or a forfeit is
recorded last with 0 points (``standings.score_absent_seats``), and so it stays here: it scores no matchpoints,
and the seat's other holders are compared with it as with that last place. A cancelled or voided table is not
compared (it counts for nobody, as in the standings), nor a voided table's replay (a deal of its own); a bye is no
table. A seat a bot fills (``TournamentTable.fill``) is a holder like any other: the bot played that seat's cards
(one and the same bot at every table: the tournament's level, seeded by its seat), so the seat's other holders are
compared with its place (``fill_places``), but it scores for nobody. A seat that only one finished table played is
compared with nobody: its holder has no share, and scores by place as at an own-deal table, as a replay's players
do.
"""
from __future__ import annotations

from dataclasses import dataclass

from .models import WINNER_POINTS, TableStatus, Tournament, TournamentTable


@dataclass(frozen=True)
class SeatScore:
    """One table's holder of one seat, compared with that seat's other holders."""

    table: int                # the table's number in its round
    seat: int                 # 0-based, the seat order of ``TournamentTable.seat_list``
    user_id: int | None       # None: the bot filling the seat (compared with, scoring for nobody)
    place: int                # at the table, as recorded (a no-show's or a forfeit's: the table's last)
    absent: bool              # a no-show or a forfeit: no matchpoints
    matchpoints: float        # 1 per table outscored, ½ per table tied
    share: float | None       # matchpoints / (tables compared - 1); None when no other table played the seat

    @property
    def points(self) -> float | None:
        """The share on the standings' scale (3 for outscoring every other holder, 0 for none, a bye's 1.5 in the
        middle); None when compared with nobody."""
        return None if self.share is None else round(WINNER_POINTS * self.share, 4)


def compared_tables(tournament: Tournament, number: int) -> list[TournamentTable]:
    """Round ``number``'s tables whose results are compared: those that finished on the round's deal (not a bye, a
    cancelled or a voided one, nor a voided table's replay), by table number."""
    return sorted((tb for tb in tournament.round_tables(number) if tb.status is TableStatus.FINISHED
                   and not tb.attempt), key=lambda tb: tb.number)


def seat_scores(tables: list[TournamentTable]) -> dict[int, list[SeatScore]]:
    """Per seat (0-based), its holders at ``tables`` (finished tables of one round), in the tables' order: entrants
    with a result and the bots filling the seat with a place. A table without that seat, or a holder without a
    result, does not take part in that seat's comparison; a seat no entrant held at any table is left out."""
    layouts = [(tb, tb.seat_list()) for tb in tables]
    seats = max((len(layout) for _, layout in layouts), default=0)
    out: dict[int, list[SeatScore]] = {}
    for seat in range(seats):
        held = [(tb, uid, place) for tb, layout in layouts if seat < len(layout)
                and (place := _place(tb, uid := layout[seat], seat)) is not None]
        if any(uid is not None for _, uid, _ in held):
            out[seat] = _compare(seat, held)
    return out


def _place(table: TournamentTable, uid: int | None, seat: int) -> int | None:
    """The place of seat ``seat``'s holder ``uid`` (None: the bot filling it) at ``table``, if recorded."""
    if uid is None:
        return table.fill_places.get(seat)
    return table.results[uid][0] if uid in table.results else None


def _compare(seat: int, held: list[tuple[TournamentTable, int | None, int]]) -> list[SeatScore]:
    places = [place for _, _, place in held]
    others = len(held) - 1
    scores = []
    for tb, uid, place in held:
        absent = uid is not None and (uid in tb.no_shows or uid in tb.forfeits)
        won = sum(1.0 if place < other else 0.5 if place == other else 0.0 for other in places) - 0.5  # not itself
        matchpoints = 0.0 if absent else won
        share = None if others < 1 else round(matchpoints / others, 6)
        scores.append(SeatScore(tb.number, seat, uid, place, absent, matchpoints, share))
    return scores


def round_points(tournament: Tournament, number: int) -> dict[int, dict[int, float]]:
    """The points round ``number`` gives at each finished table (``{table number: {entrant: points}}``): the
    matchpoint share on the 0–3 scale; by place (the recorded points) for a holder compared with nobody (a round
    with one finished table, a voided table's replay). A no-show or a forfeit scores 0 either way."""
    tables = compared_tables(tournament, number)
    out: dict[int, dict[int, float]] = {
        tb.number: {uid: points for uid, (_, points) in tb.results.items()}
        for tb in tournament.round_tables(number) if tb.status is TableStatus.FINISHED and tb.attempt}
    out.update({tb.number: {} for tb in tables})
    by_number = {tb.number: tb for tb in tables}
    for scores in seat_scores(tables).values():
        for score in scores:
            if score.user_id is None:
                continue  # the bot filling a seat scores for nobody
            points = score.points
            if points is None:
                points = by_number[score.table].results[score.user_id][1]
            out[score.table][score.user_id] = 0.0 if score.absent else points
    return out
