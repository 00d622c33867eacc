"""Tournaments when Discord is slow or failing, through the harness's strict edge (``server.faults``): sign-up
clicks answered while the sign-up message is slow to edit, thread creation retried until the round opens, the bot's
permissions checked before create / start, and slow work deferred within Discord's 3 s."""
from __future__ import annotations

import asyncio
import re
import time
from typing import Any

import discord

from bot.i18n import t
from bot.limits import Cap
from bot.tournaments import text as tx
from cogs.permissions import permission_names

from .discord_harness import Harness
from .discord_harness_http import Reply
from .discord_helpers import TOURNAMENT_JOIN, dispatch_click, dispatch_slash, organiser, says
from .test_discord_tournament import ALICE, BOB, CAROL, DAVE, threads

THREADS = r"/channels/\d+/threads"


def lacks(text: str, *permissions: str) -> bool:
    """The refusal of a tournament for want of ``permissions`` (named as the bot names them)."""
    return says(text, "error.tournament.missing_permissions",
                         missing=lambda lang: permission_names(list(permissions), lang))


def round_announced(h: Harness) -> bool:
    """The one round of these tournaments is announced in the channel."""
    return any(says(m.text, "tournament.round_started", round=1, rounds=1) for m in h.channel_messages())


async def until(h: Harness, done, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.05)
    await h.settle()


def together(h: Harness, people, message, label: Any) -> list[Reply]:
    """Each of ``people`` clicks ``label`` at the same moment (all dispatched before the bot runs any)."""
    msg = h.message(message)
    button = msg.button(label, None)
    return [dispatch_click(h, user, msg, button) for user in people]


def only_tournament(h: Harness):
    return next(iter(h.bot.tournaments._cache.values()))


async def test_signup_clicks_are_answered_while_discord_is_slow(h: Harness) -> None:
    """Three people join at once while every Discord answer takes 2 s: each click is answered within 3 s (the
    sign-up message is edited after the answers, outside the tournament's lock), and the message ends up listing
    all three."""
    alice = (await organiser(h, ALICE, "alice"))
    signup = (await h.slash(alice, "tournament create", game="akuma")).message
    h.server.faults.deadlines = True
    h.server.faults.latency = 2.0
    people = [h.user(uid, name) for uid, name in ((BOB, "bob"), (CAROL, "carol"), (DAVE, "dave"))]
    replies = together(h, people, signup, TOURNAMENT_JOIN)
    await until(h, lambda: all(r.responded for r in replies))
    await until(h, lambda: all(f"<@{p.id}>" in h.message(signup).text for p in people))
    late = [c for c in h.calls if c.status == 404 and (c.response or {}).get("code") == 10062]
    assert not late
    assert all(says(r.messages[-1].text, "tournament.done.join") for r in replies)


async def start_with_bots(h: Harness, alice) -> None:
    """Six bots and the organiser: a tournament starts only with a person entered."""
    signup = (await h.slash(alice, "tournament create", game="akuma", rounds=1, bots=6)).message
    await h.click(alice, signup, label=TOURNAMENT_JOIN)


async def test_a_failed_thread_creation_is_retried_and_the_round_opens(h: Harness) -> None:
    alice = (await organiser(h, ALICE, "alice"))
    await start_with_bots(h, alice)
    h.server.faults.fail("POST", THREADS, status=503, times=6)  # beyond the library's own retries
    h.server.faults.fail("POST", THREADS, status=403, code=50013, times=1)
    started = await h.slash(alice, "tournament start")
    tn = only_tournament(h)
    assert started.ephemeral and says(started.messages[-1].text, "tournament.done.start", id=tn.id)
    await until(h, lambda: round_announced(h), timeout=60)
    assert len(threads(h)) == 2 and all(t.game_id and t.status in ("running", "finished")
                                        for t in tn.round_tables(1))
    announcement = [m for m in h.channel_messages() if says(m.text, "tournament.round_started", round=1, rounds=1)]
    assert len(announcement) == 1 and all(f"<#{t.channel_id}>" in announcement[0].text for t in tn.round_tables(1))


async def test_a_player_is_answered_while_the_round_threads_are_being_created(h: Harness) -> None:
    """Every Discord answer takes 2 s, so opening round 1 (two threads, each created and then greeted) takes about
    8 s. Meanwhile a seated player drops out: the tournament answers within Discord's 3 s while a thread is still
    being created (no tournament lock is held across a Discord call), and when the table opens a bot plays the
    seat. The round is announced once both tables are open."""
    alice, bob = (await organiser(h, ALICE, "alice")), h.user(BOB, "bob")
    signup = (await h.slash(alice, "tournament create", game="akuma", rounds=1, bots=6)).message
    await h.click(bob, signup, label=TOURNAMENT_JOIN)
    h.server.faults.deadlines = True
    h.server.faults.latency = 2.0
    creating = [c for c in h.server.calls if c.method == "POST" and re.fullmatch(THREADS, c.path)]
    started = dispatch_slash(h, alice, "tournament start")
    await until(h, lambda: started.responded and any(c.method == "POST" and re.fullmatch(THREADS, c.path)
                                                     for c in h.server.calls[len(creating):]), timeout=10)
    tn = only_tournament(h)
    assert [t.status for t in tn.round_tables(1)] == ["pending", "pending"]
    dropped = dispatch_slash(h, bob, "tournament drop", player=bob)
    await until(h, lambda: dropped.responded, timeout=10)
    assert time.monotonic() - dropped.created < 3.0
    assert "pending" in [t.status for t in tn.round_tables(1)]  # a thread is still being created
    deadline = time.monotonic() + 60
    while not round_announced(h):
        assert time.monotonic() < deadline, "the round was never announced"
        await asyncio.sleep(0.05)
    h.server.faults.latency = 0.0  # the boards catch up at once
    await h.settle(timeout=30)
    late = [c for c in h.calls if c.status == 404 and (c.response or {}).get("code") == 10062]
    assert not late and tn.entrants[BOB].status == "dropped" and len(threads(h)) == 2
    game = await h.bot.service.table(next(t.game_id for t in tn.round_tables(1) if BOB in t.players))
    assert game.seat_of_user(BOB) is None and any(s.user_id == BOB and s.is_bot for s in game.seats)


async def test_the_organiser_is_told_once_when_threads_keep_failing(h: Harness) -> None:
    """The bot's role may not create threads in the channel: both tables of round 1 fail three times, then the
    organiser gets one DM naming the missing permissions; once it is granted the round opens."""
    alice = (await organiser(h, ALICE, "alice"))
    await start_with_bots(h, alice)
    channel = h.server.channels[h.channel_id]
    channel["permission_overwrites"] = [{"id": str(h.guild_id + 1), "type": 0, "allow": "0",
                                         "deny": str(discord.Permissions(create_public_threads=True,
                                                                           manage_threads=True).value)}]
    h.dispatch("CHANNEL_UPDATE", channel)
    refusals = h.server.faults.fail("POST", THREADS, status=403, code=50013, times=None)
    started = await h.slash(alice, "tournament start")
    tn = only_tournament(h)
    assert says(started.messages[-1].text, "tournament.done.start", id=tn.id)
    await until(h, lambda: h.dm_messages(alice), timeout=30)
    assert refusals.hits >= 6 and all(t.status == "pending" for t in tn.round_tables(1))
    dm = h.dm_messages(alice)
    lacking = ["create_public_threads", "manage_threads"]
    told = {"name": lambda lang: tx.title(tn, lang), "round": 1, "channel": f"<#{h.channel_id}>",
            "reason": lambda lang: t("tournament.not_opening.missing", lang, missing=permission_names(lacking, lang))}
    assert len(dm) == 1
    assert any(says(dm[0].content, "tournament.not_opening", table=table, **told) for table in (1, 2))
    h.server.faults.faults.remove(refusals)
    channel["permission_overwrites"] = []
    h.dispatch("CHANNEL_UPDATE", channel)
    await until(h, lambda: round_announced(h), timeout=60)
    assert len(h.dm_messages(alice)) == 1 and len(threads(h)) == 2


async def test_create_and_start_are_refused_without_thread_permissions(h: Harness) -> None:
    alice = (await organiser(h, ALICE, "alice"))
    full = h.app_permissions
    h.app_permissions = discord.Permissions(full.value & ~discord.Permissions(create_public_threads=True).value)
    refused = await h.slash(alice, "tournament create", game="akuma", bots=4)
    assert refused.ephemeral and lacks(refused.messages[-1].text, "create_public_threads")
    assert not h.bot.tournaments._cache
    h.app_permissions = full
    await h.slash(alice, "tournament create", game="akuma", bots=4)
    h.app_permissions = discord.Permissions(full.value & ~discord.Permissions(manage_threads=True).value)
    refused = await h.slash(alice, "tournament start")
    assert refused.ephemeral and lacks(refused.messages[-1].text, "manage_threads")
    assert only_tournament(h).status == "signup" and not threads(h)


async def test_create_with_64_bots_is_answered_within_three_seconds_on_a_slow_discord(h: Harness) -> None:
    h.server.faults.deadlines = True
    h.server.faults.latency = 2.0
    alice = (await organiser(h, ALICE, "alice"))
    slow = h.bot.tournaments.enter

    async def slow_enter(*args, **kwargs):  # a slow database: every entrant batch takes 3.5 s
        await asyncio.sleep(3.5)
        return await slow(*args, **kwargs)

    h.bot.tournaments.enter = slow_enter
    await h.bot.storage.set_guild_limits(h.guild_id, {Cap.TOURNAMENT_BOTS: 64})  # the most an admin may allow
    r = await h.slash(alice, "tournament create", game="akuma", bots=64, expect_response=False)
    await until(h, lambda: r.message_ids and h.bot.tournaments._cache and only_tournament(h).signup_message_id
                and says(h.message(r.message).text, "tournament.signup_footer", id=only_tournament(h).id, count=64),
                timeout=30)
    late = [c for c in h.calls if c.status == 404 and (c.response or {}).get("code") == 10062]
    assert not late and r.type == "deferred" and not r.ephemeral
    signup = h.message(r.message)
    assert signup.button(TOURNAMENT_JOIN) and only_tournament(h).signup_message_id == signup.id
