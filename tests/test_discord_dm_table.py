"""A table in a DM with the bot installed to a person's account: ``/play akuma bots:3`` plays a whole game there,
carried by interaction tokens only (the strict edge refuses channel writes there, expired tokens and a sixth
followup), and a table nobody pressed for 15 minutes waits and catches up on the next press."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.place import PlaceKind
from bot.policies import choose_action
from bot.replay import rebuild_stored
from cogs.live_hands import live_hands
from cogs.outbox_token import TOKEN_NOTICE
from engines import GAMES, get_engine

from .discord_faults import TOKEN_LIFETIME
from .discord_harness import Harness
from .discord_helpers import MY_HAND, board_message, kill, only_table, says, start_harness
from .test_discord_akuma import PLAYER, take_turn
from .test_discord_output import kept_by_discord

ALICE_ID = 101


def channel_calls(h: Harness, channel_id: int) -> list[str]:
    return [f"{c.method} {c.path}" for c in h.calls if c.path.startswith(f"/channels/{channel_id}")]


def hand_shown(r) -> bool:
    """The press was answered with the presser's hand view, only to them (its answer, or a followup after the press
    took over the board it was on)."""
    return any(m.ephemeral and m.text for m in r.messages)


def took_over(h: Harness, r, board) -> bool:
    """The press was acknowledged as an update of ``board`` (no live token could edit it any more): its token now
    edits it, and it was edited into the current board."""
    reply = h.server.replies[r.token]
    edits = [c for c in reply.calls if c.method == "PATCH" and c.path.endswith("/messages/@original")]
    return r.type == "deferred_update" and reply.original_id == board.id and bool(edits)


def result_of(messages, custom_id: str):
    return next(m for m in messages if any(c.get("custom_id") == custom_id for c in m.components))


async def open_dm_table(h: Harness, alice, dm: int):
    r = await h.slash(alice, "play akuma", channel=dm, bots=3, start="host")
    assert r.type == "deferred" and not r.ephemeral
    table = only_table(h)
    assert table.place.kind is PlaceKind.PRIVATE and table.status == "running"
    assert board_message(h, table).id == r.message.id  # the first board fills the command's "thinking…"
    return table, r


async def test_a_whole_game_against_bots_in_a_dm_through_tokens_only(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    dm = h.dm(alice)
    table, _ = await open_dm_table(h, alice, dm)
    rng, turns = random.Random(3), 0
    while table.status == "running":
        assert table.to_act() == [PLAYER], "the bots moved with the last press's token"
        await take_turn(h, alice, table, rng)
        turns += 1
        assert turns < 300
    assert table.status == "finished" and table.result() is not None
    messages = h.server.channel_messages(dm)
    assert any(says(m.text, "common.final_ranking") for m in messages)
    assert channel_calls(h, dm) == []  # not one channel write: everything went through interaction tokens
    assert not [c for c in h.calls if c.refused]
    assert max(reply.followups for reply in h.server.replies.values()) <= 5
    replay = await rebuild_stored(h.bot.storage, table.id)  # stored as in a server: the log replays to the end
    assert table.engine.dump(replay.frames[-1].state) == table.engine.dump(table.state)
    for look in (f"gh:review:{table.id}", f"gh:reveal:{table.id}"):  # looking back works there too, only to her
        r = await h.click(alice, result_of(messages, look), look)
        assert r.ephemeral, look
    viewer = (await h.click(alice, result_of(messages, f"gh:review:{table.id}"), f"gh:review:{table.id}")).message
    shared = await h.click(alice, viewer, rf"gh:rvsh:{table.id}:.*")  # shared with the DM: through this press
    assert shared.ephemeral and len(h.server.channel_messages(dm)) == len(messages) + 1
    assert not says(h.message(viewer.id).text, "review.shared")  # the viewer stays as it was: the link is a reply
    # Rematch: its press carries the new table's first board.
    r = await h.click(alice, result_of(messages, f"gh:rematch:{table.id}"), rf"gh:rematch:{table.id}")
    again = await h.bot.service.table(table.id + 1)
    assert again.status == "running" and again.place.kind is PlaceKind.PRIVATE
    assert board_message(h, again).payload["interaction_metadata"]["id"] == str(r.id)
    assert channel_calls(h, dm) == [] and not [c for c in h.calls if c.refused]


async def test_a_dm_table_without_a_live_token_waits_and_catches_up_on_the_next_press(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    dm = h.dm(alice)
    table, _ = await open_dm_table(h, alice, dm)
    box = h.bot.get_cog("TableCog").outbox(table.id)
    old_board = board_message(h, table)
    # Alice is away for 20 minutes: every token she gave is dead, on Discord's side and the bot's ...
    assert box.carrier is not None
    tokens_age(h, 20 * 60)
    # ... and her time runs out: a bot plays her turn, and the bots go on until her next turn.
    calls = len(h.calls)
    await h.bot.service.expire(table.id, table.version)
    await h.settle()
    assert table.to_act() == [PLAYER] and table.version > 1
    assert h.calls[calls:] == []  # nothing to write with: no request at all (none refused)
    assert box.clock_held and table.row.deadline is None  # the table waits; her clock does not run meanwhile
    # Her next press (My hand on the board she has) brings that board up to date with its token: shown once.
    r = await h.click(alice, old_board, label=MY_HAND)
    assert hand_shown(r) and took_over(h, r, old_board)
    board = board_message(h, table)
    assert board.id == old_board.id
    assert says(board.text, "table.timed_out", player="alice"), board.text  # what happened while she was away
    assert not box.clock_held and table.row.deadline is not None  # her clock runs again, with the full time
    assert channel_calls(h, dm) == [] and not [c for c in h.calls if c.refused]
    await take_turn(h, alice, table, random.Random(5))  # and the game goes on


async def test_in_a_dm_play_needs_bots_and_changes_nothing_without(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    r = await h.slash(alice, "play akuma", channel=h.dm(alice), bots=0)
    assert r.ephemeral and says(r.text, "error.dm_needs_bots", min=2)
    assert await h.bot.storage.game_ids(status=("lobby", "running", "finished")) == []


async def test_a_restart_loses_nothing_and_the_next_press_brings_the_board_back(tmp_path: Path) -> None:
    db = tmp_path / "bot.db"
    h = await start_harness(db)
    alice = h.user(ALICE_ID, "alice")
    dm = h.dm(alice)
    table, _ = await open_dm_table(h, alice, dm)
    rng = random.Random(3)
    for _ in range(2):
        await take_turn(h, alice, table, rng)
    version, state, old_board = table.version, table.engine.dump(table.state), board_message(h, table)
    await kill(h)
    old = h
    h = await start_harness(db, discord_has=kept_by_discord(old))
    try:
        h.server.token_only |= old.server.token_only
        alice = h.user(ALICE_ID, "alice")
        await h.settle()
        table = await h.bot.service.table(table.id)
        assert (table.version, table.engine.dump(table.state)) == (version, state)  # every move kept
        assert channel_calls(h, dm) == [] and not [c for c in h.calls if c.refused]  # it waits for a press
        r = await h.click(alice, h.message(old_board.id), label=MY_HAND)
        assert hand_shown(r) and took_over(h, r, old_board)  # the board she pressed on is brought back, once
        assert board_message(h, table).id == old_board.id
        assert table.to_act() == [PLAYER] and table.row.deadline is not None
        await take_turn(h, alice, table, rng)
        assert table.version > version and channel_calls(h, dm) == []
    finally:
        await h.close()


async def test_before_the_last_token_ends_the_board_says_the_table_waits(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    dm = h.dm(alice)
    table, _ = await open_dm_table(h, alice, dm)
    box = h.bot.get_cog("TableCog").outbox(table.id)
    assert box.press_wait._task is not None and not box.press_wait._task.done()  # due before her token ends
    left = box.carrier.ends_at() - TOKEN_NOTICE - h.bot.delivery.clock()
    assert TOKEN_LIFETIME - 120 < left < TOKEN_LIFETIME - 60, left
    await box.wait_for_press()  # what that timer runs
    await h.settle()
    board = board_message(h, table)
    assert says(board.text, "table.waiting_for_press") and table.row.deadline is None  # said, and no clock runs
    tokens_age(h, 20 * 60)  # 20 minutes later: nothing happened meanwhile
    r = await h.click(alice, board, label=MY_HAND)
    assert hand_shown(r) and took_over(h, r, board) and table.row.deadline is not None  # the clock runs again
    assert not says(board_message(h, table).text, "table.waiting_for_press")  # the notice went with the wait
    assert channel_calls(h, dm) == [] and not [c for c in h.calls if c.refused]
    await take_turn(h, alice, table, random.Random(5))


@pytest.mark.parametrize("game", GAMES)
async def test_every_game_plays_to_its_end_in_a_dm(h: Harness, game: str) -> None:
    """Each game's whole deal against bots in a DM: Alice presses My hand on the board each turn (her press carries
    what follows) and her decision is taken by the service; every message goes through tokens."""
    alice = h.user(ALICE_ID, "alice")
    dm = h.dm(alice)
    engine = get_engine(game)
    options = {"deals": 1} if game == "twinpyramid" else {}
    await h.slash(alice, f"play {game}", channel=dm, bots=engine.min_players - 1 if game != "akuma" else 3,
                  **options)
    table = only_table(h)
    rng, presses = random.Random(7), 0
    while table.status == "running":
        assert table.to_act() == [PLAYER], table.to_act()
        r = await h.click(alice, board_message(h, table), label=MY_HAND)
        assert hand_shown(r)
        presses += 1
        action = choose_action(engine, table.state, PLAYER, rng)
        with h._owning():
            await h.bot.service.act_as(table.id, PLAYER, action, table.version)
        await h.settle()
        assert presses < 400
    assert any(says(m.text, "common.final_ranking") for m in h.server.channel_messages(dm))
    assert channel_calls(h, dm) == [] and not [c for c in h.calls if c.refused]
    assert max(reply.followups for reply in h.server.replies.values()) <= 5


def tokens_age(h: Harness, seconds: float) -> None:
    """Time passes for every interaction token, as Discord and the bot count it (the tables' presses, the people's
    hand views); the rest of the bot's clock is left alone."""
    for reply in h.server.replies.values():
        reply.created -= seconds
    for box in h.bot.get_cog("TableCog").outboxes.values():
        for carrier in box.tokens.carriers:
            carrier.since -= seconds
    for views in live_hands(h.bot)._live.values():
        for live in views.values():
            live.since -= seconds
            live.older = [(interaction, since - seconds) for interaction, since in live.older]
