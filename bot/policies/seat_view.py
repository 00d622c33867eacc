"""The one boundary between typed views and the bots: heuristics, the easy and strong bots and the samplers read
a view as its JSON dict, the shape the untyped views had (``View.model_dump``; ``viewer`` where some games said
``me``), which is also what crosses to a worker process. Each policy entry point converts with ``seat_view``."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines import View

PolicyView = View | Mapping[str, Any]  # a typed view, or the dict a cheaper rollout view builds directly


def seat_view(view: PolicyView) -> dict[str, Any]:
    """``view`` as the dict the policies read (a dict passes through unchanged)."""
    return view.model_dump() if isinstance(view, View) else dict(view)
