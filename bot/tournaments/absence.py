"""Who is absent from a tournament round, and what follows (issue 51): a seat a bot already plays when the organiser
asks for one (``seat_to_bot``), the no-shows of a table marked away and those who played after all brought back
(``mark_away``), and the round's no-shows still away, to be told once (``round_no_shows``). The result rule itself is
``standings.score_absent_seats``; whether one who comes back would be seated is ``formats.can_come_back``."""
from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

from bot.storage import GameStatus

from .models import EntrantStatus, Tournament, TournamentTable

if TYPE_CHECKING:
    from bot.service import GameService
    from bot.storage.tournaments import TournamentStore


class Replaced(StrEnum):
    """What ``/tournament replace`` did."""

    NOW = "now"          # a bot took the seat from the person
    ALREADY = "already"  # a bot was playing it already (the person away, or gone): it plays on to the end


async def seat_to_bot(games: GameService, t: Tournament, user_id: int) -> Replaced | None:
    """A bot takes the person's seat at their running table (None: they play at none)."""
    table = t.live_table_of(user_id)
    if table is None or table.game_id is None or t.entrants[user_id].is_bot:
        return None
    game = await games.table(table.game_id)
    seat = next((s for s in game.seats if s.user_id == user_id), None)
    if game.status is not GameStatus.RUNNING or seat is None:
        return None
    if seat.is_bot:  # away (timed out) or left: a bot plays the seat already, to the end of the game
        return Replaced.ALREADY
    await games.hand_to_bot(table.game_id, user_id)
    return Replaced.NOW


async def mark_away(store: TournamentStore, tournament: Tournament, table: TournamentTable) -> None:
    """The table's no-shows are away: the next seating leaves them out until they come back. Someone away who played a
    table of the current round after all (the replay of a voided table, or a result the organiser set) is back."""
    entrants = tournament.entrants
    away = [u for u in sorted(table.no_shows) if entrants[u].seatable]
    back = [u for u in table.players if entrants[u].status == EntrantStatus.AWAY and u not in table.no_shows
            and u not in table.forfeits and table.round == tournament.current_round]
    for people, status in ((away, EntrantStatus.AWAY), (back, EntrantStatus.ENTERED)):
        if people:
            await store.set_entrant_status(tournament.id, people, status)
            for uid in people:
                entrants[uid].status = status


def round_no_shows(tournament: Tournament) -> list[int]:
    """The current round's no-shows still away: told once, in the channel, when the round is over."""
    return [u for tb in tournament.round_tables(tournament.current_round) for u in sorted(tb.no_shows)
            if tournament.entrants[u].status == EntrantStatus.AWAY]
