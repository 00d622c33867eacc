"""The Rocca picture outlines only sides a card could be placed on (not a number's face)."""
from __future__ import annotations

from bot.render import rocca_image
from engines.rocca.models import RoccaState
from engines.rocca.view import tower_view
from engines.rocca.tower import TowerIndex, start_tower


def test_number_face_is_not_drawn_free(monkeypatch) -> None:
    tower, columns = start_tower("5S")
    state = RoccaState.model_construct(tower=tower, columns=columns, restricted=None)
    view = {"tower": tower_view(state, TowerIndex(state)), "columns": []}
    assert "face" in view["tower"][0]["open_sides"]
    drawn: list[str] = []
    monkeypatch.setattr(rocca_image, "outline_side", lambda draw, cv, tc, side: drawn.append(side))
    rocca_image.render(view)
    assert "face" not in drawn
    assert "head" in drawn and "profile" in drawn
