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
