"""``python -m bench.deferred_answer``: how long a person waits for a deferred answer Discord keeps failing (issue 41).

Through the test harness's strict edge (real discord.py objects, only HTTP faked): ``/game record`` of a finished
table while every followup POST is answered with a 500 (the library tries each five times, 25 s of its own waits).
Timed at the fake edge, from the interaction's creation to the moment its deferred "thinking…" message shows
something (the answer, or the line saying Discord failed); ``never`` when nothing did within ``--wait`` seconds.
Real time: nothing is scaled."""
from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

from .discord_path import ROOT
from .report import print_table


async def measure(wait: float) -> tuple[float | None, str]:
    sys.path.insert(0, str(ROOT))
    from tests.discord_helpers import start_harness

    with tempfile.TemporaryDirectory() as tmp:
        h = await start_harness(Path(tmp) / "bot.db")
        try:
            h.settle_timeout = 60.0
            table = await h.bot.service.create_bot_table(game="akuma", players=3, seed=8, channel_id=h.channel_id,
                                                         guild_id=h.guild_id)
            await h.settle()
            h.server.faults.fail("POST", r"/webhooks/\d+/[^/]+", status=500, times=None)
            h.park_sleeps_over = 0.0  # the library's waits run on their own: only the edge's clock counts
            reply = await h.slash(h.user(101, "alice"), "game record", table=table.id, expect_response=False)
            began = time.monotonic()
            while reply.shown_at is None and time.monotonic() - began < wait:
                await asyncio.sleep(0.05)
            shown = None if reply.shown_at is None else reply.shown_at - reply.created
            text = reply.message.text if reply.message is not None else ""
            return shown, text
        finally:
            h.server.faults.clear()
            await h.close(check=False)


def run(wait: float) -> tuple[float | None, str]:
    shown, text = asyncio.run(measure(wait))
    print_table("A deferred answer under persistent 500s on followups (/game record)",
                ["thinking… replaced after", "what it says"],
                [[f"{shown:.1f} s" if shown is not None else f"never (waited {wait:.0f} s)", text[:80]]])
    return shown, text


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.deferred_answer")
    parser.add_argument("--wait", type=float, default=60.0, help="seconds to wait for the answer")
    run(parser.parse_args().wait)


if __name__ == "__main__":
    main()
