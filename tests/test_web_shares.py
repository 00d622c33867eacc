"""Links to replay pages in storage (issue 56, item 1), on SQLite and PostgreSQL: a token comes from ``secrets``,
only its SHA-256 is stored (with the game, the seat and the expiry), and ``bot.shares.resolve`` opens nothing for
a malformed, truncated, unknown, expired or revoked token, a game not finished, a seat the game lacks, or a game of
a server whose moderators turned links off."""
from __future__ import annotations

import time

from bot.service import GameService
from bot.shares import TOKEN, LinkKind, issue, resolve, token_digest

from .conftest import rows
from .web_helpers import finished_table


async def test_a_token_is_random_stored_only_as_its_digest_and_opens_its_game(service: GameService,
                                                                              db_url: str) -> None:
    table = await finished_table(service, "pileup")
    storage = service.storage
    public = await issue(storage, table.id, None, 42, days=90)
    seat = await issue(storage, table.id, 1, 42, days=90)
    again = await issue(storage, table.id, None, 42, days=90)
    assert TOKEN.fullmatch(public) and len({public, seat, again}) == 3  # new randomness each time, not the id
    stored = rows(db_url, "SELECT token_sha256, game_id, seat, created_by FROM share_links ORDER BY created_at")
    assert {r[0] for r in stored} == {token_digest(x) for x in (public, seat, again)}
    assert not any(token in str(stored) for token in (public, seat, again))  # the database never holds a link
    opened = await resolve(storage, public)
    assert opened is not None and opened.game.id == table.id and opened.kind is LinkKind.SPECTATOR
    own = await resolve(storage, seat)
    assert own is not None and own.share.seat == 1 and own.kind is LinkKind.SEAT


async def test_nothing_opens_for_bad_expired_revoked_running_or_switched_off_links(service: GameService) -> None:
    storage = service.storage
    table = await finished_table(service, "diamondbox", guild_id=777)
    token = await issue(storage, table.id, None, 42, days=90)
    assert await resolve(storage, token) is not None
    forged = "A" * 43
    assert await resolve(storage, forged) is None  # well formed, never issued
    assert await resolve(storage, token[:-1]) is None  # truncated
    assert await resolve(storage, token + "x") is None
    assert await resolve(storage, token.upper() if token.upper() != token else token.lower()) is None
    assert await resolve(storage, "../../etc/passwd") is None
    assert await resolve(storage, str(table.id)) is None  # an id is no token
    soon = await issue(storage, table.id, None, 42, days=1 / 86400)
    assert await resolve(storage, soon, now=time.time() + 5) is None  # expired
    ghost = await issue(storage, table.id, 9, 42, days=90)
    assert await resolve(storage, ghost) is None  # a seat the game does not have
    await storage.set_guild_web_links(777, False)
    assert await resolve(storage, token) is None  # the server turned links off: every link stops at once
    await storage.set_guild_web_links(777, True)
    assert await resolve(storage, token) is not None
    # a running game: its links open nothing until it ends
    running = await service.create_bot_table(game="akuma", players=3, seed=3, channel_id=1, guild_id=777)
    early = await issue(storage, running.id, None, 42, days=90)
    assert running.status == "running" and await resolve(storage, early) is None


async def test_unshare_revokes_ones_own_links_and_a_moderator_every_link(service: GameService) -> None:
    storage = service.storage
    table = await finished_table(service, "rocca")
    mine = [await issue(storage, table.id, None, 1, days=90), await issue(storage, table.id, 0, 1, days=90)]
    theirs = await issue(storage, table.id, None, 2, days=90)
    assert await storage.revoke_shares(table.id, time.time(), created_by=1) == 2
    assert [await resolve(storage, x) for x in mine] == [None, None]
    assert await resolve(storage, theirs) is not None  # another member's link stays
    assert await storage.revoke_shares(table.id, time.time(), created_by=1) == 0  # nothing left of theirs
    assert await storage.revoke_shares(table.id, time.time()) == 1  # a moderator: all of them
    assert await resolve(storage, theirs) is None
    again = await issue(storage, table.id, None, 1, days=90)  # a reused press makes a new link that works
    assert await resolve(storage, again) is not None and await resolve(storage, mine[0]) is None
