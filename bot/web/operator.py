"""The operator's two routes (issue 56): ``/healthz`` answers 200 when the gateway is connected, the database
is the one the bot writes and would take a write, and the bots' thinking workers are alive, else 503 naming what
failed (JSON: ``{"ok": …, "failed": […], "checks": {name: {"ok": …, "detail": …}}}``); ``/metrics`` is
``bot.metrics`` in Prometheus' text format. They read the bot, never change it."""
from __future__ import annotations

import asyncio
import json
from dataclasses import asdict, dataclass
from typing import Any

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from ..storage import DatabaseUnusable

DATABASE_PATIENCE = 2.0  # seconds the database's check may take before it counts as not answering


@dataclass(frozen=True)
class Check:
    ok: bool
    detail: str


def gateway(bot: Any) -> Check:
    """Every shard's gateway connection is open and the bot has had its READY."""
    if bot.is_closed() or not bot.is_ready():
        return Check(False, "not connected" if not bot.is_closed() else "closed")
    shards = getattr(bot, "shards", None)
    if isinstance(shards, dict) and shards:  # an AutoShardedBot: each of this process's shards
        down = sorted(shard_id for shard_id, shard in shards.items() if shard.is_closed())
        return Check(not down, f"shards {down} disconnected" if down else f"{len(shards)} shards connected")
    ws = getattr(bot, "ws", None)
    connected = ws is not None and bool(getattr(ws, "open", False))
    return Check(connected, "connected" if connected else "disconnected")


async def database(storage: Any) -> Check:
    """The database the bot writes is there and would take a write (``Storage.health``), within its patience."""
    try:
        return Check(True, await asyncio.wait_for(storage.health(), DATABASE_PATIENCE))
    except DatabaseUnusable as unusable:
        return Check(False, unusable.kind)
    except TimeoutError:
        return Check(False, f"{storage.backend}: no answer within {DATABASE_PATIENCE:g} s")
    except Exception as error:  # any other failure is the answer too, named by its kind (its text may hold secrets)
        return Check(False, f"{storage.backend}: {type(error).__name__}")


def workers(thinker: Any) -> Check:
    """Each lane that thinks in worker processes has them alive (a lane deciding on the loop has none to lose)."""
    problems, alive = [], 0
    for lane in (thinker.quick, thinker.strong):
        if not lane.offloaded or lane.pool is None:
            continue
        living = [w for w in lane.pool.workers if not w.lost and w.process.is_alive()]
        alive += len(living)
        if lane.pool.closed or not living:
            problems.append(f"no {'/'.join(lane.offloaded)} worker alive")
    return Check(not problems, "; ".join(problems) or f"{alive} workers alive")


async def health(bot: Any) -> dict[str, Check]:
    return {"gateway": gateway(bot), "database": await database(bot.storage), "workers": workers(bot.thinker)}


def operator_routes(bot: Any) -> web.RouteTableDef:
    routes = web.RouteTableDef()

    @routes.get("/healthz")
    async def healthz(request: web.Request) -> web.Response:
        checks = await health(bot)
        failed = [name for name, check in checks.items() if not check.ok]
        body = {"ok": not failed, "failed": failed, "checks": {name: asdict(c) for name, c in checks.items()}}
        return web.Response(status=503 if failed else 200, text=json.dumps(body), content_type="application/json")

    @routes.get("/metrics")
    async def metrics(request: web.Request) -> web.Response:
        bot.metrics.tables_running.set(await bot.storage.count_running(bot.service.shards))
        return web.Response(body=generate_latest(bot.metrics.registry),
                            headers={"Content-Type": CONTENT_TYPE_LATEST})

    return routes
