"""Rocca rules: deck and setup, columns and active cards, matching, jokers, drawing, the deck-out end, "One"."""
from __future__ import annotations

import pytest

from engines.errors import BadOptions, IllegalAction, NotYourTurn
from engines.rng import Rng
from engines.rocca import cards as C
from engines.rocca.tower import TowerIndex

from .test_rocca_support import ENG, act, build, legal_dicts, make, raw_tower, tc, types

# ---- cards and setup ------------------------------------------------------------------------------------


def test_sixty_cards_in_the_rules_notation() -> None:
    deck = C.full_deck()
    assert len(deck) == len(set(deck)) == 60
    for card in ("0S", "AH", "2D", "10D", "JC", "QC", "KS", "X1", "X4"):
        assert card in deck
    assert sum(1 for c in deck if C.is_joker(c)) == 4
    assert {C.rank(c) for c in deck if not C.is_joker(c)} == set(C.RANKS)


@pytest.mark.parametrize("n", range(2, 7))
def test_deal_five_each_and_every_card_accounted_for(n: int) -> None:
    state = ENG.new_game([f"p{i}" for i in range(n)], seed=n)
    assert all(len(h) == 5 for h in state.hands.values())
    everything = [c for h in state.hands.values() for c in h] + state.deck + [t.card for t in state.tower]
    assert sorted(everything) == sorted(C.full_deck())
    assert len(state.tower) == 1 and len(state.deck) == 60 - 5 * n - 1


def test_start_card_is_never_a_letter_a_joker_or_zero_and_bad_ones_go_back() -> None:
    reshuffled = 0
    for seed in range(150):
        state = ENG.new_game(["p0", "p1", "p2"], seed=seed)
        start = state.tower[0].card
        assert C.can_start(start) and C.rank(start) in {"2", "3", "4", "5", "6", "7", "8", "9", "10"}
        # replay the shuffle and deal: was the first card turned up refused?
        deck = C.full_deck()
        rng = Rng.from_seed(seed)
        rng.randbelow(3)
        rng.shuffle(deck)
        first = deck[-(5 * 3) - 1]
        if not C.can_start(first):
            reshuffled += 1
            assert first in state.deck  # shuffled back into the pile
    assert reshuffled > 10


def test_start_player_random_or_picked() -> None:
    starts = {ENG.new_game(["a", "b", "c"], seed=s).turn for s in range(40)}
    assert starts == {"a", "b", "c"}
    state = ENG.new_game(["a", "b", "c"], seed=3, options={"start_player": 2})
    assert state.turn == "c" and ENG.to_act(state) == ["c"]


@pytest.mark.parametrize("options", [{"bon": "maybe"}, {"start_player": 3}, {"start_player": -1}, {"colour": 1}])
def test_bad_options_refused(options: dict) -> None:
    with pytest.raises(BadOptions):
        ENG.new_game(["a", "b", "c"], seed=1, options=options)


def test_two_to_six_players() -> None:
    assert (ENG.min_players, ENG.max_players, ENG.name) == (2, 6, "rocca")
    for n in (1, 7):
        with pytest.raises(BadOptions):
            ENG.new_game([f"p{i}" for i in range(n)], seed=1)
    assert ENG.new_game(["a", "b"], seed=1, options={"bon": True}).options == {"bon": True, "start_player": None}


# ---- columns and active cards -----------------------------------------------------------------------------


def test_head_continues_a_column_face_and_profile_start_new_ones() -> None:
    state = make({"p0": ["7S", "5H", "9C"], "p1": ["AS", "2D", "3D"]})
    state, ev = act(state, "p0", type="place", card="7S", on="5S", side="head")
    assert ev[0].data["label"] == "a2" and ev[0].data["on_label"] == "a1"
    ix = TowerIndex(state)
    assert [state.tower[i].card for i in ix.active] == ["7S"]  # 5S is no longer active
    state.turn = "p0"
    with pytest.raises(IllegalAction) as err:  # only active cards take cards
        act(state, "p0", type="place", card="5H", on="5S", side="profile")
    assert err.value.code == "rocca.not_active"
    state = build(make({"p0": ["9S"], "p1": ["2D"]}), ("5H", "5S", "profile"))
    ix = TowerIndex(state)
    assert [state.tower[i].card for i in ix.active] == ["5S", "5H"]  # both stay active: two columns
    assert tc(state, "5H").column == 1 and state.columns[1].parent == "5S"
    view = ENG.view(state, None).model_dump()
    assert [c["label"] for c in view["columns"]] == ["a", "b"]
    assert [t["label"] for t in view["tower"]] == ["a1", "b1"]


def test_labels_go_past_z() -> None:
    from engines.rocca.tower import column_label
    assert [column_label(i) for i in (0, 1, 25, 26, 27, 52)] == ["a", "b", "z", "aa", "ab", "ba"]


# ---- matching ---------------------------------------------------------------------------------------------


def placements(state, player="p0") -> set[tuple[str, str, str]]:
    return {(a["card"], a["on"], a["side"]) for a in legal_dicts(state, player) if a["type"] == "place"}


def test_head_takes_the_same_suit() -> None:
    state = make({"p0": ["7S", "7H", "KS", "0S"], "p1": ["2D"]})
    got = placements(state)
    assert {("7S", "5S", "head"), ("KS", "5S", "head"), ("0S", "5S", "head")} <= got
    assert ("7H", "5S", "head") not in got


def test_profile_takes_the_same_number_face_the_same_letter() -> None:
    state = raw_tower(make({"p0": ["5H", "6S", "AD", "JS", "0D", "10H"], "p1": ["2D"]}),
                      [("5S", (0, 0), 0), ("AC", (5, 0), 0), ("0C", (10, 0), 0), ("10S", (15, 0), 0)])
    got = placements(state)
    assert ("5H", "5S", "profile") in got and ("6S", "5S", "profile") not in got
    assert ("AD", "AC", "face") in got and ("JS", "AC", "face") not in got
    assert ("0D", "0C", "profile") in got and ("10H", "10S", "profile") in got
    assert not {p for p in got if p[2] == "face" and p[1] != "AC"}  # numbers have no letter
    assert ("AD", "AC", "profile") not in got  # letters have no pips
    with pytest.raises(IllegalAction) as err:
        act(state, "p0", type="place", card="6S", on="5S", side="profile")
    assert err.value.code == "rocca.no_match"


@pytest.mark.parametrize("letter", ["A", "J", "Q", "K"])
def test_each_letter_matches_only_itself(letter: str) -> None:
    others = [x for x in "AJQK" if x != letter]
    state = raw_tower(make({"p0": [f"{letter}H"] + [f"{x}H" for x in others], "p1": ["2D"]}),
                      [(f"{letter}S", (0, 0), 0)])
    got = {p for p in placements(state) if p[2] == "face"}
    assert got == {(f"{letter}H", f"{letter}S", "face")}


# ---- jokers ---------------------------------------------------------------------------------------------------


def test_joker_only_on_a_head_and_names_a_suit_and_a_bend() -> None:
    state = make({"p0": ["X1", "9D"], "p1": ["2D", "3D"]})
    jokers = [a for a in legal_dicts(state, "p0") if a.get("card") == "X1"]
    assert {a["side"] for a in jokers} == {"head"}
    assert {(a["suit"], a["bend"]) for a in jokers} == {(s, b) for s in "SHDC" for b in ("left", "right")}
    for bad in ({}, {"suit": "H"}, {"bend": "left"}):
        with pytest.raises(IllegalAction):
            act(state, "p0", type="place", card="X1", on="5S", side="head", **bad)
    with pytest.raises(IllegalAction):
        act(state, "p0", type="place", card="X1", on="5S", side="profile", suit="H", bend="left")
    with pytest.raises(IllegalAction) as err:
        act(make({"p0": ["7S"], "p1": ["2D"]}), "p0", type="place", card="7S", on="5S", side="head", suit="H")
    assert err.value.code == "rocca.only_jokers_name_suits"


def test_a_joker_counts_as_its_named_suit_and_has_no_letter_or_number() -> None:
    state = make({"p0": ["X1", "9D"], "p1": ["2H", "2S", "X2"]})
    state, ev = act(state, "p0", type="place", card="X1", on="5S", side="head", suit="H", bend="right")
    assert "tower_bent" in types(ev) and ENG.view(state, None).model_dump()["restriction"]["joker"] == "X1"
    got = placements(state, "p1")
    assert ("2H", "X1", "head") in got and ("2S", "X1", "head") not in got
    assert ("X2", "X1", "head") in got  # a joker fits any head, a joker's too
    assert not {p for p in got if p[2] != "head"}


def test_after_a_joker_other_active_cards_are_frozen() -> None:
    # two columns: a (5S) and b (5H on 5S's profile); the joker goes on b's head
    state = build(make({"p0": ["X1", "9D"], "p1": ["7S", "2C", "8C", "8H"]}), ("5H", "5S", "profile"))
    state.turn = "p1"
    assert ("7S", "5S", "head") in placements(state, "p1")
    state.turn = "p0"
    state, _ = act(state, "p0", type="place", card="X1", on="5H", side="head", suit="C", bend="left")
    got = placements(state, "p1")
    assert not {p for p in got if p[1] == "5S"}  # column a frozen
    with pytest.raises(IllegalAction) as err:
        act(state, "p1", type="place", card="7S", on="5S", side="head")
    assert err.value.code == "rocca.frozen_by_joker"
    # what grows out of the joker's column stays playable: 8C on the joker, then 8H on 8C's profile
    state, _ = act(state, "p1", type="place", card="8C", on="X1", side="head")
    state.turn = "p1"
    state, _ = act(state, "p1", type="place", card="8H", on="8C", side="profile")
    view = ENG.view(state, None).model_dump()
    playable = {t["card"] for t in view["tower"] if t["playable"]}
    assert playable == {"8C", "8H"}
    assert {c["label"]: c["frozen"] for c in view["columns"]} == {"a": True, "b": False, "c": False}


def test_a_later_joker_moves_the_restriction_to_itself() -> None:
    state = build(make({"p0": ["X2", "9D"], "p1": ["2C", "2H"]}),
                  ("X1", "5S", "head", "H", "left"), ("7H", "X1", "head"), ("7D", "7H", "profile"))
    assert state.restricted == [0, 1]
    state, _ = act(state, "p0", type="place", card="X2", on="7D", side="head", suit="C", bend="right")
    assert state.restricted == [1] and state.joker == "X2"
    got = placements(state, "p1")
    assert {p[1] for p in got} == {"X2"}  # 7H (column a) is frozen now


# ---- drawing and the deck-out end ------------------------------------------------------------------------


def test_draw_instead_of_placing_ends_the_turn() -> None:
    state = make({"p0": ["7S"], "p1": ["2D"], "p2": ["3D"]}, deck=["4H", "9C"])
    assert {"type": "draw"} in legal_dicts(state, "p0")  # even when a card could be placed
    state, ev = act(state, "p0", type="draw")
    assert state.hands["p0"] == ["7S", "9C"] and state.turn == "p1"
    public = [e for e in ev if e.visible_to is None]
    assert public[0].data["count"] == 1 and "9C" not in str([e.data for e in public])
    assert [e.data["cards"] for e in ev if e.visible_to == ["p0"]] == [["9C"]]


def test_empty_pile_no_draw_and_stuck_players_go_out_in_order() -> None:
    state = make({"p0": ["7S", "9S"], "p1": ["2D"], "p2": ["3D", "4D"]}, deck=[])
    assert {"type": "draw"} not in legal_dicts(state, "p0")
    with pytest.raises(IllegalAction):
        act(state, "p0", type="draw")
    state, ev = act(state, "p0", type="place", card="7S", on="5S", side="head")
    assert [e.data["player"] for e in ev if e.type == "player_out"] == ["p1", "p2"]
    assert state.over and ENG.to_act(state) == []
    assert ENG.result(state).ranking == [["p0"], ["p2"], ["p1"]]  # last one in wins; reverse order of going out


def test_out_players_are_skipped_and_the_game_goes_on() -> None:
    state = make({"p0": ["7S", "9S", "2S"], "p1": ["2D"], "p2": ["3S", "4H"]}, deck=[])
    state, _ = act(state, "p0", type="place", card="7S", on="5S", side="head")
    assert state.out == ["p1"] and state.turn == "p2" and not state.over
    state, _ = act(state, "p2", type="place", card="3S", on="7S", side="head")
    assert state.turn == "p0"


# ---- "One" and the end ---------------------------------------------------------------------------------------


def test_one_is_declared_only_with_one_card_by_the_player_deciding() -> None:
    state = make({"p0": ["7S", "9S"], "p1": ["2D"], "p2": ["3D", "4D"]})
    assert {"type": "declare_one"} not in legal_dicts(state, "p0")
    with pytest.raises(NotYourTurn):
        act(state, "p1", type="declare_one")
    state, _ = act(state, "p0", type="place", card="7S", on="5S", side="head")
    state.turn = "p0"
    state, ev = act(state, "p0", type="declare_one")
    assert ev[0].type == "one_declared" and ev[0].visible_to is None and state.turn == "p0"
    assert {"type": "declare_one"} not in legal_dicts(state, "p0")  # once


def test_going_out_after_one_wins_and_the_others_rank_by_cards_left() -> None:
    state = make({"p0": ["7S"], "p1": ["2D", "3D"], "p2": ["4D", "6D"], "p3": ["8D"]})
    state, _ = act(state, "p0", type="declare_one")
    state, ev = act(state, "p0", type="place", card="7S", on="5S", side="head")
    assert "went_out" in types(ev) and state.over
    assert ENG.result(state).ranking == [["p0"], ["p3"], ["p1", "p2"]]
    assert ENG.result(state).scores == {"p0": 0, "p1": 2, "p2": 2, "p3": 1}


def test_going_out_without_one_places_the_card_draws_three_and_play_goes_on() -> None:
    state = make({"p0": ["7S"], "p1": ["2D"]}, deck=["2C", "3C", "4C", "6C"])
    state, ev = act(state, "p0", type="place", card="7S", on="5S", side="head")
    assert "one_missing" in types(ev) and not state.over
    assert tc(state, "7S").placer == "p0"
    assert sorted(state.hands["p0"]) == sorted(["6C", "4C", "3C"]) and state.turn == "p1"


def test_one_lapses_when_the_hand_grows() -> None:
    state = make({"p0": ["7H"], "p1": ["2D"]}, deck=["2C", "3C"])
    state, _ = act(state, "p0", type="declare_one")
    state, _ = act(state, "p0", type="draw")
    assert "p0" not in state.one_declared


def test_missing_one_with_an_empty_pile_puts_the_player_out() -> None:
    state = make({"p0": ["7S"], "p1": ["2S", "3D"], "p2": ["4S"]}, deck=[])
    state, _ = act(state, "p0", type="place", card="7S", on="5S", side="head")
    assert "p0" in state.out and not state.over and state.turn == "p1"


def test_a_winner_after_others_went_out_ranks_them_last_reverse_order() -> None:
    state = make({"p0": ["7S", "8S"], "p1": ["2D"], "p2": ["3S", "4H", "6H"], "p3": ["9D"]}, deck=[])
    state, _ = act(state, "p0", type="place", card="7S", on="5S", side="head")
    assert state.out == ["p1"] and state.turn == "p2"
    state, _ = act(state, "p2", type="place", card="3S", on="7S", side="head")
    assert state.out == ["p1", "p3"] and state.turn == "p0"
    state, _ = act(state, "p0", type="declare_one")
    state, ev = act(state, "p0", type="place", card="8S", on="3S", side="head")
    assert state.winner == "p0"
    assert ENG.result(state).ranking == [["p0"], ["p2"], ["p3"], ["p1"]]
    assert [e.data["ranking"] for e in ev if e.type == "game_over"] == [[["p0"], ["p2"], ["p3"], ["p1"]]]


def test_views_show_counts_and_only_the_own_hand() -> None:
    state = make({"p0": ["7S", "8S"], "p1": ["2D"], "p2": ["3S", "4H", "6H"]}, deck=["9C", "9H"])
    spectator = ENG.view(state, None).model_dump()
    assert "hand" not in spectator and spectator["hand_sizes"] == {"p0": 2, "p1": 1, "p2": 3}
    assert spectator["deck_size"] == 2 and spectator["turn"] == "p0" and spectator["pending"] is None
    assert "9C" not in str(spectator) and "7S" not in str(spectator)
    mine = ENG.view(state, "p2").model_dump()
    assert mine["hand"] == ["3S", "4H", "6H"] and "7S" not in str(mine)
