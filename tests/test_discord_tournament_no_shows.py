"""No round waits for an absent person (issue 51), through Discord on a clock the test moves: a tournament table never
pauses. A person who never moves there is handed to a bot at their first timeout, the bots play the seat to the end,
and the person is a no-show: last at that table with 0 points, told once in the channel (where the organiser reads
it), not seated in the next round, and seated again after pressing Seat me again. ``/tournament replace`` on a seat a
bot already plays says so. The round's call and each table's thread say the rule (and the tie rule), in the server's
language. The longest a round waits for one absent person is one turn timer: the test counts the clock it moved."""
from __future__ import annotations

import random
from pathlib import Path

import discord

from bot.i18n import t
from bot.tournaments import Tournament, compute_standings
from bot.tournaments.models import EntrantStatus, TableStatus

from .discord_harness import Harness, HarnessUser
from .discord_helpers import TOURNAMENT_JOIN, Key, kill, organiser, says, start_harness
from .test_discord_output import kept_by_discord
from .test_discord_paused import manual_time
from .test_paused_tables import ManualClock
from .ui_driver import act

ALICE, BOB, CAROL = 101, 102, 103
TIMER = 60
SEAT_ME_AGAIN = Key("tournament.button.back")


def tournament_of(h: Harness) -> Tournament:
    return next(iter(h.bot.tournaments._cache.values()))


async def play_round(h: Harness, clock: ManualClock, tn: Tournament, present: dict[int, HarnessUser],
                     rng: random.Random) -> float:
    """Play the current round: the ``present`` people move through their hand views whenever they are due; anyone
    else seated never presses, so the clock runs their timer out. Returns the seconds the clock was moved on (the
    round's wait for its absent people); fails if a table pauses."""
    number, waited = tn.current_round, 0.0
    for _ in range(600):
        live = [tb for tb in tn.round_tables(number) if tb.status == TableStatus.RUNNING]
        if not live:
            return waited
        moved = False
        for tb in live:
            game = await h.bot.service.table(tb.game_id)  # type: ignore[attr-defined]
            assert not game.paused, "a tournament table paused"
            due = [p for p in game.to_act() if not game.is_bot(p)]
            mover = next((present[u] for u in present if f"u{u}" in due), None)
            if mover is not None:
                await act(h, mover, game, rng)
                moved = True
        if not moved:
            clock.advance(TIMER + 1)
            waited += TIMER + 1
        await h.settle()
    raise AssertionError("the round did not end")


def pings_of(h: Harness, user_id: int, channel_id: int | None = None) -> int:
    channel = channel_id or h.channel_id
    return sum(1 for c in h.calls if c.method == "POST" and c.path == f"/channels/{channel}/messages"
               and user_id in map(int, ((c.json or {}).get("allowed_mentions") or {}).get("users", [])))


async def alice_and_bob(h: Harness, rounds: int) -> tuple[ManualClock, HarnessUser, HarnessUser, Tournament]:
    """Alice (the organiser) and Bob join a Swiss of Akuma with two bots, on a clock the test moves; started."""
    clock = manual_time(h)
    alice, bob = await organiser(h, ALICE, "alice"), h.user(BOB, "bob")
    r = await h.slash(alice, "tournament create", game="akuma", rounds=rounds, bots=2, min_seats=3, max_seats=4,
                      timer=TIMER, break_minutes=0)
    for user in (alice, bob):
        await h.click(user, r.message, label=TOURNAMENT_JOIN)
    await h.slash(alice, "tournament start")
    await h.settle()
    return clock, alice, bob, tournament_of(h)


async def test_a_no_show_is_played_by_a_bot_placed_last_left_out_and_seated_again_once_back(h: Harness) -> None:
    clock, alice, bob, tn = await alice_and_bob(h, 3)
    (table,) = tn.round_tables(1)
    call = next(m for m in h.channel_messages() if says(m.text, "tournament.round_started", round=1, rounds=3))
    assert says(call.text, "tournament.rule_absent", seconds=TIMER) and says(call.text, "tournament.rule_ties")
    assert says(call.text, "tournament.rule_no_show")
    intro = h.channel_messages(table.channel_id)[0]
    assert says(intro.text, "tournament.table_intro") and says(intro.text, "tournament.rule_absent", seconds=TIMER)
    assert says(intro.text, "tournament.rule_ties")

    waited = await play_round(h, clock, tn, {ALICE: alice}, random.Random(1))
    # Bob never pressed: handed to a bot at his first timeout, the table played to its end, never paused.
    assert waited == TIMER + 1  # the round waited one turn timer for him, no more
    game = await h.bot.service.table(table.game_id)  # type: ignore[attr-defined]
    assert game.status == "finished" and table.status == TableStatus.FINISHED
    assert not [m for m in h.channel_messages(table.channel_id) if says(m.text, "table.paused")]
    assert table.no_shows == {BOB} and table.results[BOB] == (4, 0.0)
    assert tn.entrants[BOB].status == EntrantStatus.AWAY
    rows = {row.user_id: row for row in compute_standings(tn)}
    assert (rows[BOB].points, rows[BOB].games, rows[BOB].no_shows, rows[BOB].away) == (0.0, 0, 1, True)
    # Told once, in the channel (the organiser reads it there too), with the way back.
    told = [m for m in h.channel_messages() if says(m.text, "tournament.no_shows", round=1, people=f"<@{BOB}>",
                                                     count=1)]
    assert len(told) == 1 and pings_of(h, BOB) == 1
    # Round 2 was seated without him: alice and the two bots.
    (second,) = tn.round_tables(2)
    assert BOB not in second.players and sorted(second.players) == sorted(u for u in tn.entrants if u != BOB)
    r = await h.click(bob, told[0], label=SEAT_ME_AGAIN)
    assert r.ephemeral and says(r.text, "tournament.done.back")
    r = await h.click(bob, told[0], label=SEAT_ME_AGAIN)  # a second press changes nothing
    assert r.ephemeral and says(r.text, "error.tournament.not_away")
    assert tn.entrants[BOB].status == EntrantStatus.ENTERED
    await play_round(h, clock, tn, {ALICE: alice}, random.Random(2))
    assert any(BOB in tb.players for tb in tn.round_tables(3))  # back: seated in round 3
    assert pings_of(h, BOB) == 1  # round 2 did not ping him again (he was not seated)


async def test_replace_on_an_away_seat_says_so_and_a_table_of_the_absent_plays_on(h: Harness) -> None:
    """On a Japanese server: Bob and Carol never press, Alice plays one move and then leaves her seat to the clock
    too. The organiser's replace on Bob's seat (a bot plays it already) is answered, not refused; once everyone is
    away the table plays on with bots to its end (a casual table would pause); Bob and Carol share last place with 0
    points, and Alice keeps her place as played."""
    clock = manual_time(h)
    alice = await organiser(h, ALICE, "alice", permissions=discord.Permissions.all())
    bob, carol = h.user(BOB, "bob"), h.user(CAROL, "carol")
    await h.slash(alice, "config language", language="ja")
    r = await h.slash(alice, "tournament create", game="akuma", rounds=1, bots=1, min_seats=4, max_seats=4,
                      timer=TIMER)
    for user in (alice, bob, carol):
        await h.click(user, r.message, label=TOURNAMENT_JOIN)
    await h.slash(alice, "tournament start")
    await h.settle()
    tn = tournament_of(h)
    call = next(m for m in h.channel_messages() if says(m.text, "tournament.round_started", round=1, rounds=1))
    assert t("tournament.rule_absent", "ja", seconds=TIMER) in call.text  # in the server's language
    assert t("tournament.rule_ties", "ja") in call.text
    (table,) = tn.round_tables(1)
    game = await h.bot.service.table(table.game_id)  # type: ignore[attr-defined]
    rng, moves, answered, all_away, timers = random.Random(3), 0, False, False, 0
    for _ in range(300):
        all_away = all_away or all(s.is_bot for s in game.seats)  # then the bots play it out at once
        if game.status != "running":
            break
        assert not game.paused, "a tournament table paused"
        if not answered and any(s.is_bot for s in game.seats if s.user_id == BOB):
            replaced = await h.slash(alice, "tournament replace", player=bob)
            assert says(replaced.messages[-1].text, "tournament.done.replace_already", player=f"<@{BOB}>")
            answered = True
        if f"u{ALICE}" in game.to_act() and not game.is_bot(f"u{ALICE}") and moves < 1:
            await act(h, alice, game, rng)
            moves += 1
        else:
            clock.advance(TIMER + 1)
            timers += 1
        await h.settle()
    assert answered and moves == 1 and game.status == "finished" and table.status == TableStatus.FINISHED
    assert all_away  # everyone was away while it ran: the bots played it out
    # The round waited one timer for each no-show's first decision and three for Alice, who left after one move.
    assert timers <= 2 + 3, timers
    assert not [m for m in h.channel_messages(table.channel_id) if says(m.text, "table.paused")]
    assert table.no_shows == {BOB, CAROL}
    assert table.results[BOB] == table.results[CAROL] == (4, 0.0)  # tied for last (shown as 4th of 4), no points
    result = game.result()
    assert result is not None
    played = {u: next(i for i, group in enumerate(result.ranking) if tn.entrants[u].player in group)
              for u in (ALICE, -1)}  # Alice and the bot as they finished: they move up above the no-shows
    places = {u: table.results[u][0] for u in played}
    assert sorted(places.values()) in ([1, 2], [1, 1])
    assert (places[ALICE] < places[-1]) == (played[ALICE] < played[-1])
    assert tn.status == "finished"


async def test_a_no_show_survives_a_restart_mid_round(tmp_path: Path) -> None:
    """The bot dies after Bob's seat went to a bot and before the game ended: after the restart the game goes on
    without pausing, Alice finishes it, and Bob is still scored and told as a no-show, once."""
    db = tmp_path / "bot.db"
    h = await start_harness(db)
    clock, alice, _, tn = await alice_and_bob(h, 2)
    (table,) = tn.round_tables(1)
    game = await h.bot.service.table(table.game_id)  # type: ignore[attr-defined]
    rng = random.Random(4)
    for _ in range(100):
        if any(s.is_bot for s in game.seats if s.user_id == BOB):
            break
        if f"u{ALICE}" in game.to_act():
            await act(h, alice, game, rng)
        else:
            clock.advance(TIMER + 1)
        await h.settle()
    assert game.status == "running" and any(s.is_bot and not s.showed_up for s in game.seats if s.user_id == BOB)
    await kill(h)
    h2 = await start_harness(db, discord_has=kept_by_discord(h))
    try:
        clock = manual_time(h2)
        await h2.settle()
        tournament_id = await h2.bot.tournaments.tournament_of_table(table.game_id)
        assert tournament_id is not None
        tn = await h2.bot.tournaments.get(tournament_id)
        assert tn.status == "running"
        alice2 = await organiser(h2, ALICE, "alice")
        await play_round(h2, clock, tn, {ALICE: alice2}, rng)
        (done,) = [tb for tb in tn.round_tables(1) if tb.game_id == table.game_id]
        assert done.no_shows == {BOB} and done.results[BOB] == (4, 0.0)
        assert tn.entrants[BOB].status == EntrantStatus.AWAY
        told = [m for m in h2.channel_messages() if says(m.text, "tournament.no_shows", round=1,
                                                          people=f"<@{BOB}>", count=1)]
        assert len(told) == 1 and BOB not in tn.round_tables(2)[0].players
    finally:
        await h2.close()


async def test_a_knockout_no_show_who_is_out_is_told_so_without_a_way_back(h: Harness) -> None:
    """One-on-one knockout of four: Bob never presses, places last and is out. He is told the round was his last
    (no Seat me again: it would promise a seat that does not exist), and a Seat me again pressed anyway (a button
    from elsewhere, or a forged one) is refused with why; the standings show him out, not waiting."""
    clock = manual_time(h)
    alice, bob = await organiser(h, ALICE, "alice"), h.user(BOB, "bob")
    r = await h.slash(alice, "tournament create", game="rocca", format="knockout", advance=1, min_seats=2,
                      max_seats=2, bots=2, timer=TIMER, break_minutes=1)
    for user in (alice, bob):
        await h.click(user, r.message, label=TOURNAMENT_JOIN)
    await h.slash(alice, "tournament start")
    await h.settle()
    tn = tournament_of(h)
    await play_round(h, clock, tn, {ALICE: alice}, random.Random(5))
    (bobs,) = [tb for tb in tn.round_tables(1) if BOB in tb.players]
    assert bobs.no_shows == {BOB} and bobs.results[BOB][0] == 2
    told = [m for m in h.channel_messages() if says(m.text, "tournament.no_shows_out", round=1, people=f"<@{BOB}>",
                                                     count=1)]
    assert len(told) == 1 and not told[0].components
    assert not [m for m in h.channel_messages() if says(m.text, "tournament.no_shows")]
    call = next(m for m in h.channel_messages() if says(m.text, "tournament.round_started", round=1, rounds=2))
    assert says(call.text, "tournament.rule_no_show_knockout") and not says(call.text, "tournament.rule_no_show")
    forged = {"type": 2, "style": 1, "label": "x", "custom_id": f"gh:tn:{tn.id}:back"}
    payload = dict(told[0].payload)
    payload["id"] = str(max(h.server.messages) + 1000)
    payload["components"] = [{"type": 1, "components": [forged]}]
    refused = await h.click(bob, h.adopt(payload), forged["custom_id"])
    assert refused.ephemeral and says(refused.text, "error.tournament.back_out")
    assert tn.entrants[BOB].status == EntrantStatus.AWAY
    standings = h.message(tn.standings_message_id)
    assert not says(standings.text, "tournament.away_mark") and says(standings.text, "tournament.knockout_out_line")


async def test_a_voided_table_replayed_with_its_no_show_present_brings_them_back(h: Harness) -> None:
    """Bob never pressed, so he is away; the organiser voids the table during the pause (say the deal went wrong)
    and it is replayed with the same players. This time Bob plays: he is back, and round 2 seats him."""
    clock = manual_time(h)
    alice, bob = await organiser(h, ALICE, "alice"), h.user(BOB, "bob")
    r = await h.slash(alice, "tournament create", game="akuma", rounds=2, bots=2, min_seats=4, max_seats=4,
                      timer=TIMER, break_minutes=1)
    for user in (alice, bob):
        await h.click(user, r.message, label=TOURNAMENT_JOIN)
    await h.slash(alice, "tournament start")
    await h.settle()
    tn = tournament_of(h)
    (first,) = tn.round_tables(1)
    await play_round(h, clock, tn, {ALICE: alice}, random.Random(6))
    assert first.no_shows == {BOB} and tn.entrants[BOB].status == EntrantStatus.AWAY and tn.next_round_at
    voided = await h.slash(alice, "tournament void", table=first.game_id)
    assert says(voided.messages[-1].text, "tournament.done.void", table=first.game_id)
    await h.settle()
    await play_round(h, clock, tn, {ALICE: alice, BOB: bob}, random.Random(7))
    replay = next(tb for tb in tn.round_tables(1) if tb.attempt == 1)
    assert replay.status == TableStatus.FINISHED and not replay.no_shows
    assert tn.entrants[BOB].status == EntrantStatus.ENTERED
    await h.slash(alice, "tournament next-round")
    await h.settle()
    assert any(BOB in tb.players for tb in tn.round_tables(2))


async def test_a_game_bots_played_for_a_no_show_is_no_rated_game_of_theirs(h: Harness) -> None:
    """Alice, Carol and Dan play a table of four; Bob never presses. The bots' game in his seat is not his: no rating
    change, no game or win in /stats or /leaderboard, while the three who played are rated by it."""
    clock = manual_time(h)
    alice = await organiser(h, ALICE, "alice")
    people = {ALICE: alice, **{uid: h.user(uid, name) for uid, name in ((BOB, "bob"), (CAROL, "carol"),
                                                                          (104, "dan"))}}
    r = await h.slash(alice, "tournament create", game="akuma", rounds=1, min_seats=4, max_seats=4, timer=TIMER,
                      break_minutes=0)
    for user in people.values():
        await h.click(user, r.message, label=TOURNAMENT_JOIN)
    await h.slash(alice, "tournament start")
    await h.settle()
    tn = tournament_of(h)
    (table,) = tn.round_tables(1)
    await play_round(h, clock, tn, {u: p for u, p in people.items() if u != BOB}, random.Random(9))
    assert table.no_shows == {BOB} and tn.status == "finished"
    ratings = h.bot.tournaments.ratings  # type: ignore[attr-defined]
    bob = await ratings.stats(h.guild_id, BOB)
    assert (bob.games, bob.wins, bob.placings, bob.ratings, bob.recent) == (0, 0, {}, {}, [])
    for uid in (ALICE, CAROL, 104):
        played = await ratings.stats(h.guild_id, uid)
        assert played.games == 1 and played.recent[0].rated
    board = await h.slash(people[CAROL], "leaderboard", game="akuma")
    assert f"<@{BOB}>" not in board.messages[-1].text and f"<@{CAROL}>" in board.messages[-1].text
    stats = await h.slash(people[BOB], "stats")
    assert says(stats.messages[-1].text, "stats.summary", games=0, wins=0)
