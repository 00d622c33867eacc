"""The fewest rounds that still seat every pair of a small round robin together, by exhaustive search: what the
planner uses when a drop (or a cancelled table) changes the field of a small round robin, and what its tests hold
the greedy planner to.

A round is a partition of the field into the tables ``seating.table_sizes`` gives (and its byes); the meetings a
round adds are a bit mask over the pairs. With the table sizes fixed, every round holds the same number of meetings,
so the fewest rounds also give the fewest pairs meeting twice. Byes follow the planner's promise: at the end nobody
has two more than anyone else. The search deepens one round at a time from a lower bound, branching on the rounds
that seat the first pair not met yet (one of the rounds must), and remembers the positions it has ruled out. A node
budget bounds its time: past it the search gives up (None) and the greedy plan stands.
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import combinations

from .seating import Pair, table_sizes

EXACT_MAX = 10  # fields up to this size are searched exactly (9 players at tables of 3: 280 seatings a round)
BUDGET = 200_000  # positions the search may visit before it gives up


@lru_cache(maxsize=64)
def seatings(count: int, sizes: tuple[int, ...], byes: int) -> tuple[tuple[int, tuple[int, ...],
                                                                       tuple[tuple[int, ...], ...]], ...]:
    """Every round of ``count`` players (0..count-1) at tables of ``sizes`` with ``byes`` byes, as ``(pair mask,
    byes, tables)``; tables of the same size are unordered, so each partition appears once."""
    out = []

    def tables_of(rest: tuple[int, ...], sizes_left: tuple[int, ...]) -> list[tuple[tuple[int, ...], ...]]:
        if not sizes_left:
            return [()]
        first, pool = rest[0], rest[1:]  # the lowest player left leads the next table: no table order
        found = []
        for size in sorted(set(sizes_left), reverse=True):  # ... at a table of any size still to seat
            others = list(sizes_left)
            others.remove(size)
            for mates in combinations(pool, size - 1):
                left = tuple(p for p in pool if p not in mates)
                found += [((first, *mates), *more) for more in tables_of(left, tuple(others))]
        return found

    for bye in combinations(range(count), byes):
        seated = tuple(p for p in range(count) if p not in bye)
        for tables in tables_of(seated, tuple(sorted(sizes, reverse=True))):
            out.append((_mask(tables, count), bye, tables))
    return tuple(out)


def _bit(a: int, b: int, count: int) -> int:
    a, b = min(a, b), max(a, b)
    return 1 << (a * count + b)


def _mask(tables: tuple[tuple[int, ...], ...], count: int) -> int:
    mask = 0
    for table in tables:
        for a, b in combinations(table, 2):
            mask |= _bit(a, b, count)
    return mask


def shortest(entrants: list[int], seats_min: int, seats_max: int, met: Counter[Pair], byes_had: Counter[int],
             most: int, budget: int = BUDGET) -> list[tuple[list[list[int]], list[int]]] | None:
    """The rounds (tables, byes) that seat every pair of ``entrants`` not met yet (``met``) in as few rounds as any
    plan can, at most ``most``; None when no plan of ``most`` rounds exists or the budget ran out first."""
    count = len(entrants)
    if count < 2 or count > EXACT_MAX:
        return None
    sizes, bye_count = table_sizes(count, seats_min, seats_max)
    rounds = seatings(count, tuple(sizes), bye_count)
    unmet = 0
    for a, b in combinations(range(count), 2):
        if not met[frozenset((entrants[a], entrants[b]))]:
            unmet |= _bit(a, b, count)
    search = _Search(count, rounds, tuple(byes_had[p] for p in entrants), max(sizes) - 1, budget)
    for depth in range(search.lower_bound(unmet), most + 1):
        found = search.cover(unmet, search.byes, depth)
        if found is not None:
            return [([[entrants[p] for p in table] for table in rounds[i][2]], [entrants[p] for p in rounds[i][1]])
                    for i in found]
        if search.visited > budget:
            return None
    return None


class _Search:
    def __init__(self, count: int, rounds: tuple, byes: tuple[int, ...], new_per_round: int, budget: int) -> None:
        self.count, self.rounds, self.byes = count, rounds, byes
        self.new_per_round = max(1, new_per_round)
        self.budget, self.visited = budget, 0
        self.per_round = bin(rounds[0][0]).count("1") if rounds else 0
        self.with_pair: dict[int, list[int]] = {}
        for i, (mask, _, _) in enumerate(rounds):
            bits = mask
            while bits:
                low = bits & -bits
                self.with_pair.setdefault(low, []).append(i)
                bits ^= low
        self.failed: set[tuple[int, tuple[int, ...], int]] = set()

    def lower_bound(self, unmet: int) -> int:
        if not unmet:
            return 0
        per_player = max(self._unmet_of(unmet, p) for p in range(self.count))
        return max(-(-per_player // self.new_per_round), -(-bin(unmet).count("1") // max(1, self.per_round)))

    def _unmet_of(self, unmet: int, player: int) -> int:
        return sum(1 for q in range(self.count) if q != player and unmet & _bit(player, q, self.count))

    def cover(self, unmet: int, byes: tuple[int, ...], depth: int) -> list[int] | None:
        """Rounds (indices) that meet every pair of ``unmet`` within ``depth`` rounds, with byes no more than one
        apart at the end (``byes``: each player's so far): the rounds are a set, so the one seating the lowest
        pair not met yet is tried first."""
        if not unmet:
            return [] if max(byes, default=0) - min(byes, default=0) <= 1 else None
        key = (unmet, byes, depth)
        if depth == 0 or key in self.failed or self.visited > self.budget or self.lower_bound(unmet) > depth:
            return None
        if max(byes) - min(byes) > 1 + depth:  # the fewest byes rise by one a round at most
            return None
        self.visited += 1
        for i in self.with_pair.get(unmet & -unmet, ()):
            mask, bye, _ = self.rounds[i]
            after = tuple(b + (p in bye) for p, b in enumerate(byes))
            rest = self.cover(unmet & ~mask, after, depth - 1)
            if rest is not None:
                return [i, *rest]
        self.failed.add(key)
        return None
