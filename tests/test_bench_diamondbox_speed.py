"""python -m bench.diamondbox_speed runs and prints both timings with a digest of their results."""
from __future__ import annotations

import re

import pytest

from bench import diamondbox_speed


def test_microbench_prints_both_timings(capsys: pytest.CaptureFixture[str]) -> None:
    diamondbox_speed.main(["--games", "1", "--repeat", "1"])
    out = capsys.readouterr().out
    assert re.search(r"^\d+ placement positions", out, re.M)
    for name in ("enumerate", "decide"):
        assert re.search(rf"^{name} +[\d.]+ ms per position  results [0-9a-f]{{16}}$", out, re.M)
