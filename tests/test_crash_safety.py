"""Crash safety (issue 7, item 1): the real bot process, killed with SIGKILL at random moments, loses nothing.

The child (``tests/crash_child.py``) runs ``GameHostBot`` with all its cogs on one SQLite file behind the fake
Discord edge and plays an endless series of tables of every registered game (people clicking through hand views,
bot seats thinking for a few milliseconds). This test kills it at random moments — during start-up and resume
as well as mid-game — and starts it again on the same database and the same (persisted) fake Discord messages.
Every start checks that games resume where they were, tables waiting on a bot are woken, stored turn-timer
deadlines are re-armed, every earlier acknowledged action is in the database, and that buttons of messages sent
before the kill still work; the last start plays every table to its end and closes cleanly. Finally every
acknowledged action must be in the action log at its version and every stored state must equal the replay of
its log from ``new_game``.

``GAMEHOST_FULL=1`` (CI) kills 8 times, ``GAMEHOST_SOAK=1`` 25 times, the default 5 times
(``tests/suite_level.py``).
"""
from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .crash_child import playable_games, read_jsonl, verify
from .discord_helpers import START
from .suite_level import count

ROOT = Path(__file__).resolve().parent.parent
QUICK_KILLS = 5  # each life is killed during start-up with p=0.25: five lives still resume and click old buttons
KILLS = int(os.environ.get("GAMEHOST_CRASH_KILLS", count(quick=QUICK_KILLS, full=8, soak=25)))
SEED = int(os.environ.get("GAMEHOST_CRASH_SEED", random.randrange(1 << 30)))
START_TIMEOUT = 60.0


def spawn(db: Path, state: Path, life: int, *, finish: bool = False) -> subprocess.Popen:
    args = [sys.executable, "-m", "tests.crash_child", "--db", str(db), "--dir", str(state), "--life", str(life),
            "--seed", str(SEED)]
    out = open(state / f"life{life}.log", "w")
    return subprocess.Popen(args + (["--finish"] if finish else []), cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)


def lives(state: Path) -> list[dict]:
    return read_jsonl(state / "lives.jsonl")


def wait_ready(child: subprocess.Popen, state: Path, life: int) -> bool:
    """Until the child has finished its resume checks (False if it died first)."""
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if any(r["life"] == life for r in lives(state)):
            return True
        if child.poll() is not None:
            return False
        time.sleep(0.02)
    raise AssertionError(f"life {life} did not start within {START_TIMEOUT}s")


def died_on_its_own(child: subprocess.Popen, state: Path, life: int) -> str:
    return f"the bot process exited by itself ({child.returncode}):\n" + (state / f"life{life}.log").read_text()[-6000:]


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_sigkill_at_random_moments_loses_nothing(tmp_path: Path) -> None:
    assert playable_games(), "no registered game has a Discord module"
    db, state = tmp_path / "gamehost.db", tmp_path / "state"
    state.mkdir()
    rng = random.Random(SEED)
    killed_while_starting = 0
    for life in range(KILLS):
        child = spawn(db, state, life)
        if rng.random() < 0.25:  # during start-up: migrations, resume, bots woken, timers re-armed
            time.sleep(rng.uniform(0.0, 2.5))
            killed_while_starting += not any(r["life"] == life for r in lives(state))
        else:
            assert wait_ready(child, state, life), died_on_its_own(child, state, life)
            time.sleep(rng.uniform(0.05, 3.0))
        if child.poll() is not None:
            raise AssertionError(died_on_its_own(child, state, life))
        child.send_signal(signal.SIGKILL)
        child.wait()
        assert child.returncode == -signal.SIGKILL, died_on_its_own(child, state, life)

    final = spawn(db, state, KILLS, finish=True)
    try:
        final.wait(timeout=300)
    finally:
        if final.poll() is None:
            final.kill()
    assert final.returncode == 0, died_on_its_own(final, state, KILLS)

    records = lives(state)
    problems = [p for r in records for p in r.get("problems", [])]
    assert not problems, problems
    last = {}
    for r in records:
        last[r["life"]] = r
    assert last[KILLS].get("closed"), "the last start did not play its tables to the end"
    result = verify(db, state / "journal.jsonl")
    assert not result["problems"], "\n".join(result["problems"])
    assert result["acks"] > 0 and result["starts"] > 0
    assert set(result["finished"]) == set(playable_games()), f"not every game was played to the end: {result}"
    resumed = sum(r.get("running", 0) for r in last.values())
    woken = sum(r.get("woken", 0) for r in last.values())
    rearmed = sum(r.get("rearmed", 0) for r in last.values())
    old = sum(r.get("old_clicks", 0) for r in last.values())
    old_hands = sum(r.get("old_hand_clicks", 0) for r in last.values())
    assert old > 0, "no button sent before a restart was clicked after it"
    figures = {"seed": SEED, "kills_survived": KILLS, "killed_while_starting": killed_while_starting,
               "acknowledged_actions_checked": result["acks"], "acknowledged_starts_checked": result["starts"],
               "tables": result["games"], "games_finished": result["finished"],
               "tables_resumed_running": resumed, "bot_tables_woken": woken, "timers_rearmed": rearmed,
               "old_buttons_clicked_after_restart": old, "old_hand_buttons_clicked": old_hands}
    print("\ncrash safety:", json.dumps(figures))


async def test_a_table_whose_messages_were_lost_is_still_played_through_game_status(tmp_path: Path) -> None:
    """A kill between the start's commit and the board's post leaves a running table without any message holding
    My hand; ``/game status`` answers (ephemerally) with the board and My hand, so nobody is stuck."""
    from engines import get_engine

    from .discord_helpers import start_harness
    from .ui_driver import act

    game = playable_games()[0]
    h = await start_harness(tmp_path / "lost.db")
    try:
        alice = h.user(101, "alice")
        r = await h.slash(alice, f"play {game}", bots=get_engine(game).min_players - 1)
        await h.click(alice, r.message, label=START)
        table = (await h.bot.service.tables_in_channel(h.channel_id))[0]  # type: ignore[attr-defined]
        for message in h.channel_messages():  # Discord never got (or lost) every message of the table
            h.server.deleted.add(message.id)
        version = table.version
        acted = await act(h, alice, table, random.Random(1))
        assert acted.applied and table.version > version
    finally:
        await h.close()
