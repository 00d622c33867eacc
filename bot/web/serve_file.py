"""``python -m bot replay FILE --serve [--port N]`` (issue 56): a record downloaded with ``/game record`` (or kept by
``python -m bot demo GAME --record FILE``), rebuilt and checked, served on this machine's 127.0.0.1 as the same
replay pages the bot serves at its links — the spectator's view at ``/r/game`` and each seat's at ``/r/seat-N`` —
until Ctrl-C. No Discord, no token, no database."""
from __future__ import annotations

import asyncio
import contextlib
import signal
from dataclasses import replace
from typing import Callable

from ..i18n import t
from ..replay import GameRecord
from ..replay_show import record_names
from ..review import SteppedReplay
from .limits import AddressLimits
from .server import WebConfig, WebServer
from .source import FileReplays

LOCAL = "127.0.0.1"
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM") if hasattr(signal, name))
LOCAL_LIMITS = (600, 50.0)  # one person on their own machine, holding an arrow key: far looser than the bot's


async def serve_record(record: GameRecord, lang: str, port: int, seat: int | None,
                       out: Callable[[str], None] = print, stop: asyncio.Event | None = None) -> None:
    """Serve the record until ``stop`` is set (or the process is interrupted), after printing its addresses."""
    replay = await asyncio.to_thread(SteppedReplay, record)  # checked: a record that does not replay never serves
    source = FileReplays(replay, lang)
    server = WebServer(WebConfig(base_url="", host=LOCAL, port=port), source, limits=AddressLimits(*LOCAL_LIMITS))
    await server.start()
    origin = f"http://{LOCAL}:{server.ports[0]}"
    server.config = replace(server.config, base_url=origin)  # the pages' previews name the port really bound
    try:
        keys = dict(source.keys())
        first = next((key for key, number in keys.items() if number == seat), FileReplays.SPECTATOR)
        out(t("replay.serving", lang, url=f"{origin}/r/{first}"))
        names = record_names(record, lang).plain()  # each seat by the name its page gives it
        for key, number in keys.items():
            if key != first:
                out(t("replay.serving_spectator", lang, url=f"{origin}/r/{key}") if number is None
                    else t("replay.serving_seat", lang, url=f"{origin}/r/{key}",
                           player=names(record.seat_player(number) or "")))
        out(t("replay.serving_stop", lang))
        stop = stop or asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in STOP_SIGNALS:  # Ctrl-C, or a service manager's stop: the server closes cleanly either way
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, stop.set)
        await stop.wait()
    finally:
        for sig in STOP_SIGNALS:
            with contextlib.suppress(NotImplementedError, RuntimeError):
                asyncio.get_running_loop().remove_signal_handler(sig)
        await server.stop()
