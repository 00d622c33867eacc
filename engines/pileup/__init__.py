"""Pile up (パイルアップ): the dice game of stacking cards onto six columns (docs/rules/pileup.md)."""
from __future__ import annotations

from .actions import DumpOn, Give, KeepColumn, Penalty, PileupAction, Play, Roll
from .cards import COLOURS
from .engine import PileupEngine
from .plays import outcome, preview
from .state import Column, Dump, PileupOptions, PileupState

__all__ = [
    "PileupEngine", "PileupState", "PileupOptions", "Column", "Dump", "PileupAction",
    "Roll", "Play", "Penalty", "Give", "DumpOn", "KeepColumn", "outcome", "preview", "COLOURS",
]
