"""Round robins where everyone meets, at any table size: a plan of rounds in which every pair of entrants shares
a table at least once, with as few pairs meeting twice as the sizes allow and byes spread evenly (nobody has two
more than anyone else).

At two seats with nobody met yet the circle method is the plan (every pair exactly once, in ``n - 1`` rounds, ``n``
if odd). Otherwise a covering-design style greedy builds the plan round by round: byes go to those with the fewest
byes (then those with the fewest opponents left to meet), each table starts from the player with the most opponents
still to meet and takes, one by one, whoever meets the most new opponents there; swaps between tables then lower the
repeats. Seeded restarts keep the plan with the fewest rounds, then the fewest repeat meetings, then the most even
byes. Pure and deterministic: the same entrants, history and seed give the same plan.

A drop, or a table cancelled before its end, changes what is left to meet: each round is seated from the plan made
from what has been played so far, and the original plan is kept while it still holds (so the planned number of rounds
does not grow without a reason). A small field's re-plan (up to ``round_robin_exact.EXACT_MAX`` entrants) is then
searched exhaustively for a plan with fewer rounds than the greedy one, which it replaces.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import TYPE_CHECKING

from .models import TableStatus
from .round_robin_exact import EXACT_MAX, shortest
from .seating import Pair, pairs_met, round_robin_pairs, table_sizes

if TYPE_CHECKING:
    from .models import Tournament

RESTARTS = 192  # greedy plans tried, divided by the entrants (12 for 16, 6 for 32): the fields are small
REPEAT = 1_000  # a table's cost: each pair that met already, then how often


@dataclass(frozen=True)
class Round:
    tables: list[list[int]]
    byes: list[int]


@dataclass
class Plan:
    rounds: list[Round]
    met: Counter[Pair]

    @property
    def repeats(self) -> int:
        """Pairs meeting more than once in the plan (its history included)."""
        return sum(count - 1 for count in self.met.values() if count > 1)


def lower_bound(count: int, seats_min: int, seats_max: int) -> int:
    """Rounds no plan can beat: each entrant meets ``count - 1`` others, at most ``seats_max - 1`` a round, and
    the rounds' tables must hold every pair."""
    if count < 2:
        return 0
    sizes, _ = table_sizes(count, seats_min, seats_max)
    per_round = sum(size * (size - 1) // 2 for size in sizes)
    return max(-(-(count - 1) // (seats_max - 1)), -(-(count * (count - 1) // 2) // per_round))


def plan(entrants: list[int], seats_min: int, seats_max: int, *, met: Counter[Pair] | None = None,
         byes_had: Counter[int] | None = None, seed: int | str = 0) -> list[Round]:
    """The rounds still to play so that every pair of ``entrants`` has met (``met``: the meetings so far)."""
    met, byes_had = Counter(met or {}), Counter(byes_had or {})
    if len(entrants) < 2:
        return []
    candidates = []
    if seats_max == 2 and not any(met[frozenset(p)] for p in combinations(entrants, 2)):
        count = len(entrants) - 1 + len(entrants) % 2
        circle = [Round(*round_robin_pairs(entrants, i)) for i in range(count)]
        candidates.append(Plan(circle, met + pairs_met(t for r in circle for t in r.tables)))
    rng = random.Random(f"round-robin:{seed}")
    bound = lower_bound(len(entrants), seats_min, seats_max)
    for _ in range(0 if candidates and len(candidates[0].rounds) <= bound else max(4, RESTARTS // len(entrants))):
        candidates.append(_Greedy(entrants, seats_min, seats_max, met, byes_had).run(random.Random(rng.random())))
        if len(candidates[-1].rounds) <= bound and not candidates[-1].repeats:
            break  # nothing can do better
    best = min(candidates, key=lambda p: (len(p.rounds), p.repeats, _bye_spread(p, entrants, byes_had)))
    return best.rounds


def _bye_spread(plan: Plan, entrants: list[int], byes_had: Counter[int]) -> int:
    byes = byes_had + Counter(p for r in plan.rounds for p in r.byes)
    return max(byes[p] for p in entrants) - min(byes[p] for p in entrants)


class _Greedy:
    """One greedy plan, on entrant positions and a matrix of meetings (fast enough for 32 entrants)."""

    def __init__(self, entrants: list[int], seats_min: int, seats_max: int, met: Counter[Pair],
                 byes_had: Counter[int]) -> None:
        self.entrants = entrants
        n = len(entrants)
        self.met = [[met[frozenset((a, b))] if a != b else 0 for b in entrants] for a in entrants]
        self.byes = [byes_had[p] for p in entrants]
        self.sizes, self.bye_count = table_sizes(n, seats_min, seats_max)
        self.to_meet = [sum(1 for j in range(n) if j != i and not self.met[i][j]) for i in range(n)]

    def run(self, rng: random.Random) -> Plan:
        n = len(self.entrants)
        rounds: list[Round] = []
        while any(self.to_meet) and len(rounds) < 4 * n:  # the limit is never reached: each round meets someone new
            order = list(range(n))
            rng.shuffle(order)
            byes = sorted(order, key=lambda i: (self.byes[i], self.to_meet[i]))[:self.bye_count]
            pool = [i for i in order if i not in byes]
            tables = self._improve(self._fill(pool))
            for table in tables:
                for a, b in combinations(table, 2):
                    if not self.met[a][b]:
                        self.to_meet[a] -= 1
                        self.to_meet[b] -= 1
                    self.met[a][b] += 1
                    self.met[b][a] += 1
            for i in byes:
                self.byes[i] += 1
            rounds.append(Round([[self.entrants[i] for i in t] for t in tables], [self.entrants[i] for i in byes]))
        met: Counter[Pair] = Counter({frozenset((self.entrants[a], self.entrants[b])): self.met[a][b]
                                      for a, b in combinations(range(n), 2) if self.met[a][b]})
        return Plan(rounds, met)

    def _fill(self, pool: list[int]) -> list[list[int]]:
        """Each table from the player with the most opponents left to meet, then whoever meets the most new ones."""
        pool, met, to_meet = pool[:], self.met, self.to_meet
        tables = []
        for size in self.sizes:
            first = max(pool, key=lambda i: to_meet[i])
            table = [first]
            pool.remove(first)
            while len(table) < size:
                best = max(pool, key=lambda i: (sum(not met[i][j] for j in table), to_meet[i]))
                table.append(best)
                pool.remove(best)
            tables.append(table)
        return tables

    def _improve(self, tables: list[list[int]]) -> list[list[int]]:
        """Swap players between tables while a swap lowers the repeats (first improvement); two players who
        both meet only new opponents where they sit cannot gain by a swap and are not tried."""
        cost = [[REPEAT * (count > 0) + count for count in row] for row in self.met]

        def here(table: list[int]) -> list[int]:
            return [sum(cost[p][x] for x in table) for p in table]  # cost[p][p] is 0

        improved = True
        while improved:
            improved = False
            for ta, tb in combinations(tables, 2):
                at_a, at_b = here(ta), here(tb)
                for i in range(len(ta)):
                    for j in range(len(tb)):
                        if not at_a[i] and not at_b[j]:
                            continue
                        p, q = ta[i], tb[j]
                        delta = (sum(cost[q][x] for x in ta) - cost[q][p] - at_a[i]
                                 + sum(cost[p][y] for y in tb) - cost[p][q] - at_b[j])
                        if delta < 0:
                            ta[i], tb[j] = q, p
                            at_a, at_b = here(ta), here(tb)
                            improved = True
        return tables


def next_round(roster: list[int], active: list[int], seats_min: int, seats_max: int, played: list[list[int]],
               byes_had: Counter[int], seed: int | str, done: int) -> list[Round]:
    """The rounds left after ``done`` rounds: the plan made for the first round's ``roster`` while it still holds
    (nobody dropped, every pair it has met so far met), else a new plan from what was ``played``."""
    met = pairs_met(played)
    fresh = plan(active, seats_min, seats_max, met=met, byes_had=byes_had, seed=f"{seed}:{done}")
    if done and sorted(roster) != sorted(active):  # a drop: a small field is searched for fewer rounds
        return _fewer(active, seats_min, seats_max, met, byes_had, fresh)
    if done == 0:
        return fresh
    original = plan(roster, seats_min, seats_max, seed=f"{seed}:0")
    meant = pairs_met(t for r in original[:done] for t in r.tables)
    if any(not met[pair] for pair in meant) or len(original) - done > len(fresh):
        return _fewer(active, seats_min, seats_max, met, byes_had, fresh)
    return original[done:]


def _fewer(active: list[int], seats_min: int, seats_max: int, met: Counter[Pair], byes_had: Counter[int],
           greedy: list[Round]) -> list[Round]:
    """The greedy re-plan, or, for a small field, a plan with fewer rounds if an exhaustive search finds one (it
    then has fewer pairs meeting twice too: every round holds as many meetings). Remembered: the tournament asks for
    its rounds left several times a round."""
    if len(active) > EXACT_MAX or len(greedy) <= 1:
        return greedy
    better = _search(tuple(active), seats_min, seats_max, frozenset(met.items()), frozenset(byes_had.items()),
                     len(greedy) - 1)
    if better is None:
        return greedy
    return [Round([list(table) for table in tables], list(byes)) for tables, byes in better]


@lru_cache(maxsize=64)
def _search(active: tuple[int, ...], seats_min: int, seats_max: int, met: frozenset[tuple[Pair, int]],
            byes_had: frozenset[tuple[int, int]], most: int) -> list[tuple[list[list[int]], list[int]]] | None:
    return shortest(list(active), seats_min, seats_max, Counter(dict(met)), Counter(dict(byes_had)), most)


@lru_cache(maxsize=256)
def planned_rounds(count: int, seats_min: int, seats_max: int, seed: int) -> int:
    """The rounds a round robin of ``count`` entrants takes from its start (what the sign-up message shows): the
    plan depends on the field's size and the seed, not on who the entrants are."""
    if count < max(2, seats_min):
        return 0
    return len(plan(list(range(count)), seats_min, seats_max, seed=f"{seed}:0"))


def rounds_left(tournament: Tournament, done: int) -> list[Round]:
    """A round robin tournament's rounds still to play after ``done`` rounds, planned from what was played: the
    plan of the start while it holds, a new one after a drop or a cancelled table (see ``next_round``)."""
    t = tournament
    active = [e.user_id for e in t.seatable_entrants()]
    if len(active) < max(2, t.seats_min):
        return []
    roster = sorted({u for tb in t.round_tables(1) for u in tb.players}) if done else active
    played = [tb.players for tb in t.tables if tb.status is TableStatus.FINISHED and tb.round <= done]
    byes_had = Counter(uid for tb in t.tables if tb.status is TableStatus.BYE and tb.round <= done
                       for uid in tb.players)
    return next_round(roster, active, t.seats_min, t.seats_max, played, byes_had, t.seed, done)


def planned_total(tournament: Tournament) -> int:
    """A round robin's rounds before the final table follow its plan (a drop may shorten or lengthen it)."""
    t = tournament
    if t.is_final_round(t.current_round):
        return t.rounds
    return t.current_round + len(rounds_left(t, t.current_round))
