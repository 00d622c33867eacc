"""``bench.same_deal_luck``: a simulated tournament is played by the tournament code and the bots, is the same
from the same seed, and its correlation is Spearman's."""
from __future__ import annotations

import pytest

from bench.same_deal_luck import simulate, spearman
from bot.tournaments.models import Deal


def test_spearman_is_one_for_the_same_order_and_minus_one_reversed() -> None:
    assert spearman([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1.0)
    assert spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)
    assert spearman([1, 1, 0, 0], [4, 3, 2, 1]) == pytest.approx(0.8944, abs=1e-4)


@pytest.mark.parametrize("deal", list(Deal))
def test_a_simulated_tournament_is_the_same_from_the_same_seed(deal: Deal) -> None:
    first = simulate("pileup", deal, 3, 2)
    assert simulate("pileup", deal, 3, 2) == first
    assert -1.0 <= first.correlation <= 1.0
