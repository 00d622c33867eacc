"""Same-deal secrecy (issue 55): every table of a same-deal tournament round plays the same deal, so while the
round is played a table is shown only to those seated at it — not its board (``/game status``), nor its review,
record, Reveal or links — and to everyone once the round's last table has ended. Entrants seated at the round's
other tables are refused like anyone else: they hold the same cards."""
from __future__ import annotations

from bot.storage import Storage
from bot.tournaments.formats import rules_of
from bot.tournaments.models import Tournament


def hidden_from(tournament: Tournament, game_id: int, user_id: int) -> bool:
    """Whether table ``game_id`` of ``tournament`` is kept from ``user_id``: a same-deal round's table still being
    played somewhere in its round, and ``user_id`` not seated at it."""
    if not rules_of(tournament).same_deal:
        return False
    table = tournament.table_of_game(game_id)  # a voided attempt's game too: its round is the same
    if table is None or all(tb.done for tb in tournament.round_tables(table.round)):
        return False
    return user_id not in table.players


async def kept_from(storage: Storage, game_id: int, user_id: int) -> bool:
    """``hidden_from`` for a stored game: False when the game belongs to no tournament; True, to be safe, when its
    tournament cannot be read."""
    tournament_id = await storage.tournaments.tournament_of_game(game_id)
    if tournament_id is None:
        return False
    tournament = await storage.tournaments.load(tournament_id)
    if tournament is None:
        return True
    return hidden_from(tournament, game_id, user_id)
