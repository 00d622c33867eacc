"""What the bot's operator watches (issue 56), in Prometheus' text format through ``prometheus-client`` (served at
``/metrics`` by ``bot.web``). One registry per bot, never the library's global one (a process may run several
bots: the tests, the launcher's children each their own).

- ``gamehost_tables_running``: the running tables of this process's shards (read from the database per scrape);
- ``gamehost_actions_committed_total``: actions committed to a game's log (moves, timeouts, bots' moves);
- ``gamehost_acknowledgement_seconds``: from an interaction's creation by Discord's clock (its snowflake) to the
  end of the bot's first answer to it (the callback request, seen through discord.py's ``http_trace``);
- ``gamehost_discord_refused_total{kind}``: requests Discord refused, by kind (``rate_limited``, ``forbidden``,
  ``not_found``, ``bad_request``, ``server_error``, ``transport``);
- ``gamehost_bot_decision_wait_seconds``: how long a table waited for its bot's decision beyond the pacing delay;
- ``gamehost_database_commit_seconds``: one group commit of actions (``Storage.write_actions``)."""
from __future__ import annotations

import re
import time
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback$")
LATENCY_BUCKETS = (0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0, 10.0, 30.0)
WAIT_BUCKETS = (0.0, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0)
COMMIT_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)


def refusal_kind(status: int) -> str | None:
    """A response's status as the kind of refusal it is (None: not refused)."""
    if status < 400:
        return None
    if status == 429:
        return "rate_limited"
    if status in (401, 403):
        return "forbidden"
    if status == 404:
        return "not_found"
    return "server_error" if status >= 500 else "bad_request"


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.tables_running = Gauge("gamehost_tables_running", "Running tables of this process's shards",
                                    registry=self.registry)
        self.actions = Counter("gamehost_actions_committed", "Actions committed to the games' logs",
                               registry=self.registry)
        self.acknowledgement = Histogram("gamehost_acknowledgement_seconds",
                                         "From an interaction's creation (Discord's clock) to the bot's first answer",
                                         buckets=LATENCY_BUCKETS, registry=self.registry)
        self.refused = Counter("gamehost_discord_refused", "Requests Discord refused, by kind", ["kind"],
                               registry=self.registry)
        self.decision_wait = Histogram("gamehost_bot_decision_wait_seconds",
                                       "A table's wait for its bot's decision beyond the pacing delay",
                                       buckets=WAIT_BUCKETS, registry=self.registry)
        self.commit = Histogram("gamehost_database_commit_seconds", "One group commit of actions",
                                buckets=COMMIT_BUCKETS, registry=self.registry)

    async def on_update(self, update: Any) -> None:
        """A service subscriber (``GameService.subscribe``): every change that appended an action to a log."""
        if update.logged:
            self.actions.inc()

    def trace(self) -> aiohttp.TraceConfig:
        """discord.py's ``http_trace``: every request the bot makes, REST and interaction answers alike."""
        config = aiohttp.TraceConfig()
        config.on_request_end.append(self._request_end)
        config.on_request_exception.append(self._request_failed)
        return config

    async def _request_end(self, session: Any, context: SimpleNamespace, params: Any) -> None:
        status = int(getattr(params.response, "status", 0))
        kind = refusal_kind(status)
        if kind is not None:
            self.refused.labels(kind).inc()
            return
        found = CALLBACK.search(str(params.url.path) if hasattr(params.url, "path") else str(params.url))
        if found is not None:
            created = discord.utils.snowflake_time(int(found.group(1))).timestamp()
            self.acknowledgement.observe(max(0.0, time.time() - created))

    async def _request_failed(self, session: Any, context: SimpleNamespace, params: Any) -> None:
        self.refused.labels("transport").inc()
