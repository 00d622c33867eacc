"""Akuma Trick: conformance, and one test per rule, worked example and Decision of docs/rules/akuma.md."""
from __future__ import annotations

import itertools
import json

import pytest

from engines.akuma import AkumaEngine, AkumaState, Play, Release, Steal, StopStealing
from engines.akuma.cards import sort_cards
from engines.akuma.rules import all_discards, check_discard, classify, release_number
from engines.akuma.state import RowPlay
from engines.errors import BadOptions, IllegalAction, NotYourTurn
from engines.rng import Rng

from .conformance import check_replay, random_playthrough

ENG = AkumaEngine()


def make_state(hands: dict[str, list[str]] | list[list[str]], *, row: list[tuple[str, list[str]]] = (),
               current: str = "p0", direction: str = "cw", lock: list[str] | None = None,
               trick_starter: str | None = None, steals_left: int = 0, seed: int = 1) -> AkumaState:
    """A state built by hand: ``hands`` per seat p0, p1, ...; ``row`` as (player, cards) plays."""
    if isinstance(hands, list):
        hands = {f"p{i}": h for i, h in enumerate(hands)}
    players = list(hands)
    rows = [RowPlay(player=p, cards=sort_cards(cs), kind=classify(sort_cards(cs))) for p, cs in row]
    return AkumaState(
        players=players, seed=seed, rng=Rng.from_seed(seed),
        colours=["Y", "P", "G", "V", "B", "W"][:max(3, len(players))],
        hands={p: sort_cards(h) for p, h in hands.items()}, row=rows, direction=direction, lock=lock,
        current=current, trick_starter=trick_starter or current, start_player="p0", steals_left=steals_left,
    )


def code_of(state: AkumaState, player: str, action) -> str:
    with pytest.raises(IllegalAction) as exc:
        ENG.apply(state, player, action)
    return exc.value.code


def types(events) -> list[str]:
    return [e.type for e in events]


# ---- conformance ---------------------------------------------------------------------------
@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_random_playthroughs_and_replay(n: int) -> None:
    for seed in range(6):
        random_playthrough(ENG, seed * 31 + n, n)
    check_replay(ENG, 100 + n, n)
    check_replay(ENG, 200 + n, n, {"start_player": n - 1})


def test_name_and_player_counts() -> None:
    assert (ENG.name, ENG.min_players, ENG.max_players) == ("akuma", 3, 6)
    with pytest.raises(BadOptions):
        ENG.new_game(["a", "b"], seed=1)
    with pytest.raises(BadOptions):
        ENG.new_game([f"p{i}" for i in range(7)], seed=1)


# ---- setup (Decision 1) ----------------------------------------------------------------------
@pytest.mark.parametrize("n,colours", [(3, "YPG"), (4, "YPGV"), (5, "YPGVB"), (6, "YPGVBW")])
def test_colours_per_player_count_and_deal(n: int, colours: str) -> None:
    state = ENG.new_game([f"p{i}" for i in range(n)], seed=n)
    assert state.colours == list(colours)
    dealt = [c for h in state.hands.values() for c in h]
    assert all(len(h) == 10 for h in state.hands.values())
    assert sorted(dealt) == sorted(f"{c}{r}" for c in colours for r in range(10))
    assert ENG.view(state, None).colours_in_play == list(colours)


def test_start_player_option_and_random_start() -> None:
    players = ["a", "b", "c", "d"]
    for seat in range(4):
        state = ENG.new_game(players, seed=5, options={"start_player": seat})
        assert ENG.to_act(state) == [players[seat]] and state.trick_starter == players[seat]
    with pytest.raises(BadOptions):
        ENG.new_game(players, seed=5, options={"start_player": 4})
    with pytest.raises(BadOptions):
        ENG.new_game(players, seed=5, options={"start_player": -1})
    with pytest.raises(BadOptions):
        ENG.new_game(players, seed=5, options={"colour": "Y"})
    starts = {ENG.new_game(players, seed=s).current for s in range(40)}
    assert starts == set(players)  # drawn from the RNG, so every seat happens
    assert ENG.new_game(players, seed=9).current == ENG.new_game(players, seed=9).current
    evs = ENG.start_events(ENG.new_game(players, seed=5, options={"start_player": 2}))
    assert types(evs) == ["game_started", "trick_started"]
    assert evs[0].data["start_player"] == "c" and evs[0].data["colours"] == ["Y", "P", "G", "V"]


# ---- plays (Decision 2, 8) -----------------------------------------------------------------------
def test_play_kinds() -> None:
    assert classify(["Y3"]) == "single"
    assert classify(["Y3", "P3", "G3"]) == "set"
    assert classify(["G0", "Y0"]) == "set"
    assert classify(["Y3", "Y4", "Y5"]) == "run"
    assert classify(["Y5", "Y3", "Y4"]) == "run"
    assert classify(["Y0", "Y1"]) is None  # 0 is never in a run
    assert classify(["Y3", "Y5"]) is None
    assert classify(["Y3", "P4"]) is None
    assert classify(["Y3", "P3", "P4"]) is None


def test_first_play_any_legal_play_and_row_is_low_to_high() -> None:
    state = make_state([["Y5", "Y3", "Y4", "P4", "G9"], ["P1", "P2"], ["G1", "G2"]])
    legal = ENG.legal_actions(state, "p0")
    assert Play(cards=["Y3", "Y4", "Y5"]) in legal and Play(cards=["Y4", "P4"]) in legal
    assert Play(cards=["Y3", "Y4"]) in legal and Play(cards=["Y4", "Y5"]) in legal
    assert not any(isinstance(a, Release) for a in legal)  # Decision: the first player must play
    assert code_of(state, "p0", Release(cards=["G9"])) == "akuma.release_empty_row"
    s2, evs = ENG.apply(state, "p0", Play(cards=["Y5", "Y3", "Y4"]))
    assert s2.row[0].cards == ["Y3", "Y4", "Y5"] and s2.row[0].kind == "run"
    assert evs[0].data["cards"] == ["Y3", "Y4", "Y5"] and evs[0].data["kind"] == "run"
    assert ENG.view(s2, None).last_rank == 5  # a run leaves its highest card last
    assert ENG.to_act(s2) == ["p2"] and s2.direction == "ccw"  # the run held one 5


def test_illegal_play_codes() -> None:
    state = make_state([["Y3", "P3", "Y4", "Y7", "Y0", "P0"], ["P5"], ["G5"]], row=[("p2", ["G5"])])
    assert code_of(state, "p0", Play(cards=["G9"])) == "akuma.not_in_hand"
    assert code_of(state, "p0", Play(cards=["Y7", "Y7"])) == "akuma.duplicate_card"
    assert code_of(state, "p0", Play(cards=["Y3", "Y7"])) == "akuma.bad_combination"
    assert code_of(state, "p0", Play(cards=[])) == "akuma.bad_combination"
    assert code_of(state, "p0", Play(cards=["Y3", "Y4"])) == "akuma.not_higher"  # lowest card 3 <= 5
    assert code_of(state, "p0", Play(cards=["Y0", "P0", "Y7"])) == "akuma.bad_combination"
    with pytest.raises(NotYourTurn):
        ENG.apply(state, "p1", Play(cards=["P5"]))


def test_beating_uses_lowest_card_and_equal_never_beats() -> None:
    hand = ["Y5", "P5", "Y6", "Y7", "G6", "G8", "P9"]
    state = make_state([hand, ["P1"], ["G1"]], row=[("p2", ["G3", "G4", "G5"])])  # run: last card 5
    plays = [a.cards for a in ENG.legal_actions(state, "p0") if isinstance(a, Play)]
    assert ["Y5"] not in plays and ["Y5", "P5"] not in plays and ["Y5", "Y6", "Y7"] not in plays
    assert ["Y6"] in plays and ["Y6", "Y7"] in plays and ["Y6", "G6"] in plays and ["P9"] in plays
    assert code_of(state, "p0", Play(cards=["Y5", "Y6"])) == "akuma.not_higher"
    # a set's last card has the set's rank
    state = make_state([hand, ["P1"], ["G1"]], row=[("p2", ["G4", "Y4"])])
    plays = [a.cards for a in ENG.legal_actions(state, "p0") if isinstance(a, Play)]
    assert ["Y5"] in plays and ["Y5", "Y6", "Y7"] in plays
    state = make_state([hand, ["P1"], ["G1"]], row=[("p2", ["V8"])])
    assert [a.cards for a in ENG.legal_actions(state, "p0") if isinstance(a, Play)] == [["P9"]]


def test_zero_plays_on_anything_but_not_after_a_zero() -> None:
    hand = ["Y0", "P0", "Y1", "Y2", "P9"]
    state = make_state([hand, ["G1", "G3"], ["G2", "G4"]], row=[("p2", ["G9"])])
    plays = [a.cards for a in ENG.legal_actions(state, "p0") if isinstance(a, Play)]
    assert plays == [["Y0"], ["Y0", "P0"], ["P0"]]  # 0s beat a 9; nothing else does
    s2, _ = ENG.apply(state, "p0", Play(cards=["P0"]))
    assert ENG.view(s2, None).last_rank == 0
    # after a 0: 0s are refused, any rank 1+ play beats it
    after_zero = make_state([["Y0", "Y1", "Y2", "P9"], ["G1"], ["G2"]], row=[("p2", ["P0"])])
    assert code_of(after_zero, "p0", Play(cards=["Y0"])) == "akuma.zero_after_zero"
    plays = [a.cards for a in ENG.legal_actions(after_zero, "p0") if isinstance(a, Play)]
    assert ["Y1"] in plays and ["Y1", "Y2"] in plays and ["P9"] in plays and ["Y0"] not in plays
    # a set of 0s also counts as "a 0 last"
    after_zeros = make_state([["Y0", "Y1"], ["G1"], ["G2"]], row=[("p2", ["P0", "G0"])])
    assert code_of(after_zeros, "p0", Play(cards=["Y0"])) == "akuma.zero_after_zero"


# ---- lock (Decision 3) -----------------------------------------------------------------------------
def test_six_locks_its_colour_for_the_rest_of_the_trick() -> None:
    state = make_state([["Y6", "P2"], ["Y7", "P7", "Y8", "Y9", "P8"], ["G1", "G2"]])
    s1, evs = ENG.apply(state, "p0", Play(cards=["Y6"]))
    assert s1.lock == ["Y"] and evs[0].data["lock"] == ["Y"] and ENG.view(s1, None).lock == ["Y"]
    plays = [a.cards for a in ENG.legal_actions(s1, "p1") if isinstance(a, Play)]
    assert plays == [["Y7"], ["Y7", "Y8"], ["Y7", "Y8", "Y9"], ["Y8"], ["Y8", "Y9"], ["Y9"]]
    assert code_of(s1, "p1", Play(cards=["P7"])) == "akuma.locked_colour"
    assert code_of(s1, "p1", Play(cards=["Y7", "P7"])) == "akuma.locked_colour"


def test_several_sixes_lock_each_colour_and_a_play_must_be_one_colour() -> None:
    state = make_state([["Y6", "P6", "G1"], ["Y7", "P7", "P8", "G9", "Y0", "P0"], ["G2", "G3"]])
    s1, _ = ENG.apply(state, "p0", Play(cards=["P6", "Y6"]))  # not restricted by its own lock
    assert s1.lock == ["Y", "P"]
    plays = [a.cards for a in ENG.legal_actions(s1, "p1") if isinstance(a, Play)]
    assert ["Y7"] in plays and ["P7", "P8"] in plays and ["Y0"] in plays and ["P0"] in plays
    assert ["Y7", "P7"] not in plays and ["G9"] not in plays
    assert ["Y0", "P0"] not in plays  # the lock applies to 0s too: a mixed set of 0s is refused
    assert code_of(s1, "p1", Play(cards=["Y0", "P0"])) == "akuma.locked_colour"


def test_new_lock_replaces_old_and_locks_end_with_the_trick() -> None:
    state = make_state([["Y5", "G1", "G8"], ["Y6", "Y7", "G9"], ["G2", "G3", "P9"]],
                       row=[("p2", ["Y4"])], lock=["Y", "P"], current="p1")
    s1, _ = ENG.apply(state, "p1", Play(cards=["Y6", "Y7"]))
    assert s1.lock == ["Y"]
    s2, _ = ENG.apply(s1, "p2", Release(cards=["P9"]))
    assert s2.lock is None and s2.row == []
    assert ENG.view(s2, None).lock is None


# ---- reverse (Decision 4) ---------------------------------------------------------------------------
def test_odd_fives_reverse_even_fives_do_not_and_direction_persists() -> None:
    hands = [["Y5", "P5", "G9"], ["V5", "G1", "G2"], ["B1", "B2", "B3"], ["V1", "V2", "V3"], ["Y1", "Y2", "Y3"]]
    state = make_state(hands, current="p0")
    s1, evs = ENG.apply(state, "p0", Play(cards=["Y5"]))
    assert s1.direction == "ccw" and evs[0].data["reversed"] is True and ENG.to_act(s1) == ["p4"]
    even = make_state(hands, current="p0")
    s1e, evs = ENG.apply(even, "p0", Play(cards=["P5", "Y5"]))
    assert s1e.direction == "cw" and evs[0].data["reversed"] is False and ENG.to_act(s1e) == ["p1"]
    # reversed again: back to clockwise
    s2 = make_state(hands, current="p1", direction="ccw", row=[("p0", ["G1"])])
    s3, _ = ENG.apply(s2, "p1", Play(cards=["V5"]))
    assert s3.direction == "cw" and ENG.to_act(s3) == ["p2"]
    # the direction stays reversed into the next trick
    s4, evs = ENG.apply(s1, "p4", Release(cards=["Y1"]))
    assert s4.direction == "ccw" and ENG.to_act(s4) == ["p3"] and s4.trick_starter == "p3"
    assert evs[-1].type == "trick_started" and evs[-1].data == {"first_player": "p3", "direction": "ccw"}


# ---- steal (Decision 5) -----------------------------------------------------------------------------
def test_steal_decision_and_events() -> None:
    state = make_state([["Y2", "P2", "G9"], ["Y7", "Y8"], ["G1"], ["P7", "P8", "P9"]])
    s1, evs = ENG.apply(state, "p0", Play(cards=["Y2", "P2"]))
    assert evs[0].data["steals"] == 2 and s1.steals_left == 2
    assert ENG.to_act(s1) == ["p0"]
    assert ENG.legal_actions(s1, "p0") == [Steal(victim="p1"), Steal(victim="p3"), StopStealing()]
    assert ENG.view(s1, "p0").steals_left == 2
    assert code_of(s1, "p0", Play(cards=["G9"])) == "akuma.steal_pending"
    assert code_of(s1, "p0", Steal(victim="p2")) == "akuma.victim_too_few_cards"
    assert code_of(s1, "p0", Steal(victim="p0")) == "akuma.bad_victim"
    s2, evs = ENG.apply(s1, "p0", Steal(victim="p1"))
    assert types(evs) == ["steal", "stolen_card"]
    assert evs[0].visible_to is None and "card" not in evs[0].data
    assert evs[0].data["thief"] == "p0" and evs[0].data["victim"] == "p1"
    card = evs[1].data["card"]
    assert evs[1].visible_to == ["p0", "p1"] and card in ("Y7", "Y8")
    assert card in s2.hands["p0"] and card not in s2.hands["p1"] and len(s2.hands["p1"]) == 1
    assert s2.steals_left == 1 and ENG.to_act(s2) == ["p0"]
    assert ENG.legal_actions(s2, "p0") == [Steal(victim="p3"), StopStealing()]  # p1 is down to 1 card
    s3, _ = ENG.apply(s2, "p0", Steal(victim="p3"))
    assert s3.steals_left == 0 and ENG.to_act(s3) == ["p1"] and len(s3.hands["p0"]) == 3


def test_a_steal_victim_knows_where_its_card_went_while_it_is_sure() -> None:
    state = make_state([["Y2", "G9"], ["Y7", "Y8", "Y9"], ["G2", "G3"]])
    s1, _ = ENG.apply(state, "p0", Play(cards=["Y2"]))
    s2, evs = ENG.apply(s1, "p0", Steal(victim="p1"))
    card = evs[1].data["card"]
    assert ENG.view(s2, "p1").known == {"p0": [card]}  # the victim saw which card went; nobody else learns it
    assert [ENG.view(s2, v).known for v in ("p0", "p2", None)] == [{}, {}, {}]
    assert card not in ENG.view(s2, "p2").model_dump_json() and card not in ENG.view(s2, None).model_dump_json()
    played = s2.model_copy(deep=True)
    played.current = "p0"
    s3, _ = ENG.apply(played, "p0", Play(cards=[card]))  # played: everyone sees it
    assert ENG.view(s3, "p1").known == {}
    robbed = s2.model_copy(deep=True)
    robbed.current, robbed.row = "p2", []
    s4, _ = ENG.apply(robbed, "p2", Play(cards=["G2"]))
    s5, evs = ENG.apply(s4, "p2", Steal(victim="p0"))
    # p1 saw p0 lose a card but not which: it no longer claims to know where its card is; p0 knows what went
    assert ENG.view(s5, "p1").known == {} and card in s5.hands["p0"] + s5.hands["p2"]
    assert ENG.view(s5, "p0").known == {"p2": [evs[1].data["card"]]}


def test_steal_is_uniformly_random_from_the_state_rng() -> None:
    seen = set()
    for seed in range(30):
        s = make_state([["Y2", "G9"], ["Y7", "Y8", "Y9"], ["G1", "G3"]], seed=seed)
        s1, _ = ENG.apply(s, "p0", Play(cards=["Y2"]))
        _s2, evs = ENG.apply(s1, "p0", Steal(victim="p1"))
        seen.add(evs[1].data["card"])
        _again, evs2 = ENG.apply(s1, "p0", Steal(victim="p1"))
        assert evs2 == evs  # same state ⇒ same card
    assert seen == {"Y7", "Y8", "Y9"}


def test_stop_stealing_and_no_decision_without_victims() -> None:
    state = make_state([["Y2", "P2", "G9"], ["Y7", "Y8"], ["G1", "G3"]], direction="ccw")
    s1, _ = ENG.apply(state, "p0", Play(cards=["Y2", "P2"]))
    s2, _ = ENG.apply(s1, "p0", StopStealing())
    assert s2.steals_left == 0 and ENG.to_act(s2) == ["p2"] and s2.hands == s1.hands
    assert code_of(s2, "p2", StopStealing()) == "akuma.no_steal_pending"
    assert code_of(s2, "p2", Steal(victim="p0")) == "akuma.no_steal_pending"
    # nobody else holds 2+ cards: no decision at all
    lone = make_state([["Y2", "G9"], ["Y7"], ["G1"]])
    s3, _ = ENG.apply(lone, "p0", Play(cards=["Y2"]))
    assert s3.steals_left == 0 and ENG.to_act(s3) == ["p1"]
    # the decision ends when no victim is left, even with steals remaining
    short = make_state([["Y2", "P2", "G2", "G9"], ["Y7", "Y8"], ["G1"]])
    s4, _ = ENG.apply(short, "p0", Play(cards=["Y2", "P2", "G2"]))
    s5, _ = ENG.apply(s4, "p0", Steal(victim="p1"))
    assert s5.steals_left == 0 and ENG.to_act(s5) == ["p1"]


def test_effects_order_reverse_then_steal_then_next_in_new_direction() -> None:
    state = make_state([["Y2", "Y3", "Y4", "Y5", "G9"], ["P7", "P8"], ["G1", "G3"], ["P1", "P3"]])
    s1, _ = ENG.apply(state, "p0", Play(cards=["Y2", "Y3", "Y4", "Y5"]))
    assert s1.direction == "ccw" and s1.steals_left == 1 and ENG.to_act(s1) == ["p0"]
    s2, _ = ENG.apply(s1, "p0", Steal(victim="p1"))
    assert ENG.to_act(s2) == ["p3"]


# ---- release (Decision 6; seed examples) ------------------------------------------------------------
def test_release_number_seed_example() -> None:
    # 1+1+1+1+4+1+1 = 10 (one 8), two 4s → 10 × 3 = 30
    row = ["Y1", "P3", "Y4", "G4", "Y8", "P9", "G0"]
    assert release_number(row) == 30
    assert release_number(["Y3"]) == 1 and release_number(["Y8"]) == 4 and release_number(["Y4", "P4"]) == 6
    state = make_state([["Y9"], ["P1"], ["G1"]], row=[("p1", ["Y1"]), ("p2", ["P3"]), ("p0", ["Y4", "G4"]),
                                                     ("p1", ["Y8"]), ("p2", ["P9"]), ("p0", ["G0"])])
    assert ENG.release_number(state) == 30 and ENG.view(state, None).release_number == 30
    assert ENG.view(make_state([["Y9"], ["P1"], ["G1"]]), None).release_number is None


def test_seed_discard_examples_with_release_number_30() -> None:
    hand = ["Y6", "Y7", "Y8", "Y9", "P9", "Y1", "Y0"]
    assert check_discard(hand, ["Y9", "Y8", "Y7", "Y6"], 30) == ["Y6", "Y7", "Y8", "Y9"]  # 30
    assert check_discard(hand, ["Y7", "Y8", "Y9", "P9"], 30) == ["Y7", "Y8", "Y9", "P9"]  # 33, no surplus
    with pytest.raises(IllegalAction) as exc:  # 39: dropping the 6 still leaves 33
        check_discard(hand, ["Y6", "Y7", "Y8", "Y9", "P9"], 30)
    assert exc.value.code == "akuma.release_surplus" and exc.value.fields["card"] == "Y6"
    with pytest.raises(IllegalAction) as exc:
        check_discard(hand, ["Y7", "Y8", "Y9"], 30)
    assert exc.value.code == "akuma.release_too_low" and exc.value.fields == {"sum": 24, "release_number": 30}
    with pytest.raises(IllegalAction) as exc:
        check_discard(hand, ["Y0", "Y6", "Y7", "Y8", "Y9"], 30)
    assert exc.value.code == "akuma.release_zero" and exc.value.fields["card"] == "Y0"


def test_short_hand_must_discard_all_non_zero_cards() -> None:
    hand = ["Y0", "Y3", "P4"]
    assert check_discard(hand, ["Y3", "P4"], 10) == ["Y3", "P4"]
    with pytest.raises(IllegalAction) as exc:
        check_discard(hand, ["P4"], 10)
    assert exc.value.code == "akuma.release_must_discard_all" and exc.value.fields["missing"] == ["Y3"]
    assert all_discards(hand, 10) == [["Y3", "P4"]]
    assert all_discards(["Y0", "P0"], 3) == [[]]  # only 0s: the release discards nothing
    ten_singles = [("p2", [c]) for c in ["G1", "G2", "G3", "G5", "G7", "G9", "P1", "P2", "P3", "P5"]]
    state = make_state([["Y0", "Y3", "P4"], ["P9"], ["G1"]], row=ten_singles)  # R = 10
    assert ENG.forced_release(state, "p0") == ["Y3", "P4"]
    assert ENG.view(state, "p0").release_forced == ["Y3", "P4"]
    assert ENG.view(state, "p1").release_forced is None  # only for the player to act
    releases = [a for a in ENG.legal_actions(state, "p0") if isinstance(a, Release)]
    assert releases == [Release(cards=["Y3", "P4"])]


@pytest.mark.parametrize("number", [1, 4, 9, 13, 20, 30, 45, 60])
def test_legal_releases_are_exactly_the_valid_discards(number: int) -> None:
    hand = ["Y0", "Y1", "P1", "Y3", "G4", "Y6", "P7", "Y8", "G9", "P9"]
    expected = []
    nonzero = [c for c in hand if c[1] != "0"]
    for size in range(len(nonzero) + 1):
        for combo in itertools.combinations(nonzero, size):
            try:
                expected.append(check_discard(hand, list(combo), number))
            except IllegalAction:
                pass
    got = all_discards(hand, number)
    assert sorted(map(tuple, got)) == sorted(map(tuple, expected))
    assert len(got) == len({tuple(g) for g in got}) and got


def test_release_ends_the_trick() -> None:
    state = make_state([["Y1", "P1", "G2"], ["Y7", "Y8", "Y9", "P9"], ["G1", "G3"], ["P3", "P4"]],
                       current="p1", row=[("p3", ["P2"]), ("p0", ["G5", "G6", "G7"])], lock=["G"],
                       trick_starter="p3")
    assert ENG.release_number(state) == 4
    releases = [a.cards for a in ENG.legal_actions(state, "p1") if isinstance(a, Release)]
    assert releases == [["Y7"], ["Y8"], ["Y9"], ["P9"]]
    assert code_of(state, "p1", Release(cards=["Y7", "Y8"])) == "akuma.release_surplus"
    assert code_of(state, "p1", Release(cards=["G1"])) == "akuma.not_in_hand"
    s1, evs = ENG.apply(state, "p1", Release(cards=["Y8"]))
    assert types(evs) == ["released", "trick_started"]
    assert evs[0].data["cards"] == ["Y8"] and evs[0].data["release_number"] == 4
    assert s1.row == [] and s1.lock is None and s1.discarded == ["P2", "G5", "G6", "G7", "Y8"]
    assert ENG.to_act(s1) == ["p2"] and s1.trick_starter == "p2"
    assert ENG.view(s1, None).discarded == ["P2", "G5", "G6", "G7", "Y8"]
    ccw = state.model_copy(update={"direction": "ccw"}, deep=True)
    s2, _ = ENG.apply(ccw, "p1", Release(cards=["Y8"]))
    assert ENG.to_act(s2) == ["p0"]


# ---- end of game and scoring (Decision 7) -------------------------------------------------------------
def test_game_ends_when_a_play_empties_a_hand_even_with_steals() -> None:
    state = make_state([["Y2"], ["Y0", "Y1", "Y7"], ["G1", "G3"], ["P3", "P4", "P5"]],
                       row=[("p3", ["P1"])])
    s1, evs = ENG.apply(state, "p0", Play(cards=["Y2"]))
    assert types(evs) == ["played", "game_over"] and s1.steals_left == 0
    assert ENG.to_act(s1) == [] and ENG.legal_actions(s1, "p1") == []
    res = ENG.result(s1)
    assert res.scores == {"p0": 0, "p1": 23, "p2": 4, "p3": 12}  # seed example: 0, 1, 7 → 15+1+7
    assert res.ranking == [["p2"], ["p3"], ["p1"], ["p0"]]  # who emptied the hand is last
    with pytest.raises(NotYourTurn):
        ENG.apply(s1, "p1", Play(cards=["Y7"]))


def test_game_ends_when_a_release_empties_a_hand() -> None:
    state = make_state([["Y3", "P4"], ["Y9", "P9"], ["G1", "G3"]], row=[("p2", ["G8"]), ("p1", ["G9"])])
    assert ENG.release_number(state) == 5
    s1, evs = ENG.apply(state, "p0", Release(cards=["Y3", "P4"]))
    assert types(evs) == ["released", "game_over"]
    assert ENG.result(s1).ranking == [["p2"], ["p1"], ["p0"]]


def test_ties_broken_by_fewer_cards_then_shared() -> None:
    state = make_state([["Y9"], ["Y4", "P5"], ["G4", "G5"], ["P9"], ["V1"]], row=[("p4", ["V0"])],
                       current="p4")
    state.hands["p4"] = ["V1"]
    s1, _ = ENG.apply(state, "p4", Play(cards=["V1"]))
    res = ENG.result(s1)
    assert res.scores == {"p0": 9, "p1": 9, "p2": 9, "p3": 9, "p4": 0}
    assert res.ranking == [["p0", "p3"], ["p1", "p2"], ["p4"]]
    assert ENG.view(s1, None).result == res


# ---- views and events (Decisions 9, 10) -----------------------------------------------------------------
def test_view_shows_only_own_hand_and_public_state() -> None:
    state = ENG.new_game(["a", "b", "c", "d"], seed=3, options={"start_player": 1})
    v = ENG.view(state, "a").model_dump()
    for key in ("game", "viewer", "players", "to_act", "hand", "hand_sizes", "row", "last_rank", "direction", "lock",
                "release_number", "trick_starter", "steals_left", "colours_in_play", "discarded",
                "release_forced"):
        assert key in v
    assert v["hand"] == state.hands["a"] and v["hand_sizes"] == {p: 10 for p in "abcd"}
    assert v["direction"] == "cw" and v["to_act"] == ["b"] and v["trick_starter"] == "b"
    text = json.dumps(v)
    for other in "bcd":
        assert not any(f'"{c}"' in text for c in state.hands[other])
    assert v["viewer"] == "a" and ENG.view(state, None).viewer is None
    assert ENG.view(state, None).hand is None and "rng" not in text
    assert v["hand"] == sorted(v["hand"], key=lambda c: (int(c[1]), "YPGVBW".index(c[0])))


def test_game_over_reveals_every_hand() -> None:
    state = make_state([["Y2"], ["Y7", "Y8"], ["G1", "G3"]], row=[("p2", ["P1"])])
    s1, evs = ENG.apply(state, "p0", Play(cards=["Y2"]))
    assert evs[-1].visible_to is None and evs[-1].data["hands"]["p1"] == ["Y7", "Y8"]
    v = ENG.view(s1, "p2").model_dump()
    assert v["final_hands"] == {"p0": [], "p1": ["Y7", "Y8"], "p2": ["G1", "G3"]}
    assert v["hand"] == [] and v["to_act"] == [] and v["over"] is True  # nothing is secret any more


def test_final_ranking_explains_that_the_player_who_emptied_their_hand_ranks_last() -> None:
    """Decision [D6] (the original excludes the player who emptied their hand from winning): the final ranking
    says so, in both languages, on the board and in the game-over event."""
    from bot.render.akuma import emptied_lines
    assert "cannot win and ranks last" in emptied_lines(["p1"], str, "en")[0]
    assert "最下位" in emptied_lines(["p1"], str, "ja")[0]
