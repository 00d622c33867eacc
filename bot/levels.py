"""A bot seat's level, in a module of its own: the worker processes that decide bots' moves import it without the
storage."""
from __future__ import annotations

from enum import StrEnum


class BotLevel(StrEnum):
    """How strongly a bot seat plays (a seat's ``level``, a tournament's ``bot_level``: the CHECK of
    ``0006_bot_levels.sql``)."""

    EASY = "easy"
    NORMAL = "normal"
    STRONG = "strong"
