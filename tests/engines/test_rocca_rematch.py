"""「2回目からは、いちばん負けた人から」: the worst player of the previous game starts the next one."""
from __future__ import annotations

from engines.rocca import RoccaEngine
from engines.rocca.rules import rematch_start_player


def test_the_worst_player_of_the_last_game_starts_the_rematch() -> None:
    assert rematch_start_player(["a", "b", "c"], [["b"], ["a"], ["c"]]) == "c"


def test_a_shared_last_place_goes_to_the_first_of_them_in_seat_order() -> None:
    assert rematch_start_player(["a", "b", "c", "d"], [["d"], ["c", "a"]]) == "a"


def test_players_new_to_the_table_are_skipped_and_a_real_result_works() -> None:
    assert rematch_start_player(["a", "b"], [["a"], ["zed"]]) == "a"
    assert rematch_start_player(["a", "b"], []) == "a"
    eng = RoccaEngine()
    state = eng.new_game(["p0", "p1", "p2"], seed=3)
    ranking = [["p2"], ["p0"], ["p1"]]
    assert rematch_start_player(state.players, ranking) == "p1"


def test_rematch_options_make_the_last_player_start_and_keep_the_rest() -> None:
    from engines import Result

    eng = RoccaEngine()
    options = eng.rematch_options({"bon": True}, ["p0", "p1", "p2"], Result(ranking=[["p2"], ["p0"], ["p1"]]))
    assert options == {"bon": True, "start_player": 1}
    for seed in (1, 2, 3):  # whatever the deal, p1 starts
        state = eng.new_game(["p0", "p1", "p2"], seed=seed, options=options)
        assert state.start_player == "p1" and eng.to_act(state) == ["p1"]
