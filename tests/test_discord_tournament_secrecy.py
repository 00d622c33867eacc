"""Same-deal secrecy (issue 55), through the strict edge: a same-deal Swiss round's tables play in private threads
with only their seated people added; while the round is played, ``/game status``, review, record, Reveal and
Share of a table are refused with why to everyone not seated there (entrants at the round's other tables, a
spectator, a moderator who can read every private thread), in their language; its own people see it as usual;
no message or log line shows a seed of the round; once the round's last table has ended, all of it opens."""
from __future__ import annotations

import itertools
import json
import logging
from pathlib import Path
from typing import AsyncIterator

import discord
import pytest

from bot.errors import HostError
from bot.i18n import language, t
from bot.tournaments import text as tx
from bot.tournaments.models import Tournament, TournamentTable
from engines import EngineError

from .discord_harness import Harness, HarnessError
from .discord_harness_payloads import HarnessUser
from .discord_helpers import TOURNAMENT_JOIN, organiser, says
from .test_discord_share import web_bot
from .test_discord_tournament_faults import until

ALICE, BOB, CAROL, DAVE, ERIN, MALLORY, MOD = 101, 102, 103, 104, 105, 109, 110
SECRET = "error.same_deal_round_secret"


@pytest.fixture
async def hw(tmp_path: Path) -> AsyncIterator[Harness]:
    """The bot with its web side on (so Share answers), behind the harness."""
    harness = Harness(web_bot(tmp_path / "games.db"))
    await harness.start()
    harness.allow_errors(HostError, EngineError)
    seeds = itertools.count(1)
    harness.bot.service.new_seed = lambda: next(seeds)
    yield harness
    await harness.close()


def only_tournament(h: Harness) -> Tournament:
    return next(iter(h.bot.tournaments._cache.values()))


def refused_secret(reply, user: HarnessUser, game_id: int) -> bool:
    """The secrecy refusal, only to ``user``, in their language, with nothing attached."""
    wanted = t(SECRET, language(user.locale), game_id=game_id)
    return reply.ephemeral and wanted in reply.text and all(not m.attachments for m in reply.messages)


def forged(h: Harness, custom_id: str, channel_id: int | None = None):
    """A message in the tournament's channel (or ``channel_id``) holding a button ``custom_id`` (a tournament
    table's result has no Reveal nor Share: a forged one, as anyone could send)."""
    source = h.channel_messages(channel_id)[0]
    payload = dict(source.payload)
    payload["id"] = str(max(h.server.messages) + 1)
    payload["components"] = [{"type": 1, "components": [
        {"type": 2, "style": 2, "label": "forged", "custom_id": custom_id}]}]
    return h.adopt(payload)


async def press(h: Harness, user: HarnessUser, custom_id: str, channel_id: int | None = None):
    return await h.click(user, forged(h, custom_id, channel_id), custom_id)


async def every_way_in(h: Harness, user: HarnessUser, table: TournamentTable, *, thread: bool) -> list:
    """``user`` asks for ``table`` each way there is: its board (from its thread when they can read it, else by
    number from the tournament's channel), its review and record, and its Reveal, Review and Share buttons (Share
    from its thread: elsewhere its buttons answer only that the table plays in another channel)."""
    gid = table.game_id
    asked = [await h.slash(user, "game status", channel=table.channel_id if thread else None, table=gid),
             await h.slash(user, "game review", table=gid), await h.slash(user, "game record", table=gid),
             await press(h, user, f"gh:reveal:{gid}"), await press(h, user, f"gh:review:{gid}")]
    if thread:
        return [*asked, await press(h, user, f"gh:share:{gid}", table.channel_id)]
    elsewhere = await press(h, user, f"gh:share:{gid}")
    assert elsewhere.ephemeral and says(elsewhere.text, "error.table_elsewhere", game_id=gid)
    return asked


async def same_deal_round(h: Harness) -> tuple[dict[int, HarnessUser], Tournament]:
    """Five people (two of them reading Japanese) and three bots in a same-deal Swiss: round 1 seats two tables of
    four."""
    alice = await organiser(h, ALICE, "alice")
    people = {ALICE: alice, BOB: h.user(BOB, "bob", locale="ja"), CAROL: h.user(CAROL, "carol"),
              DAVE: h.user(DAVE, "dave", locale="ja"), ERIN: h.user(ERIN, "erin")}
    signup = (await h.slash(alice, "tournament create", game="akuma", rounds=2, bots=3, deal="same")).message
    for user in people.values():
        await h.click(user, signup, label=TOURNAMENT_JOIN)
    started = await h.slash(alice, "tournament start")
    tn = only_tournament(h)
    assert says(started.messages[-1].text, "tournament.done.start", id=tn.id)
    await h.settle()
    return people, tn


def counts_nothing(standings: str, lang: str = "en") -> bool:
    """Whether every line of a standings text says its entrant has no game counted yet."""
    nothing = t("tournament.points_games", lang, points="0", games=0, wins=0)
    rows = [line for line in standings.splitlines() if line.startswith("**")]
    return bool(rows) and all(nothing in line for line in rows)


def seeds_shown(h: Harness, caplog: pytest.LogCaptureFixture, seeds: list[str]) -> list[str]:
    """Every message Discord holds (public or not) and every log line that shows one of ``seeds``."""
    texts = [json.dumps(p) for p in h.server.messages.values()] + [r.getMessage() for r in caplog.records]
    return [text for text in texts if any(seed in text for seed in seeds)]


async def test_a_same_deal_round_is_seen_only_by_those_seated_at_each_table(
        hw: Harness, caplog: pytest.LogCaptureFixture) -> None:
    h = hw
    caplog.set_level(logging.DEBUG)
    people, tn = await same_deal_round(h)
    alice = people[ALICE]
    mallory = h.user(MALLORY, "mallory", locale="ja")  # a spectator, entered nowhere
    mod = h.user(MOD, "mod", permissions=discord.Permissions(manage_threads=True, view_channel=True,
                                                             send_messages=True))  # reads every private thread
    tables = tn.round_tables(1)
    assert len(tables) == 2 and all(len(tb.players) == 4 for tb in tables)
    bot_id = h.bot_user["id"]
    for tb in tables:  # private, nobody may invite anyone, and exactly its people added (bots need nothing)
        thread = h.server.channels[tb.channel_id]
        assert thread["type"] == 12 and thread["thread_metadata"]["invitable"] is False
        seated = {str(u) for u in tb.players if u in people}
        assert h.server.thread_members[tb.channel_id] == {bot_id, *seated}
        intro = h.channel_messages(tb.channel_id)[0]
        assert all(f"<@{u}>" in intro.text for u in seated)
    assert not [c for c in h.calls if c.method == "POST" and c.path.endswith("/threads")
                and (c.json or {}).get("type") != 12]  # never a public thread
    # X: the table with the most people; its people never press anything there (absent), yet they are added.
    x, y = sorted(tables, key=lambda tb: -sum(u in people for u in tb.players))
    inside = [people[u] for u in x.players if u in people]
    outside = [people[u] for u in y.players if u in people]
    assert inside and outside
    for person in outside:  # a private thread they are not in: Discord shows it to none of them
        assert not h.sees_thread(person, x.channel_id)
        with pytest.raises(HarnessError):
            await h.slash(person, "game status", channel=x.channel_id)
        from_own = await h.slash(person, "game status", channel=y.channel_id, table=x.game_id)
        assert refused_secret(from_own, person, x.game_id)
        mine = await h.slash(person, "game status", channel=y.channel_id)
        assert mine.embeds and not says(mine.text, SECRET)  # their own table's board

    # While both tables play: everyone not seated at X is refused each way in, with why.
    for user, thread in [*((p, False) for p in outside), (mallory, False), (mod, True)]:
        for reply in await every_way_in(h, user, x, thread=thread):
            assert refused_secret(reply, user, x.game_id), (user.name, reply.text)
    own = await h.slash(inside[0], "game status", channel=x.channel_id)
    assert own.ephemeral and own.embeds and not says(own.text, SECRET)  # X's own board, as usual
    review = await h.slash(inside[0], "game review", table=x.game_id)
    assert says(review.text, "error.review_not_finished")  # as at any table still playing

    dealt = {(await h.bot.storage.get_game(tb.game_id)).seed for tb in tables}
    assert len(dealt) == 1  # one deal for the round: what each table's people must not see of the other
    seeds = [str(tn.seed), *map(str, dealt)]
    standings = h.message(tn.standings_message_id)
    assert counts_nothing(standings.text)
    # X ends (its people never came: bots play their seats to the end); Y still plays. X's people look back at
    # their own seat; nobody else sees anything of X yet.
    for person in inside:
        replaced = await h.slash(alice, "tournament replace", player=person)
        assert says(replaced.messages[-1].text, "tournament.done.replace", player=person.mention)
    await h.settle(timeout=120)
    assert x.status == "finished" and y.status == "running"
    mine = await h.slash(inside[0], "game review", table=x.game_id)
    assert says(mine.text, "review.perspective.m")
    record = await h.slash(inside[0], "game record", table=x.game_id)
    assert says(record.text, "error.record_round_running", game_id=x.game_id)
    reveal = await press(h, inside[0], f"gh:reveal:{x.game_id}")
    assert says(reveal.text, "error.reveal_round_running", game_id=x.game_id)
    for user, thread in [*((p, False) for p in outside), (mallory, False), (mod, True)]:
        for reply in await every_way_in(h, user, x, thread=thread):
            assert refused_secret(reply, user, x.game_id), (user.name, reply.text)
    last = await h.slash(mod, "game status", channel=x.channel_id)  # X's last result, from its thread
    assert refused_secret(last, mod, x.game_id)
    asked = await h.slash(mallory, "tournament standings")
    assert counts_nothing(h.message(standings).text) and counts_nothing(asked.text, "ja")  # nothing of X's places
    assert not seeds_shown(h, caplog, seeds)

    # Y ends: the round is over, and all of it opens to everyone who can see the tables.
    ranking = " > ".join(str(n) for n in range(1, 5))
    done = await h.slash(alice, "tournament set-result", table=y.game_id, ranking=ranking)
    assert says(done.messages[-1].text, "tournament.done.set_result", table=y.game_id)
    await h.settle()
    assert all(tb.done for tb in tn.round_tables(1))
    assert not counts_nothing(h.message(standings).text) and says(h.message(standings).text, "tournament.points_games",
                                                        points="3", games=1, wins=1)  # the round's results, now
    viewer = outside[0]
    review = await h.slash(viewer, "game review", table=x.game_id)
    assert says(review.text, "review.perspective.s")
    record = await h.slash(viewer, "game record", table=x.game_id)
    assert says(record.text, "record.reply") and f"table-{x.game_id}-akuma.json" in record.messages[-1].files
    reveal = await press(h, mallory, f"gh:reveal:{x.game_id}")
    assert says(reveal.text, "reveal.hands")
    status = await h.slash(mod, "game status", channel=x.channel_id)
    assert says(status.text, "table.last_result", id=x.game_id)


async def test_private_threads_refused_are_told_to_the_organiser(h: Harness) -> None:
    """Without Create Private Threads a same-deal tournament is refused at creation and at the start, naming the
    permission; when Discord refuses the private threads after the start, the organiser is told so by DM, and no
    public thread is ever opened instead."""
    alice = await organiser(h, ALICE, "alice")
    full = h.app_permissions
    h.app_permissions = discord.Permissions(full.value & ~discord.Permissions(create_private_threads=True).value)
    refused = await h.slash(alice, "tournament create", game="akuma", bots=4, deal="same")
    missing = lambda lang: t("perm.create_private_threads", lang)  # noqa: E731
    assert refused.ephemeral and says(refused.messages[-1].text, "error.tournament.missing_permissions",
                                      missing=missing)
    assert not h.bot.tournaments._cache
    own = await h.slash(alice, "tournament create", game="akuma", bots=4)  # one with its own deals: public threads
    assert not own.ephemeral
    h.app_permissions = full
    signup = (await h.slash(alice, "tournament create", game="akuma", rounds=1, bots=6, deal="same")).message
    await h.click(alice, signup, label=TOURNAMENT_JOIN)
    tn = next(tn for tn in h.bot.tournaments._cache.values() if tn.signup_message_id == signup.id)
    h.app_permissions = discord.Permissions(full.value & ~discord.Permissions(create_private_threads=True).value)
    refused = await h.slash(alice, "tournament start", tournament=tn.id)
    assert refused.ephemeral and says(refused.messages[-1].text, "error.tournament.missing_permissions",
                                      missing=missing)
    h.app_permissions = full
    refusals = h.server.faults.fail("POST", r"/channels/\d+/threads", status=403, code=50013, times=None)
    await h.slash(alice, "tournament start", tournament=tn.id)
    await until(h, lambda: h.dm_messages(alice), timeout=30)
    dm = h.dm_messages(alice)
    reason = lambda lang: t("tournament.not_opening.missing", lang, missing=missing(lang))  # noqa: E731
    told = {"name": lambda lang: tx.title(tn, lang), "round": 1, "channel": f"<#{h.channel_id}>", "reason": reason}
    assert len(dm) == 1 and any(says(dm[0].content, "tournament.not_opening", table=n, **told) for n in (1, 2))
    assert refusals.hits >= 3 and all(tb.status == "pending" for tb in tn.round_tables(1))
    assert all((c.json or {}).get("type") == 12 for c in h.calls if c.method == "POST"
               and c.path.endswith("/threads"))
    assert not [c for c in h.server.channels.values() if c.get("type") == 11]


async def test_a_same_deal_tournament_needs_a_text_channel(h: Harness) -> None:
    """An announcement channel has no private threads: a same-deal tournament is refused there, with why."""
    alice = await organiser(h, ALICE, "alice", locale="ja")
    channel = h.server.channels[h.channel_id]
    channel["type"] = 5
    h.dispatch("CHANNEL_UPDATE", channel)
    refused = await h.slash(alice, "tournament create", game="akuma", bots=4, deal="same")
    assert refused.ephemeral and t("error.tournament.same_deal_text_channel", "ja") in refused.messages[-1].text
    assert not h.bot.tournaments._cache


async def test_a_refused_member_keeps_the_table_closed_and_its_thread_is_taken_up_again(h: Harness) -> None:
    """The bot loses Manage Threads after the start: Discord refuses to add anyone to a thread nobody may invite
    to, so no table opens (nobody seated would see their board), the organiser is told which permission is missing,
    and once it is back the same threads are used: no thread left behind, unseen, for a new one."""
    alice = await organiser(h, ALICE, "alice")
    signup = (await h.slash(alice, "tournament create", game="akuma", rounds=1, bots=6, deal="same")).message
    await h.click(alice, signup, label=TOURNAMENT_JOIN)
    channel = h.server.channels[h.channel_id]
    without = discord.Permissions(manage_threads=True).value
    channel["permission_overwrites"] = [{"id": str(h.guild_id + 1), "type": 0, "allow": "0", "deny": str(without)}]
    h.dispatch("CHANNEL_UPDATE", channel)  # the bot's role loses it in the channel (the interaction says nothing)
    h.server.bot_permissions = lambda channel_id: h.app_permissions.value & ~without
    await h.slash(alice, "tournament start")
    tn = only_tournament(h)
    await until(h, lambda: h.dm_messages(alice), timeout=30)
    reason = lambda lang: t("tournament.not_opening.missing", lang,  # noqa: E731
                            missing=t("perm.manage_threads", lang))
    told = {"name": lambda lang: tx.title(tn, lang), "round": 1, "channel": f"<#{h.channel_id}>", "reason": reason}
    dm = h.dm_messages(alice)
    assert len(dm) == 1 and any(says(dm[0].content, "tournament.not_opening", table=n, **told) for n in (1, 2))
    ours = next(tb for tb in tn.round_tables(1) if ALICE in tb.players)
    assert ours.status == "pending" and ours.channel_id is None  # the bots' table has nobody to add: it opens
    made = [int(c["id"]) for c in h.server.channels.values() if c.get("type") == 12]
    assert len(made) == 2  # one thread a table, however many tries
    waiting = next(cid for cid in made if cid not in {tb.channel_id for tb in tn.round_tables(1)})
    assert not h.channel_messages(waiting) and h.server.thread_members[waiting] == {h.bot_user["id"]}
    channel["permission_overwrites"] = []
    h.dispatch("CHANNEL_UPDATE", channel)
    h.server.bot_permissions = lambda channel_id: h.app_permissions.value
    await until(h, lambda: ours.status != "pending", timeout=90)
    assert len([c for c in h.server.channels.values() if c.get("type") == 12]) == 2
    assert ours.channel_id == waiting and str(ALICE) in h.server.thread_members[waiting]
    assert f"<@{ALICE}>" in h.channel_messages(waiting)[0].text
