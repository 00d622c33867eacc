"""A same-deal round through the real services on both backends (issue 55): four people at two Pile up tables of
two play their games to the end; the round's standings count the matchpoint shares, while each table is rated as
the real game it was, by its own result (OpenSkill on the people's places at that table)."""
from __future__ import annotations

import random

import pytest
from openskill.models import PlackettLuce

from bot.policies import choose_action
from bot.tournaments.matchpoints import round_points
from bot.tournaments.ratings import places

from .test_tournament_service import ORGANISER, Host

PEOPLE = {201: "Ann", 202: "Ben", 203: "Cy", 204: "Di"}


async def play_round(host: Host, tn_id: int, number: int, seed: int) -> None:
    """Every seat of round ``number``'s tables plays the bot policy as its own person, to the end."""
    tn = await host.tournaments.get(tn_id)
    rng = random.Random(seed)
    for tb in tn.round_tables(number):
        table = await host.games.table(tb.game_id)  # type: ignore[arg-type]  # opened: it has its game
        while table.status == "running":
            player = table.to_act()[0]
            await host.games.act_as(table.id, player, choose_action(table.engine, table.state, player, rng),
                                    table.version)
        await host.games.drain()
    await host.idle()


@pytest.mark.parametrize("seed", [3, 8])
async def test_a_same_deal_round_scores_matchpoints_and_rates_raw_results(db_url: str, seed: int) -> None:
    host = await Host.open(db_url)
    tn = await host.tournaments.create(game="pileup", guild_id=5, channel_id=50, creator_id=ORGANISER, seed=seed,
                                       deal="same", rounds=1, seats_min=2, seats_max=2, turn_seconds=0)
    for uid, name in PEOPLE.items():
        await host.tournaments.join(tn.id, uid, name)
    await host.tournaments.start(tn.id, ORGANISER)
    await host.idle()
    tables = tn.round_tables(1)
    assert len(tables) == 2 and all(len(tb.players) == 2 for tb in tables)
    await play_round(host, tn.id, 1, seed)
    tn = await host.tournaments.get(tn.id)
    assert tn.status == "finished" and all(tb.status == "finished" for tb in tn.round_tables(1))

    # the standings: each person's matchpoint share against the other table's holder of their seat, 0–3
    shares = round_points(tn, 1)
    for seat in (0, 1):
        a, b = (tb.players[seat] for tb in tn.round_tables(1))
        place_a, place_b = (tb.results[tb.players[seat]][0] for tb in tn.round_tables(1))
        expected = (3.0, 0.0) if place_a < place_b else (0.0, 3.0) if place_a > place_b else (1.5, 1.5)
        assert (shares[1][a], shares[2][b]) == expected
    rows = {r.user_id: r for r in await host.tournaments.standings(tn)}
    assert {u: rows[u].points for u in PEOPLE} == {u: p for table in shares.values() for u, p in table.items()}

    # the ratings: each table rated alone, by the places its game gave (not by matchpoints)
    model = PlackettLuce()
    expected_ratings = {}
    for tb in tn.round_tables(1):
        game = await host.games.table(tb.game_id)  # type: ignore[arg-type]
        place_of = places(game.result().ranking)
        people = [s.user_id for s in game.seats]
        rated = model.rate([[model.rating()] for _ in people], ranks=[place_of[f"u{u}"] for u in people])
        expected_ratings.update({u: team[0] for u, team in zip(people, rated, strict=True)})
    stored = await host.ratings.ratings(5, "pileup", list(PEOPLE))
    for u in PEOPLE:
        assert stored[u].games == 1
        assert stored[u].mu == pytest.approx(expected_ratings[u].mu)
        assert stored[u].sigma == pytest.approx(expected_ratings[u].sigma)
    await host.close()
