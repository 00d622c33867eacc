"""Round robins where everyone meets (issue 43), as properties of the planner over every field of 3 to 32 entrants
and every table size of 2 to 6: each pair meets at least once, within a stated bound of rounds, with byes spread
evenly; at two seats every pair exactly once; a drop or a cancelled table re-plans what is left so nobody meets
anyone twice that could be avoided."""
from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from bot.tournaments.round_robin import Round, lower_bound, next_round, plan, planned_rounds
from bot.tournaments.seating import pairs_met

BOUND = 2  # rounds <= BOUND x the lower bound (the worst measured: 7 rounds for 16 entrants at tables of 6, bound 4)


def met_of(rounds: list[Round]) -> Counter:
    return pairs_met(table for r in rounds for table in r.tables)


def check_covers(entrants: list[int], rounds: list[Round], seats_min: int, seats_max: int) -> None:
    met = met_of(rounds)
    assert all(met[frozenset(pair)] >= 1 for pair in combinations(entrants, 2))
    byes = Counter(p for r in rounds for p in r.byes)
    assert max(byes[p] for p in entrants) - min(byes[p] for p in entrants) <= 1
    for r in rounds:
        seated = sorted(p for table in r.tables for p in table)
        assert sorted(seated + r.byes) == sorted(entrants)
        assert all(seats_min <= len(table) <= seats_max for table in r.tables)


@pytest.mark.parametrize("size", [2, 3, 4, 5, 6])
def test_everyone_meets_within_the_bound_at_every_size(size: int) -> None:
    for count in range(3, 33):
        seats_min = size if count >= size else 2  # a field smaller than the tables sits at one smaller table
        entrants = list(range(100, 100 + count))
        rounds = plan(entrants, seats_min, size, seed=count)
        check_covers(entrants, rounds, seats_min, size)
        assert len(rounds) <= BOUND * lower_bound(count, seats_min, size), (count, size, len(rounds))
        if size == 2:  # the circle method: every pair exactly once, n - 1 rounds (n if odd)
            assert set(met_of(rounds).values()) == {1} and len(rounds) == count - 1 + count % 2


def test_the_number_shown_before_the_start_is_the_number_played() -> None:
    for count, low, high in [(7, 3, 4), (9, 3, 3), (12, 4, 4), (6, 2, 2), (10, 3, 6)]:
        entrants = [-n for n in range(1, count + 1)]  # who they are does not change the plan's length
        assert len(next_round(entrants, entrants, low, high, [], Counter(), 42, 0)) == planned_rounds(
            count, low, high, 42)


def play(entrants: list[int], low: int, high: int, *, drop_after: int | None = None, cancel: int | None = None,
         seed: int = 5) -> tuple[list[list[int]], Counter, list[int], int]:
    """Seat rounds one by one as the tournament does; optionally the last entrant drops after round
    ``drop_after``, or the first table of round ``cancel`` is cancelled. Returns the tables played, the byes, who
    is still in and how many tables were played before the drop."""
    roster, active, played, byes, done, before_drop = entrants[:], entrants[:], [], Counter(), 0, 0
    while True:
        left = next_round(roster, active, low, high, played, byes, seed, done)
        if not left:
            return played, byes, active, before_drop
        first = left[0]
        done += 1
        played += [t for i, t in enumerate(first.tables) if not (done == cancel and i == 0)]
        byes.update(first.byes)
        if done == drop_after:
            active, before_drop = active[:-1], len(played)
        assert done < 40


@pytest.mark.parametrize("count, low, high", [(7, 3, 4), (8, 2, 2), (9, 2, 2), (10, 3, 3), (12, 4, 4), (16, 4, 4)])
def test_round_by_round_seating_follows_the_plan_and_replans_after_a_drop(count: int, low: int, high: int) -> None:
    entrants = list(range(1, count + 1))
    played, _, _, _ = play(entrants, low, high)
    assert len({t for t in [tuple(sorted(t)) for t in played]}) == len(played)
    planned = plan(entrants, low, high, seed="5:0")
    assert len(played) == sum(len(r.tables) for r in planned)  # no drop: the plan of the start, unchanged
    for drop_after in (1, 2):
        played, byes, active, before = play(entrants, low, high, drop_after=drop_after)
        met = pairs_met(played)
        assert all(met[frozenset(pair)] for pair in combinations(active, 2))
        if high == 2:  # at two seats, after a drop, a pair meets twice only where a full round leaves no choice
            unmet = [pair for pair in combinations(active, 2) if not pairs_met(played[:before])[frozenset(pair)]]
            repeats = sum(count - 1 for count in met.values())
            assert repeats == len(played) - before - len(unmet), (drop_after, met)
        assert max(byes[p] for p in active) - min(byes[p] for p in active) <= 1


def test_a_cancelled_table_is_met_again_later() -> None:
    entrants = list(range(1, 8))
    played, _, _, _ = play(entrants, 3, 4, cancel=1)
    met = pairs_met(played)
    assert all(met[frozenset(pair)] for pair in combinations(entrants, 2))
