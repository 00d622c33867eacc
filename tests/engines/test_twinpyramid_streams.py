"""Twin Pyramid's tournament variant, per-seat streams (``streams: per_seat``, Decision [D19] of
docs/rules/twinpyramid.md): one scenario per thing it changes."""
from __future__ import annotations

import json
import random

import pytest

from engines.rng import Rng
from engines.streams import Streams
from engines.twinpyramid.state import OwnPile, TwinPyramidState

from .test_twinpyramid_support import ENG, act, assert_conserved, event, legal, make, types

PER_SEAT = {"streams": Streams.PER_SEAT.value}


def own_piles(state: TwinPyramidState) -> dict[str, list[str]]:
    assert state.own is not None
    return {p: list(own.pile) for p, own in state.own.items()}


@pytest.mark.parametrize("players", [2, 3, 6])
def test_d19_the_deal_is_the_originals_and_its_rest_is_cut_from_the_start_player(players: int) -> None:
    names = [f"p{i}" for i in range(players)]
    shared = ENG.new_game(names, seed=5)
    per_seat = ENG.new_game(names, seed=5, options=PER_SEAT)
    assert per_seat.seats == shared.seats and per_seat.discard == shared.discard and per_seat.start == shared.start
    assert per_seat.draw == [] and shared.own is None
    order = [shared.player_at(shared.start + i) for i in range(players)]
    top_first = shared.draw[::-1]
    assert {p: pile[::-1] for p, pile in own_piles(per_seat).items()} == {
        p: top_first[i::players] for i, p in enumerate(order)}  # the top card to the start player, and round
    sizes = [len(own_piles(per_seat)[p]) for p in order]
    assert max(sizes) - min(sizes) <= 1 and sizes == sorted(sizes, reverse=True)
    view = ENG.view(per_seat, None)
    assert view.draw_count == len(shared.draw)
    assert {seat.player: seat.pile for seat in view.table} == {p: len(c) for p, c in own_piles(per_seat).items()}
    assert all(seat.pile is None for seat in ENG.view(shared, None).table)
    assert_conserved(per_seat)


def test_d19_a_shared_games_options_state_and_view_dump_as_before() -> None:
    shared = ENG.new_game(["a", "b", "c"], seed=3, options={"streams": "shared"})
    dumped = json.loads(ENG.dump(shared))
    assert "streams" not in dumped["options"] and "own" not in dumped
    assert all("pile" not in seat for seat in ENG.view(shared, "a").model_dump(mode="json")["table"])
    per_seat = json.loads(ENG.dump(ENG.new_game(["a", "b", "c"], seed=3, options=PER_SEAT)))
    assert per_seat["options"]["streams"] == "per_seat" and set(per_seat["own"]) == {"a", "b", "c"}


def per_seat_state(n: int = 3, **kw: object) -> TwinPyramidState:
    """``make``'s mid-deal state with per-seat piles: ``piles[p]`` the next cards p draws, first first."""
    piles: dict[str, list[str]] = kw.pop("piles")  # type: ignore[assignment]
    state = make(n, options=PER_SEAT, draw=[c for pile in piles.values() for c in pile], fill_draw=False,
                 **kw)  # type: ignore[arg-type]
    state.draw = []
    state.own = {p: OwnPile(pile=pile[::-1], rng=Rng(state=100 + i)) for i, (p, pile) in enumerate(piles.items())}
    return state


def test_d19_a_draw_comes_from_the_drawers_own_pile_only() -> None:
    s = per_seat_state(hands={"p0": {"held": ["4D"]}}, top="5C", piles={"p0": ["9S"], "p1": ["KS"], "p2": ["JD"]})
    s, _ = act(s, "p0", {"type": "draw"})
    assert s.seats["p0"].held == ["4D", "9S"]
    assert own_piles(s) == {"p0": [], "p1": ["KS"], "p2": ["JD"]}


def test_d19_an_empty_own_pile_is_rebuilt_from_the_shared_discard_with_the_seats_own_rng() -> None:
    s = per_seat_state(hands={"p0": {"held": ["4D"]}}, top="5C", under=["7H", "8H", "9H"],
                       piles={"p0": [], "p1": ["KS"], "p2": ["JD"]})
    game_rng, others = s.rng.state, {p: s.own[p].rng.state for p in ("p1", "p2")}  # type: ignore[index]
    expected = ["7H", "8H", "9H"]
    Rng(state=s.own["p0"].rng.state).shuffle(expected)  # type: ignore[index]
    s, events = act(s, "p0", {"type": "draw"})
    assert event(events, "reshuffled").data == {"player": "p0", "own_pile": 3}  # rebuilt, then drawn
    assert s.discard == ["5C"] and s.seats["p0"].held == ["4D", expected[-1]]
    assert own_piles(s) == {"p0": expected[:-1], "p1": ["KS"], "p2": ["JD"]}
    assert s.rng.state == game_rng and {p: s.own[p].rng.state for p in ("p1", "p2")} == others  # type: ignore[index]


def test_d19_a_seat_with_no_card_to_reach_may_not_draw_while_another_may() -> None:
    s = per_seat_state(hands={"p0": {"held": ["4D"]}, "p1": {"held": ["6D"]}}, top="5C",
                       piles={"p0": [], "p1": ["KS"], "p2": []})
    assert "draw" not in [a["type"] for a in legal(s, "p0")]
    s.current = 1
    assert "draw" in [a["type"] for a in legal(s, "p1")]


def test_d19_a_three_shows_and_orders_its_players_own_pile_and_the_others_draw_from_theirs() -> None:
    s = per_seat_state(hands={"p0": {"held": ["3H", "4D"]}}, top="5H",
                       piles={"p0": ["9C", "JD", "KS", "2C"], "p1": ["QH"], "p2": ["8S"]})
    s, events = act(s, "p0", {"type": "play", "card": "3H"})
    assert event(events, "three_seen").data["cards"] == ["9C", "JD", "KS"]
    assert ENG.view(s, "p0").peek == ["9C", "JD", "KS"] and ENG.view(s, "p1").peek is None
    s, _ = act(s, "p0", {"type": "order_three", "order": ["KS", "9C", "JD"]})
    assert own_piles(s)["p0"] == ["2C", "JD", "9C", "KS"]  # the top the last
    s, _ = act(s, "p1", {"type": "forced_draw"})
    s, _ = act(s, "p2", {"type": "forced_draw"})
    assert s.seats["p1"].held == ["QH"] and s.seats["p2"].held == ["8S"] and s.seats["p0"].held == ["4D", "KS"]
    assert own_piles(s) == {"p0": ["2C", "JD", "9C"], "p1": [], "p2": []}
    assert ENG.view(s, "p0").peek is None  # the 3 is over


def second_deals(options: dict[str, object]) -> list[tuple[object, ...]]:
    """The second deal (hands, discard, own piles) after three different random walks through the first."""
    seconds: list[tuple[object, ...]] = []
    for walk in range(3):
        state = ENG.new_game(["a", "b"], seed=9, options={**options, "deals": 2})
        rnd = random.Random(walk)
        while state.deal == 0:
            player = ENG.to_act(state)[0]
            state, events = ENG.apply(state, player, rnd.choice(ENG.legal_actions(state, player)))
        assert "deal_started" in types(events)
        assert_conserved(state)
        seconds.append(({p: s.held for p, s in state.seats.items()}, state.discard,
                        None if state.own is None else own_piles(state)))
    return seconds


def test_d19_every_deal_deals_new_own_piles_and_the_next_deal_does_not_depend_on_the_play() -> None:
    """The game's RNG shuffles only the decks (the seats' own RNGs shuffle the rebuilt piles): the second deal is
    the same whatever was played in the first; with the shared pile a reshuffle in the first deal shifts it."""
    per_seat = second_deals(PER_SEAT)
    assert per_seat[0] == per_seat[1] == per_seat[2]
    shared = second_deals({})
    assert not shared[0] == shared[1] == shared[2]
