"""Pile up (パイルアップ): the dice game of stacking cards onto six columns (docs/rules/pileup.md)."""
from .actions import DumpOn, Give, GiveAll, KeepColumn, Penalty, PileupAction, Play, Roll
from .engine import PileupEngine
from .state import PileupOptions, PileupState
from .view import PileupView

__all__ = [
    "PileupEngine", "PileupState", "PileupOptions", "PileupAction", "PileupView",
    "Roll", "Play", "Penalty", "Give", "GiveAll", "DumpOn", "KeepColumn",
]
