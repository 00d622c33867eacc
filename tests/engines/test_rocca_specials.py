"""Rocca special cards (0, A, J, K, Q with its counter-chain) and the optional Bon."""
from __future__ import annotations

import pytest

from engines.errors import IllegalAction, NotYourTurn
from engines.rocca import geometry as G
from engines.rocca.state import Column, TowerCard

from .test_rocca_support import ENG, act, build, legal_dicts, make, tc, types

THREE = {"p0": ["0S", "AS", "JS", "KS", "QS", "9D"], "p1": ["2D", "3D", "JH", "KH"], "p2": ["4D", "6D", "JD", "KD"]}


def fresh(**hands: list[str]):
    base = {p: list(h) for p, h in THREE.items()}
    base.update(hands)
    return make(base)


# ---- 0 and A ------------------------------------------------------------------------------------------------------


def test_zero_reverses_the_direction() -> None:
    state, ev = act(fresh(), "p0", type="place", card="0S", on="5S", side="head")
    assert "reversed" in types(ev) and state.direction == -1 and state.turn == "p2"


def test_zero_has_no_effect_with_two_players() -> None:
    state = make({"p0": ["0S", "9D"], "p1": ["2D"]})
    state, ev = act(state, "p0", type="place", card="0S", on="5S", side="head")
    assert "reversed" not in types(ev) and state.direction == 1 and state.turn == "p1"


def test_ace_plays_again() -> None:
    state, ev = act(fresh(), "p0", type="place", card="AS", on="5S", side="head")
    assert "again" in types(ev) and state.turn == "p0" and ENG.to_act(state) == ["p0"]


# ---- J and K chains ---------------------------------------------------------------------------------------------


def test_jack_next_player_draws_one_and_loses_the_turn() -> None:
    state, _ = act(fresh(), "p0", type="place", card="JS", on="5S", side="head")
    assert ENG.to_act(state) == ["p1"]
    assert ENG.view(state, None).model_dump()["pending"] == {
        "kind": "draw_chain", "player": "p1", "rank": "J", "count": 1, "card": "JS", "by": "p0"}
    assert {"type": "accept"} in legal_dicts(state, "p1")
    state, _ = act(state, "p1", type="accept")
    assert len(state.hands["p1"]) == 5 and state.turn == "p2" and state.pending is None


def test_jack_chain_grows_by_one_on_the_face() -> None:
    state, _ = act(fresh(), "p0", type="place", card="JS", on="5S", side="head")
    assert {"type": "place", "card": "JH", "on": "JS", "side": "face"} in legal_dicts(state, "p1")
    with pytest.raises(IllegalAction):  # a K does not answer a J
        act(state, "p1", type="place", card="KH", on="JS", side="face")
    with pytest.raises(IllegalAction):  # nor does anything but the chain: no ordinary turn
        act(state, "p1", type="place", card="2D", on="5S", side="head")
    state, _ = act(state, "p1", type="place", card="JH", on="JS", side="face")
    assert tc(state, "JH").on == "JS" and tc(state, "JH").side == "face"
    assert ENG.to_act(state) == ["p2"] and state.pending.count == 2
    state, _ = act(state, "p2", type="place", card="JD", on="JH", side="face")
    assert ENG.to_act(state) == ["p0"] and state.pending.count == 3
    state, _ = act(state, "p0", type="accept")
    assert len(state.hands["p0"]) == 5 + 3 and state.turn == "p1"  # p0 drew 3, lost the turn


def test_king_chain_two_per_king() -> None:
    state, ev = act(fresh(), "p0", type="place", card="KS", on="5S", side="head")
    assert state.pending.count == 2 and ev[-1].data == {"rank": "K", "count": 2, "target": "p1", "by": "p0"}
    state, _ = act(state, "p1", type="place", card="KH", on="KS", side="face")
    assert state.pending.count == 4 and state.pending.player == "p2"
    state, _ = act(state, "p2", type="place", card="KD", on="KH", side="face")
    assert state.pending.count == 6
    before = len(state.hands["p0"])
    state, _ = act(state, "p0", type="accept")
    assert len(state.hands["p0"]) == before + 6


def test_no_counter_when_the_face_is_not_free() -> None:
    state, _ = act(fresh(), "p0", type="place", card="JS", on="5S", side="head")
    j = tc(state, "JS")
    # a later card on the J's neighbour D[2] covers triangles 1 and 2: the face is half-blocked
    state.tower.append(TowerCard(card="9C", centre=G.add(j.centre, G.D[2]), orientation=0, column=1, height=1))
    state.columns.append(Column(cards=["9C"]))
    assert ENG.view(state, None).model_dump()["tower"][1]["sides"]["face"] == "half"
    assert legal_dicts(state, "p1") == [{"type": "accept"}]
    with pytest.raises(IllegalAction):
        act(state, "p1", type="place", card="JH", on="JS", side="face")


def test_short_pile_draws_what_is_left() -> None:
    state = fresh()
    state.deck = ["2C"]
    state, _ = act(state, "p0", type="place", card="KS", on="5S", side="head")
    state, ev = act(state, "p1", type="accept")
    assert ev[0].data["count"] == 1 and ev[0].data["wanted"] == 2 and state.deck == []


# ---- Q pass and its counter-chain --------------------------------------------------------------------------------


def q_state():
    return make({"p0": ["QS", "7H", "8H"], "p1": ["2D", "3D"], "p2": ["QD", "4C", "6C", "QC"]})


def test_queen_gives_one_card_to_a_player_of_choice() -> None:
    state, _ = act(q_state(), "p0", type="place", card="QS", on="5S", side="head")
    assert ENG.to_act(state) == ["p0"]
    gives = legal_dicts(state, "p0")
    assert {(g["card"], g["to"]) for g in gives} == {(c, p) for c in ("7H", "8H") for p in ("p1", "p2")}
    state, ev = act(state, "p0", type="give", card="7H", to="p2")
    assert "7H" in state.hands["p2"] and "7H" not in state.hands["p0"]
    public = [e for e in ev if e.visible_to is None]
    assert [e.type for e in public] == ["q_pass"] and public[0].data == {"giver": "p0", "receiver": "p2", "count": 1}
    private = [e for e in ev if e.visible_to is not None]
    assert private[0].visible_to == ["p0", "p2"] and private[0].data["card"] == "7H"
    assert ENG.view(state, "p0").known == {"p2": ["7H"]}  # the giver remembers what it gave, nobody else sees it
    assert "7H" not in ENG.view(state, "p1").model_dump_json() and "7H" not in ENG.view(state, None).model_dump_json()
    assert ENG.view(state, None).pending.kind == "q_answer"
    assert ENG.to_act(state) == ["p2"]


def test_receiver_accepts_and_play_goes_on_after_the_giver() -> None:
    state, _ = act(q_state(), "p0", type="place", card="QS", on="5S", side="head")
    state, _ = act(state, "p0", type="give", card="7H", to="p2")
    state, _ = act(state, "p2", type="accept")
    assert state.turn == "p1" and state.pending is None


def test_queen_counter_chain_one_two_three_then_play_after_the_last_queen() -> None:
    state = make({"p0": ["QS", "QH", "7H", "8H", "9H"], "p1": ["2D", "3D"], "p2": ["QD", "4C", "6C"]})
    state, _ = act(state, "p0", type="place", card="QS", on="5S", side="head")
    state, _ = act(state, "p0", type="give", card="7H", to="p2")
    counters = [a for a in legal_dicts(state, "p2") if a["type"] == "place"]
    assert counters == [{"type": "place", "card": "QD", "on": "QS", "side": "face"}]
    state, ev = act(state, "p2", type="place", card="QD", on="QS", side="face")
    assert ev[-1].type == "q_countered" and ENG.to_act(state) == ["p2"]
    assert {g["to"] for g in legal_dicts(state, "p2")} == {"p0"}  # give-backs go to the giver
    state, _ = act(state, "p2", type="give", card="4C", to="p0")
    assert state.pending.given == 1 and ENG.to_act(state) == ["p2"]
    state, ev = act(state, "p2", type="give", card="6C", to="p0")
    assert [e.data for e in ev if e.type == "q_pass"] == [{"giver": "p2", "receiver": "p0", "count": 2}]
    assert state.pending.kind == "q_answer" and state.pending.player == "p0" and state.pending.count == 3
    state, _ = act(state, "p0", type="place", card="QH", on="QD", side="face")
    for card in ("8H", "9H", "4C"):
        state, ev = act(state, "p0", type="give", card=card, to="p2")
    assert [e.data["count"] for e in ev if e.type == "q_pass"] == [3]
    assert state.pending.player == "p2" and legal_dicts(state, "p2") == [{"type": "accept"}]
    state, _ = act(state, "p2", type="accept")
    assert state.turn == "p1"  # the player after p0, who placed the last Q
    assert sorted(state.hands["p0"]) == sorted(["6C"]) and len(state.hands["p2"]) == 4
    # each remembers what it gave and the other still holds; 4C came back to p0, so p2 no longer counts it
    assert ENG.view(state, "p0").known == {"p2": ["7H", "8H", "9H", "4C"]}
    assert ENG.view(state, "p2").known == {"p0": ["6C"]} and ENG.view(state, "p1").known == {}


def test_what_a_queen_pass_told_is_forgotten_once_the_card_is_shown_or_may_have_moved_on() -> None:
    state = make({"p0": ["QS", "6S", "7H", "9D"], "p1": ["QH", "2D", "3D"], "p2": ["4C", "6C", "7C"]})
    state, _ = act(state, "p0", type="place", card="QS", on="5S", side="head")
    state, _ = act(state, "p0", type="give", card="6S", to="p1")
    state, _ = act(state, "p1", type="accept")
    assert ENG.view(state, "p0").known == {"p1": ["6S"]} and state.turn == "p1"
    state, _ = act(state, "p1", type="place", card="6S", on="QS", side="head")  # placed: everyone sees it
    assert ENG.view(state, "p0").known == {}
    state = make({"p0": ["QS", "6S", "7H", "9D"], "p1": ["QH", "2D", "3D"], "p2": ["4C", "6C", "7C"]})
    state, _ = act(state, "p0", type="place", card="QS", on="5S", side="head")
    state, _ = act(state, "p0", type="give", card="7H", to="p1")
    state, _ = act(state, "p1", type="accept")
    queen = next(a for a in legal_dicts(state, "p1") if a["type"] == "place" and a["card"] == "QH")
    state, _ = act(state, "p1", **queen)
    state, _ = act(state, "p1", type="give", card="2D", to="p2")
    # p0 saw p1 pass one card to p2, not which: 7H may have gone, so p0 no longer claims to know it
    assert ENG.view(state, "p0").known == {} and ENG.view(state, "p2").known == {}
    assert ENG.view(state, "p1").known == {"p2": ["2D"]} and "7H" in state.hands["p1"]


def test_queen_counter_needs_the_cards_to_give_back() -> None:
    state = make({"p0": ["QS", "7H", "8H"], "p1": ["2D"], "p2": ["QD", "4C"]})
    state, _ = act(state, "p0", type="place", card="QS", on="5S", side="head")
    state, _ = act(state, "p0", type="give", card="7H", to="p1")
    assert legal_dicts(state, "p1") == [{"type": "accept"}]  # no Q
    state = make({"p0": ["QS", "7H", "8H"], "p1": ["2D"], "p2": ["QD"]})
    state, _ = act(state, "p0", type="place", card="QS", on="5S", side="head")
    state, _ = act(state, "p0", type="give", card="7H", to="p2")
    assert legal_dicts(state, "p2") == [{"type": "accept"}]  # Q + 1 card: cannot give 2 back


def test_queen_as_the_last_card_after_one_wins_without_a_pass() -> None:
    state = make({"p0": ["QS"], "p1": ["2D"]})
    state, _ = act(state, "p0", type="declare_one")
    state, _ = act(state, "p0", type="place", card="QS", on="5S", side="head")
    assert state.over and state.winner == "p0"


def test_giving_the_last_card_away_is_going_out() -> None:
    state = make({"p0": ["QS", "7H"], "p1": ["2D"]})
    state, _ = act(state, "p0", type="place", card="QS", on="5S", side="head")
    assert {"type": "declare_one"} in legal_dicts(state, "p0")
    state, _ = act(state, "p0", type="declare_one")
    state, _ = act(state, "p0", type="give", card="7H", to="p1")
    assert state.over and state.winner == "p0"
    state = make({"p0": ["QS", "7H"], "p1": ["2D"]}, deck=["2C", "3C", "4C"])
    state, _ = act(state, "p0", type="place", card="QS", on="5S", side="head")
    state, ev = act(state, "p0", type="give", card="7H", to="p1")
    assert "one_missing" in types(ev) and len(state.hands["p0"]) == 3 and state.pending.player == "p1"


# ---- Bon ------------------------------------------------------------------------------------------------------------


def bon_state(bon: bool = True):
    return make({"p0": ["7S", "9D"], "p1": ["2D", "3D"], "p2": ["5H", "5D", "5C", "8C"]}, bon=bon)


def test_no_bon_without_the_option() -> None:
    state = bon_state(bon=False)
    assert ENG.to_act(state) == ["p0"] and not [a for a in legal_dicts(state, "p0") if a["type"] == "bon"]


def test_bon_out_of_turn_places_a_chain_and_play_goes_on_after_the_caller() -> None:
    state = bon_state()
    assert ENG.to_act(state) == ["p0"]  # Bon callers are not named: that would tell who holds the cards
    assert ENG.out_of_turn_actions(state, "p1") == [] and ENG.out_of_turn_actions(state, "p0") == []
    assert [a.model_dump(mode="json") for a in ENG.out_of_turn_actions(state, "p2")] == legal_dicts(state, "p2")
    bons = legal_dicts(state, "p2")
    assert {tuple(b["cards"]) for b in bons} == {("5H", "5D"), ("5H", "5C"), ("5D", "5C"), ("5H", "5D", "5C")}
    assert all(b["type"] == "bon" and b["on"] == "5S" for b in bons)
    state, ev = act(state, "p2", type="bon", on="5S", cards=["5H", "5D", "5C"])
    assert ev[0].type == "bon" and ev[0].data["labels"] == ["b1", "c1", "d1"] and ev[0].data["interrupted"] == "p0"
    assert tc(state, "5H").on == "5S" and tc(state, "5D").on == "5H" and tc(state, "5C").on == "5D"
    assert {tc(state, c).side for c in ("5H", "5D", "5C")} == {"profile"}
    assert state.hands["p2"] == ["8C"] and state.turn == "p0"  # the player after p2


def test_bon_refuses_other_orders_and_other_cards() -> None:
    state = bon_state()
    # Out of turn only the listed Bon actions are accepted (base.apply refuses the rest as not your turn).
    with pytest.raises(NotYourTurn):
        act(state, "p2", type="bon", on="5S", cards=["5D", "5H"])  # not in suit order
    with pytest.raises(NotYourTurn):
        act(state, "p2", type="bon", on="5S", cards=["5H", "8C"])
    with pytest.raises(NotYourTurn):  # out of turn, only Bon
        act(state, "p2", type="place", card="5H", on="5S", side="profile")
    # The turn player's own Bon goes through the engine's check.
    state = make({"p0": ["5H", "5D", "9C"], "p1": ["2D"], "p2": ["3D"]}, bon=True)
    with pytest.raises(IllegalAction):
        act(state, "p0", type="bon", on="5S", cards=["5D", "5H"])


def test_bon_special_cards_count_once() -> None:
    state = make({"p0": ["7S", "9D"], "p1": ["2D"], "p2": ["JH", "JD", "8C"]}, bon=True)
    state = build(state, ("JS", "5S", "head"), player="p1")
    state, _ = act(state, "p2", type="bon", on="JS", cards=["JH", "JD"])
    assert state.pending.kind == "draw_chain" and state.pending.count == 1 and state.pending.player == "p0"
    assert {tc(state, c).side for c in ("JH", "JD")} == {"face"}


def test_bon_ace_gives_the_caller_another_turn_and_zero_reverses_once() -> None:
    state = build(make({"p0": ["7S"], "p1": ["2D"], "p2": ["AH", "AD", "8C"]}, bon=True), ("AS", "5S", "head"))
    state, ev = act(state, "p2", type="bon", on="AS", cards=["AH", "AD"])
    assert state.turn == "p2"
    state = build(make({"p0": ["7S"], "p1": ["2D"], "p2": ["0H", "0D", "8C"], "p3": ["9C"]}, bon=True),
                  ("0S", "5S", "head"))
    state, ev = act(state, "p2", type="bon", on="0S", cards=["0H", "0D"])
    assert types(ev).count("reversed") == 1 and state.turn == "p1"


def test_no_bon_on_a_card_the_caller_just_placed() -> None:
    state = make({"p0": ["7S", "7H", "7D", "9S"], "p1": ["2D"], "p2": ["3D"]}, bon=True)
    state, _ = act(state, "p0", type="place", card="7S", on="5S", side="head")
    assert ENG.to_act(state) == ["p1"] and ENG.out_of_turn_actions(state, "p0") == []  # not on its own 7S
    state = make({"p0": ["7S", "9S"], "p1": ["2D"], "p2": ["7H", "7D", "3D"]}, bon=True)
    state, _ = act(state, "p0", type="place", card="7S", on="5S", side="head")
    assert ENG.to_act(state) == ["p1"] and ENG.out_of_turn_actions(state, "p2")  # another player may


def test_bon_that_empties_the_hand_wins_without_one() -> None:
    state = make({"p0": ["7S"], "p1": ["2D"], "p2": ["5H", "5D"]}, bon=True)
    state, _ = act(state, "p2", type="bon", on="5S", cards=["5H", "5D"])
    assert state.over and state.winner == "p2"


def test_no_bon_during_a_chain_or_on_a_frozen_column() -> None:
    state = make({"p0": ["JS", "9D"], "p1": ["2D"], "p2": ["5H", "5D"]}, bon=True)
    state, _ = act(state, "p0", type="place", card="JS", on="5S", side="head")
    assert ENG.to_act(state) == ["p1"] and ENG.out_of_turn_actions(state, "p2") == []
    state = make({"p0": ["X1", "9D"], "p1": ["2D"], "p2": ["5H", "5D"]}, bon=True)
    state = build(state, ("6S", "5S", "profile"))
    state.columns[0].cards.append("5S")  # keep 5S active in column a
    state, _ = act(state, "p0", type="place", card="X1", on="6S", side="head", suit="S", bend="left")
    assert "p2" not in ENG.to_act(state) and ENG.out_of_turn_actions(state, "p2") == []


def test_the_turn_player_may_bon_too() -> None:
    state = make({"p0": ["5H", "5D", "9C"], "p1": ["2D"], "p2": ["3D"]}, bon=True)
    assert {"type": "bon", "on": "5S", "cards": ["5H", "5D"]} in legal_dicts(state, "p0")


def test_bon_out_of_turn_is_accepted_from_a_player_not_in_to_act_and_nobody_else() -> None:
    state = bon_state()
    assert "p2" not in ENG.to_act(state)
    with pytest.raises(NotYourTurn):  # p1 holds no pair: nothing out of turn
        act(state, "p1", type="bon", on="5S", cards=["2D", "3D"])
    with pytest.raises(NotYourTurn):  # only Bon out of turn, even for a player who could call one
        act(state, "p2", type="draw")
    state2, ev = act(state, "p2", type="bon", on="5S", cards=["5H", "5D"])
    assert ev[0].type == "bon" and state2.turn == "p0"


def test_the_view_never_names_bon_callers() -> None:
    state = bon_state()
    for viewer in (None, "p0", "p1"):
        assert ENG.view(state, viewer).to_act == ["p0"]



# ---- what the table saw a player pass up ----------------------------------------------------------------------


def test_a_draw_instead_of_placing_is_public_with_the_cards_received_since() -> None:
    state, _ = act(fresh(p0=["9D", "2C"], p1=["JS", "2D"], p2=["JD", "4D"]), "p0", type="draw")
    shown = {"tower": 1, "card": None, "since": 1}
    assert [d.model_dump() for d in state.declined["p0"]] == [shown]
    assert all(ENG.view(state, v).model_dump()["declined"] == {"p0": [shown]} for v in ("p0", "p1", None))
    state, _ = act(state, "p1", type="place", card="JS", on="5S", side="head")
    state, _ = act(state, "p2", type="place", card="JD", on="JS", side="face")
    state, _ = act(state, "p0", type="accept")  # no J to counter with: draws 2 (the chain's card is JD)
    assert [d.model_dump() for d in state.declined["p0"]] == [
        {"tower": 1, "card": None, "since": 3}, {"tower": 3, "card": "JD", "since": 2}]
    assert set(state.declined) == {"p0"}  # placing is not passing up
    for _ in range(3):
        state, _ = act(state, state.turn, type="draw")
    assert [d.tower for d in state.declined["p0"]] == [1, 3, 3] and len(state.declined["p1"]) == 1


def test_the_last_three_times_are_kept() -> None:
    pile = ["2H", "3H", "4H", "6H", "7H", "8H", "9H", "10H", "3C", "4C", "6C", "8C", "9C"]
    state = make({"p0": ["9D", "2C"], "p1": ["2D"], "p2": ["4D"]}, deck=pile)
    for _ in range(12):  # four rounds of draws: the oldest of p0's four is dropped
        state, _ = act(state, state.turn, type="draw")
    assert [d.since for d in state.declined["p0"]] == [3, 2, 1]


def test_cards_received_with_a_queen_count_as_received_since() -> None:
    state = q_state()
    for player in ("p0", "p1", "p2"):
        state, _ = act(state, player, type="draw")
    assert state.declined["p2"][0].since == 1
    state, _ = act(state, "p0", type="place", card="QS", on="5S", side="head")
    state, _ = act(state, "p0", type="give", card="7H", to="p2")
    assert state.declined["p2"][0].since == 2 and state.declined["p0"][0].since == 1
