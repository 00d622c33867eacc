"""Text of tournament messages (sign-up, standings, round announcements, stats) through ``t()`` only; the
cogs wrap it in embeds. Nothing here talks to Discord."""
from __future__ import annotations

from typing import Callable

from bot import literal
from bot.i18n import join_list, t

from .formats import can_come_back, min_field, rules_of
from .knockout_text import entrant_mark, knockout_lines, number
from .models import (
    BYE_POINTS,
    ENDED_STATES,
    OPEN_STATES,
    Entrant,
    EntrantStatus,
    TableStatus,
    Tournament,
    TournamentStatus,
)
from .ratings import PlayerStats, RatingRow
from .standings import Standing, knockout_final, went_on

MAX_LINES = 40
ENTRANT_MARKS = {EntrantStatus.CHECKED_IN: "✅", EntrantStatus.DROPPED: "❌", EntrantStatus.AWAY: "💤"}




def title(tournament: Tournament, locale: object | None, shown: Callable[[str], str] = literal.markdown) -> str:
    """The tournament's name as typed (``shown`` as Discord markdown; ``literal.plain`` where Discord shows text
    as is, such as a thread's name), else "<game> tournament"."""
    game = t(f"game.{tournament.game}.name", locale)
    return shown(tournament.name) if tournament.name else t("tournament.default_name", locale, game=game)


def planned(tournament: Tournament) -> int:
    """The rounds a tournament plays: a round robin's, before its start, the plan of its field as it stands
    (those checked in, once check-in is open), so the sign-up shows what the start will do."""
    tn = tournament
    rules = rules_of(tn)
    if rules.planned is None or tn.status not in OPEN_STATES:
        return tn.rounds
    signup = tn.status is TournamentStatus.SIGNUP
    field = [e for e in tn.entrants.values() if signup or e.status is EntrantStatus.CHECKED_IN]
    return rules.planned(tn, len(field))


def summary(tournament: Tournament, locale: object | None) -> str:
    rounds = planned(tournament) or t("tournament.rounds_auto", locale)
    sizes = (t("tournament.sizes_fixed", locale, size=tournament.seats_min)
             if tournament.seats_min == tournament.seats_max
             else t("tournament.sizes_range", locale, min=tournament.seats_min, max=tournament.seats_max))
    parts = [t(f"tournament.format.{tournament.format}", locale),
             t("tournament.summary", locale, game=t(f"game.{tournament.game}.name", locale), rounds=rounds,
               sizes=sizes)]
    if tournament.final_table:
        parts.append(t("tournament.with_final", locale))
    if tournament.cut:
        parts.append(t("tournament.swiss_cut", locale, swiss=tournament.swiss_rounds, cut=tournament.cut))
    if rules_of(tournament).advance:
        parts.append(t("tournament.knockout_advance", locale, advance=tournament.advance))
    if rules_of(tournament).same_deal:  # the sign-up says what a start needs: two tables to compare
        parts.append(t("tournament.same_deal_summary", locale, min=min_field(tournament)))
    return " · ".join(parts)


def when(timestamp: float) -> str:
    """A moment as a Discord timestamp: each reader sees it relative to now ("in 2 minutes")."""
    return f"<t:{int(timestamp)}:R>"


def status_line(tournament: Tournament, locale: object | None) -> str:
    """Where the tournament is, for its sign-up message (which follows it to its end)."""
    tn = tournament
    starts = " " + t("tournament.starts_at_deadline", locale) if tn.start_at_deadline else ""
    if tn.status == TournamentStatus.CHECKIN and tn.checkin_until:
        return t("tournament.status.checkin_until", locale, deadline=when(tn.checkin_until)) + starts
    if tn.status == TournamentStatus.CHECKIN_CLOSED:
        checked = sum(1 for e in tn.entrants.values() if e.status == EntrantStatus.CHECKED_IN)
        return t("tournament.status.checkin_closed", locale, count=checked)
    if tn.status is TournamentStatus.SIGNUP:
        return t("tournament.status.signup", locale) + starts
    if tn.status is TournamentStatus.RUNNING and tn.next_round_at is not None:
        return t("tournament.status.break", locale, round=tn.current_round, next=tn.current_round + 1,
                 at=when(tn.next_round_at))
    if tn.status is TournamentStatus.RUNNING:
        return t("tournament.status.round", locale, round=tn.current_round, rounds=tn.total_rounds)
    return t(f"tournament.status.{tn.status}", locale)


def signup_lines(tournament: Tournament, locale: object | None) -> list[str]:
    lines = [summary(tournament, locale), status_line(tournament, locale), ""]
    entrants = sorted(tournament.entrants.values(), key=lambda e: e.seq)
    for i, e in enumerate(entrants[:MAX_LINES], start=1):
        mark = "🤖" if e.is_bot else ENTRANT_MARKS.get(e.status, "•")
        lines.append(t("tournament.entrant_line", locale, number=i, mark=mark, name=e.mention))
    if len(entrants) > MAX_LINES:
        lines.append(t("tournament.more", locale, count=len(entrants) - MAX_LINES))
    if not entrants:
        lines.append(t("tournament.no_entrants", locale))
    return lines


def standing_lines(tournament: Tournament, rows: list[Standing], locale: object | None) -> list[str]:
    """One line per row. A finalist's line leads with their place at the final table, their points before it
    after (a finalist placed 3rd may have more points than the 2nd: the final table decides)."""
    if tournament.knockout_stage:
        return knockout_lines(tournament, rows, locale)
    lines = []
    for row in rows[:MAX_LINES]:
        entrant = tournament.entrants[row.user_id]
        dropped = entrant_mark(row, locale, finished=tournament.status in ENDED_STATES)
        if row.final_place is not None:
            lines.append(t("tournament.final_line", locale, place=row.place, name=entrant.mention,
                           final=row.final_place, points=number(row.points),
                           breakdown=points_breakdown(row, locale), dropped=dropped))
            continue
        lines.append(t("tournament.standing_line", locale, place=row.place, name=entrant.mention,
                       points=number(row.points), breakdown=points_breakdown(row, locale),
                       opp=number(row.opp_points), dropped=dropped))
    if len(rows) > MAX_LINES:
        lines.append(t("tournament.more", locale, count=len(rows) - MAX_LINES))
    return lines


def points_breakdown(row: Standing, locale: object | None) -> str:
    """Where a row's points come from, so they can be checked: games (with outright wins), byes, forfeits."""
    parts = [t("tournament.points_games", locale, points=number(row.game_points), games=row.games, wins=row.wins)]
    if row.byes:
        parts.append(t("tournament.points_byes", locale, points=number(row.bye_points), byes=row.byes))
    if row.forfeits:
        parts.append(t("tournament.points_forfeits", locale, forfeits=row.forfeits))
    if row.no_shows:
        parts.append(t("tournament.points_no_shows", locale, no_shows=row.no_shows))
    return " + ".join(parts)


def standings_title(tournament: Tournament, locale: object | None) -> str:
    if tournament.status is TournamentStatus.FINISHED:
        return t("tournament.final_standings_title", locale, name=title(tournament, locale))
    current = tournament.current_round
    completed = current if all(tb.done for tb in tournament.round_tables(current)) else current - 1
    if completed == 0 and current == 1:  # never "after round 0"
        return t("tournament.standings_title_first", locale, name=title(tournament, locale),
                 rounds=tournament.total_rounds)
    return t("tournament.standings_title", locale, name=title(tournament, locale), round=completed,
             rounds=tournament.total_rounds)


def finished_text(tournament: Tournament, locale: object | None) -> str:
    """The final standings' heading; when a Swiss or a round robin ended before its planned rounds, or a knockout
    without its final table, because too few are left to seat a table, why."""
    tn = tournament
    text = t("tournament.finished", locale, name=title(tn, locale))
    done = tn.current_round
    if rules_of(tn).advance and tn.knockout_stage:
        if knockout_final(tn, done) is None:  # the last round was no final: too few went on to seat one
            going = {u for tb in tn.round_tables(done) for _, _, u in went_on(tn, tb) if tn.entrants[u].seatable}
            if len(going) < tn.seats_min:
                text += "\n" + t("tournament.ended_early_knockout", locale, round=done, count=len(going),
                                 min=tn.seats_min)
        return text
    left = len(tn.seatable_entrants())
    if not rules_of(tn).advance and done < tn.total_rounds and left < tn.seats_min:
        text += "\n" + t("tournament.ended_early", locale, round=done, rounds=tn.total_rounds, count=left,
                         min=tn.seats_min)
    return text


def shown_name(entrant: Entrant) -> str:
    """A person as a mention (which pings only if the message allows it), a bot by its name."""
    return literal.markdown(entrant.name) if entrant.is_bot else entrant.mention


def round_lines(tournament: Tournament, round_number: int, locale: object | None) -> list[str]:
    final = tournament.is_final_round(round_number) or (
        rules_of(tournament).advance and knockout_final(tournament, round_number) is not None)
    kind = "final" if final else "round"
    lines = [t(f"tournament.{kind}_started", locale, round=round_number, rounds=tournament.total_rounds)]
    if tournament.cut and round_number == tournament.swiss_rounds + 1:
        lines.append(t("tournament.cut_started", locale, swiss=tournament.swiss_rounds, cut=tournament.cut))
    for table in tournament.round_tables(round_number):
        names = join_list((shown_name(tournament.entrants[u]) for u in table.players), locale)
        if table.status is TableStatus.BYE and tournament.advance and round_number > tournament.swiss_rounds:
            unplayed = round_number + 1 == tournament.rounds and not has_played(tournament, table.players[0])
            key = "tournament.bye_line_knockout_final" if unplayed else "tournament.bye_line_knockout"
            lines.append(t(key, locale, name=names, next=round_number + 1))
        elif table.status is TableStatus.BYE:
            lines.append(t("tournament.bye_line", locale, name=names, points=number(BYE_POINTS)))
        elif table.status in (TableStatus.PENDING, TableStatus.RUNNING, TableStatus.FINISHED):
            where = f"<#{table.channel_id}>" if table.channel_id != tournament.channel_id else f"#{table.game_id}"
            lines.append(t("tournament.table_line", locale, number=table.number, where=where, players=names))
    return lines + rule_lines(tournament, round_number, locale)


def has_played(tournament: Tournament, user_id: int) -> bool:
    """Whether the entrant played a table of the knockout (a Swiss stage's tables aside): one that ended or was
    cancelled, and not as a no-show or a forfeit. Said when a bye sends someone who has not to the final table."""
    return any(user_id in tb.players and user_id not in tb.no_shows and user_id not in tb.forfeits
               for tb in tournament.tables if tb.round > tournament.swiss_rounds
               and tb.status in (TableStatus.FINISHED, TableStatus.CANCELLED))


def rule_lines(tournament: Tournament, round_number: int, locale: object | None) -> list[str]:
    """What happens to someone who does not show, and how ties go in round ``round_number``: said in the round's
    call and in each of its tables' threads, where the players read."""
    tn = tournament
    absent = (t("tournament.rule_absent", locale, seconds=tn.turn_seconds) if tn.turn_seconds > 0
              else t("tournament.rule_absent_no_timer", locale))
    if tn.advance and round_number > tn.swiss_rounds:  # a knockout round: a no-show places last, and is out
        if knockout_final(tn, round_number) is not None:  # nobody goes on from the final: only its places
            return [absent, t("tournament.rule_no_show_final", locale), t("tournament.rule_ties_final", locale)]
        return [absent, t("tournament.rule_no_show_knockout", locale),
                t("tournament.rule_ties_knockout", locale, advance=tn.advance)]
    no_show = t("tournament.rule_no_show", locale)
    ties = t("tournament.rule_ties", locale)
    lines = [absent, no_show, ties]
    if tn.cut:
        lines.append(t("tournament.rule_cut", locale, swiss=tn.swiss_rounds, cut=tn.cut))
    return lines


def no_show_calls(tournament: Tournament, round_number: int, people: list[int],
                  locale: object | None) -> list[tuple[str, list[int], bool]]:
    """The round's no-shows, told once (pinged) in the channel, where the organiser sees them too: ``(text, people,
    whether it carries Seat me again)``; those a knockout (or a Swiss stage's cut) leaves out are told so, without."""
    back = [u for u in people if can_come_back(tournament, u)]
    out = [u for u in people if u not in back]
    # in a knockout, one who may come back went on by seed from a table where nobody moved: no points there
    back_key = "tournament.no_shows_knockout" if tournament.knockout_stage else "tournament.no_shows"
    calls = []
    for group, key in ((back, back_key), (out, "tournament.no_shows_out")):
        if group:
            mentions = join_list((f"<@{u}>" for u in group), locale)
            calls.append((t(key, locale, round=round_number, people=mentions, count=len(group)), group,
                          key == back_key))
    return calls


def called_people(tournament: Tournament, round_number: int) -> list[int]:
    """The people the round's call in the channel pings: those with a bye (the seated are pinged in their
    table's thread, which adds them to it), so each person gets one ping a round."""
    return [u for tb in tournament.round_tables(round_number) if tb.status is TableStatus.BYE for u in tb.players
            if not tournament.entrants[u].is_bot]


def checkin_reminder(tournament: Tournament, locale: object | None, people: list[int]) -> tuple[str, list[int]]:
    """The one reminder before the check-in deadline, to ``people``: those entered and not checked in yet."""
    text = t("tournament.checkin_reminder", locale, people=" ".join(f"<@{u}>" for u in people),
             deadline=when(tournament.checkin_until or 0), consequence=t("tournament.checkin_consequence", locale))
    return text, people


def checkin_call(tournament: Tournament, locale: object | None) -> tuple[str, list[int]]:
    """The check-in call: the people entered but not checked in, mentioned once, with the deadline."""
    people = [e.user_id for e in tournament.active_entrants()
              if not e.is_bot and e.status is not EntrantStatus.CHECKED_IN]
    text = t("tournament.checkin_call", locale, people=" ".join(f"<@{u}>" for u in people),
             deadline=when(tournament.checkin_until or 0),  # what the deadline does: the reminder's words
             consequence=t("tournament.checkin_consequence", locale))
    return text, people


def missed_checkin(tournament: Tournament, locale: object | None, dropped: list[int], *,
                   at_deadline: bool = False) -> tuple[str, list[int]]:
    """The people just ``dropped`` for not checking in (at the start, or at the deadline), told why."""
    people = [u for u in dropped if not tournament.entrants[u].is_bot]
    key = "tournament.missed_checkin_deadline" if at_deadline else "tournament.missed_checkin"
    return t(key, locale, people=" ".join(f"<@{u}>" for u in people)), people


def break_text(tournament: Tournament, locale: object | None) -> str:
    assert tournament.next_round_at is not None
    return t("tournament.break", locale, round=tournament.current_round, next=tournament.current_round + 1,
             at=when(tournament.next_round_at))


def leaderboard_lines(rows: list[RatingRow], locale: object | None) -> list[str]:
    if not rows:
        return [t("stats.no_ratings", locale)]
    return [t("stats.leaderboard_line", locale, place=i, name=f"<@{r.user_id}>", rating=number(r.ordinal),
              mu=number(r.mu), sigma=number(r.sigma), games=r.games, wins=r.wins)
            for i, r in enumerate(rows, start=1)]


def stats_lines(stats: PlayerStats, locale: object | None) -> list[str]:
    lines = [t("stats.summary", locale, games=stats.games, wins=stats.wins)]
    if stats.placings:
        lines.append(t("stats.placings", locale, placings=join_list(
            (t("stats.placing", locale, place=p, count=c) for p, c in sorted(stats.placings.items())), locale)))
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
