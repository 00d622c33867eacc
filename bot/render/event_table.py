"""Events as text through a table: each renderer maps an event type to a small formatter function, typed by the
shape of the data its engine gives that event (a ``TypedDict`` in the renderer's ``*_event_shapes`` module;
``tests/test_event_shapes.py`` plays every such game and checks each event it emits against its shape)."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar, cast

from engines import Event

from . import Names

D = TypeVar("D")


class EventText(Protocol):
    """One event type's formatter: (the event's data, the acting player's name, names, locale) -> the line, or None
    to show nothing."""

    @property
    def shape(self) -> type: ...

    def __call__(self, data: Mapping[str, object], who: str, names: Names, locale: object | None) -> str | None: ...


@dataclass(frozen=True)
class On(Generic[D]):
    """``On(Placed, _placed)``: the formatter of the events whose data has the shape ``Placed``."""

    shape: type[D]
    text: Callable[[D, str, Names, object | None], str | None]

    def __call__(self, data: Mapping[str, object], who: str, names: Names, locale: object | None) -> str | None:
        return self.text(cast(D, data), who, names, locale)  # the engine built it in this shape (the test checks)


def format_event(formatters: Mapping[str, EventText], ev: Event, names: Names, locale: object | None) -> str | None:
    """The event as text by its type's formatter; an event type without one renders nothing."""
    formatter = formatters.get(ev.type)
    if formatter is None:
        return None
    return formatter(ev.data, names(ev.data.get("player")), names, locale)
