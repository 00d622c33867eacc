"""The strict number patterns of custom_ids (``cogs/custom_ids.py``): exactly the canonical ASCII decimals of
0..limit, nothing that ``\\d`` or ``str.isdigit()`` would also take."""
from __future__ import annotations

import random
import re

import pytest

from cogs.custom_ids import ID, MAX_ID, SEAT, at_most, number


@pytest.mark.parametrize("limit", [0, 7, 9, 10, 99, 100, 305, 9_999, 2 ** 31 - 1, MAX_ID])
def test_at_most_matches_exactly_the_numbers_up_to_its_limit(limit: int) -> None:
    pattern = re.compile(at_most(limit))
    rng = random.Random(limit)
    near = [limit + d for d in range(-12, 13)] + [10 ** k + d for k in range(21) for d in (-1, 0, 1)]
    for n in [*range(0, 1_100), *near, *(rng.randrange(0, 3 * limit + 2) for _ in range(2_000))]:
        if n >= 0:
            assert bool(pattern.fullmatch(str(n))) == (n <= limit), (limit, n)


@pytest.mark.parametrize("text", ["", "-1", "01", "00", "²", "٣", "1٣", "１", "1²", " 1", "1 ", "+1", "1.0", "1_0",
                                  str(2 ** 63), "9" * 19, "1" * 40])
def test_forged_numbers_are_not_ids(text: str) -> None:
    assert number(text) is None and re.fullmatch(ID, text) is None


def test_numbers_are_read_within_their_bound() -> None:
    assert number(str(MAX_ID)) == MAX_ID and number("0") == 0 and number("42") == 42
    assert number("99", SEAT) == 99 and number("100", SEAT) is None
