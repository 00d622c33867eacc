"""``python -m bot replay FILE [--seat N] [--lang ja] [--gif OUT]``: a record from storage plays back in the
terminal and writes its animated summary; a file that is no record, a seat that is not in the game, a file that
does not replay and a missing file end with status 2 and the reason, writing nothing."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.replay import stored_record
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
