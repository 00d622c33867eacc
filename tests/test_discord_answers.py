"""Every deferred answer is completed (issue 41): a command whose reply Discord keeps failing has its "thinking…"
edited with what happened, in the person's language, within ``bot.replies.ANSWER_WINDOW`` of the interaction's
creation; never left until the token expires. Discord's failures are injected at the fake edge; the library's
own waits between its retries of a 5xx and the answer window run ``SCALE`` times faster (harness time)."""
from __future__ import annotations

import asyncio
import re
import types

import discord
import discord.webhook.async_ as webhook_module
import pytest

from bot import replies
from bot.i18n import language
from bot.table import Table

from .discord_harness import Harness
from .discord_helpers import rendered, says

ALICE, BOB = 101, 102
SCALE = 5.0  # a fifth: margin for a loaded machine (the work before the answer is not scaled)
FOLLOWUP = r"/webhooks/\d+/[^/]+"  # POST: a followup
ORIGINAL = r"/webhooks/\d+/[^/]+/messages/@original"


@pytest.fixture
def harness_time(h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """discord.py waits 1, 3, 5, 7, 9 s between its five tries of a webhook request answered with a 5xx (25 s);
    here 1/SCALE of that, and the answer window 1/SCALE of its 30 s."""
    real_sleep = asyncio.sleep

    async def scaled_sleep(delay: float, result: object = None) -> object:
        return await real_sleep(delay / SCALE, result)

    scaled = types.SimpleNamespace(**{name: getattr(asyncio, name) for name in dir(asyncio)
                                      if not name.startswith("__")})
    scaled.sleep = scaled_sleep
    monkeypatch.setattr(webhook_module, "asyncio", scaled)
    monkeypatch.setattr(replies, "ANSWER_WINDOW", replies.ANSWER_WINDOW / SCALE)
    monkeypatch.setattr(replies, "LAST_TRY", replies.LAST_TRY / SCALE)
    h.park_sleeps_over = 10 / SCALE  # settle() waits for the library's scaled waits (it parks only longer sleeps)


async def finished_table(h: Harness) -> Table:
    """Akuma Trick: its record has no board picture to draw, so the window is spent on Discord alone."""
    table = await h.bot.service.create_bot_table(game="akuma", players=3, seed=8, channel_id=h.channel_id,
                                                 guild_id=h.guild_id)
    await h.settle()
    assert table.status == "finished"
    return table


@pytest.mark.parametrize("locale", ["en-US", "ja"])
async def test_a_record_discord_keeps_failing_edits_the_thinking_message_in_time(h: Harness, harness_time: None,
                                                                                locale: str) -> None:
    table = await finished_table(h)
    failing = h.server.faults.fail("PATCH", ORIGINAL, status=500, times=5)  # the record's edit, every try
    with h.expect_errors(discord.DiscordServerError):  # what the command met, answered by the error boundary
        r = await h.slash(h.user(ALICE, "alice", locale=locale), "game record", table=table.id)
    assert failing.hits == 5  # the library tried the record five times, every one refused
    assert r.type == "deferred" and r.ephemeral and len(r.messages) == 1
    answer = r.messages[0]
    assert rendered("error.reply_failed", language(locale)) in answer.text and not answer.attachments
    assert not answer.loading
    assert r.shown_at is not None and r.shown_at - r.created <= replies.ANSWER_WINDOW
    edits = [c for c in r.calls if c.method == "PATCH"]
    assert len(edits) == 6 and all(c.path.endswith("/messages/@original") for c in edits)  # 5 refused, the error
    assert not any(c.method == "POST" and re.fullmatch(FOLLOWUP, c.path) for c in r.calls)


async def test_an_error_after_the_answer_was_shown_comes_in_a_followup(h: Harness, harness_time: None) -> None:
    """The record's edit of "thinking…" is stored by Discord and its answer lost on the way back (a 502 after
    processing), then refused on each of the library's tries: "thinking…" was filled with the record, so the error
    line goes in a message of its own and the record stays as shown."""
    table = await finished_table(h)
    h.server.faults.fail("PATCH", ORIGINAL, status=502, after=True, times=1)
    h.server.faults.fail("PATCH", ORIGINAL, status=500, times=4)
    with h.expect_errors(discord.DiscordServerError):
        r = await h.slash(h.user(BOB, "bob"), "game record", table=table.id)
    shown = r.messages[0]
    assert not says(shown.text, "error.reply_failed") and shown.attachments  # the record stays as shown
    assert says(r.text, "error.reply_failed")
    assert len([c for c in r.calls if c.method == "PATCH"]) == 5  # the record's tries; the error wrote over nothing


async def test_when_discord_fails_every_answer_the_error_path_gives_up_within_the_window(
        h: Harness, harness_time: None) -> None:
    table = await finished_table(h)
    h.server.faults.fail("POST", FOLLOWUP, status=500, times=None)
    h.server.faults.fail("PATCH", ORIGINAL, status=500, times=None)
    with h.expect_errors(discord.DiscordServerError):
        r = await h.slash(h.user(ALICE, "alice"), "game record", table=table.id, expect_response=False)
    assert r.type == "deferred" and r.shown_at is None and r.message.loading  # Discord took nothing to show
    assert max(c.at for c in r.calls) - r.created <= replies.ANSWER_WINDOW + replies.LAST_TRY
