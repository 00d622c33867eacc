"""A bot killed at its output (issue 31): one whole game, the bot's process dying at every ``STRIDE``-th request it
sends to a channel — before Discord sees the request, or after Discord processed it and before the answer came
back, in turn — and restarted on the same database with what Discord kept. After every restart: the board shows the
game's version, the person whose turn it is was told (and only then does her clock run), a finished game's result
is there once; over the whole game, every turn of hers was announced by exactly one notifying message.
``GAMEHOST_SOAK=1`` kills at every request; the default and CI (``GAMEHOST_FULL=1``) at every second one."""
from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bot.errors import HostError
from bot.policies import choose_action

from .discord_helpers import board_message, kill, start_harness
from .suite_level import count
from .test_discord_akuma import ALICE_ID, PLAYER, open_table
from .test_discord_output import kept_by_discord, results_in, shows_move

STRIDE = count(quick=2, full=2, soak=1)


def is_output(call) -> bool:
    return call.method in ("POST", "PATCH", "DELETE") and call.path.startswith("/channels/")


def pings_of_alice(calls) -> set[int]:
    """The messages Discord created that notified Alice (a repeat answered from its nonce is the same message)."""
    return {int(c.response["id"]) for c in calls if c.method == "POST" and c.status == 200
            and c.route == "POST /channels/{channel_id}/messages" and str(ALICE_ID) in map(
                str, ((c.json or {}).get("allowed_mentions") or {}).get("users", []))}


@pytest.mark.parametrize("tables", ["channel", None], ids=["in-channel", "in-thread"])
async def test_a_kill_at_every_output_step_loses_no_board_ping_or_result(tmp_path: Path, tables: str | None) -> None:
    db = tmp_path / "bot.db"
    h = await start_harness(db, tables=tables)
    table = await open_table(h, h.user(ALICE_ID, "alice"))
    game_id, rng = table.id, random.Random(11)
    turns, acting, kills = 1, True, 0  # her turns so far (the host leads: the first is now)
    lost = {"boards behind": 0, "pings lost": 0, "results lost or repeated": 0}
    pinged: set[int] = set()
    story: list[tuple] = []  # what each life did, for a failure's message
    while True:
        seen = [0]

        def pick(call, seen=seen) -> bool:
            seen[0] += is_output(call)
            return is_output(call) and seen[0] >= STRIDE

        died = h.server.faults.die_at(pick, after=bool(kills % 2))
        give_up = asyncio.get_running_loop().time() + 30
        while not died.is_set():
            table = await h.bot.service.table(game_id)
            assert asyncio.get_running_loop().time() < give_up, (
                kills, table.status, table.version, table.to_act(), table.paused, table.clock_paused,
                {i: (sorted(o.value for o in b.due), b.reach.cause, b.writing())
                 for i, b in h.bot.get_cog("TableCog").outboxes.items()})
            if table.status != "running":
                boxes = h.bot.get_cog("TableCog").outboxes.values()
                if not any(box.pending() for box in boxes):
                    break
            elif PLAYER in table.to_act():
                if not acting:
                    turns, acting = turns + 1, True
                try:
                    action = choose_action(table.engine, table.state, PLAYER, rng)
                    with h._owning():  # what her move starts belongs to the bot, and dies with it
                        await h.bot.service.act_as(game_id, PLAYER, action, table.version)
                except HostError:
                    pass  # a bot's move came first: look again
                acting = PLAYER in table.to_act()
            await asyncio.sleep(0.005)
        if not died.is_set():
            break
        kills += 1
        story.append((kills, "after" if kills % 2 == 0 else "before", turns, sorted(pings_of_alice(h.calls)),
                      [(c.method, c.path.split("/")[-1][-4:], c.status) for c in h.calls if is_output(c)][-3:]))
        pinged |= pings_of_alice(h.calls)
        await kill(h)
        old = h
        h = await start_harness(db, tables=tables, discord_has=kept_by_discord(old))
        h.user(ALICE_ID, "alice")
        await h.settle(timeout=20)
        table = await h.bot.service.table(game_id)
        if table.status in ("running", "finished") and shows_move(board_message(h, table)) != table.moves:
            lost["boards behind"] += 1
        if table.status == "running" and PLAYER in table.to_act() and not table.paused and (
                ALICE_ID not in table.row.board_shown.told or table.row.deadline is None):
            lost["pings lost"] += 1  # not told, or told with no clock running
        if table.status == "finished" and len(results_in(h, table.row.channel_id)) != 1:
            lost["results lost or repeated"] += 1
    pinged |= pings_of_alice(h.calls)
    finished = await h.bot.service.table(game_id)
    try:
        assert finished.status == "finished" and kills >= 5, (finished.status, kills)
        assert len(results_in(h, finished.row.channel_id)) == 1
        if finished.row.lobby_channel_id:  # and once in the lobby's channel, linking the thread
            assert len(results_in(h, finished.row.lobby_channel_id)) == 1
        print(f"{kills} kills (every {STRIDE}. output request): {lost}; her turns {turns}, "
              f"messages that notified her {len(pinged)}")
        assert lost == {"boards behind": 0, "pings lost": 0, "results lost or repeated": 0}, lost
        if len(pinged) != turns:
            print("\n".join(map(repr, story)))
        assert len(pinged) == turns, (len(pinged), turns)
    finally:
        await h.close()
