"""Twin Pyramid rule scenarios: rearranging, playing, drawing, building and changes
(docs/rules/twinpyramid.md, "A turn", "Building", "A — Change")."""
from __future__ import annotations

import pytest

from engines import IllegalAction
from engines.twinpyramid.cards import HELD_LIMIT
from engines.twinpyramid.state import ARRANGEMENT_STEPS, REARRANGE_LIMIT

from .test_twinpyramid_support import (
    ENG,
    act,
    assert_conserved,
    event,
    legal,
    make,
    plays,
    types,
)

# ---- play by suit or rank, the 2 exception ------------------------------------------------


def test_play_matches_suit_or_rank_and_a_two_only_by_suit():
    s = make(hands={"p0": {"held": ["9H", "5S", "2S", "KD"], "shown": ["2H", "QC"]}}, top="5H")
    assert plays(s, "p0") == {"9H", "5S", "2H"}  # suit, rank, suit
    s2 = make(hands={"p0": {"held": ["2S", "2H", "7D"]}}, top="2C", under=["4C"])
    assert plays(s2, "p0") == set()  # a 2 may not follow a 2 by rank
    s3 = make(hands={"p0": {"held": ["7S", "7H"]}}, top="7C", under=["4C"])
    assert plays(s3, "p0") == {"7S", "7H"}  # other ranks may
    s4 = make(hands={"p0": {"held": ["2C", "5C"]}}, top="KC")
    assert plays(s4, "p0") == {"2C", "5C"}  # by suit a 2 is fine


def test_any_hand_card_held_or_shown_may_be_played():
    s = make(hands={"p0": {"held": ["4D"], "shown": ["6H"]}}, top="5H")
    s, ev = act(s, "p0", {"type": "play", "card": "6H"})
    assert s.top() == "6H" and s.seats["p0"].shown == []
    assert event(ev, "played").data == {"player": "p0", "card": "6H", "from": "shown"}
    assert s.current == 1
    assert_conserved(s)


def test_unplayable_card_refused_and_state_unchanged():
    s = make(hands={"p0": {"held": ["4D", "9S"]}}, top="5H")
    before = ENG.dump(s)
    with pytest.raises(IllegalAction) as err:
        act(s, "p0", {"type": "play", "card": "9S"})
    assert err.value.code == "twinpyramid.card_not_playable"
    with pytest.raises(IllegalAction):
        act(s, "p0", {"type": "play", "card": "QS"})  # not in hand
    assert ENG.dump(s) == before


# ---- rearranging --------------------------------------------------------------------------


def test_rearrange_steps_swap_move_and_same_rank_stone_swap():
    s = make(hands={"p0": {"held": ["4D", "9S"], "shown": ["KH"], "stones": ["7C", "8D"]}}, top="5H")
    s.seats["p0"].held.append("7H")
    s.draw.remove("7H")
    assert {"type": "rearrange"} in legal(s, "p0")
    s, _ = act(s, "p0", {"type": "rearrange"})
    steps = legal(s, "p0")
    assert {"type": "swap_shown", "held": "4D", "shown": "KH"} in steps
    assert {"type": "to_shown", "card": "9S"} in steps
    assert {"type": "swap_stone", "card": "7H", "stone": "7C"} in steps
    assert not any(a["type"] == "swap_stone" and a["stone"] == "8D" for a in steps)  # no 8 in hand
    assert all(a["type"] in ("swap_shown", "to_shown", "to_held", "swap_stone") for a in steps)
    s, ev = act(s, "p0", {"type": "swap_shown", "held": "4D", "shown": "KH"})
    assert s.seats["p0"].held == ["KH", "9S", "7H"] and s.seats["p0"].shown == ["4D"]
    public = event(ev, "rearranged")
    assert public.visible_to is None and "KH" not in str(public.data)  # KH is secret again
    s, _ = act(s, "p0", {"type": "rearrange"})
    s, _ = act(s, "p0", {"type": "to_shown", "card": "9S"})
    assert s.seats["p0"].held == ["KH", "7H"] and s.seats["p0"].shown == ["4D", "9S"]
    s, _ = act(s, "p0", {"type": "rearrange"})
    s, ev = act(s, "p0", {"type": "swap_stone", "card": "7H", "stone": "7C"})
    assert s.seats["p0"].stones["7"] == "7H"
    assert "7C" in s.seats["p0"].shown  # a card taken from a public place stays in view
    assert s.current == 0 and s.rearranged == 3  # rearranging does not end the turn
    assert_conserved(s)


def test_stone_swap_needs_same_rank():
    s = make(hands={"p0": {"held": ["8H"], "stones": ["7C"]}}, top="5H")
    s, _ = act(s, "p0", {"type": "rearrange"})
    assert legal(s, "p0") == [{"type": "to_shown", "card": "8H"}]
    with pytest.raises(IllegalAction):
        act(s, "p0", {"type": "swap_stone", "card": "8H", "stone": "7C"})


def test_shown_card_cannot_simply_move_back_to_held():
    s = make(hands={"p0": {"held": ["4D"], "shown": ["KH"]}}, top="5H")
    s, _ = act(s, "p0", {"type": "rearrange"})
    assert {"type": "to_shown", "card": "4D"} in legal(s, "p0")
    assert not any(a.get("card") == "KH" and a["type"] == "to_shown" for a in legal(s, "p0"))


def test_rearranging_only_before_the_action():
    s = make(hands={"p0": {"held": ["KH", "7C", "8C"], "shown": ["9D"]}}, top="5H")
    s, _ = act(s, "p0", {"type": "play", "card": "KH"})
    assert s.pending.kind == "build"
    options = {a["type"] for a in legal(s, "p0")}
    assert options == {"place", "end_build"}
    with pytest.raises(IllegalAction):
        act(s, "p0", {"type": "rearrange"})


def test_rearrange_limit_per_decision():
    s = make(hands={"p0": {"held": ["4D", "9S"], "shown": ["KH"]}}, top="5H")
    for _ in range(REARRANGE_LIMIT):
        s, _ = act(s, "p0", {"type": "rearrange"})
        s, _ = act(s, "p0", {"type": "swap_shown", "held": s.seats["p0"].held[0], "shown": s.seats["p0"].shown[0]})
    assert {"type": "rearrange"} not in legal(s, "p0")
    with pytest.raises(IllegalAction) as err:
        act(s, "p0", {"type": "rearrange"})
    assert err.value.code == "twinpyramid.rearrange_not_allowed"
    s, _ = act(s, "p0", {"type": "draw"})
    assert s.current == 1 and s.rearranged == 0  # the next decision starts afresh


# ---- drawing ------------------------------------------------------------------------------


def test_draw_goes_to_held_until_four_then_to_shown():
    s = make(hands={"p0": {"held": ["4D", "9S", "KC"]}}, draw=["3C", "QD"], top="5H")
    s, ev = act(s, "p0", {"type": "draw"})
    assert s.seats["p0"].held[-1] == "3C"
    assert event(ev, "drew").data == {"player": "p0", "zone": "held"}  # public event hides the card
    assert event(ev, "drew_card").visible_to == ["p0"]
    s.current = 0
    s, ev = act(s, "p0", {"type": "draw"})
    assert s.seats["p0"].shown == ["QD"] and len(s.seats["p0"].held) == 4
    assert event(ev, "drew").data["card"] == "QD"  # a shown card is public


def test_making_room_before_drawing_keeps_the_new_card_secret():
    s = make(hands={"p0": {"held": ["4D", "9S", "KC", "3S"]}}, draw=["QD"], top="5H")
    s, _ = act(s, "p0", {"type": "rearrange"})
    s, _ = act(s, "p0", {"type": "to_shown", "card": "9S"})
    s, _ = act(s, "p0", {"type": "draw"})
    assert "QD" in s.seats["p0"].held and s.seats["p0"].shown == ["9S"]


def test_tenth_card_draw_banned_while_a_play_or_change_exists():
    nine = ["4D", "9S", "KC", "3S", "JS", "QS", "10C", "8C", "7S"]
    s = make(hands={"p0": {"held": nine[:4], "shown": nine[4:]}}, top="5D")
    assert "draw" not in {a["type"] for a in legal(s, "p0")}  # 4D is playable
    with pytest.raises(IllegalAction) as err:
        act(s, "p0", {"type": "draw"})
    assert err.value.code == "twinpyramid.draw_not_allowed"
    # a change alone also bars the draw
    s3 = make(hands={"p0": {"held": ["AH", "9S", "KC", "3S"], "shown": ["JS", "QS", "10C", "8C", "7S"]},
                     "p1": {"shown": ["6H"]}}, top="5C")
    types3 = {a["type"] for a in legal(s3, "p0")}
    assert "change" in types3 and "draw" not in types3


def test_tenth_card_may_be_drawn_when_nothing_else_is_possible_and_bursts():
    nine_held = ["4D", "9S", "KC", "3S"]
    nine_shown = ["JS", "QS", "10C", "8C", "7S"]
    s = make(n=3, hands={"p0": {"held": nine_held, "shown": nine_shown}}, top="6H", draw=["2H"],
             options={"rounds": 2})  # a match of more than one deal: the next one waits
    assert legal(s, "p0") == [{"type": "draw"}, {"type": "rearrange"}]
    s, ev = act(s, "p0", {"type": "draw"})
    ended = event(ev, "deal_ended").data
    assert ended["reason"] == "burst" and ended["player"] == "p0"
    assert ended["payments"] == {"p0": -20, "p1": 10, "p2": 10}
    assert sorted(ended["revealed"]) == sorted(nine_held + nine_shown + ["2H"])
    assert sum(ended["payments"].values()) == 0
    assert s.seats["p0"].revealed and s.pending.kind == "deal_over"


def test_reshuffle_keeps_top_card_and_empty_piles_mean_no_draw():
    s = make(hands={"p0": {"held": ["4D"]}}, top="6H", under=["9C", "JD"], fill_draw=False)
    s.options["jokers"] = 2
    s, ev = act(s, "p0", {"type": "draw"})
    assert "reshuffled" in types(ev)
    assert s.discard == ["6H"] and len(s.draw) == 1 and s.seats["p0"].held[1] in ("9C", "JD")
    s2 = make(hands={"p0": {"held": ["4D"]}}, top="6H", fill_draw=False)
    assert legal(s2, "p0") == [{"type": "pass"}, {"type": "rearrange"}]


def test_pass_only_when_nothing_is_possible_and_a_full_cycle_of_passes_ends_unpaid():
    hands = {p: {"held": [c]} for p, c in zip(("p0", "p1", "p2"), ("4D", "9S", "KC"), strict=True)}
    s = make(n=3, hands=hands, top="6H", fill_draw=False)
    s.seats["p0"].points = 7
    s, _ = act(s, "p0", {"type": "pass"})
    s, _ = act(s, "p1", {"type": "pass"})
    s, ev = act(s, "p2", {"type": "pass"})
    ended = event(ev, "deal_ended").data
    assert ended["reason"] == "stalled" and ended["payments"] == {"p0": 0, "p1": 0, "p2": 0}
    assert s.seats["p0"].points == 7
    s2 = make(hands={"p0": {"held": ["4H"]}}, top="6H")
    with pytest.raises(IllegalAction):
        act(s2, "p0", {"type": "pass"})


# ---- building -----------------------------------------------------------------------------


def test_jack_builds_one_stone_in_row_one():
    s = make(hands={"p0": {"held": ["JH", "7C", "8D", "4S"]}}, top="5H")
    s, _ = act(s, "p0", {"type": "play", "card": "JH"})
    assert s.pending.kind == "build" and s.pending.count == 1
    assert {a.get("card") for a in legal(s, "p0") if a["type"] == "place"} == {"7C", "8D"}  # 4S lacks support
    s, ev = act(s, "p0", {"type": "place", "card": "7C"})
    assert s.seats["p0"].stones == {"7": "7C"} and s.pending is None and s.current == 1
    assert event(ev, "stone_placed").data["slot"] == "7"


def test_king_builds_three_and_a_placement_can_enable_the_next():
    s = make(hands={"p0": {"held": ["KH", "7C", "8D", "4S"], "shown": ["9C"]}}, top="5H")
    s, _ = act(s, "p0", {"type": "play", "card": "KH"})
    assert s.pending.count == 3
    s, _ = act(s, "p0", {"type": "place", "card": "7C"})
    assert {"type": "place", "card": "4S"} not in legal(s, "p0")
    s, _ = act(s, "p0", {"type": "place", "card": "8D"})
    assert {"type": "place", "card": "4S"} in legal(s, "p0")  # 4 now rests on 7 and 8
    s, _ = act(s, "p0", {"type": "place", "card": "4S"})
    assert set(s.seats["p0"].stones) == {"7", "8", "4"} and s.pending is None and s.current == 1
    assert s.seats["p0"].shown == ["9C"]  # only three stones with a K


def test_queen_places_up_to_two_and_may_stop_early():
    s = make(hands={"p0": {"held": ["QH", "7C", "8D"]}}, top="5H")
    s, _ = act(s, "p0", {"type": "play", "card": "QH"})
    s, _ = act(s, "p0", {"type": "place", "card": "7C"})
    s, _ = act(s, "p0", {"type": "end_build"})
    assert s.seats["p0"].stones == {"7": "7C"} and s.seats["p0"].held == ["8D"] and s.current == 1


def test_building_card_without_placeable_stone_just_ends_the_turn():
    s = make(hands={"p0": {"held": ["QH", "KD"]}}, top="5H")
    s, ev = act(s, "p0", {"type": "play", "card": "QH"})
    assert s.pending is None and s.current == 1 and "nothing_to_build" in types(ev)


def test_stone_goes_only_to_its_own_rank_slot():
    s = make(hands={"p0": {"held": ["JH", "7C"], "stones": ["7D"]}}, top="5H")
    s, ev = act(s, "p0", {"type": "play", "card": "JH"})
    assert s.pending is None and "nothing_to_build" in types(ev)  # 7's slot is taken


FULL_BUT_A = ["7C", "8C", "9C", "10C", "4C", "5C", "6C", "2C", "3C"]


def test_a_top_needs_a_hand_of_building_cards_only_then_reveals_and_wins():
    s = make(n=3, hands={"p0": {"held": ["KH", "AS", "QD"], "shown": ["5D"], "stones": FULL_BUT_A}}, top="6H")
    s, _ = act(s, "p0", {"type": "play", "card": "KH"})
    assert s.pending is None  # 5D (a stone) in hand: the A may not go up
    s = make(n=3, hands={"p0": {"held": ["KH", "AS", "QD"], "shown": ["JD"], "stones": FULL_BUT_A}}, top="6H")
    s, _ = act(s, "p0", {"type": "play", "card": "KH"})
    assert legal(s, "p0") == [{"type": "place", "card": "AS"}, {"type": "end_build"}]
    s, ev = act(s, "p0", {"type": "place", "card": "AS"})
    ended = event(ev, "deal_ended").data
    assert ended["reason"] == "complete" and ended["player"] == "p0"
    assert ended["payments"] == {"p0": 40, "p1": -20, "p2": -20}  # the seed's +40 / -20 at three players
    assert sorted(ended["revealed"]) == ["JD", "QD"]
    assert ENG.view(s, "p1").model_dump()["table"][0]["revealed"] == ["QD"]


def test_a_joker_in_hand_blocks_the_a():
    s = make(hands={"p0": {"held": ["KH", "AS", "X1"], "stones": FULL_BUT_A}}, top="6H")
    s, _ = act(s, "p0", {"type": "play", "card": "KH"})
    assert s.pending is None


def test_placed_stones_never_return_except_by_swap():
    s = make(hands={"p0": {"held": ["4D"], "stones": ["7C"]}}, top="5H")
    assert all(a.get("card") != "7C" for a in legal(s, "p0"))


# ---- A change -----------------------------------------------------------------------------


def test_a_change_with_top_card_of_its_suit_or_an_a():
    s = make(hands={"p0": {"held": ["AH", "9S"]}}, top="5H")
    assert {"type": "change", "card": "AH", "target": "5H", "owner": None} in legal(s, "p0")
    s2, ev = act(s, "p0", {"type": "change", "card": "AH", "target": "5H", "owner": None})
    assert s2.top() == "AH" and "5H" in s2.seats["p0"].held and "AH" not in s2.seats["p0"].hand  # held had room
    assert event(ev, "changed").data["mode"] == "a_change" and s2.current == 1
    s3 = make(hands={"p0": {"held": ["AS"]}}, top="AD", under=["4D"])
    assert {"type": "change", "card": "AS", "target": "AD", "owner": None} in legal(s3, "p0")
    s4 = make(hands={"p0": {"held": ["AS"]}}, top="5H")
    assert not [a for a in legal(s4, "p0") if a["type"] == "change"]


def test_a_change_with_another_players_shown_card():
    s = make(hands={"p0": {"held": ["AC"]}, "p1": {"held": ["KC"], "shown": ["9C", "4D", "AD"]}}, top="5H")
    changes = [a for a in legal(s, "p0") if a["type"] == "change"]
    assert {(a["target"], a["owner"]) for a in changes} == {("9C", "p1"), ("AD", "p1")}  # never held KC
    s, _ = act(s, "p0", {"type": "change", "card": "AC", "target": "9C", "owner": "p1"})
    assert s.seats["p1"].shown == ["AC", "4D", "AD"] and s.seats["p0"].held == ["9C"]  # into held: it had room
    assert s.top() == "5H"
    assert_conserved(s)


def test_a_may_also_be_played_plainly_without_effect():
    s = make(hands={"p0": {"held": ["AH"]}}, top="5H")
    s, _ = act(s, "p0", {"type": "play", "card": "AH"})
    assert s.top() == "AH" and s.current == 1 and s.pending is None


def test_the_own_shown_cards_are_no_change_target():
    s = make(hands={"p0": {"held": ["AC"], "shown": ["9C"]}}, top="5H")
    assert not [a for a in legal(s, "p0") if a["type"] == "change"]


def arrangement(seat) -> tuple:
    """What rearranging changes (the order of shown cards is no part of it: the rules never read it)."""
    return frozenset(seat.held), frozenset(seat.shown), tuple(sorted(seat.stones.items()))


def farthest_arrangement(s, player: str = "p0") -> int:
    """The most rearrangement steps any arrangement reachable from ``s`` needs (breadth first over the steps the
    engine offers, without its limit)."""
    from engines.twinpyramid import rules

    seen = {arrangement(s.seats[player]): 0}
    frontier = [s]
    depth = 0
    while frontier:
        depth += 1
        following = []
        for state in frontier:
            for step in rules.rearrange_actions(state, player, 0):
                nxt = state.model_copy(deep=True)
                rules.rearrange(nxt, player, step)
                key = arrangement(nxt.seats[player])
                if key not in seen:
                    seen[key] = depth
                    following.append(nxt)
        frontier = following
    return max(seen.values())


def most_steps_needed(matched: int) -> int:
    """The farthest arrangement of a seat with ``matched`` stones and a hand of ``matched`` cards of their ranks:
    a swap per stone (each old stone lands in shown), then as many of them into held as held takes (four)."""
    return matched + min(HELD_LIMIT, matched)


@pytest.mark.parametrize("matched", [2, 3, 4, 5])
def test_rearranging_allows_every_arrangement_a_position_can_reach(matched: int):
    """「(何枚でも可能です)」 (D3): the bound cuts no arrangement a player could want. Breadth first over the steps
    the engine offers (no limit), the farthest arrangement of a seat with ``matched`` stones and as many hand
    cards of their ranks (held full first) is ``most_steps_needed`` away; the hardest position the rules allow
    — nine stones (ten complete the pyramid) and nine hand cards of their ranks (ten burst) — so needs 13; the
    limit counts clicks (a step can undo the one before) and is three times that."""
    ranks = ["7", "8", "9", "10", "4", "5", "6", "2", "3"][:matched]
    hand = [r + "H" for r in ranks]
    s = make(n=2, hands={"p0": {"stones": [r + "S" for r in ranks], "held": hand[:HELD_LIMIT],
                                "shown": hand[HELD_LIMIT:]}}, top="KD", fill_draw=False)
    assert farthest_arrangement(s) == most_steps_needed(matched)
    assert ARRANGEMENT_STEPS == most_steps_needed(9) == 13
    assert REARRANGE_LIMIT == 3 * ARRANGEMENT_STEPS  # two whole arrangements tried and undone, then any third
