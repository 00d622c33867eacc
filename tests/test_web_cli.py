"""A record in the browser without Discord (issue 56, item 5): ``python -m bot demo GAME --record FILE`` keeps the
terminal demo's game as a record (the one ``/game record`` hands out), and ``python -m bot replay FILE --serve``
serves it as the bot's replay pages on 127.0.0.1, printing the addresses, until Ctrl-C — run here as the real
commands, in processes of their own."""
from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.i18n import t
from bot.replay import GameRecord, rebuild

from .discord_helpers import says
from .web_helpers import fetch

ROOT = Path(__file__).resolve().parents[1]
URL = re.compile(r"http://127\.0\.0\.1:\d+/r/[a-z0-9-]+")


def test_the_demo_keeps_its_game_as_a_record_that_replays(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "demo.json"
    assert main(["demo", "pileup", "--players", "3", "--seed", "4", "--record", str(path)]) == 0
    assert says(capsys.readouterr().out.splitlines()[-1], "demo.recorded", path=str(path))
    record = GameRecord.read(path.read_bytes())
    assert record.game == "pileup" and len(record.players) == 3 and rebuild(record).frames
    again = tmp_path / "again.json"
    assert main(["demo", "pileup", "--players", "3", "--seed", "4", "--record", str(again)]) == 0
    moves = [(a.player, a.action) for a in GameRecord.read(again.read_bytes()).actions]
    assert moves == [(a.player, a.action) for a in record.actions]  # same seed, same game
    assert main(["demo", "pileup", "--record", str(tmp_path / "no" / "such.json")]) == 2
    assert main(["demo", "pileup", "--record", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert t("demo.record_no_folder", "en", folder=str(tmp_path / "no")) in err
    assert not (tmp_path / "no").exists()


async def read_addresses(process: asyncio.subprocess.Process, first: str | None = None,
                         lines: list[str] | None = None) -> list[str]:
    """The addresses the server prints (``first``: its first line, read already; ``lines``: filled with all)."""
    lines = [] if lines is None else lines
    lines += [] if first is None else [first.rstrip("\n")]
    assert process.stdout is not None
    while not lines or not says(lines[-1], "replay.serving_stop"):
        line = await asyncio.wait_for(process.stdout.readline(), 60)
        assert line, "the server ended before it said where it serves"
        lines.append(line.decode().rstrip("\n"))
    return [URL.search(line).group(0) for line in lines if URL.search(line)]


def test_a_record_is_served_as_replay_pages_until_ctrl_c(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    assert main(["demo", "rocca", "--players", "2", "--seed", "3", "--record", str(path)]) == 0
    assert asyncio.run(served_then_stopped(path)) == 0


async def served_then_stopped(path: Path) -> int:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "replay", str(path), "--serve", "--seat", "1", "--lang", "ja", cwd=ROOT,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        said: list[str] = []
        addresses = await read_addresses(process, lines=said)
        assert addresses[0].endswith("/r/seat-1") and any(a.endswith("/r/game") for a in addresses)
        seat_0 = next(a for a in addresses if a.endswith("/r/seat-0"))  # named as its page names it
        assert t("replay.serving_seat", "ja", player=t("common.bot_name", "ja", number=1), url=seat_0) in said
        status, headers, body = await fetch(addresses[0] + "/2")
        page = body.decode()
        assert status == 200 and '<html lang="ja">' in page and "🔒" in page  # seat 1's hand
        assert headers["Content-Security-Policy"].startswith("default-src 'none'")
        spectator = next(a for a in addresses if a.endswith("/r/game"))
        status, _, body = await fetch(spectator + "/2")
        assert status == 200 and "🔒" not in body.decode()
        assert (await fetch(spectator + "/2/board.png"))[1]["Content-Type"] == "image/png"
        assert (await fetch(addresses[0].rsplit("/", 1)[0] + "/seat-9"))[0] == 404
    finally:
        process.send_signal(signal.SIGINT)
        code = await asyncio.wait_for(process.wait(), 30)
    return code


def test_a_taken_port_or_a_bad_record_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    assert main(["replay", str(bad), "--serve"]) == 2
    assert "record" in capsys.readouterr().err.lower()
    path = tmp_path / "game.json"
    assert main(["demo", "diamondbox", "--record", str(path)]) == 0
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["replay", str(path), "--serve", "--port", str(port)]) == 2
    assert t("replay.port_taken", "en", port=port, reason="").split(":")[0] in capsys.readouterr().err


def test_a_record_keeps_its_tables_language_and_lang_overrides(tmp_path: Path) -> None:
    """A Japanese game's record opens in Japanese (``replay --serve`` and the terminal replay), ``--lang`` still
    chooses; a record written before the language was kept reads as before (English)."""
    path = tmp_path / "ja.json"
    assert main(["demo", "diamondbox", "--players", "2", "--seed", "7", "--lang", "ja", "--record", str(path)]) == 0
    record = GameRecord.read(path.read_bytes())
    assert record.lang == "ja" and record.language() == "ja" and record.language("en") == "en"
    assert asyncio.run(page_language(path)) == ("ja", "ja")
    assert asyncio.run(page_language(path, "--lang", "en")) == ("en", "en")
    old = tmp_path / "old.json"
    text = path.read_text()
    old.write_text(re.sub(r',\s*"lang": "ja"', "", text))
    assert "lang" not in old.read_text() and GameRecord.read(old.read_bytes()).language() == "en"
    assert asyncio.run(page_language(old)) == ("en", "en")


async def page_language(path: Path, *more: str) -> tuple[str, str]:
    """The language ``replay FILE --serve`` speaks in the terminal, and its first page's."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "replay", str(path), "--serve", *more, cwd=ROOT,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        assert process.stdout is not None
        first = (await asyncio.wait_for(process.stdout.readline(), 60)).decode()
        said = next(code for code in ("en", "ja") if first.startswith(t("replay.serving", code, url="")))
        addresses = await read_addresses(process, first)
        _, _, body = await fetch(addresses[0] + "/1")
        shown = re.search(r'<html lang="(\w+)">', body.decode())
        assert shown is not None
        return said, shown.group(1)
    finally:
        process.send_signal(signal.SIGINT)
        await asyncio.wait_for(process.wait(), 30)


async def test_a_stored_games_record_carries_its_tables_language(tmp_path: Path) -> None:
    from bot.replay import stored_record

    from .web_helpers import finished_table, sqlite_service

    async with sqlite_service(tmp_path / "games.db") as service:
        ja = await finished_table(service, "rocca", players=2, locale="ja")
        en = await finished_table(service, "rocca", players=2)
        assert (await stored_record(service.storage, ja.id)).lang == "ja"
        assert (await stored_record(service.storage, en.id)).lang == "en"


def test_a_port_no_port_can_be_is_refused_without_a_traceback(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    assert main(["demo", "akuma", "--record", str(path)]) == 0
    capsys.readouterr()
    for wrong in ("80000", "-1", "http"):
        with pytest.raises(SystemExit) as exited:
            main(["replay", str(path), "--serve", "--port", wrong])
        err = capsys.readouterr().err
        assert exited.value.code == 2 and t("cli.bad_port", value=wrong) in err and "Traceback" not in err
