"""Akuma Trick (アクマトリック): trick-shedding with steal, reverse, lock and the Akuma release."""
from .actions import AkumaAction, Play, Release, Steal, StopStealing
from .engine import AkumaEngine
from .state import AkumaOptions, AkumaState
from .view import AkumaView

__all__ = [
    "AkumaEngine", "AkumaState", "AkumaOptions", "AkumaAction", "AkumaView",
    "Play", "Release", "Steal", "StopStealing",
]
