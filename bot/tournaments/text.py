"""Text of tournament messages (sign-up, standings, round announcements, stats) through ``t()`` only; the
cogs wrap it in embeds. Nothing here talks to Discord."""
from __future__ import annotations

from typing import Callable

from bot import literal
from bot.i18n import t

from .models import Tournament
from .ratings import PlayerStats, RatingRow
from .standings import Standing

MAX_LINES = 40


def number(value: float) -> str:
    """3 -> "3", 1.5 -> "1.5", 4.1667 -> "4.17"."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def title(tournament: Tournament, locale: object | None, shown: Callable[[str], str] = literal.markdown) -> str:
    """The tournament's name as typed (``shown`` as Discord markdown; ``literal.plain`` where Discord shows text
    as is, such as a thread's name), else "<game> tournament"."""
    game = t(f"game.{tournament.game}.name", locale)
    return shown(tournament.name) if tournament.name else t("tournament.default_name", locale, game=game)


def summary(tournament: Tournament, locale: object | None) -> str:
    rounds = tournament.rounds or t("tournament.rounds_auto", locale)
    parts = [t(f"tournament.format.{tournament.format}", locale),
             t("tournament.summary", locale, game=t(f"game.{tournament.game}.name", locale), rounds=rounds,
               min=tournament.seats_min, max=tournament.seats_max)]
    if tournament.final_table:
        parts.append(t("tournament.with_final", locale))
    return " · ".join(parts)


def signup_lines(tournament: Tournament, locale: object | None) -> list[str]:
    lines = [summary(tournament, locale), t(f"tournament.status.{tournament.status}", locale), ""]
    entrants = sorted(tournament.entrants.values(), key=lambda e: e.seq)
    for i, e in enumerate(entrants[:MAX_LINES], start=1):
        mark = "🤖" if e.is_bot else ("✅" if e.status == "checked_in" else ("❌" if e.status == "dropped" else "•"))
        lines.append(t("tournament.entrant_line", locale, number=i, mark=mark, name=e.mention))
    if len(entrants) > MAX_LINES:
        lines.append(t("tournament.more", locale, count=len(entrants) - MAX_LINES))
    if not entrants:
        lines.append(t("tournament.no_entrants", locale))
    return lines


def standing_lines(tournament: Tournament, rows: list[Standing], locale: object | None) -> list[str]:
    lines = []
    for row in rows[:MAX_LINES]:
        entrant = tournament.entrants[row.user_id]
        final = t("tournament.final_mark", locale) if row.final_place is not None else ""
        lines.append(t("tournament.standing_line", locale, place=row.place, name=entrant.mention,
                       points=number(row.points), opp=number(row.opp_points), games=row.games, wins=row.wins,
                       final=final, dropped=t("tournament.dropped_mark", locale) if row.dropped else ""))
    if len(rows) > MAX_LINES:
        lines.append(t("tournament.more", locale, count=len(rows) - MAX_LINES))
    return lines


def standings_title(tournament: Tournament, locale: object | None) -> str:
    if tournament.status == "finished":
        return t("tournament.final_standings_title", locale, name=title(tournament, locale))
    current = tournament.current_round
    completed = current if all(tb.done for tb in tournament.round_tables(current)) else current - 1
    return t("tournament.standings_title", locale, name=title(tournament, locale), round=completed,
             rounds=tournament.total_rounds)


def round_lines(tournament: Tournament, number: int, locale: object | None) -> list[str]:
    kind = "final" if tournament.is_final_round(number) else "round"
    lines = [t(f"tournament.{kind}_started", locale, round=number, rounds=tournament.total_rounds)]
    for table in tournament.round_tables(number):
        names = ", ".join(literal.markdown(tournament.entrants[u].name) for u in table.players)
        if table.status == "bye":
            lines.append(t("tournament.bye_line", locale, name=names))
        elif table.status in ("pending", "running", "finished"):
            where = f"<#{table.channel_id}>" if table.channel_id != tournament.channel_id else f"#{table.game_id}"
            lines.append(t("tournament.table_line", locale, number=table.number, where=where, players=names))
    return lines


def leaderboard_lines(rows: list[RatingRow], locale: object | None) -> list[str]:
    if not rows:
        return [t("stats.no_ratings", locale)]
    return [t("stats.leaderboard_line", locale, place=i, name=f"<@{r.user_id}>", rating=number(r.ordinal),
              mu=number(r.mu), sigma=number(r.sigma), games=r.games, wins=r.wins)
            for i, r in enumerate(rows, start=1)]


def stats_lines(stats: PlayerStats, locale: object | None) -> list[str]:
    lines = [t("stats.summary", locale, games=stats.games, wins=stats.wins)]
    if stats.placings:
        lines.append(t("stats.placings", locale, placings=", ".join(
            t("stats.placing", locale, place=p, count=c) for p, c in sorted(stats.placings.items()))))
    for game, row in stats.ratings.items():
        lines.append(t("stats.rating_line", locale, game=t(f"game.{game}.name", locale), rating=number(row.ordinal),
                       mu=number(row.mu), sigma=number(row.sigma), games=row.games))
    if stats.recent:
        lines.append(t("stats.recent_header", locale))
    for r in stats.recent:
        change = "" if r.change is None else t("stats.change", locale, change=f"{r.change:+.2f}")
        lines.append(t("stats.recent_line", locale, game=t(f"game.{r.game}.name", locale), id=r.game_id,
                       place=r.place, seats=r.seats, change=change))
    return lines
