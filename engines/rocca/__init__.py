"""Rocca Card Tower (ロッカ): hexagonal cards built into a tower on a triangular lattice (docs/rules/rocca.md)."""
from .actions import Accept, Bon, DeclareOne, Draw, Give, Place, RoccaAction
from .engine import RoccaEngine
from .state import RoccaOptions, RoccaState
from .view import RoccaView

__all__ = [
    "RoccaEngine", "RoccaState", "RoccaOptions", "RoccaAction", "RoccaView",
    "Place", "Draw", "Accept", "Give", "DeclareOne", "Bon",
]
