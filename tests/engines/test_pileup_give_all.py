"""Pile up: a triple's minus cards handed out in one decision (``give_all``), the same as that many ``give``s."""
from __future__ import annotations

import pytest

from engines import IllegalAction
from engines.pileup import Give, GiveAll, Roll

from .test_pileup_support import ENG, event, table, types

MINUS = ["R1a", "R1b", "B2a", "G3a", "Y4a", "W5a", "K6a", "Y1a", "Y1b", "G1a"]


def tripled(rolls=(2, 2, 2), minus=None):
    state = table(hands={"ann": ["R6a"]}, minus={"ann": list(MINUS if minus is None else minus)}, rolls=rolls)
    state, _ = ENG.apply(state, "ann", Roll())
    assert state.phase == "give"
    return state


def test_give_all_hands_out_every_card_clockwise_in_the_order_given() -> None:
    state = tripled()
    cards = ("K6a", "W5a", "R1b", "B2a", "G3a", "Y1a")
    after, events = ENG.apply(state, "ann", GiveAll(cards=cards))
    given = [(e.data["to"], e.data["card"]) for e in events if e.type == "minus_given"]
    # identical copies are alike: R1b is given as the lowest copy held, R1a
    assert given == [("bob", "K6a"), ("cat", "W5a"), ("bob", "R1a"), ("cat", "B2a"), ("bob", "G3a"),
                     ("cat", "Y1a")]
    assert sorted(after.minus["ann"]) == ["G1a", "R1b", "Y1b", "Y4a"]
    assert ENG.to_act(after) == ["bob"] and event(events, "turn_started").data["player"] == "bob"


def test_give_all_leads_to_the_same_state_as_one_give_at_a_time() -> None:
    state = tripled()
    cards = ("Y4a", "G1a", "R1a", "Y1a", "W5a", "K6a")
    one_by_one = state
    for card in cards:
        one_by_one, _ = ENG.apply(one_by_one, "ann", Give(card=card))
    at_once, events = ENG.apply(state, "ann", GiveAll(cards=cards))
    assert at_once == one_by_one
    assert types(events).count("minus_given") == 6


def test_give_all_after_some_single_gives_hands_out_the_rest() -> None:
    """A game stored mid-triple (after some one-at-a-time gives) finishes with one decision too."""
    state = tripled()
    state, _ = ENG.apply(state, "ann", Give(card="K6a"))
    state, _ = ENG.apply(state, "ann", Give(card="W5a"))
    assert ENG.view(state, None).pending.remaining == 4
    state, _ = ENG.apply(state, "ann", GiveAll(cards=("R1a", "R1b", "Y1a", "Y1b")))
    assert sorted(state.minus["bob"]) == ["K6a", "R1a", "Y1a"] and sorted(state.minus["cat"]) == ["R1b", "W5a", "Y1b"]
    assert ENG.to_act(state) == ["bob"]


def test_give_all_when_the_giver_holds_fewer_cards_than_the_sum() -> None:
    state = tripled(rolls=(5, 5, 5), minus=["R1a", "B1a"])
    state, _ = ENG.apply(state, "ann", GiveAll(cards=("R1a", "B1a")))
    assert state.minus == {"ann": [], "bob": ["R1a"], "cat": ["B1a"]}


@pytest.mark.parametrize("cards, code", [
    (("K6a", "W5a"), "pileup.give_count"),  # too few
    (("K6a", "W5a", "R1a", "B2a", "G3a", "Y1a", "Y1b"), "pileup.give_count"),  # too many
    (("K6a", "W5a", "R1a", "B2a", "G3a", "B6a"), "pileup.card_not_held"),  # not a minus card of the giver
    (("K6a", "K6a", "R1a", "B2a", "G3a", "Y1a"), "pileup.card_not_held"),  # one card given twice
])
def test_give_all_with_a_wrong_count_or_card_is_refused_and_changes_nothing(cards, code) -> None:
    state = tripled()
    before = ENG.dump(state)
    with pytest.raises(IllegalAction) as err:
        ENG.apply(state, "ann", GiveAll(cards=cards))
    assert err.value.code == code
    assert ENG.dump(state) == before


def test_give_all_is_refused_outside_a_triple_and_for_another_player() -> None:
    state = table(hands={"ann": ["R6a"]}, minus={"ann": ["R1a"]})
    with pytest.raises(IllegalAction):
        ENG.apply(state, "ann", GiveAll(cards=("R1a",)))
    assert not ENG.is_legal(tripled(), "bob", GiveAll(cards=("R1a",) * 6))


def test_give_all_round_trips_and_is_not_listed() -> None:
    action = GiveAll(cards=("R1a", "B2a"))
    assert ENG.parse_action(action.model_dump(mode="json")) == action
    state = tripled()
    assert all(a.type == "give" for a in ENG.legal_actions(state, "ann"))  # bots and menus give one at a time
