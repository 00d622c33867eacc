"""Links to a finished game's replay page (issue 56): two kinds, never one — the spectator's view, and one seat's
hand step by step. A link's token comes from ``secrets`` (never derived from an id), only its SHA-256 is stored
with the game, the seat and the expiry, and it can be revoked. ``resolve`` is the one place that decides whether a
token opens a page: a token that is malformed, unknown, expired or revoked, of a game that is not finished, of a
seat the game does not have, or of a server whose moderators turned links off opens nothing, and the caller says
no more than "not found"."""
from __future__ import annotations

import hashlib
import re
import secrets
import time
from dataclasses import dataclass
from enum import StrEnum

from .storage import GameRow, GameStatus, ShareRow, Storage

TOKEN_BYTES = 32  # 256 bits from the system's CSPRNG: guessing one is hopeless, at any request rate
TOKEN = re.compile(r"[A-Za-z0-9_-]{43}")  # secrets.token_urlsafe(32): 43 characters of base64url, no padding
DAY = 86400.0


class LinkKind(StrEnum):
    SPECTATOR = "spectator"  # the public board and public events: what a spectator saw
    SEAT = "seat"  # one seat's view: anyone with the link sees that seat's hand


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class Shared:
    """A token that opens a page: its stored link and the game it shows."""

    share: ShareRow
    game: GameRow

    @property
    def kind(self) -> LinkKind:
        return LinkKind.SPECTATOR if self.share.seat is None else LinkKind.SEAT


async def issue(storage: Storage, game_id: int, seat: int | None, user_id: int, days: float,
                now: float | None = None) -> str:
    """A new link's token (shown once, to whoever asked; only its digest is stored)."""
    now = time.time() if now is None else now
    token = new_token()
    await storage.add_share(token_digest(token), game_id=game_id, seat=seat, created_by=user_id, created_at=now,
                            expires_at=now + days * DAY)
    return token


async def resolve(storage: Storage, token: str, now: float | None = None) -> Shared | None:
    """The link ``token`` opens now, or None (which the web side answers with a 404 that tells nothing)."""
    if not TOKEN.fullmatch(token):
        return None
    now = time.time() if now is None else now
    share = await storage.share(token_digest(token))
    if share is None or share.revoked_at is not None or share.expires_at <= now:
        return None
    game = await storage.get_game(share.game_id)
    if game is None or game.status is not GameStatus.FINISHED or game.state is None:
        return None
    if share.seat is not None and all(s.seat != share.seat for s in game.seats):
        return None
    if game.guild_id is not None and not await storage.guild_web_links(game.guild_id):
        return None
    return Shared(share, game)


async def shows_every_hand(storage: Storage, game_id: int) -> bool:
    """Whether every hand of a finished game may be shown (the reveal, all hands, its record): yes, except a
    tournament game's while its round is still being played (its other tables may hold the same deal's secrets)."""
    tournament_id = await storage.tournaments.tournament_of_game(game_id)
    if tournament_id is None:
        return True
    tournament = await storage.tournaments.load(tournament_id)
    if tournament is None:
        return False
    rounds = {tb.round for tb in tournament.tables if tb.game_id == game_id}
    return all(tb.done for tb in tournament.tables if tb.round in rounds)
