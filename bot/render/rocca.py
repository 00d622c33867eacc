"""Rocca Card Tower as text: card marks (``7♠``, ``10♦``, ``🃏``), tower labels (``b3`` = column b, 3rd card)
shared with the board picture and the hand view's choices, and a tower summary for screen readers.

The picture itself is drawn by ``rocca_image`` (``image`` below); everything here is text from views only.
"""
from __future__ import annotations

from typing import Any

from engines import Event
from engines.rocca.geometry import SIDES
from engines.rocca.view import Pending, RoccaView, TowerEntry

from ..i18n import join_list, t, with_mark
from . import Board, Names, ranking_lines
from . import rocca_event_shapes as E
from .event_table import EventText, On, format_event

SUIT_MARKS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
JOKER_MARK = "🃏"
MAX_ACTIVE_LISTED = 24
"""Active cards listed one by one on the board; more are counted (the embed must stay readable)."""


# ---- cards, sides, labels ------------------------------------------------------------------------------------------
def card(card_id: str, suit: str | None = None) -> str:
    """``7S`` → ``7♠``; a joker is ``🃏``, or ``🃏♠`` once it named a suit on the tower."""
    if card_id.startswith("X"):
        return JOKER_MARK + (SUIT_MARKS.get(suit, "") if suit else "")
    return card_id[:-1] + SUIT_MARKS.get(card_id[-1], card_id[-1])


def cards(ids: list[str]) -> str:
    return " ".join(card(c) for c in ids) or "—"


def suit_mark(suit: str | None) -> str:
    return SUIT_MARKS.get(suit or "", "?")


def side_name(side: str, locale: object | None) -> str:
    return t(f"rocca.side.{side}", locale)


def bend_name(bend: str, locale: object | None) -> str:
    return t(f"rocca.bend.{bend}", locale)


def tower_card(view: RoccaView, card_id: str | None) -> TowerEntry | None:
    return next((tc for tc in view.tower if tc.card == card_id), None)


def label_of(view: RoccaView, card_id: str | None) -> str:
    tc = tower_card(view, card_id)
    return tc.label if tc else "?"


def tower_mark(tc: TowerEntry) -> str:
    """How a tower card is named in text: its label and its mark, ``b3 7♠``."""
    return f"{tc.label} {card(tc.card, tc.suit)}"


def placement(view: RoccaView, card_id: str, on: str, side: str, locale: object | None) -> str:
    """``7♠ → profile of b3``: a move as the hand view offers it (the label is on the board picture)."""
    return t("rocca.move.place", locale, card=card(card_id), side=side_name(side, locale), label=label_of(view, on))


def bon_move(view: RoccaView, on: str, ids: list[str], locale: object | None) -> str:
    return t("rocca.move.bon", locale, cards=cards(ids), label=label_of(view, on))


def direction(value: int, locale: object | None) -> str:
    return t("rocca.direction.cw" if value == 1 else "rocca.direction.ccw", locale)


# ---- the tower as text ---------------------------------------------------------------------------------------------
def active_line(tc: TowerEntry, locale: object | None) -> str:
    sides = [side_name(s, locale) for s in tc.open_sides]
    if not tc.playable:
        state = t("rocca.board.frozen", locale)
    elif sides:
        state = t("rocca.board.open_sides", locale, sides=join_list(sides, locale))
    else:
        state = t("rocca.board.no_open_side", locale)
    return t("rocca.board.active_card", locale, card=tower_mark(tc), state=state)


def tower_summary(view: RoccaView, names: Names, locale: object | None) -> list[str]:
    """The tower in words (screen readers; and anyone without the picture): size, last card, active cards."""
    tower = view.tower
    lines = [t("rocca.board.tower", locale, count=len(tower), columns=len(view.columns))]
    last = tower[-1] if tower else None
    if last is not None and last.on and last.on_side:  # the start card lies on nothing
        lines.append(t("rocca.board.last", locale, card=tower_mark(last), player=names(last.placer),
                       side=side_name(last.on_side, locale), on=label_of(view, last.on)))
    active = [tc for tc in tower if tc.active]
    active.sort(key=lambda tc: (not tc.playable, not tc.open_sides, tc.order))
    listed = active[:MAX_ACTIVE_LISTED]
    text = " · ".join(active_line(tc, locale) for tc in listed)
    if len(active) > len(listed):
        text += " · " + t("rocca.board.more_active", locale, count=len(active) - len(listed))
    lines.append(t("rocca.board.active", locale, cards=text))
    restriction = view.restriction
    if restriction is not None:
        joker = tower_card(view, restriction.joker)
        lines.append(t("rocca.board.bent", locale, joker=tower_mark(joker) if joker else JOKER_MARK,
                       bend=bend_name(joker.bend or "left", locale) if joker else "?",
                       columns=join_list(restriction.columns, locale)))
    return lines


def pending_line(view: RoccaView, names: Names, locale: object | None) -> str | None:
    p = view.pending
    if p is None:
        return None
    on = label_of(view, p.card)
    if p.kind == "draw_chain":
        return t("rocca.pending.draw_chain", locale, player=names(p.player), count=p.count, rank=p.rank, label=on)
    if p.kind == "q_give":
        if p.receiver is None or (p.count == 1 and p.given == 0):
            return t("rocca.pending.q_give_first", locale, player=names(p.player))
        return t("rocca.pending.q_give_back", locale, player=names(p.player), receiver=names(p.receiver),
                 count=p.count - p.given)
    return t("rocca.pending.q_answer", locale, player=names(p.player), giver=names(p.giver), count=p.count, label=on)


def hands_line(view: RoccaView, names: Names, locale: object | None) -> str:
    sizes, out, one = view.hand_sizes, set(view.out), set(view.one_declared)
    parts = []
    for p in view.players:
        if p in out:
            parts.append(t("rocca.board.hand_out", locale, player=names(p), count=sizes.get(p, 0)))
        else:
            size = t("rocca.board.hand_size", locale, player=names(p), count=sizes.get(p, 0))
            parts.append(with_mark(size, t("rocca.board.one_mark", locale)) if p in one and sizes.get(p) == 1 else size)
    return t("rocca.board.hands", locale, hands=" · ".join(parts))


def board(view: RoccaView, names: Names, locale: object | None) -> Board:
    lines = tower_summary(view, names, locale)
    pending = pending_line(view, names, locale)
    if pending and not view.over:
        lines.append(pending)
    lines.append(t("rocca.board.table" if view.pile_sizes is None else "rocca.board.table_own", locale,
                   direction=direction(view.direction, locale), pile=view.deck_size,
                   bon=t("rocca.board.bon_on" if view.options.bon else "rocca.board.bon_off", locale)))
    lines.append(hands_line(view, names, locale))
    if view.pile_sizes is not None:  # streams: per_seat
        piles = " · ".join(t("rocca.board.hand_size", locale, player=names(p), count=view.pile_sizes[p])
                           for p in view.players)
        lines.append(t("rocca.board.own_piles", locale, piles=piles))
    result = view.result
    if result is not None:
        lines.append(t("common.final_ranking", locale))
        lines.extend(ranking_lines(result.ranking, {}, names, locale))
        footer = t("common.game_over", locale)
    elif view.pending is not None:
        footer = t("rocca.board.to_decide", locale, player=names(view.pending.player))
    elif view.turn:
        footer = t("rocca.board.to_play", locale, player=names(view.turn))
    else:
        footer = ""
    return Board(t("game.rocca.name", locale), lines, footer)


# ---- the hand view's text ------------------------------------------------------------------------------------------
def hand(view: RoccaView, names: Names, locale: object | None) -> str:
    mine = view.hand or []  # a spectator holds nothing
    me = view.viewer
    lines = [t("rocca.hand.cards", locale, cards=cards(mine), count=len(mine))]
    if view.over:
        return "\n".join(lines)
    pending = view.pending
    if pending is not None and pending.player == me:
        lines.append(my_decision(view, pending, mine, names, locale))
    elif pending is not None:
        lines.append(pending_line(view, names, locale) or "")
    elif view.turn == me:
        lines.append(t("rocca.hand.your_turn", locale))
        playable = [tc for tc in view.tower if tc.playable and tc.open_sides]
        if playable:
            lines.append(t("rocca.hand.open", locale, cards=" · ".join(active_line(tc, locale) for tc in playable)))
    else:
        lines.append(t("rocca.board.to_play", locale, player=names(view.turn)))
    if len(mine) == 1 and me not in view.one_declared:
        lines.append(t("rocca.hand.one_hint", locale))
    for rival, passed in view.known.items():
        lines.append(t("rocca.hand.known", locale, player=names(rival), cards=cards(passed)))
    return "\n".join(lines)


def my_decision(view: RoccaView, pending: Pending, mine: list[str], names: Names, locale: object | None) -> str:
    """The hand view's line for the decision the viewer takes now."""
    on = label_of(view, pending.card)
    holds_rank = any(c[:-1] == pending.rank for c in mine if not c.startswith("X"))
    if pending.kind == "draw_chain":
        key = "rocca.hand.draw_chain" if holds_rank else "rocca.hand.draw_chain_take"
        return t(key, locale, count=pending.count, rank=pending.rank, label=on, player=names(pending.by))
    if pending.kind == "q_answer":
        key = "rocca.hand.q_answer" if holds_rank else "rocca.hand.q_take"
        return t(key, locale, giver=names(pending.giver), label=on, count=pending.count)
    if pending.receiver is None:
        return t("rocca.hand.q_give_first", locale)
    return t("rocca.hand.q_give_back", locale, receiver=names(pending.receiver), count=pending.count - pending.given,
             total=pending.count)


# ---- events --------------------------------------------------------------------------------------------------------
def _game_started(d: E.GameStarted, who: str, names: Names, locale: object | None) -> str | None:
    return t("rocca.event.game_started", locale, player=names(d.get("start_player")),
             card=card(d["start_card"]),
             bon=t("rocca.board.bon_on" if d.get("bon") else "rocca.board.bon_off", locale))


def _placed(d: E.Placed, who: str, names: Names, locale: object | None) -> str | None:
    bend = d.get("bend")
    if bend:
        return t("rocca.event.placed_joker", locale, player=names(d["player"]), card=card(d["card"]),
                 suit=suit_mark(d.get("suit")), bend=bend_name(bend, locale),
                 side=side_name(d["side"], locale), on=d["on_label"], label=d["label"],
                 left=d.get("cards_left", 0))
    return t("rocca.event.placed", locale, player=names(d["player"]), card=card(d["card"]),
             side=side_name(d["side"], locale), on=d["on_label"], label=d["label"],
             left=d.get("cards_left", 0))


def _tower_bent(d: E.TowerBent, who: str, names: Names, locale: object | None) -> str | None:
    return t("rocca.event.tower_bent", locale)


def _bon(d: E.BonPlayed, who: str, names: Names, locale: object | None) -> str | None:
    return t("rocca.event.bon", locale, player=names(d["player"]), cards=cards(d["cards"]),
             labels=join_list(d.get("labels", []), locale), left=d.get("cards_left", 0))


def _one_declared(d: E.Player, who: str, names: Names, locale: object | None) -> str | None:
    return t("rocca.event.one_declared", locale, player=names(d["player"]))


def _reversed(d: E.Reversed, who: str, names: Names, locale: object | None) -> str | None:
    return t("rocca.event.reversed", locale, direction=direction(d.get("direction", 1), locale))


def _again(d: E.Player, who: str, names: Names, locale: object | None) -> str | None:
    return t("rocca.event.again", locale, player=names(d["player"]))


def _draw_chain(d: E.DrawChain, who: str, names: Names, locale: object | None) -> str | None:
    return t("rocca.event.draw_chain", locale, player=names(d["target"]), count=d["count"], rank=d["rank"])


def _q_countered(d: E.QCountered, who: str, names: Names, locale: object | None) -> str | None:
    return t("rocca.event.q_countered", locale, player=names(d["player"]), to=names(d.get("to")),
             count=d["count"])


def _q_pass(d: E.QPass, who: str, names: Names, locale: object | None) -> str | None:
    return t("rocca.event.q_pass", locale, giver=names(d["giver"]), receiver=names(d["receiver"]),
             count=d["count"])


def _card_passed(d: E.CardPassed, who: str, names: Names, locale: object | None) -> str | None:
    """private: giver and receiver only"""
    return t("rocca.event.card_passed", locale, giver=names(d["giver"]), receiver=names(d["receiver"]),
             card=card(d["card"]))


def _q_accepted(d: E.Player, who: str, names: Names, locale: object | None) -> str | None:
    return t("rocca.event.q_accepted", locale, player=names(d["player"]))


def _drew(d: E.Drew, who: str, names: Names, locale: object | None) -> str | None:
    own = "own_pile" in d  # streams: per_seat
    pile = d["own_pile"] if own else d.get("pile", 0)
    if d.get("count", 0) < d.get("wanted", 0):
        return t("rocca.event.drew_short_own" if own else "rocca.event.drew_short", locale, player=names(d["player"]),
                 count=d["count"], wanted=d["wanted"], pile=pile)
    return t("rocca.event.drew_own" if own else "rocca.event.drew", locale, player=names(d["player"]),
             count=d["count"], pile=pile)


def _drew_cards(d: E.DrewCards, who: str, names: Names, locale: object | None) -> str | None:
    """private: the drawer only"""
    return t("rocca.event.drew_cards", locale, cards=cards(d.get("cards", [])))


def _turn_lost(d: E.Player, who: str, names: Names, locale: object | None) -> str | None:
    return t("rocca.event.turn_lost", locale, player=names(d["player"]))


def _one_missing(d: E.OneMissing, who: str, names: Names, locale: object | None) -> str | None:
    return t("rocca.event.one_missing", locale, player=names(d["player"]), penalty=d.get("penalty", 3))


def _went_out(d: E.Player, who: str, names: Names, locale: object | None) -> str | None:
    return t("rocca.event.went_out", locale, player=names(d["player"]))


def _player_out(d: E.PlayerOut, who: str, names: Names, locale: object | None) -> str | None:
    key = "rocca.event.player_out_own" if "own_pile" in d else "rocca.event.player_out"  # own: streams per_seat
    return t(key, locale, player=names(d["player"]), count=d.get("cards_left", 0))


def _game_over(d: E.GameOver, who: str, names: Names, locale: object | None) -> str | None:
    """The end; the ranking is on the final board this line is written above (shown once)."""
    return t("rocca.event.game_over", locale)


EVENTS: dict[str, EventText] = {
    "game_started": On(E.GameStarted, _game_started),
    "placed": On(E.Placed, _placed),
    "tower_bent": On(E.TowerBent, _tower_bent),
    "bon": On(E.BonPlayed, _bon),
    "one_declared": On(E.Player, _one_declared),
    "reversed": On(E.Reversed, _reversed),
    "again": On(E.Player, _again),
    "draw_chain": On(E.DrawChain, _draw_chain),
    "q_countered": On(E.QCountered, _q_countered),
    "q_pass": On(E.QPass, _q_pass),
    "card_passed": On(E.CardPassed, _card_passed),
    "q_accepted": On(E.Player, _q_accepted),
    "drew": On(E.Drew, _drew),
    "drew_cards": On(E.DrewCards, _drew_cards),
    "turn_lost": On(E.Player, _turn_lost),
    "one_missing": On(E.OneMissing, _one_missing),
    "went_out": On(E.Player, _went_out),
    "player_out": On(E.PlayerOut, _player_out),
    "game_over": On(E.GameOver, _game_over),
}


def event(ev: Event, names: Names, locale: object | None) -> str | None:
    return format_event(EVENTS, ev, names, locale)


def error_field(key: str, value: Any, locale: object | None) -> Any:
    """Readable error placeholders: card ids as marks, sides and side states by name."""
    if key in ("card", "on", "joker") and isinstance(value, str) and value:
        return card(value)
    if key == "cards" and isinstance(value, (list, tuple)):
        return cards(list(value))
    if key == "side" and value in SIDES:
        return side_name(value, locale)
    if key == "state" and value in ("half", "blocked", "free"):
        return t(f"rocca.side_state.{value}", locale)
    return value


def image(view: RoccaView, names: Names, locale: object | None) -> bytes:
    """The board picture (PNG): the tower as isometric cubes, labels as in the text. Called off the event loop."""
    from .rocca_image import render_png

    return render_png(view)


def review_image(view: RoccaView, names: Names, locale: object | None, moved: str | None = None) -> bytes:
    """The picture of a moment looked back at (the viewer, the animated summary): the whole tower as it stood, as
    the final board draws it (a tower too large to read whole: its overview and the last cards at full size), not
    the crop around the cards a live move is decided on (a tester saw only the tower's top for seven frames)."""
    from .rocca_image import render_png

    return render_png(view, whole=True)


def image_alt(view: RoccaView, names: Names, locale: object | None) -> str:
    """The picture's alt text: what it shows and, for a tower split to stay legible, what is drawn small and why."""
    from .rocca_layout import part_labels

    parts = part_labels(view)
    if parts is None:
        return t("rocca.image_alt", locale)
    return t("rocca.image_alt_split", locale, parts=" | ".join(" ".join(labels) for labels in parts))


def caption_scores(view: RoccaView, locale: object | None) -> dict[str, str]:
    """Each seat's cards in hand: what the result counts, with its unit (the animated summary's caption)."""
    return {p: t("rocca.caption.score", locale, count=n) for p, n in view.hand_sizes.items()}
