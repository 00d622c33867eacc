"""Matchpoints of a same-deal round (issue 55): per seat, 1 per table outscored and ½ per tie among the tables that
played it, as a share of the maximum; hand-computed cases, then properties over seeded random rounds (the shares
stay in [0, 1], each seat's matchpoints add up to one per pair of tables, ties score alike, renumbering the tables
changes nobody's score), and the standings of a same-deal row counting them through ``FORMATS``."""
from __future__ import annotations

import copy
import random
from itertools import combinations

import pytest

from bot.tournaments import Entrant, Tournament, TournamentTable, compute_standings, ranking_points
from bot.tournaments.formats import rules_of
from bot.tournaments.matchpoints import compared_tables, round_points, seat_scores
from bot.tournaments.models import Deal, TableStatus

from .suite_level import count


def seated(number: int, players: list[int], places: list[int], round_: int = 1,
           status: TableStatus = TableStatus.FINISHED) -> TournamentTable:
    """A table of ``players`` in seat order, finishing at ``places`` (1 best; equal numbers tie)."""
    ranking = [[p for p, place in zip(players, places, strict=True) if place == value]
               for value in sorted(set(places))]
    return TournamentTable(0, round_, number, players, status, results=ranking_points(ranking))


def tournament(tables: list[TournamentTable], deal: Deal = Deal.SAME, seats: int = 3) -> Tournament:
    tn = Tournament(1, 1, 10, 99, "pileup", "swiss", 2, seats, seats, seed=0, deal=deal, current_round=1)
    for uid in sorted({u for tb in tables for u in tb.players}):
        tn.entrants[uid] = Entrant(uid, f"P{uid}", seq=uid)
    tn.tables = tables
    return tn


def test_each_seat_is_compared_with_its_holders_at_the_other_tables() -> None:
    """Three tables of three. Seat 0 places 1st, 2nd, 1st: the two firsts tie with each other and outscore the
    second: 1.5 of 2 each, the second 0. Seat 2 places 3rd everywhere: ½ + ½ of 2 each."""
    tables = [seated(1, [1, 2, 3], [1, 2, 3]), seated(2, [4, 5, 6], [2, 1, 3]), seated(3, [7, 8, 9], [1, 2, 3])]
    scores = seat_scores(tables)
    assert [(s.user_id, s.matchpoints, s.share) for s in scores[0]] == [(1, 1.5, 0.75), (4, 0.0, 0.0),
                                                                         (7, 1.5, 0.75)]
    assert [(s.user_id, s.matchpoints, s.share) for s in scores[1]] == [(2, 0.5, 0.25), (5, 2.0, 1.0),
                                                                         (8, 0.5, 0.25)]
    assert [(s.matchpoints, s.share) for s in scores[2]] == [(1.0, 0.5)] * 3
    points = round_points(tournament(tables), 1)
    assert points == {1: {1: 2.25, 2: 0.75, 3: 1.5}, 2: {4: 0.0, 5: 3.0, 6: 1.5}, 3: {7: 2.25, 8: 0.75, 9: 1.5}}


def test_a_round_with_one_finished_table_compares_nobody_and_scores_by_place() -> None:
    """The other table was cancelled (the organiser moved on) and one voided (replayed): neither is compared.
    Nobody has a share; the one finished table scores by place, as an own-deal table."""
    alone = seated(1, [1, 2, 3], [2, 1, 3])
    cancelled = TournamentTable(0, 1, 2, [4, 5, 6], TableStatus.CANCELLED)
    voided = seated(3, [7, 8, 9], [1, 2, 3], status=TableStatus.VOID)
    tn = tournament([alone, cancelled, voided])
    assert compared_tables(tn, 1) == [alone]
    assert all(s.share is None and s.points is None for scores in seat_scores([alone]).values() for s in scores)
    assert round_points(tn, 1) == {1: {1: 1.5, 2: 3.0, 3: 0.0}}
    assert seat_scores([]) == {}


def test_a_no_show_scores_nothing_and_counts_as_last_for_the_others() -> None:
    """Seat 0's holder at table 2 never moved: recorded last (3rd) with 0 points, the others moved up. They score
    no matchpoints; the seat's holder at table 1, who came 3rd as well, ties that last place (½), and the holder
    at table 3 (2nd) outscores both."""
    table2 = seated(2, [4, 5, 6], [3, 1, 2])
    table2.no_shows = {4}
    tables = [seated(1, [1, 2, 3], [3, 1, 2]), table2, seated(3, [7, 8, 9], [2, 1, 3])]
    seat0 = seat_scores(tables)[0]
    assert [(s.user_id, s.absent, s.matchpoints) for s in seat0] == [(1, False, 0.5), (4, True, 0.0),
                                                                    (7, False, 2.0)]
    assert round_points(tournament(tables), 1)[2][4] == 0.0
    forfeit = seated(2, [4, 5, 6], [1, 2, 3])  # a forfeit scores nothing, whatever its place
    forfeit.forfeits = {4}
    assert seat_scores([tables[0], forfeit])[0][1].matchpoints == 0.0


def random_round(rng: random.Random, tables: int, seats: int) -> list[TournamentTable]:
    out = []
    for number in range(1, tables + 1):
        players = [number * 100 + seat for seat in range(seats)]
        ranks = [rng.randint(1, seats) for _ in range(seats)]  # equal numbers tie
        out.append(seated(number, players, ranks))
    return out


@pytest.mark.parametrize("seed", range(count(40, 200)))
def test_matchpoints_properties(seed: int) -> None:
    rng = random.Random(seed)
    tables, seats = rng.randint(2, 8), rng.randint(2, 6)
    played = random_round(rng, tables, seats)
    scores = seat_scores(played)
    assert sorted(scores) == list(range(seats))
    for seat, held in scores.items():
        assert all(s.seat == seat for s in held)
        assert len(held) == tables
        # every pair of tables shares one matchpoint (1 + 0, or ½ + ½): C(tables, 2) per seat
        assert sum(s.matchpoints for s in held) == len(list(combinations(range(tables), 2)))
        for a, b in combinations(held, 2):
            assert (a.place < b.place) == (a.matchpoints > b.matchpoints)  # a better place, more matchpoints
            if a.place == b.place:
                assert a.matchpoints == b.matchpoints and a.share == b.share
        for s in held:
            assert s.share is not None and 0.0 <= s.share <= 1.0
            assert s.points is not None and 0.0 <= s.points <= 3.0
            beaten = sum(1.0 if o.place > s.place else 0.5 if o.place == s.place else 0.0 for o in held if o is not s)
            assert s.matchpoints == beaten
    # the same tables numbered in another order: everyone's score is the same
    def by_entrant(tables: list[TournamentTable]) -> dict[int, float]:
        return {u: p for points in round_points(tournament(tables, seats=seats), 1).values() for u, p in points.items()}
    renumbered = copy.deepcopy(played)
    numbers = list(range(1, tables + 1))
    rng.shuffle(numbers)
    for table, number in zip(renumbered, numbers, strict=True):
        table.number = number
    assert by_entrant(renumbered) == by_entrant(played)


def test_the_same_deal_row_scores_its_rounds_by_matchpoints_the_own_deal_row_by_place() -> None:
    """The same tables through compute_standings: the same-deal row (``FormatRules.round_points``) counts the
    matchpoint shares on the 0–3 scale, the own-deal row the places; the tie-breakers are unchanged."""
    def tables() -> list[TournamentTable]:
        return [seated(1, [1, 2, 3], [1, 2, 3]), seated(2, [4, 5, 6], [3, 2, 1]),
                seated(1, [1, 5, 6], [1, 2, 3], round_=2), seated(2, [4, 2, 3], [2, 1, 3], round_=2)]
    same = tournament(tables())
    own = tournament(tables(), deal=Deal.OWN)
    assert rules_of(same).round_points is round_points and rules_of(own).round_points is not round_points
    same_rows = {r.user_id: r for r in compute_standings(same)}
    own_rows = {r.user_id: r for r in compute_standings(own)}
    # round 1, seat 0: 1 beat 4 (3 / 0); seat 1: 2 and 5 tie (1.5 each); seat 2: 6 beat 3 (3 / 0).
    # round 2, seat 0: 1 beat 4; seat 1: 2 (1st) beat 5 (2nd); seat 2: 6 and 3 tie at 3rd.
    assert {u: r.points for u, r in same_rows.items()} == {1: 6.0, 2: 4.5, 3: 1.5, 4: 0.0, 5: 1.5, 6: 4.5}
    assert {u: r.points for u, r in own_rows.items()} == {1: 6.0, 2: 4.5, 3: 0.0, 4: 1.5, 5: 3.0, 6: 3.0}
    assert all(r.games == 2 and r.game_points == r.points for r in same_rows.values())
    assert [r.user_id for r in compute_standings(same)][:1] == [1]


def test_a_filled_seat_is_no_holder_and_a_replay_compares_nobody() -> None:
    """Seat 2 is a bot's at tables 1 and 2 (``fill``): nobody holds it, so it is not compared; its place still
    counts at its table. Table 3 was voided and replayed on a deal of its own (attempt 1): it compares nobody and
    scores by place, and the two tables of the round's deal are compared with each other only."""
    one = TournamentTable(0, 1, 1, [1, 2], TableStatus.FINISHED, fill=[2],
                          results={1: (1, 3.0), 2: (3, 0.0)})  # the bot came 2nd
    two = TournamentTable(0, 1, 2, [4, 5], TableStatus.FINISHED, fill=[2], results={4: (2, 1.5), 5: (1, 3.0)})
    voided = seated(3, [7, 8, 9], [1, 2, 3], status=TableStatus.VOID)
    replay = seated(3, [7, 8, 9], [3, 1, 2])
    replay.attempt = 1
    tn = tournament([one, two, voided, replay])
    assert compared_tables(tn, 1) == [one, two]
    scores = seat_scores([one, two])
    assert sorted(scores) == [0, 1]  # seat 2 (0-based) is the bots'
    assert [(s.user_id, s.matchpoints) for s in scores[0]] == [(1, 1.0), (4, 0.0)]
    assert [(s.user_id, s.matchpoints) for s in scores[1]] == [(2, 0.0), (5, 1.0)]
    assert round_points(tn, 1) == {1: {1: 3.0, 2: 0.0}, 2: {4: 0.0, 5: 3.0}, 3: {7: 0.0, 8: 3.0, 9: 1.5}}
    rows = {r.user_id: r for r in compute_standings(tn)}
    assert (rows[1].points, rows[8].points, rows[9].points) == (3.0, 3.0, 1.5)


def test_a_seat_a_bot_fills_at_one_table_is_compared_with_its_holders_at_the_others() -> None:
    """Seat 2 is a person's at table 1 and the filling bot's at table 2: the bot played the same cards there, so
    the person is compared with the bot's place (a defect found by playing a same-deal Swiss through Discord: the
    person scored 0/0 matchpoints, 0 points, for winning the table). The bot scores for nobody."""
    one = TournamentTable(0, 1, 1, [1, 2, 3], TableStatus.FINISHED, results={1: (2, 1.5), 2: (1, 3.0), 3: (3, 0.0)})
    two = TournamentTable(0, 1, 2, [4, 5], TableStatus.FINISHED, fill=[1], fill_places={1: 2},
                          results={4: (1, 3.0), 5: (3, 0.0)})
    scores = seat_scores([one, two])
    assert [(s.user_id, s.matchpoints, s.share) for s in scores[1]] == [(2, 1.0, 1.0), (None, 0.0, 0.0)]
    points = round_points(tournament([one, two]), 1)
    assert points == {1: {1: 0.0, 2: 3.0, 3: 1.5}, 2: {4: 3.0, 5: 1.5}}
    assert all(None not in table for table in points.values())
