"""Pile up as text: cards as colour squares with a shape for their colour and their number (``🟥●3``, ``⬜○5``
white, ``⬛◆2`` black: the shape tells the colours apart without seeing colour), dice as faces (``⚂``), the six
columns as a short summary (the board picture draws them; ``🟦■3×2`` is two blue 3s stacked exactly, one layer),
traps and the dump in progress, every seat's hand size and minus cards.

Everything here is text from views only (the spectator view for the board, the player's own view for the hand).
"""
from __future__ import annotations

from typing import Any

from engines import Event, Result
from engines.pileup.cards import COLOURS
from engines.pileup.state import DumpLink
from engines.pileup.view import Column, Pending, PileupView, Seat

from ..i18n import join_list, t, with_mark
from . import Board, Names, ranking_lines
from . import pileup_event_shapes as E
from .event_table import EventText, On, format_event

COLOUR_MARKS = {"R": "🟥", "B": "🟦", "G": "🟩", "Y": "🟨", "W": "⬜", "K": "⬛"}
COLOUR_SYMBOLS = {"R": "●", "B": "■", "G": "▲", "Y": "★", "W": "○", "K": "◆"}
DIE_FACES = "⚀⚁⚂⚃⚄⚅"
COLUMN_MARKS = ("1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣")
ACTIONS = ("roll", "play", "penalty", "give", "give_all", "dump", "keep_column")
PHASES = ("roll", "play", "penalty", "give", "dump", "deflect", "over")


# ---- cards, dice, layers ------------------------------------------------------------------------------------------
def card(card_id: str) -> str:
    """``R3a`` → ``🟥●3`` (identical copies look the same: they are interchangeable)."""
    if len(card_id) < 2:
        return card_id
    return f"{COLOUR_MARKS.get(card_id[0], card_id[0])}{COLOUR_SYMBOLS.get(card_id[0], '')}{card_id[1]}"


def cards(ids: list[str]) -> str:
    """Cards in the order given (a play, a taken column)."""
    return " ".join(card(c) for c in ids) or "—"


def sorted_cards(ids: list[str]) -> str:
    """A hand or a set of minus cards: by colour (red, blue, green, yellow, white, black), then number."""
    return cards(sorted(ids, key=lambda c: (COLOURS.index(c[0]) if c[:1] in COLOURS else 9, c[1:])))


def by_colour(ids: list[str]) -> str:
    """Minus cards counted per colour (``🟥×3 ⬛×1``): what the ranking counts, without every card listed."""
    counts = {colour: sum(1 for c in ids if c[:1] == colour) for colour in COLOURS}
    return " ".join(f"{COLOUR_MARKS[colour]}×{n}" for colour, n in counts.items() if n) or "—"


def die(value: int) -> str:
    return DIE_FACES[value - 1] if 1 <= value <= 6 else "?"


def dice(values: list[int]) -> str:
    """``[3, 5, 6]`` → ``⚂ ⚄ ⚅ (3 5 6)``: faces, with the numbers for small screens."""
    if not values:
        return "—"
    return f"{' '.join(die(v) for v in values)} ({' '.join(str(v) for v in values)})"


def layer(layer_cards: list[str]) -> str:
    """One layer: ``🟥3``, or ``🟥3×2`` for cards stacked exactly."""
    if not layer_cards:
        return "?"
    return card(layer_cards[0]) + (f"×{len(layer_cards)}" if len(layer_cards) > 1 else "")


def play_layers(play_cards: list[str], stacked: list[bool]) -> str:
    """The cards of a play as they land: ``＋🟥3`` stacked onto the column's top layer, ``🟦3×2`` stacked onto each
    other, layers separated by ``▸``."""
    groups: list[list[str]] = []
    onto_top = False
    for i, (c, stack) in enumerate(zip(play_cards, stacked, strict=True)):
        if stack and groups:
            groups[-1].append(c)
        else:
            groups.append([c])
            onto_top = onto_top or (stack and i == 0)
    text = " ▸ ".join(layer(g) for g in groups)
    return ("＋" + text) if onto_top else text


def column_mark(number: int) -> str:
    return COLUMN_MARKS[number - 1] if 1 <= number <= 6 else str(number)


# ---- the board ----------------------------------------------------------------------------------------------------
def column_line(col: Column, names: Names, locale: object | None) -> str:
    number = col.number
    if not col.layers:
        return t("pileup.board.column_empty", locale, mark=column_mark(number))
    text = t("pileup.board.column", locale, mark=column_mark(number),
             layers=" ▸ ".join(layer(lay.cards) for lay in col.layers),
             count=col.layer_count, cards=col.card_count)
    if col.being_dumped:
        text += " " + t("pileup.board.being_dumped", locale)
    elif col.trapped:
        text += " " + t("pileup.board.trapped", locale, player=names(col.trapped_by))
    elif col.layer_count >= 2:
        text += " " + t("pileup.board.next_takes", locale)
    return text


def chain_text(chain: list[DumpLink], column: int, names: Names, locale: object | None) -> str:
    parts = [names(chain[0].source)] if chain else []
    for link in chain:
        step = names(link.target)
        if link.die is not None:
            key = "pileup.chain.deflected" if link.die == column else "pileup.chain.missed"
            step = with_mark(step, t(key, locale, die=die(link.die)))
        parts.append(step)
    return " → ".join(parts)


def pending_line(view: PileupView, names: Names, locale: object | None) -> str | None:
    p = view.pending
    if p is None:
        return None
    who = names(p.player)
    if p.kind == "roll":
        return t("pileup.pending.roll_minus" if p.minus_turn else "pileup.pending.roll", locale, player=who)
    if p.kind == "play":
        key = "pileup.pending.play_minus" if p.minus_turn else "pileup.pending.play"
        return t(key, locale, player=who, dice=dice(p.dice))
    if p.kind == "penalty":
        return t("pileup.pending.penalty", locale, player=who, dice=dice(p.dice))
    if p.kind == "give":
        return t("pileup.pending.give", locale, player=who, count=p.remaining, to=names(p.to))
    if p.kind == "dump_target":
        return t("pileup.pending.dump_target", locale, player=who, column=p.column, cards=p.cards)
    return t("pileup.pending.deflect", locale, player=who, column=p.column, cards=p.cards, face=die(p.needs))


def seat_line(seat: Seat, view: PileupView, names: Names, locale: object | None) -> str:
    me = seat.player
    mark = "▶ " if view.phase != "over" and me in view.to_act else ""
    if seat.out:
        return mark + t("pileup.board.seat_out", locale, player=names(me))
    text = t("pileup.board.seat", locale, player=names(me), hand=seat.hand_size, count=seat.minus_count,
             minus=by_colour(seat.minus))
    if seat.pile is not None:  # streams: per_seat
        text += " " + t("pileup.board.own_pile", locale, count=seat.pile)
    if seat.revealed:
        text += " " + t("pileup.board.revealed", locale, cards=sorted_cards(seat.revealed))
    return mark + text


def final_lines(result: Result, names: Names, locale: object | None) -> list[str]:
    """``🥇 alice — 2 minus cards``: the common ranking lines with each place's minus-card count."""
    ranking, scores = result.ranking, result.scores
    lines = ranking_lines(ranking, {}, names, locale)
    return [line + t("pileup.ranking_minus", locale, count=scores.get(group[0], 0)) if group else line
            for line, group in zip(lines, ranking, strict=True)]


def board(view: PileupView, names: Names, locale: object | None) -> Board:
    """The board beside its picture: the columns are only in the picture (and in its alt text, ``image_alt``)."""
    lines: list[str] = []
    pending = view.pending
    if view.dice and (pending is None or pending.kind not in ("play", "penalty")):  # else the pending line has them
        lines.append(t("pileup.board.dice", locale, player=names(view.turn_player), dice=dice(view.dice)))
    if pending is not None and pending.kind in ("dump_target", "deflect_roll") and pending.chain:
        lines.append(t("pileup.board.chain", locale, column=pending.column,
                       chain=chain_text(pending.chain, pending.column, names, locale)))
    line = pending_line(view, names, locale)
    if line:
        lines.append(line)
    own = any(seat.pile is not None for seat in view.seats)  # streams: per_seat
    lines.append(t("pileup.board.own_piles" if own else "pileup.board.pile", locale, count=view.draw_pile,
                   turn=view.turn))
    lines.append(t("pileup.board.players", locale))
    lines += [seat_line(seat, view, names, locale) for seat in view.seats]
    result = view.result
    if result is not None:
        lines.append(t("common.final_ranking", locale))
        lines += final_lines(result, names, locale)
    if result is not None:
        footer = t("common.game_over", locale)
    elif view.to_act:
        footer = t("pileup.board.to_act", locale, player=names(view.to_act[0]))
    else:
        footer = ""
    return Board(t("game.pileup.name", locale), lines, footer, legend=t("pileup.board.legend", locale))


# ---- the hand view ------------------------------------------------------------------------------------------------
def my_seat(view: PileupView) -> Seat | None:
    return next((s for s in view.seats if s.player == view.viewer), None)


def hand(view: PileupView, names: Names, locale: object | None) -> str:
    mine = view.hand_all or []  # a spectator holds nothing
    seat = my_seat(view)
    revealed, minus = (seat.revealed, seat.minus) if seat is not None else ([], [])
    lines = [t("pileup.hand.cards", locale, cards=sorted_cards(mine), count=len(mine))]
    if revealed:
        lines.append(t("pileup.hand.revealed", locale, cards=sorted_cards(revealed)))
    lines.append(t("pileup.hand.minus", locale, cards=sorted_cards(minus), count=len(minus)))
    p = view.pending
    if view.result is not None:
        lines.append(t("common.game_over", locale))
        return "\n".join(lines)
    if p is None or p.player != view.viewer:
        if p is not None:
            lines.append(pending_line(view, names, locale) or "")
        return "\n".join(lines)
    lines.append(my_decision(view, p, names, locale))
    return "\n".join(lines)


def my_decision(view: PileupView, p: Pending, names: Names, locale: object | None) -> str:
    """The hand view's line for the decision the viewer takes now."""
    if p.kind == "roll":
        return t("pileup.hand.roll_minus" if p.minus_turn else "pileup.hand.roll", locale)
    if p.kind == "play":
        values = view.playable_values or []
        key = "pileup.hand.play_minus" if p.minus_turn else "pileup.hand.play"
        return t(key, locale, dice=dice(p.dice), values=join_list((f"{die(v)} {v}" for v in values), locale) or "—")
    if p.kind == "penalty":
        return t("pileup.hand.penalty", locale, dice=dice(p.dice))
    if p.kind == "give":
        return t("pileup.hand.give", locale, count=p.remaining, to=names(p.to))
    if p.kind == "dump_target":
        key = "pileup.hand.dump_again" if p.chain else "pileup.hand.dump_target"
        return t(key, locale, column=p.column, cards=p.cards)
    source = p.chain[-1].source if p.chain else None
    return t("pileup.hand.deflect", locale, player=names(source), column=p.column, cards=p.cards, face=die(p.needs))


# ---- events ---------------------------------------------------------------------------------------------------------
def take_reason(reason: str, locale: object | None) -> str:
    key = reason if reason in ("take", "take_trap", "spring", "dump", "kept") else "take"
    return t(f"pileup.reason.{key}", locale)


def _rolled(d: E.Rolled, who: str, names: Names, locale: object | None) -> str | None:
    key = "pileup.event.rolled_minus" if d.get("minus_turn") else "pileup.event.rolled"
    return t(key, locale, player=who, dice=dice(d.get("dice", [])))


def _triple(d: E.Triple, who: str, names: Names, locale: object | None) -> str | None:
    if not d.get("gives"):
        return t("pileup.event.triple_none", locale, player=who, sum=d.get("sum", 0))
    return t("pileup.event.triple", locale, player=who, sum=d.get("sum", 0), count=d["gives"])


def _minus_given(d: E.MinusGiven, who: str, names: Names, locale: object | None) -> str | None:
    return t("pileup.event.minus_given", locale, player=who, to=names(d.get("to")), card=card(d["card"]),
             left=d.get("left", 0))


def _reroll(d: E.Reroll, who: str, names: Names, locale: object | None) -> str | None:
    return t("pileup.event.reroll", locale, player=who)


def _hand_revealed(d: E.HandRevealed, who: str, names: Names, locale: object | None) -> str | None:
    return t("pileup.event.hand_revealed", locale, player=who, cards=sorted_cards(d.get("cards", [])))


def _penalty_taken(d: E.PenaltyTaken, who: str, names: Names, locale: object | None) -> str | None:
    return t("pileup.event.penalty_taken", locale, player=who, card=card(d["card"]))


def _played(d: E.Played, who: str, names: Names, locale: object | None) -> str | None:
    key = "pileup.event.played_minus" if d.get("from_minus") else "pileup.event.played"
    return t(key, locale, player=who, column=d["column"], mark=column_mark(d["column"]),
             cards=play_layers(d.get("cards", []), d.get("stacked", [])), layers=d.get("layers", 0))


def _dump_started(d: E.DumpStarted, who: str, names: Names, locale: object | None) -> str | None:
    return t("pileup.event.dump_started", locale, player=who, column=d["column"], cards=d.get("cards", 0))


def _dumped(d: E.Dumped, who: str, names: Names, locale: object | None) -> str | None:
    return t("pileup.event.dumped", locale, player=who, to=names(d.get("to")), column=d["column"],
             cards=d.get("cards", 0), face=die(d["column"]))


def _deflect_rolled(d: E.DeflectRolled, who: str, names: Names, locale: object | None) -> str | None:
    key = "pileup.event.deflected" if d.get("deflected") else "pileup.event.not_deflected"
    return t(key, locale, player=who, die=dice([d["die"]]), column=d["column"])


def _column_taken(d: E.ColumnTaken, who: str, names: Names, locale: object | None) -> str | None:
    return t("pileup.event.column_taken", locale, player=who, column=d["column"],
             mark=column_mark(d["column"]), cards=cards(d.get("cards", [])), count=len(d.get("cards", [])),
             reason=take_reason(d.get("reason", "take"), locale), total=d.get("minus_count", 0))


def _column_trapped(d: E.ColumnTrapped, who: str, names: Names, locale: object | None) -> str | None:
    return t("pileup.event.column_trapped", locale, player=who, column=d["column"])


def _refilled(d: E.Refilled, who: str, names: Names, locale: object | None) -> str | None:
    if not d.get("count"):
        return None
    if "own_pile" in d:  # streams: per_seat
        return t("pileup.event.refilled_own", locale, player=who, count=d["count"], pile=d["own_pile"])
    return t("pileup.event.refilled", locale, player=who, count=d["count"], pile=d.get("draw_pile", 0))


def _drew(d: E.Drew, who: str, names: Names, locale: object | None) -> str | None:
    """private: the drawer only"""
    return t("pileup.event.drew", locale, cards=sorted_cards(d.get("cards", [])))


def _turn_started(d: E.TurnStarted, who: str, names: Names, locale: object | None) -> str | None:
    parts = []
    if d.get("skipped"):
        parts.append(t("pileup.event.skipped", locale, players=join_list((names(p) for p in d["skipped"]), locale)))
    key = "pileup.event.turn_minus" if d.get("minus_turn") else "pileup.event.turn"
    parts.append(t(key, locale, player=who, turn=d.get("turn", 0)))
    return " ".join(parts)


def _game_over(d: E.GameOver, who: str, names: Names, locale: object | None) -> str | None:
    """The end; the ranking is on the final board this line is written above (shown once)."""
    return t("pileup.event.game_over", locale)


EVENTS: dict[str, EventText] = {
    "rolled": On(E.Rolled, _rolled),
    "triple": On(E.Triple, _triple),
    "minus_given": On(E.MinusGiven, _minus_given),
    "reroll": On(E.Reroll, _reroll),
    "hand_revealed": On(E.HandRevealed, _hand_revealed),
    "penalty_taken": On(E.PenaltyTaken, _penalty_taken),
    "played": On(E.Played, _played),
    "dump_started": On(E.DumpStarted, _dump_started),
    "dumped": On(E.Dumped, _dumped),
    "deflect_rolled": On(E.DeflectRolled, _deflect_rolled),
    "column_taken": On(E.ColumnTaken, _column_taken),
    "column_trapped": On(E.ColumnTrapped, _column_trapped),
    "refilled": On(E.Refilled, _refilled),
    "drew": On(E.Drew, _drew),
    "turn_started": On(E.TurnStarted, _turn_started),
    "game_over": On(E.GameOver, _game_over),
}


def event(ev: Event, names: Names, locale: object | None) -> str | None:
    return format_event(EVENTS, ev, names, locale)


def error_field(key: str, value: Any, locale: object | None) -> Any:
    """Readable error placeholders: card ids as marks, dice as faces, phases and actions by name."""
    if key == "card" and isinstance(value, str) and value:
        return card(value)
    if key == "cards" and isinstance(value, (list, tuple)):
        return cards(list(value))
    if key == "dice" and isinstance(value, (list, tuple)):
        return dice(list(value))
    if key == "phase" and value in PHASES:
        return t(f"pileup.phase.{value}", locale)
    if key == "action" and value in ACTIONS:
        return t(f"pileup.action.{value}", locale)
    return value


def image(view: PileupView, names: Names, locale: object | None) -> bytes:
    """The board picture (PNG): the six columns, each on its die face. Called off the event loop."""
    from .pileup_image import render_png

    return render_png(view)


def image_alt(view: PileupView, names: Names, locale: object | None) -> str:
    """The picture's alt text: the columns in words, one line each."""
    return "\n".join([t("pileup.board.columns", locale)] + [column_line(col, names, locale) for col in view.columns])


def caption_scores(view: PileupView, locale: object | None) -> dict[str, str]:
    """Each seat's minus cards: what the result counts, with its unit (the animated summary's caption)."""
    return {seat.player: t("pileup.caption.score", locale, count=seat.minus_count) for seat in view.seats}


def hand_cards(view: PileupView) -> list[str]:
    """A seat's every card, the revealed ones too (the view's ``hand`` holds the secret ones only)."""
    return list(view.hand_all or [])
