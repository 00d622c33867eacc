"""Outside servers (issue 52, item 5): a member of the group DM a game was played in may look back at it from there,
as a server member who can see its channel may, and every refusal says its true reason; a person's open lobbies
and tables in DMs and group DMs are bounded as a member's are in a server; a refused ``/play`` asks Discord for no
message it has just withdrawn."""
from __future__ import annotations

from .discord_harness import Harness
from .discord_helpers import JOIN, says
from .discord_helpers import START as START_KEY
from .private_gap import private_time
from .test_discord_dm_table import result_of
from .test_discord_group_dm_table import ALICE_ID, BOB_ID, play_out

CAROL_ID, DAVE_ID = 103, 104


async def test_a_group_dm_member_who_did_not_play_looks_back_from_there(h: Harness) -> None:
    alice, bob, carol = h.user(ALICE_ID, "alice"), h.user(BOB_ID, "bob"), h.user(CAROL_ID, "carol")
    group = h.group_dm(alice, bob, carol)
    cost = await play_out(h, {ALICE_ID: alice, BOB_ID: bob}, group, "rocca")
    table = await h.bot.service.table(cost["table"])
    result = result_of(h.server.channel_messages(group), f"gh:review:{table.id}")
    viewer = await h.click(carol, result, f"gh:review:{table.id}")  # she watched in the group DM: she may look back
    assert viewer.ephemeral and viewer.message.payload["embeds"], viewer.text  # the viewer, only to her
    assert not says(viewer.text, "error.look_back_hidden") and not says(viewer.text, "error.look_back_private")
    reveal = await h.click(carol, result, f"gh:reveal:{table.id}")
    assert reveal.ephemeral and not says(reveal.text, "error.look_back_hidden"), reveal.text
    r = await h.slash(carol, "game review", channel=group, table=table.id)
    assert r.ephemeral and not says(r.text, "error.look_back_private"), r.text
    # From anywhere else the bot cannot tell she is a member: refused, saying why (not "another server").
    r = await h.slash(carol, "game review", channel=h.dm(carol), table=table.id)
    assert says(r.text, "error.look_back_private", game_id=table.id), r.text
    r = await h.slash(h.user(DAVE_ID, "dave"), "game review", table=table.id)  # a server member, in the server
    assert says(r.text, "error.look_back_private", game_id=table.id), r.text
    # Sharing it is for those who played, as in a server: the reason says so.
    shared = await h.click(carol, viewer.message, rf"gh:rvsh:{table.id}:.*")
    assert says(shared.text, "error.review_share_not_player", game_id=table.id), shared.text


async def test_open_lobbies_and_tables_outside_servers_are_bounded_per_person(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    friends = [h.user(200 + i, f"friend{i}") for i in range(5)]
    for i in range(3):  # three group DMs, a lobby in each: the most one person may have open
        r = await h.slash(alice, "play rocca", channel=h.group_dm(alice, friends[i]))
        assert not r.ephemeral, r.text
        h.bot.creations = type(h.bot.creations)()  # (the per-minute creation cooldown is not what this tests)
    r = await h.slash(alice, "play rocca", channel=h.group_dm(alice, friends[3]))
    assert r.ephemeral and says(r.text, "error.limit.private.lobbies_per_member", max=3), r.text
    lobbies = await h.bot.storage.game_ids(status=("lobby",))
    assert len(lobbies) == 3  # nothing was opened
    assert not [c for c in h.calls if c.refused]


async def test_dm_tables_are_bounded_per_person_and_a_refusal_fetches_nothing_withdrawn(h: Harness) -> None:
    alice, bob = h.user(ALICE_ID, "alice"), h.user(BOB_ID, "bob")
    group = h.group_dm(alice, bob)
    await h.slash(alice, "play rocca", channel=group, bots=1)
    calls = len(h.calls)
    r = await h.slash(alice, "play rocca", channel=group)  # a second lobby in the same group DM: refused
    assert r.messages[-1].ephemeral and says(r.text, "error.already_seated", game_id=only_lobby(h)), r.text
    asked = [f"{c.method} {c.path}" for c in h.calls[calls:] if c.method == "GET"]
    assert asked == [] and not [c for c in h.calls if c.refused]  # no look at the "thinking…" it withdrew
    lobby = h.server.channel_messages(group)[0]
    await h.click(alice, lobby, label=START_KEY)  # (a bot joins first: rocca needs two)
    for n in range(2):  # two more running tables, each in a group DM of its own: three in all
        h.bot.creations = type(h.bot.creations)()
        other = h.group_dm(alice, h.user(400 + n, f"other{n}"))
        r = await h.slash(alice, "play rocca", channel=other, bots=1)
        await h.click(alice, r.message, label=START_KEY)
    assert len(await h.bot.storage.game_ids(status=("running",))) == 3
    h.bot.creations = type(h.bot.creations)()
    r = await h.slash(alice, "play rocca", channel=h.dm(alice), bots=1)  # her DM against bots: one too many
    assert says(r.text, "error.limit.private.tables_per_member", max=3), r.text
    assert len(await h.bot.storage.game_ids(status=("running", "lobby"))) == 3
    assert not [c for c in h.calls if c.refused]


def only_lobby(h: Harness) -> int:
    tables = [t for t in h.bot.service._tables.values() if t.status == "lobby"]  # type: ignore[attr-defined]
    assert len(tables) == 1
    return tables[0].id


async def test_a_group_dm_lobby_closed_while_nobody_pressed_is_shown_closed_on_the_next_press(h: Harness) -> None:
    """Nobody joined for a day: the lobby closes while no token can edit its message, which still shows Join. The
    next press on it is refused, saying why, and its token redraws the lobby as it is: closed, no buttons."""
    clock = private_time(h)
    alice, bob = h.user(ALICE_ID, "alice"), h.user(BOB_ID, "bob")
    lobby = (await h.slash(alice, "play rocca", channel=h.group_dm(alice, bob))).message
    clock.advance(24 * 3600 + 1)
    await h.settle()
    table = only_table_any(h)
    assert table.status == "cancelled" and h.message(lobby.id).components  # closed; the message cannot say so yet
    r = await h.click(bob, h.message(lobby.id), label=JOIN)
    assert says(r.text, "error.not_in_lobby"), r.text
    closed = h.message(lobby.id)
    assert closed.components == [] and says(closed.text, "table.lobby_idle", id=table.id), closed.text
    assert not [c for c in h.calls if c.refused]


def only_table_any(h: Harness):
    tables = list(h.bot.service._tables.values())  # type: ignore[attr-defined]
    assert len(tables) == 1
    return tables[0]
