"""``python -m bot replay FILE [--seat N] [--lang ja] [--gif OUT]``: a record from storage plays back in the
terminal and writes its animated summary; a file that is no record, a seat that is not in the game, a file that
does not replay and a missing file end with status 2 and the reason, writing nothing."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.i18n import t
from bot.replay import stored_record
from bot.replay_cli import MAX_RECORD_BYTES
from bot.replay_show import NAME_PRINTED
from bot.scheduler import BotScheduler
from bot.service import GameService
from bot.storage import Storage


@pytest.fixture
async def record_file(tmp_path: Path) -> Path:
    storage = await Storage.open(tmp_path / "games.db")
    service = GameService(storage)
    scheduler = BotScheduler(service, delay=0)
    table = await service.create_bot_table(game="rocca", players=2, seed=9, channel_id=1)
    await scheduler.idle()
    await scheduler.close()
    path = tmp_path / "game.json"
    path.write_bytes((await stored_record(storage, table.id)).dump())
    await storage.close()
    return path


def test_a_record_plays_back_from_a_seat_and_writes_its_summary(record_file: Path, tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    gif = tmp_path / "game.gif"
    assert main(["replay", str(record_file), "--seat", "1", "--gif", str(gif)]) == 0
    out = capsys.readouterr().out
    assert "Seen by: Bot 2" in out and "Replayed exactly" in out and "hand view of Bot 2" in out
    assert "hand view of Bot 1" not in out
    assert gif.read_bytes()[:6] == b"GIF89a"
    assert main(["replay", str(record_file), "--lang", "ja"]) == 0
    assert "観戦者" in capsys.readouterr().out


def test_the_japanese_playback_lists_the_players_with_the_japanese_separator(
        record_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(record_file), "--lang", "ja"]) == 0
    opening = capsys.readouterr().out.splitlines()[0]  # 卓 #…の再生：<players>。視点：…
    assert "、" in opening and ", " not in opening, opening


def test_bad_files_and_seats_are_refused(record_file: Path, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    gif = tmp_path / "never.gif"
    assert main(["replay", str(record_file), "--seat", "5", "--gif", str(gif)]) == 2
    assert "There is no seat 5" in capsys.readouterr().err
    changed = tmp_path / "changed.json"
    changed.write_text(json.dumps(json.loads(record_file.read_text()) | {"seed": 1}))
    assert main(["replay", str(changed), "--gif", str(gif)]) == 2
    assert "cannot be replayed" in capsys.readouterr().err
    (tmp_path / "garbage.json").write_text("{}")
    assert main(["replay", str(tmp_path / "garbage.json")]) == 2
    assert "not a game record" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "missing.json")]) == 2
    assert "Cannot read" in capsys.readouterr().err
    assert not gif.exists()


def test_the_playback_is_plain_text(record_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """No Discord markup in a terminal: the catalog's bold and code marks are dropped."""
    assert main(["replay", str(record_file), "--seat", "0"]) == 0
    out = capsys.readouterr().out
    assert "**" not in out and "`" not in out and "==" in out


@pytest.mark.parametrize("where", ["folder", "missing"])
def test_a_gif_path_that_cannot_be_written_is_one_line_and_status_2(record_file: Path, tmp_path: Path, where: str,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    gif = tmp_path if where == "folder" else tmp_path / "no" / "such" / "game.gif"
    assert main(["replay", str(record_file), "--gif", str(gif)]) == 2
    captured = capsys.readouterr()
    key = "replay.gif_is_folder" if where == "folder" else "replay.gif_no_folder"
    assert captured.err == t(key, "en", path=str(gif), folder=str(gif.parent)) + "\n" and captured.out == ""
    assert not (tmp_path / "no").exists()


def test_an_over_large_file_is_refused_after_reading_at_most_the_cap(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    big = tmp_path / "zeros.json"
    with big.open("wb") as f:
        f.truncate(MAX_RECORD_BYTES * 4)  # sparse: 64 MiB of zeros on no disk
    assert main(["replay", str(big)]) == 2
    assert capsys.readouterr().err == t("replay.file_too_large", "en", path=str(big), limit=16) + "\n"
    endless = Path("/dev/zero")  # zeros without end: read whole, it would fill the memory
    if endless.exists():
        assert main(["replay", str(endless)]) == 2
        assert capsys.readouterr().err == t("replay.file_too_large", "en", path=str(endless), limit=16) + "\n"


def test_an_over_long_name_is_printed_short(record_file: Path, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(record_file.read_text())
    data["players"][0]["name"] = "n" * 5_000_000
    data["players"][0]["bot"] = False
    long_name = tmp_path / "long.json"
    long_name.write_text(json.dumps(data))
    assert main(["replay", str(long_name)]) == 0
    out = capsys.readouterr().out
    assert "n" * NAME_PRINTED not in out and "n" * (NAME_PRINTED - 1) + "…" in out
    assert max(len(line) for line in out.splitlines()) < 2000
