"""A knockout through the real services on both backends (issue 43): its format and ``advance`` survive a restart;
a winner who drops does not go on and the rounds left are re-planned from the smaller field (a bye for the best
seed); a field no plan fits is refused at the start and nothing changes."""
from __future__ import annotations

import pytest

from bot.errors import HostError
from bot.tournaments.knockout import plan
from bot.tournaments.models import Format
from bot.tournaments.standings import knockout_field, went_on

from .test_tournament_service import ALICE, ORGANISER, Host


async def test_a_dropped_winner_does_not_go_on_and_the_rest_is_replanned(db_url: str) -> None:
    host = await Host.open(db_url)
    tn = await host.tournaments.create(game="akuma", guild_id=5, channel_id=50, creator_id=ORGANISER, seed=7,
                                       format="knockout", advance=2, first_round="rating")
    await host.tournaments.join(tn.id, ALICE, "alice")
    await host.tournaments.add_bots(tn.id, ORGANISER, 10)
    await host.close()
    host = await Host.open(db_url)  # a restart: the settings come back from storage
    tn = await host.tournaments.get(tn.id)
    assert tn.format is Format.KNOCKOUT and tn.advance == 2 and (tn.seats_min, tn.seats_max) == (3, 4)
    await host.tournaments.start(tn.id, ORGANISER)
    assert tn.rounds == 3 and [len(tb.players) for tb in tn.round_tables(1)] == [4, 4, 3]
    await host.tournaments.openings(tn.id)
    await host.tournaments.drop(tn.id, ALICE, ALICE)  # takes effect after her game, which she wins
    table = tn.live_table_of(ALICE)
    assert table is not None and table.game_id is not None
    ranking = [[ALICE]] + [[u] for u in table.players if u != ALICE]
    await host.tournaments.set_result(tn.id, ORGANISER, table.game_id, ranking)
    await host.idle()

    assert tn.status == "finished" and tn.current_round == 3
    second = tn.round_tables(2)
    assert ALICE not in {u for tb in second for u in tb.players}
    field = knockout_field(tn, 1)
    assert len(field) == 5 and plan(5, 3, 4, 2) is not None
    byes = [tb.players for tb in second if tb.status == "bye"]
    assert byes == [[field[0]]]  # the best seed of the five
    assert [len(tb.players) for tb in second if tb.status != "bye"] == [4]
    final = tn.round_tables(3)
    assert len(final) == 1 and len(final[0].players) == 3  # the final table

    # Corrections after the end: a round others went on from is settled; the final table is corrected, not voided.
    first = tn.round_tables(1)[0]
    assert first.game_id is not None and final[0].game_id is not None
    before = {tb.id: dict(tb.results) for tb in tn.tables}
    reversed_first = [[u] for u in first.players[::-1]]
    with pytest.raises(HostError) as refused:
        await host.tournaments.set_result(tn.id, ORGANISER, first.game_id, reversed_first)
    assert refused.value.code == "tournament.knockout_round_settled"
    with pytest.raises(HostError) as refused:
        await host.tournaments.void(tn.id, ORGANISER, final[0].game_id)
    assert refused.value.code == "tournament.knockout_final_void"
    assert {tb.id: dict(tb.results) for tb in tn.tables} == before  # nothing changed
    last = final[0].players[-1]
    await host.tournaments.set_result(tn.id, ORGANISER, final[0].game_id,
                                      [[last]] + [[u] for u in final[0].players if u != last])
    stored = await host.tournaments.get(tn.id)
    assert (await host.tournaments.standings(stored))[0].user_id == last  # the corrected final decides the winner
    await host.close()


async def test_a_field_no_knockout_fits_is_refused_at_the_start(db_url: str) -> None:
    host = await Host.open(db_url)
    tn = await host.tournaments.create(game="akuma", guild_id=5, channel_id=50, creator_id=ORGANISER,
                                       format="knockout", advance=1, seats_min=4, seats_max=4)
    await host.tournaments.add_bots(tn.id, ORGANISER, 5)  # a table of 4 and a bye leave 2: no table of 4 follows
    with pytest.raises(HostError) as refused:
        await host.tournaments.start(tn.id, ORGANISER)
    assert refused.value.code == "tournament.knockout_no_plan"
    again = await Host.open(db_url)
    stored = await again.tournaments.store.load(tn.id)
    assert stored is not None and stored.status == "signup" and not stored.tables and stored.rounds == 0
    await again.close()
    await host.close()


async def test_a_knockout_too_small_for_its_final_still_has_a_champion(db_url: str) -> None:
    """Issue 51: Akuma at 3–4 seats, 8 entrants, the winner of each table going on: a table of 4, a table of 3 and
    a bye, then a final of 3. The bye's player drops during round 1: two are left, too few for any Akuma table.
    The tournament ends after round 1 and its final standings put the two table winners first (the last round
    decides: both won their table, so they share first), never "still in". The bye's player, who never played,
    is last: below everyone who played, "a bye in round 1, then played no more", never a place at a table 3 that
    does not exist."""
    from bot.i18n import t
    from bot.tournaments.text import standing_lines

    host = await Host.open(db_url)
    tn = await host.tournaments.create(game="akuma", guild_id=5, channel_id=50, creator_id=ORGANISER, seed=3,
                                       format="knockout", advance=1)
    await host.tournaments.add_bots(tn.id, ORGANISER, 8)
    await host.tournaments.start(tn.id, ORGANISER)
    (bye,) = [tb for tb in tn.round_tables(1) if tb.status == "bye"]
    await host.tournaments.drop(tn.id, ORGANISER, bye.players[0])
    await host.idle()
    assert tn.status == "finished" and tn.current_round == 1
    winners = {u for tb in tn.round_tables(1) if tb.status == "finished" for _, _, u in went_on(tn, tb)}
    rows = await host.tournaments.standings(tn)
    assert len(winners) == 2 and {r.user_id for r in rows[:2]} == winners and [r.place for r in rows[:2]] == [1, 1]
    from bot.tournaments.knockout_text import bracket_lines

    table_lines = [line for line in bracket_lines(tn, "ja") if "→" in line]  # names listed with 「、」 in Japanese
    assert table_lines and all("、" in line and ", " not in line for line in table_lines)
    gone = bye.players[0]
    assert rows[-1].user_id == gone and rows[-1].place == len(rows) > rows[-2].place
    name = tn.entrants[gone].name
    for lang in ("en", "ja"):
        text = "\n".join(standing_lines(tn, rows, lang))
        assert t("tournament.knockout_in_line", lang, name="", dropped="").strip(" •—") not in text
        assert sum(1 for line in text.splitlines() if line.startswith("**1.**")) == 2
        assert t("tournament.knockout_left_bye_line", lang, place=8, name=name, round=1,
                 dropped=t("tournament.dropped_mark", lang)) in text
        (line,) = [line for line in text.splitlines() if line.startswith("**") and name in line]
        assert line == t("tournament.knockout_left_bye_line", lang, place=8, name=name, round=1,
                         dropped=t("tournament.dropped_mark", lang))  # not "out … (place 1 at table 3)"
    await host.close()
