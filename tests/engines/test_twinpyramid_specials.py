"""Twin Pyramid special cards: 2, 3, 7, 8, 9, 10 and the joker's three modes
(docs/rules/twinpyramid.md, "Special cards")."""
from __future__ import annotations

import pytest

from engines import IllegalAction, NotYourTurn

from .test_twinpyramid_support import ENG, act, assert_conserved, event, legal, make, plays, types

# ---- 2: draw two ----------------------------------------------------------------------------


def test_two_drawn_by_its_player():
    s = make(hands={"p0": {"held": ["2H", "4D"]}}, top="5H", draw=["9C", "JD"])
    s, _ = act(s, "p0", {"type": "play", "card": "2H"})
    assert s.pending.kind == "two_choice" and ENG.to_act(s) == ["p0"]
    assert legal(s, "p0") == [{"type": "take_two"}, {"type": "pass_two"}]
    s, _ = act(s, "p0", {"type": "take_two"})
    assert s.seats["p0"].held == ["4D", "9C", "JD"] and s.current == 1 and s.pending is None


def test_two_passed_on_next_player_may_rearrange_then_draws_and_the_turn_passes_as_usual():
    s = make(hands={"p0": {"held": ["2H"]}, "p1": {"held": ["4S", "6S", "8S", "QS"]}}, top="5H", draw=["9C", "JD"])
    s, _ = act(s, "p0", {"type": "play", "card": "2H"})
    s, ev = act(s, "p0", {"type": "pass_two"})
    assert event(ev, "two_passed").data == {"player": "p0", "to": "p1"}
    assert ENG.to_act(s) == ["p1"] and s.pending.kind == "forced_draw" and s.pending.count == 2
    assert legal(s, "p1") == [{"type": "forced_draw"}, {"type": "rearrange"}]
    with pytest.raises(NotYourTurn):
        act(s, "p2", {"type": "forced_draw"})
    s, _ = act(s, "p1", {"type": "rearrange"})
    s, _ = act(s, "p1", {"type": "to_shown", "card": "QS"})
    s, _ = act(s, "p1", {"type": "forced_draw"})
    assert s.seats["p1"].held == ["4S", "6S", "8S", "9C"] and s.seats["p1"].shown == ["QS", "JD"]
    assert s.pending is None and s.current == 1 and ENG.to_act(s) == ["p1"]
    assert s.rearranged == 0  # p1's own turn may rearrange afresh


def test_forced_draw_may_burst_the_drawer():
    eight = ["4S", "6S", "8S", "QS", "3D", "4D", "6D", "8D"]
    s = make(n=2, hands={"p0": {"held": ["2H"]}, "p1": {"held": eight[:4], "shown": eight[4:]}}, top="5H")
    s, _ = act(s, "p0", {"type": "play", "card": "2H"})
    s, _ = act(s, "p0", {"type": "pass_two"})
    s, ev = act(s, "p1", {"type": "forced_draw"})
    ended = event(ev, "deal_ended").data
    assert ended["reason"] == "burst" and ended["player"] == "p1" and ended["payments"] == {"p0": 10, "p1": -10}


def test_forced_draw_skipped_when_no_card_can_be_had():
    s = make(hands={"p0": {"held": ["2H", "4D"]}}, top="5H", fill_draw=False)
    s, _ = act(s, "p0", {"type": "play", "card": "2H"})
    s, _ = act(s, "p0", {"type": "pass_two"})
    s, ev = act(s, "p1", {"type": "forced_draw"})  # only 5H (under the 2) can be had
    assert types(ev)[:3] == ["reshuffled", "drew", "drew_card"] and "forced_draw_skipped" in types(ev)
    assert s.seats["p1"].held == ["5H"] and s.discard == ["2H"] and s.pending is None and s.current == 1


# ---- 3: draw three --------------------------------------------------------------------------


def test_three_reorder_then_everyone_draws_in_turn_order_the_player_last():
    s = make(n=3, hands={"p0": {"held": ["3H", "4D"]}}, top="5H", draw=["9C", "JD", "KS"])
    s, ev = act(s, "p0", {"type": "play", "card": "3H"})
    seen = event(ev, "three_seen")
    assert seen.visible_to == ["p0"] and seen.data["cards"] == ["9C", "JD", "KS"]
    assert ENG.view(s, "p0").model_dump()["peek"] == ["9C", "JD", "KS"]
    assert "peek" not in ENG.view(s, "p1").model_dump() and "9C" not in str(ENG.view(s, None).model_dump())
    orders = [a["order"] for a in legal(s, "p0")]
    assert len(orders) == 6 and ["KS", "9C", "JD"] in orders
    with pytest.raises(IllegalAction):
        act(s, "p0", {"type": "order_three", "order": ["KS", "9C", "QH"]})
    s, _ = act(s, "p0", {"type": "order_three", "order": ["KS", "9C", "JD"]})
    assert ENG.to_act(s) == ["p1"] and s.pending.kind == "forced_draw"
    s, _ = act(s, "p1", {"type": "forced_draw"})
    assert ENG.to_act(s) == ["p2"] and ENG.view(s, "p0").model_dump()["peek"] == ["9C", "JD"]
    s, _ = act(s, "p2", {"type": "forced_draw"})
    assert s.seats["p1"].held == ["KS"] and s.seats["p2"].held == ["9C"]
    assert s.seats["p0"].held == ["4D", "JD"]  # the player draws last, automatically
    assert s.current == 1 and s.pending is None and "peek" not in ENG.view(s, "p0").model_dump()
    assert_conserved(s)


def test_three_follows_the_current_direction():
    s = make(n=3, hands={"p0": {"held": ["3H"]}}, top="5H", draw=["9C", "JD", "KS"], direction=-1)
    s, _ = act(s, "p0", {"type": "play", "card": "3H"})
    s, _ = act(s, "p0", {"type": "order_three", "order": ["9C", "JD", "KS"]})
    assert ENG.to_act(s) == ["p2"]
    s, _ = act(s, "p2", {"type": "forced_draw"})
    s, _ = act(s, "p1", {"type": "forced_draw"})
    assert s.seats["p2"].held == ["9C"] and s.seats["p1"].held == ["JD"] and s.current == 2


# ---- 7, 9, 10 -----------------------------------------------------------------------------


def test_seven_skips_the_next_player():
    s = make(n=3, hands={"p0": {"held": ["7H", "4D"]}}, top="5H")
    s, ev = act(s, "p0", {"type": "play", "card": "7H"})
    assert s.current == 2 and event(ev, "skipped").data == {"player": "p1"}
    s2 = make(n=2, hands={"p0": {"held": ["7H", "4D"]}}, top="5H")
    s2, _ = act(s2, "p0", {"type": "play", "card": "7H"})
    assert s2.current == 0


def test_nine_reverses_and_with_two_players_changes_nothing_else():
    s = make(n=4, hands={"p0": {"held": ["9H", "4D"]}}, top="5H")
    s, _ = act(s, "p0", {"type": "play", "card": "9H"})
    assert s.direction == -1 and s.current == 3
    s2 = make(n=2, hands={"p0": {"held": ["9H", "4D"]}}, top="5H")
    s2, _ = act(s2, "p0", {"type": "play", "card": "9H"})
    assert s2.current == 1


def test_ten_breaks_the_next_players_lowest_stone_onto_the_discard():
    s = make(n=3, hands={"p0": {"held": ["10H"]}, "p1": {"held": ["4D"], "stones": ["7C", "8D", "9S", "4S", "5H"]}},
             top="6H")
    s, ev = act(s, "p0", {"type": "play", "card": "10H"})
    assert event(ev, "stone_broken").data == {"player": "p1", "card": "4S", "slot": "4"}
    assert "4" not in s.seats["p1"].stones and s.top() == "4S" and s.discard[-2] == "10H"
    assert plays(s, "p1") == {"4D"}  # the broken stone is p1's top card
    assert_conserved(s)


def test_ten_counts_the_a_as_one_and_misses_a_player_without_stones():
    s = make(n=2, hands={"p0": {"held": ["10H"]}, "p1": {"stones": ["7C", "8C", "9C", "10C", "4C", "5C", "6C",
                                                                      "2C", "3C", "AC"]}}, top="6H")
    s, _ = act(s, "p0", {"type": "play", "card": "10H"})
    assert s.top() == "AC" and "A" not in s.seats["p1"].stones
    s2 = make(n=2, hands={"p0": {"held": ["10H"]}}, top="6H")
    s2, ev = act(s2, "p0", {"type": "play", "card": "10H"})
    assert "break_missed" in types(ev) and s2.top() == "10H"


def test_ten_after_reverse_hits_the_player_in_the_new_direction():
    s = make(n=3, hands={"p0": {"held": ["10H"]}, "p1": {"stones": ["7C"]}, "p2": {"stones": ["8C"]}},
             top="6H", direction=-1)
    s, _ = act(s, "p0", {"type": "play", "card": "10H"})
    assert s.top() == "8C" and s.seats["p1"].stones == {"7": "7C"}


# ---- 8: wild ------------------------------------------------------------------------------


def wild_table():
    hands = {
        "p0": {"held": ["8H", "7D", "QC"]},
        "p1": {"held": ["8D", "5C", "9S", "KS"], "shown": ["X1", "AS", "7S", "10S", "2S", "3S"]},
        "p2": {"held": ["4D"], "shown": ["6S", "AD"]},
    }
    s = make(n=3, hands=hands, top="5H", options={"jokers": 1})  # p1 could match 5C by rank without the 8
    s, _ = act(s, "p0", {"type": "play", "card": "8H"})
    assert legal(s, "p0") == [{"type": "name_suit", "suit": x} for x in "SHDC"]
    s, ev = act(s, "p0", {"type": "name_suit", "suit": "S"})
    assert event(ev, "suit_named").data == {"player": "p0", "suit": "S"}
    return s


def test_eight_others_may_play_only_the_named_suit_and_no_joker_or_change():
    s = wild_table()
    assert s.current == 1 and s.wild.suit == "S"
    assert plays(s, "p1") == {"9S", "KS", "AS", "7S", "10S", "2S", "3S"}  # not 8D (rank), not 5H, not X1
    assert not [a for a in legal(s, "p1") if a["type"] == "change"]  # AS could otherwise take 6S
    assert ENG.view(s, None).model_dump()["wild"] == {"owner": "p0", "suit": "S"}


def test_eight_suppresses_other_players_effects_but_not_building():
    s = wild_table()
    s2, ev = act(s, "p1", {"type": "play", "card": "7S"})
    assert "effect_suppressed" in types(ev) and s2.current == 2  # no skip
    s3, _ = act(s, "p1", {"type": "play", "card": "2S"})
    assert s3.pending is None and s3.current == 2  # no draw-two choice
    s4, _ = act(s, "p1", {"type": "play", "card": "3S"})
    assert s4.pending is None and s4.current == 2
    s5, _ = act(s, "p1", {"type": "play", "card": "10S"})
    assert s5.top() == "10S"
    s6, _ = act(s, "p1", {"type": "play", "card": "KS"})
    assert s6.pending.kind == "build"


def test_eight_owner_plays_normally_next_turn_then_the_wild_ends():
    s = wild_table()
    s, _ = act(s, "p1", {"type": "play", "card": "7S"})
    s, _ = act(s, "p2", {"type": "play", "card": "6S"})
    assert s.current == 0 and plays(s, "p0") == set()
    s.top_suit = None
    s.discard[-1], s.seats["p0"].held = "7S", ["7D", "QC"]
    assert plays(s, "p0") == {"7D"}  # the owner matches by rank again
    s, ev = act(s, "p0", {"type": "play", "card": "7D"})
    assert s.wild is None and "wild_ended" in types(ev)
    assert s.current == 2  # the owner's own 7 skips p1 (effects are the owner's)


def test_eight_owner_may_play_the_named_suit_or_the_eights_own_on_it():
    s = make(n=2, hands={"p0": {"held": ["4S", "4H", "4D"]}}, top="8H", top_suit="S", wild=("p0", "S", False))
    assert plays(s, "p0") == {"4S", "4H"}


def test_special_cards_of_others_work_again_after_the_wild_ends():
    s = make(n=3, hands={"p0": {"held": ["4S", "KD"]}, "p1": {"held": ["7S", "4D"]}},
             top="5S", wild=("p0", "S", False), current=0)
    s, _ = act(s, "p0", {"type": "play", "card": "4S"})
    assert s.wild is None and s.current == 1
    s, ev = act(s, "p1", {"type": "play", "card": "7S"})
    assert "skipped" in types(ev) and s.current == 0


# ---- the joker's three modes ----------------------------------------------------------------


def test_joker_change_takes_any_card_from_another_players_shown():
    s = make(n=3, hands={"p0": {"held": ["X1", "4D"]}, "p1": {"shown": ["KD", "X2"]}}, top="5H")
    changes = [a for a in legal(s, "p0") if a["type"] == "change"]
    assert {"type": "change", "card": "X1", "target": "KD", "owner": "p1"} in changes
    assert {"type": "change", "card": "X1", "target": "X2", "owner": "p1"} in changes  # any card, a joker too
    s, ev = act(s, "p0", {"type": "change", "card": "X1", "target": "KD", "owner": "p1"})
    assert event(ev, "changed").data["mode"] == "change"
    assert s.seats["p1"].shown == ["X1", "X2"] and s.seats["p0"].held == ["4D", "KD"] and s.pending is None
    assert s.current == 1


def test_joker_wild_is_played_on_anything_and_names_a_suit():
    s = make(n=3, hands={"p0": {"held": ["X1", "4D"]}, "p1": {"held": ["9C", "6C", "6H"]}}, top="5H")
    assert "X1" in plays(s, "p0")
    s, _ = act(s, "p0", {"type": "play", "card": "X1"})
    s, _ = act(s, "p0", {"type": "name_suit", "suit": "C"})
    assert s.top() == "X1" and s.top_suit == "C" and plays(s, "p1") == {"9C", "6C"}


def test_joker_wild_change_swaps_with_the_top_card_then_names_a_suit():
    s = make(n=3, hands={"p0": {"held": ["X1", "4D"]}}, top="5H")
    s, ev = act(s, "p0", {"type": "change", "card": "X1", "target": "5H", "owner": None})
    assert event(ev, "changed").data["mode"] == "wild_change"
    assert s.top() == "X1" and "5H" in s.seats["p0"].held and s.pending.kind == "name_suit"
    s, _ = act(s, "p0", {"type": "name_suit", "suit": "D"})
    assert s.wild.suit == "D" and s.current == 1


def test_joker_on_top_after_the_wild_keeps_its_named_suit():
    s = make(n=2, hands={"p1": {"held": ["9C", "5D"]}}, top="X1", under=["5H"], top_suit="C", current=1)
    assert plays(s, "p1") == {"9C"}


def test_three_on_an_empty_draw_pile_reshuffles_first():
    s = make(n=2, hands={"p0": {"held": ["3H", "4D"]}}, top="5H", under=["9C", "JD"], fill_draw=False)
    s, ev = act(s, "p0", {"type": "play", "card": "3H"})
    assert "reshuffled" in types(ev) and s.discard == ["3H"]
    assert sorted(event(ev, "three_seen").data["cards"]) == ["5H", "9C", "JD"]
    order = s.peek[::-1]
    s, _ = act(s, "p0", {"type": "order_three", "order": order})
    s, _ = act(s, "p1", {"type": "forced_draw"})
    assert s.seats["p1"].held == [order[0]] and s.seats["p0"].held == ["4D", order[1]]
    assert s.draw == [order[2]] and s.current == 1
