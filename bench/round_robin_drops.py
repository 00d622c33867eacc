"""``python -m bench.round_robin_drops``: a round robin after a drop (issue 51's measure). For every field of 4–10
entrants at tables of 2 and of 3–4, each entrant in turn drops after each round of the planned schedule; the rounds
left and the pairs meeting twice (in the whole tournament) of the greedy re-plan alone, of the planner (the greedy
re-plan, or an exhaustive search's plan when it has fewer rounds), and of the optimum (``round_robin_exact``, every
plan of fewer rounds ruled out), and how often the total passes the announced number of rounds. The same comparison
is held by tests/test_tournament_round_robin_drops.py."""
from __future__ import annotations

import time
from collections import Counter

from bot.tournaments import round_robin as rr
from bot.tournaments.round_robin_exact import shortest
from bot.tournaments.seating import pairs_met

from .report import print_table

SEATS = [(2, 2), (3, 4)]


def twice(met: Counter) -> int:
    """Meetings beyond the first, over every pair."""
    return sum(count - 1 for count in met.values() if count > 1)


def field_row(n: int, lo: int, hi: int) -> list[str]:
    roster = list(range(1, n + 1))
    start = rr.plan(roster, lo, hi, seed="1:0")
    cases = greedy_longer = planner_longer = over = 0
    sums = Counter[str]()
    began = time.perf_counter()
    for done in range(1, len(start)):
        played = [table for r in start[:done] for table in r.tables]
        byes_had = Counter(p for r in start[:done] for p in r.byes)
        met = pairs_met(played)
        for dropped in roster:
            active = [p for p in roster if p != dropped]
            greedy = rr.plan(active, lo, hi, met=met, byes_had=byes_had, seed=f"1:{done}")
            planner = rr.next_round(roster, active, lo, hi, played, byes_had, 1, done)
            best = shortest(active, lo, hi, met, byes_had, most=len(greedy))
            assert best is not None
            cases += 1
            greedy_longer += len(greedy) > len(best)
            planner_longer += len(planner) > len(best)
            over += done + len(planner) > len(start)
            sums["greedy"] += len(greedy)
            sums["planner"] += len(planner)
            sums["optimum"] += len(best)
            sums["greedy twice"] += twice(met + pairs_met(t for r in greedy for t in r.tables))
            sums["planner twice"] += twice(met + pairs_met(t for r in planner for t in r.tables))
            sums["optimum twice"] += twice(met + pairs_met(t for tables, _ in best for t in tables))
    return [f"{lo}-{hi}", str(n), str(len(start)), str(cases),
            f"{sums['greedy']} / {sums['planner']} / {sums['optimum']}",
            f"{sums['greedy twice']} / {sums['planner twice']} / {sums['optimum twice']}",
            str(greedy_longer), str(planner_longer), str(over), f"{time.perf_counter() - began:.2f} s"]


def main() -> None:
    rows = [field_row(n, lo, hi) for lo, hi in SEATS for n in range(4, 11)]
    print_table("Round robins after one drop (each entrant in turn, after each round; seed 1)",
                ["seats", "entrants", "announced", "cases", "rounds left, summed: greedy / planner / optimum",
                 "pairs met twice, summed: greedy / planner / optimum", "greedy longer", "planner longer",
                 "total past announced", "took"], rows)


if __name__ == "__main__":
    main()
