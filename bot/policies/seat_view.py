"""What the bots read: the seat's typed view (``engines/<game>/view.py``), attribute by attribute, exactly as the
renderers and controls do, so renaming a view field is a mypy error in the bots too.

The view is never dumped to a dict: a worker process builds it from the table's state itself
(``bot/thinking.py``), and a view pickles where it must cross as it is. Where a playout would spend a large share
of its time building the full view (Akuma Trick, Rocca: ``rollout_view`` in ``bot/policies/sampling/<game>.py``;
3-300 us against 0.5-2 us), the heuristic also reads a small slotted dataclass (``PlayoutView``; not frozen, which
cost 0.8 against 0.5 us to build) with just the fields it needs, named and typed like the view's; the heuristic's
parameter is the union of both, so mypy checks each field read against both.
"""
from __future__ import annotations

from engines import View


class PlayoutView:
    """Base of the games' small playout views (a handful of a view's fields, for a heuristic inside a playout)."""

    __slots__ = ()


PolicyView = View | PlayoutView  # what a policy is handed: the seat's typed view, or in a playout its small part


def held(hand: list[str] | None) -> list[str]:
    """A seat's own cards (``view.hand``, or Pile up's ``hand_all``): a bot always plays a seat, and only a
    spectator's view has none."""
    if hand is None:
        raise ValueError("a bot's view is a seat's: it has a hand")
    return hand
