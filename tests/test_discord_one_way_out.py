"""One way out for what the bot writes (issue 41): tournament output and the shared review go the way a table's
writer does. What Discord fails (a reset connection, which the library does not retry) is tried again after a wait
(a tournament's update step by step), so the standings, the round's announcement and a shared review are posted
once each and nothing is dropped; a refusal counts in the bot's shared budget of refused requests."""
from __future__ import annotations

from cogs.tournament_writer import TournamentWriter

from .discord_faults import RESET, TIMEOUT
from .discord_harness import Harness
from .discord_helpers import Key, organiser, says
from .test_discord_review import played_table
from .test_discord_tournament import ALICE
from .test_discord_tournament_faults import only_tournament, round_announced, start_with_bots, until


def standings_posts(h: Harness, tournament_id: int) -> list:
    return [m for m in h.channel_messages() if says(m.text, "tournament.standings_footer", id=tournament_id)]


async def test_a_failed_standings_post_is_tried_again_and_posted_once(h: Harness, monkeypatch) -> None:
    monkeypatch.setattr(TournamentWriter, "backoff_first", 0.05)
    alice = await organiser(h, ALICE, "alice")
    await start_with_bots(h, alice)
    failing = h.server.faults.fail("POST", rf"/channels/{h.channel_id}/messages", error=RESET, times=2)
    started = await h.slash(alice, "tournament start")
    tn = only_tournament(h)
    assert says(started.messages[-1].text, "tournament.done.start", id=tn.id)
    await until(h, lambda: round_announced(h), timeout=60)
    assert failing.hits == 2  # the standings' first two posts never reached Discord
    assert len(standings_posts(h, tn.id)) == 1 and tn.standings_message_id == standings_posts(h, tn.id)[0].id
    rounds = [m for m in h.channel_messages() if says(m.text, "tournament.round_started", round=1, rounds=1)]
    assert len(rounds) == 1


async def test_a_refused_post_counts_in_the_shared_budget_and_the_next_update_goes_on(h: Harness) -> None:
    """The standings post refused for a missing permission: not tried again (only a change in the server can help),
    counted in the budget every table's writer shares, and the round is still announced."""
    alice = await organiser(h, ALICE, "alice")
    await start_with_bots(h, alice)
    budget = h.bot.get_cog("TableCog").refusals
    before = budget.total
    refused = h.server.faults.fail("POST", rf"/channels/{h.channel_id}/messages", status=403, code=50013, times=1)
    await h.slash(alice, "tournament start")
    await until(h, lambda: round_announced(h), timeout=60)
    assert refused.hits == 1 and budget.total == before + 1
    assert standings_posts(h, only_tournament(h).id) == []


async def test_a_shared_review_discord_fails_once_is_posted_once(h: Harness) -> None:
    table = await played_table(h, "akuma", seed=7)
    alice = h.user(ALICE, "alice")
    mine = (await h.slash(alice, "game review", table=table.id)).messages[-1]
    budget = h.bot.get_cog("TableCog").refusals
    before, posts = budget.total, len(h.channel_messages(table.row.channel_id))
    failing = h.server.faults.fail("POST", rf"/channels/{table.row.channel_id}/messages", error=RESET, times=1)
    r = await h.click(alice, mine, label=Key("review.share"))
    assert failing.hits == 1 and says(r.messages[-1].text, "review.shared")
    shared = h.channel_messages(table.row.channel_id)[posts:]
    assert len(shared) == 1 and says(shared[0].text, "review.shared_by")
    assert budget.total == before  # a broken connection is no refusal

    h.server.deleted.add(shared[0].id)  # a moderator deleted it; then the bot may not post there for a while
    h.server.faults.fail("POST", rf"/channels/{table.row.channel_id}/messages", status=403, code=50013, times=1)
    r = await h.click(alice, mine, label=Key("review.share"))
    assert says(r.messages[-1].text, "error.review_share_failed") and budget.total == before + 1


async def test_a_standings_post_whose_answer_was_lost_is_posted_once(h: Harness) -> None:
    """Discord stored the standings, then its answer was lost (the connection timed out; the library does not try
    again): the writer sends the post again, with the same nonce, and Discord answers with the message it kept:
    one standings message, not two. (discord.py gives a post without a nonce a random one of its own: a new one on
    every send.)"""
    alice = await organiser(h, ALICE, "alice")
    await start_with_bots(h, alice)
    lost = h.server.faults.fail("POST", rf"/channels/{h.channel_id}/messages", error=TIMEOUT, after=True, times=1)
    await h.slash(alice, "tournament start")
    tn = only_tournament(h)
    await until(h, lambda: round_announced(h), timeout=60)
    assert lost.hits == 1
    posts = [c for c in h.calls if c.method == "POST" and c.path == f"/channels/{h.channel_id}/messages"]
    nonces = [c.json.get("nonce") for c in posts]
    assert len(set(nonces)) == len(posts) - 1  # the repeat carried the same nonce
    assert len(standings_posts(h, tn.id)) == 1
