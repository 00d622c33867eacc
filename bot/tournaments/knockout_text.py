"""A knockout's standings and bracket as text (through ``t()`` only): who is still in, the final table's places,
who went out in which round and at which place, then each round's tables and who went on from them."""
from __future__ import annotations

from bot import literal
from bot.i18n import join_list, t

from .models import ENDED_STATES, TableStatus, Tournament, TournamentTable
from .standings import Standing, knockout_final, went_on

MAX_LINES = 40


def _name(tournament: Tournament, user_id: int) -> str:
    entrant = tournament.entrants[user_id]
    return literal.markdown(entrant.name) if entrant.is_bot else entrant.mention


def number(value: float) -> str:
    """3 -> "3", 1.5 -> "1.5", 4.1667 -> "4.17"."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def entrant_mark(row: Standing, locale: object | None, *, finished: bool = False) -> str:
    """After a standings line: dropped, or away (a no-show not back yet, while it can still come back), or nothing."""
    if row.dropped:
        return t("tournament.dropped_mark", locale)
    return t("tournament.away_mark", locale) if row.away and not finished else ""


def knockout_lines(tournament: Tournament, rows: list[Standing], locale: object | None) -> list[str]:
    """The places, then the bracket."""
    lines = []
    for row in rows[:MAX_LINES]:
        name = _name(tournament, row.user_id)
        dropped = entrant_mark(row, locale, finished=tournament.status in ENDED_STATES or row.out_round is not None)
        if row.out_round and row.out_absent and not row.out_bye and not row.dropped:  # placed below who played
            dropped += t("tournament.no_show_mark", locale)
        if row.final_place is not None and row.out_cancelled:
            lines.append(t("tournament.knockout_final_seeded_line", locale, place=row.place, name=name,
                           dropped=dropped))
        elif row.final_place is not None:
            lines.append(t("tournament.knockout_final_line", locale, place=row.place, name=name,
                           final=row.final_place, dropped=dropped))
        elif row.decided:
            lines.append(t("tournament.knockout_decided_line", locale, place=row.place, name=name,
                           round=row.out_round, table_place=row.out_place, table=row.out_table, dropped=dropped))
        elif row.out_round == 0:  # not in the knockout: placed by the Swiss stage before it
            lines.append(t("tournament.knockout_swiss_out_line", locale, place=row.place, name=name,
                           points=number(row.points), dropped=dropped))
        elif row.out_round is None:
            lines.append(t("tournament.knockout_in_line", locale, name=name, dropped=dropped))
        elif row.left:  # went on from their last table, then dropped or stayed away: not "out" there
            key = "tournament.knockout_left_bye_line" if row.out_bye else "tournament.knockout_left_line"
            lines.append(t(key, locale, place=row.place, name=name, round=row.out_round, table_place=row.out_place,
                           table=row.out_table, dropped=dropped))
        elif row.out_cancelled:
            lines.append(t("tournament.knockout_out_seeded_line", locale, place=row.place, name=name,
                           round=row.out_round, table=row.out_table, dropped=dropped))
        else:
            lines.append(t("tournament.knockout_out_line", locale, place=row.place, name=name,
                           round=row.out_round, table_place=row.out_place, table=row.out_table, dropped=dropped))
    if len(rows) > MAX_LINES:
        lines.append(t("tournament.more", locale, count=len(rows) - MAX_LINES))
    return lines + bracket_lines(tournament, locale)


def bracket_lines(tournament: Tournament, locale: object | None) -> list[str]:
    """Each round's tables (players best placed first once it ended) and who went on from each."""
    lines: list[str] = []
    for done in range(tournament.swiss_rounds + 1, tournament.current_round + 1):  # the knockout's rounds
        tables = [tb for tb in tournament.round_tables(done) if tb.status is not TableStatus.VOID]
        if not tables:
            continue
        final = knockout_final(tournament, done) is not None
        lines += ["", t("tournament.bracket_final" if final else "tournament.bracket_round", locale, round=done)]
        lines += [_table_line(tournament, table, final, locale) for table in tables]
    return lines


def _table_line(tournament: Tournament, table: TournamentTable, final: bool, locale: object | None) -> str:
    if table.status is TableStatus.BYE:
        return t("tournament.bracket_bye", locale, name=_name(tournament, table.players[0]))
    if not table.done:
        players = join_list((_name(tournament, u) for u in table.players), locale)
        return t("tournament.bracket_playing", locale, number=table.number, players=players)
    size = len(table.players)
    placed = sorted(table.players, key=lambda u: table.results.get(u, (size, 0.0))[0])
    players = join_list((t("tournament.bracket_placed", locale, place=table.results.get(u, (size, 0.0))[0],
                           name=_name(tournament, u)) for u in placed), locale)
    if table.status is TableStatus.CANCELLED:
        players = join_list((_name(tournament, u) for u in table.players), locale)
    if final:
        return t("tournament.bracket_final_table", locale, players=players)
    advanced = join_list((_name(tournament, u) for _, _, u in went_on(tournament, table)), locale)
    key = "tournament.bracket_cancelled" if table.status is TableStatus.CANCELLED else "tournament.bracket_table"
    return t(key, locale, number=table.number, players=players, advanced=advanced)
