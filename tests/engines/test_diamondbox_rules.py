"""Diamond Box rule scenarios (docs/rules/diamondbox.md): every rule and Decision, on states built
directly. A fixed test card table is installed, so tuning the default patterns changes nothing
here; pattern ``10`` is blank, so its cards cover anything and only the colours matter."""
from __future__ import annotations

from typing import Any, Iterator

import pytest

from engines import IllegalAction, NotYourTurn
from engines.diamondbox import ChooseColour, DiamondBoxEngine, Pass, PlaceCard, cards
from engines.diamondbox.state import ColourChoice, DiamondBoxState, Placed
from engines.rng import Rng

ENG = DiamondBoxEngine()
TEST_PATTERNS = {
    "01": "w./../..", "02": "b./../..", "03": "../w./..", "04": "../b./..", "05": "../../.w",
    "06": "../../.b", "07": ".w/../..", "08": ".b/../..", "09": "wb/../bw", "10": "../../..",
}


@pytest.fixture(autouse=True)
def test_table() -> Iterator[None]:
    default = dict(cards.table().patterns)
    cards.install_patterns(TEST_PATTERNS)
    yield
    cards.install_patterns(default)


def make(order: list[str], hands: dict[str, list[str]], placed: list[tuple[str, int, int]], *,
         designated: str | None = "R", current: str | None = None, piles: dict[str, list[str]] | None = None,
         turns: str = "half", **fields: Any) -> DiamondBoxState:
    """A state with cards ``(card, x, y)`` at turn 0 on the centre, bottom first."""
    return DiamondBoxState(
        game="diamondbox", players=list(order), seed=0, options={"turns": turns}, rng=Rng.from_seed(0),
        order=list(order), hands=hands, piles=piles or {p: [] for p in order},
        placed=[Placed(card=c, turn=0, x=x, y=y) for c, x, y in placed],
        designated=designated, current=current if current is not None else order[0], **fields,
    )


def place(card: str, x: int, y: int, turn: int = 0) -> PlaceCard:
    return PlaceCard(card=card, turn=turn, x=x, y=y)


def types(events: list[Any]) -> list[str]:
    return [e.type for e in events]


# Red on rows 0-2 and 2 columns to the right; green below (rows 3-5).
TALL = [("R10", 0, 0), ("G10", 0, 3), ("R07", 2, 0)]


# ---- placing: the four conditions through the engine ------------------------------------
def refused(state: DiamondBoxState, player: str, action: Any, code: str) -> None:
    before = ENG.dump(state)
    with pytest.raises(IllegalAction) as err:
        ENG.apply(state, player, action)
    assert err.value.code == f"diamondbox.{code}"
    assert ENG.dump(state) == before
    assert action not in ENG.legal_actions(state, player)


def test_each_condition_refuses_with_its_code() -> None:
    # Start layout: R01 on row 0 (white diamond at (0,0)), the blank G10 on rows 1-3.
    state = make(["a", "b"], {"a": ["Y01", "G01", "Y10", "B05"], "b": ["P10"]}, [("R01", 0, 0), ("G10", 0, 1)],
                 designated="G")
    refused(state, "a", place("Y10", 0, 3), "too_little_overlap")       # covers 2 squares
    refused(state, "a", place("Y10", 1, 1), "too_little_overlap")       # covers 3 squares
    refused(state, "a", place("Y01", 0, 1), "diamonds_differ")          # white diamond on a blank square
    refused(state, "a", place("B05", 0, 1), "diamonds_differ")
    refused(state, "a", place("G01", 0, 0), "frame_colour_covered")     # diamonds fit, but green covers green
    assert place("Y10", 0, 1) in ENG.legal_actions(state, "a")
    state_r = make(["a", "b"], {"a": ["Y10"], "b": ["P10"]}, [("R01", 0, 0), ("G10", 0, 1)], designated="R")
    refused(state_r, "a", place("Y10", 0, 1), "designated_colour_not_covered")
    assert place("Y10", 0, 0) in ENG.legal_actions(state_r, "a")


def test_matching_diamond_and_off_centre_diamond_are_fine() -> None:
    state = make(["a", "b"], {"a": ["Y01", "Y05", "Y07"], "b": ["P10"]}, [("R01", 0, 0), ("G10", 0, 1)],
                 designated="R")
    legal = ENG.legal_actions(state, "a")
    assert place("Y01", 0, 0) in legal       # its white diamond on R01's white diamond
    assert place("Y07", 0, -1) in legal      # its diamond at (1,-1) is off the centre: free
    refused(state, "a", place("Y05", 0, -1), "diamonds_differ")  # its diamond on the blank (1,1)
    assert ENG.placements(state, "a")[0] == ("Y01", 0, 0, 0, 6)  # best first: most squares covered


def test_card_must_be_in_hand_and_turn_allowed() -> None:
    state = make(["a", "b"], {"a": ["Y10", "Y09"], "b": ["P10"]}, TALL)
    refused(state, "a", place("B10", 0, 1), "card_not_in_hand")
    refused(state, "a", place("Y10", 0, 1, turn=90), "turn_not_allowed")
    refused(state, "a", place("Y09", 0, 1, turn=180), "same_as_other_turn")  # wb/../bw is the same turned
    assert {a.turn for a in ENG.legal_actions(state, "a") if a.type == "place" and a.card == "Y09"} <= {0}


def test_all_turns_option_allows_quarter_turns() -> None:
    state = make(["a", "b"], {"a": ["Y10"], "b": ["P10"]}, TALL, turns="all")
    legal = ENG.legal_actions(state, "a")
    assert place("Y10", 0, 0, turn=90) in legal  # 3 wide, 2 high over the red rows 0-1
    state_half = make(["a", "b"], {"a": ["Y10"], "b": ["P10"]}, TALL)
    assert all(a.turn in (0, 180) for a in ENG.legal_actions(state_half, "a") if a.type == "place")


# ---- after placing: the draw, the next turn, bonus turns ------------------------------
def test_placing_draws_one_card_from_own_pile_privately() -> None:
    state = make(["a", "b"], {"a": ["Y10", "B07"], "b": ["P10"]}, TALL, piles={"a": ["Y01", "Y02"], "b": ["P01"]})
    after, events = ENG.apply(state, "a", place("Y10", 0, -1))  # rows 0-1 of the centre: 4 red squares
    assert after.hands["a"] == ["B07", "Y01"] and after.piles["a"] == ["Y02"]
    assert after.piles["b"] == ["P01"]  # only one's own pile
    drawn = [e for e in events if e.type == "drew_card"]
    assert len(drawn) == 1 and drawn[0].visible_to == ["a"] and drawn[0].data["card"] == "Y01"
    public = [e for e in events if e.visible_to is None]
    assert "Y01" not in str([e.data for e in public])
    assert next(e for e in public if e.type == "card_drawn").data == {"player": "a", "hand_size": 2, "pile_size": 1}


def test_no_draw_when_own_pile_is_empty() -> None:
    state = make(["a", "b"], {"a": ["Y10", "B07"], "b": ["P10"]}, TALL, piles={"a": [], "b": ["P01"]})
    after, events = ENG.apply(state, "a", place("Y10", 0, -1))
    assert after.hands["a"] == ["B07"] and after.piles["b"] == ["P01"]
    assert "drew_card" not in types(events) and "card_drawn" not in types(events)


def test_four_or_five_squares_pass_the_turn_on() -> None:
    state = make(["a", "b", "c"], {"a": ["Y10", "B07"], "b": ["P10", "P01"], "c": ["B10"]}, TALL)
    four, events = ENG.apply(state, "a", place("Y10", 0, -1))   # its top row hangs above the centre
    assert events[0].type == "card_placed" and events[0].data["covered"] == 4 and not events[0].data["bonus_turn"]
    assert ENG.to_act(four) == ["b"] and not four.bonus
    assert four.placed[-1].player == "a" and four.placed[-1].covered == 4
    five, events = ENG.apply(four, "b", place("P10", 1, -1))    # all but (2,-1), which is off the centre
    assert events[0].data["covered"] == 5
    assert ENG.to_act(five) == ["c"] and "bonus_turn" not in types(events)


def test_six_squares_give_a_bonus_turn_repeatedly() -> None:
    state = make(["a", "b"], {"a": ["Y10", "P10", "B05"], "b": ["B10"]}, TALL)
    one, events = ENG.apply(state, "a", place("Y10", 0, 1))  # rows 1-3: 4 red + 2 green = 6
    assert events[0].data["covered"] == 6 and events[0].data["bonus_turn"]
    assert "bonus_turn" in types(events)
    assert ENG.to_act(one) == ["a"] and one.bonus and one.designated == "R"
    two, events = ENG.apply(one, "a", place("P10", 2, 0))     # all of R07: 6 again, red still at (0,0)
    assert ENG.to_act(two) == ["a"] and two.bonus and "bonus_turn" in types(events)
    three, _ = ENG.apply(two, "a", Pass())                   # a pass ends the bonus run
    assert ENG.to_act(three) == ["b"] and not three.bonus


# ---- changing the designated colour -------------------------------------------------
START = [("R10", 0, 0), ("G10", 0, 1)]  # red shows on row 0 only, green on rows 1-3


def test_colour_gone_after_four_or_five_squares_placer_chooses_then_next_player() -> None:
    state = make(["a", "b", "c"], {"a": ["Y10", "B01"], "b": ["P10"], "c": ["B10"]}, START)
    after, events = ENG.apply(state, "a", place("Y10", 0, -1))  # covers red row 0 and green row 1
    assert "R" not in ENG.view(after, None).visible_colours
    due = next(e for e in events if e.type == "colour_choice_due")
    assert due.visible_to is None
    assert due.data == {"chooser": "a", "reason": "colour_gone", "then": "b", "bonus": False,
                        "choices": ["Y", "G"], "previous": "R"}
    assert ENG.to_act(after) == ["a"]
    assert ENG.legal_actions(after, "a") == [ChooseColour(colour="Y"), ChooseColour(colour="G")]
    refused(after, "a", ChooseColour(colour="R"), "colour_not_allowed")  # gone (and the current one)
    refused(after, "a", ChooseColour(colour="B"), "colour_not_allowed")  # not visible
    refused(after, "a", place("B01", 0, 0), "colour_choice_pending")
    chosen, events = ENG.apply(after, "a", ChooseColour(colour="G"))
    assert chosen.designated == "G" and ENG.to_act(chosen) == ["b"] and not chosen.bonus
    assert events[0].data == {"player": "a", "colour": "G", "previous": "R", "reason": "colour_gone",
                              "next": "b", "bonus": False}


def test_colour_gone_after_six_squares_previous_player_chooses_then_bonus_turn() -> None:
    state = make(["a", "b", "c"], {"a": ["Y10", "B01"], "b": ["P10", "P01"], "c": ["B10"]},
                 [("R10", 0, 0), ("G10", 0, 3)], current="b")
    after, events = ENG.apply(state, "b", place("P10", 0, 0))  # all 6 red squares
    assert "bonus_turn" not in types(events)  # announced with the colour choice instead
    assert ENG.to_act(after) == ["a"]  # the player before b
    view = ENG.view(after, "c").model_dump()
    assert view["colour_choice"] == {"chooser": "a", "reason": "colour_gone", "then": "b", "bonus": True,
                                     "choices": ["G", "P"]}
    assert view["phase"] == "choose_colour" and view["to_act"] == ["a"]
    assert ENG.legal_actions(after, "b") == [] and ENG.legal_actions(after, "c") == []
    chosen, _ = ENG.apply(after, "a", ChooseColour(colour="P"))
    assert ENG.to_act(chosen) == ["b"] and chosen.bonus and chosen.designated == "P"
    assert ENG.view(chosen, None).bonus_turn is True


def test_colour_gone_with_six_squares_first_player_chooser_wraps_to_last() -> None:
    state = make(["a", "b"], {"a": ["Y10", "B01"], "b": ["P10"]}, [("R10", 0, 0), ("G10", 0, 3)])
    after, _ = ENG.apply(state, "a", place("Y10", 0, 0))
    assert ENG.to_act(after) == ["b"] and after.choice.then == "a" and after.choice.bonus


def test_everyone_passed_last_passer_chooses_first_passer_resumes() -> None:
    hands = {"a": ["Y10"], "b": ["P10"], "c": ["B10"]}
    state = make(["a", "b", "c"], hands, START, current="b")
    s1, e1 = ENG.apply(state, "b", Pass())
    assert e1[0].type == "passed" and e1[0].data == {"player": "b", "passes_in_row": 1}
    s2, _ = ENG.apply(s1, "c", Pass())
    assert ENG.view(s2, None).passes_in_row == 2 and ENG.view(s2, None).first_passer == "b"
    s3, events = ENG.apply(s2, "a", Pass())
    assert types(events) == ["passed", "all_passed", "colour_choice_due"]
    assert ENG.to_act(s3) == ["a"]
    assert s3.choice == ColourChoice(chooser="a", reason="all_passed", then="b")
    assert ENG.legal_actions(s3, "a") == [ChooseColour(colour="G")]  # a different visible colour
    s4, _ = ENG.apply(s3, "a", ChooseColour(colour="G"))
    assert ENG.to_act(s4) == ["b"] and s4.designated == "G" and s4.passes_in_row == 0


def test_passing_does_not_stop_placing_later() -> None:
    state = make(["a", "b"], {"a": ["Y10", "Y01"], "b": ["P10", "P01"]}, TALL)
    s1, _ = ENG.apply(state, "a", Pass())
    s2, _ = ENG.apply(s1, "b", place("P10", 0, -1))
    assert s2.passes_in_row == 0 and s2.first_passer is None
    assert place("Y10", 0, 4) not in ENG.legal_actions(s2, "a")  # green only: not designated
    assert any(a.type == "place" for a in ENG.legal_actions(s2, "a"))


def test_bonus_turn_pass_opens_a_run_of_passes() -> None:
    state = make(["a", "b"], {"a": ["Y10", "B01"], "b": ["P10"]}, TALL)
    s1, _ = ENG.apply(state, "a", place("Y10", 0, 1))  # 6 squares, red still visible
    s2, _ = ENG.apply(s1, "a", Pass())
    s3, _ = ENG.apply(s2, "b", Pass())
    assert s3.choice == ColourChoice(chooser="b", reason="all_passed", then="a")


# ---- stalemate and the end ----------------------------------------------------------
def test_draw_when_a_colour_change_is_due_but_no_other_colour_is_visible() -> None:
    state = make(["a", "b"], {"a": ["Y10"], "b": ["P10", "P01"]}, [("R10", 0, 0), ("R01", 0, 1)],
                 piles={"a": ["Y01"], "b": []})
    s1, _ = ENG.apply(state, "a", Pass())
    over, events = ENG.apply(s1, "b", Pass())
    assert types(events) == ["passed", "all_passed", "game_drawn"]
    assert events[-1].data["reason"] == "no_other_colour"
    assert ENG.to_act(over) == []
    result = ENG.result(over)
    assert result.ranking == [["a", "b"]] and result.scores == {"a": 2, "b": 2}
    assert ENG.view(over, None).draw_reason == "no_other_colour"


def test_draw_after_three_full_rounds_of_passes() -> None:
    state = make(["a", "b"], {"a": ["Y10"], "b": ["P10"]}, START)
    for colour, rounds in (("G", 1), ("R", 2)):
        state, _ = ENG.apply(state, "a", Pass())
        state, events = ENG.apply(state, "b", Pass())
        assert state.pass_rounds == rounds and ENG.to_act(state) == ["b"]
        state, _ = ENG.apply(state, "b", ChooseColour(colour=colour))
    state, _ = ENG.apply(state, "a", Pass())
    assert ENG.result(state) is None
    over, events = ENG.apply(state, "b", Pass())
    assert events[-1].type == "game_drawn" and events[-1].data["reason"] == "three_pass_rounds"
    assert ENG.result(over).ranking == [["a", "b"]]


def test_a_placement_resets_the_rounds_of_passes() -> None:
    state = make(["a", "b"], {"a": ["Y10", "Y01"], "b": ["P10", "P01"]}, TALL)
    state, _ = ENG.apply(state, "a", Pass())
    state, _ = ENG.apply(state, "b", Pass())
    state, _ = ENG.apply(state, "b", ChooseColour(colour="G"))
    assert state.pass_rounds == 1
    state, _ = ENG.apply(state, "a", place("Y10", 0, 4))
    assert state.pass_rounds == 0 and state.passes_in_row == 0


def test_first_empty_hand_wins_others_ranked_by_cards_left() -> None:
    hands = {"a": ["Y10"], "b": ["P10", "P01"], "c": ["B10"], "d": ["B01", "B02", "B03"]}
    piles = {"a": [], "b": ["P02"], "c": [], "d": []}
    state = make(["a", "b", "c", "d"], hands, TALL, piles=piles)
    over, events = ENG.apply(state, "a", place("Y10", 0, 1))  # a 6-square cover: the win comes first
    assert events[-1].type == "game_won"
    assert events[-1].data == {"winner": "a", "ranking": [["a"], ["c"], ["b", "d"]],
                               "cards_left": {"a": 0, "b": 3, "c": 1, "d": 3}}
    assert ENG.to_act(over) == [] and not over.bonus
    assert ENG.result(over).ranking == [["a"], ["c"], ["b", "d"]]
    view = ENG.view(over, "b").model_dump()
    assert view["phase"] == "over" and view["winner"] == "a" and view["result"]["ranking"] == [["a"], ["c"], ["b", "d"]]
    assert ENG.legal_actions(over, "b") == []
    with pytest.raises(NotYourTurn):
        ENG.apply(over, "b", Pass())


def test_the_win_comes_before_a_colour_change() -> None:
    state = make(["a", "b"], {"a": ["Y10"], "b": ["P10"]}, START)
    over, events = ENG.apply(state, "a", place("Y10", 0, -1))  # red vanishes with a's last card
    assert over.winner == "a" and over.choice is None and "colour_choice_due" not in types(events)


def test_view_highlights_the_last_placement() -> None:
    state = make(["a", "b"], {"a": ["Y10", "Y01"], "b": ["P10"]}, TALL)
    after, _ = ENG.apply(state, "a", place("Y10", 0, -1))
    view = ENG.view(after, "b").model_dump()
    assert view["last_placement"] == 3
    assert view["placements"][3] == {"index": 3, "card": "Y10", "colour": "Y", "turn": 0, "x": 0, "y": -1,
                                     "width": 2, "height": 3, "player": "a", "covered": 4}
    assert view["bounds"]["min_y"] == -1
    assert {(sq["x"], sq["y"]) for sq in view["centre"] if sq["card"] == "Y10"} == {
        (x, y) for x in (0, 1) for y in (-1, 0, 1)}
    assert view["hand"] == ["P10"] and "Y01" not in str(view)


def test_play_goes_round_in_turn_order_not_seat_order() -> None:
    state = make(["c", "a", "b"], {"a": ["Y10", "Y01"], "b": ["P10", "P01"], "c": ["B10", "B01"]}, TALL)
    state = state.model_copy(update={"players": ["a", "b", "c"]})  # seats differ from the turn order
    s1, _ = ENG.apply(state, "c", place("B10", 0, -1))
    assert ENG.to_act(s1) == ["a"]
    s2, _ = ENG.apply(s1, "a", Pass())
    assert ENG.to_act(s2) == ["b"]
    s3, _ = ENG.apply(s2, "b", Pass())
    assert ENG.to_act(s3) == ["c"]
    assert ENG.view(s3, None).players == ["a", "b", "c"] and ENG.view(s3, None).order == ["c", "a", "b"]
