"""A round robin where everyone meets, end to end through Discord (issue 43): 7 entrants of Akuma at tables of 3–4,
the rounds it takes shown on the sign-up from the start, every pair met, byes spread evenly, the standings recounted
from the tables' results; a drop after round 1 re-plans the rest so the others still all meet."""
from __future__ import annotations

from collections import Counter
from itertools import combinations

from bot.i18n import t
from bot.tournaments import Tournament, compute_standings
from bot.tournaments.seating import pairs_met

from .discord_harness import Harness
from .discord_helpers import lift_limits, organiser, says

ALICE, BOB = 101, 102


async def play_out(h: Harness, alice, tn: Tournament) -> None:
    """Each round, the tables with people get their result by seats; bots play the rest."""
    for _ in range(12):
        if tn.status != "running":
            return
        for table in [tb for tb in tn.round_tables(tn.current_round) if tb.status == "running"]:
            if any(u > 0 for u in table.players):
                ranking = " > ".join(str(n) for n in range(1, len(table.players) + 1))
                r = await h.slash(alice, "tournament set-result", table=table.game_id, ranking=ranking)
                assert says(r.messages[-1].text, "tournament.done.set_result", table=table.game_id)
        await h.settle()
    raise AssertionError("the round robin did not end")


def recount(tn: Tournament) -> dict[int, float]:
    """Each entrant's points added up from the tables' results by hand."""
    points: Counter = Counter()
    for table in tn.tables:
        if table.status in ("finished", "bye"):
            for uid, (_, score) in table.results.items():
                points[uid] += score
    return {uid: round(points[uid], 4) for uid in tn.entrants}


async def test_seven_entrants_of_akuma_at_tables_of_three_to_four_all_meet(h: Harness) -> None:
    await lift_limits(h)
    alice = await organiser(h, ALICE, "alice")
    r = await h.slash(alice, "tournament create", game="akuma", format="roundrobin", bots=6, break_minutes=0)
    signup = r.message
    await h.click(alice, signup, label="Join")
    tn = next(iter(h.bot.tournaments._cache.values()))
    sizes = t("tournament.sizes_range", "en", min=3, max=4)
    shown = [n for n in range(1, 21) if says(signup.text, "tournament.summary", game=t("game.akuma.name", "en"),
                                                rounds=n, sizes=sizes)]
    assert len(shown) == 1 and shown[0] >= 3  # 21 pairs, at most 9 a round (a table of 4 and one of 3)
    await h.slash(alice, "tournament start")
    assert tn.rounds == shown[0] and says(signup.text, "tournament.status.round", round=1, rounds=shown[0])
    await play_out(h, alice, tn)

    assert tn.status == "finished" and tn.current_round == shown[0]
    met = pairs_met(tb.players for tb in tn.tables if tb.status == "finished")
    assert all(met[frozenset(pair)] for pair in combinations(tn.entrants, 2))  # nobody never met
    byes = Counter(u for tb in tn.tables if tb.status == "bye" for u in tb.players)
    assert max(byes[u] for u in tn.entrants) - min(byes[u] for u in tn.entrants) <= 1
    rows = compute_standings(tn)
    assert {row.user_id: round(row.points, 4) for row in rows} == recount(tn)


async def test_a_drop_replans_the_rest_so_the_others_all_meet(h: Harness) -> None:
    await lift_limits(h)
    alice, bob = await organiser(h, ALICE, "alice"), h.user(BOB, "bob")
    r = await h.slash(alice, "tournament create", game="akuma", format="roundrobin", bots=5, break_minutes=0)
    for user in (alice, bob):
        await h.click(user, r.message, label="Join")
    await h.slash(alice, "tournament start")
    tn = next(iter(h.bot.tournaments._cache.values()))
    await h.slash(bob, "tournament drop", player=bob)  # after the game Bob is playing
    await play_out(h, alice, tn)
    assert tn.status == "finished" and tn.entrants[BOB].status == "dropped"
    assert all(BOB not in tb.players for tb in tn.tables if tb.round > 1)
    active = [u for u, e in tn.entrants.items() if e.status != "dropped"]
    met = pairs_met(tb.players for tb in tn.tables if tb.status == "finished")
    assert all(met[frozenset(pair)] for pair in combinations(active, 2))
    byes = Counter(u for tb in tn.tables if tb.status == "bye" for u in tb.players)
    assert max(byes[u] for u in active) - min(byes[u] for u in active) <= 1
    assert tn.rounds == tn.current_round  # the rounds shown follow the re-planned plan
