"""A knockout at multiplayer tables: each round seats the players still in at tables, the top ``advance`` of each
table go on, until one final table whose places are the final standings.

Pure functions over entrant ids. The planner looks ahead so that every round can be seated within the organiser's
table sizes and the last round is one table, and it lays the byes out as organisers know them from power-of-two
brackets: byes only when no plan without them exists, then **all in round 1** (so nobody has two), to the best
seeds, with at least one more round before the final table (so nobody reaches the final without having played).
Only a field no such plan fits takes the next best: round-1 byes straight into the final table (fewest), and failing
that, byes in later rounds (fewest per round, each to someone who has played and had none, where there is one).
"""
from __future__ import annotations

from collections.abc import Mapping
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


def _rounds_of(count: int, seats_min: int, seats_max: int, advance: int) -> list[KnockoutRound]:
    """Every first round a field of ``count`` can play (balanced tables, some byes), fewest byes then tables first;
    the next field is smaller. A single table of the whole field is the final, not listed."""
    out = []
    for byes in range(count - seats_min + 1):
        seated = count - byes
        for tables in range(-(-seated // seats_max), seated // seats_min + 1):
            first = KnockoutRound(_sizes(seated, tables), byes)
            if (tables, byes) != (1, 0) and first.going_on(advance) < count:
                out.append(first)
    return out


@lru_cache(maxsize=8192)
def _to_final(count: int, seats_min: int, seats_max: int, advance: int, byes: bool) -> tuple[KnockoutRound, ...] | None:
    """The rounds to a final table (fewest byes in each round first, then fewest tables: the field shrinks fastest),
    with no bye in any round unless ``byes``; None when there are none."""
    if seats_min <= count <= seats_max:
        return (KnockoutRound((count,), 0),)
    for first in _rounds_of(count, seats_min, seats_max, advance):
        if first.byes and not byes:
            break  # listed fewest byes first: no bye-free round is left
        rest = _to_final(first.going_on(advance), seats_min, seats_max, advance, byes)
        if rest is not None:
            return (first, *rest)
    return None


@lru_cache(maxsize=4096)
def plan(count: int, seats_min: int, seats_max: int, advance: int) -> tuple[KnockoutRound, ...] | None:
    """The rounds a field of ``count`` plays, the final table last; None when no knockout fits the sizes (the
    start is refused). In this order of preference: no byes; byes in round 1 only, with a round between them and
    the final table (fewest byes, then fewest rounds); byes in round 1 only, straight into the final table (fewest);
    byes in later rounds too."""
    if count <= seats_max and not seats_min <= count:
        return None
    if not 1 <= advance < seats_min and count > seats_max:
        return None
    direct = _to_final(count, seats_min, seats_max, advance, False)
    if direct is not None:
        return direct
    into_final: tuple[KnockoutRound, ...] | None = None
    best: tuple[KnockoutRound, ...] | None = None
    for first in _rounds_of(count, seats_min, seats_max, advance):
        rest = _to_final(first.going_on(advance), seats_min, seats_max, advance, False)
        if rest is None:
            continue
        candidate = (first, *rest)
        if len(rest) >= 2 and (best is None or (first.byes, len(candidate)) < (best[0].byes, len(best))):
            best = candidate
        elif len(rest) == 1 and into_final is None:
            into_final = candidate  # fewest byes: listed first
    return best or into_final or _to_final(count, seats_min, seats_max, advance, True)


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


def seat_round(order: list[int], seats_min: int, seats_max: int, advance: int, *,
               byes_had: Mapping[int, int] | None = None, last_byes: frozenset[int] = frozenset(),
               played: frozenset[int] | None = None) -> tuple[list[list[int]], list[int]] | None:
    """One round for the players still in, ``order`` best seed first: ``(tables, byes)``, or None when the field
    cannot go on (fewer players than any table takes). Byes go to those with the fewest byes so far (``byes_had``),
    among them first to those who did not have one in the round before (``last_byes``) and who have played
    (``played``; None: everyone counts as having played, as in round 1), best seed first."""
    rounds = plan(len(order), seats_min, seats_max, advance)
    if rounds is not None:
        first = rounds[0]
    elif len(order) <= seats_max:  # drops left a field no plan reaches: one final table of whoever is left
        return ([list(order)], []) if len(order) >= 2 else None
    else:  # ... or one too big for a table: the sizes that fit, the next round re-planned from who goes on
        sizes, count = table_sizes(len(order), seats_min, seats_max)
        first = KnockoutRound(tuple(sizes), count)
    had = byes_had or {}
    ranked = sorted(order, key=lambda p: (had.get(p, 0), p in last_byes,  # stable: best seeds first
                                          played is not None and p not in played))
    byes = [p for p in order if p in ranked[:first.byes]]
    return snake([p for p in order if p not in byes], first.sizes), byes


def rounds_for(count: int, seats_min: int, seats_max: int, advance: int) -> int:
    """How many rounds a field of ``count`` plays (0 when it cannot be planned)."""
    rounds = plan(count, seats_min, seats_max, advance)
    return len(rounds) if rounds else 0
