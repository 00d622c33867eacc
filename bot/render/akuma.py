"""Akuma Trick as text: cards as coloured marks with a shape for their colour and their rank (``🟡★7``: the shape
tells the colours apart without seeing colour), the row, the release number."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines import Event
from engines.akuma.cards import hand_score
from engines.akuma.view import AkumaView

from ..i18n import sentences, t
from . import Board, Names, ranking_lines
from . import akuma_event_shapes as E
from .event_table import EventText, On, format_event

COLOUR_MARKS = {"Y": "🟡", "P": "🩷", "G": "🟢", "V": "🟣", "B": "🔵", "W": "⚪"}
COLOUR_SYMBOLS = {"Y": "★", "P": "♥", "G": "▲", "V": "◆", "B": "■", "W": "○"}


def colour_mark(colour: str) -> str:
    """A colour's emoji and its shape, ``🟡★``."""
    return COLOUR_MARKS.get(colour, colour) + COLOUR_SYMBOLS.get(colour, "")


def card(card_id: str) -> str:
    return f"{colour_mark(card_id[0])}{card_id[1:]}"


def cards(ids: list[str]) -> str:
    return " ".join(card(c) for c in ids) or "—"


def colour_name(colour: str, locale: object | None) -> str:
    return f"{colour_mark(colour)} {t(f'akuma.colour.{colour}', locale)}"


def direction(value: str, locale: object | None) -> str:
    return t(f"akuma.direction.{value}", locale)


def lock_text(lock: list[str] | None, locale: object | None) -> str:
    if not lock:
        return t("akuma.no_lock", locale)
    return t("common.list_or", locale).join(colour_name(c, locale) for c in lock)


def emptied_lines(players: list[str], names: Names, locale: object | None) -> list[str]:
    """Why the player who emptied their hand ranks last (docs/rules/akuma.md, Decision [D6])."""
    return [t("akuma.result.emptied_last", locale, player=names(p)) for p in players]


def scored(scores: Mapping[str, float], emptied: list[str]) -> dict[str, float]:
    """The scores shown in a ranking: none beside the player who emptied their hand (their 0 is not a winning
    score; the line under the ranking says why they rank last)."""
    return {p: s for p, s in scores.items() if p not in emptied}


def result_notes(view: AkumaView, names: Names, locale: object | None) -> list[str]:
    """Under a finished game's result: why the player who emptied their hand ranks last."""
    if view.result is None:
        return []
    return emptied_lines([p for p in view.players if not view.hand_sizes[p]], names, locale)


def board(view: AkumaView, names: Names, locale: object | None) -> Board:
    lines: list[str] = []
    row = view.row
    if row:
        plays = " │ ".join(cards(p.cards) for p in row)
        lines.append(t("akuma.board.row", locale, row=plays))
        lines.append(t("akuma.board.release_number", locale, number=view.release_number))
    else:
        lines.append(t("akuma.board.row_empty", locale))
    lines.append(t("akuma.board.direction_lock", locale, direction=direction(view.direction, locale),
                   lock=lock_text(view.lock, locale)))
    sizes = view.hand_sizes
    lines.append(t("akuma.board.hands", locale,
                   hands=" · ".join(t("akuma.board.hand_size", locale, player=names(p), count=sizes[p])
                                    for p in view.players)))
    result = view.result
    if result is not None:
        emptied = [p for p in view.players if not sizes[p]]
        lines.append(t("common.final_ranking", locale))
        lines.extend(ranking_lines(result.ranking, scored(result.scores, emptied), names, locale))
        lines.append(t("akuma.result.lower_is_better", locale))  # why the one who emptied their hand is last:
        # in the result message just below (``result_notes``), once
        footer = t("common.game_over", locale)
    elif view.to_act:
        actor = view.to_act[0]
        key = "akuma.board.to_steal" if view.steals_left else "akuma.board.to_play"
        footer = t(key, locale, player=names(actor), count=view.steals_left or 0)
    else:
        footer = ""
    return Board(t("game.akuma.name", locale), lines, footer)


def hand(view: AkumaView, names: Names, locale: object | None) -> str:
    own = view.hand or []  # a spectator holds nothing
    lines = [t("akuma.hand.cards", locale, cards=cards(own), count=len(own))]
    if own and view.result is None:
        lines.append(t("akuma.hand.score", locale, score=hand_score(own)))
    row = view.row
    if row:
        last = row[-1]
        lines.append(t("akuma.hand.beat", locale, cards=cards(last.cards), player=names(last.player)))
        lines.append(t("akuma.hand.release_cost", locale, number=view.release_number))
    if view.lock:
        lines.append(t("akuma.hand.locked", locale, lock=lock_text(view.lock, locale)))
    forced = view.release_forced
    if forced is not None and row:
        lines.append(t("akuma.hand.release_forced", locale, cards=cards(forced)))
    for rival, taken in view.known.items():
        lines.append(t("akuma.hand.known", locale, player=names(rival), cards=cards(taken)))
    return "\n".join(lines)


def _game_started(d: E.GameStarted, who: str, names: Names, locale: object | None) -> str | None:
    return t("akuma.event.game_started", locale, player=names(d.get("start_player")),
             colours=" ".join(colour_mark(c) for c in d.get("colours", [])))


def _played(d: E.Played, who: str, names: Names, locale: object | None) -> str | None:
    text = t("akuma.event.played", locale, player=names(d["player"]), cards=cards(d["cards"]))
    extras = []
    if d.get("reversed"):
        extras.append(t("akuma.event.reversed", locale, direction=direction(d.get("direction", "cw"), locale)))
    lock = d.get("lock")
    if lock:
        extras.append(t("akuma.event.locked", locale, lock=lock_text(lock, locale)))
    if d.get("steals"):
        extras.append(t("akuma.event.may_steal", locale, count=d["steals"]))
    return sentences([text, *extras], locale)


def _steal(d: E.Steal, who: str, names: Names, locale: object | None) -> str | None:
    return t("akuma.event.steal", locale, thief=names(d["thief"]), victim=names(d["victim"]))


def _stolen_card(d: E.StolenCard, who: str, names: Names, locale: object | None) -> str | None:
    return t("akuma.event.stolen_card", locale, thief=names(d["thief"]), victim=names(d["victim"]),
             card=card(d["card"]))


def _released(d: E.Released, who: str, names: Names, locale: object | None) -> str | None:
    return t("akuma.event.released", locale, player=names(d["player"]), cards=cards(d["cards"]),
             number=d.get("release_number"))


def _steals_stopped(d: E.Player, who: str, names: Names, locale: object | None) -> str | None:
    return t("akuma.event.steals_stopped", locale, player=names(d["player"]))


def _trick_started(d: E.TrickStarted, who: str, names: Names, locale: object | None) -> str | None:
    return t("akuma.event.trick_started", locale, player=names(d["first_player"]),
             direction=direction(d.get("direction", "cw"), locale))


def _game_over(d: E.GameOver, who: str, names: Names, locale: object | None) -> str | None:
    """The ranking is on the final board this line is written above (shown once)."""
    return t("akuma.event.game_over", locale)


EVENTS: dict[str, EventText] = {
    "game_started": On(E.GameStarted, _game_started),
    "played": On(E.Played, _played),
    "steal": On(E.Steal, _steal),
    "stolen_card": On(E.StolenCard, _stolen_card),
    "released": On(E.Released, _released),
    "steals_stopped": On(E.Player, _steals_stopped),
    "trick_started": On(E.TrickStarted, _trick_started),
    "game_over": On(E.GameOver, _game_over),
}


def event(ev: Event, names: Names, locale: object | None) -> str | None:
    return format_event(EVENTS, ev, names, locale)


def error_field(key: str, value: Any, locale: object | None) -> Any:
    """Readable error placeholders: cards as marks, colours by name."""
    if key in ("card",) and isinstance(value, str):
        return card(value)
    if key in ("cards", "missing") and isinstance(value, list):
        return cards(value)
    if key == "lock" and isinstance(value, list):
        return lock_text(value, locale)
    return value
