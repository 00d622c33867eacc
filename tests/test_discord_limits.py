"""Limits against amplification through the harness (issue 32, item 1): a member without the right cannot create or
start tournaments (the attack: 64 bots, 20 rounds, started with nobody entered); an organiser-role member may,
within the caps on bot entrants and rounds and only with a person entered; caps on open lobbies and running tables
per member and per server; one per-member cooldown over ``/play``, Rematch and ``/tournament create``; ``/config``
changes them (Manage Server only). Every refusal says which limit and who changes it, and changes nothing."""
from __future__ import annotations

import random

import discord

from bot.i18n import t

from . import ui_driver
from .conftest import rows
from .discord_harness import Harness
from .discord_harness_http import Reply
from .discord_harness_payloads import build_options, interaction_payload
from .discord_helpers import (
    JOIN,
    ORGANISER_ROLE,
    START,
    Key,
    dispatch_click,
    dispatch_slash,
    organiser,
    public_mark,
    public_since,
    says,
)
from .test_discord_tournament import threads

ADMIN, MALLORY, ALICE, BOB, CAROL = 100, 666, 101, 102, 103
ROLE = 900_000_000_000_000_555
REMATCH = Key("result.rematch")


def counts(h: Harness) -> tuple:
    """Every row a creation would add: games, tournaments and their entrants."""
    db = str(h.bot.settings.database_path)  # type: ignore[attr-defined]
    return tuple(rows(db, f"SELECT COUNT(*) FROM {table}")[0][0]
                 for table in ("games", "seats", "tournaments", "tournament_entrants", "tournament_tables"))


Line = tuple[str, dict]


def line(key: str, **fields) -> Line:
    """A catalog line a refusal must say: its key, and the fields it is rendered with (none: told by its longest
    fixed part, see ``says``)."""
    return key, fields


def cooldown_said(text: str, per_minute: int) -> bool:
    """The cooldown refusal, with its cap, for whatever number of seconds it had left."""
    return any(says(text, "error.limit.cooldown", max=per_minute, seconds=s) for s in range(1, 61))


async def refused(h: Harness, user, command: str, expected: Line, **options) -> str:
    """``/command`` is answered ephemerally with the line ``expected`` and adds no row, no public message, no
    thread."""
    before, mark, opened = counts(h), public_mark(h), len(threads(h))
    r = await h.slash(user, command, **options)
    text = r.messages[-1].text if r.messages else r.text
    assert r.ephemeral or r.type == "deferred", (command, text)
    key, fields = expected
    assert says(text, key, **fields), (command, key, fields, text)
    assert counts(h) == before and public_since(h, mark) == "" and len(threads(h)) == opened
    return text


def admin(h: Harness):
    return h.user(ADMIN, "admin", permissions=discord.Permissions.all())


async def test_the_amplification_attack_is_refused_for_a_member_without_the_right(h: Harness) -> None:
    mallory = h.user(MALLORY, "mallory")
    who = line("error.limit.organiser")  # no fields: the whole line, which names `/config organiser`
    await refused(h, mallory, "tournament create", who, game="rocca", bots=64, rounds=20)
    await refused(h, mallory, "tournament create", who, game="rocca")
    # A tournament someone else may create is not Mallory's to start either.
    alice = await organiser(h, ALICE, "alice")
    signup = (await h.slash(alice, "tournament create", game="akuma", bots=3)).message
    await h.click(alice, signup, label=JOIN)
    await refused(h, mallory, "tournament start", line("error.limit.organiser_role", role=f"<@&{ORGANISER_ROLE}>"))
    assert not threads(h) and next(iter(h.bot.tournaments._cache.values())).status == "signup"


async def test_an_organiser_role_member_may_within_the_caps_and_only_with_a_person(h: Harness) -> None:
    boss, alice = admin(h), h.user(ALICE, "alice", roles=[ROLE])
    h.dispatch("GUILD_ROLE_CREATE", {"guild_id": str(h.guild_id), "role": {
        "id": str(ROLE), "name": "Organisers", "permissions": "0", "position": 1, "color": 0, "hoist": False,
        "managed": False, "mentionable": False, "flags": 0}})
    await refused(h, alice, "tournament create", line("error.limit.organiser"), game="akuma")
    set_role = await h.slash(boss, "config organiser", role=ROLE)
    assert set_role.ephemeral and says(set_role.text, "config.organiser.set", role=f"<@&{ROLE}>")

    await refused(h, alice, "tournament create", line("error.limit.tournament_bots", max=16), game="rocca", bots=64)
    await refused(h, alice, "tournament create", line("error.limit.tournament_rounds", max=10), game="rocca", bots=2,
                  rounds=20)
    signup = (await h.slash(alice, "tournament create", game="akuma", bots=16, rounds=1)).message
    tn = next(iter(h.bot.tournaments._cache.values()))
    assert says(signup.text, "tournament.signup_footer", id=tn.id, count=16)
    await refused(h, alice, "tournament start", line("error.tournament.no_person", min=1))  # 16 bots only
    assert tn.status == "signup" and not threads(h)
    await h.click(alice, signup, label=JOIN)
    started = await h.slash(alice, "tournament start")
    assert says(started.messages[-1].text, "tournament.done.start", id=tn.id) and threads(h)

    cleared = await h.slash(boss, "config organiser")
    assert cleared.ephemeral and says(cleared.text, "config.organiser.cleared")
    await refused(h, alice, "tournament create", line("error.limit.organiser"), game="akuma")


async def test_lobbies_per_member_and_per_server(h: Harness) -> None:
    alice, bob, carol = h.user(ALICE, "alice"), h.user(BOB, "bob"), h.user(CAROL, "carol")
    for elsewhere in (1, 2):  # two lobbies of hers in channels the harness does not show
        await h.bot.service.create_lobby(game="akuma", guild_id=h.guild_id, channel_id=elsewhere,  # type: ignore[attr-defined]
                                         user_id=ALICE, name="alice")
    await h.slash(alice, "play akuma", bots=2)
    # the whole line, with the count, which says who changes the limit (`/config limits`)
    await refused(h, alice, "play akuma", line("error.limit.lobbies_per_member", max=3), channel="games")
    await h.slash(admin(h), "config limits", lobbies_per_member=4, lobbies_per_server=4)
    await h.slash(bob, "play akuma", channel="games")
    await refused(h, carol, "play rocca", line("error.limit.lobbies_per_server", max=4))


async def test_running_tables_per_member_and_per_server(h: Harness) -> None:
    alice, bob = h.user(ALICE, "alice"), h.user(BOB, "bob")
    await h.slash(admin(h), "config limits", tables_per_member=1, tables_per_server=2)
    first = (await h.slash(alice, "play akuma", bots=2, timer=0)).message
    await h.click(alice, first, label=START)
    second = (await h.slash(alice, "play akuma", bots=2, channel="games", timer=0)).message
    before = counts(h)
    r = await h.click(alice, second, label=START)
    assert r.ephemeral and says(r.text, "error.limit.tables_per_member", max=1)
    assert counts(h) == before and has_start(h.message(second))  # still a lobby
    await h.slash(alice, "game leave", channel="games")  # her lobby closes
    await h.slash(admin(h), "config limits", tables_per_member=3)
    bobs = (await h.slash(bob, "play akuma", bots=2, channel="games", timer=0)).message
    await h.click(bob, bobs, label=START)
    third = (await h.slash(bob, "play rocca", bots=1, channel="general", timer=0)).message
    r = await h.click(bob, third, label=START)
    assert r.ephemeral and says(r.text, "error.limit.tables_per_server", max=2)
    r = await h.click(alice, third, label=START)  # not her lobby: the limit is not what stops her
    assert r.ephemeral and says(r.text, "error.host_only")
    assert has_start(h.message(third))


async def test_one_cooldown_over_play_rematch_and_tournament_create(h: Harness) -> None:
    people = {ALICE: await organiser(h, ALICE, "alice"), BOB: h.user(BOB, "bob")}
    alice = people[ALICE]
    lobby = (await h.slash(alice, "play rocca", bots=1, level="easy", timer=300)).message
    await h.click(people[BOB], lobby, label=JOIN)
    await h.click(alice, lobby, label=START)
    table = next(iter(h.bot.service._tables.values()))  # type: ignore[attr-defined]
    await ui_driver.play_to_the_end(h, table, people, random.Random(5))
    shown = await h.slash(admin(h), "config limits", creations_per_minute=2)
    assert says(shown.text, "config.limits.creations_per_minute", value=2)
    for _ in range(2):  # two lobbies opened and left in the other channel: her two creations of this minute
        await h.slash(alice, "play akuma", channel="games")
        await h.slash(alice, "game leave", channel="games")
    text = await refused(h, alice, "play akuma", line("error.limit.cooldown"), channel="games")
    assert cooldown_said(text, 2)
    text = await refused(h, alice, "tournament create", line("error.limit.cooldown"), game="akuma")
    assert cooldown_said(text, 2)
    result = next(m for m in h.channel_messages() if any(REMATCH.matches(c.get("label")) for c in m.components))
    before = counts(h)
    r = await h.click(alice, result, result.button(None, r"gh:rematch:\d+")["custom_id"])
    assert r.ephemeral and cooldown_said(r.text, 2)
    assert counts(h) == before and table.row.rematch_id is None and h.message(result.id).components
    other = await h.slash(people[BOB], "play akuma", channel="games")  # a bucket per member
    assert not other.ephemeral


async def test_config_limits_shows_and_changes_them_for_admins_only(h: Harness) -> None:
    boss = admin(h)
    shown = await h.slash(boss, "config limits")
    assert shown.ephemeral
    for key, value in (("tournament_bots", 16), ("tournament_rounds", 10), ("lobbies_per_member", 3),
                       ("lobbies_per_server", 25), ("tables_per_member", 3), ("tables_per_server", 25),
                       ("creations_per_minute", 3)):
        assert says(shown.text, f"config.limits.{key}", value=value), key
    assert says(shown.text, "config.limits.organisers")
    changed = await h.slash(boss, "config limits", tournament_bots=4, tables_per_server=100)
    assert says(changed.text, "config.limits.tournament_bots", value=4)
    assert says(changed.text, "config.limits.tables_per_server", value=100)
    assert says(changed.text, "config.limits.lobbies_per_member", value=3)  # the others stay
    ja = await h.slash(h.user(ADMIN + 1, "kanri", locale="ja", permissions=discord.Permissions.all()),
                       "config limits")
    assert t("config.limits.title", "ja") in ja.text and t("config.limits.tournament_bots", "ja", value=4) in ja.text
    # A member's client does not show /config (default permissions); a forged request is refused all the same.
    mallory = h.user(MALLORY, "mallory")
    data = build_options(h, boss, "config limits", {"tournament_bots": 64})
    payload = interaction_payload(h, mallory, 2, data, h.channel_id, None)
    forged = Reply(h.server, int(payload["id"]), payload["token"], 2, h.channel_id, mallory.payload)
    h.server.replies[forged.token] = forged
    h.dispatch("INTERACTION_CREATE", payload)
    await h.settle()
    assert forged.ephemeral and says(forged.text, "error.manage_server_only")
    assert (await h.bot.storage.guild_limits(h.guild_id)).tournament_bots == 4


async def test_requests_at_the_same_instant_are_counted_one_after_the_other(h: Harness) -> None:
    """Three ``/play`` and two Start clicks of one member arriving together, each cap at 1: exactly one lobby
    opens and one table starts — the others are refused with the limit, not let through by counts made before
    either was written. The server's gate is gone once nobody holds it."""
    alice = h.user(ALICE, "alice")
    db = str(h.bot.settings.database_path)  # type: ignore[attr-defined]
    await h.slash(admin(h), "config limits", lobbies_per_member=1, tables_per_member=1, creations_per_minute=60)
    replies = [dispatch_slash(h, alice, "play akuma", bots=2, timer=0) for _ in range(3)]
    await h.settle()
    refused_now = [says(r.text, "error.limit.lobbies_per_member") for r in replies]
    assert sum(refused_now) == 2, [r.text for r in replies]
    assert rows(db, "SELECT COUNT(*) FROM games")[0][0] == 1
    await h.slash(admin(h), "config limits", lobbies_per_member=2)
    await h.slash(alice, "play rocca", bots=1, timer=0, channel="games")
    lobbies = [m for m in h.channel_messages() + h.channel_messages(h.channel_ids["games"]) if has_start(m)]
    assert len(lobbies) == 2
    starts = [dispatch_click(h, alice, lobby, lobby.button(START)) for lobby in lobbies]
    await h.settle()
    assert sum(says(r.text, "error.limit.tables_per_member") for r in starts) == 1
    assert rows(db, "SELECT COUNT(*) FROM games WHERE status = 'running'")[0][0] == 1
    assert len(h.bot.gates) == 0  # type: ignore[attr-defined]


def has_start(message) -> bool:
    return any(START.matches(c.get("label")) for c in message.components)


async def test_a_tournament_whose_round_1_overflows_the_running_tables_is_refused_at_the_start(h: Harness) -> None:
    """Issue 51: a round 1 of more tables than the server has room for was seated anyway (28 tables against a cap
    of 25). With room for 2 running tables, six entrants of a one-on-one Swiss (three tables) are refused at the
    start, saying how many and what to change; nothing starts. With room for 3 it starts."""
    boss = admin(h)
    await h.slash(boss, "config limits", tables_per_server=2)
    signup = (await h.slash(boss, "tournament create", game="rocca", bots=5, rounds=1, min_seats=2,
                            max_seats=2)).message
    await h.click(boss, signup, label=JOIN)
    tn = next(iter(h.bot.tournaments._cache.values()))
    await refused(h, boss, "tournament start", line("error.limit.tournament_tables", tables=3, room=2, max=2))
    assert tn.status == "signup" and not tn.tables
    await h.slash(boss, "config limits", tables_per_server=3)
    started = await h.slash(boss, "tournament start")
    assert says(started.messages[-1].text, "tournament.done.start", id=tn.id)
    assert len(tn.round_tables(1)) == 3
