"""Replays (issue 33): how long rebuilding every frame of a stored game takes and how long one frame takes to show,
on the longest games (Twin Pyramid, six players, two rounds), and the size of each game's animated summary.

    python -m bench.replay_speed [--players 6] [--rounds 2] [--seed 1] [--summaries]
    python -m bench.replay_speed --look-back --rounds 10 [--record FILE | --save-record FILE]

Plays a seeded bot game of Twin Pyramid through the service on a temporary SQLite file, then times
``rebuild_stored`` (read the record, replay and verify every action) and one step: a seat's frame as the terminal
playback prints it and the public board picture of that frame (median of the frames sampled). The Discord viewer
(``cogs/review.py``): opening it (rebuild, then the first frame's message: text, picture and controls) and one step
(a frame's message from the cached replay, as a click does; median over the sampled frames). ``--summaries``
also plays one seeded bot game of every game and prints its animated summary's size and frame count.
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.games import render_hooks
from bot.replay import Replay, rebuild_stored, stored_record
from bot.replay_caption import summary_frames
from bot.replay_show import animated_summary, frame_lines, record_names
from bot.review import Perspective, SteppedReplay
from bot.scheduler import BotScheduler
from bot.service import GameService
from bot.storage import Storage
from cogs.review import viewer_message
from engines import GAMES, get_engine


async def played(folder: Path, game: str, players: int, seed: int, options: dict[str, Any] | None) -> tuple[
        Storage, int]:
    storage = await Storage.open(folder / f"{game}.db")
    service = GameService(storage)
    scheduler = BotScheduler(service, delay=0)
    table = await service.create_bot_table(game=game, players=players, seed=seed, channel_id=1, options=options,
                                           levels=["easy"])
    await scheduler.idle()
    await scheduler.close()
    return storage, table.id


def spaced(count: int, most: int) -> list[int]:
    """``most`` of ``count`` frames evenly spaced, the first and last included (all of them when fewer)."""
    if count <= most:
        return list(range(count))
    step = (count - 1) / (most - 1)
    return sorted({round(i * step) for i in range(most)})


def step_ms(replay: Replay, samples: int = 50) -> tuple[float, float]:
    """Median milliseconds to show one frame: a seat's text lines, and the public board picture."""
    names = record_names(replay.record, "en")
    seat = replay.record.players[0].player
    draw = render_hooks(replay.record.game).image
    text, picture = [], []
    for index in spaced(len(replay), samples):
        start = time.perf_counter()
        frame_lines(replay, index, seat, "en", names)
        text.append(time.perf_counter() - start)
        if draw is not None:
            start = time.perf_counter()
            draw(replay.view(index, None), names.plain(), "en")
            picture.append(time.perf_counter() - start)
    return statistics.median(text) * 1000, (statistics.median(picture) * 1000 if picture else 0.0)


def viewer_step_ms(replay: SteppedReplay, samples: int = 50) -> tuple[float, float]:
    """Median and worst milliseconds for the viewer's message of one frame from a seat (text, picture, controls),
    jumping between the frames sampled: each is played again from the checkpoint before it."""
    seat = replay.record.players[0].player
    took = []
    for index in spaced(len(replay), samples):
        start = time.perf_counter()
        viewer_message(replay, index, Perspective.MINE, seat, "en")
        took.append(time.perf_counter() - start)
    return statistics.median(took) * 1000, max(took) * 1000


async def run(players: int, rounds: int, seed: int, summaries: bool) -> None:
    with tempfile.TemporaryDirectory() as folder:
        storage, game_id = await played(Path(folder), "twinpyramid", players, seed, {"rounds": rounds})
        start = time.perf_counter()
        replay = await rebuild_stored(storage, game_id)
        rebuilt = time.perf_counter() - start
        await storage.close()
        start = time.perf_counter()
        viewer = SteppedReplay(replay)
        viewer_message(viewer, 0, Perspective.MINE, replay.record.players[0].player, "en")
        first = time.perf_counter() - start
        step_median, step_worst = viewer_step_ms(viewer)
        text_ms, picture_ms = step_ms(replay)
        print(f"twinpyramid {players} players {rounds} rounds seed {seed}: {len(replay) - 1} actions, rebuild and "
              f"verify {rebuilt * 1000:.0f} ms; one step: text {text_ms:.2f} ms, board picture {picture_ms:.1f} ms")
        print(f"viewer: open (rebuild + first frame) {(rebuilt + first) * 1000:.0f} ms; one step from the cache "
              f"{step_median:.0f} ms (worst {step_worst:.0f} ms)")
        if not summaries:
            return
        gif = animated_summary(replay, "en")
        print(f"summary twinpyramid ({players} players, {rounds} rounds): {len(gif or b'') / 1024:.0f} KiB")
        for game in GAMES:
            engine = get_engine(game)
            storage, game_id = await played(Path(folder), f"{game}", engine.min_players, seed, None)
            replay = await rebuild_stored(storage, game_id)
            await storage.close()
            start = time.perf_counter()
            gif = animated_summary(replay, "en")
            took = time.perf_counter() - start
            size = "no board picture" if gif is None else (
                f"{len(gif) / 1024:.0f} KiB, {len(summary_frames(replay))} frames, {took:.1f} s to draw")
            print(f"summary {game} ({engine.min_players} players, {len(replay) - 1} actions): {size}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.replay_speed")
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--summaries", action="store_true")
    parser.add_argument("--look-back", action="store_true", help="the longest game's look-back figures "
                        "(bench/look_back.py): six seats, ten rounds unless --players / --rounds say otherwise")
    parser.add_argument("--record", type=Path, help="with --look-back: this game record rather than a new game")
    parser.add_argument("--save-record", type=Path, help="with --look-back: keep the game played as this file")
    args = parser.parse_args(argv)
    if args.look_back:
        asyncio.run(look_back(args.record, args.save_record, args.players, args.rounds, args.seed))
        return
    asyncio.run(run(args.players, args.rounds, args.seed, args.summaries))


async def look_back(record: Path | None, save: Path | None, players: int, rounds: int, seed: int) -> None:
    from bench.look_back import look_back_figures

    with tempfile.TemporaryDirectory() as folder:
        if record is None:
            storage, game_id = await played(Path(folder), "twinpyramid", players, seed, {"rounds": rounds})
            record = save or Path(folder) / "game.json"
            record.write_bytes((await stored_record(storage, game_id)).dump())
            await storage.close()
        look_back_figures(record)


if __name__ == "__main__":
    main()
