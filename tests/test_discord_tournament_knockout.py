"""A knockout at multiplayer tables end to end through Discord (issue 43): 10 entrants of Akuma at tables of 3–4, the
top 2 of each table going on. The rounds the plan takes are shown on the sign-up; each round seats exactly those who
went on (the top 2 of each table of the round before), within the sizes; one final table ends it; the final standings
posted in the channel give the final table's places first, then everyone else by the round they went out in and
their place there, with the bracket (each round's tables and who went through) as text and as a picture attached to
the standings message, redrawn as results come in."""
from __future__ import annotations

import io

from PIL import Image

from bot.i18n import t
from bot.tournaments import Tournament

from .discord_harness import Harness
from .discord_helpers import lift_limits, organiser, says

ALICE = 101


async def play_out(h: Harness, alice, tn: Tournament) -> None:
    """Each round, a table with a person gets its result by seats (seat 1 first); bots play the rest."""
    for _ in range(12):
        if tn.status != "running":
            return
        for table in [tb for tb in tn.round_tables(tn.current_round) if tb.status == "running"]:
            if any(u > 0 for u in table.players):
                ranking = " > ".join(str(n) for n in range(1, len(table.players) + 1))
                r = await h.slash(alice, "tournament set-result", table=table.game_id, ranking=ranking)
                assert says(r.messages[-1].text, "tournament.done.set_result", table=table.game_id)
        await h.settle()
    raise AssertionError("the knockout did not end")


def top(tn: Tournament, number: int, advance: int) -> set[int]:
    """Who went on from round ``number``, read from its results by hand: the top ``advance`` of each table (a tie
    across the cut to the one seated first), and the byes."""
    going_on: set[int] = set()
    for table in tn.round_tables(number):
        if table.status == "bye":
            going_on |= set(table.players)
        elif table.status == "finished":
            ranked = sorted(table.players, key=lambda u: (table.results[u][0], table.players.index(u)))
            going_on |= set(ranked[:advance])
    return going_on


async def test_ten_entrants_of_akuma_knock_out_to_one_final_table(h: Harness) -> None:
    await lift_limits(h)
    alice = await organiser(h, ALICE, "alice")
    r = await h.slash(alice, "tournament create", game="akuma", format="knockout", advance=2, bots=9,
                      break_minutes=0)
    signup = r.message
    await h.click(alice, signup, label="Join")
    tn = next(iter(h.bot.tournaments._cache.values()))
    sizes = t("tournament.sizes_range", "en", min=3, max=4)
    assert says(signup.text, "tournament.summary", game=t("game.akuma.name", "en"), rounds=3, sizes=sizes)
    assert says(signup.text, "tournament.knockout_advance", advance=2)
    await h.slash(alice, "tournament start")
    assert tn.rounds == 3 and says(signup.text, "tournament.status.round", round=1, rounds=3)
    assert tn.standings_message_id is not None
    seated = bracket_picture(h.message(tn.standings_message_id))
    await play_out(h, alice, tn)

    assert tn.status == "finished" and tn.current_round == 3
    field = set(tn.entrants)
    for number in (1, 2, 3):
        tables = [tb for tb in tn.round_tables(number) if tb.status != "void"]
        assert {u for tb in tables for u in tb.players} == field  # exactly those who went on are seated
        assert all(3 <= len(tb.players) <= 4 for tb in tables if tb.status != "bye")
        field = top(tn, number, 2)
    final = tn.round_tables(3)
    assert len(final) == 1 and final[0].status == "finished"  # one final table, the last round
    assert [len([tb for tb in tn.round_tables(n) if tb.status != "bye"]) for n in (1, 2)] == [3, 2]

    calls = [m.text for m in h.channel_messages()]
    assert any(says(text, "tournament.round_started", round=2, rounds=3) for text in calls)
    assert any(says(text, "tournament.final_started", round=3, rounds=3) for text in calls)  # named the final
    assert not any(says(text, "tournament.ended_early_knockout") for text in calls)  # it had its final table
    # The tie rule where the players read it (issue 51): every round's call and every table's first message; the
    # final's says only what holds there (nobody goes on from it: a tie for first makes co-champions).
    assert all(says(text, "tournament.rule_ties_knockout", advance=2) for text in calls
               if says(text, "tournament.round_started"))
    (final_call,) = [text for text in calls if says(text, "tournament.final_started")]
    assert says(final_call, "tournament.rule_ties_final") and not says(final_call, "tournament.rule_ties_knockout")
    for tb in tn.tables:
        if tb.channel_id not in (None, tn.channel_id):
            key = "tournament.rule_ties_final" if tb.round == 3 else "tournament.rule_ties_knockout"
            assert says(h.channel_messages(tb.channel_id)[0].text, key, advance=2)
    posted = next(m for m in h.channel_messages() if says(m.text, "tournament.finished"))
    for uid in final[0].players:  # the final table's places are the top places
        name = tn.entrants[uid].name if uid < 0 else f"<@{uid}>"
        assert says(posted.text, "tournament.knockout_final_line", place=final[0].results[uid][0], name=name,
                    final=final[0].results[uid][0], dropped="")
    out_round_2 = {u for tb in tn.round_tables(2) for u in tb.players} - set(final[0].players)
    out_round_1 = set(tn.entrants) - out_round_2 - set(final[0].players)
    placed = {}
    for number, gone in ((2, out_round_2), (1, out_round_1)):
        for uid in gone:
            table = next(tb for tb in tn.round_tables(number) if uid in tb.players)
            placed[uid] = (number, table.results[uid][0], table.number)
    order = sorted(placed, key=lambda u: (-placed[u][0], placed[u][1], tn.entrants[u].seq))
    for uid in order:  # 5th onwards: later rounds first, then the place there (a tie shares the place)
        number, table_place, table_number = placed[uid]
        first = next(j for j, other in enumerate(order) if placed[other][:2] == placed[uid][:2])
        name = tn.entrants[uid].name if uid < 0 else f"<@{uid}>"
        assert says(posted.text, "tournament.knockout_out_line", place=4 + first + 1, name=name, round=number,
                    table_place=table_place, table=table_number, dropped="")
    assert says(posted.text, "tournament.knockout_footer", id=tn.id, advance=2)
    assert not says(posted.text, "tournament.standings_footer")  # no points scale: a knockout is not scored so
    assert says(posted.text, "tournament.bracket_round", round=1) and says(posted.text, "tournament.bracket_final",
                                                                           round=3)
    assert bracket_picture(posted) != seated  # the picture follows the results
    assert posted.payload["attachments"][0]["description"] == t("tournament.bracket_alt", "en", rounds=3)
    asked = await h.slash(alice, "tournament standings", tournament=tn.id)  # only to her, the same picture
    assert asked.ephemeral and bracket_picture(asked.messages[-1]) == bracket_picture(posted)


def bracket_picture(message) -> bytes:
    """The bracket picture a standings message carries and shows in its embed (a PNG that decodes)."""
    assert message.payload["embeds"][0]["image"]["url"] == "attachment://bracket.png"
    png = message.files["bracket.png"]
    Image.open(io.BytesIO(png)).load()
    return png


async def test_a_knockout_refuses_rounds_a_final_table_and_a_missing_advance(h: Harness) -> None:
    alice = await organiser(h, ALICE, "alice")
    r = await h.slash(alice, "tournament create", game="akuma", format="knockout", advance=2, rounds=3)
    assert says(r.messages[-1].text, "error.tournament.knockout_rounds")
    r = await h.slash(alice, "tournament create", game="akuma", format="knockout", advance=2, final_table=True)
    assert says(r.messages[-1].text, "error.tournament.no_final_table")
    r = await h.slash(alice, "tournament create", game="akuma", format="knockout")
    assert says(r.messages[-1].text, "error.tournament.bad_advance", max=2)
    r = await h.slash(alice, "tournament create", game="akuma", format="swiss", advance=2)
    assert says(r.messages[-1].text, "error.tournament.advance_knockout_only")
    assert not h.bot.tournaments._cache  # nothing was created


async def test_a_swiss_stage_feeds_a_knockout_of_its_top(h: Harness) -> None:
    """Issue 51: /tournament create format:swiss_knockout: two Swiss rounds, then the top 4 of their standings play
    the final table. The sign-up says so, round 3's call says the Swiss stage is over, the standings carry the
    bracket picture only once the knockout began, and the final standings put the final table first and the rest
    in the Swiss order."""
    await lift_limits(h)
    alice = await organiser(h, ALICE, "alice")
    r = await h.slash(alice, "tournament create", game="akuma", format="swiss_knockout", rounds=2, cut=4, advance=1,
                      bots=9, break_minutes=0)
    await h.click(alice, r.message, label="Join")
    tn = next(iter(h.bot.tournaments._cache.values()))
    assert says(r.message.text, "tournament.swiss_cut", swiss=2, cut=4)
    await h.slash(alice, "tournament start")
    assert tn.rounds == 3
    assert tn.standings_message_id is not None and not h.message(tn.standings_message_id).files  # Swiss: no bracket
    await play_out(h, alice, tn)
    assert tn.status == "finished" and tn.current_round == 3
    calls = [m.text for m in h.channel_messages()]
    assert any(says(text, "tournament.cut_started", swiss=2, cut=4) and says(text, "tournament.final_started",
                                                                              round=3, rounds=3) for text in calls)
    assert any(says(text, "tournament.rule_cut", swiss=2, cut=4) for text in calls)  # said in the Swiss rounds
    posted = next(m for m in h.channel_messages() if says(m.text, "tournament.finished"))
    bracket_picture(posted)
    (final,) = tn.round_tables(3)
    for uid in final.players:
        name = tn.entrants[uid].name if uid < 0 else f"<@{uid}>"
        assert says(posted.text, "tournament.knockout_final_line", place=final.results[uid][0], name=name,
                    final=final.results[uid][0], dropped="")
    assert says(posted.text, "tournament.knockout_swiss_out_line")
