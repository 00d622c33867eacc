"""The bot on uvloop (``bot/event_loop.py``), the loop a bot process runs on where it is installed: a whole game
through the strict Discord edge, a restart, and the thinking workers' pipes (``add_reader``) each run again here
on uvloop's loop instead of asyncio's."""
from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest

from bot import event_loop

uvloop = pytest.importorskip("uvloop")
# pytest-asyncio's per-module way to choose the loop; its replacement (a loop-factory hook) parametrises every async
# test of the suite. If a later version drops this fixture, test_these_tests_run_on_uvloop fails and says so.
pytestmark = pytest.mark.filterwarnings("ignore:Overriding the \"event_loop_policy\" fixture is deprecated")

from .test_discord_akuma import (  # noqa: E402  (after the skip: the same tests, on uvloop)
    test_four_seat_game_played_to_the_end_through_buttons_and_selects,
    test_restart_keeps_the_board_buttons_and_the_game,
)
from .test_thinking import (  # noqa: E402
    test_a_backlog_of_quick_decisions_waits_for_its_worker,
    test_a_decision_that_hangs_falls_back_to_normal_in_time,
    thinker_factory,
)

__all__ = ["test_a_backlog_of_quick_decisions_waits_for_its_worker",
           "test_a_decision_that_hangs_falls_back_to_normal_in_time",
           "test_four_seat_game_played_to_the_end_through_buttons_and_selects",
           "test_restart_keeps_the_board_buttons_and_the_game", "thinker_factory"]


@pytest.fixture(scope="module")
def event_loop_policy() -> asyncio.AbstractEventLoopPolicy:
    return uvloop.EventLoopPolicy()


async def test_these_tests_run_on_uvloop() -> None:
    assert isinstance(asyncio.get_running_loop(), uvloop.Loop)


def test_a_bot_process_chooses_uvloop_unless_told_not_to(monkeypatch: pytest.MonkeyPatch) -> None:
    assert event_loop.loop_name() == "uvloop"
    assert isinstance(event_loop.run(_running_loop()), uvloop.Loop)
    monkeypatch.setenv("GAMEHOST_UVLOOP", "0")
    assert event_loop.loop_name() == "asyncio"
    assert not isinstance(event_loop.run(_running_loop()), uvloop.Loop)


async def _running_loop() -> asyncio.AbstractEventLoop:
    return asyncio.get_running_loop()


def test_the_dry_run_holds_its_claim_on_uvloop_until_sigterm(tmp_path: Path) -> None:
    """``python -m bot run --dry-run`` (the launcher's check) on uvloop: storage opened and migrated, one line,
    then a clean exit on SIGTERM (uvloop's signal handling)."""
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'dry.db'}", "PATH": "/usr/bin:/bin"}
    proc = subprocess.Popen([sys.executable, "-m", "bot", "run", "--dry-run"], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=Path(__file__).resolve().parents[1])
    assert proc.stdout is not None
    line = proc.stdout.readline()
    proc.terminate()
    assert proc.wait(20) == 0, proc.stderr.read() if proc.stderr else ""
    assert line.startswith("dry run: all shards owned on sqlite")
