"""Looking back at the longest game the bot allows (issue 42, item 6): Twin Pyramid, six seats, ten rounds.

    python -m bench.replay_speed --look-back [--record FILE] [--save-record FILE]

Each figure is taken in a fresh process (``--scenario``), so its peak memory (the process's high-water resident
set, ``ru_maxrss``, imports included) is that scenario's alone:

- ``open``: a viewer opened on a game not rebuilt yet (rebuild, then the first frame's message);
- ``step``: one ▶ from the cache (median of 20 frames in the middle of the game);
- ``reveal``: Reveal on a game not rebuilt yet; ``reveal3``: three people pressing Reveal at the same moment;
- ``record``: ``/game record`` on a game not rebuilt yet (rebuild, animated summary, the file).

And how many presses reach the game's moments: ▶ alone to the middle, and the fewest to the frame hardest to reach
with every control the viewer offers (a breadth-first search over the frames through each frame's buttons and
both seek menus, ``bot.review_seek.targets``)."""
from __future__ import annotations

import asyncio
import json
import resource
import statistics
import subprocess
import sys
import time
from collections import deque
from pathlib import Path

from bot.replay import GameRecord
from bot.replay_show import animated_summary, record_names
from bot.reveal import reveal_lines
from bot.review import Perspective, SteppedReplay
from bot.review_seek import targets
from cogs.look_back import LookBack
from cogs.review import viewer_message

SCENARIOS = ("open", "step", "reveal", "reveal3", "record")


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def reveal(replay: SteppedReplay) -> str:
    return "\n".join(reveal_lines(replay, "en", record_names(replay.record, "en")))


async def three_reveals(record: GameRecord) -> None:
    look_back = LookBack()

    async def press() -> str:
        return await asyncio.to_thread(reveal, await look_back.rebuilt(record))

    await asyncio.gather(press(), press(), press())


def run_scenario(name: str, record: GameRecord) -> dict[str, float]:
    start = time.perf_counter()
    if name == "open":
        viewer_message(SteppedReplay(record), 0, Perspective.SPECTATOR, None, "en")
    elif name == "step":
        replay = SteppedReplay(record)
        middle = len(replay) // 2
        viewer_message(replay, middle, Perspective.SPECTATOR, None, "en")
        took = []
        for index in range(middle + 1, middle + 21):
            start = time.perf_counter()
            viewer_message(replay, index, Perspective.SPECTATOR, None, "en")
            took.append(time.perf_counter() - start)
        return {"ms": statistics.median(took) * 1000, "peak_mib": peak_mib()}
    elif name == "reveal":
        reveal(SteppedReplay(record))
    elif name == "reveal3":
        asyncio.run(three_reveals(record))
    elif name == "record":
        replay = SteppedReplay(record)
        animated_summary(replay, "en")
        replay.record.dump()
    return {"ms": (time.perf_counter() - start) * 1000, "peak_mib": peak_mib()}


def fewest_presses(replay: SteppedReplay) -> dict[int, int]:
    """The fewest presses from frame 0 (where the viewer opens) to each frame, with every button and both menus
    the viewer offers at each frame (``bot.review_seek.targets``, what the cog builds its controls from)."""
    seen, queue = {0: 0}, deque([0])
    while queue:
        index = queue.popleft()
        for nxt in targets(replay, index):
            if nxt not in seen:
                seen[nxt] = seen[index] + 1
                queue.append(nxt)
    return seen


def presses_to_worst(record: GameRecord) -> tuple[int, int, int]:
    """▶ presses to the middle frame, the fewest presses to the frame hardest to reach, and how many frames need
    that many."""
    replay = SteppedReplay(record)
    presses = fewest_presses(replay)
    worst = max(presses.values())
    return (len(replay) - 1) // 2, worst, sum(1 for p in presses.values() if p == worst)


def look_back_figures(record_file: Path) -> None:
    record = GameRecord.read(record_file.read_bytes())
    print(f"{record.game}, {len(record.players)} seats, options {record.options}: {len(record.actions)} actions")
    for name in SCENARIOS:
        done = subprocess.run([sys.executable, "-m", "bench.look_back", "--scenario", name, str(record_file)],
                              capture_output=True, text=True, check=True)
        figures = json.loads(done.stdout.strip().splitlines()[-1])
        print(f"{name}: {figures['ms']:.0f} ms, process peak {figures['peak_mib']:.0f} MiB")
    forward, worst, frames = presses_to_worst(record)
    print(f"presses: ▶ alone to the middle {forward}; the hardest frame to reach {worst} ({frames} frames need it)")


def main(argv: list[str]) -> None:
    """``--scenario NAME FILE``: one figure, printed as JSON (a child of ``look_back_figures``)."""
    _, name, file = argv
    print(json.dumps(run_scenario(name, GameRecord.read(Path(file).read_bytes()))))


if __name__ == "__main__":
    main(sys.argv[1:])
