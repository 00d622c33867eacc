"""Check-in that closes itself (issue 43): at the deadline whoever has not checked in is dropped and told why, once
(a start afterwards does not ping them again); if the organiser chose it at creation, the tournament then starts."""
from __future__ import annotations

import asyncio
import time

import pytest

from bot.tournaments import checkin

from .discord_harness import Harness
from .discord_helpers import CHECK_IN, TOURNAMENT_JOIN, organiser, says

ALICE, BOB, CAROL = 101, 102, 103


def pings_of(h: Harness, user_id: int) -> int:
    """Messages sent to the channel whose allowed mentions ping ``user_id``."""
    return sum(1 for c in h.calls if c.method == "POST" and c.path == f"/channels/{h.channel_id}/messages"
               and user_id in map(int, ((c.json or {}).get("allowed_mentions") or {}).get("users", [])))


async def pass_deadline(h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """The clock moves past the deadline (ten minutes on): the waiting deadline sees it within a second."""
    monkeypatch.setattr(checkin, "now", lambda: time.time() + 600)
    await asyncio.sleep(checkin.STEP + 0.2)
    await h.settle()


@pytest.mark.parametrize("starts", [True, False])
async def test_the_deadline_drops_who_did_not_check_in_and_may_start(h: Harness, monkeypatch: pytest.MonkeyPatch,
                                                                     starts: bool) -> None:
    alice, bob, carol = await organiser(h, ALICE, "alice"), h.user(BOB, "bob"), h.user(CAROL, "carol")
    r = await h.slash(alice, "tournament create", game="akuma", bots=2, start_at_deadline=starts)
    signup = r.message
    for user in (alice, bob, carol):
        await h.click(user, signup, label=TOURNAMENT_JOIN)
    await h.slash(alice, "tournament checkin", minutes=5)
    assert says(signup.text, "tournament.starts_at_deadline") == starts
    for user in (alice, bob):
        await h.click(user, signup, label=CHECK_IN)
    tn = next(iter(h.bot.tournaments._cache.values()))
    assert pings_of(h, CAROL) == 1  # the check-in call
    await pass_deadline(h, monkeypatch)

    assert tn.entrants[CAROL].status == "dropped" and tn.entrants[BOB].status == "checked_in"
    told = [m for m in h.channel_messages() if says(m.text, "tournament.missed_checkin_deadline",
                                                     people=f"<@{CAROL}>")]
    assert len(told) == 1 and pings_of(h, CAROL) == 2
    if starts:
        assert tn.status == "running" and all(CAROL not in tb.players for tb in tn.round_tables(1))
    else:
        assert tn.status == "checkin" and not tn.tables
        await h.slash(alice, "tournament start")
        assert tn.status == "running"
    assert pings_of(h, CAROL) == 2  # the start does not tell her again
    assert not [m for m in h.channel_messages() if says(m.text, "tournament.missed_checkin")]


async def test_a_deadline_that_cannot_start_says_why(h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    alice = await organiser(h, ALICE, "alice")
    await h.slash(alice, "tournament create", game="akuma", start_at_deadline=True)
    await h.slash(alice, "tournament checkin", minutes=5)
    tn = next(iter(h.bot.tournaments._cache.values()))
    await pass_deadline(h, monkeypatch)
    assert tn.status == "checkin"
    assert [m for m in h.channel_messages() if says(m.text, "tournament.not_started")]

