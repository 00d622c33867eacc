"""Turn pings through the harness on the strict edge: the time warning edits the turn's ping instead of pinging
again, and ``/game pings off`` leaves a person named but never @mentioned. (At most one ping per person per turn is
checked of every Discord test by the harness itself: ``tests/discord_invariants.py``.)"""
from __future__ import annotations

import random
from pathlib import Path
from typing import AsyncIterator, Callable

import pytest

from bot.table import Table
from cogs.common import deadline_mark
from engines import get_engine

from . import ui_driver
from .discord_harness import Harness
from .discord_helpers import HAND_HEADER, JOIN, START, board_message, opens_with_line, says, start_harness
from .test_discord_faults import until

ALICE, BOB = 101, 102


@pytest.fixture
async def h(tmp_path: Path) -> AsyncIterator[Harness]:
    harness = await start_harness(tmp_path / "pings.db")
    yield harness
    await harness.close()


def turn_line(table: Table, players: str) -> tuple[str, dict[str, str]]:
    """The key and fields of the board's "your turn" line for ``players`` as the table stands now (with the
    deadline when a clock runs)."""
    deadline = deadline_mark(table)
    if deadline is None:
        return "table.your_turn", {"players": players}
    return "table.your_turn_until", {"players": players, "deadline": deadline}


def mentions_of(h: Harness, user_id: int) -> list[dict]:
    """Every message Discord was asked to send or edit that would notify ``user_id``."""
    found = []
    for call in h.calls:
        body = call.json or {}
        if call.method in ("POST", "PATCH") and str(user_id) in map(str, (body.get("allowed_mentions") or {})
                                                                        .get("users", [])):
            found.append(body)
    return found


def public_part(text: str) -> str:
    """A hand view without its private notes (🔒 "you drew …" lines are shown once, so a second view lacks them)."""
    return "\n".join(line for line in text.splitlines() if not line.startswith("🔒"))


async def play_whole_game(h: Harness, game: str, *, bob: bool = False,
                          watch: Callable[[Table], None] | None = None) -> tuple[Table, dict[int, int]]:
    """Alice (and Bob) with bots, through the hand views; returns the table and each person's number of turns (a
    turn: decisions of one person with nobody else acting in between)."""
    users = {ALICE: h.user(ALICE, "alice"), BOB: h.user(BOB, "bob")}
    engine = get_engine(game)
    bots = max(engine.min_players, 3) - (2 if bob else 1)
    r = await h.slash(users[ALICE], f"play {game}", bots=bots)
    if bob:
        await h.click(users[BOB], r.message, label=JOIN)
    await h.click(users[ALICE], r.message, label=START)
    table = (await h.bot.service.tables_in_channel(h.channel_id))[0]  # type: ignore[attr-defined]
    turns = {ALICE: 0, BOB: 0}
    last: tuple[int, int] | None = None  # who acted last, and the version their move made
    rng = random.Random(7)
    while table.status == "running":
        due = table.user_ids_to_act()[0]
        if last != (due, table.version):  # someone (a bot, the other person) moved since: a new turn
            turns[due] += 1
            if watch is not None:
                watch(table)
        acted = await ui_driver.act(h, users[due], table, rng)
        await h.settle()
        last = (due, acted.version + 1)
    return table, turns


async def test_muted_person_is_named_but_never_mentioned(h: Harness) -> None:
    alice = h.user(ALICE, "alice")
    r = await h.slash(alice, "game pings", mode="off")
    assert r.ephemeral and says(r.text, "table.pings_off")
    seen: list[tuple[str, tuple[str, dict[str, str]]]] = []  # each turn's board and the line it should hold
    table, turns = await play_whole_game(
        h, "akuma", watch=lambda tb: seen.append((board_message(h, tb).text, turn_line(tb, "**alice**"))))
    assert table.status == "finished" and turns[ALICE] > 0
    assert mentions_of(h, ALICE) == []
    assert seen and all(says(text, key, **fields) for text, (key, fields) in seen)  # named on the board at each turn
    r = await h.slash(alice, "game pings", mode="on")
    assert r.ephemeral and says(r.text, "table.pings_on")
    assert await h.bot.storage.muted_pings([ALICE]) == set()  # type: ignore[attr-defined]


async def test_time_warning_is_a_new_message_that_notifies_and_goes_once_they_move(h: Harness) -> None:
    """Discord notifies nobody of a mention added by an edit: the warning is a message of its own with the mention
    (a second notification in the turn, never a third), deleted once the person has moved."""
    alice = h.user(ALICE, "alice")
    r = await h.slash(alice, "play akuma", bots=2)
    await h.click(alice, r.message, label=START)
    await h.settle()
    table = (await h.bot.service.tables_in_channel(h.channel_id))[0]  # type: ignore[attr-defined]
    assert table.user_ids_to_act() == [ALICE]
    pings_before = len(mentions_of(h, ALICE))
    ping = next(m for m in reversed(h.channel_messages()) if f"<@{ALICE}>" in m.text)
    h.bot.service.warn(table)  # type: ignore[attr-defined]
    await h.settle()
    warning = h.channel_messages()[-1]
    assert warning.id != ping.id and says(warning.text, "table.time_warning") and f"<@{ALICE}>" in warning.text
    assert len(mentions_of(h, ALICE)) == pings_before + 1  # notified: a new message, not an edit
    assert not says(h.message(ping.id).text, "table.time_warning")  # the board does not say it twice
    h.bot.service.warn(table)  # type: ignore[attr-defined]  # warned again in the same decision: nothing new
    await h.settle()
    assert len(mentions_of(h, ALICE)) == pings_before + 1 and h.channel_messages()[-1].id == warning.id
    await ui_driver.act(h, alice, table, random.Random(1))
    await h.settle()
    assert h.message(warning.id).deleted  # gone once alice moved


async def test_hand_views_redraw_themselves_after_every_change(h: Harness) -> None:
    """Each person's latest hand view follows every move (the other person's and the bots'); the one a person
    just moved in shows their next decision at the table's current version, not "someone acted before you"."""
    people = {ALICE: h.user(ALICE, "alice"), BOB: h.user(BOB, "bob")}
    r = await h.slash(people[ALICE], "play rocca", bots=1)
    await h.click(people[BOB], r.message, label=JOIN)
    await h.click(people[ALICE], r.message, label=START)
    await h.settle()
    table = (await h.bot.service.tables_in_channel(h.channel_id))[0]  # type: ignore[attr-defined]
    latest = {uid: await ui_driver.open_hand(h, user, table) for uid, user in people.items()}
    rng, checked = random.Random(3), 0
    while table.status == "running" and checked < 12:
        due = table.user_ids_to_act()[0]
        acted = await ui_driver.act(h, people[due], table, rng)
        assert acted.reply.ephemeral and acted.reply.message is not None
        latest[due] = acted.reply.message  # the hand view the move was made in
        await h.settle()
        # the bots' moves that follow are decided in their worker process: wait until a person is due again (or
        # the game is over), so no bot moves between reading a view and opening a fresh one to compare it with
        await until(h, lambda: table.status != "running" or any(not table.is_bot(p) for p in table.to_act()))
        await h.settle()
        for uid, user in people.items():
            if table.status != "running":
                break
            shown, controls = latest[uid].text, [c.get("custom_id") for c in latest[uid].components]
            fresh = (await h.click(user, board_message(h, table), f"gh:hand:{table.id}")).message
            assert public_part(shown) == public_part(fresh.text), f"the latest hand view of {uid} is stale"
            assert controls == [c.get("custom_id") for c in fresh.components]
            await h.settle()  # the view just replaced is gone: one hand view per person
            assert latest[uid].deleted and live_hand_views(h, uid) == [fresh.id]
            latest[uid] = fresh
            checked += 1
    assert checked >= 6


def live_hand_views(h: Harness, user_id: int) -> list[int]:
    """The ephemeral messages ``user_id`` can still see (not deleted), oldest first; each must be a hand view."""
    shown = [h.message(i) for i, p in list(h.server.messages.items()) if p["flags"] & 64 and i not in h.server.deleted
             and p.get("interaction_metadata", {}).get("user", {}).get("id") == str(user_id)]
    assert all(opens_with_line(m.text, HAND_HEADER) for m in shown), [m.text for m in shown]  # no stub, no note
    return [m.id for m in shown]


async def test_my_hand_pressed_again_and_again_leaves_one_hand_view(h: Harness) -> None:
    """Each press of My hand shows the hand in a new ephemeral message and deletes the older view once the new one
    is shown: however many presses, each person keeps one hand view and no stub per press; a click inside a view
    redraws that same view and deletes nothing; at the end no view of the table has a control."""
    people = {ALICE: h.user(ALICE, "alice"), BOB: h.user(BOB, "bob")}
    r = await h.slash(people[ALICE], "play akuma", bots=1)
    await h.click(people[BOB], r.message, label=JOIN)
    await h.click(people[ALICE], r.message, label=START)
    await h.settle()
    table = (await h.bot.service.tables_in_channel(h.channel_id))[0]  # type: ignore[attr-defined]  # GameHostBot
    opened: dict[int, list[int]] = {ALICE: [], BOB: []}
    for _ in range(6):
        for uid, user in people.items():
            opened[uid].append((await ui_driver.open_hand(h, user, table)).id)
            await h.settle()
            assert live_hand_views(h, uid) == [opened[uid][-1]]
    assert all(len(set(ids)) == 6 for ids in opened.values())  # each press showed a new message
    rng = random.Random(2)
    while True:  # the bots' moves are decided in their worker process: wait until a person is due or it is over
        await until(h, lambda: table.status != "running" or any(not table.is_bot(p) for p in table.to_act()))
        if table.status != "running":
            break
        due = people[table.user_ids_to_act()[0]]
        acted = await ui_driver.act(h, due, table, rng)
        await h.settle()
        assert acted.reply.message is not None and not acted.reply.message.deleted  # redrawn in place, kept
        assert all(len(live_hand_views(h, uid)) <= 1 for uid in people)
    hands = [m for m in h.server.messages.values() if m["flags"] & 64 and m.get("components")
             and int(m["id"]) not in h.server.deleted]
    assert hands == [], "a hand view of the finished table still has controls"
