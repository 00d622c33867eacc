"""Diamond Box, rule 2 (ダイヤの箱 ルール2): diamond cards placed on a shared grid (docs/rules/diamondbox.md)."""
from .actions import ChooseColour, DiamondBoxAction, Pass, PlaceCard
from .engine import DiamondBoxEngine
from .state import DiamondBoxOptions, DiamondBoxState
from .view import DiamondBoxView

__all__ = [
    "DiamondBoxEngine", "DiamondBoxState", "DiamondBoxOptions", "DiamondBoxAction", "DiamondBoxView",
    "PlaceCard", "Pass", "ChooseColour",
]
