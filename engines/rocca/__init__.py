"""Rocca Card Tower (ロッカ): hexagonal cards built into a tower on a triangular lattice."""
from .engine import RoccaEngine
from .geometry import SIDES
from .models import Accept, Bon, DeclareOne, Draw, Give, Place, RoccaOptions, RoccaState
from .rematch import rematch_start_player

__all__ = ["RoccaEngine", "RoccaOptions", "RoccaState", "Accept", "Bon", "DeclareOne", "Draw", "Give", "Place", "rematch_start_player",
           "SIDES"]
