"""Events as text through a table: each renderer maps an event type to a small formatter function."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engines import Event

from . import Names

EventFormatter = Callable[[dict[str, Any], str, Names, object | None], str | None]
"""(the event's data, the acting player's name, names, locale) -> the line, or None to show nothing."""


def format_event(formatters: dict[str, EventFormatter], ev: Event, names: Names, locale: object | None) -> str | None:
    """The event as text by its type's formatter; an event type without one renders nothing."""
    formatter = formatters.get(ev.type)
    if formatter is None:
        return None
    return formatter(ev.data, names(ev.data.get("player")), names, locale)
