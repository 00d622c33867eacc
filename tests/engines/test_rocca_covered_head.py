"""「カードを重ねられるのは、“各列”の“いちばん上”のカードだけです。…下になったカードには重ねられません<図5>」:
only the top card of each column is active and cards underneath cannot be built on — so a column's top card whose
head is covered exactly by a card placed from another column is no longer active."""
from __future__ import annotations

from engines.rocca import geometry as G
from engines.rocca.tower import TowerIndex

from .test_rocca_support import legal_dicts, make, raw_tower


def test_a_card_whose_head_is_covered_is_no_longer_active() -> None:
    state = make({"ann": ["5H", "7S"], "bob": ["9D"]})
    head = G.target_centre((0, 0), 0, "head")
    raw_tower(state, [("5S", (0, 0), 0), ("5D", head, 0)])
    ix = TowerIndex(state)
    assert 0 not in ix.active and 1 in ix.active
    assert not any(a.get("on") == "5S" for a in legal_dicts(state, "ann"))


def test_an_uncovered_top_card_stays_active() -> None:
    state = make({"ann": ["5H", "7S"], "bob": ["9D"]})
    raw_tower(state, [("5S", (0, 0), 0)])
    assert TowerIndex(state).active == [0]
    assert any(a.get("on") == "5S" for a in legal_dicts(state, "ann"))
