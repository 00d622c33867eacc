"""Seating properties: sizes within range and balanced, byes minimal and spread, no repeat opponents while
avoidable, similar standings grouped, round robin meeting everyone once, the final table."""
from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest

from bot.tournaments import seating


def seatable(count: int, low: int, high: int) -> bool:
    return any(k * low <= count <= k * high for k in range(1, count + 1))


@pytest.mark.parametrize("low,high", [(2, 2), (2, 4), (3, 4), (3, 6), (4, 4), (4, 5)])
def test_table_sizes_are_in_range_balanced_and_use_the_fewest_byes(low: int, high: int) -> None:
    for count in range(low, 60):
        sizes, byes = seating.table_sizes(count, low, high)
        assert sum(sizes) + byes == count
        assert all(low <= s <= high for s in sizes)
        assert max(sizes) - min(sizes) <= 1, (count, sizes)
        assert seatable(count - byes, low, high)
        assert not any(seatable(count - b, low, high) for b in range(byes)), (count, byes)


def test_examples_of_sizes_and_byes() -> None:
    assert seating.table_sizes(13, 3, 4) == ([4, 3, 3, 3], 0)
    assert seating.table_sizes(7, 3, 4) == ([4, 3], 0)
    assert seating.table_sizes(5, 3, 4) == ([4], 1)       # five cannot be split into tables of 3-4
    assert seating.table_sizes(11, 2, 2) == ([2] * 5, 1)
    assert seating.table_sizes(10, 3, 6) == ([5, 5], 0)
    with pytest.raises(seating.SeatingError):
        seating.table_sizes(2, 3, 4)


def play_swiss(count: int, low: int, high: int, rounds: int, seed: int) -> tuple[list[list[list[int]]], Counter]:
    """Seat ``rounds`` Swiss rounds with random standings in between; returns the rounds' tables and byes."""
    rng = random.Random(seed)
    history: list[list[int]] = []
    byes: Counter[int] = Counter()
    played = []
    order = list(range(count))
    for _ in range(rounds):
        tables, bye = seating.swiss_round(order, low, high, history, byes, random.Random(seed))
        seated = sorted(p for t in tables for p in t) + bye
        assert sorted(seated) == list(range(count))  # everyone seated once or on a bye
        history += tables
        byes.update(bye)
        played.append(tables)
        rng.shuffle(order)  # the next round's standings
    return played, byes


@pytest.mark.parametrize("count,low,high,rounds", [(13, 3, 4, 3), (9, 3, 3, 3), (16, 4, 4, 3), (12, 2, 2, 5),
                                                   (24, 3, 3, 4), (14, 3, 4, 3)])
def test_no_repeat_opponents_when_avoidable(count: int, low: int, high: int, rounds: int) -> None:
    for seed in range(5):
        played, _ = play_swiss(count, low, high, rounds, seed)
        met = seating.pairs_met(t for r in played for t in r)
        assert max(met.values()) == 1, (seed, [p for p, n in met.items() if n > 1])


def test_unavoidable_repeats_still_seat_everyone() -> None:
    played, _ = play_swiss(4, 4, 4, 3, 0)
    assert all(r == [[0, 1, 2, 3]] or sorted(r[0]) == [0, 1, 2, 3] for r in played)


def test_byes_go_round_before_anyone_gets_a_second() -> None:
    played, byes = play_swiss(5, 3, 4, 5, 1)
    assert all(len(r) == 1 and len(r[0]) == 4 for r in played)
    assert byes == Counter({p: 1 for p in range(5)})


def test_byes_go_to_the_bottom_of_the_standings() -> None:
    tables, byes = seating.swiss_round(list(range(9)), 4, 4, [], Counter(), random.Random(0))
    assert byes == [8]
    assert tables == [[0, 1, 2, 3], [4, 5, 6, 7]]


def test_similar_standings_are_grouped() -> None:
    tables, _ = seating.swiss_round(list(range(12)), 3, 4, [], Counter(), random.Random(0))
    assert tables == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]
    # 0 and 1 have met: the leader takes the next two players instead, 1 heads the second table.
    tables, _ = seating.swiss_round(list(range(6)), 3, 3, [[0, 1]], Counter(), random.Random(0))
    assert tables == [[0, 2, 3], [1, 4, 5]]


def repeats(history: list[list[int]], tables: list[list[int]]) -> int:
    met = seating.pairs_met(history)
    return sum(met[p] for p in seating.pairs_met(tables))


def fewest_repeats(players: list[int], sizes: list[int], history: list[list[int]]) -> int:
    """Brute force over every seating (small fields only)."""
    if not sizes:
        return 0
    first, rest = players[0], players[1:]
    best = None
    for others in combinations(rest, sizes[0] - 1):
        table = [first, *others]
        left = [p for p in rest if p not in others]
        cost = repeats(history, [table]) + fewest_repeats(left, sizes[1:], history)
        best = cost if best is None else min(best, cost)
    return best or 0


@pytest.mark.parametrize("count,low,high", [(7, 3, 4), (8, 3, 4), (9, 3, 3), (8, 2, 2), (6, 3, 3), (10, 3, 4)])
def test_repeats_are_the_fewest_possible(count: int, low: int, high: int) -> None:
    """Against a brute-force optimum, after random earlier rounds (where repeats are often unavoidable)."""
    for seed in range(4):
        rng = random.Random(seed)
        history: list[list[int]] = []
        for _ in range(3):
            order = list(range(count))
            rng.shuffle(order)
            tables, byes = seating.swiss_round(order, low, high, history, Counter(), random.Random(seed))
            sizes = [len(t) for t in tables]
            seated = [p for p in order if p not in byes]
            assert repeats(history, tables) == fewest_repeats(seated, sizes, history), (seed, history, tables)
            history += tables


def test_final_table_is_the_top_of_the_standings() -> None:
    assert seating.final_table([5, 2, 9, 1, 7], 3, 4) == [5, 2, 9, 1]
    assert seating.final_table([5, 2, 9], 3, 4) == [5, 2, 9]
    with pytest.raises(seating.SeatingError):
        seating.final_table([5, 2], 3, 4)


def test_a_bye_moves_to_an_equal_score_player_when_only_that_avoids_a_repeat() -> None:
    """Nine players at tables of four: the bye would go to 8 (last), but 7 has met everyone from 0 to 6, so with 7
    seated some repeat is certain; 7 has the same points as 8, so the bye goes to 7 and nobody meets again."""
    order = list(range(9))
    history = [[7, p] for p in range(7)]
    points = {p: 3.0 for p in range(6)} | {6: 0.0, 7: 0.0, 8: 0.0}
    sizes = [4, 4]
    assert fewest_repeats([p for p in order if p != 8], sizes, history) > 0  # the usual bye cannot avoid one
    tables, byes = seating.swiss_round(order, 4, 4, history, Counter(), random.Random(0), points)
    assert byes == [7] and repeats(history, tables) == 0


def test_a_bye_never_moves_up_the_standings_or_to_a_second_bye() -> None:
    order = list(range(9))
    history = [[7, p] for p in range(7)]
    higher = {p: 3.0 for p in range(7)} | {7: 1.5, 8: 0.0}  # only 8 is on the lowest score
    tables, byes = seating.swiss_round(order, 4, 4, history, Counter(), random.Random(0), higher)
    assert byes == [8] and repeats(history, tables) == fewest_repeats(order[:8], [4, 4], history)
    level = {p: 3.0 for p in range(6)} | {6: 0.0, 7: 0.0, 8: 0.0}
    tables, byes = seating.swiss_round(order, 4, 4, history, Counter({7: 1}), random.Random(0), level)
    assert 7 not in byes  # 7 had a bye already while others had none


@pytest.mark.parametrize("seed", range(6))
def test_byes_and_tables_together_meet_the_brute_force_optimum(seed: int) -> None:
    """Seven players at tables of three (one bye a round) after random earlier rounds, all on equal points: the
    repeats are the fewest over every seating and every allowed bye."""
    rng = random.Random(seed)
    history: list[list[int]] = []
    byes_had: Counter[int] = Counter()
    for _ in range(3):
        order = list(range(7))
        rng.shuffle(order)
        points = {p: 0.0 for p in order}
        tables, byes = seating.swiss_round(order, 3, 3, history, byes_had, random.Random(seed), points)
        fewest = min(byes_had[p] for p in order)
        best = min(fewest_repeats([p for p in order if p != b], [3, 3], history) for b in order
                   if byes_had[b] == fewest)
        assert repeats(history, tables) == best, (seed, history, tables, byes)
        assert byes_had[byes[0]] == fewest
        history += tables
        byes_had.update(byes)


def test_with_two_byes_neither_moves_up_to_save_a_rematch() -> None:
    """Ten players at tables of four, two byes: the usual ones are 9 (alone on 0 points) and 8; 6 and 7 have met
    0-5 and each other, so repeats are certain unless 6 and 7 both rest, but they are on 3 points: 9 must still
    have a bye (the issue's round 3 gave both byes to players on 3 points and seated the last player). Against the
    brute-force optimum over every allowed bye set (same score groups as the usual ones, fewest byes)."""
    order = list(range(10))
    history = [[6, p] for p in range(6)] + [[7, p] for p in range(6)] + [[6, 7]]
    points = {p: 3.0 for p in range(9)} | {9: 0.0}
    tables, byes = seating.swiss_round(order, 4, 4, history, Counter(), random.Random(0), points)
    assert 9 in byes and sorted(points[p] for p in byes) == [0.0, 3.0]
    allowed = [[9, other] for other in range(9)]
    best = min(fewest_repeats([p for p in order if p not in pair], [4, 4], history) for pair in allowed)
    assert best == 2 and repeats(history, tables) == best


@pytest.mark.parametrize("seed", range(6))
def test_byes_keep_their_score_groups_and_meet_the_brute_force_optimum(seed: int) -> None:
    """Eight players at tables of three (two byes a round) on crafted random points and histories: the byes go to
    players with the fewest byes, on the usual choice's points (never up the standings), and the repeats are the
    fewest over every such bye set and every seating."""
    rng = random.Random(seed)
    history: list[list[int]] = [rng.sample(range(8), 3) for _ in range(4)]
    byes_had: Counter[int] = Counter()
    for _ in range(3):
        points = {p: float(rng.choice([0, 1.5, 3])) for p in range(8)}
        order = sorted(range(8), key=lambda p: (-points[p], p))
        tables, byes = seating.swiss_round(order, 3, 3, history, byes_had, random.Random(seed), points)
        usual = seating.choose_byes(order, 2, byes_had)
        fewest = min(byes_had[p] for p in order)
        allowed = [list(pair) for pair in combinations(order, 2) if all(byes_had[p] == fewest for p in pair)
                   and sorted(points[p] for p in pair) == sorted(points[p] for p in usual)] or [usual]
        assert sorted(points[p] for p in byes) == sorted(points[p] for p in usual)
        best = min(fewest_repeats([p for p in order if p not in pair], [3, 3], history) for pair in allowed)
        assert repeats(history, tables) == best, (seed, history, tables, byes)
        history += tables
        byes_had.update(byes)


def test_a_cancelled_table_is_no_meeting_for_the_swiss_seating() -> None:
    """Issue 43: a table cancelled before its end (the organiser moved on) leaves no trace in anyone's opponents,
    in the seating's history too: round 2 seats its two players together as the standings order has them, as if
    they had never sat down (counted as a meeting, they were split at the cost of the natural pairing)."""
    from bot.tournaments import Entrant, Tournament, TournamentTable, ranking_points
    from bot.tournaments.formats import rules_of
    from bot.tournaments.models import Format

    tn = Tournament(1, 1, 1, 1, "rocca", Format.SWISS, 3, 2, 2, 0, status="running", current_round=1)
    tn.entrants = {-i: Entrant(-i, f"Bot {i}", True, seq=i) for i in range(1, 7)}
    tn.tables = [TournamentTable(1, 1, 1, [-1, -2], "cancelled"),
                 TournamentTable(2, 1, 2, [-3, -4], "finished", results=ranking_points([[-3], [-4]])),
                 TournamentTable(3, 1, 3, [-5, -6], "finished", results=ranking_points([[-5], [-6]]))]
    tables, byes = rules_of(tn).seat(tn, 2, {})
    assert not byes
    assert sorted(sorted(tb) for tb in tables) == [[-6, -4], [-5, -3], [-2, -1]]
