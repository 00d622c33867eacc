"""The benchmark must keep running (its figures are checked by people, not here): `python -m bench --quick`."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_quick_benchmark_runs_and_prints_every_section() -> None:
    proc = subprocess.run([sys.executable, "-m", "bench", "--quick"], cwd=ROOT, capture_output=True, text=True,
                          timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = proc.stdout
    for heading in ("## Engines", "## Action latency", "## Memory and storage", "## Cold start", "## Board images"):
        assert heading in out, f"missing {heading!r}"
    for figure in ("floor p99", "RSS with 1,000 active tables", "database bytes per action",
                   "first action answered", "rocca", "diamondbox"):
        assert figure in out
