"""``python -m bench.tournament_absent``: issue 51's measure. Whole tournaments at the fields the issue names (5, 7,
9, 12 and 17 entrants one-on-one; 6, 9, 12 and 30 at tables of 3–4), through the test harness's Discord edge as an
organiser and players would run them (``tests/tournament_fields.py``): in every round one seated person never presses
(a no-show, who then presses Seat me again) and another drops during their game; the others play every move through
their hand views; bots fill the field; the turn timer is 60 s on a clock the run moves; one run per field in English
or Japanese, one of them with the bot killed and restarted mid-round; then the same knockouts without drops, for the
byes. Per run: the rounds, the longest a round waited for its absent people (the clock seconds moved while nobody
present was due), tables seen paused, the no-shows told, the most byes one entrant had, finalists who had not played,
whether the final standings name a first place and never say "still in", and the run's time. Then what the organiser
and the players saw in two runs (one per language). tests/test_discord_tournament_fields.py holds the checks."""
from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path

from .report import print_table

ROOT = Path(__file__).resolve().parents[1]


def fields() -> list:
    from tests.tournament_fields import Field

    one = [Field("rocca", (2, 2), n, people, locale=locale, restart_in_round=2 if n == 12 else None)
           for n, people, locale in ((5, 4, "en"), (7, 5, "ja"), (9, 7, "en"), (12, 7, "ja"), (17, 9, "en"))]
    multi = [Field("akuma", (3, 4), n, people, advance=2, locale=locale)
             for n, people, locale in ((6, 5, "ja"), (9, 6, "en"), (12, 7, "ja"), (30, 9, "en"))]
    multi += [Field("akuma", (3, 4), n, 5, advance=1, locale="ja") for n in (9, 12)]
    calm = [Field("rocca", (2, 2), n, 3, drops=False) for n in (5, 7, 9, 12, 17)]
    calm += [Field("akuma", (3, 4), n, 3, advance=2, drops=False) for n in (6, 9, 12, 30)]
    return one + multi + calm


async def play(spec) -> tuple[list[str], dict[str, str]]:
    from tests.discord_helpers import start_harness
    from tests.tournament_fields import FieldRunner

    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "bot.db"
        began = time.perf_counter()
        runner = FieldRunner(await start_harness(db), db, spec)
        try:
            run = await runner.run()
        finally:
            await runner.h.close()
        tn = run.tournament
        told = sum(len(people) for people in run.no_shows.values())
        back = sum(len(people) for people in run.came_back.values())
        row = [spec.name, str(tn.current_round), f"{max(run.waits, default=0):.0f} s", str(run.paused),
               f"{told} ({back} back)", str(max(run.byes.values(), default=0)), str(len(run.unplayed_finalists)),
               "yes" if "**1.**" in run.final_text and not runner.still_in_shown(run) else "NO",
               f"{time.perf_counter() - began:.0f} s"]
        return row, run.quotes


def main() -> None:
    sys.path.insert(0, str(ROOT))
    rows, quotes = [], {}
    for spec in fields():
        row, seen = asyncio.run(play(spec))
        rows.append(row)
        if spec.restart_in_round or (spec.entrants == 30 and spec.drops):
            quotes[spec.name] = seen
    print_table("Tournaments with a no-show and a drop every round (turn timer 60 s; the same without drops below)",
                ["run", "rounds", "longest wait for the absent, per round", "tables paused", "no-shows told",
                 "most byes of one entrant", "finalists who had not played", "a champion, never 'still in'",
                 "took"], rows)
    for name, seen in quotes.items():
        print(f"\n### What people saw: {name}")
        for what, text in seen.items():
            print(f"\n{what}:\n" + "\n".join("> " + line for line in text.splitlines()[:14]))


if __name__ == "__main__":
    main()
