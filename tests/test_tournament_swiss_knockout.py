"""A Swiss feeding a knockout (issue 51), one more row of ``formats.FORMATS``, through the real services on both
backends: the organiser picks the Swiss rounds and the cut; after the Swiss rounds the top ``cut`` of their standings
(and only they) play a knockout seeded by them; the final standings put the knockout's places first, then everyone
the cut left out, in the Swiss stage's order; settings that cannot work are refused at creation or at the start."""
from __future__ import annotations

import pytest

from bot.errors import HostError
from bot.i18n import t
from bot.tournaments import compute_standings
from bot.tournaments.models import Format, TableStatus
from bot.tournaments.text import round_lines, standing_lines, summary

from .test_tournament_service import ORGANISER, Host


@pytest.mark.parametrize(("cut", "advance", "knockout_rounds"), [(4, 1, 1), (5, 1, 2), (8, 2, 2), (9, 1, 2)])
async def test_the_top_of_the_swiss_stage_play_the_knockout(db_url: str, cut: int, advance: int,
                                                             knockout_rounds: int) -> None:
    host = await Host.open(db_url)
    ts = host.tournaments
    tn = await ts.create(game="akuma", guild_id=5, channel_id=50, creator_id=ORGANISER, seed=5,
                         format="swiss_knockout", rounds=2, cut=cut, advance=advance, break_seconds=0)
    await ts.add_bots(tn.id, ORGANISER, 12)
    assert t("tournament.swiss_cut", "en", swiss=2, cut=cut) in summary(tn, "en")
    await ts.start(tn.id, ORGANISER)
    assert tn.format is Format.SWISS_KNOCKOUT and tn.rounds == 2 + knockout_rounds
    await host.idle()
    assert tn.status == "finished" and tn.current_round == 2 + knockout_rounds

    swiss = compute_standings(tn, through_round=2)
    top = [row.user_id for row in swiss[:cut]]
    third = [tb for tb in tn.round_tables(3) if tb.status != TableStatus.VOID]
    assert {u for tb in third for u in tb.players} == set(top)  # exactly the cut, nobody else
    byes = [tb.players[0] for tb in third if tb.status == TableStatus.BYE]
    assert byes == top[:len(byes)]  # the knockout's byes to the best Swiss seeds
    assert any(t("tournament.cut_started", "en", swiss=2, cut=cut) in line for line in round_lines(tn, 3, "en"))
    assert not any(t("tournament.cut_started", "en", swiss=2, cut=cut) in line for line in round_lines(tn, 2, "en"))
    (final,) = tn.round_tables(tn.current_round)
    rows = await ts.standings(tn)
    assert {r.user_id for r in rows[:len(final.players)]} == set(final.players)  # the final table's places first
    left_out = [row.user_id for row in swiss if row.user_id not in top]
    assert [r.user_id for r in rows[-len(left_out):]] == left_out  # then the cut's rest, in the Swiss order
    lines = standing_lines(tn, rows, "ja")
    for row in rows[-len(left_out):]:
        name = tn.entrants[row.user_id].name
        assert t("tournament.knockout_swiss_out_line", "ja", place=row.place, name=name,
                 points=f"{row.points:.2f}".rstrip("0").rstrip("."), dropped="") in lines
    assert not any(t("tournament.knockout_in_line", "ja", name="", dropped="").strip(" •—") in line for line in lines)
    # A Swiss round is settled once the knockout is seated from it, and the refusal says so (not "this knockout").
    swiss_table = next(tb for tb in tn.round_tables(1) if tb.status == TableStatus.FINISHED)
    with pytest.raises(HostError) as err:
        await ts.set_result(tn.id, ORGANISER, swiss_table.game_id, [[u] for u in swiss_table.players])
    assert err.value.code == "tournament.swiss_round_settled"
    await host.close()


async def test_settings_a_swiss_feeding_a_knockout_cannot_play_are_refused(db_url: str) -> None:
    host = await Host.open(db_url)
    ts = host.tournaments

    async def refused(code: str, **settings) -> None:
        with pytest.raises(HostError) as err:
            await ts.create(game="akuma", guild_id=5, channel_id=50, creator_id=ORGANISER, **settings)
        assert err.value.code == f"tournament.{code}"

    await refused("bad_cut", format="swiss_knockout", advance=1)  # no cut
    await refused("bad_cut", format="swiss_knockout", advance=1, cut=2)  # two cannot fill an Akuma table
    await refused("bad_advance", format="swiss_knockout", cut=4)
    await refused("cut_two_stage_only", format="swiss", cut=4)
    await refused("no_final_table", format="swiss_knockout", advance=1, cut=4, final_table=True)
    tn = await ts.create(game="akuma", guild_id=5, channel_id=50, creator_id=ORGANISER, format="swiss_knockout",
                         advance=1, cut=9)
    await ts.add_bots(tn.id, ORGANISER, 6)
    with pytest.raises(HostError) as err:
        await ts.start(tn.id, ORGANISER)
    assert err.value.code == "tournament.cut_too_big" and tn.status == "signup" and not tn.tables
    await host.close()
