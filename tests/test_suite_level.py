"""The suite's levels (``tests/suite_level.py``) and CI's use of them: CI runs the full counts and the benchmark."""
from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from . import suite_level
from .suite_level import Level, count, current_level

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(("env", "level"), [
    ({}, Level.QUICK),
    ({"GAMEHOST_FULL": "0"}, Level.QUICK),
    ({"GAMEHOST_FULL": "1"}, Level.FULL),
    ({"GAMEHOST_SOAK": "1"}, Level.SOAK),
    ({"GAMEHOST_FULL": "1", "GAMEHOST_SOAK": "1"}, Level.SOAK),
])
def test_the_level_follows_the_environment(env: dict[str, str], level: Level,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("GAMEHOST_FULL", "GAMEHOST_SOAK"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert current_level() is level


@pytest.mark.parametrize(("level", "expected"), [(Level.QUICK, 1), (Level.FULL, 3), (Level.SOAK, 9)])
def test_count_picks_the_levels_figure(level: Level, expected: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(suite_level, "LEVEL", level)
    assert count(quick=1, full=3, soak=9) == expected
    assert count(quick=1, full=3) == (1 if level is Level.QUICK else 3)


def pytest_runs_in_ci() -> list[list[str]]:
    lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    return [shlex.split(line) for line in lines if "-m pytest" in line and not line.lstrip().startswith("#")]


def marker_selection(run: list[str]) -> str:
    """The ``-m`` expression given to pytest ("" when none: every test)."""
    args = run[run.index("pytest") + 1:]
    return args[args.index("-m") + 1] if "-m" in args else ""


def test_ci_runs_every_test_at_full_counts_and_the_benchmark_as_its_own_step() -> None:
    runs = pytest_runs_in_ci()
    assert runs and all(run[0] == "GAMEHOST_FULL=1" for run in runs), runs
    assert sorted(marker_selection(run) for run in runs) == ["bench", "not bench"], runs
