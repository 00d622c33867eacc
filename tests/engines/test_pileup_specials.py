"""White (dump and deflect chain) and black (trap) cards: every example of the seed's
white/black section and the rules file's resolution rules, including the Decision."""
from __future__ import annotations

import pytest

from engines import IllegalAction, NotYourTurn
from engines.pileup import DumpOn, KeepColumn, Roll
from engines.pileup.view import DeflectPending

from .test_pileup_support import ENG, col, event, layers, play, table, types


def dump_table(column_layers: tuple[str, ...], hand: list[str], rolls: tuple[int, ...] = (), **kw):
    number = int(hand[0][1])
    return table(hands={"ann": hand, "bob": ["Y1a"], "cat": ["Y1b"]},
                 columns={number: col(*column_layers)} if column_layers else None,
                 phase="play", dice=[number, 1, 2], rolls=rolls, **kw)


# ---- white ----------------------------------------------------------------------------------------
def test_seed_white_as_third_dumps_all_three_then_deflect_chain_back_to_the_dumper() -> None:
    """3s red, blue on the board; white 3 as the 3rd → all three dumped on a chosen player, who
    rolls one die: a 3 lets them dump it on again (the dumper included), until a roll misses."""
    state = dump_table(("R3a", "B3a"), ["W3a"], rolls=(3, 5))
    state, events = ENG.apply(state, "ann", play("W3a"))
    assert "column_taken" not in types(events)  # not the 3-layer take
    assert event(events, "dump_started").data == {"player": "ann", "column": 3, "cards": 3}
    assert ENG.to_act(state) == ["ann"] and state.phase == "dump"
    assert ENG.legal_actions(state, "ann") == [DumpOn(target="bob"), DumpOn(target="cat")]  # no keep

    state, events = ENG.apply(state, "ann", DumpOn(target="bob"))
    assert event(events, "dumped").data["to"] == "bob" and event(events, "dumped").visible_to is None
    pending = ENG.view(state, "cat").pending
    assert isinstance(pending, DeflectPending) and pending.player == "bob" and pending.needs == 3
    assert ENG.to_act(state) == ["bob"] and ENG.legal_actions(state, "bob") == [Roll()]

    state, events = ENG.apply(state, "bob", Roll())
    assert event(events, "deflect_rolled").data == {"player": "bob", "die": 3, "column": 3, "deflected": True}
    assert ENG.legal_actions(state, "bob") == [DumpOn(target="ann"), DumpOn(target="cat"), KeepColumn()]
    state, _ = ENG.apply(state, "bob", DumpOn(target="ann"))
    chain = ENG.view(state, None).model_dump()["pending"]["chain"]
    assert chain == [{"source": "ann", "target": "bob", "die": 3}, {"source": "bob", "target": "ann", "die": None}]

    state, events = ENG.apply(state, "ann", Roll())
    assert event(events, "deflect_rolled").data["deflected"] is False
    taken = event(events, "column_taken").data
    assert taken["player"] == "ann" and sorted(taken["cards"]) == ["B3a", "R3a", "W3a"]
    assert layers(state, 3) == [] and state.dump is None and ENG.to_act(state) == ["bob"]


def test_seed_white_first_on_an_empty_column_dumps_the_one_white_card() -> None:
    state = dump_table((), ["W3a"], rolls=(4,))
    state, _ = ENG.apply(state, "ann", play("W3a"))
    state, _ = ENG.apply(state, "ann", DumpOn(target="cat"))
    state, events = ENG.apply(state, "cat", Roll())
    assert state.minus["cat"] == ["W3a"] and event(events, "column_taken").data["reason"] == "dump"


def test_seed_white_last_after_two_on_board_dumps_five_cards_not_the_third_layer() -> None:
    """5s: two on the board; red, green, white played in that order → all five dumped."""
    state = dump_table(("B5a", "Y5a"), ["R5a", "G5a", "W5a"], rolls=(1,))
    state, events = ENG.apply(state, "ann", play("R5a", "G5a", "W5a"))
    assert state.phase == "dump" and event(events, "dump_started").data["cards"] == 5
    state, _ = ENG.apply(state, "ann", DumpOn(target="bob"))
    state, _ = ENG.apply(state, "bob", Roll())
    assert sorted(state.minus["bob"]) == ["B5a", "G5a", "R5a", "W5a", "Y5a"] and state.minus["ann"] == []


def test_white_played_first_then_plain_cards_still_dumps() -> None:
    """The seed: white applies whether played 1st or 2nd in the play (the last special decides)."""
    state = dump_table(("B5a",), ["W5a", "R5a"], rolls=(2,))
    state, _ = ENG.apply(state, "ann", play("W5a", "R5a"))
    assert state.phase == "dump"


def test_seed_white_onto_a_black_dumps() -> None:
    """The seed: white played onto a black (a trapped column) can still be dumped."""
    state = dump_table(("K5a",), ["W5a"], rolls=(2,))
    state.columns[4].trapped = True
    state, events = ENG.apply(state, "ann", play("W5a"))
    assert state.phase == "dump" and "column_taken" not in types(events)
    state, _ = ENG.apply(state, "ann", DumpOn(target="bob"))
    state, _ = ENG.apply(state, "bob", Roll())
    assert sorted(state.minus["bob"]) == ["K5a", "W5a"] and not state.columns[4].trapped


def test_redumper_may_keep_but_the_first_dumper_must_dump_and_never_onto_themselves() -> None:
    state = dump_table((), ["W3a"], rolls=(3,))
    state, _ = ENG.apply(state, "ann", play("W3a"))
    for bad in (KeepColumn(), DumpOn(target="ann"), DumpOn(target="zed")):
        with pytest.raises(IllegalAction):
            ENG.apply(state, "ann", bad)
    state, _ = ENG.apply(state, "ann", DumpOn(target="bob"))
    with pytest.raises(NotYourTurn):
        ENG.apply(state, "ann", Roll())  # the target rolls, not the dumper
    state, _ = ENG.apply(state, "bob", Roll())
    state, events = ENG.apply(state, "bob", KeepColumn())
    assert state.minus["bob"] == ["W3a"] and event(events, "column_taken").data["reason"] == "kept"


def test_refill_and_next_turn_wait_for_the_dump_chain() -> None:
    state = dump_table((), ["W3a", "R1a"], rolls=(6,), pile=["G6a", "G6b", "Y2a", "Y2b", "Y3a", "Y3b"])
    state, events = ENG.apply(state, "ann", play("W3a"))
    assert "refilled" not in types(events) and state.hands["ann"] == ["R1a"]
    state, _ = ENG.apply(state, "ann", DumpOn(target="cat"))
    state, events = ENG.apply(state, "cat", Roll())
    assert len(state.hands["ann"]) == 6 and event(events, "turn_started").data["player"] == "bob"


# ---- black ----------------------------------------------------------------------------------------
def test_seed_black_as_third_traps_and_the_next_player_takes_all_four() -> None:
    """2s green, red on the board; black 2 as the 3rd → no take now; whoever plays onto the
    black next takes all four cards."""
    state = dump_table(("G2a", "R2a"), ["K2a"])
    state, events = ENG.apply(state, "ann", play("K2a"))
    assert "column_taken" not in types(events) and event(events, "column_trapped").data["column"] == 2
    column = ENG.view(state, None).columns[1]
    assert column.trapped and column.trapped_by == "ann" and column.layer_count == 3
    assert state.minus["ann"] == []
    state.hands["bob"] = ["Y2a"]
    state.dice = [2, 4, 5]
    state.phase = "play"
    state, events = ENG.apply(state, "bob", play("Y2a"))
    taken = event(events, "column_taken").data
    assert taken["reason"] == "take_trap" and taken["cards"] == ["G2a", "R2a", "K2a", "Y2a"]
    assert not state.columns[1].trapped and layers(state, 2) == []


def test_seed_black_first_the_next_player_takes_two_cards() -> None:
    state = dump_table((), ["K2a"])
    state, _ = ENG.apply(state, "ann", play("K2a"))
    state.hands["bob"], state.dice, state.phase = ["R2a"], [2, 3, 3], "play"
    state, _ = ENG.apply(state, "bob", play("R2a"))
    assert sorted(state.minus["bob"]) == ["K2a", "R2a"]


def test_seed_red_white_black_in_one_play_black_rule_applies() -> None:
    state = dump_table((), ["R4a", "W4a", "K4a"])
    state, events = ENG.apply(state, "ann", play("R4a", "W4a", "K4a"))
    assert "dump_started" not in types(events) and state.columns[3].trapped
    assert layers(state, 4) == [["R4a"], ["W4a"], ["K4a"]] and ENG.to_act(state) == ["bob"]


def test_black_then_white_in_one_play_dumps() -> None:
    state = dump_table(("G4a",), ["K4a", "W4a"])
    state, _ = ENG.apply(state, "ann", play("K4a", "W4a"))
    assert state.phase == "dump" and not state.columns[3].trapped


def test_black_suspends_the_three_layer_rule_whatever_the_layer_count() -> None:
    state = dump_table(("G6a", "Y6a"), ["R6a", "B6a", "K6a"])
    state, events = ENG.apply(state, "ann", play("R6a", "B6a", "K6a"))
    assert "column_taken" not in types(events) and len(layers(state, 6)) == 5


def test_decision_black_onto_a_trapped_column_springs_the_trap() -> None:
    state = dump_table(("K2a",), ["K2b"], deck="R2B2G2Y2W1K2")
    state.columns[1].trapped = True
    state, events = ENG.apply(state, "ann", play("K2b"))
    taken = event(events, "column_taken").data
    assert taken["reason"] == "spring" and sorted(state.minus["ann"]) == ["K2a", "K2b"]
    assert not state.columns[1].trapped and layers(state, 1) == []


def test_black_then_plain_onto_a_trapped_column_still_springs() -> None:
    state = dump_table(("K2a",), ["K2b", "R2a"], deck="R2B2G2Y2W1K2")
    state.columns[1].trapped = True
    state, _ = ENG.apply(state, "ann", play("K2b", "R2a"))
    assert sorted(state.minus["ann"]) == ["K2a", "K2b", "R2a"]


def test_black_stacked_exactly_onto_a_trapped_black_still_springs() -> None:
    state = dump_table(("R2a", "K2a"), ["K2b"], deck="R2B2G2Y2W1K2")
    state.columns[1].trapped = True
    move = play("K2b", stacked=(True,))
    assert move in ENG.legal_actions(state, "ann")
    state, _ = ENG.apply(state, "ann", move)
    assert len(state.minus["ann"]) == 3


def test_seed_black_as_third_then_own_plain_fourth_in_the_same_play_takes_all_four() -> None:
    """「3枚目が黒のカードの場合、次の4枚目に重ねた人がカードを取得する」 and 「黒のカードは出した瞬間にルールが
    適用され」: the black's rule applies the moment it is played, so when the player's own next card of the
    same play lands as the 4th, that player takes all four (no trap is left behind)."""
    state = dump_table(("G2a", "R2a"), ["K2a", "Y2a"])
    from engines.pileup.rules import outcome
    assert outcome([["G2a"], ["R2a"]], False, play("K2a", "Y2a"))["kind"] == "take_trap"
    state, events = ENG.apply(state, "ann", play("K2a", "Y2a"))
    taken = event(events, "column_taken").data
    assert taken["player"] == "ann" and taken["reason"] == "take_trap"
    assert taken["cards"] == ["G2a", "R2a", "K2a", "Y2a"]
    assert "column_trapped" not in types(events) and not state.columns[1].trapped and layers(state, 2) == []


def test_plain_then_black_in_one_play_still_only_traps() -> None:
    """「白と黒は場の枚数に関わらず、白と黒のルールが適用される」: a black laid last sets the trap whatever the
    count."""
    state = dump_table(("G2a",), ["Y2a", "K2a"])
    state, events = ENG.apply(state, "ann", play("Y2a", "K2a"))
    assert "column_taken" not in types(events) and state.columns[1].trapped
