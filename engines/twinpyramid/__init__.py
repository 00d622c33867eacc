"""Twin Pyramid (ツインピラミッド): build a field pyramid of stones before your hand pyramid bursts."""
from .cards import BUILD_LIMIT, PYRAMID_ROWS, RANKS, SUITS, rank_of
from .engine import TwinPyramidEngine

__all__ = ["TwinPyramidEngine", "BUILD_LIMIT", "PYRAMID_ROWS", "RANKS", "SUITS", "rank_of"]
