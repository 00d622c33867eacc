"""Twin Pyramid (ツインピラミッド): build a field pyramid of stones before your hand pyramid bursts."""
from .engine import TwinPyramidEngine

__all__ = ["TwinPyramidEngine"]
