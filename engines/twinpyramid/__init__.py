"""Twin Pyramid (ツインピラミッド): build a field pyramid of stones before your hand pyramid bursts."""
from .actions import (
    Change,
    Draw,
    EndBuild,
    ForcedDraw,
    NameSuit,
    NextDeal,
    OrderThree,
    Pass,
    PassTwo,
    Place,
    Play,
    Rearrange,
    RearrangeStep,
    SwapShown,
    SwapStone,
    TakeTwo,
    ToHeld,
    ToShown,
    TwinPyramidAction,
)
from .engine import TwinPyramidEngine
from .state import TwinPyramidOptions, TwinPyramidState
from .view import TwinPyramidView

__all__ = [
    "TwinPyramidEngine", "TwinPyramidState", "TwinPyramidOptions", "TwinPyramidAction", "TwinPyramidView",
    "Rearrange", "SwapShown", "ToShown", "ToHeld", "SwapStone", "RearrangeStep", "Play", "Draw", "Change", "Pass",
    "Place", "EndBuild", "NameSuit", "TakeTwo", "PassTwo", "OrderThree", "ForcedDraw", "NextDeal",
]
