"""``python -m bench.strong_budget``: the playouts a strong decision runs are counted, not guessed."""
from __future__ import annotations

import random
import re

import pytest

from bench import strong_budget
from bot.policies.search import candidates, choose_strong, searches


def test_report_counts_the_playouts_of_a_fixed_search() -> None:
    view, legal, seed = strong_budget.positions("diamondbox", 2, 1)[0]
    searched = len(candidates("diamondbox", view, legal, random.Random(f"strong:diamondbox:{seed}")))
    report: dict[str, int] = {}
    choose_strong("diamondbox", view, legal, seed, iterations=25, report=report)
    assert searched > 1
    assert report["playouts"] == (25 // searched) * searched


def test_seat_counts_follow_the_games_limits() -> None:
    assert strong_budget.seat_counts("akuma") == [3, 4]
    assert strong_budget.seat_counts("rocca") == [2, 3, 4]


def test_positions_are_real_decisions() -> None:
    found = strong_budget.positions("rocca", 3, 4)
    assert len(found) == 4
    assert all(len(legal) > 1 and view.viewer for view, legal, _ in found)


def test_the_budget_bounds_the_playouts(capsys: pytest.CaptureFixture[str]) -> None:
    short, _ = strong_budget.measure("diamondbox", 2, 0.005, 3)
    longer, _ = strong_budget.measure("diamondbox", 2, 0.15, 3)
    assert sum(longer) > sum(short) >= 3
    strong_budget.main(["--game", "diamondbox", "--positions", "2", "--budget", "0.01"])
    lines = [line for line in capsys.readouterr().out.splitlines() if not line.startswith("#")]
    assert [re.match(r"diamondbox\s+(\d)p", line).group(1) for line in lines] == ["2", "3", "4"]  # type: ignore[union-attr]


def test_games_whose_strong_bot_plays_the_heuristic_are_left_out() -> None:
    assert not searches("pileup")
    assert all(searches(g) for g in ("akuma", "rocca", "twinpyramid", "diamondbox"))
    report: dict[str, int] = {}
    view, legal, seed = strong_budget.positions("pileup", 2, 1)[0]
    choose_strong("pileup", view, legal, seed, iterations=25, report=report)
    assert report == {"playouts": 0}
