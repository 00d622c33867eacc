"""python -m bench.replay_speed plays a seeded Twin Pyramid game, replays it and prints the timings."""
from __future__ import annotations

import re

import pytest

from bench import replay_speed


def test_replay_bench_prints_rebuild_and_step_times(capsys: pytest.CaptureFixture[str]) -> None:
    replay_speed.main(["--players", "2", "--rounds", "1"])
    out = capsys.readouterr().out
    assert re.search(r"^twinpyramid 2 players 1 rounds seed 1: \d+ actions, rebuild and verify \d+ ms; one step: "
                     r"text [\d.]+ ms, board picture [\d.]+ ms$", out, re.M), out
    assert re.search(r"^viewer: open \(rebuild \+ first frame\) \d+ ms; one step from the cache \d+ ms "
                     r"\(worst \d+ ms\)$", out, re.M), out
