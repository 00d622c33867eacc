"""How much Rocca's public play (and a seat's Q passes) tell about the rivals' hands, and how much better the
strong bot's samples get.

    python -m bench.rocca_reading [--players 2] [--games 60] [--samples 60]

Plays ``normal`` seats (game i seeded i) and at every third decision looks at each rival's hand as that seat may:
how often a recorded time it passed up placing constrains the hand (the view's ``declined``), what share of the
rival's cards it constrains, and what share of the unseen cards the latest such time rules out; how often the
seat knows cards of the rival because it passed them with a Q (the view's ``known``). Then the calibration of the
determiniser (``bot/policies/sampling/rocca.py``): the Brier score of "this unseen card is in this rival's hand" (the
frequency over ``--samples`` samples against the truth), dealing the unseen cards uniformly, reading public play,
and reading it with the Q passes too (what the bot does). 0 would be a seat that knew the hands.
"""
from __future__ import annotations

import argparse
import random
from collections import Counter
from dataclasses import dataclass

from bot.policies import choose_for_seat
from bot.policies.sampling.rocca import _placed, deal_rivals, fitted_then, unseen_cards
from engines import get_engine
from engines.rocca.view import RoccaView


@dataclass
class Reading:
    looks: int = 0  # (decision, rival) pairs
    constrained: int = 0  # ... whose hand a recorded time constrains
    rival_cards: int = 0
    constrained_cards: int = 0
    ruled_out_share: float = 0.0  # summed over the constrained looks
    known: int = 0  # looks at a rival the seat passed cards it still holds
    known_cards: int = 0
    brier_pairs: int = 0  # (decision, rival, unseen card) triples
    brier: dict[str, float] | None = None


READINGS = {"uniform": ("declined", "known"), "reading public play": ("known",), "with the Q passes": ()}


def hands_dealt(view: RoccaView, rng: random.Random, unread: tuple[str, ...]) -> dict[str, list[str]]:
    """A sample's rival hands with the view's ``unread`` clues left out."""
    pool = unseen_cards(view)
    rng.shuffle(pool)
    return deal_rivals(view.model_copy(update={clue: {} for clue in unread}), pool)[0]


def look(view: RoccaView, truth: dict[str, list[str]], samples: int, out: Reading) -> None:
    """One decision's look at every rival's hand."""
    assert out.brier is not None
    me, unseen = view.viewer, unseen_cards(view)
    rivals = [p for p in view.players if p != me]
    for rival in rivals:
        size, times = view.hand_sizes[rival], view.declined.get(rival, [])
        held = max([size - d.since for d in times] + [0])
        out.looks += 1
        out.rival_cards += size
        if view.known.get(rival):
            out.known += 1
            out.known_cards += len(view.known[rival])
        if held > 0:
            out.constrained += 1
            out.constrained_cards += held
            latest = fitted_then(_placed(view, times[-1].tower), times[-1].card)
            out.ruled_out_share += len(latest & set(unseen)) / len(unseen)
    for name, unread in READINGS.items():
        seen_in = {rival: Counter[str]() for rival in rivals}
        for k in range(samples):
            dealt = hands_dealt(view, random.Random(k), unread)
            for rival in rivals:
                seen_in[rival].update(dealt[rival])
        out.brier[name] += sum((seen_in[r][c] / samples - (c in truth[r])) ** 2 for r in rivals for c in unseen)
    out.brier_pairs += len(unseen) * len(rivals)


def measure(players: int, games: int, samples: int) -> Reading:
    engine = get_engine("rocca")
    out = Reading(brier={name: 0.0 for name in READINGS})
    for seed in range(games):
        state = engine.new_game([f"s{i}" for i in range(players)], seed=seed)
        step = 0
        while actors := engine.to_act(state):
            player = actors[0]
            view = engine.view(state, player)
            assert isinstance(view, RoccaView)
            if step % 3 == 0:
                look(view, state.hands, samples, out)
            action = choose_for_seat("rocca", view, engine.legal_actions(state, player), f"{seed}:{step}", "normal")
            state, _ = engine.apply(state, player, action)
            step += 1
    return out


def positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.rocca_reading", description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, choices=range(2, 7), default=2)
    parser.add_argument("--games", type=positive, default=60)
    parser.add_argument("--samples", type=positive, default=60)
    args = parser.parse_args(argv)
    r = measure(args.players, args.games, args.samples)
    assert r.brier is not None
    print(f"rocca {args.players}p, {args.games} games: a recorded time constrains the rival's hand at "
          f"{r.constrained / r.looks:.2f} of {r.looks} looks; constrained cards "
          f"{r.constrained_cards / r.rival_cards:.2f} of the rivals' cards; the latest time rules out "
          f"{r.ruled_out_share / max(1, r.constrained):.2f} of the unseen cards; it knows cards it passed the "
          f"rival with a Q at {r.known / r.looks:.2f} of the looks "
          f"({r.known_cards / r.rival_cards:.3f} of the rivals' cards)")
    print("Brier score per (rival, unseen card): " + ", ".join(
        f"{name} {total / r.brier_pairs:.4f}" for name, total in r.brier.items()))


if __name__ == "__main__":
    main()
