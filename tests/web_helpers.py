"""What the web side's tests share: finished games played by bots through the real service on a real database,
and the real web server (``bot.web``) on a free port of 127.0.0.1, asked with a real HTTP client."""
from __future__ import annotations

from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator

import aiohttp

from bot.scheduler import BotScheduler
from bot.service import GameService
from bot.storage import SeatRow, Storage
from bot.table import Table
from bot.web import WebConfig, WebServer
from bot.web.limits import LOCAL_PROXIES, AddressLimits, Proxies
from bot.web.source import ReplaySource
from engines import get_engine

HOSTILE_NAME = '<img src=x onerror="alert(1)">**bold** `code` @everyone'
SHORT_OPTIONS: dict[str, dict[str, Any]] = {"twinpyramid": {"rounds": 1}}  # one deal: a short whole game


async def finished_table(service: GameService, game: str, *, players: int | None = None, seed: int = 7,
                         names: list[str] | None = None, guild_id: int | None = 555,
                         locale: str = "en") -> Table:
    """A whole game played by bots to its end. ``names``: the seats' names as people typed them (seats of people
    handed to bots, so their names are shown as typed); otherwise the host's "Bot 1", "Bot 2" …"""
    engine = get_engine(game)
    count = players or min(engine.max_players, 4)
    seats = [SeatRow(i, f"p{i + 1}", names[i] if names else f"Bot {i + 1}", 1000 + i if names else None, True)
             for i in range(count)]
    if not names:
        seats = [SeatRow(i, f"bot{i + 1}", f"Bot {i + 1}", None, True) for i in range(count)]
    scheduler = BotScheduler(service, delay=0)
    try:
        table = await service.create_seated_table(game=game, guild_id=guild_id, channel_id=1, seats=seats,
                                                  host_id=1000, seed=seed, options=SHORT_OPTIONS.get(game),
                                                  locale=locale)
        await scheduler.idle()
    finally:
        await scheduler.close()
    assert table.status == "finished"
    return table


@asynccontextmanager
async def served(source: ReplaySource, *, limits: AddressLimits | None = None,
                 trusted: Proxies = LOCAL_PROXIES,
                 base_url: str = "https://games.example.org") -> AsyncIterator[str]:
    """The web server on a free port; yields its address (http://127.0.0.1:PORT)."""
    server = WebServer(WebConfig(base_url=base_url, port=0, trusted_proxies=trusted), source,
                       limits=limits if limits is not None else AddressLimits(burst=10_000, per_second=10_000))
    await server.start()
    try:
        yield f"http://127.0.0.1:{server.ports[0]}"
    finally:
        await server.stop()


async def fetch(url: str, headers: dict[str, str] | None = None,
                source: str | None = None) -> tuple[int, dict[str, str], bytes]:
    """GET ``url``; ``source``: the local address to ask from (127.0.0.x: another machine, as the server sees it)."""
    connector = aiohttp.TCPConnector(local_addr=(source, 0)) if source else None
    async with aiohttp.ClientSession(connector=connector) as session:
        async with session.get(url, headers=headers, allow_redirects=False) as response:
            return response.status, dict(response.headers), await response.read()


@asynccontextmanager
async def sqlite_service(path: Path) -> AsyncIterator[GameService]:
    """The service on a SQLite file: for the web side's tests, whose storage is tested on both backends in
    tests/test_web_shares.py."""
    storage = await Storage.open(path)
    try:
        yield GameService(storage)
    finally:
        await storage.close()
