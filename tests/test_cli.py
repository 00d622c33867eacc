"""The command line: no token → a clear message naming DISCORD_TOKEN and the demo; the demo finishes."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from engines import GAMES

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    clean.update(env or {})
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=ROOT, env=clean, capture_output=True,
                          text=True, timeout=120)


def test_without_token_it_explains_and_exits_non_zero(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, capture_output=True, text=True, timeout=60,
                          env={**{k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"},
                               "PYTHONPATH": str(ROOT)})
    assert proc.returncode != 0
    assert "DISCORD_TOKEN" in proc.stderr and "demo" in proc.stderr


def check_demo_output(out: str) -> None:
    """What every game's demo prints: private hand views, public events and the final ranking."""
    assert "🔒" in out, "no private hand view was printed"
    assert "# " in out, "no public event was printed"
    assert "🥇" in out, "no final ranking"
    assert "**" not in out and "`" not in out, "Discord markup printed in a terminal"


def test_demo_plays_a_whole_game_and_prints_channel_and_private_views() -> None:
    for game in GAMES:
        proc = run("demo", game, "--seed", "4")
        assert proc.returncode == 0, proc.stderr
        check_demo_output(proc.stdout)


def test_demo_is_reproducible_and_checks_player_count() -> None:
    a = run("demo", "akuma", "--players", "6", "--seed", "9")
    b = run("demo", "akuma", "--players", "6", "--seed", "9")
    assert a.returncode == 0 and a.stdout == b.stdout
    bad = run("demo", "akuma", "--players", "9")
    assert bad.returncode != 0 and "3–6" in bad.stderr


def test_demo_plays_at_each_level() -> None:
    for level in ("easy", "strong"):
        proc = run("demo", "pileup", "--seed", "3", "--level", level)
        assert proc.returncode == 0, proc.stderr
    refused = run("demo", "pileup", "--level", "godlike")
    assert refused.returncode != 0 and "'easy', 'normal', 'strong'" in refused.stderr, refused.stderr  # the names
