"""No accidental skips (issue 43): ``/tournament next-round`` while tables are still playing asks the organiser to
confirm (naming the tables it would cancel); cancelled tables count for nobody, opponents included; the confirmation
names the round it moves on from, so a second confirmation, or the command sent twice at once, never skips a round."""
from __future__ import annotations

from bot.tournaments import compute_standings

from .discord_harness import Harness
from .discord_helpers import dispatch_slash, organiser, says

ALICE, BOB = 101, 102
GO, STAY = r"gh:tnr:\d+:\d+:go", r"gh:tnr:\d+:\d+:stay"


async def test_moving_on_during_a_round_asks_first_and_never_skips_a_round(h: Harness) -> None:
    alice, bob = await organiser(h, ALICE, "alice"), h.user(BOB, "bob")
    r = await h.slash(alice, "tournament create", game="akuma", rounds=3, bots=4, min_seats=3, max_seats=3)
    for user in (alice, bob):
        await h.click(user, r.message, label="Join")
    await h.slash(alice, "tournament start")
    tn = next(iter(h.bot.tournaments._cache.values()))
    live = [tb for tb in tn.round_tables(1) if tb.status == "running"]
    assert live and all(any(u > 0 for u in tb.players) for tb in live)

    asked = await h.slash(alice, "tournament next-round")
    question = asked.messages[-1]
    assert asked.ephemeral and says(question.text, "tournament.next_round_confirm")
    assert all(f"<#{tb.channel_id}>" in question.text for tb in live)
    assert tn.current_round == 1 and all(tb.status == "running" for tb in live)  # nothing happened yet
    refused = await h.slash(bob, "tournament next-round")
    assert says(refused.messages[-1].text, "error.tournament.organiser_only") and not refused.messages[-1].components
    kept = await h.click(alice, question, STAY)
    assert says(kept.messages[-1].text, "tournament.next_round_kept", round=1) and not question.components
    assert tn.current_round == 1 and all(tb.status == "running" for tb in live)

    first, second = (await h.slash(alice, "tournament next-round")), (await h.slash(alice, "tournament next-round"))
    moved = await h.click(alice, first.messages[-1], GO)
    assert says(moved.messages[-1].text, "tournament.done.next_round") and tn.current_round == 2
    again = await h.click(alice, second.messages[-1], GO)  # a confirmation left open: it names round 1
    assert says(again.messages[-1].text, "tournament.next_round_moved_on", round=1) and tn.current_round == 2
    assert all(tb.status == "cancelled" for tb in live)
    rows = {row.user_id: row for row in compute_standings(tn, through_round=1)}
    for tb in live:  # the cancelled tables leave no trace: no game, no points, nobody met
        for uid in tb.players:
            assert (rows[uid].games, rows[uid].points, rows[uid].opponents) == (0, 0, []), rows[uid]

    for tb in [tb for tb in tn.round_tables(2) if tb.status == "running"]:
        await h.slash(alice, "tournament set-result", table=tb.game_id, ranking="1 > 2 > 3")
    await h.settle()
    assert tn.current_round == 2 and tn.next_round_at is not None  # the pause before round 3
    replies = [dispatch_slash(h, alice, "tournament next-round") for _ in range(2)]  # a double send
    await h.settle()
    assert tn.current_round == 3 and {tb.round for tb in tn.tables} == {1, 2, 3}
    answers = [reply.messages[-1].text for reply in replies]
    assert sum(says(text, "tournament.done.next_round") for text in answers) == 1
    assert sum(says(text, "tournament.next_round_moved_on", round=2) for text in answers) == 1


async def test_a_swiss_too_small_for_its_next_round_says_why_it_ends_early(h: Harness) -> None:
    """A Swiss of two rounds at tables of four: Alice, Bob, Carol and a bot. Bob drops during round 1, so three are
    left for round 2: the tournament ends after round 1, and the final standings' message says why, in both
    languages' catalogs (the server's here)."""
    alice, bob, carol = await organiser(h, ALICE, "alice"), h.user(BOB, "bob"), h.user(103, "carol")
    r = await h.slash(alice, "tournament create", game="akuma", rounds=2, bots=1, min_seats=4, max_seats=4,
                      break_minutes=0)
    for user in (alice, bob, carol):
        await h.click(user, r.message, label="Join")
    await h.slash(alice, "tournament start")
    tn = next(iter(h.bot.tournaments._cache.values()))
    (table,) = tn.round_tables(1)
    await h.slash(alice, "tournament drop", player=bob)
    await h.slash(alice, "tournament set-result", table=table.game_id, ranking="1 > 2 > 3 > 4")
    await h.settle()
    assert tn.status == "finished" and tn.current_round == 1
    (final,) = [m for m in h.channel_messages() if says(m.text, "tournament.finished")]
    assert says(final.text, "tournament.ended_early", round=1, rounds=2, count=3, min=4)
