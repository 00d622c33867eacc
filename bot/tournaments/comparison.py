"""The comparison after a same-deal round (issue 55), as text through ``t()`` only: per seat, every table's holder
of that seat side by side, best first (who held it, shown literally, their place and the game's own score there,
their matchpoints), one part per seat so each fits a phone's width and Discord's limits; the cog adds a Review
button per table. Nothing here talks to Discord: the game's scores and seat names are given by the caller."""
from __future__ import annotations

from dataclasses import dataclass

from bot import literal
from bot.discord_rules.limits import EMBED_DESCRIPTION
from bot.i18n import t

from .knockout_text import number
from .matchpoints import compared_tables, seat_scores
from .models import Tournament

TABLES_PER_PART = 25  # a part's Review buttons: five rows of five


@dataclass(frozen=True)
class Held:
    """One table's holder of a seat, as the comparison shows them."""

    table: int
    game_id: int
    seat: int             # 0-based
    name: str             # as written (shown literally)
    place: int
    absent: bool          # a no-show or a forfeit
    score: float | None   # the game's own score for the seat, when its result gives one
    matchpoints: float
    most: int             # the most a holder could score: the tables compared, less one
    points: float | None  # on the standings' 0–3 scale (None: compared with nobody)


@dataclass(frozen=True)
class Part:
    """One message of the comparison: a seat's heading, its lines, and the tables its Review buttons open."""

    seat: int
    title: str
    lines: list[str]
    held: list[Held]


GameFacts = dict[int, dict[int, tuple[str, float | None]]]  # game id -> seat -> (seat's name, the game's score)


def compared(tournament: Tournament, number_: int, facts: GameFacts) -> dict[int, list[Held]]:
    """Per seat, round ``number_``'s holders, most matchpoints first (then by table); empty when fewer than two
    tables finished (nobody is compared: the round scored by place)."""
    tables = compared_tables(tournament, number_)
    if len(tables) < 2:
        return {}
    game_of = {tb.number: tb.game_id for tb in tables}
    out: dict[int, list[Held]] = {}
    for seat, scores in seat_scores(tables).items():
        rows = []
        for s in scores:
            game_id = game_of[s.table] or 0
            name, score = facts.get(game_id, {}).get(seat, (tournament_name(tournament, s.user_id, seat), None))
            rows.append(Held(s.table, game_id, seat, name, s.place, s.absent, score, s.matchpoints, len(scores) - 1,
                             s.points))
        out[seat] = sorted(rows, key=lambda h: (-h.matchpoints, h.table))
    return out


def tournament_name(tournament: Tournament, user_id: int | None, seat: int) -> str:
    """A holder's name when the game gives none: the entrant's, or the bot filling the seat's."""
    if user_id is None:
        return t("tournament.fill_bot", tournament.locale, seat=seat + 1)
    entrant = tournament.entrants.get(user_id)
    return entrant.name if entrant is not None else "?"


def held_line(held: Held, locale: object | None) -> str:
    """Two short lines: the table and who held the seat, then their place, score and matchpoints."""
    who = t("comparison.holder", locale, table=held.table, name=literal.markdown(held.name))
    place = (t("comparison.no_show", locale) if held.absent
             else t("comparison.place", locale, place=held.place))
    score = "" if held.score is None else t("comparison.score", locale, score=number(held.score))
    result = t("comparison.result", locale, place=place, score=score, matchpoints=number(held.matchpoints),
               most=held.most, points=number(held.points or 0.0))
    return f"{who}\n{result}"


def _chunks(lines: list[str]) -> list[range]:
    """The rows of one seat split into parts: at most 25 (a part's buttons) and an embed description's worth."""
    out: list[range] = []
    start, size = 0, 0
    for i, line in enumerate(lines):
        if i > start and (i - start == TABLES_PER_PART or size + 1 + len(line) > EMBED_DESCRIPTION):
            out.append(range(start, i))
            start, size = i, 0
        size += len(line) + (1 if i > start else 0)
    return [*out, range(start, len(lines))] if lines else out


def parts(tournament: Tournament, number_: int, facts: GameFacts, locale: object | None) -> list[Part]:
    """The round's comparison, one part per seat (and per 25 tables of a seat); none when nobody was compared."""
    out = []
    for seat, rows in compared(tournament, number_, facts).items():
        lines = [held_line(h, locale) for h in rows]
        chunks = _chunks(lines)
        for i, chunk in enumerate(chunks):
            key = "comparison.seat_title" if len(chunks) == 1 else "comparison.seat_title_part"
            title = t(key, locale, round=number_, seat=seat + 1, part=i + 1, parts=len(chunks))
            out.append(Part(seat, title, [lines[j] for j in chunk], [rows[j] for j in chunk]))
    return out


def heading(tournament: Tournament, number_: int, locale: object | None) -> str:
    """Above the first part: what is compared, and how it scores; or, when fewer than two tables finished, that
    nobody was compared and the round scored by place."""
    if len(compared_tables(tournament, number_)) < 2:
        return t("comparison.nobody", locale, round=number_)
    return t("comparison.heading", locale, round=number_)


def button_label(held: Held, locale: object | None) -> str:
    """A Review button's label: the table and its holder of the seat (a label shows text as is)."""
    return t("comparison.review", locale, table=held.table, name=literal.plain(held.name))
