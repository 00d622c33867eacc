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
    rocca_reading.main(["--games", "1", "--samples", "4"])
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("rocca 2p, 1 games") and out[1].startswith("Brier score")
