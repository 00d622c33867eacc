"""Where the replay pages' games come from: the bot's database through links (``StoredReplays``: a token opens a
finished game, ``bot.shares.resolve`` decides), or one record file on the operator's own machine (``FileReplays``,
``python -m bot replay FILE --serve``: no tokens, the spectator's view and each seat's). A game is rebuilt by the
engine and checked once (``bot.review.SteppedReplay``), off the event loop, however many visitors ask together,
and the last few are kept (``bot.rebuilds``: the bot's one cache, the Discord viewer's too)."""
from __future__ import annotations

from typing import Protocol

from ..errors import HostError
from ..i18n import language
from ..rebuilds import Rebuilds
from ..replay import stored_record
from ..review import ReplayCache, SteppedReplay
from ..shares import resolve, shows_every_hand
from ..storage import Storage
from .page import Opened

WEB_REPLAYS_KEPT = 4  # rebuilt games kept by a web side without the bot's cache (a record served from a file)


class ReplaySource(Protocol):
    async def open(self, key: str) -> Opened | None:
        """The replay ``key`` (a link's token) opens, or None: not found, and nothing more is said."""


class StoredReplays:
    def __init__(self, storage: Storage, rebuilds: Rebuilds | None = None) -> None:
        """``rebuilds``: the bot's one cache of rebuilt games (``GameHostBot.rebuilds``), else one of its own."""
        self.storage = storage
        self.rebuilds = rebuilds if rebuilds is not None else Rebuilds(ReplayCache(size=WEB_REPLAYS_KEPT))

    async def open(self, key: str) -> Opened | None:
        shared = await resolve(self.storage, key)
        if shared is None:
            return None
        cached = self.rebuilds.cache.get(shared.game.id)
        record = cached.record if cached is not None else await stored_record(self.storage, shared.game.id)
        replay = cached or await self.rebuilds.rebuilt(record)  # HostError: it does not replay exactly
        return Opened(replay, record.seat_player(shared.share.seat), language(shared.game.locale),
                      await shows_every_hand(self.storage, shared.game.id), base=f"/r/{key}")


class FileReplays:
    """One record, rebuilt and checked before the server starts: ``game`` its spectator's view, ``seat-N`` seat
    N's."""

    SPECTATOR = "game"

    def __init__(self, replay: SteppedReplay, lang: str) -> None:
        self.replay, self.lang = replay, lang

    def keys(self) -> list[tuple[str, int | None]]:
        return [(self.SPECTATOR, None), *((f"seat-{p.seat}", p.seat) for p in self.replay.record.players)]

    async def open(self, key: str) -> Opened | None:
        seat = dict(self.keys()).get(key, -1)
        if seat == -1:
            return None
        try:
            player = self.replay.record.seat_player(seat)
        except HostError:
            return None
        return Opened(self.replay, player, self.lang, True, base=f"/r/{key}")
