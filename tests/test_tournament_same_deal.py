"""Same-deal tournaments (issue 55): ``deal: same`` is a row of ``formats.FORMATS`` for a Swiss and a round robin,
stored with the tournament on both backends; the formats without such a row are refused at creation, and the
refusal changes nothing."""
from __future__ import annotations

import pytest

from bot.errors import HostError
from bot.tournaments.formats import rules_of
from bot.tournaments.models import Deal, Format
from bot.tournaments.settings import TournamentSettings

from .test_tournament_service import ORGANISER, Host


@pytest.mark.parametrize("format", ["swiss", "roundrobin"])
async def test_a_same_deal_tournament_is_stored_with_its_deal(db_url: str, format: str) -> None:
    host = await Host.open(db_url)
    tn = await host.tournaments.create(game="pileup", guild_id=5, channel_id=50, creator_id=ORGANISER, seed=5,
                                       format=format, deal="same")
    assert tn.deal is Deal.SAME and rules_of(tn).same_deal
    stored = await host.storage.tournaments.load(tn.id)
    assert stored is not None and stored.deal is Deal.SAME and rules_of(stored).same_deal
    own = await host.tournaments.create(game="pileup", guild_id=5, channel_id=50, creator_id=ORGANISER, seed=6,
                                        format=format)
    assert own.deal is Deal.OWN and not rules_of(own).same_deal
    await host.close()


@pytest.mark.parametrize("format", ["knockout", "swiss_knockout"])
def test_a_knockout_is_not_a_same_deal_tournament(format: str) -> None:
    settings = TournamentSettings(game="pileup", format=Format(format), deal=Deal.SAME, advance=1, cut=4)
    with pytest.raises(HostError) as err:
        settings.check()
    assert err.value.code == "tournament.same_deal_formats"
    TournamentSettings(game="pileup", format=Format(format), advance=1, cut=4 if "swiss" in format else None).check()
