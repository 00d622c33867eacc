"""Akuma Trick (アクマトリック): trick-shedding with steal, reverse, lock and the Akuma release."""
from .engine import AkumaEngine
from .models import AkumaOptions, AkumaState, Play, Release, RowPlay, Steal, StopStealing

__all__ = ["AkumaEngine", "AkumaOptions", "AkumaState", "Play", "Release", "RowPlay", "Steal", "StopStealing"]
