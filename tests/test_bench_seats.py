"""``python -m bench.seats``: whole bot games counted per seat and per place in the turn order."""
from __future__ import annotations

import pytest

from bench import seats


def test_twin_pyramid_deals_are_counted_per_seat_and_per_place() -> None:
    tally = seats.measure("twinpyramid", 3, games=6, seed=0, options={})
    assert tally.games == tally.deals == 6  # one deal per game at the default
    ended = sum(s.completed + s.burst for s in tally.seats) + tally.turn_limit
    assert ended == 6 == sum(s.completed + s.burst for s in tally.positions) + tally.turn_limit
    assert sum(s.deal_points for s in tally.seats) == 0  # payments are zero-sum
    assert sum(s.firsts for s in tally.seats) >= 6  # every game has a first place, shared ones count for each


def test_the_report_prints_both_tables(capsys: pytest.CaptureFixture[str]) -> None:
    seats.main(["--games", "3", "--seats", "2"])
    out = capsys.readouterr().out
    assert "twinpyramid at 2 seats, 3 games" in out and "by place in the turn order" in out
    assert "first place shared" in out
