"""What the mixins of the game service (``service_lobby.LobbyOps``, ``service_seats.SeatOps``) use of each other
and of ``GameService`` (``bot/service.py``), declared for the type checker only: nothing here exists at run time
except the empty base class."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from .storage import SeatRow, Storage
    from .table import EndReason, Table, Update, UpdateKind


class ServiceParts:
    if TYPE_CHECKING:
        storage: Storage
        new_seed: Callable[[], int]

        async def table(self, game_id: int) -> Table: ...

        async def tables_in_channel(self, channel_id: int) -> list[Table]: ...

        def _changed(self, table: Table, kind: UpdateKind, events: list[Any] | None = None,
                     actor: str | None = None, reason: EndReason | None = None) -> Update: ...

        def _deadline(self, table: Table, state: Any, seats: list[SeatRow] | None = None, *,
                      paused: bool | None = None) -> float | None: ...

        @staticmethod
        def _bot_to_act(table: Table, state: Any, seats: list[SeatRow] | None = None) -> bool: ...

        @staticmethod
        def _abandoned(seats: list[SeatRow]) -> bool: ...

        @classmethod
        def _everyone_away(cls, seats: list[SeatRow]) -> bool: ...

        async def _pause(self, table: Table, seats: list[SeatRow], actor: str | None = None) -> Update: ...

        async def _begin(self, table: Table) -> Update: ...

        async def _finish(self, table: Table, status: str, *, reason: EndReason | None = None,
                          actor: str | None = None) -> Update: ...

        async def _refuse_if_seated(self, channel_id: int, user_id: int, *,
                                    except_game: int | None = None) -> None: ...

        async def _edit_lobby(self, table: Table, seats: list[SeatRow], host_id: int | None = None) -> Update: ...
