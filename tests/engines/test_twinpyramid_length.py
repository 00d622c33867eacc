"""Twin Pyramid's length: ``deals`` counts deals, ``rounds`` (the original's way, and every game stored before
``deals`` existed) counts rounds of one deal per player; a game of engine version 1 is read with its old meaning."""
from __future__ import annotations

import pytest

from engines import BadOptions, get_engine

ENG = get_engine("twinpyramid")


def players(n: int) -> list[str]:
    return [f"p{i}" for i in range(n)]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_deals_count_deals_whatever_the_seats(n):
    s = ENG.new_game(players(n), seed=1, options={"deals": 3})
    assert s.deals_total == 3 and s.options == {"jokers": 2, "deals": 3, "rules": 5}
    assert ENG.length_units({"deals": 3}, n) == 3


@pytest.mark.parametrize("n", [2, 3, 4])
def test_rounds_count_one_deal_per_player_and_overrule_deals(n):
    s = ENG.new_game(players(n), seed=1, options={"rounds": 2, "deals": 5})
    assert s.deals_total == 2 * n and s.options == {"jokers": 2, "rounds": 2, "rules": 5}
    assert ENG.length_units({"rounds": 2}, n) == 2 * n


@pytest.mark.parametrize("options", [{"deals": 0}, {"deals": 31}, {"deals": "2"}, {"rounds": 0}, {"rounds": 11}])
def test_out_of_range_lengths_are_refused(options):
    with pytest.raises(BadOptions):
        ENG.new_game(players(3), seed=1, options=options)


def test_a_stored_game_of_version_1_reads_its_options_as_the_original_two_rounds():
    assert 1 in ENG.replays_versions and ENG.version == 5
    old_rules = {"start_player": 0, "rules": 2}  # what version 3 adds for any game stored before it
    assert ENG.stored_options({}, 1) == {"rounds": 2, **old_rules}
    assert ENG.stored_options({"jokers": 0}, 0) == {"jokers": 0, "rounds": 2, **old_rules}
    assert ENG.stored_options({"rounds": 1}, 1) == {"rounds": 1, **old_rules}
    assert ENG.stored_options({}, 2) == {"deals": 1, **old_rules}
    old = ENG.new_game(players(3), seed=4, options=ENG.stored_options({}, 1))
    assert old.deals_total == 6 and old.options == {"jokers": 2, "rounds": 2}  # the state version 1 stored
    assert ENG.new_game(players(3), seed=4).deals_total == 3  # today: one round at three (D17)


def test_a_stored_game_of_version_2_or_3_that_named_no_length_reads_as_one_deal_under_rules_3():
    assert ENG.stored_options({}, 3) == {"deals": 1, "rules": 3}  # and no cap on the turn limit (rules 3)
    assert ENG.stored_options({"jokers": 0}, 3) == {"jokers": 0, "deals": 1, "rules": 3}
    assert ENG.stored_options({"rounds": 2}, 3) == {"rounds": 2, "rules": 3}
    assert ENG.stored_options({}, ENG.version) == {}
    state = ENG.new_game(players(5), seed=4, options=ENG.stored_options({}, 3))
    assert state.deals_total == 1 and state.options == {"jokers": 2, "deals": 1, "rules": 3}


@pytest.mark.parametrize(("n", "deals", "length"), [(2, 2, {"rounds": 1}), (3, 3, {"rounds": 1}),
                                                     (4, 4, {"rounds": 1}), (5, 1, {"deals": 1}),
                                                     (6, 1, {"deals": 1})])
def test_no_length_named_is_one_round_up_to_four_players_and_one_deal_above(n, deals, length):
    """D17: the default follows the players dealt in; the state keeps the length it plays, so it reads back."""
    s = ENG.new_game(players(n), seed=1, options={"jokers": 1})
    assert s.deals_total == deals and s.options == {"jokers": 1, **length, "rules": 5}
    assert ENG.length_units({}, n) == deals
    assert ENG.load(ENG.dump(s)) == s
