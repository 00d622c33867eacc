"""A knockout at multiplayer tables: each round seats the players still in at tables, the top ``advance`` of each
table go on, until one final table whose places are the final standings.

Pure functions over entrant ids. The planner looks ahead: a round's tables are chosen so that every later round
can be seated within the organiser's table sizes and the last round is one table (a field of 8 at tables of 3–4
where the winner of each table goes on gets one bye, so the final has 3 players rather than an impossible 2).
Byes only when no plan without one exists; they go to the best seeds.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .seating import table_sizes


@dataclass(frozen=True)
class KnockoutRound:
    sizes: tuple[int, ...]  # the tables' sizes, largest first
    byes: int               # players who go on without playing (the best seeds)

    @property
    def final(self) -> bool:
        return len(self.sizes) == 1 and not self.byes

    def going_on(self, advance: int) -> int:
        return len(self.sizes) * advance + self.byes


def _sizes(seated: int, tables: int) -> tuple[int, ...]:
    small, extra = divmod(seated, tables)
    return tuple([small + 1] * extra + [small] * (tables - extra))


@lru_cache(maxsize=4096)
def plan(count: int, seats_min: int, seats_max: int, advance: int) -> tuple[KnockoutRound, ...] | None:
    """The rounds a field of ``count`` plays, the final table last; None when no knockout fits the sizes (the
    start is refused). Fewest byes first, then fewest tables (the field shrinks fastest)."""
    if seats_min <= count <= seats_max:
        return (KnockoutRound((count,), 0),)
    if count <= seats_max or not 1 <= advance < seats_min:
        return None
    for byes in range(count - seats_min + 1):
        seated = count - byes
        for tables in range(-(-seated // seats_max), seated // seats_min + 1):
            if tables == 1 and byes == 0:
                continue  # a single table of the whole field is the final, handled above
            first = KnockoutRound(_sizes(seated, tables), byes)
            rest = plan(first.going_on(advance), seats_min, seats_max, advance)
            if rest is not None and first.going_on(advance) < count:
                return (first, *rest)
    return None


def snake(order: list[int], sizes: tuple[int, ...]) -> list[list[int]]:
    """Deal ``order`` (best seed first) to the tables back and forth, so each table gets a fair mix of seeds and
    table 1 the best; each table lists its players best seed first."""
    tables: list[list[int]] = [[] for _ in sizes]
    there_and_back = [*range(len(sizes)), *reversed(range(len(sizes)))]
    step = 0
    for player in order:
        while len(tables[there_and_back[step % len(there_and_back)]]) >= sizes[
                there_and_back[step % len(there_and_back)]]:
            step += 1
        tables[there_and_back[step % len(there_and_back)]].append(player)
        step += 1
    return tables


def seat_round(order: list[int], seats_min: int, seats_max: int,
               advance: int) -> tuple[list[list[int]], list[int]] | None:
    """One round for the players still in, ``order`` best seed first: ``(tables, byes)``, or None when the field
    cannot go on (fewer players than any table takes)."""
    rounds = plan(len(order), seats_min, seats_max, advance)
    if rounds is not None:
        first = rounds[0]
    elif len(order) <= seats_max:  # drops left a field no plan reaches: one final table of whoever is left
        return ([list(order)], []) if len(order) >= 2 else None
    else:  # ... or one too big for a table: the sizes that fit, the next round re-planned from who goes on
        sizes, byes = table_sizes(len(order), seats_min, seats_max)
        first = KnockoutRound(tuple(sizes), byes)
    return snake(order[first.byes:], first.sizes), order[:first.byes]


def rounds_for(count: int, seats_min: int, seats_max: int, advance: int) -> int:
    """How many rounds a field of ``count`` plays (0 when it cannot be planned)."""
    rounds = plan(count, seats_min, seats_max, advance)
    return len(rounds) if rounds else 0
