"""``python -m bench.tournament_formats``: whole bots-only tournaments of every format through the tournament service
on a temporary SQLite file (issue 43's measure): rounds played, pairs that never met and pairs that met twice or
more in the scored rounds (a Swiss final table has its own places), byes per entrant, the standings recounted from
the tables' results and whether a final table seats the top of the standings. A knockout's pairs are not meant to
all meet (its places are checked by tests/test_discord_tournament_knockout.py). Then pings per person per round for
every format, end to end through the harness (``bench.tournament_pings``)."""
from __future__ import annotations

import asyncio
import tempfile
import time
from collections import Counter
from itertools import combinations
from pathlib import Path

from bot.tournaments import compute_standings
from bot.tournaments.seating import pairs_met

from . import tournament_pings
from .report import print_table

# (game, format, seats min, seats max, entrants, final table, advance)
CASES = [("rocca", "roundrobin", 2, 2, 7, False, None), ("rocca", "roundrobin", 3, 3, 10, False, None),
         ("akuma", "roundrobin", 3, 4, 7, False, None), ("rocca", "roundrobin", 4, 4, 12, False, None),
         ("akuma", "roundrobin", 6, 6, 13, False, None), ("akuma", "roundrobin", 3, 4, 16, False, None),
         ("akuma", "swiss", 3, 4, 9, False, None), ("akuma", "swiss", 3, 4, 9, True, None),
         ("rocca", "swiss", 4, 4, 16, True, None), ("akuma", "knockout", 3, 4, 10, False, 2),
         ("rocca", "knockout", 4, 6, 16, False, 2)]


async def play(case: tuple, seed: int) -> list[str]:
    from tests.test_tournament_service import Host

    game, fmt, lo, hi, n, final, advance = case
    with tempfile.TemporaryDirectory() as folder:
        host = await Host.open(Path(folder) / "t.db")
        began = time.perf_counter()
        try:
            tn = await host.tournaments.create(game=game, guild_id=5, channel_id=50, creator_id=1, seed=seed,
                                               format=fmt, seats_min=lo, seats_max=hi, final_table=final,
                                               break_seconds=0, advance=advance)
            await host.tournaments.add_bots(tn.id, 1, n)
            await host.tournaments.start(tn.id, 1, max_rounds=20)
            for _ in range(60):
                await host.idle()
                if tn.status != "running":
                    break
        finally:
            await host.close()
    counted = [t for t in tn.tables if t.round <= tn.rounds]  # a final table after the Swiss rounds has its own places
    played = [t for t in counted if t.status == "finished"]
    met = pairs_met(t.players for t in played)
    never = sum(1 for pair in combinations(list(tn.entrants), 2) if not met[frozenset(pair)])
    twice = sum(1 for times in met.values() if times >= 2)
    byes = Counter(u for t in counted if t.status == "bye" for u in t.players)
    per_entrant = Counter(byes[u] for u in tn.entrants)
    recount: Counter[int] = Counter()
    for t in counted:
        if t.status in ("finished", "bye"):
            for user, (_, points) in t.results.items():
                recount[user] += points
    rows = compute_standings(tn)
    recounted = fmt == "knockout" or all(abs(r.points - recount[r.user_id]) < 1e-9 for r in rows)
    if final:  # the final table seats the top of the Swiss standings
        last = [t for t in tn.tables if t.round == tn.rounds + 1 and t.status == "finished"]
        top = {r.user_id for r in rows[:len(last[-1].players)]} if last else set()
        recounted = recounted and bool(last) and set(last[-1].players) == top
    return [f"{fmt} {game}", str(n), f"{lo}-{hi}" + (" + final" if final else "") + (f" k={advance}" if advance
            else ""), str(tn.status), str(max((t.round for t in tn.tables), default=0)), str(never),
            str(twice), " ".join(f"{b}:{c}" for b, c in sorted(per_entrant.items())),
            "ok" if recounted else "MISMATCH", f"{time.perf_counter() - began:.1f} s"]


def main() -> None:
    rows = [asyncio.run(play(case, seed=11)) for case in CASES]
    print_table("Tournaments of bots, every format (seed 11)",
                ["format", "entrants", "seats", "status", "rounds", "pairs never met", "pairs met 2+",
                 "byes: entrants", "standings recount (and final table = top)", "took"], rows)
    tournament_pings.main()


if __name__ == "__main__":
    main()
