"""Measure a game's heuristic bot: one heuristic seat (rotating through the seats) against random seats.

    python -m bot.policies.arena akuma --games 2000 --players 4

Prints the number of games, the heuristic's win share (a first place shared by k players
counts 1/k) and its average place (1 = first), next to what a random seat would get.
"""
from __future__ import annotations

import argparse
import random
from dataclasses import dataclass

from engines import GAMES, get_engine

from . import Policy, heuristic_for, random_policy


@dataclass
class ArenaResult:
    games: int
    players: int
    wins: float  # first places, a shared one counting as a fraction
    place_total: float

    @property
    def win_share(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def average_place(self) -> float:
        return self.place_total / self.games if self.games else 0.0


def play_one(game: str, players: int, seed: int, hero_seat: int, hero: Policy) -> tuple[float, int]:
    """One game; returns the hero's win credit and its place (1-based; tied players share the better place)."""
    engine = get_engine(game)
    names = [f"s{i}" for i in range(players)]
    hero_name = names[hero_seat]
    rng = random.Random(seed)
    state = engine.new_game(names, seed=seed)
    while True:
        actors = engine.to_act(state)
        if not actors:
            break
        player = actors[0]
        legal = engine.legal_actions(state, player)
        policy = hero if player == hero_name else random_policy
        action = policy(engine.view(state, player), legal, rng)
        state, _ = engine.apply(state, player, action)
    result = engine.result(state)
    assert result is not None
    place = 1
    for group in result.ranking:
        if hero_name in group:
            return (1.0 / len(group) if place == 1 else 0.0), place
        place += len(group)
    raise AssertionError(f"{hero_name} missing from the ranking")


def run_arena(game: str, games: int, players: int, seed: int = 0, hero: Policy | None = None) -> ArenaResult:
    """``games`` games; game i puts the hero in seat i mod ``players`` and uses seed ``seed + i``."""
    hero = hero or heuristic_for(game)
    wins = 0.0
    places = 0.0
    for i in range(games):
        credit, place = play_one(game, players, seed + i, i % players, hero)
        wins += credit
        places += place
    return ArenaResult(games=games, players=players, wins=wins, place_total=places)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bot.policies.arena", description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=GAMES)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=None, help="default: the game's minimum")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--random", action="store_true", help="measure a random seat instead (the baseline)")
    args = parser.parse_args(argv)
    engine = get_engine(args.game)
    players = args.players or engine.min_players
    if not engine.min_players <= players <= engine.max_players:
        parser.error(f"{args.game} takes {engine.min_players}..{engine.max_players} players")
    hero = random_policy if args.random else heuristic_for(args.game)
    res = run_arena(args.game, args.games, players, args.seed, hero)
    label = "random" if args.random else "heuristic"
    print(f"game: {args.game}  players: {players}  seat: {label} (rotating) vs random")
    print(f"games: {res.games}")
    print(f"win share: {res.win_share:.3f}  (random baseline about {1 / players:.3f})")
    print(f"average place: {res.average_place:.2f}  (random baseline about {(players + 1) / 2:.2f})")


if __name__ == "__main__":
    main()
