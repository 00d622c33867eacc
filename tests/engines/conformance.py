"""Checks every engine must pass (docs/engine-contract.md, Tests 1). Plain functions taking an engine,
so a game under construction can run them before it is registered in ``GAMES``."""
from __future__ import annotations

import json
import random
from typing import Any, Iterator

from pydantic import BaseModel

from engines import Engine, EngineError, Event, View
from engines.errors import BadAction

MAX_STEPS = 20_000  # a 6-seat Twin Pyramid match (12 deals) takes up to ~4,600 random steps


def _walk(obj: Any, keys: list[Any], leaves: list[str]) -> None:
    """Every dict key of ``obj`` (into ``keys``) and every string leaf and key, as a string (into ``leaves``)."""
    kind = type(obj)  # the exact types first: this runs on every view of every step of every random game
    if kind is str:
        leaves.append(obj)
    elif kind is dict:
        for k, v in obj.items():
            keys.append(k)
            leaves.append(str(k))
            if type(v) is str:
                leaves.append(v)
            elif v is not None and type(v) is not int and type(v) is not bool:
                _walk(v, keys, leaves)
    elif kind is list or kind is tuple:
        for v in obj:
            if type(v) is str:
                leaves.append(v)
            elif v is not None and type(v) is not int and type(v) is not bool:
                _walk(v, keys, leaves)
    elif isinstance(obj, BaseModel):
        _walk(obj.model_dump(), keys, leaves)
    elif isinstance(obj, str):
        leaves.append(obj)
    elif isinstance(obj, dict):
        _walk(dict(obj), keys, leaves)
    elif isinstance(obj, (list, tuple)):
        _walk(list(obj), keys, leaves)


def string_leaves(obj: Any) -> Iterator[str]:
    leaves: list[str] = []
    _walk(obj, [], leaves)
    return iter(leaves)


def all_keys(obj: Any) -> Iterator[Any]:
    keys: list[Any] = []
    _walk(obj, keys, [])
    return iter(keys)


def secret_cards(engine: Engine, state: Any) -> dict[str, set[str]]:
    """Each seated player's secret cards, as their own view reports them."""
    return {p: set(engine.view(state, p).hand or []) for p in state.players}


def check_views(engine: Engine, state: Any, told: dict[str, set[str]] | None = None) -> dict[str, set[str]]:
    """Every view is whole and JSON-safe, and shows no other player's secret card, unless a private event
    addressed to the viewer showed it (``told``: a card it passed on, which its view may remember). Returns each
    player's secret cards (``secret_cards``), read from the views built here."""
    views = {viewer: engine.view(state, viewer) for viewer in [None, *state.players]}
    secrets = {p: set(views[p].hand or []) for p in state.players}
    for viewer, typed in views.items():
        assert isinstance(typed, View), "a view is the game's View model"
        view = typed.model_dump()
        text = json.dumps(view)  # JSON-safe
        assert json.loads(typed.model_dump_json()) == json.loads(text)
        assert type(typed).model_validate(view) == typed  # the dump is the whole view
        for key in ("game", "players", "to_act", "over"):
            assert key in view, f"view lacks {key!r}"
        assert view["players"] == state.players
        assert view["to_act"] == engine.to_act(state)
        assert typed.over == (engine.result(state) is not None) and typed.result == engine.result(state)
        keys: list[Any] = []
        found: list[str] = []
        _walk(view, keys, found)
        assert "rng" not in set(keys), "the RNG state leaked into a view"
        if viewer is not None:
            assert "hand" in view and typed.viewer == viewer
        leaves = set(found) - (told or {}).get(viewer or "", set())
        for owner, cards in secrets.items():
            if owner != viewer:
                leaked = leaves & cards
                assert not leaked, f"{viewer!r} sees {owner!r}'s secret cards {leaked}"
    return secrets


def check_events(engine: Engine, state_after: Any, events: list[Event],
                 secrets: dict[str, set[str]] | None = None) -> None:
    """No event shows a player's secret card (``secrets``: ``secret_cards`` of ``state_after``, if already read)
    to anyone it is not addressed to."""
    if secrets is None:
        secrets = secret_cards(engine, state_after)
    for ev in events:
        json.dumps(ev.model_dump(mode="json"))
        leaves = set(string_leaves(ev.data))
        for owner, cards in secrets.items():
            if ev.visible_to is not None and owner in ev.visible_to:
                continue
            leaked = leaves & cards
            assert not leaked, f"event {ev.type} shows {owner!r}'s secret cards {leaked} to {ev.visible_to}"


def random_playthrough(engine: Engine, seed: int, n_players: int, options: dict | None = None,
                       check: bool = True) -> tuple[list[tuple[str, dict]], list[str], Any]:
    """Plays a seeded random game to the end. Returns (actions, dumps after each step, final state)."""
    rnd = random.Random(seed)
    players = [f"p{i}" for i in range(n_players)]
    state = engine.new_game(players, seed=seed, options=options)
    log: list[tuple[str, dict]] = []
    dumps = [engine.dump(state)]
    prev_legal: list[Any] = []
    told: dict[str, set[str]] = {p: set() for p in players}  # what private events showed each player
    if check:
        check_views(engine, state, told)  # every later state's views are checked just after the move to it
    for _ in range(MAX_STEPS):
        actors = engine.to_act(state)
        if not actors:
            break
        if check:
            check_illegal_refused(engine, state, prev_legal, rnd)
        interjecting = [p for p in state.players if p not in actors and engine.out_of_turn_actions(state, p)]
        if interjecting and rnd.random() < 0.1:
            player = rnd.choice(interjecting)
        else:
            player = rnd.choice(actors)
        legal = engine.legal_actions(state, player)
        assert legal, f"{player} must act but has no legal action"
        for a in legal:
            assert engine.parse_action(a.model_dump(mode="json")) == a
        action = rnd.choice(legal)
        before = engine.dump(state)
        state, events = engine.apply(state, player, action)
        assert engine.dump(engine.load(before)) == before  # input untouched
        assert engine.load(engine.dump(state)) == state
        for ev in events:
            for p in ev.visible_to or ():
                told[p] |= set(string_leaves(ev.data))
        if check:
            check_events(engine, state, events, check_views(engine, state, told))
        log.append((player, action.model_dump(mode="json")))
        dumps.append(engine.dump(state))
        prev_legal = legal
    else:
        raise AssertionError(f"game did not end within {MAX_STEPS} steps")
    assert engine.result(state) is not None, "to_act is empty but there is no result"
    return log, dumps, state


def check_illegal_refused(engine: Engine, state: Any, candidates: list[Any], rnd: random.Random) -> None:
    """Actions not in the current legal list, and players who may not act, are refused; state unchanged."""
    before = engine.dump(state)
    actors = engine.to_act(state)
    for player in state.players:
        if player in actors:
            legal = engine.legal_actions(state, player)
            stale = [a for a in candidates if a not in legal]
            for a in rnd.sample(stale, min(3, len(stale))):
                try:
                    engine.apply(state, player, a)
                except EngineError:
                    pass
                else:
                    raise AssertionError(f"{a} was applied but is not in legal_actions")
        elif candidates and candidates[0] not in engine.out_of_turn_actions(state, player):
            try:
                engine.apply(state, player, candidates[0])
            except EngineError:
                pass
            else:
                raise AssertionError(f"{player} acted out of turn")
    try:
        engine.apply(state, "nobody", candidates[0] if candidates else {"type": "?"})
    except EngineError:
        pass
    else:
        raise AssertionError("a player who is not seated acted")
    try:
        engine.parse_action({"type": "no-such-action", "x": 1})
    except BadAction:
        pass
    else:
        raise AssertionError("garbage action data was parsed")
    assert engine.dump(state) == before


def check_replay(engine: Engine, seed: int, n_players: int, options: dict | None = None) -> None:
    log, dumps, _ = random_playthrough(engine, seed, n_players, options, check=False)
    state = engine.new_game([f"p{i}" for i in range(n_players)], seed=seed, options=options)
    assert engine.dump(state) == dumps[0]
    for i, (player, data) in enumerate(log, start=1):
        state, _ = engine.apply(state, player, engine.parse_action(data))
        assert engine.dump(state) == dumps[i], f"replay diverged at step {i}"


def check_in_place(engine: Engine, seed: int, n_players: int, options: dict | None = None) -> int:
    """``apply_in_place`` plays a seeded random game exactly as ``apply`` does (the same states and events), and
    nothing built on the way (its events, the views, results and legal actions) changes as the state moves on
    after it: none shares a mutable part with the state. Returns the number of steps played."""
    rnd = random.Random(seed)
    players = [f"p{i}" for i in range(n_players)]
    state = engine.new_game(players, seed=seed, options=options)
    copy = engine.load(engine.dump(state))  # played with ``apply``
    kept: list[tuple[BaseModel, str]] = []  # everything built from the state, with its JSON when it was built

    def keep(*built: BaseModel | None) -> None:
        kept.extend((b, b.model_dump_json()) for b in built if b is not None)

    steps = 0
    while actors := engine.to_act(state):
        assert steps < MAX_STEPS, f"game did not end within {MAX_STEPS} steps"
        interjecting = [p for p in state.players if p not in actors and engine.out_of_turn_actions(state, p)]
        player = rnd.choice(interjecting if interjecting and rnd.random() < 0.1 else actors)
        legal = engine.legal_actions(state, player)
        keep(*legal, *engine.out_of_turn_actions(state, player), engine.view(state, player), engine.view(state, None))
        action = rnd.choice(legal)
        events = engine.apply_in_place(state, player, action)
        copy, copied_events = engine.apply(copy, player, action)
        assert engine.dump(state) == engine.dump(copy), f"in place diverged at step {steps}"
        assert events == copied_events
        keep(*events, engine.result(state))
        steps += 1
    changed = [(type(b).__name__, text) for b, text in kept if b.model_dump_json() != text]
    assert not changed, f"{len(changed)} of {len(kept)} built objects changed with the state, e.g. {changed[0]}"
    return steps
