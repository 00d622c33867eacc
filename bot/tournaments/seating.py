"""Who sits where: table sizes, byes, Swiss grouping, the round robin at two seats and the final table (round
robins at every size are planned in ``round_robin.py``).

Pure functions over entrant ids (no I/O, seeded ``random.Random`` only), so every property is testable:
sizes stay within the organiser's range and are balanced (they differ by at most one seat), byes only when the
field cannot be seated otherwise and never twice to one entrant while another has had none, repeat opponents
avoided whenever some seating avoids them, and (Swiss) entrants with similar standings grouped together.
"""
from __future__ import annotations

import math
import random
from collections import Counter
from itertools import combinations, product
from typing import Iterable

Pair = frozenset[int]
RESTARTS = 24  # random restarts of the local search, on top of the seating in standings order
BYE_CHOICES = 40  # bye sets the pairing tries, at most


class SeatingError(ValueError):
    """The field cannot be seated with this range of table sizes (fewer players than the smallest table)."""


def table_sizes(count: int, seats_min: int, seats_max: int) -> tuple[list[int], int]:
    """``(sizes, byes)``: as few byes as possible (none when the range allows), then as few tables as
    possible, sizes balanced within ``[seats_min, seats_max]``, largest first."""
    if seats_min < 1 or seats_max < seats_min:
        raise SeatingError("bad range")
    for byes in range(count + 1):
        seated = count - byes
        if seated < seats_min:
            break
        tables = math.ceil(seated / seats_max)
        small, extra = divmod(seated, tables)
        if small >= seats_min:
            return [small + 1] * extra + [small] * (tables - extra), byes
    raise SeatingError(f"{count} players cannot fill a table of {seats_min}")


def pairs_met(tables: Iterable[list[int]]) -> Counter[Pair]:
    """How often each pair of entrants has shared a table."""
    met: Counter[Pair] = Counter()
    for players in tables:
        met.update(frozenset(p) for p in combinations(players, 2))
    return met


def choose_byes(order: list[int], count: int, byes_had: Counter[int]) -> list[int]:
    """``count`` byes for the lowest-ranked entrants among those with the fewest byes so far."""
    if count <= 0:
        return []
    position = {p: i for i, p in enumerate(order)}
    candidates = sorted(order, key=lambda p: (byes_had[p], -position[p]))
    return candidates[:count]


def bye_choices(order: list[int], count: int, byes_had: Counter[int],
                points: dict[int, float] | None = None) -> list[list[int]]:
    """Every set of ``count`` byes the pairing may use, the usual one (``choose_byes``) first: byes go to those
    with the fewest byes so far and, when ``points`` are known, a bye may only move to a player on the same points
    as the one who would have had it: the byes' score groups stay those of the usual choice, so a bye never moves
    up the standings (nor down). Capped at ``BYE_CHOICES`` sets (nearest the bottom first)."""
    usual = choose_byes(order, count, byes_had)
    if not usual:
        return [[]]
    fewest = min(byes_had[p] for p in order)
    eligible = [p for p in reversed(order) if byes_had[p] == fewest]  # bottom of the standings first
    if len(eligible) < count:  # some byes must go to those with more byes already: keep the usual ones
        return [usual]
    if points is None:
        sets = [list(c) for c in combinations(eligible, count)]
    else:
        need = Counter(points.get(p, 0.0) for p in usual)
        groups = [list(combinations([p for p in eligible if points.get(p, 0.0) == score], n))
                  for score, n in need.items()]
        sets = [[p for part in parts for p in part] for parts in product(*groups)]
    others = [s for s in sets if sorted(s) != sorted(usual)]
    return [usual] + others[:BYE_CHOICES - 1]


def seat_with_byes(order: list[int], sizes: list[int], bye_sets: list[list[int]], met: Counter[Pair],
                   rng: random.Random, *, by_standing: bool = True) -> tuple[list[list[int]], list[int]]:
    """Byes and tables chosen together: the first bye set whose seating has no repeat meeting, else the one with
    the fewest (then the usual bye set, the first)."""
    grouping = _Grouping(order, met, by_standing)
    best: tuple[int, list[list[int]], list[int]] | None = None
    for byes in bye_sets:
        seated = [p for p in order if p not in byes]
        tables = group(seated, sizes, met, random.Random(rng.random()), by_standing=by_standing)
        repeats = grouping.total(tables) // grouping.repeat_weight
        if best is None or repeats < best[0]:
            best = (repeats, tables, byes)
        if repeats == 0:
            break
    assert best is not None
    return best[1], best[2]


class _Grouping:
    """Cost of a seating: repeat meetings dominate; then (Swiss) the squared standings gaps within tables."""

    def __init__(self, order: list[int], met: Counter[Pair], by_standing: bool) -> None:
        self.rank = {p: i for i, p in enumerate(order)}
        self.met = met
        self.by_standing = by_standing
        self.repeat_weight = (len(order) + 1) ** 4  # one repeat outweighs any spread

    def table_cost(self, players: list[int]) -> int:
        cost = 0
        for a, b in combinations(players, 2):
            cost += self.repeat_weight * self.met[frozenset((a, b))]
            if self.by_standing:
                cost += (self.rank[a] - self.rank[b]) ** 2  # squared: the leader meets the nearest
        return cost

    def total(self, tables: list[list[int]]) -> int:
        return sum(self.table_cost(t) for t in tables)

    def improve(self, tables: list[list[int]]) -> list[list[int]]:
        """Swap pairs of players between tables while any swap lowers the cost (first improvement)."""
        tables = [list(t) for t in tables]
        costs = [self.table_cost(t) for t in tables]
        improved = True
        while improved:
            improved = False
            for a, b in combinations(range(len(tables)), 2):
                for i in range(len(tables[a])):
                    for j in range(len(tables[b])):
                        ta, tb = tables[a], tables[b]
                        ta[i], tb[j] = tb[j], ta[i]
                        ca, cb = self.table_cost(ta), self.table_cost(tb)
                        if ca + cb < costs[a] + costs[b]:
                            costs[a], costs[b] = ca, cb
                            improved = True
                        else:
                            ta[i], tb[j] = tb[j], ta[i]
        return tables


def _chunks(order: list[int], sizes: list[int]) -> list[list[int]]:
    out, start = [], 0
    for size in sizes:
        out.append(order[start:start + size])
        start += size
    return out


def group(order: list[int], sizes: list[int], met: Counter[Pair], rng: random.Random, *,
          by_standing: bool = True) -> list[list[int]]:
    """Seat ``order`` (best first) at tables of ``sizes``: start from consecutive standings, then from random
    seatings, improve each by swaps, keep the cheapest. Tables come out in standings order (table 1 = top)."""
    grouping = _Grouping(order, met, by_standing)
    best = grouping.improve(_chunks(order, sizes))
    best_cost = grouping.total(best)
    for _ in range(RESTARTS if best_cost >= grouping.repeat_weight or not by_standing else 0):
        shuffled = order[:]
        rng.shuffle(shuffled)
        candidate = grouping.improve(_chunks(shuffled, sizes))
        cost = grouping.total(candidate)
        if cost < best_cost:
            best, best_cost = candidate, cost
        if best_cost < grouping.repeat_weight:
            break
    rank = grouping.rank
    seated = [sorted(t, key=rank.__getitem__) for t in best]
    return sorted(seated, key=lambda t: (min(rank[p] for p in t), -len(t)))


def swiss_round(order: list[int], seats_min: int, seats_max: int, history: list[list[int]],
                byes_had: Counter[int], rng: random.Random,
                points: dict[int, float] | None = None) -> tuple[list[list[int]], list[int]]:
    """One Swiss round: ``(tables, byes)``. ``order`` is the current standings (or, in round one, a random or
    rating order), ``points`` each entrant's points so far; ``history`` the tables already played (for repeat
    avoidance). Byes are chosen with the tables: a bye moves to an equal-score player if that avoids a repeat."""
    sizes, bye_count = table_sizes(len(order), seats_min, seats_max)
    choices = bye_choices(order, bye_count, byes_had, points)
    return seat_with_byes(order, sizes, choices, pairs_met(history), rng)


def round_robin_pairs(entrants: list[int], round_index: int) -> tuple[list[list[int]], list[int]]:
    """Two-seat round robin by the circle method: over ``n - 1`` rounds (``n`` if odd, one bye a round) every
    pair meets exactly once."""
    players: list[int | None] = list(entrants) + ([None] if len(entrants) % 2 else [])
    n = len(players)
    rest = players[1:]
    shift = round_index % (n - 1)
    rotated = [players[0]] + rest[-shift:] + rest[:-shift] if shift else players
    tables, byes = [], []
    for i in range(n // 2):
        a, b = rotated[i], rotated[n - 1 - i]
        if a is None or b is None:
            byes.append(a if b is None else b)
        else:
            tables.append([a, b])
    return tables, [p for p in byes if p is not None]


def final_table(order: list[int], seats_min: int, seats_max: int) -> list[int]:
    """The top of the standings at one table of the largest allowed size."""
    size = min(seats_max, len(order))
    if size < seats_min:
        raise SeatingError("too few players for a final table")
    return order[:size]
