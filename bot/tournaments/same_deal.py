"""Who holds which seat of a same-deal round (issue 55): every table of the round plays one deal, so every table
has the same number of seats (bots fill what the field leaves empty, the same bot in the same seat everywhere), and
a seat's holders are compared with each other. Seats rotate over the rounds so that a player is compared with each
other player about equally often and holds each seat number about equally often (the start player's seat too).

Pure functions over entrant ids and a seeded ``random.Random``, as ``seating.py``.
"""
from __future__ import annotations

import math
import random
from collections import Counter
from itertools import combinations, permutations

from bot.i18n import t
from bot.storage import SeatRow

from .models import TableStatus, Tournament, TournamentTable

Layout = list[int | None]  # one table's seats in order: an entrant id, or None for a seat a bot fills
Pair = frozenset[int]
PAIR_REPEAT = 3  # what being compared with the same person again weighs against holding a seat number again


def table_size(count: int, seats_min: int, seats_max: int) -> int | None:
    """The one table size of a same-deal round of ``count`` entrants: at least two tables, as few seats for bots
    as possible, then the largest tables (as the Swiss seats its rounds); None when two tables cannot be made."""
    best: tuple[int, int] | None = None
    for size in range(seats_min, seats_max + 1):
        tables = math.ceil(count / size)
        if tables < 2 or count < tables:
            continue
        key = (tables * size - count, -size)
        if best is None or key < best:
            best = key
    return None if best is None else -best[1]


def balanced_range(count: int, size: int) -> tuple[int, int]:
    """The range of people per table that seats ``count`` at ``ceil(count / size)`` tables of ``size`` seats, the
    seats left to bots spread over the tables (they differ by at most one): what the Swiss pairing is given."""
    tables = math.ceil(count / size)
    return count // tables, size


def compared(tables: list[TournamentTable]) -> tuple[Counter[Pair], Counter[tuple[int, int]]]:
    """From the rounds played: how often each pair held the same seat at two tables of a round (were compared),
    and how often each entrant held each seat number. Only the round's own deal counts (a replayed table has a
    deal of its own), and a cancelled or void table compared nobody."""
    by_seat: dict[tuple[int, int], list[int]] = {}
    held: Counter[tuple[int, int]] = Counter()
    for table in tables:
        if table.attempt or table.status not in (TableStatus.PENDING, TableStatus.RUNNING, TableStatus.FINISHED):
            continue
        for seat, uid in enumerate(table.seat_list()):
            if uid is not None:
                by_seat.setdefault((table.round, seat), []).append(uid)
                held[uid, seat] += 1
    pairs: Counter[Pair] = Counter()
    for holders in by_seat.values():
        pairs.update(frozenset(p) for p in combinations(holders, 2))
    return pairs, held


def lay_out(groups: list[list[int]], size: int, history: list[TournamentTable],
            rng: random.Random) -> list[Layout]:
    """Every table's seats in order, ``size`` seats each, the empty ones for bots: table by table, the order that
    compares its people least often again with those already given the same seat this round, then gives each the
    seat numbers they held least."""
    pairs, held = compared(history)
    at_seat: list[list[int]] = [[] for _ in range(size)]
    layouts: list[Layout] = []
    for group in groups:
        seats: list[int | None] = [*group, *[None] * (size - len(group))]
        candidates = list(set(permutations(seats)))
        candidates.sort(key=lambda c: [(-1 if u is None else u) for u in c])
        rng.shuffle(candidates)

        def cost(order: tuple[int | None, ...]) -> int:
            total = 0
            for seat, uid in enumerate(order):
                if uid is not None:
                    total += sum(PAIR_REPEAT * pairs[frozenset((uid, other))] for other in at_seat[seat])
                    total += held[uid, seat]
            return total
        best = min(candidates, key=cost)
        for seat, uid in enumerate(best):
            if uid is not None:
                at_seat[seat].append(uid)
        layouts.append(list(best))
    return layouts


def fill_player(seat: int) -> str:
    """The engine's player id of the bot filling seat ``seat`` of a same-deal table (the same at every table)."""
    return f"fill{seat}"


def fill_seat(tournament: Tournament, seat: int) -> SeatRow:
    """The bot filling seat ``seat`` of a same-deal table: the tournament's bot level, named by its seat."""
    return SeatRow(seat, fill_player(seat), t("tournament.fill_bot", tournament.locale, seat=seat + 1), None, True,
                   level=tournament.bot_level)
