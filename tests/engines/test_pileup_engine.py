"""Pile up against the engine contract: conformance playthroughs for every player count and deck
option, replay, card conservation, views, legal_actions ⇔ apply, previews and list sizes."""
from __future__ import annotations

import itertools
import json
import random

import pytest

from engines import EngineError
from engines.pileup import PileupEngine, Play
from engines.pileup.rules import preview

from .conformance import check_replay, random_playthrough
from .test_pileup_support import ENG, P3, col, table

DECKS = [None, "R2B2G2Y2", "R3B3G3W2K2", "W2K2R1"]  # W2K2R1: 30 cards, nothing left to draw at 5 seats


def test_contract_attributes() -> None:
    assert (ENG.name, ENG.min_players, ENG.max_players) == ("pileup", 2, 5)


@pytest.mark.parametrize("deck", DECKS)
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_random_playthroughs_end_and_never_leak(n: int, deck: str | None) -> None:
    options = {"deck": deck} if deck else None
    for seed in range(3):
        random_playthrough(ENG, seed * 97 + n, n, options)


@pytest.mark.parametrize("n", [2, 5])
def test_replay_is_deterministic(n: int) -> None:
    check_replay(ENG, 11, n)
    check_replay(ENG, 12, n, {"deck": "R3B3G3W2K2"})


def test_every_card_is_somewhere_exactly_once_all_game() -> None:
    eng = PileupEngine()
    rnd = random.Random(4)
    state = eng.new_game(["a", "b", "c", "d"], seed=4)
    deck = sorted(state.draw_pile + [c for h in state.hands.values() for c in h])
    while eng.to_act(state):
        player = eng.to_act(state)[0]
        state, _ = eng.apply(state, player, rnd.choice(eng.legal_actions(state, player)))
        where = state.draw_pile + [c for p in state.players for c in state.hands[p] + state.minus[p]]
        where += [c for column in state.columns for c in column.cards()]
        assert sorted(where) == deck
    assert sum(eng.result(state).scores.values()) == 84 - sum(len(c.cards()) for c in state.columns)


def test_views_hold_what_the_board_needs_and_no_secrets() -> None:
    state = table(hands={"ann": ["R3a", "B3a"], "bob": ["G1a"]}, minus={"cat": ["K2a"]},
                  columns={3: col("R3b+R3c", "B3b")}, pile=["Y1a", "Y2a"], phase="play", dice=[3, 4, 4],
                  deck="R3B2G2Y2W1K1")
    spectator = ENG.view(state, None).model_dump()
    json.dumps(spectator)
    assert "hand" not in spectator and "Y1a" not in json.dumps(spectator) and "rng" not in spectator
    assert spectator["draw_pile"] == 2 and spectator["dice"] == [3, 4, 4]
    assert spectator["columns"][2] == {
        "number": 3, "layers": [{"colour": "R", "cards": ["R3b", "R3c"]}, {"colour": "B", "cards": ["B3b"]}],
        "layer_count": 2, "card_count": 3, "trapped": False, "trapped_by": None, "being_dumped": False}
    assert [s["hand_size"] for s in spectator["seats"]] == [2, 1, 0]
    assert spectator["seats"][2]["minus"] == ["K2a"] and spectator["seats"][2]["empty_hand"]
    assert spectator["pending"] == {"kind": "play", "player": "ann", "dice": [3, 4, 4], "minus_turn": False}
    assert "R3a" not in json.dumps(ENG.view(state, "bob").model_dump())
    own = ENG.view(state, "ann").model_dump()
    assert own["hand"] == ["B3a", "R3a"] and own["playable_values"] == [3]
    assert "playable_values" not in ENG.view(state, "bob").model_dump()


def candidate_plays(source: list[str], value: int) -> list[Play]:
    """Every ordering of every subset (up to 3 cards) of ``source`` with every stacking pattern."""
    out = []
    for k in (1, 2, 3):
        for cards in itertools.permutations(source, k):
            for stacked in itertools.product((False, True), repeat=k):
                out.append(Play(value=value, cards=cards, stacked=stacked))
    return out


def test_apply_accepts_exactly_the_legal_plays() -> None:
    rnd = random.Random(9)
    checked = 0
    for seed in range(25):
        state = ENG.new_game(P3, seed=seed)
        while ENG.to_act(state) and state.phase != "play":
            p = ENG.to_act(state)[0]
            state, _ = ENG.apply(state, p, rnd.choice(ENG.legal_actions(state, p)))
        if state.phase != "play":
            continue
        player = ENG.to_act(state)[0]
        legal = ENG.legal_actions(state, player)
        assert len(legal) == len({json.dumps(a.model_dump(mode="json")) for a in legal})  # no duplicates
        hand = state.hands[player]
        for value in range(1, 7):
            mine = [c for c in hand if int(c[1]) == value][:3]
            decoys = [c for c in hand if int(c[1]) != value][:1] + [f"R{value}z"]
            for action in candidate_plays(mine + decoys, value):
                try:
                    ENG.apply(state, player, action)
                    accepted = True
                except EngineError:
                    accepted = False
                assert accepted == (action in legal), action
                checked += 1
    assert checked > 1000


def test_preview_from_a_view_matches_what_apply_does() -> None:
    rnd = random.Random(3)
    kinds = set()
    for seed in range(60):
        state = ENG.new_game(P3, seed=seed)
        for _ in range(200):
            actors = ENG.to_act(state)
            if not actors:
                break
            p = actors[0]
            legal = ENG.legal_actions(state, p)
            action = rnd.choice(legal)
            if state.phase == "play":
                guess = preview(ENG.view(state, None), action)
                after, events = ENG.apply(state, p, action)
                kinds.add(guess["kind"])
                got = {e.type for e in events}
                assert ("column_taken" in got) == guess["takes"]
                assert ("dump_started" in got) == (guess["kind"] == "dump")
                assert ("column_trapped" in got) == (guess["kind"] == "trap")
                state = after
            else:
                state, _ = ENG.apply(state, p, action)
    assert {"safe", "take", "dump", "trap"} <= kinds


def test_legal_plays_stay_small_even_for_six_cards_of_one_number() -> None:
    state = table(hands={"ann": ["R3a", "B3a", "G3a", "Y3a", "W3a", "K3a"]}, columns={3: col("R3b")},
                  phase="play", dice=[3, 1, 2])
    legal = ENG.legal_actions(state, "ann")  # how fast: python -m bench --only engines
    assert len(legal) == 1956 + 326  # ordered subsets, plus those starting with R stacked on the R
    twins = table(hands={"ann": ["R3a", "R3b", "B3a", "B3b", "G3a", "G3b"]}, phase="play", dice=[3, 1, 2])
    assert len(ENG.legal_actions(twins, "ann")) < 1000
