"""``python -m bot run --dry-run``: what a bot process does on the database before it connects to Discord —
open and migrate it, claim its shards (``SHARD_COUNT``/``SHARD_IDS``; refused if another running process owns one),
decide whether it syncs the commands — then one line saying so, and the claim is held until SIGTERM or SIGINT.
No token and no network: the cluster launcher's check (``python -m bot cluster --processes N --dry-run``)."""
from __future__ import annotations

import asyncio
import signal
import sys

from .cluster import REFUSED, syncs_commands
from .settings import Settings
from .storage import ShardsTaken, Storage


async def dry_run(settings: Settings) -> int:
    shards = settings.shards()
    storage = await Storage.open(settings.database())
    try:
        claim = await storage.claim_shards(shards) if shards is not None else None
    except ShardsTaken as taken:
        await storage.close()
        print(taken, file=sys.stderr)
        return REFUSED
    owned = "all shards" if shards is None else f"shards {','.join(map(str, shards.ids))} of {shards.count}"
    stopped = _stop_signals()  # before the line: whoever reads it may stop this process at once
    print(f"dry run: {owned} owned on {storage.backend}; syncs commands: "
          f"{'yes' if syncs_commands(shards) else 'no'}", flush=True)
    await stopped.wait()
    if claim is not None:
        await claim.release()
    await storage.close()
    return 0


def _stop_signals() -> asyncio.Event:
    """An event set by SIGTERM or SIGINT."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    return stop
