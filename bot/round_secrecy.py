"""Same-deal secrecy (issue 55): every table of a same-deal tournament round plays the same deal, so while the
round is played a table is shown only to those seated at it — not its board (``/game status``), nor its review,
record, Reveal or links — and to everyone once the round's last table has ended. Entrants seated at the round's
other tables are refused like anyone else: they hold the same cards."""
from __future__ import annotations

from dataclasses import replace

from bot.storage import Storage
from bot.tournaments.formats import rules_of
from bot.tournaments.models import TableStatus, Tournament


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


def standings_seen(tournament: Tournament) -> Tournament:
    """The tournament as its standings may show it: a same-deal round still being played counts none of its
    tables' results yet (each table that ended counts as still playing), so nobody learns from the standings which
    seat did well with the round's deal before their own table ends. A shallow copy; the tournament is unchanged."""
    current = tournament.current_round
    tables = tournament.round_tables(current)
    if not rules_of(tournament).same_deal or not tables or all(tb.done for tb in tables):
        return tournament
    held = [replace(tb, status=TableStatus.RUNNING, results={}) if tb.round == current
            and tb.status is TableStatus.FINISHED else tb for tb in tournament.tables]
    return replace(tournament, tables=held)
