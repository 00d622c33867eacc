"""The Pile up bot: sensible single choices (its whole games, pinned move by move, in test_policy_moves.py); how
much better than random it plays is ``python -m bench.heuristics --game pileup``."""
from __future__ import annotations

import random

from bot.policies.pileup import choose
from engines.pileup import DumpOn, Give, Penalty, PileupEngine, Play, Roll
from engines.pileup.rules import preview
from tests.engines.test_pileup_support import col, table

ENG = PileupEngine()


def bot_move(state, player="ann"):
    legal = ENG.legal_actions(state, player)
    action = choose(ENG.view(state, player), legal, random.Random(0))
    assert action in legal
    return action


def test_prefers_a_safe_play_over_taking_a_column() -> None:
    state = table(hands={"ann": ["R3a", "B5a"]}, columns={3: col("G3a", "Y3a")}, phase="play", dice=[3, 5, 1])
    assert bot_move(state) == Play(value=5, cards=("B5a",), stacked=(False,))


def test_stacks_exactly_to_stay_under_three_layers() -> None:
    state = table(hands={"ann": ["R3b"]}, columns={3: col("G3a", "R3a")}, phase="play", dice=[3, 3, 1])
    assert bot_move(state) == Play(value=3, cards=("R3b",), stacked=(True,))


def test_uses_white_to_dump_a_big_column_instead_of_taking_it() -> None:
    state = table(hands={"ann": ["R4a", "W4a"]}, columns={4: col("G4a", "Y4a+Y4b")}, phase="play", dice=[4, 4, 1])
    move = bot_move(state)
    assert preview(ENG.view(state, "ann"), move)["kind"] == "dump" and len(move.cards) == 2


def test_keeps_white_when_a_plain_safe_play_exists() -> None:
    state = table(hands={"ann": ["R2a", "W4a"]}, phase="play", dice=[2, 4, 1])
    assert bot_move(state).cards == ("R2a",)


def test_uses_black_to_escape_a_forced_take() -> None:
    state = table(hands={"ann": ["R6a", "K6a"]}, columns={6: col("G6a", "Y6a")}, phase="play", dice=[6, 2, 1])
    move = bot_move(state)
    assert "K6a" in move.cards and preview(ENG.view(state, "ann"), move)["kind"] == "trap"


def test_dumps_on_the_leader() -> None:
    state = table(hands={"ann": ["W3a"], "bob": ["R1a"], "cat": ["R2a"]}, minus={"bob": ["B1a", "B2a"]},
                  phase="play", dice=[3, 1, 2])
    state, _ = ENG.apply(state, "ann", Play(value=3, cards=("W3a",), stacked=(False,)))
    assert bot_move(state) == DumpOn(target="cat")


def test_penalty_and_gifts_part_with_plain_cards_not_white_or_black() -> None:
    state = table(hands={"ann": ["W1a", "K2a", "R3a"]}, phase="penalty", dice=[4, 5, 6])
    assert bot_move(state) == Penalty(card="R3a")
    state = table(hands={"ann": ["R6a"]}, minus={"ann": ["W1a", "B2a", "K3a"]}, phase="give")
    state.give_left, state.give_next = 2, 1
    assert bot_move(state) == Give(card="B2a")


def test_roll_is_the_only_choice() -> None:
    state = table(hands={"ann": ["R6a"]})
    assert bot_move(state) == Roll()
