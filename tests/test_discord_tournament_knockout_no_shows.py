"""Knockout rounds with absent people (issue 51, what a tester found): where byes and no-shows leave no way but to
send someone to the final table without a game, the round's call says so on their bye line, and only then."""
from __future__ import annotations

import random

from .discord_harness import Harness
from .discord_helpers import TOURNAMENT_JOIN, organiser, says
from .test_discord_paused import manual_time
from .test_discord_tournament_no_shows import TIMER, play_round, tournament_of


async def test_a_bye_to_the_final_without_a_game_is_said_in_the_round_call(h: Harness) -> None:
    """One-on-one knockout of five: three byes and one game in round 1, whose two players never press. The one who
    went on by seed stays away, so three are left who all had a bye: round 2 is one game and a bye, and whoever has
    that bye reaches the final unplayed. Round 1's byes were ordinary ("goes on to round 2"); round 2's says so."""
    clock = manual_time(h)
    alice = await organiser(h, 101, "alice")
    people = {101: alice, **{uid: h.user(uid, f"p{uid}") for uid in range(102, 106)}}
    r = await h.slash(alice, "tournament create", game="rocca", format="knockout", advance=1, min_seats=2,
                      max_seats=2, timer=TIMER, break_minutes=2)
    for user in people.values():
        await h.click(user, r.message, label=TOURNAMENT_JOIN)
    await h.slash(alice, "tournament start")
    await h.settle()
    tn = tournament_of(h)
    (game,) = [tb for tb in tn.round_tables(1) if tb.status == "running"]
    first_byes = [tb.players[0] for tb in tn.round_tables(1) if tb.status == "bye"]
    await play_round(h, clock, tn, {u: p for u, p in people.items() if u not in game.players}, random.Random(10))
    call1 = next(m for m in h.channel_messages() if says(m.text, "tournament.round_started", round=1, rounds=3))
    assert all(says(call1.text, "tournament.bye_line_knockout", name=f"<@{u}>", next=2) for u in first_byes)
    assert not says(call1.text, "tournament.bye_line_knockout_final")
    await h.slash(alice, "tournament next-round")  # the one who went on by seed did not come back
    await h.settle()
    assert tn.current_round == 2 and tn.rounds == 3
    (bye,) = [tb.players[0] for tb in tn.round_tables(2) if tb.status == "bye"]
    call2 = next(m for m in h.channel_messages() if says(m.text, "tournament.round_started", round=2, rounds=3))
    assert says(call2.text, "tournament.bye_line_knockout_final", name=f"<@{bye}>")
    assert not says(call2.text, "tournament.bye_line_knockout", name=f"<@{bye}>", next=3)
