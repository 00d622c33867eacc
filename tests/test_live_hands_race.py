"""A hand view's redraw and a move made while it is being drawn: the view must end showing the newer table.

The redraw records which version its view shows; taken after drawing (and sending) instead of before, a move
committed meanwhile (a bot's, decided in its worker process) was marked as shown although the view showed the
version before it, and the view stayed one move behind until the next change (a flaky CI failure: "the latest hand
view of 102 is stale"). Here the move lands inside the drawing, every time."""
from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from bot.delivery import Delivery
from bot.storage import GameStatus
from cogs.live_hands import LiveHands


class Interaction:
    """The parts of a hand view's interaction the live views use; its edits are recorded."""

    def __init__(self) -> None:
        self.user, self.message, self.locale, self.token = SimpleNamespace(id=7), None, "en-US", "token-7"
        self.edits: list[str] = []

    async def edit_original_response(self, *, content: str, **_: Any) -> None:
        await asyncio.sleep(0)  # a request to Discord
        self.edits.append(content)


async def test_a_move_made_while_the_view_is_drawn_is_redrawn() -> None:
    table = SimpleNamespace(id=1, version=1, status=GameStatus.RUNNING, row=SimpleNamespace(deadline=None))

    async def stored(_: int) -> SimpleNamespace:
        return table

    moves_during_drawing = [True]

    async def draw(interaction: Any, shown: Any, notes: str | None) -> tuple[str, None]:
        content = f"version {shown.version}"
        if moves_during_drawing.pop() if moves_during_drawing else False:
            shown.version += 1  # a bot's move commits while the picture is drawn in its thread
            hands.changed(shown)
        await asyncio.sleep(0)
        return content, None

    bot = SimpleNamespace(service=SimpleNamespace(table=stored), delivery=Delivery())  # its token clock: the delivery's
    hands = LiveHands(bot, draw, lambda view: {})  # type: ignore[arg-type]
    interaction = Interaction()
    hands.remember(interaction, table, 1, "version 1")  # type: ignore[arg-type]
    table.version = 2
    hands.changed(table)  # type: ignore[arg-type]
    for _ in range(50):
        await asyncio.sleep(0)
    assert interaction.edits[-1] == "version 3", interaction.edits
