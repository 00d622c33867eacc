from __future__ import annotations

from pathlib import Path
from typing import AsyncIterator

import pytest

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .discord_harness import Harness

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


@pytest.fixture
async def h(tmp_path: Path) -> AsyncIterator["Harness"]:
    """The real bot behind the Discord harness, on a fresh SQLite file (Discord-layer tests)."""
    from .discord_helpers import start_harness

    harness = await start_harness(tmp_path / "bot.db")
    yield harness
    await harness.close()
