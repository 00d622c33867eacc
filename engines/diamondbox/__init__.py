"""Diamond Box, rule 2 (ダイヤの箱 ルール2): diamond cards placed on a shared grid."""
from .engine import DiamondBoxEngine

__all__ = ["DiamondBoxEngine"]
