"""``python -m bench.seats``: whole bot games counted per seat and per place in the turn order."""
from __future__ import annotations

import pytest

from bench import seats


def test_twin_pyramid_deals_are_counted_per_seat_and_per_place() -> None:
    tally = seats.measure("twinpyramid", 3, games=6, seed=0, options={"deals": 1})
    assert tally.games == tally.deals == 6
    ended = sum(s.completed + s.burst for s in tally.seats) + tally.turn_limit
    assert ended == 6 == sum(s.completed + s.burst for s in tally.positions) + tally.turn_limit
    assert sum(s.deal_points for s in tally.seats) == 0  # payments are zero-sum
    assert sum(s.firsts for s in tally.seats) >= 6  # every game has a first place, shared ones count for each
    assert tally.all_zero == tally.turn_limit  # one deal: everyone at 0 exactly when it reached the limit
    assert len(tally.minutes) == 6 and all(minutes > 0 for minutes in tally.minutes)


def test_the_default_at_three_seats_is_one_round() -> None:
    tally = seats.measure("twinpyramid", 3, games=1, seed=0, options={})
    assert tally.deals == 3


def test_percentiles_interpolate_between_ranks() -> None:
    assert seats.percentile([10.0, 20.0, 30.0, 40.0], 50) == 25.0
    assert seats.percentile([10.0, 20.0], 90) == 19.0 and seats.percentile([5.0], 10) == 5.0


def test_the_report_prints_both_tables(capsys: pytest.CaptureFixture[str]) -> None:
    seats.main(["--games", "3", "--seats", "2"])
    out = capsys.readouterr().out
    assert "twinpyramid at 2 seats, 3 games" in out and "by place in the turn order" in out
    assert "first place shared" in out and "every score 0" in out and "p10 / median / p90" in out



def test_bench_deals_deals_the_per_seat_variant_when_asked(monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m bench.deals --streams per_seat`` plays its deals with every seat's own pile (Twin Pyramid D19)."""
    from bench import deals

    asked: list[dict | None] = []
    play = deals.play_deal

    def spied(players: int, seed: int, options: dict | None = None) -> tuple[str, float]:
        asked.append(options)
        return play(players, seed, options)

    monkeypatch.setattr(deals, "play_deal", spied)
    deals.main(["--deals", "2", "--players", "2", "--streams", "per_seat"])
    assert asked == [{"streams": "per_seat"}] * 2
    assert capsys.readouterr().out.splitlines()[1].split()[:2] == ["2", "2"]
