"""Errors of the Discord test harness, and whose they are: ``HarnessErrors`` (collecting, expecting and raising
the errors of a harness's bot) and ``OWNER``, the harness a task works for.

``OWNER`` is set while a harness starts its bot or feeds it an event and is inherited by every task created from
there, so several harnesses (bots, e.g. two shard processes) can share one event loop: each one's ``settle``,
errors, ``close`` and ``abandon`` see only its own tasks (and those of nobody in particular, e.g. the test's own).
"""
from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import sys
import traceback
from typing import TYPE_CHECKING, Any, Optional

from .discord_harness_http import HarnessError

if TYPE_CHECKING:
    from .discord_harness import Harness

OWNER: contextvars.ContextVar[Optional["Harness"]] = contextvars.ContextVar("harness_owner", default=None)


class ErrorLog(logging.Handler):
    """discord.py's logged errors (handlers' default ``on_error``) of this harness's bot."""

    def __init__(self, harness: "Harness"):
        super().__init__(logging.ERROR)
        self.harness = harness

    def emit(self, record: logging.LogRecord) -> None:
        if OWNER.get() not in (None, self.harness):
            return  # another harness's bot
        exc = record.exc_info[1] if record.exc_info else None
        self.harness.record_error(exc or HarnessError(f"{record.name}: {record.getMessage()}"))


class HarnessErrors:
    bot: Any
    errors: list[BaseException]
    _expected: list[tuple[tuple[type, ...], list]]

    def record_error(self, exc: Optional[BaseException]) -> None:
        if exc is not None and not any(e is exc for e in self.errors):
            self.errors.append(exc)

    def _hook_error_handlers(self) -> None:
        """Wrap the tree's and the bot's current ``on_error`` (they may be custom ones that swallow errors)."""
        for owner, name in ((getattr(self.bot, "tree", None), "on_error"), (self.bot, "on_error")):
            handler = getattr(owner, name, None)
            if handler is None or getattr(handler, "_harness", False):
                continue

            async def wrapper(*args, _handler=handler, _owner=owner, **kwargs):
                error = args[-1] if _owner is not self.bot else sys.exc_info()[1]
                self.record_error(error if isinstance(error, BaseException) else None)
                await _handler(*args, **kwargs)
            wrapper._harness = True  # type: ignore[attr-defined]
            setattr(owner, name, wrapper)

    @contextlib.contextmanager
    def expect_errors(self, *types: type):
        """Inside, errors of ``types`` (matched directly or as ``.original``) go to the yielded list instead of
        failing; leaving the block without one is a failure."""
        caught: list[BaseException] = []
        entry = (types or (Exception,), caught)
        self._expected.append(entry)
        try:
            yield caught
        finally:
            self._expected.remove(entry)
        if not caught:
            raise HarnessError(f"expected an error of {types}, none was raised")

    def allow_errors(self, *types: type) -> None:
        """From now on, errors of ``types`` are normal flow (e.g. domain errors a bot answers itself), not failures."""
        self._expected.append((types, []))

    def check_errors(self) -> None:
        """Raise :class:`HarnessError` (with every traceback) for errors not claimed by ``expect_errors``."""
        unclaimed = []
        for error in self.errors:
            for types, caught in self._expected:
                if isinstance(error, types) or isinstance(getattr(error, "original", None), types):
                    caught.append(error)
                    break
            else:
                unclaimed.append(error)
        self.errors.clear()
        if unclaimed:
            text = "\n".join("".join(traceback.format_exception(e)) for e in unclaimed)
            raise HarnessError(f"{len(unclaimed)} error(s) in the bot:\n{text}") from unclaimed[0]


def cancel_callbacks_of(harness: "Harness") -> int:
    """Cancel the loop's pending callbacks (``call_later`` timers, ``call_soon``) scheduled by this harness's bot (the
    context they run in is the bot's): a killed process runs none of them. Returns how many were cancelled."""
    loop = asyncio.get_running_loop()
    pending = [*getattr(loop, "_scheduled", ()), *getattr(loop, "_ready", ())]  # asyncio's own queues
    mine = [handle for handle in pending if not handle.cancelled()
            and getattr(handle, "_context", contextvars.Context()).get(OWNER) is harness]
    for handle in mine:
        handle.cancel()
    return len(mine)
