"""One conformance suite over every registered game (docs/engine-contract.md, Tests 1)."""
from __future__ import annotations

import pytest

from engines import GAMES, BadOptions, get_engine
from engines.streams import STREAMS_FIELD, Streams

from ..suite_level import count
from .conformance import check_in_place, check_replay, random_playthrough


def player_counts(name: str) -> list[int]:
    eng = get_engine(name)
    return list(range(eng.min_players, eng.max_players + 1))


@pytest.mark.parametrize("name", GAMES)
def test_random_playthroughs_end_and_never_leak(name: str) -> None:
    eng = get_engine(name)
    for n in player_counts(name):
        for seed in range(count(quick=1, full=1, soak=3)):  # more seeds at CI found nothing more (git log)
            random_playthrough(eng, seed * 1000 + n, n)


@pytest.mark.parametrize("name", GAMES)
def test_replay_is_deterministic(name: str) -> None:
    eng = get_engine(name)
    check_replay(eng, 7, eng.min_players)
    check_replay(eng, 8, eng.max_players)


@pytest.mark.parametrize("name", GAMES)
def test_player_count_and_options_checked(name: str) -> None:
    eng = get_engine(name)
    with pytest.raises(BadOptions):
        eng.new_game([f"p{i}" for i in range(eng.max_players + 1)], seed=1)
    with pytest.raises(BadOptions):
        eng.new_game([f"p{i}" for i in range(eng.min_players - 1)], seed=1)
    with pytest.raises(BadOptions):
        eng.new_game([f"p{i}" for i in range(eng.min_players)], seed=1, options={"no_such_option": 1})


@pytest.mark.parametrize("name", GAMES)
def test_contract_attributes(name: str) -> None:
    eng = get_engine(name)
    assert eng.name == name
    assert 1 <= eng.min_players <= eng.max_players


def test_engines_import_no_io_layers() -> None:
    """engines/ must not import discord, aiosqlite, bot or cogs (docs/engine-contract.md, Layers)."""
    import ast
    import pathlib

    forbidden = {"discord", "aiosqlite", "bot", "cogs", "random", "time", "datetime", "asyncio", "logging"}
    root = pathlib.Path(__file__).resolve().parents[2] / "engines"
    for path in root.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for n in names:
                assert n.split(".")[0] not in forbidden, f"{path.name} imports {n}"


@pytest.mark.parametrize("name", GAMES)
def test_in_place_plays_as_apply_and_shares_nothing(name: str) -> None:
    """The service's in-place transition (``Engine.apply_in_place``): the same game as ``apply``, and no event,
    view, result or legal action built on the way changes after it (each would be a holder seeing the table's
    state change under it)."""
    eng = get_engine(name)
    for n in (eng.min_players, eng.max_players):
        assert check_in_place(eng, 11 + n, n) > 0


PER_SEAT_GAMES = [g for g in GAMES if STREAMS_FIELD in get_engine(g).options_model.model_fields]
PER_SEAT = {STREAMS_FIELD: Streams.PER_SEAT.value}


@pytest.mark.parametrize("name", PER_SEAT_GAMES)
def test_per_seat_streams_conform(name: str) -> None:
    """The same suite with every seat's own streams (``streams: per_seat``, engines/streams.py): playthroughs at
    every table size that end and never leak, dump/load at every step, replay and in-place determinism."""
    eng = get_engine(name)
    for n in player_counts(name):
        for seed in range(count(quick=1, full=3)):
            random_playthrough(eng, seed * 1000 + n + 500, n, PER_SEAT)
    check_replay(eng, 17, eng.min_players, PER_SEAT)
    check_replay(eng, 18, eng.max_players, PER_SEAT)
    for n in (eng.min_players, eng.max_players):
        assert check_in_place(eng, 21 + n, n, PER_SEAT) > 0


@pytest.mark.parametrize("name", PER_SEAT_GAMES)
def test_the_streams_option_is_checked(name: str) -> None:
    eng = get_engine(name)
    players = [f"p{i}" for i in range(eng.min_players)]
    with pytest.raises(BadOptions):
        eng.new_game(players, seed=1, options={STREAMS_FIELD: "per_player"})
    assert eng.new_game(players, seed=1, options={STREAMS_FIELD: "shared"}) == eng.new_game(players, seed=1)
