"""One scenario per tournament-variant decision (per-seat streams, engines/streams.py): Pile up [D5], Rocca [D9],
Akuma Trick [D8] and Diamond Box [D6] of docs/rules/<game>.md."""
from __future__ import annotations

import pytest

from engines import get_engine
from engines.akuma import Play, Steal
from engines.errors import IllegalAction
from engines.streams import Streams

from .test_pileup_support import play
from .test_rocca_support import act, legal_dicts, make

PER_SEAT = {"streams": Streams.PER_SEAT.value}
PILEUP, ROCCA, AKUMA = get_engine("pileup"), get_engine("rocca"), get_engine("akuma")


@pytest.mark.parametrize("players", [2, 3, 5])
def test_pileup_d5_the_rest_of_the_deal_is_cut_into_every_seats_own_pile(players: int) -> None:
    names = [f"p{i}" for i in range(players)]
    shared = PILEUP.new_game(names, seed=4)
    per_seat = PILEUP.new_game(names, seed=4, options=PER_SEAT)
    assert per_seat.hands == shared.hands and per_seat.draw_pile == []  # the original's deal, no shared pile
    assert per_seat.own is not None and shared.own is None
    assert {p: own.pile for p, own in per_seat.own.items()} == {p: shared.draw_pile[i::players]
                                                                 for i, p in enumerate(names)}
    sizes = [len(own.pile) for own in per_seat.own.values()]
    assert max(sizes) - min(sizes) <= 1 and sizes == sorted(sizes, reverse=True)  # the first seats get the extra
    assert PILEUP.view(per_seat, None).draw_pile == len(shared.draw_pile)
    assert [seat.pile for seat in PILEUP.view(per_seat, "p0").seats] == sizes


def test_pileup_d5_a_refill_takes_the_players_own_pile_only_and_an_empty_one_refills_nothing() -> None:
    state = PILEUP.new_game(["a", "b", "c"], seed=2, options=PER_SEAT)
    assert state.own is not None
    state.hands = {"a": ["R1a", "R2a"], "b": ["B1a"], "c": ["G1a"]}
    state.own["a"].pile, state.own["b"].pile, state.own["c"].pile = ["Y5a"], ["Y6a", "Y6b"], []
    state.phase, state.dice = "play", [1, 4, 4]  # type: ignore[assignment]
    after, events = PILEUP.apply(state, "a", play("R1a"))
    assert after.own is not None and after.hands["a"] == ["R2a", "Y5a"] and after.own["a"].pile == []
    assert after.own["b"].pile == ["Y6a", "Y6b"]  # not b's turn: b's own pile untouched
    refilled = next(ev for ev in events if ev.type == "refilled")
    assert refilled.data == {"player": "a", "count": 1, "hand_size": 2, "own_pile": 0}
    assert next(ev for ev in events if ev.type == "drew").visible_to == ["a"]
    assert after.phase == "roll" and not PILEUP.view(after, None).over  # others still hold cards and piles
    # c's own pile is empty: after c plays its last card, nothing refills c's hand, the game goes on
    after.turn, after.phase, after.dice = 2, "play", [1, 2, 3]  # type: ignore[assignment]
    last, events = PILEUP.apply(after, "c", play("G1a"))
    assert last.hands["c"] == [] and next(ev for ev in events if ev.type == "refilled").data["count"] == 0
    assert last.phase == "roll" and PILEUP.result(last) is None


def test_pileup_d5_the_game_ends_when_every_own_pile_and_every_hand_is_empty() -> None:
    state = PILEUP.new_game(["a", "b"], seed=2, options=PER_SEAT)
    assert state.own is not None
    state.hands = {"a": ["R1a"], "b": []}
    state.own["a"].pile, state.own["b"].pile = [], []
    state.phase, state.dice = "play", [1, 2, 3]  # type: ignore[assignment]
    over, events = PILEUP.apply(state, "a", play("R1a"))
    assert over.phase == "over" and events[-1].type == "game_over"
    state.own["a"].pile = ["Y6a"]  # one card left in a's own pile: a refills it, not over
    going, _ = PILEUP.apply(state, "a", play("R1a"))
    assert going.phase == "roll" and going.hands["a"] == ["Y6a"] and PILEUP.to_act(going) == ["a"]


def test_pileup_d5_each_seat_rolls_its_own_dice() -> None:
    state = PILEUP.new_game(["a", "b", "c"], seed=5, options=PER_SEAT)
    assert state.own is not None
    before = {p: (own.dice.state, own.deflect.state) for p, own in state.own.items()}
    rng_before = state.rng.state
    after, _ = PILEUP.apply(state, "a", {"type": "roll"})
    assert after.own is not None
    assert after.own["a"].dice.state != before["a"][0] and after.own["a"].deflect.state == before["a"][1]
    assert all((after.own[p].dice.state, after.own[p].deflect.state) == before[p] for p in ("b", "c"))
    assert after.rng.state == rng_before  # the game's own RNG is not used after the deal


def rocca_per_seat(hands: dict[str, list[str]], own: dict[str, list[str]], turn: str | None = None):
    state = make(hands, deck=[], turn=turn)
    state.options = {**state.options, "streams": "per_seat"}
    state.own = {p: list(own.get(p, [])) for p in hands}
    return state


def test_rocca_d9_the_pile_is_dealt_out_as_every_seats_own_and_draws_come_from_it() -> None:
    names = ["a", "b", "c"]
    shared = ROCCA.new_game(names, seed=6)
    per_seat = ROCCA.new_game(names, seed=6, options=PER_SEAT)
    assert per_seat.hands == shared.hands and per_seat.tower == shared.tower and per_seat.deck == []
    assert per_seat.own is not None
    in_draw_order = shared.deck[::-1]
    assert {p: pile[::-1] for p, pile in per_seat.own.items()} == {p: in_draw_order[i::3] for i, p in enumerate(names)}
    drawer = per_seat.turn
    top = per_seat.own[drawer][-1]
    after, events = ROCCA.apply(per_seat, drawer, {"type": "draw"})
    assert after.own is not None and top in after.hands[drawer] and after.own[drawer] == per_seat.own[drawer][:-1]
    assert all(after.own[p] == per_seat.own[p] for p in names if p != drawer)
    assert next(ev for ev in events if ev.type == "drew").data["own_pile"] == len(after.own[drawer])


def test_rocca_d9_an_empty_own_pile_cannot_be_drawn_from_and_then_a_player_who_cannot_place_is_out() -> None:
    state = rocca_per_seat({"a": ["7H", "2D"], "b": ["9C", "3C"], "c": ["4H", "6H"]},
                           {"a": [], "b": ["8D"], "c": ["10D"]}, turn="a")
    assert {"type": "draw"} not in legal_dicts(state, "a")
    with pytest.raises(IllegalAction) as refused:
        ROCCA.apply(state, "a", {"type": "draw"})
    assert refused.value.code == "rocca.own_pile_empty"
    # b cannot place on the 5♠ either but still has its own pile: it draws; a, with none, would be out on its turn
    state.turn = "b"
    after, events = act(state, "b", type="draw")
    assert "8D" in after.hands["b"] and after.out == []
    state = rocca_per_seat({"a": ["7H", "2D"], "b": ["9C", "3C"], "c": ["4H", "6H"]},
                           {"a": [], "b": ["8D"], "c": ["10D"]}, turn="c")
    after, events = act(state, "c", type="draw")  # c draws; the turn passes to a, who can neither place nor draw
    assert after.out == ["a"] and after.turn == "b"
    out = next(ev for ev in events if ev.type == "player_out")
    assert out.data == {"player": "a", "cards_left": 2, "own_pile": 0}


def test_akuma_d8_a_steal_draws_from_the_thiefs_own_stream() -> None:
    state = AKUMA.new_game(["p0", "p1", "p2"], seed=3, options=PER_SEAT)
    assert state.own is not None
    state.hands = {"p0": ["Y2", "Y9"], "p1": ["P1", "G3", "G7"], "p2": ["G2", "Y7", "Y8"]}
    state.current = state.trick_starter = "p0"
    streams = {p: rng.state for p, rng in state.own.items()}
    rng_before = state.rng.state
    state, _ = AKUMA.apply(state, "p0", Play(cards=["Y2"]))
    after, _ = AKUMA.apply(state, "p0", Steal(victim="p1"))
    assert after.own is not None and after.own["p0"].state != streams["p0"]
    assert after.own["p1"].state == streams["p1"] and after.own["p2"].state == streams["p2"]
    assert after.rng.state == rng_before
    assert AKUMA.new_game(["p0", "p1", "p2"], seed=3).own is None
