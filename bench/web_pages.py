"""The replay pages' figures (issue 56):

    python -m bench.web_pages [--games twinpyramid rocca …] [--steps 12] [--requests 400]

- **In the browser** (headless Chromium, ``/usr/bin/chromium`` or ``GAMEHOST_CHROMIUM``; a fresh profile): for
  ``--steps`` frames of one finished game per game, the page's weight (HTML, style sheet, script and board
  picture, as transferred) and its time to first picture (navigation start to the board picture decoded; for a
  game that draws none, to the page's load), against the Discord viewer's own step for the same frame (building
  ``cogs.review.viewer_message``: the embed text and the picture), measured alternately, frame by frame. First
  visit (nothing cached: the picture drawn, the style sheet and script fetched) and a revisit (the picture
  drawn already, the assets cached). Medians; also the bot's own work for a page's step (its HTML and its picture,
  drawn), the part comparable to the viewer's step (``python -m bench.look_back``'s ``step`` measures the same).
- **Requests per second** one visitor's address gets from a token route on 127.0.0.1 (``--requests`` sequential
  requests over one connection, the rate limit lifted to see the server's own pace), for the page of a step and
  for its picture (drawn once, then from the server's cache); and where the default limit stops a visitor who asks
  as fast as it can: how many answers before the first 429."""
from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

from bot.review import Perspective
from bot.scheduler import BotScheduler
from bot.service import GameService
from bot.shares import issue
from bot.storage import Storage
from bot.web import WebConfig, WebServer
from bot.web.limits import AddressLimits
from bot.web.page import board_picture
from bot.web.source import StoredReplays
from cogs.review import viewer_message

CHROMIUM = os.environ.get("GAMEHOST_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
OPTIONS: dict[str, dict[str, Any]] = {"twinpyramid": {"rounds": 1}}
FIRST_PICTURE = """async () => {
  const img = document.querySelector('.board img');
  if (img) { await img.decode(); }
  const nav = performance.getEntriesByType('navigation')[0];
  const sizes = [nav, ...performance.getEntriesByType('resource')].map(e => e.transferSize || e.encodedBodySize);
  return {ms: performance.now(), bytes: sizes.reduce((a, b) => a + b, 0),
          picture: img ? img.naturalWidth : 0};
}"""


async def finished(service: GameService, game: str, seed: int) -> int:
    scheduler = BotScheduler(service, delay=0)
    table = await service.create_bot_table(game=game, players=4 if game != "diamondbox" else 3, seed=seed,
                                           channel_id=1, guild_id=1, options=OPTIONS.get(game))
    await scheduler.idle()
    await scheduler.close()
    return table.id


def viewer_step_ms(opened: Any, index: int) -> float:
    started = time.perf_counter()
    viewer_message(opened.replay, index, Perspective.SPECTATOR, None, "en")
    return (time.perf_counter() - started) * 1000


def page_work_ms(server: WebServer, opened: Any, index: int) -> float:
    """The bot's own work for a page's step: the HTML and the picture, drawn (not from the server's cache)."""
    started = time.perf_counter()
    server.render_page(opened, index, "en")
    board_picture(opened, index, "en")
    return (time.perf_counter() - started) * 1000


async def browser_figures(server: WebServer, storage: Storage, tokens: dict[str, str], steps: int) -> None:
    from playwright.async_api import async_playwright

    site = f"http://127.0.0.1:{server.ports[0]}"
    print("| game | visit | page weight (KiB) | first picture in the browser (ms) | the page's work in the bot (ms) | "
          "Discord viewer's step (ms) | first picture / viewer step |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    profile = tempfile.mkdtemp(prefix="gamehost-bench-")
    try:
        async with async_playwright() as driver:
            for game, token in tokens.items():
                opened = await server.source.open(token)
                assert opened is not None
                last = len(opened.replay) - 1
                frames = [round(i * last / (steps - 1)) for i in range(steps)]
                context = await driver.chromium.launch_persistent_context(
                    f"{profile}/{game}", executable_path=CHROMIUM, args=FLAGS, headless=True)
                page = await context.new_page()
                for visit in ("first", "again"):
                    web, viewer, weight, work = [], [], [], []
                    for index in frames:  # alternately: the viewer's step, then the page's
                        viewer.append(await asyncio.to_thread(viewer_step_ms, opened, index))
                        work.append(await asyncio.to_thread(page_work_ms, server, opened, index))
                        await page.goto(f"{site}/r/{token}/{index}")
                        shown = await page.evaluate(FIRST_PICTURE)
                        web.append(shown["ms"])
                        weight.append(shown["bytes"] / 1024)
                    w, v = statistics.median(web), statistics.median(viewer)
                    print(f"| {game} | {visit} | {statistics.median(weight):.1f} | {w:.0f} | "
                          f"{statistics.median(work):.0f} | {v:.0f} | {w / v:.1f} |")
                await context.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)


async def throughput(server: WebServer, token: str, requests: int) -> None:
    site = f"http://127.0.0.1:{server.ports[0]}"
    print("\n| token route | requests | per second |")
    print("| --- | ---: | ---: |")
    async with aiohttp.ClientSession() as session:
        for what, path in (("page of a step", f"/r/{token}/7"), ("its picture", f"/r/{token}/7/board.png"),
                           ("unknown token (404)", "/r/" + "A" * 43)):
            async with session.get(site + path) as response:  # warm: the game rebuilt, the picture drawn
                await response.read()
            started = time.perf_counter()
            for _ in range(requests):
                async with session.get(site + path) as response:
                    await response.read()
            rate = requests / (time.perf_counter() - started)
            print(f"| {what} | {requests} | {rate:.0f} |")
        server.limits = AddressLimits()  # the default: how far a visitor asking flat out gets
        answered = 0
        for _ in range(1000):
            async with session.get(f"{site}/r/{token}/7") as response:
                await response.read()
                if response.status == 429:
                    break
                answered += 1
        print(f"\nDefault limit ({server.limits.burst} at once, then {server.limits.per_second:g} a second): "
              f"{answered} answers before the first 429.")


async def main(games: list[str], steps: int, requests: int, browser: bool) -> None:
    folder = tempfile.mkdtemp(prefix="gamehost-bench-")
    storage = await Storage.open(Path(folder) / "bench.db")
    try:
        service = GameService(storage)
        tokens = {game: await issue(storage, await finished(service, game, seed=11), None, 1, days=1)
                  for game in games}
        server = WebServer(WebConfig(base_url="http://127.0.0.1", port=0), StoredReplays(storage),
                           limits=AddressLimits(burst=10 ** 9, per_second=10 ** 9))
        await server.start()
        try:
            if browser and Path(CHROMIUM).exists():
                await browser_figures(server, storage, tokens, steps)
            elif browser:
                print(f"(no Chromium at {CHROMIUM}: the browser figures are skipped)")
            await throughput(server, tokens[games[0]], requests)
        finally:
            await server.stop()
    finally:
        await storage.close()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m bench.web_pages")
    parser.add_argument("--games", nargs="+", default=["twinpyramid", "rocca", "pileup", "diamondbox", "akuma"])
    parser.add_argument("--steps", type=int, default=12)
    parser.add_argument("--requests", type=int, default=400)
    parser.add_argument("--no-browser", action="store_true")
    arguments = parser.parse_args()
    asyncio.run(main(arguments.games, arguments.steps, arguments.requests, not arguments.no_browser))
