"""Twin Pyramid: contract, options, setup, deals and scoring, views, and the conformance
checks run on the engine instance (docs/rules/twinpyramid.md, "Cards and players", "Setup",
"End of a deal and scoring", "Hidden information")."""
from __future__ import annotations

import json

import pytest

from engines import BadOptions, IllegalAction, NotYourTurn
from engines.twinpyramid.cards import START_RANKS, full_deck, rank_of

from ..suite_level import LEVEL, Level
from .conformance import check_replay, random_playthrough
from .test_twinpyramid_support import ENG, act, assert_conserved, event, legal, make, pending, types


def players(n: int) -> list[str]:
    return [f"p{i}" for i in range(n)]


# ---- contract and options -------------------------------------------------------------------


def test_contract_attributes():
    assert (ENG.name, ENG.min_players, ENG.max_players) == ("twinpyramid", 2, 6)


@pytest.mark.parametrize("bad", [
    {"jokers": 3}, {"jokers": -1}, {"jokers": "2"}, {"rounds": 0}, {"rounds": 1.5}, {"colour": 1},
])
def test_bad_options_refused(bad):
    with pytest.raises(BadOptions):
        ENG.new_game(players(3), seed=1, options=bad)


@pytest.mark.parametrize("n", [1, 7])
def test_player_count_checked(n):
    with pytest.raises(BadOptions):
        ENG.new_game(players(n), seed=1)


@pytest.mark.parametrize("jokers", [0, 1, 2])
def test_deck_has_52_cards_plus_the_chosen_jokers(jokers):
    s = ENG.new_game(players(3), seed=5, options={"jokers": jokers})
    assert len(full_deck(jokers)) == 52 + jokers
    assert_conserved(s)
    assert {"AS", "10H", "QC"} <= set(full_deck(jokers))
    assert [c for c in full_deck(jokers) if c.startswith("X")] == ["X1", "X2"][:jokers]


def test_defaults_two_jokers_one_round_at_three():
    s = ENG.new_game(players(3), seed=5)
    assert s.options == {"jokers": 2, "rounds": 1, "rules": 5} and s.deals_total == 3


# ---- setup ----------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(12))
def test_setup_deals_four_and_flips_until_a_start_card(seed):
    s = ENG.new_game(players(4), seed=seed)
    assert all(len(seat.held) == 4 and not seat.shown and not seat.stones for seat in s.seats.values())
    assert rank_of(s.top()) in START_RANKS
    assert all(rank_of(c) not in START_RANKS for c in s.discard[:-1])  # the flipped-over cards
    assert s.start == s.first_start and ENG.to_act(s) == [s.player_at(s.first_start)] and s.direction == 1


def test_first_start_player_is_drawn_by_lot_from_the_seed():
    """The original: the first start player is decided by lot (「最初のSPはジャンケンなどで決めて」)."""
    for n in (2, 3, 6):
        firsts = [ENG.new_game(players(n), seed=seed).first_start for seed in range(60 * n)]
        assert set(firsts) == set(range(n))  # every seat starts some games, not always the host
        assert max(firsts.count(i) for i in range(n)) < 2 * len(firsts) / n  # none far above its share
    again = [ENG.new_game(players(3), seed=seed) for seed in range(20)]
    assert [s.first_start for s in again] == [ENG.new_game(players(3), seed=seed).first_start for seed in range(20)]
    for s in again:
        assert ENG.to_act(s) == [s.player_at(s.first_start)]
        assert ENG.start_events(s)[0].data["start_player"] == s.player_at(s.first_start)


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_start_option_names_the_first_start_player(seat):
    s = ENG.new_game(players(3), seed=7, options={"start_player": seat})
    assert s.first_start == s.start == s.current == seat and ENG.to_act(s) == [f"p{seat}"]
    assert s.options == {"jokers": 2, "rounds": 1, "rules": 5}  # the state keeps the seat, not the option


def test_a_start_seat_outside_the_table_is_refused():
    with pytest.raises(BadOptions):
        ENG.new_game(players(3), seed=7, options={"start_player": 3})
    with pytest.raises(BadOptions):
        ENG.new_game(players(3), seed=7, options={"start_player": -1})


def test_flipped_cards_are_public_in_the_deal_event():
    flips = []
    for seed in range(30):
        s = pending(ENG.new_game(players(2), seed=seed, options={"start_player": 0}), "deal_over", "p1")
        s2, ev = act(s, "p1", {"type": "next_deal"})
        started = event(ev, "deal_started").data
        assert started["flipped"] == s2.discard and started["top"] == s2.top() == s2.discard[-1]
        assert started["start_player"] == "p1" and s2.current == 1
        flips.append(len(started["flipped"]))
    assert max(flips) > 1  # some deals needed more than one flip


# ---- deals, rotation, scoring, the match --------------------------------------------------------


def burst_now(state, player):
    """Make ``player`` (whose turn it is) burst with one draw."""
    nine = ["4S", "6S", "8S", "QS", "3D", "4D", "6D", "8D", "9D"]
    for seat in state.seats.values():
        seat.held, seat.shown, seat.stones = [], [], {}
    state.discard = ["KC"]
    state.seats[player].held, state.seats[player].shown = nine[:4], nine[4:]
    state.draw = [c for c in full_deck(state.options["jokers"]) if c not in nine + ["KC"]]
    return act(state, player, {"type": "draw"})


@pytest.mark.parametrize("first", [0, 1, 2])
def test_start_player_rotates_and_rounds_end_the_match_ranked_by_points(first):
    s = ENG.new_game(players(3), seed=3, options={"rounds": 1, "start_player": first})
    starts = []
    for deal in range(3):
        starts.append(s.player_at(s.current))
        assert s.deal == deal and s.direction == 1
        s, ev = burst_now(s, s.player_at(s.current))
        if deal < 2:
            after = players(3)[(first + deal + 1) % 3]
            assert ENG.to_act(s) == [after] and legal(s, after) == [{"type": "next_deal"}]
            assert ENG.result(s) is None
            s, ev = act(s, after, {"type": "next_deal"})
            assert not any(seat.revealed for seat in s.seats.values())
    assert starts == (players(3) * 2)[first:first + 3]
    assert ENG.to_act(s) == [] and "match_over" in types(ev)
    result = ENG.result(s)
    assert result.scores == {"p0": 0, "p1": 0, "p2": 0}  # each burst once: -20 + 10 + 10
    assert result.ranking == [["p0", "p1", "p2"]]


def test_ranking_by_total_points_highest_first_with_ties_sharing():
    s = make(n=3, hands={"p0": {"held": ["KH", "AS"], "stones": ["7C", "8C", "9C", "10C", "4C", "5C", "6C",
                                                                    "2C", "3C"]}}, top="6H", options={"rounds": 1})
    s.deal = s.deals_total - 1
    s.seats["p1"].points = 5
    s, _ = act(s, "p0", {"type": "play", "card": "KH"})
    s, ev = act(s, "p0", {"type": "place", "card": "AS"})
    assert ENG.result(s).ranking == [["p0"], ["p1"], ["p2"]]
    assert ENG.result(s).scores == {"p0": 40, "p1": -15, "p2": -20}
    assert event(ev, "match_over").data["ranking"] == [["p0"], ["p1"], ["p2"]]
    assert ENG.legal_actions(s, "p0") == []


@pytest.mark.parametrize("n", range(2, 7))
def test_payments_are_zero_sum(n):
    s = ENG.new_game(players(n), seed=n, options={"start_player": 0})
    s, ev = burst_now(s, "p0")
    pay = event(ev, "deal_ended").data["payments"]
    assert pay["p0"] == -10 * (n - 1) and all(pay[p] == 10 for p in players(n)[1:]) and sum(pay.values()) == 0


# Changes never end a deal (the old "three idle cycles" ending is gone) and the turn limit is
# the rare, announced safeguard: see test_twinpyramid_endings.py.


# ---- views and hidden information ------------------------------------------------------------


def test_views_show_the_board_and_hide_held_cards():
    s = make(n=3, hands={"p0": {"held": ["4D", "KC"], "shown": ["9S"], "stones": ["7C"]},
                         "p1": {"held": ["QH"], "shown": ["2D"]}}, top="5H")
    v0, v1, spectator = (ENG.view(s, viewer).model_dump() for viewer in ("p0", "p1", None))
    json.dumps(spectator)
    assert v0["hand"] == ["4D", "KC"] and v1["hand"] == ["QH"] and "hand" not in spectator
    for view in (v1, spectator):
        assert "4D" not in json.dumps(view) and "KC" not in json.dumps(view)
    seat0 = spectator["table"][0]
    assert seat0["held_count"] == 2 and seat0["shown"] == ["9S"] and seat0["hand_count"] == 3
    assert seat0["stones"]["7"] == "7C" and seat0["stones"]["A"] is None and seat0["stone_count"] == 1
    assert spectator["top"] == "5H" and spectator["phase"] == "turn" and spectator["current"] == "p0"
    assert spectator["geometry"]["rows"] == [["7", "8", "9", "10"], ["4", "5", "6"], ["2", "3"], ["A"]]
    assert spectator["geometry"]["supports"]["A"] == ["2", "3"]
    assert spectator["draw_count"] == len(s.draw) and "draw" not in spectator
    assert v0["rearranges_left"] > 0 and "rearranges_left" not in v1


def test_view_names_who_decides_a_pending_forced_draw():
    s = make(n=3, hands={"p0": {"held": ["2H"]}}, top="5H")
    s, _ = act(s, "p0", {"type": "play", "card": "2H"})
    s, _ = act(s, "p0", {"type": "pass_two"})
    v = ENG.view(s, None).model_dump()
    assert v["to_act"] == ["p1"] and v["phase"] == "forced_draw" and v["current"] == "p0"
    assert v["pending"] == {"kind": "forced_draw", "player": "p1", "count": 2, "cause": "2"}


def test_revealed_hand_is_public_until_the_next_deal():
    s = ENG.new_game(players(2), seed=4, options={"rounds": 2})
    s, _ = burst_now(s, "p0")
    assert ENG.view(s, "p0").model_dump()["hand"] == []  # no longer secret
    assert sorted(ENG.view(s, "p1").model_dump()["table"][0]["revealed"]) == sorted(s.seats["p0"].held)
    assert ENG.view(s, None).model_dump()["last_deal"]["revealed"]
    s, _ = act(s, "p1", {"type": "next_deal"})
    assert "revealed" not in ENG.view(s, None).model_dump()["last_deal"] and ENG.view(s, "p0").hand


def test_not_your_turn_and_illegal_actions_leave_state_unchanged():
    s = ENG.new_game(players(3), seed=9)
    before = ENG.dump(s)
    first = s.player_at(s.first_start)
    with pytest.raises(NotYourTurn):
        ENG.apply(s, s.player_at(s.first_start + 1), {"type": "draw"})
    with pytest.raises(IllegalAction):
        ENG.apply(s, first, {"type": "next_deal"})
    assert ENG.dump(s) == before


# ---- conformance on this engine instance -----------------------------------------------------------
# A checked random game at every player count with the defaults (one round, two jokers) is
# tests/engines/test_conformance.py's, with the same seeds; here each joker count and a longer match.

OPTION_CASES = [(jokers, rounds) for jokers in (0, 1, 2) for rounds in (1, 2)]
QUICK_OPTION_CASES = [(0, 2), (1, 1), (2, 2)]  # every value of each option; the other pairs at CI's counts


@pytest.mark.parametrize(("jokers", "rounds"), OPTION_CASES if LEVEL >= Level.FULL else QUICK_OPTION_CASES)
def test_random_playthroughs_with_each_option(jokers, rounds):
    random_playthrough(ENG, 50 + jokers + 3 * rounds, 3, {"jokers": jokers, "rounds": rounds})


@pytest.mark.parametrize("n", [2, 4, 6])
def test_replay_is_deterministic(n):
    check_replay(ENG, 7 + n, n, {"rounds": 1})
