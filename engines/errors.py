"""The one hierarchy of engine errors.

Every error carries a stable ``code`` (used as the i18n key ``error.<code>``) and the
``fields`` that fill the message's placeholders. The host turns them into a user message
in one place; engines never format user-facing text themselves.
"""
from __future__ import annotations

from typing import Any


class EngineError(Exception):
    code = "engine_error"

    def __init__(self, code: str | None = None, /, **fields: Any) -> None:
        if code is not None:
            self.code = code
        self.fields = fields
        detail = ", ".join(f"{k}={v!r}" for k, v in fields.items())
        super().__init__(f"{self.code}({detail})" if detail else self.code)


class BadOptions(EngineError):
    """Table options that the game does not accept."""

    code = "bad_options"


class BadAction(EngineError):
    """Action data that is not a well-formed action of this game."""

    code = "bad_action"


class NotYourTurn(EngineError):
    """The player may not act now (not seated, not their decision, or the game is over)."""

    code = "not_your_turn"


class IllegalAction(EngineError):
    """A well-formed action that the rules do not allow in this state."""

    code = "illegal_action"
