"""Twin Pyramid's length: ``deals`` counts deals, ``rounds`` (the original's way, and every game stored before
``deals`` existed) counts rounds of one deal per player; a game of engine version 1 is read with its old meaning."""
from __future__ import annotations

import pytest

from engines import BadOptions, get_engine
from engines.twinpyramid.state import DEFAULT_DEALS

ENG = get_engine("twinpyramid")


def players(n: int) -> list[str]:
    return [f"p{i}" for i in range(n)]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_deals_count_deals_whatever_the_seats(n):
    s = ENG.new_game(players(n), seed=1, options={"deals": 3})
    assert s.deals_total == 3 and s.options == {"jokers": 2, "deals": 3, "rules": 3}
    assert ENG.length_units({"deals": 3}, n) == 3


@pytest.mark.parametrize("n", [2, 3, 4])
def test_rounds_count_one_deal_per_player_and_overrule_deals(n):
    s = ENG.new_game(players(n), seed=1, options={"rounds": 2, "deals": 5})
    assert s.deals_total == 2 * n and s.options == {"jokers": 2, "rounds": 2, "rules": 3}
    assert ENG.length_units({"rounds": 2}, n) == 2 * n


@pytest.mark.parametrize("options", [{"deals": 0}, {"deals": 31}, {"deals": "2"}, {"rounds": 0}, {"rounds": 11}])
def test_out_of_range_lengths_are_refused(options):
    with pytest.raises(BadOptions):
        ENG.new_game(players(3), seed=1, options=options)


def test_a_stored_game_of_version_1_reads_its_options_as_the_original_two_rounds():
    assert 1 in ENG.replays_versions and ENG.version == 3
    old_rules = {"start_player": 0, "rules": 2}  # what version 3 adds for any game stored before it
    assert ENG.stored_options({}, 1) == {"rounds": 2, **old_rules}
    assert ENG.stored_options({"jokers": 0}, 0) == {"jokers": 0, "rounds": 2, **old_rules}
    assert ENG.stored_options({"rounds": 1}, 1) == {"rounds": 1, **old_rules}
    assert ENG.stored_options({}, 2) == old_rules
    assert ENG.stored_options({}, ENG.version) == {}
    old = ENG.new_game(players(3), seed=4, options=ENG.stored_options({}, 1))
    assert old.deals_total == 6 and old.options == {"jokers": 2, "rounds": 2}  # the state version 1 stored
    assert ENG.new_game(players(3), seed=4).deals_total == DEFAULT_DEALS
