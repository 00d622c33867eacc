"""The triangular lattice the hexagonal cards sit on (rules: Geometry).

Lattice points ``(a, b)`` are drawn at ``x = a·√3/2, y = a/2 + b`` (y up). A card centred at ``c`` is the
hexagon of the six lattice triangles around ``c``; triangle ``m`` has corners ``c, c+D[m], c+D[m+1]``. Its
orientation ``k`` only decides which two triangles are its head, face and profile. Two cards share
triangles only when their centres are neighbours, and then exactly two, so every question here is local.
"""
from __future__ import annotations

import math

Point = tuple[int, int]
Triangle = tuple[int, int]
"""A lattice triangle, keyed by three times its centroid (the sum of its corners): unique and cheap."""

D: tuple[Point, ...] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
"""Unit steps m = 0..5, counter-clockwise starting at 30° (D[1] is straight up)."""
SIDES: tuple[str, ...] = ("head", "face", "profile")
SQRT3_2 = math.sqrt(3) / 2
_CORNER_SUMS: tuple[Point, ...] = tuple(
    (D[m][0] + D[(m + 1) % 6][0], D[m][1] + D[(m + 1) % 6][1]) for m in range(6)
)


def add(p: Point, q: Point) -> Point:
    return p[0] + q[0], p[1] + q[1]


def to_xy(p: Point) -> tuple[float, float]:
    """Drawing coordinates of a lattice point (y grows upwards)."""
    return p[0] * SQRT3_2, p[0] / 2 + p[1]


def triangle(centre: Point, m: int) -> Triangle:
    """Triangle ``m`` of the hexagon around ``centre`` (corners c, c+D[m], c+D[m+1]) as a lattice-wide key."""
    e = _CORNER_SUMS[m % 6]
    return 3 * centre[0] + e[0], 3 * centre[1] + e[1]


def triangle_corners(centre: Point, m: int) -> tuple[Point, Point, Point]:
    return centre, add(centre, D[m % 6]), add(centre, D[(m + 1) % 6])


def hexagon(centre: Point) -> list[Triangle]:
    a, b = 3 * centre[0], 3 * centre[1]
    return [(a + e[0], b + e[1]) for e in _CORNER_SUMS]


def side_index(side: str) -> int:
    return SIDES.index(side)


def side_start(orientation: int, side: str) -> int:
    """``s`` such that the side is triangles ``{s, s+1}``: head ``k``, face ``k+2``, profile ``k+4`` (mod 6)."""
    return (orientation + 2 * side_index(side)) % 6


def side_triangle_indices(orientation: int, side: str) -> tuple[int, int]:
    s = side_start(orientation, side)
    return s, (s + 1) % 6


def side_triangles(centre: Point, orientation: int, side: str) -> tuple[Triangle, Triangle]:
    m1, m2 = side_triangle_indices(orientation, side)
    return triangle(centre, m1), triangle(centre, m2)


def target_centre(centre: Point, orientation: int, side: str) -> Point:
    """Where a card placed on this side goes: ``centre + D[s+1]``; its hexagon covers exactly that side."""
    return add(centre, D[(side_start(orientation, side) + 1) % 6])


def side_of_triangle(orientation: int, m: int) -> str:
    """Which side of a card with this orientation its triangle ``m`` belongs to."""
    return SIDES[((m - orientation) % 6) // 2]


def side_state(visible: int) -> str:
    """A side with 2, 1 or 0 of its triangles still showing its card."""
    return ("blocked", "half", "free")[visible]
