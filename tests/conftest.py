from __future__ import annotations

from pathlib import Path
from typing import AsyncIterator

import pytest

from bot.service import GameService
from bot.storage import Storage


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture
async def service(db_path: Path) -> AsyncIterator[GameService]:
    storage = await Storage.open(db_path)
    yield GameService(storage)
    await storage.close()
