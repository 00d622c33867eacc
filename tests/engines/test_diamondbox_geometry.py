"""Diamond Box: the four placement conditions and their enumeration, on explicit patterns
(independent of the card table, so the default patterns can be tuned)."""
from __future__ import annotations

import pytest

from engines.diamondbox import geometry
from engines.diamondbox.cards import turn_cells
from engines.diamondbox.geometry import Square, check, placements_for


def centre_of(rows: list[str], colours: list[str]) -> geometry.Centre:
    """A centre drawn as text: ``rows`` of diamonds (space = no square), ``colours`` alike."""
    centre: geometry.Centre = {}
    for y, (drow, crow) in enumerate(zip(rows, colours, strict=True)):
        for x, (d, c) in enumerate(zip(drow, crow, strict=True)):
            if c != " ":
                centre[(x, y)] = Square(c, d, f"{c}01", 0)
    return centre


# A 2×4 centre: row 0 red, rows 1-3 green, like the starting layout.
START = centre_of(["w.", ".b", "w.", ".."], ["RR", "GG", "GG", "GG"])


def test_legal_four_square_cover() -> None:
    # At y=2 the card covers rows 2-3 (its white diamond on the white one); its last row hangs below.
    reason, covered = check(START, turn_cells("w./../..", 0), "Y", 0, 2, "G")
    assert (reason, covered) == (None, 4)


def test_full_cover_counts_six() -> None:
    reason, covered = check(START, turn_cells(".b/w./..", 0), "Y", 0, 1, "G")
    assert (reason, covered) == (None, 6)


def test_overlap_needs_four_squares() -> None:
    reason, covered = check(START, turn_cells("../../..", 0), "Y", 0, 3, "G")
    assert (reason, covered) == ("too_little_overlap", 2)
    reason, covered = check(START, turn_cells("../../..", 0), "Y", 1, 1, "G")
    assert (reason, covered) == ("too_little_overlap", 3)


def test_diamond_must_land_on_same_colour_diamond() -> None:
    # white on black
    assert check(START, turn_cells(".w/../..", 0), "Y", 0, 1, "G")[0] == "diamonds_differ"
    assert check(START, turn_cells("../.w/w.", 0), "Y", 0, 1, "G")[0] == "diamonds_differ"
    # a diamond on a blank square is refused too
    assert check(START, turn_cells("../../.w", 0), "Y", 0, 1, "G")[0] == "diamonds_differ"
    # the same diamond colour is fine; blank card squares cover diamonds freely
    assert check(START, turn_cells(".b/../..", 0), "Y", 0, 1, "G")[0] is None


def test_diamonds_off_the_centre_are_free() -> None:
    # The card's top row hangs above the centre (y = -1): its diamonds there are free.
    reason, covered = check(START, turn_cells("wb/w./.b", 0), "Y", 0, -1, "R")
    assert (reason, covered) == (None, 4)


def test_frame_colour_must_not_be_covered() -> None:
    assert check(START, turn_cells("../../..", 0), "R", 0, 1, "G")[0] is None  # red is not covered
    assert check(START, turn_cells("../../..", 0), "G", 0, 1, "G")[0] == "frame_colour_covered"
    assert check(START, turn_cells("../../..", 0), "R", 0, 0, "G")[0] == "frame_colour_covered"


def test_designated_colour_must_be_covered() -> None:
    assert check(START, turn_cells("../../..", 0), "Y", 0, 1, "R")[0] == "designated_colour_not_covered"
    assert check(START, turn_cells("../../..", 0), "Y", 0, 0, "R")[0] is None


def test_enumeration_matches_brute_force() -> None:
    centre = centre_of(["w. ", ".bb", "w.w", "..b", " w."], ["RRY", "GGY", "GGB", "GGB", " PP"])
    from engines.diamondbox import cards

    hand = ["Y01", "B02", "P05", "R09", "G10"]
    for turns in ((0, 180), (0, 90, 180, 270)):
        expected = set()
        for card in hand:
            for turn in cards.distinct_turns(card, turns):
                for x in range(-4, 6):
                    for y in range(-4, 8):
                        reason, covered = geometry.check_card(centre, card, turn, x, y, "G")
                        if reason is None:
                            expected.add((card, turn, x, y, covered))
        found = placements_for(centre, hand, "G", turns)
        assert set(found) == expected
        assert len(found) == len(expected)
        assert [p.covered for p in found] == sorted((p.covered for p in found), reverse=True)


def test_nothing_to_place_without_a_designated_colour() -> None:
    assert placements_for(START, ["Y01"], None, (0, 180)) == []


@pytest.mark.parametrize("rows,turns,distinct", [
    ("wb/../bw", (0, 180), (0,)),          # the same after a half turn
    ("w./../..", (0, 180), (0, 180)),
    ("../../..", (0, 90, 180, 270), (0, 90)),
])
def test_equivalent_turns_are_listed_once(rows: str, turns: tuple[int, ...], distinct: tuple[int, ...]) -> None:
    seen, kept = set(), []
    for turn in turns:
        cells = turn_cells(rows, turn)
        if cells not in seen:
            seen.add(cells)
            kept.append(turn)
    assert tuple(kept) == distinct
