"""``python -m bench.rocca_reading``: counts what public play tells and scores the samples against the truth."""
from __future__ import annotations

import pytest

from bench import rocca_reading


def test_counts_and_scores_are_measured(capsys: pytest.CaptureFixture[str]) -> None:
    r = rocca_reading.measure(players=2, games=3, samples=8)
    assert r.brier is not None
    assert 0 < r.constrained < r.looks and 0 < r.constrained_cards < r.rival_cards
    assert 0 < r.ruled_out_share < r.constrained
    assert all(0 < total / r.brier_pairs < 0.25 for total in r.brier.values())
    assert r.brier["uniform"] != r.brier["reading public play"]  # the reading changes the samples
    assert r.known_cards >= r.known > 0 and r.brier["with the Q passes"] < r.brier["reading public play"]
    rocca_reading.main(["--games", "1", "--samples", "4"])
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("rocca 2p, 1 games") and out[1].startswith("Brier score")


@pytest.mark.parametrize("flags", [["--games", "0"], ["--samples", "-1"], ["--players", "1"]])
def test_bad_flags_are_refused_with_a_message(flags: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        rocca_reading.main(flags)
    assert "error: argument --" in capsys.readouterr().err
