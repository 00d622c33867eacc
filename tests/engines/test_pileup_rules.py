"""Pile up rule scenarios: deck, deal, turn, stacking, 3-layer take, triples, no playable value,
refill, the empty-hand phase, skipping, end and ranking (docs/rules/pileup.md and the seed)."""
from __future__ import annotations

from collections import Counter

import pytest

from engines import BadOptions, IllegalAction
from engines.pileup import Give, Penalty, Roll

from .test_pileup_support import ENG, P3, col, event, layers, play, table, types


# ---- cards, deck option, deal ---------------------------------------------------------------
def test_default_deck_is_84_cards_three_of_each_colour_one_white_one_black() -> None:
    """The original's example needs three red 3s (「3の赤のカードが場に1枚出ている、手札に赤の3が2枚」): the
    default deck has three of each number per plain colour (docs/rules/pileup.md, "Decision: default deck")."""
    state = ENG.new_game(P3, seed=5)
    cards = state.draw_pile + [c for h in state.hands.values() for c in h]
    assert len(cards) == len(set(cards)) == 84
    per_colour = Counter(c[0] for c in cards)
    assert per_colour == {"R": 18, "B": 18, "G": 18, "Y": 18, "W": 6, "K": 6}
    assert {"R3a", "R3b", "R3c", "W5a", "K1a"} <= set(cards) and "W5b" not in cards
    assert state.options["deck"] == "R3B3G3Y3W1K1"


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_deal_six_each_rest_is_the_draw_pile(n: int) -> None:
    state = ENG.new_game([f"p{i}" for i in range(n)], seed=n)
    assert all(len(h) == 6 for h in state.hands.values())
    assert len(state.draw_pile) == 84 - 6 * n
    assert len(state.columns) == 6 and all(not c.layers for c in state.columns)
    assert ENG.to_act(state) == ["p0"] and state.phase == "roll"


def test_deck_option_text_and_mapping_forms() -> None:
    state = ENG.new_game(P3, seed=1, options={"deck": "r3, b3 k1"})
    assert state.options["deck"] == "R3B3K1"
    assert len(state.draw_pile) + 18 == 6 * 7
    state = ENG.new_game(P3, seed=1, options={"deck": {"G": 4, "W": 2, "R": 0}})
    assert state.options["deck"] == "G4W2"
    assert "G6d" in state.draw_pile + [c for h in state.hands.values() for c in h]


@pytest.mark.parametrize("bad", ["X2", "R", "R2R3", "R10", "", "R2 + B2", {"R": -1}, {"Q": 1}, 7, {"R": 0}])
def test_bad_deck_option_is_refused_with_a_clear_error(bad) -> None:
    with pytest.raises(BadOptions) as err:
        ENG.new_game(P3, seed=1, options={"deck": bad})
    assert err.value.fields["option"] == "deck"
    assert "deck" in err.value.fields["reason"]


def test_deck_too_small_for_the_table_is_refused() -> None:
    with pytest.raises(BadOptions) as err:
        ENG.new_game(P3, seed=1, options={"deck": "R2"})  # 12 cards, 18 needed
    assert err.value.code == "pileup.deck_too_small"
    assert err.value.fields == {"option": "deck", "cards": 12, "needed": 18}


def test_unknown_option_refused() -> None:
    with pytest.raises(BadOptions):
        ENG.new_game(P3, seed=1, options={"dice": 4})


# ---- an ordinary turn ------------------------------------------------------------------
def test_roll_then_play_one_value_onto_its_column_and_refill() -> None:
    state = table(hands={"ann": ["R2a", "B4a", "G4a"], "bob": ["B1a"]}, pile=["Y1a", "Y1b", "Y5a", "Y6a", "Y6b"],
                  rolls=(2, 4, 5))
    state, events = ENG.apply(state, "ann", Roll())
    assert event(events, "rolled").data["dice"] == [2, 4, 5] and event(events, "rolled").visible_to is None
    legal = ENG.legal_actions(state, "ann")
    assert {a.value for a in legal} == {2, 4}  # 5 is rolled but not held
    assert play("B4a", "G4a") in legal and play("G4a", "B4a") in legal and play("R2a", "B4a") not in legal
    state, events = ENG.apply(state, "ann", play("G4a", "B4a"))
    assert layers(state, 4) == [["G4a"], ["B4a"]]
    assert state.hands["ann"] == ["R2a", "Y1a", "Y1b", "Y5a", "Y6a", "Y6b"]  # refilled to 6
    drew = event(events, "drew")
    assert drew.visible_to == ["ann"] and drew.data["cards"] == ["Y1a", "Y1b", "Y5a", "Y6a", "Y6b"]
    assert event(events, "refilled").data == {"player": "ann", "count": 5, "hand_size": 6, "draw_pile": 0}
    assert event(events, "refilled").visible_to is None and "Y1a" not in str(event(events, "refilled").data)
    assert ENG.to_act(state) == ["bob"] and state.phase == "roll"


def test_refill_stops_when_the_pile_runs_out() -> None:
    state = table(hands={"ann": ["R2a", "R3a"], "bob": ["B1a"]}, pile=["Y1a"], phase="play", dice=[2, 3, 4])
    state, _ = ENG.apply(state, "ann", play("R2a"))
    assert state.hands["ann"] == ["R3a", "Y1a"] and state.draw_pile == []


def test_a_value_that_was_not_rolled_or_a_card_not_held_is_refused() -> None:
    state = table(hands={"ann": ["R2a", "R3a"]}, phase="play", dice=[2, 4, 5])
    for bad in (play("R3a"), play("R2b"), play("R2a", "R2a")):
        before = ENG.dump(state)
        with pytest.raises(IllegalAction):
            ENG.apply(state, "ann", bad)
        assert ENG.dump(state) == before


def test_three_layers_take_the_column() -> None:
    state = table(hands={"ann": ["Y3a"]}, columns={3: col("R3a", "B3a")}, phase="play", dice=[3, 3, 1])
    state, events = ENG.apply(state, "ann", play("Y3a"))
    taken = event(events, "column_taken").data
    assert taken["cards"] == ["R3a", "B3a", "Y3a"] and taken["reason"] == "take"
    assert state.minus["ann"] == ["R3a", "B3a", "Y3a"] and layers(state, 3) == []


def test_several_cards_past_the_third_layer_take_everything() -> None:
    state = table(hands={"ann": ["Y3a", "G3a", "B3b"]}, columns={3: col("R3a")}, phase="play", dice=[3, 2, 1])
    state, _ = ENG.apply(state, "ann", play("Y3a", "G3a", "B3b"))
    assert sorted(state.minus["ann"]) == ["B3b", "G3a", "R3a", "Y3a"] and layers(state, 3) == []


# ---- exact stacking (seed: 同数同色) --------------------------------------------------------------
def test_seed_example_two_reds_stacked_on_the_red_and_blue_apart_make_two_layers() -> None:
    """Red 3 on the board, hand R3 R3 B3: stack both reds onto it, blue beside → 2 layers, no take."""
    state = table(hands={"ann": ["R3b", "R3c", "B3a"]}, columns={3: col("R3a")}, phase="play",
                  dice=[3, 5, 6], deck="R3B2G2Y2W1K1")
    move = play("R3b", "R3c", "B3a", stacked=(True, True, False))
    assert move in ENG.legal_actions(state, "ann")
    state, events = ENG.apply(state, "ann", move)
    assert layers(state, 3) == [["R3a", "R3b", "R3c"], ["B3a"]]
    assert "column_taken" not in types(events) and state.minus["ann"] == []


def test_stacking_exactly_onto_two_layers_is_not_a_third() -> None:
    state = table(hands={"ann": ["R3b"]}, columns={3: col("G3a", "R3a")}, phase="play", dice=[3, 5, 6])
    state, events = ENG.apply(state, "ann", play("R3b", stacked=(True,)))
    assert layers(state, 3) == [["G3a"], ["R3a", "R3b"]] and "column_taken" not in types(events)


def test_stacking_is_optional_the_same_cards_apart_take_the_column() -> None:
    state = table(hands={"ann": ["R3b", "B3a"]}, columns={3: col("R3a")}, phase="play", dice=[3, 5, 6])
    legal = ENG.legal_actions(state, "ann")
    apart, stacked = play("R3b", "B3a"), play("R3b", "B3a", stacked=(True, False))
    assert apart in legal and stacked in legal
    after, _ = ENG.apply(state, "ann", apart)
    assert layers(after, 3) == [] and len(after.minus["ann"]) == 3
    after, _ = ENG.apply(state, "ann", stacked)
    assert layers(after, 3) == [["R3a", "R3b"], ["B3a"]]


def test_hand_cards_of_one_colour_stack_onto_each_other() -> None:
    state = table(hands={"ann": ["R4a", "R4b"]}, columns={4: col("G4a", "B4a")}, phase="play", dice=[4, 5, 6])
    state, events = ENG.apply(state, "ann", play("R4a", "R4b", stacked=(False, True)))
    assert "column_taken" in types(events)  # one new layer on two = the 3rd layer
    assert sorted(state.minus["ann"]) == ["B4a", "G4a", "R4a", "R4b"]


@pytest.mark.parametrize("stacked", [(True,), (False, True)])
def test_stacking_onto_another_colour_is_refused(stacked) -> None:
    cards = ("B3a",) if len(stacked) == 1 else ("B3a", "G3a")
    state = table(hands={"ann": ["B3a", "G3a"]}, columns={3: col("R3a")}, phase="play", dice=[3, 5, 6])
    with pytest.raises(IllegalAction) as err:
        ENG.apply(state, "ann", play(*cards, stacked=stacked))
    assert err.value.code == "pileup.stack_needs_same_colour"


def test_identical_copies_are_offered_once_lowest_copy_first() -> None:
    state = table(hands={"ann": ["R3a", "R3b"]}, phase="play", dice=[3, 5, 6])
    legal = ENG.legal_actions(state, "ann")
    assert play("R3a") in legal and play("R3b") not in legal and play("R3b", "R3a") not in legal
    with pytest.raises(IllegalAction):
        ENG.apply(state, "ann", play("R3b"))


# ---- triples ---------------------------------------------------------------------------------
def test_triple_hands_out_minus_cards_clockwise_one_at_a_time_as_many_as_the_sum() -> None:
    minus = ["R1a", "R1b", "B2a", "G3a", "Y4a", "W5a", "K6a", "Y1a", "Y1b", "G1a"]
    state = table(hands={"ann": ["R6a"]}, minus={"ann": minus}, rolls=(2, 2, 2))
    state, events = ENG.apply(state, "ann", Roll())
    assert event(events, "triple").data == {"player": "ann", "dice": [2, 2, 2], "sum": 6, "gives": 6}
    assert ENG.view(state, None).model_dump()["pending"] == {
        "kind": "give", "player": "ann", "remaining": 6, "to": "bob", "dice": [2, 2, 2]}
    legal = ENG.legal_actions(state, "ann")
    assert Give(card="R1a") in legal and Give(card="R1b") not in legal  # one per identical kind
    receivers = []
    while state.phase == "give":
        state, events = ENG.apply(state, "ann", ENG.legal_actions(state, "ann")[0])
        receivers.append(event(events, "minus_given").data["to"])
    assert receivers == ["bob", "cat"] * 3
    assert len(state.minus["ann"]) == 4 and len(state.minus["bob"]) == len(state.minus["cat"]) == 3
    assert state.hands["ann"] == ["R6a"]  # no card played, nothing drawn
    assert ENG.to_act(state) == ["bob"]


def test_triple_stops_when_the_giver_runs_out() -> None:
    state = table(hands={"ann": ["R6a"]}, minus={"ann": ["R1a", "B1a"]}, rolls=(5, 5, 5))
    state, _ = ENG.apply(state, "ann", Roll())
    state, _ = ENG.apply(state, "ann", Give(card="B1a"))
    state, events = ENG.apply(state, "ann", Give(card="R1a"))
    assert state.minus == {"ann": [], "bob": ["B1a"], "cat": ["R1a"]}
    assert event(events, "turn_started").data["player"] == "bob"


def test_triple_without_minus_cards_ends_the_turn_even_with_a_matching_card() -> None:
    state = table(hands={"ann": ["R3a"], "bob": ["B1a"]}, rolls=(3, 3, 3))
    state, events = ENG.apply(state, "ann", Roll())
    assert types(events)[:2] == ["rolled", "triple"] and "played" not in types(events)
    assert state.hands["ann"] == ["R3a"] and ENG.to_act(state) == ["bob"]


def test_giving_a_card_not_held_is_refused() -> None:
    state = table(hands={"ann": ["R6a"]}, minus={"ann": ["R1a"]}, rolls=(1, 1, 1))
    state, _ = ENG.apply(state, "ann", Roll())
    with pytest.raises(IllegalAction):
        ENG.apply(state, "ann", Give(card="B1a"))


# ---- no playable value ---------------------------------------------------------------------------
def test_no_playable_value_reveals_the_hand_one_card_becomes_minus_then_draw() -> None:
    hand = ["R1a", "B1a", "G2a", "G2b", "Y6a", "K6a"]
    state = table(hands={"ann": hand}, pile=["W4a", "R5a"], rolls=(3, 4, 5))
    state, events = ENG.apply(state, "ann", Roll())
    shown = event(events, "hand_revealed")
    assert shown.visible_to is None and shown.data["cards"] == sorted(hand)
    assert state.phase == "penalty" and ENG.to_act(state) == ["ann"]
    assert [a.card for a in ENG.legal_actions(state, "ann")] == ["B1a", "G2a", "K6a", "R1a", "Y6a"]
    assert ENG.view(state, "bob").seats[0].revealed == sorted(hand)
    state, events = ENG.apply(state, "ann", Penalty(card="K6a"))
    assert event(events, "penalty_taken").data == {"player": "ann", "card": "K6a"}
    assert state.minus["ann"] == ["K6a"] and "W4a" in state.hands["ann"] and len(state.hands["ann"]) == 6
    other = ENG.view(state, "bob").seats[0]
    assert other.revealed == sorted(set(hand) - {"K6a"}) and "W4a" not in str(ENG.view(state, "bob").model_dump())
    own = ENG.view(state, "ann").model_dump()
    assert own["hand"] == ["W4a"] and own["hand_all"] == sorted(state.hands["ann"])


# ---- the empty-hand phase, skipping, end ------------------------------------------------------------
def test_empty_hand_player_plays_one_minus_card_with_rerolls_until_a_value_matches() -> None:
    state = table(hands={"bob": ["Y1a"]}, minus={"ann": ["R3a", "R3b", "B3a", "W5a"]},
                  columns={3: col("G3a", "Y3a")}, rolls=(1, 2, 4, 3, 6, 6))
    assert ENG.view(state, None).model_dump()["pending"]["minus_turn"] is True
    state, events = ENG.apply(state, "ann", Roll())
    assert "reroll" in types(events) and state.phase == "roll" and ENG.to_act(state) == ["ann"]
    state, _ = ENG.apply(state, "ann", Roll())
    legal = ENG.legal_actions(state, "ann")
    assert all(len(a.cards) == 1 for a in legal)  # only one card, even with duplicates
    assert {a.cards for a in legal} == {("R3a",), ("B3a",)}
    state, events = ENG.apply(state, "ann", play("R3a"))
    assert event(events, "played").data["from_minus"] is True
    assert sorted(state.minus["ann"]) == ["B3a", "G3a", "R3a", "R3b", "W5a", "Y3a"]  # the 3-layer rule applies


def test_empty_hand_phase_white_keeps_its_rule() -> None:
    state = table(hands={"bob": ["Y1a"]}, minus={"ann": ["W5a"]}, columns={5: col("R5a", "B5a")}, rolls=(5, 1, 2))
    state, _ = ENG.apply(state, "ann", Roll())
    state, _ = ENG.apply(state, "ann", play("W5a"))
    assert state.phase == "dump" and state.minus["ann"] == []


def test_empty_hand_phase_triple_hands_out_minus_cards() -> None:
    state = table(hands={"bob": ["Y1a"]}, minus={"ann": ["R3a", "B3a"]}, rolls=(1, 1, 1))
    state, _ = ENG.apply(state, "ann", Roll())
    assert state.phase == "give" and ENG.legal_actions(state, "ann") == [Give(card="B3a"), Give(card="R3a")]


def test_players_with_neither_hand_nor_minus_cards_are_skipped() -> None:
    state = table(hands={"ann": ["R2a"], "cat": ["Y5a"]}, phase="play", dice=[2, 3, 4])
    state, events = ENG.apply(state, "ann", play("R2a"))
    started = event(events, "turn_started").data
    assert started["player"] == "cat" and started["skipped"] == ["bob"] and started["minus_turn"] is False
    assert ENG.view(state, None).seats[1].out is True


def test_game_ends_when_pile_and_every_hand_are_empty_ranking_fewest_minus_ties_share() -> None:
    state = table(hands={"ann": ["R2a"]}, minus={"ann": ["B1a"], "bob": ["B2a", "B3a"], "cat": ["G1a"]},
                  phase="play", dice=[2, 3, 4])
    state, events = ENG.apply(state, "ann", play("R2a"))
    assert ENG.to_act(state) == [] and state.phase == "over"
    result = ENG.result(state)
    assert result.ranking == [["ann", "cat"], ["bob"]] and result.scores == {"ann": 1, "bob": 2, "cat": 1}
    assert event(events, "game_over").data["ranking"] == [["ann", "cat"], ["bob"]]
    assert ENG.legal_actions(state, "ann") == []


def test_game_goes_on_while_someone_holds_cards_even_with_the_pile_empty() -> None:
    state = table(hands={"ann": ["R2a"], "cat": ["R4a"]}, minus={"bob": ["B5a"]}, phase="play", dice=[2, 3, 4])
    state, _ = ENG.apply(state, "ann", play("R2a"))
    assert ENG.to_act(state) == ["bob"] and state.minus_turn and ENG.result(state) is None
