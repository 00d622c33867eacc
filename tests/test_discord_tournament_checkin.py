"""Check-in that closes itself (issue 43): at the deadline whoever has not checked in is dropped and told why, once
(a start afterwards does not ping them again); if the organiser chose it at creation, the tournament then starts."""
from __future__ import annotations

import asyncio
import time

import pytest

from bot.i18n import t
from bot.tournaments import checkin
from bot.tournaments import text as tx
from bot.tournaments.models import EntrantStatus, TournamentStatus

from .discord_harness import Harness
from .discord_helpers import CHECK_IN, TOURNAMENT_JOIN, TOURNAMENT_LEAVE, organiser, says

ALICE, BOB, CAROL, DAVE = 101, 102, 103, 104


def pings_of(h: Harness, user_id: int) -> int:
    """Messages sent to the channel whose allowed mentions ping ``user_id``."""
    return sum(1 for c in h.calls if c.method == "POST" and c.path == f"/channels/{h.channel_id}/messages"
               and user_id in map(int, ((c.json or {}).get("allowed_mentions") or {}).get("users", [])))


async def pass_deadline(h: Harness, monkeypatch: pytest.MonkeyPatch, seconds: float = 600) -> None:
    """The clock moves on (past a five-minute deadline by default): the waiting deadline sees it within a second."""
    monkeypatch.setattr(checkin, "now", lambda: time.time() + seconds)
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
        assert tn.status == TournamentStatus.CHECKIN_CLOSED and not tn.tables
        await h.slash(alice, "tournament start")
        assert tn.status == "running"
    assert pings_of(h, CAROL) == 2  # the start does not tell her again
    assert not [m for m in h.channel_messages() if says(m.text, "tournament.missed_checkin")]


async def test_a_deadline_that_cannot_start_says_why(h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """Three join, two check in, Akuma needs three: the deadline cannot start it. The channel and /tournament start
    say what works (add someone, then start), counting as the sign-up does (2 checked in of 3 entered); once the
    organiser adds one, the start seats them."""
    alice, bob, carol = await organiser(h, ALICE, "alice"), h.user(BOB, "bob"), h.user(CAROL, "carol")
    r = await h.slash(alice, "tournament create", game="akuma", start_at_deadline=True)
    for user in (alice, bob, carol):
        await h.click(user, r.message, label=TOURNAMENT_JOIN)
    await h.slash(alice, "tournament checkin", minutes=5)
    for user in (alice, bob):
        await h.click(user, r.message, label=CHECK_IN)
    tn = next(iter(h.bot.tournaments._cache.values()))
    await pass_deadline(h, monkeypatch)
    assert tn.status == TournamentStatus.CHECKIN_CLOSED
    reason = t("error.tournament.too_few_checked_in", "en", count=2, entered=3, min=3)
    assert [m for m in h.channel_messages() if says(m.text, "tournament.not_started", name=tx.title(tn, "en"),
                                                    reason=reason)]
    signup = h.message(r.message.id).text
    assert says(signup, "tournament.signup_footer", id=tn.id, count=3)
    refused = await h.slash(alice, "tournament start")
    assert says(refused.messages[-1].text, "error.tournament.too_few_checked_in", count=2, entered=3, min=3)
    await h.slash(alice, "tournament add", player=h.user(104, "dan"))
    await h.slash(alice, "tournament start")
    assert tn.status == "running" and 104 in tn.round_tables(1)[0].players



def labels(message) -> list[str | None]:
    return [c.get("label") for c in message.components if c.get("type") == 2]


async def test_check_in_closes_at_the_deadline_after_one_reminder(h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 51: one reminder before the deadline (a third of a five-minute window: 100 s before) pings those not
    checked in, once; at the deadline the sign-up says check-in has closed (no past "open until"), only Leave is
    left, and the one told they are out cannot check back in, nor can a newcomer join; the organiser still adds
    them, and the start seats them."""
    alice, bob, carol, dave = (await organiser(h, ALICE, "alice"), h.user(BOB, "bob"), h.user(CAROL, "carol"),
                               h.user(DAVE, "dave"))
    r = await h.slash(alice, "tournament create", game="akuma", bots=2)
    signup = r.message
    for user in (alice, bob, carol):
        await h.click(user, signup, label=TOURNAMENT_JOIN)
    await h.slash(alice, "tournament checkin", minutes=5)
    await h.click(alice, signup, label=CHECK_IN)
    tn = next(iter(h.bot.tournaments._cache.values()))
    assert tn.checkin_until is not None and tn.checkin_remind_at == tn.checkin_until - 100
    before = dict(h.message(signup.id).payload)  # as a client that has not redrawn it yet still shows it
    before["id"] = str(max(h.server.messages) + 1000)
    stale = h.adopt(before)
    assert (pings_of(h, BOB), pings_of(h, CAROL)) == (1, 1)  # the check-in call
    await pass_deadline(h, monkeypatch, 5 * 60 - 150)  # before the reminder: nothing yet
    assert (pings_of(h, BOB), pings_of(h, CAROL)) == (1, 1)
    await h.click(bob, signup, label=CHECK_IN)
    await pass_deadline(h, monkeypatch, 5 * 60 - 60)  # the reminder's time: Carol, not checked in, is reminded
    reminders = [m for m in h.channel_messages() if says(m.text, "tournament.checkin_reminder")]
    assert len(reminders) == 1 and f"<@{CAROL}>" in reminders[0].text and f"<@{BOB}>" not in reminders[0].text
    assert (pings_of(h, BOB), pings_of(h, CAROL)) == (1, 2) and tn.checkin_remind_at is None
    await pass_deadline(h, monkeypatch)
    assert len([m for m in h.channel_messages() if says(m.text, "tournament.checkin_reminder")]) == 1

    assert tn.status == TournamentStatus.CHECKIN_CLOSED and tn.entrants[CAROL].status == EntrantStatus.DROPPED
    shown = h.message(signup.id)
    assert says(shown.text, "tournament.status.checkin_closed", count=4)  # alice, bob and the two bots
    assert not says(shown.text, "tournament.status.checkin_until")
    assert len(labels(shown)) == 1 and TOURNAMENT_LEAVE.matches(labels(shown)[0])
    for user in (carol, dave):  # a press on a button drawn before the deadline is answered, and changes nothing
        refused = await h.click(user, stale, label=CHECK_IN if user is carol else TOURNAMENT_JOIN)
        assert refused.ephemeral and says(refused.text, "error.tournament.checkin_closed")
    assert tn.entrants[CAROL].status == EntrantStatus.DROPPED and DAVE not in tn.entrants
    for user in (carol, dave):
        added = await h.slash(alice, "tournament add", player=user)
        assert says(added.messages[-1].text, "tournament.done.add", player=f"<@{user.id}>")
    again = await h.slash(alice, "tournament add", player=dave)
    assert says(again.messages[-1].text, "error.tournament.already_entered_player")
    refused = await h.slash(bob, "tournament add", player=bob)
    assert says(refused.messages[-1].text, "error.tournament.organiser_only")
    await h.slash(alice, "tournament start")
    seated = {u for tb in tn.round_tables(1) for u in tb.players}
    assert tn.status == "running" and {ALICE, BOB, CAROL, DAVE} <= seated
    assert not [m for m in h.channel_messages() if says(m.text, "tournament.missed_checkin")]


async def test_the_reminder_and_the_close_survive_a_restart(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot dies before the reminder's time and comes back after it: the reminder still goes out (the deadline has
    not passed), once; a second restart after it sends none again; the deadline then closes check-in."""
    from .discord_helpers import kill, start_harness
    from .test_discord_output import kept_by_discord

    db = tmp_path / "bot.db"
    h = await start_harness(db)
    alice, bob = await organiser(h, ALICE, "alice"), h.user(BOB, "bob")
    signup = (await h.slash(alice, "tournament create", game="akuma", bots=2)).message
    for user in (alice, bob):
        await h.click(user, signup, label=TOURNAMENT_JOIN)
    await h.slash(alice, "tournament checkin", minutes=5)
    await kill(h)
    for _ in range(2):  # back after the reminder's time, then once more
        monkeypatch.setattr(checkin, "now", lambda: time.time() + 5 * 60 - 60)
        h2 = await start_harness(db, discord_has=kept_by_discord(h))
        await asyncio.sleep(checkin.STEP + 0.2)
        await h2.settle()
        reminders = [m for m in h2.channel_messages() if says(m.text, "tournament.checkin_reminder")]
        assert len(reminders) == 1 and f"<@{BOB}>" in reminders[0].text
        await kill(h2)
        h = h2
    h3 = await start_harness(db, discord_has=kept_by_discord(h))
    try:
        await pass_deadline(h3, monkeypatch)
        tn = await h3.bot.tournaments.get(1)  # type: ignore[attr-defined]
        assert tn.status == TournamentStatus.CHECKIN_CLOSED and tn.entrants[BOB].status == EntrantStatus.DROPPED
        assert len([m for m in h3.channel_messages() if says(m.text, "tournament.checkin_reminder")]) == 1
    finally:
        await h3.close()
