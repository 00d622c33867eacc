"""How many repetitions the loops of the suite run (issue 36, item 6).

- ``QUICK`` (the default, a local ``python -m pytest -q``): every kind of check, fewer seeds or iterations where a
  loop repeats the same check; the ``bench --quick`` run is skipped.
- ``FULL`` (``GAMEHOST_FULL=1``, what ``.ci/run`` sets): the counts CI has always run, and the benchmark.
- ``SOAK`` (``GAMEHOST_SOAK=1``): the exhaustive counts for a long run by hand (25 kills, 1,000 seeded games, ...).
"""
from __future__ import annotations

import os
from enum import IntEnum


class Level(IntEnum):
    QUICK = 0
    FULL = 1
    SOAK = 2


def current_level() -> Level:
    if os.environ.get("GAMEHOST_SOAK") == "1":
        return Level.SOAK
    if os.environ.get("GAMEHOST_FULL") == "1":
        return Level.FULL
    return Level.QUICK


LEVEL = current_level()


def count(quick: int, full: int, soak: int | None = None) -> int:
    """The repetitions for this run's level (``soak`` defaults to ``full``)."""
    if LEVEL is Level.SOAK:
        return full if soak is None else soak
    return full if LEVEL is Level.FULL else quick
