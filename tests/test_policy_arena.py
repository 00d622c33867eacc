"""The arena (``python -m bot.policies.arena``): each game's heuristic seat against random seats, counted as it says.
How much better than random each heuristic plays is measured by ``python -m bench.heuristics``, not here."""
from __future__ import annotations

import pytest

from bot.policies import heuristic_for, random_policy
from bot.policies.arena import main, play_one, run_arena
from engines import GAMES, get_engine


@pytest.mark.parametrize("game", GAMES)
def test_a_few_games_are_counted_as_places_and_shared_first_places(game: str) -> None:
    players = max(get_engine(game).min_players, 3)
    games = [play_one(game, players, 40 + i, i % players, heuristic_for(game)) for i in range(players)]
    for credit, place in games:
        assert 1 <= place <= players
        assert (credit > 0) == (place == 1) and credit in {1.0, *(1 / k for k in range(2, players + 1)), 0.0}
    arena = run_arena(game, games=players, players=players, seed=40)
    assert (arena.games, arena.players) == (players, players)
    assert arena.wins == sum(c for c, _ in games) and arena.place_total == sum(p for _, p in games)
    assert arena.win_share == arena.wins / players and arena.average_place == arena.place_total / players


def test_the_random_baseline_and_the_printed_report(capsys: pytest.CaptureFixture[str]) -> None:
    baseline = run_arena("rocca", games=4, players=4, seed=7, hero=random_policy)
    assert 0 <= baseline.wins <= 4 and 1 <= baseline.average_place <= 4
    main(["pileup", "--games", "3", "--players", "3", "--seed", "5000"])
    out = capsys.readouterr().out
    assert "game: pileup  players: 3  seat: heuristic (rotating) vs random" in out and "games: 3" in out
    with pytest.raises(SystemExit):
        main(["pileup", "--players", "9"])
