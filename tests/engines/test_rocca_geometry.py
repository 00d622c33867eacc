"""Rocca geometry: lattice, orientations, sides, covering, free / half-blocked / blocked, one card per centre."""
from __future__ import annotations

import pytest

from engines.errors import IllegalAction
from engines.rocca import geometry as G
from engines.rocca.tower import TowerIndex

from .test_rocca_support import ENG, act, build, legal_dicts, make, raw_tower, tc


def centroid(centre: G.Point, m: int) -> tuple[float, float]:
    pts = [G.to_xy(p) for p in G.triangle_corners(centre, m)]
    return sum(p[0] for p in pts) / 3, sum(p[1] for p in pts) / 3


def side_direction(k: int, side: str) -> tuple[float, float]:
    """Mean centroid of a side's two triangles, seen from the card's centre."""
    pts = [centroid((0, 0), m) for m in G.side_triangle_indices(k, side)]
    return (pts[0][0] + pts[1][0]) / 2, (pts[0][1] + pts[1][1]) / 2


def test_lattice_steps_and_drawing_coordinates() -> None:
    assert G.D == ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
    assert G.to_xy((0, 1)) == (0, 1)  # D[1] is straight up
    for step in G.D:  # all six unit steps have length 1: a regular hexagon
        x, y = G.to_xy(step)
        assert x * x + y * y == pytest.approx(1)


def test_upright_card_head_up_face_lower_left_profile_lower_right() -> None:
    assert G.side_triangle_indices(0, "head") == (0, 1)
    assert G.side_triangle_indices(0, "face") == (2, 3)
    assert G.side_triangle_indices(0, "profile") == (4, 5)
    hx, hy = side_direction(0, "head")
    fx, fy = side_direction(0, "face")
    px, py = side_direction(0, "profile")
    assert abs(hx) < 1e-9 and hy > 0
    assert fx < 0 and fy < 0
    assert px > 0 and py < 0
    # the placements go the same ways: straight up, lower-left, lower-right
    assert G.target_centre((0, 0), 0, "head") == (0, 1)
    assert G.to_xy(G.target_centre((0, 0), 0, "face"))[0] < 0
    assert G.to_xy(G.target_centre((0, 0), 0, "profile"))[0] > 0


@pytest.mark.parametrize("k", range(6))
def test_orientation_rotates_the_three_sides(k: int) -> None:
    assert G.side_triangle_indices(k, "head") == (k % 6, (k + 1) % 6)
    assert G.side_triangle_indices(k, "face") == ((k + 2) % 6, (k + 3) % 6)
    assert G.side_triangle_indices(k, "profile") == ((k + 4) % 6, (k + 5) % 6)
    every = [m for s in G.SIDES for m in G.side_triangle_indices(k, s)]
    assert sorted(every) == list(range(6))
    for m in range(6):
        assert m in G.side_triangle_indices(k, G.side_of_triangle(k, m))


def test_triangle_keys_are_shared_by_neighbouring_hexagons_only() -> None:
    here = set(G.hexagon((0, 0)))
    assert len(here) == 6
    for step in G.D:
        assert len(here & set(G.hexagon(step))) == 2
    for far in [(2, 0), (1, 1), (0, 2), (-2, 2), (2, -1), (-1, -1)]:
        assert not here & set(G.hexagon(far))


@pytest.mark.parametrize("k", range(6))
@pytest.mark.parametrize("side", G.SIDES)
def test_a_card_placed_on_a_side_covers_exactly_that_side(k: int, side: str) -> None:
    state = raw_tower(make({"p0": [], "p1": []}), [("5S", (0, 0), k)])
    before = TowerIndex(state)
    assert all(before.side_state(0, s) == "free" for s in G.SIDES)
    build(state, ("5H", "5S", side))
    ix = TowerIndex(state)
    new = tc(state, "5H")
    assert new.orientation == k and new.centre == G.target_centre((0, 0), k, side)
    covered = {m for m in range(6) if ix.top[G.triangle((0, 0), m)] == 1}
    assert covered == set(G.side_triangle_indices(k, side))
    for s in G.SIDES:
        assert ix.side_state(0, s) == ("blocked" if s == side else "free")
    assert ix.visible(1) == list(range(6))  # the new card shows whole


@pytest.mark.parametrize("m", range(6))
def test_a_neighbour_blocks_one_side_or_half_blocks_two(m: int) -> None:
    """A card on neighbour D[m] covers triangles m-1 and m of an upright card."""
    state = raw_tower(make({"p0": [], "p1": []}), [("5S", (0, 0), 0), ("9H", G.D[m], 0)])
    ix = TowerIndex(state)
    hidden = {(m - 1) % 6, m}
    assert set(ix.visible(0)) == set(range(6)) - hidden
    states = {s: ix.side_state(0, s) for s in G.SIDES}
    if m % 2 == 1:  # straight on a side: that side blocked, the others free
        blocked = G.SIDES[(m - 1) // 2]
        assert states == {s: "blocked" if s == blocked else "free" for s in G.SIDES}
    else:  # diagonal neighbour: two sides half-blocked
        assert sorted(states.values()) == ["free", "half", "half"]
    if m == 0:  # upper right: head and profile
        assert states == {"head": "half", "face": "free", "profile": "half"}


def test_an_older_card_underneath_blocks_nothing() -> None:
    state = raw_tower(make({"p0": [], "p1": []}), [("9H", (1, 0), 0), ("5S", (0, 0), 0)])
    ix = TowerIndex(state)
    assert all(ix.side_state(1, s) == "free" for s in G.SIDES)
    # the newer 5S sits on 9H's neighbour D[3]: 9H's triangles 2 and 3, its face, are covered
    assert {s: ix.side_state(0, s) for s in G.SIDES} == {"head": "free", "face": "blocked", "profile": "free"}


def test_only_free_sides_can_be_built_on() -> None:
    state = raw_tower(make({"p0": ["7S", "5D", "9D"], "p1": ["2H"]}),
                      [("5S", (0, 0), 0), ("9H", (1, 0), 0)])
    # 5S: head and profile half-blocked by 9H; face free
    moves = legal_dicts(state, "p0")
    assert {"type": "place", "card": "7S", "on": "5S", "side": "head"} not in moves
    assert {"type": "place", "card": "5D", "on": "5S", "side": "profile"} not in moves
    assert {"type": "place", "card": "9D", "on": "9H", "side": "profile"} in moves
    with pytest.raises(IllegalAction) as err:
        act(state, "p0", type="place", card="7S", on="5S", side="head")
    assert err.value.code == "rocca.side_not_free" and err.value.fields["state"] == "half"


def test_no_two_cards_on_one_centre() -> None:
    """7H lies over 5S's hexagon, so 7H's head is free, but the card would go onto 5S's centre."""
    state = raw_tower(make({"p0": ["2H", "7D"], "p1": ["3C"]}), [("5S", (0, 1), 0), ("7H", (0, 0), 0)])
    ix = TowerIndex(state)
    assert ix.side_state(1, "head") == "free"
    assert not ix.open_for_building(1, "head")
    assert {"type": "place", "card": "2H", "on": "7H", "side": "head"} not in legal_dicts(state, "p0")
    with pytest.raises(IllegalAction) as err:
        act(state, "p0", type="place", card="2H", on="7H", side="head")
    assert err.value.code == "rocca.centre_taken"
    assert {"type": "place", "card": "7D", "on": "7H", "side": "profile"} in legal_dicts(state, "p0")


@pytest.mark.parametrize("base_k", range(6))
@pytest.mark.parametrize("bend, turn", [("left", 1), ("right", -1)])
def test_a_joker_bends_the_tower(base_k: int, bend: str, turn: int) -> None:
    state = raw_tower(make({"p0": ["X1", "2S"], "p1": ["3C"]}), [("5S", (0, 0), base_k)])
    state, _ = act(state, "p0", type="place", card="X1", on="5S", side="head", suit="H", bend=bend)
    joker = tc(state, "X1")
    assert joker.centre == G.target_centre((0, 0), base_k, "head")  # covers the base's head exactly
    assert joker.orientation == (base_k + turn) % 6
    assert TowerIndex(state).side_state(0, "head") == "blocked"
    # what grows on the joker's head goes the bent way
    assert G.target_centre(joker.centre, joker.orientation, "head") == G.add(joker.centre, G.D[(base_k + turn + 1) % 6])


def test_left_bend_turns_counter_clockwise() -> None:
    state = make({"p0": ["X1", "2S"], "p1": ["3C"]})
    state, _ = act(state, "p0", type="place", card="X1", on="5S", side="head", suit="H", bend="left")
    head_of_joker = side_direction(tc(state, "X1").orientation, "head")
    assert head_of_joker[0] < 0 and head_of_joker[1] > 0  # now points upper-left


def test_engine_view_reports_geometry_for_renderers() -> None:
    state = raw_tower(make({"p0": ["7S"], "p1": ["3C"]}), [("5S", (0, 0), 0), ("9H", (1, 0), 0)])
    view = ENG.view(state, None).model_dump()
    five = next(c for c in view["tower"] if c["card"] == "5S")
    assert five["sides"] == {"head": "half", "face": "free", "profile": "half"}
    assert five["visible"] == [1, 2, 3, 4] and five["open_sides"] == ["face"]
    assert five["centre"] == [0, 0] and five["label"] == "a1"
    nine = next(c for c in view["tower"] if c["card"] == "9H")
    assert nine["x"] == pytest.approx(G.SQRT3_2) and nine["y"] == pytest.approx(0.5)
