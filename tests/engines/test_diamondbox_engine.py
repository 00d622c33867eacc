"""Diamond Box: contract, conformance, setup, card table and views (docs/rules/diamondbox.md)."""
from __future__ import annotations

import json
from collections import Counter

import pytest
from pydantic import ValidationError

from engines import BadAction, BadOptions, IllegalAction, NotYourTurn
from engines.diamondbox import ChooseColour, DiamondBoxEngine, Pass, PlaceCard, cards
from engines.diamondbox.geometry import build_centre, centre_from_view

from .conformance import check_replay, random_playthrough

ENG = DiamondBoxEngine()
OPTIONS = [None, {"turns": "half"}, {"turns": "all"}]


# ---- contract and conformance --------------------------------------------------------
def test_contract() -> None:
    assert (ENG.name, ENG.min_players, ENG.max_players) == ("diamondbox", 2, 4)


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_playthroughs(n: int, options: dict | None) -> None:
    for seed in range(3):
        _, _, final = random_playthrough(ENG, seed * 101 + n, n, options)
        assert ENG.result(final) is not None


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("n", [2, 3, 4])
def test_replay(n: int, options: dict | None) -> None:
    check_replay(ENG, 40 + n, n, options)


@pytest.mark.parametrize("options", [{"turns": "some"}, {"turns": 180}, {"colours": 3}])
def test_bad_options_refused(options: dict) -> None:
    with pytest.raises(BadOptions):
        ENG.new_game(["a", "b"], seed=1, options=options)


@pytest.mark.parametrize("players", [["a"], ["a", "b", "c", "d", "e"], ["a", "a"]])
def test_bad_player_counts_refused(players: list[str]) -> None:
    with pytest.raises(BadOptions):
        ENG.new_game(players, seed=1)


def test_default_option_is_all_turns() -> None:
    """With only half turns the centre stays 2 squares wide and the original's ordinary 「4～5マス重ね」 cannot
    happen; the default lets cards turn every way (docs/rules/diamondbox.md, Decision [D5])."""
    state = ENG.new_game(["a", "b"], seed=1)
    assert state.options == {"turns": "all"}
    assert ENG.view(state, None).allowed_turns == [0, 90, 180, 270]
    assert ENG.view(ENG.new_game(["a", "b"], seed=1, options={"turns": "half"}), None).allowed_turns == [0, 180]


def test_actions_round_trip_and_garbage_refused() -> None:
    for action in (PlaceCard(card="G07", turn=180, x=-1, y=2), Pass(), ChooseColour(colour="P")):
        assert ENG.parse_action(action.model_dump(mode="json")) == action
    for bad in ({"type": "choose_colour", "colour": "X"}, {"type": "place", "card": "G07", "turn": 45, "x": 0, "y": 0},
                {"type": "draw"}):
        with pytest.raises(BadAction):
            ENG.parse_action(bad)


# ---- card table ---------------------------------------------------------------------
def test_card_table_has_fifty_cards_in_rule_notation() -> None:
    assert len(cards.card_ids()) == len(set(cards.card_ids())) == 50
    assert Counter(c[0] for c in cards.card_ids()) == {c: 10 for c in "RYGBP"}
    assert {c[1:] for c in cards.card_ids()} == {f"{i:02d}" for i in range(1, 11)}
    assert all(cards.is_card(c) for c in cards.card_ids())
    assert not cards.is_card("X01") and not cards.is_card("G11")


def _table(**changes: object) -> str:
    data = {"colours": list(cards.table().colours), "patterns": dict(cards.table().patterns)}
    data.update(changes)
    return json.dumps(data)


@pytest.mark.parametrize("changes", [
    {"colours": ["R", "Y", "G", "B"]},
    {"colours": ["R", "Y", "G", "B", "X"]},
    {"patterns": {f"{i:02d}": "w./../.." for i in range(1, 11)}},                     # identical
    {"patterns": {**dict(cards.table().patterns), "01": "w./.."}},                      # 2 rows
    {"patterns": {**dict(cards.table().patterns), "01": "wx/../.."}},                   # bad symbol
    {"patterns": {k: v for k, v in cards.table().patterns.items() if k != "10"}},       # 9 patterns
])
def test_bad_card_table_refused(changes: dict) -> None:
    with pytest.raises(ValidationError):
        cards.load_card_table(_table(**changes))


def test_card_table_loads() -> None:
    assert cards.load_card_table(_table()) == cards.table()


def test_turned_cells() -> None:
    rows = "wb/../.w"
    assert cards.turn_cells(rows, 0) == ((0, 0, "w"), (1, 0, "b"), (0, 1, "."), (1, 1, "."), (0, 2, "."), (1, 2, "w"))
    assert cards.turn_cells(rows, 180) == ((0, 0, "w"), (1, 0, "."), (0, 1, "."), (1, 1, "."), (0, 2, "b"), (1, 2, "w"))
    # 90° clockwise: 3 wide, 2 high; the top row becomes the right column.
    assert cards.turn_cells(rows, 90) == ((0, 0, "."), (1, 0, "."), (2, 0, "w"), (0, 1, "w"), (1, 1, "."), (2, 1, "b"))
    assert cards.turn_cells(rows, 270) == ((0, 0, "b"), (1, 0, "."), (2, 0, "w"), (0, 1, "w"), (1, 1, "."), (2, 1, "."))
    assert cards.size_at(0) == cards.size_at(180) == (2, 3)
    assert cards.size_at(90) == cards.size_at(270) == (3, 2)


# ---- setup --------------------------------------------------------------------------
@pytest.mark.parametrize("n,pile", [(2, 24), (3, 16), (4, 12)])
def test_setup_deals_equal_own_piles_and_hands_of_five(n: int, pile: int) -> None:
    players = [f"p{i}" for i in range(n)]
    state = ENG.new_game(players, seed=5)
    assert sorted(state.order) == players
    for p in players:
        assert len(state.hands[p]) == 5
        assert len(state.piles[p]) == pile - 5
    every = [c for p in players for c in state.hands[p] + state.piles[p]] + [q.card for q in state.placed]
    assert sorted(every) == sorted(cards.card_ids())


def test_two_starting_cards_overlap_four_squares() -> None:
    state = ENG.new_game(["a", "b"], seed=9)
    first, second = state.placed
    assert (first.x, first.y, first.turn, first.player) == (0, 0, 0, None)
    assert (second.x, second.y, second.turn, second.player) == (0, 1, 0, None)
    centre = build_centre((p.card, p.turn, p.x, p.y) for p in state.placed)
    assert len(centre) == 8  # 6 + 6 - 4 overlapped squares
    assert {pos for pos, sq in centre.items() if sq.card == first.card} == {(0, 0), (1, 0)}
    assert {pos for pos, sq in centre.items() if sq.card == second.card} == {(x, y) for x in (0, 1) for y in (1, 2, 3)}


def test_turn_order_is_random_and_seeded() -> None:
    orders = {tuple(ENG.new_game(["a", "b", "c", "d"], seed=s).order) for s in range(30)}
    assert len(orders) > 5
    assert ENG.new_game(["a", "b", "c"], seed=3) == ENG.new_game(["a", "b", "c"], seed=3)


def test_last_in_order_chooses_first_designated_colour_from_visible_colours() -> None:
    state = ENG.new_game(["a", "b", "c"], seed=11)
    last, first = state.order[-1], state.order[0]
    assert ENG.to_act(state) == [last]
    visible = {cards.colour_of(p.card) for p in state.placed}
    legal = ENG.legal_actions(state, last)
    assert {a.colour for a in legal} == visible
    for other in state.order[:-1]:
        assert ENG.legal_actions(state, other) == []
        with pytest.raises(NotYourTurn):
            ENG.apply(state, other, legal[0])
    after, events = ENG.apply(state, last, legal[0])
    assert after.designated == legal[0].colour
    assert ENG.to_act(after) == [first]
    assert events[0].type == "colour_chosen" and events[0].visible_to is None
    invisible = next(c for c in "RYGBP" if c not in visible)
    with pytest.raises(IllegalAction) as err:
        ENG.apply(state, last, ChooseColour(colour=invisible))
    assert err.value.code == "diamondbox.colour_not_allowed"


# ---- views --------------------------------------------------------------------------
def test_views_show_own_hand_and_only_counts_of_others() -> None:
    state = ENG.new_game(["a", "b"], seed=2)
    view_a, spectator = ENG.view(state, "a").model_dump(), ENG.view(state, None).model_dump()
    assert view_a["hand"] == state.hands["a"]
    assert [f["card"] for f in view_a["hand_faces"]] == state.hands["a"]
    assert "hand" not in spectator
    text = json.dumps(view_a)
    for secret in state.hands["b"] + state.piles["b"] + state.piles["a"]:
        assert f'"{secret}"' not in text
    assert view_a["hand_sizes"] == {"a": 5, "b": 5}
    assert view_a["pile_sizes"] == {p: 19 for p in state.order}
    assert view_a["phase"] == "choose_colour"
    assert view_a["colour_choice"]["chooser"] == state.order[-1]
    assert view_a["colour_choice"]["reason"] == "start"
    assert len(view_a["centre"]) == 8 and view_a["bounds"] == {"min_x": 0, "max_x": 1, "min_y": 0, "max_y": 3}
    assert [p["index"] for p in view_a["placements"]] == [0, 1]
    assert view_a["last_placement"] is None
    assert centre_from_view(ENG.view(state, "a")) == build_centre((p.card, p.turn, p.x, p.y) for p in state.placed)


def test_first_guess_patterns_kept_as_the_rules_file_wrote_them() -> None:
    assert cards.first_guess_patterns() == {
        "01": "w./.w/w.", "02": "b./.b/b.", "03": ".w/w./.w", "04": ".b/b./.b", "05": "wb/../bw",
        "06": "bw/../wb", "07": "w./b./w.", "08": ".b/.w/.b", "09": "ww/../bb", "10": "../wb/..",
    }


def test_installing_patterns_validates_and_expires_cached_geometry() -> None:
    default = dict(cards.table().patterns)
    with pytest.raises(ValidationError):
        cards.install_patterns({**default, "01": "w./.."})
    assert cards.table().patterns == default
    state = ENG.new_game(["a", "b"], seed=4)
    before = ENG.view(state, None).model_dump()["centre"]
    try:
        cards.install_patterns(cards.first_guess_patterns())
        after = ENG.view(state, None).model_dump()["centre"]
        assert [sq["diamond"] for sq in after] != [sq["diamond"] for sq in before]
        assert cards.pattern_of("G09") == "ww/../bb"
    finally:
        cards.install_patterns(default)
    assert ENG.view(state, None).model_dump()["centre"] == before
