"""How much luck same-deal rounds take out of a Swiss (issue 55), measured with the bots.

    python -m bench.same_deal_luck --tournaments 200 --games akuma pileup rocca diamondbox
    python -m bench.same_deal_luck --tournaments 20 --iterations 8 --jobs 2

Each simulated tournament is a 3-round Swiss of 12 bot entrants, 4 ``strong`` and 8 ``normal`` (which entrants are
strong, and every bot's own seeds, vary with the tournament's seed), seated, dealt and scored by the tournament code
itself (``FORMATS``' rows: the Swiss seating, a same-deal round's equal tables and rotated seats, ``table_deal``'s
seeds and options, the standings), every table played to its end by the engines and the bots' policies. Tournament i
is played twice, with its own deal per table and with ``deal: same``, from the same seed: the two are paired.

Printed per game and deal: the share of tournaments a strong bot won (fair share 4/12) with a 95% Wilson interval,
and the mean Spearman correlation between a bot's strength (strong 1, normal 0) and its standing (first = best)
with a 95% interval (mean ± 1.96 standard errors over the tournaments). Less luck: a higher share and correlation.
The strong search runs ``--iterations`` playouts per decision (fewer than at a Discord table, to keep the run
short; the same in both deals).
"""
from __future__ import annotations

import argparse
import math
import random
import statistics
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from bot.tournaments.formats import rules_of
from bot.tournaments.models import (
    Deal,
    Entrant,
    Format,
    TableStatus,
    Tournament,
    TournamentStatus,
    TournamentTable,
)
from bot.tournaments.running import RoundRunner
from bot.tournaments.same_deal import fill_player, table_results
from bot.tournaments.settings import default_seats
from bot.tournaments.standings import compute_standings
from engines import get_engine
from engines.streams import STREAMS_FIELD

from .bots import Matchup, wilson
from .report import print_table

ENTRANTS, STRONG, ROUNDS = 12, 4, 3
SAME_DEAL_GAMES = ("akuma", "pileup", "rocca", "diamondbox")


@dataclass(frozen=True)
class Outcome:
    strong_won: bool
    correlation: float  # Spearman: strength against standing (first = best), in [-1, 1]


def bot_key(seat: int, entrant: Entrant | None, table_seed: int, deal: Deal) -> str:
    """Seeds a bot's choices as the scheduler does (``bot.scheduler.bot_key``): by seat at a same-deal table."""
    if deal is Deal.SAME or entrant is None:
        return f"{table_seed}:seat{seat}"
    return f"{table_seed}:{entrant.player}"


def play_table(t: Tournament, table: TournamentTable, strong: set[int], matchup: Matchup) -> None:
    """Play ``table`` to its end with the bots (strong or normal per entrant) and record its results."""
    seed, options = RoundRunner.table_deal(t, table)
    engine = get_engine(t.game)
    seats = table.seat_list()
    players = [t.entrants[u].player if u is not None else fill_player(i) for i, u in enumerate(seats)]
    state = engine.new_game(players, seed=seed, options=options)
    keys = {p: bot_key(i, t.entrants.get(u) if u is not None else None, seed, t.deal)
            for i, (p, u) in enumerate(zip(players, seats, strict=True))}
    levels = {p: "strong" if u in strong else "normal" for p, u in zip(players, seats, strict=True)}
    step = 0
    while actors := engine.to_act(state):
        player = actors[0]
        legal = engine.legal_actions(state, player)
        action = matchup.choose(levels[player], t.game, engine.view(state, player), legal,
                                f"{keys[player]}:{step}")
        state, _ = engine.apply(state, player, action)
        step += 1
    result = engine.result(state)
    assert result is not None
    table.results, table.fill_places = table_results(t, table, result.ranking)
    table.status = TableStatus.FINISHED


def spearman(strength: list[float], standing: list[float]) -> float:
    def ranks(values: list[float]) -> list[float]:
        order = sorted(range(len(values)), key=lambda i: values[i])
        out = [0.0] * len(values)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
                j += 1
            for k in range(i, j + 1):
                out[order[k]] = (i + j) / 2 + 1
            i = j + 1
        return out
    a, b = ranks(strength), ranks(standing)
    ma, mb = statistics.fmean(a), statistics.fmean(b)
    cov = sum((x - ma) * (y - mb) for x, y in zip(a, b, strict=True))
    den = math.sqrt(sum((x - ma) ** 2 for x in a) * sum((y - mb) ** 2 for y in b))
    return cov / den if den else 0.0


def simulate(game: str, deal: Deal, seed: int, iterations: int) -> Outcome:
    """One 3-round Swiss of 12 bots, seated and scored by the tournament code."""
    low, high = default_seats(game)
    t = Tournament(id=seed, guild_id=None, channel_id=0, creator_id=0, game=game, format=Format.SWISS,
                   rounds=ROUNDS, seats_min=low, seats_max=high, seed=seed, deal=deal,
                   status=TournamentStatus.RUNNING)
    for n in range(1, ENTRANTS + 1):
        t.entrants[-n] = Entrant(-n, f"Bot {n}", True, seq=n)
    strong = set(random.Random(f"{seed}:strong").sample(sorted(t.entrants), STRONG))
    matchup = Matchup(iterations=iterations)
    for number in range(1, ROUNDS + 1):
        rules = rules_of(t)
        groups, byes = rules.seat(t, number, {})
        layouts = rules.lay_out(t, number, groups) if rules.lay_out else groups
        tables = [TournamentTable.from_seats(number, i + 1, list(seats)) for i, seats in enumerate(layouts)]
        tables += [TournamentTable(0, number, len(tables) + i + 1, [u], TableStatus.BYE, results={u: (1, 1.5)})
                   for i, u in enumerate(byes)]
        t.tables += tables
        t.current_round = number
        for table in tables:
            if table.status is not TableStatus.BYE:
                play_table(t, table, strong, matchup)
    standings = compute_standings(t)
    order = [row.user_id for row in standings]
    strength = [1.0 if u in strong else 0.0 for u in order]
    standing = [float(len(order) - i) for i in range(len(order))]  # first = highest
    return Outcome(order[0] in strong, spearman(strength, standing))


def _run(args: tuple[str, Deal, int, int]) -> Outcome:
    return simulate(*args)


def interval(values: list[float]) -> tuple[float, float, float]:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else float("nan")
    return mean, mean - half, mean + half


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.same_deal_luck")
    parser.add_argument("--tournaments", type=int, default=200)
    parser.add_argument("--games", nargs="+", default=list(SAME_DEAL_GAMES))
    parser.add_argument("--iterations", type=int, default=8, help="the strong search's playouts per decision")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--deals", nargs="+", type=Deal, default=list(Deal), help="own, same, or both")
    args = parser.parse_args(argv)
    rows = []
    for game in args.games:
        if STREAMS_FIELD not in get_engine(game).options_model.model_fields:
            print(f"{game}: no per-seat streams, no same-deal rounds: skipped")
            continue
        for deal in args.deals:
            work = [(game, deal, args.seed + i, args.iterations) for i in range(args.tournaments)]
            with ProcessPoolExecutor(args.jobs) as pool:
                outcomes = list(pool.map(_run, work, chunksize=4))
            won = sum(o.strong_won for o in outcomes)
            low, high = wilson(won, len(outcomes))
            mean, c_low, c_high = interval([o.correlation for o in outcomes])
            rows.append([game, deal.value, str(len(outcomes)), f"{won / len(outcomes):.1%}",
                         f"{low:.1%}–{high:.1%}", f"{mean:+.3f}", f"{c_low:+.3f}…{c_high:+.3f}"])
            print(" | ".join(rows[-1]), flush=True)  # each cell as it is done: a long run stopped keeps them
    print_table(f"Same-deal rounds against own deals: {ENTRANTS} bots ({STRONG} strong), {ROUNDS}-round Swiss, "
                f"strong search {args.iterations} playouts",
                ["game", "deal", "tournaments", "strong won", "95% interval", "correlation", "95% interval"], rows)


if __name__ == "__main__":
    main()
