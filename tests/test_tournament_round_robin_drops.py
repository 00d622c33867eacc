"""A round robin keeps its promise after a drop (issue 51): for every field of 4–10 entrants, at tables of 2 and of
3–4, one entrant (each in turn) drops after each round; the planner's rounds left are the fewest any plan has
(an exhaustive search: ``round_robin_exact.shortest``), so the pairs meeting twice are the fewest too (every round
holds as many meetings), and the total stays the announced number wherever a plan of that length exists. The
exhaustive search is itself checked against a plain breadth-first search over every round for the small fields."""
from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from bot.tournaments import round_robin as rr
from bot.tournaments.round_robin_exact import seatings, shortest
from bot.tournaments.seating import pairs_met, table_sizes

SEATS = [(2, 2), (3, 4)]
# (seats, entrants): the drops after which no plan of the announced length exists at all (the optimum is longer):
# 7 at 3-4 seats leave 6, seated 3 + 3, who need more rounds than the 3 announced; 9 at 3-4 seats, after round 2,
# leave 8 seated 4 + 4, who need more than the 2 rounds left.
LONGER_THAN_ANNOUNCED = {((3, 4), 7), ((3, 4), 9)}


def after_a_drop(n: int, lo: int, hi: int):
    """Every (rounds done, history, byes, the field left) of a round robin of ``n`` that loses one entrant after
    one of its rounds, with the rounds it announced."""
    roster = list(range(1, n + 1))
    start = rr.plan(roster, lo, hi, seed="1:0")
    for done in range(1, len(start)):
        played = [table for r in start[:done] for table in r.tables]
        byes_had = Counter(p for r in start[:done] for p in r.byes)
        for dropped in roster:
            yield len(start), roster, done, played, byes_had, [p for p in roster if p != dropped]


@pytest.mark.parametrize(("lo", "hi"), SEATS)
@pytest.mark.parametrize("n", range(4, 11))
def test_after_a_drop_the_planner_plays_the_fewest_rounds_any_plan_has(n: int, lo: int, hi: int) -> None:
    longer = []
    for announced, roster, done, played, byes_had, active in after_a_drop(n, lo, hi):
        left = rr.next_round(roster, active, lo, hi, played, byes_had, 1, done)
        met = pairs_met(played)
        best = shortest(active, lo, hi, met, byes_had, most=len(left))
        assert best is not None and len(left) == len(best), (n, lo, hi, done, active)
        after = met + pairs_met(t for r in left for t in r.tables)
        assert all(after[frozenset(p)] for p in combinations(active, 2))  # everyone still meets everyone
        byes = byes_had + Counter(p for r in left for p in r.byes)
        assert max(byes[p] for p in active) - min(byes[p] for p in active) <= 1
        if done + len(left) > announced:
            longer.append(done)
    assert bool(longer) == (((lo, hi), n) in LONGER_THAN_ANNOUNCED), (n, lo, hi, longer)


def test_nine_at_three_to_four_seats_keep_their_four_rounds_after_a_drop_in_round_one() -> None:
    """The issue's case: the 4 rounds announced became 5 with 21 pairs meeting twice; 3 more rounds exist."""
    for announced, roster, done, played, byes_had, active in after_a_drop(9, 3, 4):
        if done == 1:
            left = rr.next_round(roster, active, 3, 4, played, byes_had, 1, done)
            assert announced == 4 and len(left) == 3


def breadth_first(active: list[int], lo: int, hi: int, met: Counter, byes_had: Counter, most: int) -> int | None:
    """The fewest rounds by a plain breadth-first search over every round (nothing pruned, no pair to branch on),
    with the same promise on byes (nobody two more than anyone at the end)."""
    count = len(active)
    sizes, bye_count = table_sizes(count, lo, hi)
    rounds = [(frozenset(frozenset((active[a], active[b])) for table in tables for a, b in combinations(table, 2)),
               bye) for _, bye, tables in seatings(count, tuple(sizes), bye_count)]
    unmet = frozenset(frozenset(p) for p in combinations(active, 2) if not met[frozenset(p)])
    level = {(unmet, tuple(byes_had[p] for p in active))}
    for depth in range(most + 1):
        if any(not left and max(b) - min(b) <= 1 for left, b in level):
            return depth
        level = {(left - pairs, tuple(b + (i in bye) for i, b in enumerate(byes)))
                 for left, byes in level for pairs, bye in rounds}
    return None


@pytest.mark.parametrize(("lo", "hi"), SEATS)
@pytest.mark.parametrize("n", range(4, 8))
def test_the_exhaustive_search_agrees_with_a_plain_breadth_first_search(n: int, lo: int, hi: int) -> None:
    for *_, played, byes_had, active in after_a_drop(n, lo, hi):
        met = pairs_met(played)
        best = shortest(active, lo, hi, met, byes_had, most=6)
        assert (len(best) if best is not None else None) == breadth_first(active, lo, hi, met, byes_had, 6)
