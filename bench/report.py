"""Small helpers shared by the benchmark sections: percentiles, digests, RSS, and a printed table."""
from __future__ import annotations

import hashlib
import os
import statistics
from typing import Any, Sequence


def percentile(values: Sequence[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = (len(ordered) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def rank_percentile(values: Sequence[float], q: float) -> float:
    """The nearest-rank percentile, ``q`` in 0..1 (0.0 for no values): what the bots' benchmarks print."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def digest(results: Any) -> str:
    """A short hash of ``repr(results)``: two versions of the code made the same choices when their digests match."""
    return hashlib.sha256(repr(results).encode()).hexdigest()[:16]


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else float("nan")


def rss_bytes(pid: int | str = "self") -> int:
    """Resident set size of this process, or of process ``pid`` (Linux /proc; 0 where unavailable)."""
    try:
        with open(f"/proc/{pid}/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return 0


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def print_table(title: str, header: list[str], rows: list[list[object]]) -> None:
    cells = [header] + [[str(c) for c in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    print(f"\n## {title}")
    for n, row in enumerate(cells):
        print("| " + " | ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) + " |")
        if n == 0:
            print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
