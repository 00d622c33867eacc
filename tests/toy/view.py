"""What a viewer of a toy table sees: the played cards and hand sizes of everyone, their own hand."""
from __future__ import annotations

from engines import View


class ToyView(View):
    played: dict[str, list[str]]
    hand_sizes: dict[str, int]
