"""Per-seat streams (``streams: per_seat``, engines/streams.py): two tables dealt from the same seed, other people
seated in the same order, give every seat the same draws, dice and steals in the same order whatever the other
seats do; with the original ``shared`` streams one seat's different play shifts the others' (so the property can
fail).

"The n-th draw of seat s" is read from the events: the cards its private draw events show it, one by one; "the
n-th roll" from its public roll events (Pile up keeps a seat's turn rolls and deflect rolls apart); Akuma's n-th
steal of a seat is the place the stolen card had in the victim's sorted hand, compared where the victim's hand had
the same size in both games (a random steal can only take the same card from the same hand)."""
from __future__ import annotations

import json
import random
from collections import defaultdict
from itertools import takewhile
from typing import Any, Callable

import pytest

from engines import GAMES, Event, get_engine
from engines.akuma import Play, Release, Steal, StopStealing
from engines.akuma.rules import steal_count
from engines.streams import STREAMS_FIELD, Streams

from ..suite_level import count

STREAM_GAMES = ("akuma", "rocca", "pileup", "diamondbox", "twinpyramid")
PER_SEAT = {STREAMS_FIELD: Streams.PER_SEAT.value}
Outcomes = dict[tuple[int, str], list[Any]]  # (seat, kind) -> that seat's outcomes of that kind, in order


def test_the_games_with_the_option() -> None:
    """Every game takes the option."""
    with_option = tuple(g for g in GAMES if STREAMS_FIELD in get_engine(g).options_model.model_fields)
    assert sorted(with_option) == sorted(STREAM_GAMES) == sorted(GAMES)


def pileup_outcomes(state: Any, player: str, events: list[Event]) -> list[tuple[str, str, Any]]:
    out: list[tuple[str, str, Any]] = []
    for ev in events:
        if ev.type == "drew":
            out += [(ev.data["player"], "draw", card) for card in ev.data["cards"]]
        elif ev.type == "rolled":
            out.append((ev.data["player"], "dice", tuple(ev.data["dice"])))
        elif ev.type == "deflect_rolled":
            out.append((ev.data["player"], "deflect", ev.data["die"]))
    return out


def rocca_outcomes(state: Any, player: str, events: list[Event]) -> list[tuple[str, str, Any]]:
    return [(ev.data["player"], "draw", card) for ev in events if ev.type == "drew_cards" for card in ev.data["cards"]]


def akuma_outcomes(state: Any, player: str, events: list[Event]) -> list[tuple[str, str, Any]]:
    """(hand size, place of the stolen card) of each steal; ``state`` is the state before the action."""
    out: list[tuple[str, str, Any]] = []
    for ev in events:
        if ev.type == "stolen_card":
            hand = state.hands[ev.data["victim"]]
            out.append((ev.data["thief"], "steal", (len(hand), hand.index(ev.data["card"]))))
    return out


def diamondbox_outcomes(state: Any, player: str, events: list[Event]) -> list[tuple[str, str, Any]]:
    return [(ev.data["player"], "draw", ev.data["card"]) for ev in events if ev.type == "drew_card"]


REBUILT = "rebuilt or reordered"  # Twin Pyramid: what a seat draws after it depends on more than the deal


def twinpyramid_outcomes(state: Any, player: str, events: list[Event]) -> list[tuple[str, str, Any]]:
    """A seat's draws by the deal they were drawn in (every deal deals new own piles, D19), and a mark where the
    seat's pile was rebuilt from the shared discard (a shared pile: every seat's) or its top reordered by the
    seat's own 3: the draws after it are not the deal's alone (``compared`` stops there)."""
    out: list[tuple[str, str, Any]] = []
    deal = state.deal
    for ev in events:
        if ev.type == "deal_started":
            deal = ev.data["deal"] - 1
        elif ev.type == "drew_card" or (ev.type == "drew" and "card" in ev.data):  # held: private; shown: public
            out.append((ev.data["player"], f"deal {deal}", ev.data["card"]))
        elif ev.type == "three_ordered" or (ev.type == "reshuffled" and "player" in ev.data):
            out.append((ev.data["player"], f"deal {deal}", REBUILT))
        elif ev.type == "reshuffled":
            out += [(p, f"deal {deal}", REBUILT) for p in state.players]
    return out


READERS: dict[str, Callable[[Any, str, list[Event]], list[tuple[str, str, Any]]]] = {
    "pileup": pileup_outcomes, "rocca": rocca_outcomes, "akuma": akuma_outcomes, "diamondbox": diamondbox_outcomes,
    "twinpyramid": twinpyramid_outcomes,
}


def stealing(rnd: random.Random, legal: list[Any]) -> Any:
    """Akuma's random player keen on steals (a random one steals in one game of three or so): a play with 2s
    when it has one, mostly, and a steal whenever it may."""
    steals = [a for a in legal if isinstance(a, Steal)]
    twos = [a for a in legal if isinstance(a, Play) and steal_count(a.cards)]
    if steals:
        return rnd.choice(steals)
    return rnd.choice(twos if twos and rnd.random() < 0.8 else legal)


CHOOSERS: dict[str, Callable[[random.Random, list[Any]], Any]] = {"akuma": stealing}


def play(game: str, players: int, seed: int, options: dict[str, Any], seat_seeds: list[int],
         start_differing: int, prefix: str = "p") -> tuple[Outcomes, list[str]]:
    """A game played by random legal actions, each seat with its own ``random.Random``; every seat's outcomes (by
    seat number) and the action log (the players' names written as their seat numbers). A seat's generator is
    seeded with its ``seat_seeds`` entry only from action ``start_differing`` on (before that every seat draws
    from one generator seeded with ``seed``), so two games differing in one seat's entry play alike up to there
    and then apart. The players are named ``prefix`` + seat number: other names at another table of the round."""
    engine = get_engine(game)
    names = [f"{prefix}{i}" for i in range(players)]
    state = engine.new_game(names, seed=seed, options=options)
    common = random.Random(seed)
    own = {p: random.Random(s) for p, s in zip(names, seat_seeds, strict=True)}
    outcomes: Outcomes = defaultdict(list)
    log: list[str] = []
    read = READERS[game]
    choose = CHOOSERS.get(game, random.Random.choice)
    while actors := engine.to_act(state):
        player = actors[0]
        action = choose(common if len(log) < start_differing else own[player], engine.legal_actions(state, player))
        before = state
        state, events = engine.apply(state, player, action)
        for seat, kind, value in read(before, player, events):
            outcomes[(names.index(seat), kind)].append(value)
        written = json.dumps([player, action.model_dump(mode="json")])
        for i, name in enumerate(names):
            written = written.replace(f'"{name}"', f'"#{i}"')
        log.append(written)
    return outcomes, log


def compared(game: str, a: list[Any], b: list[Any]) -> list[tuple[Any, Any]]:
    """The n-th outcomes of both games for every n both reached (Akuma: only where the hand sizes were equal)."""
    pairs = list(zip(a, b, strict=False))
    if game == "twinpyramid":
        pairs = list(takewhile(lambda pair: REBUILT not in pair, pairs))
    return [(x, y) for x, y in pairs if game != "akuma" or x[0] == y[0]]


def two_tables(game: str, players: int, seed: int, options: dict[str, Any]) -> tuple[Outcomes, Outcomes, bool]:
    """The same deal at two tables of other players, seated in the same order, where the last seat plays otherwise
    from action 5 on."""
    seats = [seed * 10 + i for i in range(players)]
    a, log_a = play(game, players, seed, options, seats, 5)
    b, log_b = play(game, players, seed, options, [*seats[:-1], seats[-1] + 1], 5, prefix="other")
    assert log_a[:5] == log_b[:5]  # the same deal and the same first actions, seat for seat
    return a, b, log_a != log_b


def cases(game: str) -> list[tuple[int, int]]:
    engine = get_engine(game)
    seeds = count(quick=4, full=12) * (5 if game == "akuma" else 1)  # an Akuma game is short, with few steals
    return [(n, seed) for n in (engine.min_players, engine.max_players) for seed in range(seeds)]


@pytest.mark.parametrize("game", STREAM_GAMES)
def test_per_seat_every_seat_gets_the_same_outcomes_whatever_the_others_do(game: str) -> None:
    compared_after_divergence = diverged = 0
    for players, seed in cases(game):
        a, b, apart = two_tables(game, players, seed, PER_SEAT)
        diverged += apart
        for key in a.keys() | b.keys():
            pairs = compared(game, a.get(key, []), b.get(key, []))
            assert all(x == y for x, y in pairs), f"{game} seed {seed}: {key} differs: {pairs}"
            compared_after_divergence += len(pairs)
    assert diverged >= len(cases(game)) - 1, "the games must play apart"
    assert compared_after_divergence > 50


@pytest.mark.parametrize("game", ["rocca", "pileup", "twinpyramid"])
def test_shared_one_seats_play_shifts_the_other_seats_outcomes(game: str) -> None:
    """The same two tables with the original shared streams: some other seat's n-th draw, roll or steal
    differs — what the option takes away."""
    shifted = 0
    for players, seed in cases(game):
        a, b, _ = two_tables(game, players, seed, {})
        others = {key for key in a.keys() | b.keys() if key[0] != players - 1}
        shifted += any(x != y for key in others for x, y in compared(game, a.get(key, []), b.get(key, [])))
    assert shifted >= len(cases(game)) // 2


def third_seats_steal(seed: int, options: dict[str, Any], first_steals: bool) -> str | None:
    """Akuma: p0 leads a 2 and steals from p2 (or not: ``first_steals``), p1 releases, p2 leads a 2 and steals
    from p1, whose hand is the same either way. The card p2's steal took (None when p0 took p2's 2)."""
    engine = get_engine("akuma")
    dealt = engine.new_game(["p0", "p1", "p2"], seed=seed, options=options)
    hands = {"p0": ["Y2", "Y9", "P9"], "p1": ["P1", "G3", "G7", "G8", "P8"], "p2": ["G2", "Y7", "Y8", "P7", "G9"]}
    state = dealt.model_copy(update={"hands": hands, "current": "p0", "trick_starter": "p0"}, deep=True)
    state, _ = engine.apply(state, "p0", Play(cards=["Y2"]))
    state, _ = engine.apply(state, "p0", Steal(victim="p2") if first_steals else StopStealing())
    state, _ = engine.apply(state, "p1", next(a for a in engine.legal_actions(state, "p1") if isinstance(a, Release)))
    if "G2" not in state.hands["p2"]:
        return None
    before = list(state.hands["p1"])
    state, events = engine.apply(state, "p2", Play(cards=["G2"]))
    state, events = engine.apply(state, "p2", Steal(victim="p1"))
    stolen = next(ev.data["card"] for ev in events if ev.type == "stolen_card")
    assert stolen in before
    return str(stolen)


def test_akuma_a_steal_takes_the_same_card_whatever_another_seat_stole_before() -> None:
    """With per-seat streams p2's first steal takes the same card from the same hand whether p0 stole before it or
    not; with the shared RNG p0's steal shifts it."""
    shared_shifted = compared_steals = 0
    for seed in range(count(quick=12, full=40)):
        per_seat = [third_seats_steal(seed, PER_SEAT, first) for first in (True, False)]
        if None not in per_seat:
            assert per_seat[0] == per_seat[1], seed
            compared_steals += 1
        shared = [third_seats_steal(seed, {}, first) for first in (True, False)]
        shared_shifted += None not in shared and shared[0] != shared[1]
    assert compared_steals >= 8 and shared_shifted >= 3


def test_diamondbox_plays_the_same_game_with_either_value() -> None:
    """Diamond Box already gives each player its own pile and draws nothing at random after the deal: the option
    changes nothing but the options it records."""
    engine = get_engine("diamondbox")
    for players in (2, 4):
        shared = engine.new_game([f"p{i}" for i in range(players)], seed=3)
        per_seat = engine.new_game([f"p{i}" for i in range(players)], seed=3, options=PER_SEAT)
        rnd = random.Random(players)
        while actors := engine.to_act(shared):
            action = rnd.choice(engine.legal_actions(shared, actors[0]))
            shared, events = engine.apply(shared, actors[0], action)
            per_seat, same_events = engine.apply(per_seat, actors[0], action)
            assert events == same_events
            assert per_seat.model_dump(exclude={"options"}) == shared.model_dump(exclude={"options"})
        assert engine.result(per_seat) == engine.result(shared)


def int_leaves(obj: Any) -> set[int]:
    if isinstance(obj, dict):
        return set().union(*(int_leaves(v) for v in obj.values())) if obj else set()
    if isinstance(obj, list):
        return set().union(*(int_leaves(v) for v in obj)) if obj else set()
    return {obj} if isinstance(obj, int) and not isinstance(obj, bool) else set()


def own_secrets(game: str, state: Any) -> tuple[set[str], set[int]]:
    """The cards in every seat's own pile and the states of every seat's own RNGs."""
    own = state.own or {}
    if game == "pileup":
        return {c for o in own.values() for c in o.pile}, {r.state for o in own.values() for r in (o.dice, o.deflect)}
    if game == "rocca":
        return {c for pile in own.values() for c in pile}, set()
    if game == "twinpyramid":
        return {c for o in own.values() for c in o.pile}, {o.rng.state for o in own.values()}
    return set(), {r.state for r in own.values()}


@pytest.mark.parametrize("game", ["pileup", "rocca", "akuma", "twinpyramid"])
def test_no_view_shows_a_seats_own_pile_or_stream(game: str) -> None:
    """Nobody sees what any seat will draw or roll next — not even the seat itself: no view (spectator or seat)
    holds a card of an own pile, nor the state of an own RNG; the pile sizes are public. (Twin Pyramid: but the
    cards a seat's own 3 showed it on its own pile, to that seat alone.)"""
    from .conformance import string_leaves

    engine = get_engine(game)
    for players in (engine.min_players, engine.max_players):
        state = engine.new_game([f"p{i}" for i in range(players)], seed=players, options=PER_SEAT)
        rnd = random.Random(players)
        steps = 0
        while actors := engine.to_act(state):
            cards, rngs = own_secrets(game, state)
            steps += bool(rngs or cards)
            for viewer in [None, *state.players]:
                shown = engine.view(state, viewer).model_dump(mode="json")
                peeked = set(state.peek) if game == "twinpyramid" and viewer == state.three_player else set()
                assert not (cards - peeked) & set(string_leaves(shown)), (viewer, cards & set(string_leaves(shown)))
                assert not rngs & int_leaves(shown)
            state, _ = engine.apply(state, actors[0], rnd.choice(engine.legal_actions(state, actors[0])))
        assert steps > 10
