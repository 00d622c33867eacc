"""Every event a game emits has the shape its renderer's formatter reads (the ``TypedDict`` of
``bot/render/<game>_event_shapes.py`` that ``On`` names): its required keys, no key the shape lacks, and each
value of the declared type (pydantic, strict). The formatters take the data as that shape unchecked, so this is
where a key renamed in an engine, or a value of another type, is caught."""
from __future__ import annotations

import functools
import random
from collections.abc import Iterator, Mapping

import pytest
from pydantic import TypeAdapter, ValidationError

from bot.render import akuma, diamondbox, pileup, rocca, twinpyramid_events
from bot.render.event_table import EventText, On
from engines import GAMES, Event, get_engine
from engines.streams import STREAMS_FIELD, Streams

from .engines.conformance import MAX_STEPS
from .suite_level import count

TABLES: dict[str, Mapping[str, EventText]] = {
    "akuma": akuma.EVENTS, "rocca": rocca.EVENTS, "pileup": pileup.EVENTS, "twinpyramid": twinpyramid_events.EVENTS,
    "diamondbox": diamondbox.EVENTS,
}
PER_SEAT = {STREAMS_FIELD: Streams.PER_SEAT.value}
# Events random play rarely reaches (none of these in 300 games): their shape is checked whenever one occurs.
RARE = {"twinpyramid": {"passed", "forced_draw_skipped"}, "diamondbox": {"game_drawn"}}
OPTIONS: dict[str, list[dict[str, object]]] = {
    "rocca": [{}, {"bon": True}, PER_SEAT],
    "pileup": [{}, PER_SEAT],
    "twinpyramid": [{}],
    "akuma": [{}],
    "diamondbox": [{}],
}


def emitted(name: str, seed: int, players: int, options: dict[str, object]) -> Iterator[Event]:
    """The events of a seeded random game, from its start (the start events a table shows first) to its end."""
    engine = get_engine(name)
    rnd = random.Random(seed)
    state = engine.new_game([f"p{i}" for i in range(players)], seed=seed, options=options)
    start = getattr(engine, "start_events", None)
    yield from start(state) if start is not None else ()
    for _ in range(MAX_STEPS):
        actors = engine.to_act(state)
        if not actors:
            return
        player = rnd.choice(actors)
        out_of_turn = [p for p in state.players if p not in actors and engine.out_of_turn_actions(state, p)]
        if out_of_turn and rnd.random() < 0.1:  # Rocca's Bon
            player = rnd.choice(out_of_turn)
        yield from engine.apply_in_place(state, player, rnd.choice(engine.legal_actions(state, player)))
    raise AssertionError(f"{name} did not end within {MAX_STEPS} steps")


@functools.cache
def adapter(shape: type) -> TypeAdapter[object]:
    return TypeAdapter(shape)


def shape_problem(shape: type, data: Mapping[str, object]) -> str | None:
    required: frozenset[str] = shape.__required_keys__  # type: ignore[attr-defined]
    known = required | shape.__optional_keys__  # type: ignore[attr-defined]
    if not required <= data.keys():
        return f"missing {sorted(required - data.keys())}"
    if not data.keys() <= known:
        return f"not in the shape {sorted(data.keys() - known)}"
    try:
        adapter(shape).validate_python(dict(data), strict=True)
    except ValidationError as exc:
        return str(exc)
    return None


@pytest.mark.parametrize("name", sorted(TABLES))
def test_every_event_has_the_shape_its_formatter_reads(name: str) -> None:
    engine = get_engine(name)
    table = TABLES[name]
    seen: set[str] = set()
    problems: list[str] = []
    for options in OPTIONS[name]:
        for players in range(engine.min_players, engine.max_players + 1):
            for seed in range(count(quick=3, full=6)):
                for ev in emitted(name, seed * 100 + players, players, options):
                    formatter = table.get(ev.type)
                    if formatter is None:
                        continue
                    seen.add(ev.type)
                    problem = shape_problem(formatter.shape, ev.data)
                    if problem is not None:
                        problems.append(f"{ev.type} {ev.data}: {problem}")
    assert problems == []
    assert seen | RARE.get(name, set()) == set(table), f"no game emitted {sorted(set(table) - seen)}"


def test_every_game_declares_its_event_shapes() -> None:
    assert sorted(TABLES) == sorted(GAMES)


def test_a_wrong_shape_is_told() -> None:
    shape = rocca.EVENTS["drew"].shape
    assert shape_problem(shape, {"player": "p0", "count": 1, "wanted": 1, "pile": 3}) is None
    assert "missing" in (shape_problem(shape, {"player": "p0", "count": 1}) or "")
    assert "not in the shape" in (shape_problem(shape, {"player": "p0", "count": 1, "wanted": 1, "left": 3}) or "")
    assert shape_problem(shape, {"player": "p0", "count": "1", "wanted": 1}) is not None
    assert isinstance(rocca.EVENTS["drew"], On)
