"""Knockout rounds with absent people (issue 51, what a tester found): a table where nobody moves ends its round like
any other (the no-shows told, the pause, and only someone who played is champion), its no-shows share its last place
below everyone who played; where byes and no-shows leave no way but to send someone to the final table without a
game, the round's call says so on their bye line, and only then."""
from __future__ import annotations

import random

from bot.i18n import t
from bot.tournaments import Tournament, compute_standings

from .discord_harness import Harness, HarnessUser
from .discord_helpers import TOURNAMENT_JOIN, Key, line, organiser, says
from .test_discord_paused import manual_time
from .test_discord_tournament_no_shows import ALICE, TIMER, pings_of, play_round, tournament_of
from .test_paused_tables import ManualClock


async def one_on_one_knockout(h: Harness, count: int, pause: int = 2) -> tuple[
        ManualClock, HarnessUser, dict[int, HarnessUser], Tournament]:
    """A one-on-one knockout of Rocca of ``count`` people (Alice, 101, organises; then 102, 103, …) on a clock the
    test moves, ``pause`` minutes between rounds; started."""
    clock = manual_time(h)
    alice = await organiser(h, ALICE, "alice")
    people = {ALICE: alice, **{uid: h.user(uid, f"p{uid}") for uid in range(ALICE + 1, ALICE + count)}}
    r = await h.slash(alice, "tournament create", game="rocca", format="knockout", advance=1, min_seats=2,
                      max_seats=2, timer=TIMER, break_minutes=pause)
    for user in people.values():
        await h.click(user, r.message, label=TOURNAMENT_JOIN)
    await h.slash(alice, "tournament start")
    await h.settle()
    return clock, alice, people, tournament_of(h)


async def test_a_bye_to_the_final_without_a_game_is_said_in_the_round_call(h: Harness) -> None:
    """One-on-one knockout of five: three byes and one game in round 1, whose two players never press. The one who
    went on by seed stays away, so three are left who all had a bye: round 2 is one game and a bye, and whoever has
    that bye reaches the final unplayed. Round 1's byes were ordinary ("goes on to round 2"); round 2's says so."""
    clock, alice, people, tn = await one_on_one_knockout(h, 5)
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


async def test_a_knockout_table_of_two_no_shows_pauses_tells_them_and_crowns_only_who_played(h: Harness) -> None:
    """One-on-one knockout of four: nobody at table 1 ever presses, table 2 plays. One of the two no-shows goes on
    by seed, so the round ends like any other: they are told (once), the pause follows, and the one who went on
    may still come back. Nobody does: the tournament ends there (one player left for a final of two), and the
    champion is table 2's winner alone: a no-show is never champion over someone who played."""
    clock, alice, people, tn = await one_on_one_knockout(h, 4)
    first, second = sorted(tn.round_tables(1), key=lambda tb: tb.number)
    absent = set(first.players)
    await play_round(h, clock, tn, {u: p for u, p in people.items() if u not in absent}, random.Random(8))
    assert first.no_shows == absent and tn.status == "running" and tn.next_round_at is not None  # the pause
    went, out = first.players  # the better seed went on by seed (told how to come back), the other is out
    told = [m for m in h.channel_messages() if says(m.text, "tournament.no_shows_knockout", round=1,
                                                    people=f"<@{went}>", count=1)
            or says(m.text, "tournament.no_shows_out", round=1, people=f"<@{out}>", count=1)]
    assert len(told) == 2 and all(pings_of(h, u) == 1 for u in absent) and told[0].components
    await h.slash(alice, "tournament next-round")  # the pause ends; the one who went on did not come back
    await h.settle()
    assert tn.status == "finished"
    # the heading of the final standings says why there was no final: one player left to seat, a table needs two
    assert any(says(m.text, "tournament.ended_early_knockout", round=1, count=1, min=2) for m in h.channel_messages())
    rows = compute_standings(tn)
    (winner,) = [u for u in second.players if second.results[u][0] == 1]
    assert [row.user_id for row in rows if row.place == 1] == [winner]
    # The two no-shows share table 1's last place, shown as 2 (never "1."), and rank below everyone who played.
    assert first.results == {u: (2, 0.0) for u in absent}
    assert [(row.user_id in absent, row.place) for row in rows] == [(False, 1), (False, 2), (True, 3), (True, 3)]
    # the one who went on by seed, then stayed away, is not "out in round 1"
    text = h.message(tn.standings_message_id).text
    for key, who in (("tournament.knockout_left_line", went), ("tournament.knockout_out_line", out)):
        assert says(text, key, place=3, name=f"<@{who}>", round=1, table_place=2, table=1,
                    dropped=line("tournament.no_show_mark"))  # marked: why below those who played
    placed = ", ".join(t("tournament.bracket_placed", "en", place=2, name=f"<@{u}>") for u in first.players)
    assert t("tournament.bracket_table", "en", number=1, players=placed, advanced=f"<@{went}>") in text
    # Seat me again, pressed now, says the tournament is over (not only "not possible at this stage")
    late = await h.click(people[went], told[0], label=Key("tournament.button.back"))
    assert late.ephemeral and says(late.messages[-1].text, "error.tournament.back_finished")


async def test_one_who_went_on_but_came_back_after_the_next_seating_is_told_so(h: Harness) -> None:
    """One-on-one knockout of eight: nobody at table 1 presses; the organiser seats round 2 before the one who went
    on by seed presses Seat me again. Pressed during round 2, it says round 2 was seated before (true: the bracket
    has them through), not that they did not go on; the other no-show, who did not go on, is told that. Neither
    press changes anything."""
    clock, alice, people, tn = await one_on_one_knockout(h, 8)
    first = min(tn.round_tables(1), key=lambda tb: tb.number)
    await play_round(h, clock, tn, {u: p for u, p in people.items() if u not in first.players}, random.Random(8))
    went, out = first.players
    (told,) = [m for m in h.channel_messages() if says(m.text, "tournament.no_shows_knockout", round=1,
                                                       people=f"<@{went}>", count=1)]
    await h.slash(alice, "tournament next-round")
    await h.settle()
    assert tn.current_round == 2 and not any(went in tb.players for tb in tn.round_tables(2))
    late = await h.click(people[went], told, label=Key("tournament.button.back"))
    assert late.ephemeral and says(late.messages[-1].text, "error.tournament.back_too_late", round=2)
    other = await h.click(people[out], told, label=Key("tournament.button.back"))
    assert other.ephemeral and says(other.messages[-1].text, "error.tournament.back_out")
    assert tn.entrants[went].status == tn.entrants[out].status == "away"


async def test_without_a_pause_a_table_of_two_no_shows_ends_it_and_promises_no_way_back(h: Harness) -> None:
    """The same field with no pause between rounds: too few are left the moment round 1 ends, so it ends there; the
    one who went on by seed is told this was their last round (no Seat me again: no round is left to seat them)."""
    clock, _, people, tn = await one_on_one_knockout(h, 4, pause=0)
    first = min(tn.round_tables(1), key=lambda tb: tb.number)
    await play_round(h, clock, tn, {u: p for u, p in people.items() if u not in first.players}, random.Random(11))
    assert tn.status == "finished" and first.no_shows == set(first.players)
    assert not [m for m in h.channel_messages() if says(m.text, "tournament.no_shows_knockout")]
    told = [m for m in h.channel_messages() if says(m.text, "tournament.no_shows_out")]
    assert len(told) == 1 and not told[0].components and all(f"<@{u}>" in told[0].text for u in first.players)

