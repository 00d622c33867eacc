"""``python -m bench.tournament_pings`` (also run by ``python -m bench.tournament_formats``): pings per person per
round for every format, end to end through the test harness's strict Discord edge: an organiser creates the
tournament with ``/tournament create``, people press Join, the organiser starts it and sets every table's result
with ``/tournament set-result`` (seat order), the rounds follow at once (no pause). Counted as
tests/test_discord_tournament_calls.py counts them: the people a tournament message mentions and lets ping (its
``allowed_mentions``), in the tournament's channel and the first message of each table's thread (a board's turn
ping is the game's own). A person called in a round is seated or has a bye in it; the target is exactly one ping per
person per round they are called in, and none in a round they are not."""
from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from .report import print_table

ROOT = Path(__file__).resolve().parents[1]
ORGANISER = 100
# (label, game, /tournament create options, people)
CASES = [("Swiss", "akuma", {"rounds": 3, "min_seats": 3, "max_seats": 4}, 9),
         ("Swiss + final table", "akuma", {"rounds": 2, "min_seats": 3, "max_seats": 4, "final_table": True}, 9),
         ("round robin, 2 seats", "rocca", {"format": "roundrobin", "min_seats": 2, "max_seats": 2}, 6),
         ("round robin, 3 seats", "rocca", {"format": "roundrobin", "min_seats": 3, "max_seats": 3}, 7),
         ("round robin, 4 seats", "rocca", {"format": "roundrobin", "min_seats": 4, "max_seats": 4}, 8),
         ("round robin, 6 seats", "akuma", {"format": "roundrobin", "min_seats": 6, "max_seats": 6}, 9),
         ("knockout, top 2 of 3-4", "akuma", {"format": "knockout", "advance": 2, "min_seats": 3, "max_seats": 4},
          10)]


async def run_case(game: str, options: dict, people: int) -> list[str]:
    sys.path.insert(0, str(ROOT))
    from tests.discord_helpers import TOURNAMENT_JOIN, lift_limits, organiser, start_harness
    from tests.test_discord_tournament_calls import tournament_pings

    with tempfile.TemporaryDirectory() as folder:
        h = await start_harness(Path(folder) / "bot.db")
        try:
            await lift_limits(h)
            boss = await organiser(h, ORGANISER, "organiser")
            signup = (await h.slash(boss, "tournament create", game=game, break_minutes=0, **options)).message
            for n in range(people):
                await h.click(h.user(ORGANISER + 1 + n, f"p{n}"), signup, label=TOURNAMENT_JOIN)
            tn = next(iter(h.bot.tournaments._cache.values()))
            mark = len(h.calls)
            await h.slash(boss, "tournament start")
            for _ in range(40):
                running = [tb for tb in tn.round_tables(tn.current_round) if tb.status == "running"]
                if tn.status != "running" or not running:
                    break
                for table in running:
                    ranking = " > ".join(str(seat) for seat in range(1, len(table.players) + 1))
                    await h.slash(boss, "tournament set-result", table=table.game_id, ranking=ranking)
                await h.settle()
            channels = {h.channel_id} | {tb.channel_id for tb in tn.tables if tb.channel_id}
            pinged = tournament_pings(h, mark, channels)
        finally:
            await h.close()
    called = Counter(u for tb in tn.tables if tb.status != "void" for u in tb.players if u > 0)
    per_round = [pinged[u] / called[u] for u in called]
    stray = sum(count for u, count in pinged.items() if u not in called)
    rounds = max((tb.round for tb in tn.tables), default=0)
    return [str(people), str(tn.status), str(rounds), str(sum(called.values())), str(sum(pinged.values())),
            f"{min(per_round):.2f}–{max(per_round):.2f}", str(stray)]


def main() -> None:
    rows = []
    for label, game, options, people in CASES:
        began = time.perf_counter()
        measured = asyncio.run(run_case(game, options, people))
        rows.append([label, game, *measured, f"{time.perf_counter() - began:.1f} s"])
    print_table("Pings per person per round, every format through the harness (people only, results by set-result)",
                ["format", "game", "people", "status", "rounds", "calls due (person × round)", "pings",
                 "pings per person per round (min–max)", "pings to people not called", "took"], rows)


if __name__ == "__main__":
    main()
