"""Share under a result, ``/game unshare`` and ``/config links`` through the strict edge (issue 56, item 3), with
the bot's own web server (``WEB_BASE_URL`` set, a free port) asked over HTTP for the links it gave. Share answers
only whoever pressed it: a public link to the spectator's view, and to someone who sat at the table their own
seat's link ("anyone with this link sees your hand"); a table played out of the server's public sight is shared
only by someone who sat there; a server's moderators turn links off (every link given stops at once); unshare
revokes. A bot without ``WEB_BASE_URL`` offers no Share."""
from __future__ import annotations

import itertools
import re
import time
from pathlib import Path
from typing import AsyncIterator

import discord
import pytest

from bot.client import GameHostBot
from bot.errors import HostError
from bot.settings import Settings
from bot.shares import DAY, issue
from bot.storage import SeatRow
from bot.table import Table
from cogs.look_back import LOOKS_PER_MINUTE as LOOKS
from cogs.look_back import look_back
from engines import EngineError

from .discord_harness import Harness
from .discord_helpers import assert_forged_clicks_refused, line, rendered, says
from .tournament_round import in_running_round
from .web_helpers import fetch

ALICE, BOB, ADMIN = 101, 102, 103
BASE = "https://games.example.org"
LINK = re.compile(re.escape(BASE) + r"(/r/[A-Za-z0-9_-]{43})")
CLUB = 900_000_000_000_000_555


def web_bot(db_path: Path, **more: object) -> GameHostBot:
    settings = Settings(_env_file=None, discord_token=None, database_path=db_path, bot_move_delay=0,
                        web_base_url=BASE, web_port=0, **more)
    return GameHostBot(settings, sync_commands=False)


@pytest.fixture
async def hw(tmp_path: Path) -> AsyncIterator[Harness]:
    harness = Harness(web_bot(tmp_path / "games.db"))
    await harness.start()
    await harness.bot.storage.set_guild_tables(harness.guild_id, "channel")
    harness.allow_errors(HostError, EngineError)
    seeds = itertools.count(1)
    harness.bot.service.new_seed = lambda: next(seeds)
    yield harness
    await harness.close()


def site(h: Harness) -> str:
    return f"http://127.0.0.1:{h.bot.web.ports[0]}"


async def played_table(h: Harness, game: str = "pileup", seed: int = 3) -> Table:
    """A finished table whose first seat is Alice's (a bot played it for her)."""
    seats = [SeatRow(0, "p1", "alice", ALICE, True, level="easy")] + [
        SeatRow(i, f"bot{i}", f"Bot {i}", None, True, level="easy") for i in range(1, 3)]
    table = await h.bot.service.create_seated_table(game=game, guild_id=h.guild_id, channel_id=h.channel_id,
                                                    seats=seats, host_id=ALICE, seed=seed)
    await h.settle(timeout=120)
    assert table.status == "finished"
    return table


def result_of(h: Harness, table: Table):
    return next(m for m in h.channel_messages() if f"gh:share:{table.id}" in str(m.components))


async def test_share_gives_the_public_link_and_only_the_player_their_seats_link(hw: Harness) -> None:
    h = hw
    table = await played_table(h)
    alice, bob = h.user(ALICE, "alice"), h.user(BOB, "bob")
    result = result_of(h, table)
    r = await h.click(alice, result, f"gh:share:{table.id}")
    assert r.ephemeral and says(r.text, "share.seat", url=BASE + LINK.findall(r.text)[1])
    public, seat = LINK.findall(r.text)
    assert says(r.text, "share.public", id=table.id, url=BASE + public, lifetime=line("share.lifetime_days", days=90))
    status, headers, body = await fetch(site(h) + public)
    page = body.decode()
    assert status == 200 and headers["Referrer-Policy"] == "no-referrer" and "🔒" not in page
    status, _, body = await fetch(site(h) + seat + "/1")
    assert status == 200 and "🔒" in body.decode()  # her hand, step by step
    assert "alice" in body.decode() and "warning" in body.decode()
    s = await h.click(bob, result, f"gh:share:{table.id}")  # a member who watched: the public link only
    assert s.ephemeral and len(LINK.findall(s.text)) == 1 and not says(s.text, "share.seat", url=".*")
    assert LINK.findall(s.text)[0] != public  # each press makes a new link
    for message in h.channel_messages():  # nothing public holds a link
        assert not LINK.search(message.text)
    review = await h.click(bob, result, f"gh:review:{table.id}")  # the Discord viewer: the game rebuilt once
    assert review.ephemeral and h.bot.rebuilds.count == 1 and look_back(h.bot).rebuilds == 1


async def test_a_table_out_of_public_sight_is_shared_only_by_who_sat_there(hw: Harness) -> None:
    h = hw
    h.dispatch("GUILD_ROLE_CREATE", {"guild_id": str(h.guild_id), "role": {
        "id": str(CLUB), "name": "Club", "permissions": "0", "position": 1, "color": 0, "hoist": False,
        "managed": False, "mentionable": False, "flags": 0}})
    channel = h.server.channels[h.channel_id]
    view = str(discord.Permissions(view_channel=True).value)
    channel["permission_overwrites"] = [{"id": str(h.guild_id), "type": 0, "allow": "0", "deny": view},
                                        {"id": str(CLUB), "type": 0, "allow": view, "deny": "0"}]
    h.dispatch("CHANNEL_UPDATE", channel)
    table = await played_table(h)
    alice, member = h.user(ALICE, "alice", roles=[CLUB]), h.user(BOB, "bob", roles=[CLUB])
    result = result_of(h, table)
    refused = await h.click(member, result, f"gh:share:{table.id}")
    assert refused.ephemeral and says(refused.text, "error.share_private", game_id=table.id)
    assert not LINK.search(refused.text)
    r = await h.click(alice, result, f"gh:share:{table.id}")
    assert len(LINK.findall(r.text)) == 2


async def test_moderators_turn_links_off_and_unshare_revokes(hw: Harness) -> None:
    h = hw
    table = await played_table(h, "rocca")
    alice, bob = h.user(ALICE, "alice"), h.user(BOB, "bob")
    admin = h.user(ADMIN, "admin", permissions=discord.Permissions.all())
    result = result_of(h, table)
    public, seat = LINK.findall((await h.click(alice, result, f"gh:share:{table.id}")).text)
    theirs = LINK.findall((await h.click(bob, result, f"gh:share:{table.id}")).text)[0]
    off = await h.slash(admin, "config links", mode="off")
    assert says(off.text, "config.links.off")  # the line names /game unshare
    assert [(await fetch(site(h) + x))[0] for x in (public, seat, theirs)] == [404, 404, 404]
    r = await h.click(alice, result, f"gh:share:{table.id}")
    assert says(r.text, "error.share_links_off") and not LINK.search(r.text)
    on = await h.slash(admin, "config links", mode="on")
    assert says(on.text, "config.links.on")  # old links reopen: the line says how to end them (/game unshare)
    assert [(await fetch(site(h) + x))[0] for x in (public, seat, theirs)] == [200, 200, 200]
    await issue(h.bot.storage, table.id, None, ALICE, days=1, now=time.time() - 2 * DAY)  # expired: opens nothing
    mine = await h.slash(alice, "game unshare", table=table.id)
    assert says(mine.text, "share.revoked", id=table.id, count=2)  # the expired one is not counted as revoked
    assert [(await fetch(site(h) + x))[0] for x in (public, seat, theirs)] == [404, 404, 200]
    again = await h.slash(alice, "game unshare", table=table.id)
    assert says(again.text, "share.revoked_none", id=table.id) and not says(again.text, "share.revoked")
    everything = await h.slash(admin, "game unshare", table=table.id)
    assert says(everything.text, "share.revoked_all", id=table.id, count=1)
    assert (await fetch(site(h) + theirs))[0] == 404
    assert says((await h.slash(admin, "game unshare", table=table.id)).text, "share.revoked_all_none", id=table.id)
    for number in (987654, -1, 2 ** 53):  # no such table, and numbers no table can have
        unknown = await h.slash(alice, "game unshare", table=number)
        assert unknown.ephemeral and says(unknown.text, "error.no_such_game", game_id=number)


async def test_share_refuses_a_running_table_and_a_bot_without_web_offers_none(hw: Harness, h: Harness) -> None:
    alice = hw.user(ALICE, "alice")
    seats = [SeatRow(0, "p1", "alice", ALICE, False)] + [SeatRow(i, f"bot{i}", f"Bot {i}", None, True)
                                                         for i in range(1, 3)]
    running = await hw.bot.service.create_seated_table(game="akuma", guild_id=hw.guild_id, channel_id=hw.channel_id,
                                                       seats=seats, host_id=ALICE, seed=2)
    await hw.settle()
    assert running.status == "running"
    await assert_forged_clicks_refused(hw, alice, running, {
        f"gh:share:{running.id}": rendered("error.share_not_finished", "en", game_id=running.id)})
    plain = await played_table(h)
    result = next(m for m in h.channel_messages() if f"gh:review:{plain.id}" in str(m.components))
    assert f"gh:share:{plain.id}" not in str(result.components) and h.bot.web is None


@pytest.mark.parametrize(("days", "hours", "said"), [(1, 24, line("share.lifetime_days", days=1)),
                                                     (1.5, 36, line("share.lifetime_hours", hours=36))])
async def test_share_states_the_links_real_lifetime(tmp_path: Path, days: float, hours: int, said: object) -> None:
    """WEB_LINK_DAYS is whole hours: Share says days when they are whole, else the hours (never "2 days" for 36
    hours), and the link is stored with just that lifetime."""
    h = Harness(web_bot(tmp_path / "games.db", web_link_days=days))
    await h.start()
    await h.bot.storage.set_guild_tables(h.guild_id, "channel")
    try:
        table = await played_table(h)
        r = await h.click(h.user(ALICE, "alice"), result_of(h, table), f"gh:share:{table.id}")
        public = LINK.findall(r.text)[0]
        assert says(r.text, "share.public", id=table.id, url=BASE + public, lifetime=said)
        spans = await h.bot.storage.db.fetch("SELECT expires_at - created_at FROM share_links")
        assert [round(row[0]) for row in spans] == [hours * 3600] * 2
    finally:
        await h.close()


def test_a_link_lifetime_share_cannot_state_is_refused() -> None:
    from pydantic import ValidationError

    for wrong in (0, -1, 0.01, 1 / 86400, 36501, float("nan"), float("inf")):
        with pytest.raises(ValidationError, match="WEB_LINK_DAYS"):
            Settings(_env_file=None, web_link_days=wrong)
    assert Settings(_env_file=None, web_link_days=0.5).link_lifetime() == (0, 12)
    assert Settings(_env_file=None, web_link_days=1 / 24).link_lifetime() == (0, 1)
    assert Settings(_env_file=None, web_link_days=90).link_lifetime() == (90, 0)


async def test_share_waits_for_the_tournament_round(hw: Harness) -> None:
    """A tournament table finished while another table of its round still plays: a (forged) Share press is refused
    as /game record is, and nothing is stored; once the round is over, it gives links (tournament results carry no
    Share button: docs/running.md)."""
    h = hw
    table = await played_table(h, "akuma")
    round_ = await in_running_round(h, table.id, ALICE, BOB)
    alice = h.user(ALICE, "alice")
    refused = await h.click(alice, result_of(h, table), f"gh:share:{table.id}")
    assert refused.ephemeral and says(refused.text, "error.share_round_running", game_id=table.id)
    assert not LINK.search(refused.text)
    assert await h.bot.storage.db.fetchval("SELECT COUNT(*) FROM share_links") == 0
    await round_.finish()
    given = await h.click(alice, result_of(h, table), f"gh:share:{table.id}")
    assert len(LINK.findall(given.text)) == 2


async def test_presses_are_rationed_and_links_outlive_a_restart(tmp_path: Path) -> None:
    """A member pressing Share again and again gets links six times a minute (with reviews and records), then the
    cooldown; the links given open after the bot restarts (only their digests were stored)."""
    h = Harness(web_bot(tmp_path / "games.db"))
    await h.start()
    await h.bot.storage.set_guild_tables(h.guild_id, "channel")
    h.allow_errors(HostError, EngineError)
    try:
        table = await played_table(h)
        alice = h.user(ALICE, "alice")
        result = result_of(h, table)
        given = [LINK.findall((await h.click(alice, result, f"gh:share:{table.id}")).text) for _ in range(LOOKS)]
        assert all(len(links) == 2 for links in given)
        refused = await h.click(alice, result, f"gh:share:{table.id}")
        assert refused.ephemeral and not LINK.search(refused.text)
        assert any(says(refused.text, "error.look_back_cooldown", max=LOOKS, seconds=s) for s in range(1, 61))
        stored = await h.bot.storage.db.fetchval("SELECT COUNT(*) FROM share_links")
        assert stored == 2 * LOOKS  # the refused press stored nothing
    finally:
        await h.close()
    again = Harness(web_bot(tmp_path / "games.db"))
    await again.start()
    try:
        public, seat = given[0]
        site_again = f"http://127.0.0.1:{again.bot.web.ports[0]}"
        assert [(await fetch(site_again + x))[0] for x in (public, seat)] == [200, 200]
    finally:
        await again.close()


async def test_a_dm_table_is_shared_by_its_player_through_the_press_token(hw: Harness) -> None:
    """A table in a DM with the bot (a user install): the result carries Share; its player's press gets both links
    through that press's token (the strict edge refuses any channel write there), and the pages open."""
    import random

    from .test_discord_akuma import take_turn
    from .test_discord_dm_table import channel_calls, open_dm_table
    from .test_discord_dm_table import result_of as dm_result

    h = hw
    alice = h.user(ALICE, "alice")
    dm = h.dm(alice)
    table, _ = await open_dm_table(h, alice, dm)
    rng = random.Random(3)
    while table.status == "running":
        await take_turn(h, alice, table, rng)
    result = dm_result(h.server.channel_messages(dm), f"gh:share:{table.id}")
    r = await h.click(alice, result, f"gh:share:{table.id}")
    public, seat = LINK.findall(r.text)
    assert r.ephemeral and channel_calls(h, dm) == []
    assert [(await fetch(site(h) + x))[0] for x in (public, seat)] == [200, 200]
