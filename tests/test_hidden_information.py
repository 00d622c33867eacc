"""Hidden information (issue 7, item 5): nothing secret reaches anyone who may not see it, nor the logs.

Secrets: each player's own ``view["hand"]`` (the cards only they may see) — as card ids and as the marks the game's
renderer draws (``bot.render.<game>.card``: ``🟡7``, ``7♠``) — and the RNG (the seed, the current RNG state).
A mark shared with a card that is visible to everyone right now (identical copies) proves nothing and is skipped.

1. Every registered game, many seeded games played to the end by the bot policies: after every move, the public
   board text, every public event line and the public events' data show no player's secret; every hand view text
   and every private event line delivered to P shows no other player's secret (private events may show the
   secrets of the players they are addressed to); no text, view or event carries the seed or the RNG state.
2. Through the Discord layer the same is checked of every message of every Discord test by the harness itself
   (``tests/discord_invariants.py``), and the logs of a whole game of every game in every place by
   ``tests/test_discord_played.py``.

Every level plays one seeded game per player count of each game (``GAMEHOST_SOAK=1``: 1,000; no larger count has
found a leak the default did not: ``tests/suite_level.py``).
"""
from __future__ import annotations

import os
import random
from typing import Any

import pytest

from bot import render
from bot.games import engine_hooks, render_hooks
from bot.policies import choose_action
from engines import GAMES, get_engine

from .discord_invariants import Secrets
from .engines.conformance import string_leaves
from .suite_level import count

NAMES = render.Names({}, {})


# ---- 1. every game, many seeded games --------------------------------------------------------------------------
def check_step(game: str, state: Any, events: list, leaks: list[str], where: str,
               told: dict[str, set[str]] | None = None) -> None:
    """``told``: the cards private events have shown each player so far (a hand view may remember them)."""
    engine = get_engine(game)
    secrets = Secrets(game, state)
    board = render.board(game, engine.view(state, None), NAMES, "en").text()
    alt = render_hooks(game).image_alt  # the board picture's alt text is public too
    if alt is not None:
        board += "\n" + alt(engine.view(state, None), NAMES, "en")
    for what in secrets.leaks(board, None):
        leaks.append(f"{where}: public board shows {what}")
    for ev in events:
        data = " ".join(string_leaves(ev.model_dump(mode="json")["data"]))
        line = render.event_line(game, ev, NAMES, "en") or ""
        readers = [None] if ev.visible_to is None else list(ev.visible_to)
        for reader in readers:
            for what in secrets.leaks(line, reader, ev.visible_to or ()) | secrets.leaks(data, reader,
                                                                                          ev.visible_to or ()):
                leaks.append(f"{where}: event {ev.type} to {reader or 'everyone'} shows {what}")
    for player in state.players:
        view = engine.view(state, player)
        text = render.hand(game, view, NAMES, "en")
        seen = (told or {}).get(player, set())
        for what in (secrets.leaks(text, player, known=seen)
                     | secrets.leaks(" ".join(string_leaves(view)), player, known=seen)):
            leaks.append(f"{where}: hand view of {player} shows {what}")


def seat_counts(game: str) -> int:
    engine = get_engine(game)
    return engine.max_players - engine.min_players + 1


def engine_games(game: str) -> int:
    """Seeded games to play: the default plays one at each player count (seed ``s`` seats ``min + s % counts``)."""
    default = count(quick=seat_counts(game), full=seat_counts(game), soak=1000)
    return int(os.environ.get("GAMEHOST_HIDDEN_GAMES", default))


def play_seeded(game: str, seed: int, leaks: list[str], options: dict[str, Any] | None = None) -> int:
    engine = get_engine(game)
    seats = engine.min_players + seed % seat_counts(game)
    state = engine.new_game([f"p{i}" for i in range(seats)], seed=10 ** 12 + seed, options=options)
    rng = random.Random(seed)
    start = engine_hooks(game).start_events
    check_step(game, state, start(state) if start else [], leaks, f"{game} seed {seed} start")
    steps = 0
    told: dict[str, set[str]] = {p: set() for p in state.players}
    while engine.to_act(state):
        player = rng.choice(engine.to_act(state))
        state, events = engine.apply(state, player, choose_action(engine, state, player, rng))
        steps += 1
        for ev in events:
            for reader in ev.visible_to or ():
                told[reader] |= set(string_leaves(ev.data))
        check_step(game, state, events, leaks, f"{game} seed {seed} step {steps}", told)
        assert steps < 12000  # a 6-seat Twin Pyramid match may run deals to the announced turn limit
    return steps


@pytest.mark.parametrize("game", GAMES)
def test_seeded_games_never_show_a_secret_to_anyone_else(game: str) -> None:
    leaks: list[str] = []
    games = engine_games(game)
    steps = sum(play_seeded(game, seed, leaks) for seed in range(games))
    print(f"\nhidden information, {game}: {games} games, {steps} moves checked, leaks found: {len(leaks)}")
    assert not leaks, "\n".join(leaks[:30])


@pytest.mark.parametrize("game", ["pileup", "rocca", "akuma", "twinpyramid"])
def test_per_seat_games_never_show_an_own_pile_or_stream_to_anyone(game: str) -> None:
    """The same with ``streams: per_seat``: besides the hands, every seat's own pile (no text shows its cards, not
    even to the pile's owner — but the cards a Twin Pyramid 3 showed its player on their own pile) and every seat's
    own RNG state."""
    leaks: list[str] = []
    games = engine_games(game)
    steps = sum(play_seeded(game, seed, leaks, {"streams": "per_seat"}) for seed in range(games))
    assert steps > 0 and not leaks, "\n".join(leaks[:30])
