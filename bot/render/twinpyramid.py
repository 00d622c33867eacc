"""Twin Pyramid as text: cards as rank + suit (``7♠``, ``10♥``, ``🃏1`` a joker), a field pyramid as a small
pyramid of slots in a code block (a filled slot shows its stone, an empty one its rank between dots: ``·7·``) in the
hand view, each seat's held count, hand size against the burst at 10, and points on the board — whose pyramids are
the board picture (``twinpyramid_image``), described in words by its alt text (``image_alt``).

Everything here is text from views only (the spectator view for the board, the player's own view for the hand).
"""
from __future__ import annotations

from typing import Any

from engines.twinpyramid.view import SeatView, TwinPyramidView

from ..i18n import join_list, t, with_mark
from . import Board, Names, ranking_lines
from .twinpyramid_events import (  # event: the renderer registry calls it here
    deal_result_lines,
    event,
    shared_first_line,
)
from .twinpyramid_text import (
    ACTIONS,
    BUILD_LIMIT,
    CELL,
    ROWS,
    card,
    cards,
    rank_of,
    sorted_cards,
    step_label,  # noqa: F401  (the controls use it as text.step_label)
    suit_mark,
    suit_name,
)

SEAT_MARKS = ("1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣")


# ---- pyramids -----------------------------------------------------------------------------------------------------
def slot_text(rank: str, stone: str | None) -> str:
    """A slot of ``CELL`` characters: its stone (``5♥``, ``10♥``) or its rank between dots (``·5·``, ``·10``)."""
    if stone:
        return card(stone).ljust(CELL)
    return ("·" + rank + "·")[:CELL] if len(rank) == 1 else ("·" + rank)[:CELL]


def pyramid_lines(stones: dict[str, str | None]) -> list[str]:
    """The field pyramid, top row first, centred: four lines of slots."""
    width = len(ROWS[0]) * (CELL + 1) - 1
    lines = []
    for row in reversed(ROWS):
        text = " ".join(slot_text(rank, stones.get(rank)) for rank in row)
        row_width = len(row) * (CELL + 1) - 1
        lines.append((" " * ((width - row_width) // 2) + text).rstrip())
    return lines


def pyramid_block(stones: dict[str, str | None]) -> str:
    return "```\n" + "\n".join(pyramid_lines(stones)) + "\n```"


def pyramid_inline(stones: dict[str, str | None]) -> str:
    """One line, bottom row first: ``7♠ ·8· ·9· ·10 │ ·4· ·5· ·6· │ ·2· ·3· │ ·A·``."""
    return " │ ".join(" ".join(slot_text(r, stones.get(r)).strip() for r in row) for row in ROWS)


# ---- the board ----------------------------------------------------------------------------------------------------
def seat_of(view: TwinPyramidView, player: str | None) -> SeatView | None:
    return next((s for s in view.table if s.player == player), None)


def own(view: TwinPyramidView) -> str:
    """The key suffix of a per-seat game's lines (``streams: per_seat``, D19: every seat its own draw pile)."""
    return "_own" if any(seat.pile is not None for seat in view.table) else ""


def direction_text(view: TwinPyramidView, locale: object | None) -> str:
    return t(f"twinpyramid.direction.{'cw' if view.direction == 'clockwise' else 'ccw'}", locale)


def top_line(view: TwinPyramidView, locale: object | None) -> str:
    text = t("twinpyramid.board.top" + own(view), locale, card=card(view.top), draw=view.draw_count,
             discard=view.discard_count)
    named = view.named_suit
    if named and view.wild is None:
        text += " " + t("twinpyramid.board.named_suit", locale, suit=suit_mark(named), name=suit_name(named, locale))
    return text


def wild_line(view: TwinPyramidView, names: Names, locale: object | None) -> str | None:
    wild = view.wild
    if wild is None:
        return None
    return t("twinpyramid.board.wild", locale, suit=suit_mark(wild.suit), name=suit_name(wild.suit, locale),
             player=names(wild.owner))


def pending_line(view: TwinPyramidView, names: Names, locale: object | None) -> str | None:
    p = view.pending
    if p is None:
        return None
    who = names(p.player)
    kind = p.kind
    if kind == "build":
        return t("twinpyramid.pending.build", locale, player=who, count=p.count)
    if kind == "name_suit":
        return t("twinpyramid.pending.name_suit", locale, player=who)
    if kind == "two_choice":
        return t("twinpyramid.pending.two_choice", locale, player=who)
    if kind == "order_three":
        return t("twinpyramid.pending.order_three" + own(view), locale, player=who)
    if kind == "forced_draw":
        if p.cause == "3":
            return t("twinpyramid.pending.forced_three", locale, player=who, by=names(view.three_player))
        return t("twinpyramid.pending.forced_two", locale, player=who, count=p.count)
    if kind == "deal_over":
        return t("twinpyramid.pending.deal_over", locale, player=who)
    return None


def seat_header(seat: SeatView, view: TwinPyramidView, names: Names, locale: object | None) -> str:
    me = seat.player
    acting = view.phase != "over" and me in view.to_act
    mark = "▶ " if acting else ""
    line = mark + t("twinpyramid.board.seat", locale, player=names(me), points=seat.points,
                    hand=seat.hand_count, burst=view.geometry.burst_size,
                    held=seat.held_count, stones=seat.stone_count)
    if seat.pile is not None:  # streams: per_seat
        line += " · " + t("twinpyramid.board.own_pile", locale, count=seat.pile)
    return with_mark(line, t("twinpyramid.board.start_mark", locale)) if me == view.start_player else line


def seat_mark(number: int) -> str:
    """The seat's number as the board picture prints it on the seat's panel: ``1️⃣``."""
    return SEAT_MARKS[number - 1] if 1 <= number <= len(SEAT_MARKS) else f"{number}."


def seat_lines(seat: SeatView, view: TwinPyramidView, names: Names, locale: object | None,
               number: int = 1, reveal: bool = True) -> list[str]:
    """A seat on the board: its numbers and the stones of its field pyramid, bottom row first (the deciding seat's
    two pyramids are drawn in the picture, every seat's in its alt text). ``reveal``: its revealed held cards
    (False where the deal's result names its whole hand: held and shown cards, as the deal's log line does; the
    held cards alone beside it would read as a different hand)."""
    lines = [seat_mark(number) + " " + seat_header(seat, view, names, locale)]
    placed = [stone for row in ROWS for rank in row if (stone := seat.stones.get(rank))]
    if placed:  # public, and in the picture only for the deciding seat
        lines.append(t("twinpyramid.board.field", locale, cards=cards(placed)))
    if seat.shown:  # public too: the picture's strip draws them as blocks, too small to read
        lines.append(t("twinpyramid.board.shown", locale, cards=cards(seat.shown)))
    if reveal and seat.revealed is not None:
        lines.append(t("twinpyramid.board.revealed", locale, cards=sorted_cards(seat.revealed)))
    return lines


# The turn count and the limit are shown only in the last tenth of the limit, where they matter (few deals get
# there: docs/rules/twinpyramid.md, "Turn limit").
TURN_LIMIT_SHOWN_FROM = 0.9


def limit_near(view: TwinPyramidView) -> bool:
    return view.phase not in ("deal_over", "over") and view.turn + 1 >= TURN_LIMIT_SHOWN_FROM * view.turn_limit


def turns_line(view: TwinPyramidView, locale: object | None) -> str:
    """The turn count and what the limit does: ends the deal unpaid, or at five and six seats settles it (D18)."""
    key = "twinpyramid.board.turns_settled" if view.settled_at_limit else "twinpyramid.board.turns"
    return t(key, locale, turn=view.turn + 1, limit=view.turn_limit)


def result_notes(view: TwinPyramidView, names: Names, locale: object | None) -> list[str]:
    """Under a finished game's result: why first place is shared, when it is. One deal: how it ended. A match of
    more deals: the totals over all of them (the last deal alone explains no tie that one of its payers or
    takers is in, as when every seat burst once)."""
    result, last = view.result, view.last_deal
    if result is None or last is None or len(result.ranking[0]) < 2:
        return []
    first = result.ranking[0]
    if view.deals_total > 1:
        return [t("twinpyramid.result.shared_total", locale, deals=view.deals_total,
                  players=join_list((names(p) for p in first), locale), points=result.scores.get(first[0], 0))]
    return [shared_first_line(last, names, locale)]


def board(view: TwinPyramidView, names: Names, locale: object | None) -> Board:
    """The board; a one-deal match does not number its deal, and the turn limit shows only once it is near."""
    if view.deals_total == 1:
        head = t("twinpyramid.board.single_deal", locale, player=names(view.start_player),
                 direction=direction_text(view, locale))
    else:
        head = t("twinpyramid.board.deal", locale, deal=view.deal, total=view.deals_total,
                 player=names(view.start_player), direction=direction_text(view, locale))
    lines = [head, top_line(view, locale)]
    if limit_near(view):
        lines.append(turns_line(view, locale))
    wild = wild_line(view, names, locale)
    if wild:
        lines.append(wild)
    line = pending_line(view, names, locale)
    if line:
        lines.append(line)
    last = view.last_deal
    told = None  # whose revealed hand the deal's result names already
    if last is not None and view.phase in ("deal_over", "over"):
        # the deal_ended event's lines; at the end without the payments (the log line above has them, the
        # ranking below the totals: the scores are shown once)
        lines += deal_result_lines(last, names, locale, payments=view.phase != "over")
        told = last.player if last.revealed else None
    for number, seat in enumerate(view.table, 1):
        lines += seat_lines(seat, view, names, locale, number, reveal=seat.player != told)
    result = view.result
    if result is not None:
        lines.append(t("common.final_ranking", locale))
        lines += ranking_lines(result.ranking, result.scores, names, locale)
        footer = t("common.game_over", locale)
    elif view.to_act:
        footer = t("twinpyramid.board.to_act", locale, player=names(view.to_act[0]))
    else:
        footer = ""
    return Board(t("game.twinpyramid.name", locale), lines, footer, legend=t("twinpyramid.board.legend", locale))


# ---- the hand view ------------------------------------------------------------------------------------------------
def draw_order(view: TwinPyramidView) -> list[str]:
    """Who draws the cards seen with a 3, in order: the other players in turn order, the 3's player last."""
    players = view.players
    me = view.viewer
    if me is None or me not in players:
        return []
    step = 1 if view.direction == "clockwise" else -1
    n = len(players)
    i = players.index(me)
    return [players[(i + step * k) % n] for k in range(1, n)] + [me]


def order_text(order: list[str], view: TwinPyramidView, names: Names, locale: object | None) -> str:
    """``7♠→Bot 1 · 9♥→you · K♦`` (top card first; a card nobody draws has no arrow). Per-seat (D19) the three
    are on the viewer's own pile, who draws the top one: ``7♠→you · 9♥ · K♦``."""
    drawers = draw_order(view)[-1:] if own(view) else draw_order(view)
    parts = []
    for i, c in enumerate(order):
        if i < len(drawers):
            who = t("twinpyramid.you", locale) if drawers[i] == view.viewer else names(drawers[i])
            parts.append(f"{card(c)}→{who}")
        else:
            parts.append(card(c))
    return " · ".join(parts)


def hand(view: TwinPyramidView, names: Names, locale: object | None) -> str:
    me = view.viewer
    held = view.hand or []  # a spectator holds nothing
    lines = [t("twinpyramid.hand.held", locale, cards=sorted_cards(held), count=len(held),
               limit=view.geometry.held_limit)]
    lines += seat_block(view, seat_of(view, me), len(held), locale)
    lines.append(top_line(view, locale))
    if view.phase not in ("deal_over", "over"):
        lines.append(turns_line(view, locale))
    wild = wild_line(view, names, locale)
    if wild:
        lines.append(wild)
    if view.result is not None:
        lines.append(t("common.game_over", locale))
        return "\n".join(lines)
    last = view.last_deal
    if view.phase == "deal_over" and last is not None:
        # the deal_ended event's lines, with the payments (the game is not over: that returned above)
        lines += deal_result_lines(last, names, locale)
    if me not in view.to_act:
        line = pending_line(view, names, locale)
        waiting_for = view.to_act[0] if view.to_act else None
        lines.append(line or t("twinpyramid.hand.waiting", locale, player=names(waiting_for)))
        return "\n".join(lines)
    decision = decision_line(view, names, locale)
    if decision is not None:
        lines.append(decision)
    if view.peek and (view.pending is None or view.pending.kind != "order_three"):
        lines.append(t("twinpyramid.hand.peek" + own(view), locale, cards=cards(view.peek)))
    return "\n".join(lines)


def seat_block(view: TwinPyramidView, seat: SeatView | None, held: int, locale: object | None) -> list[str]:
    """The hand view's lines about the viewer's own seat: shown and revealed cards, hand size, pyramid."""
    lines = [t("twinpyramid.hand.shown", locale, cards=cards(seat.shown if seat else []))]
    if seat is not None and seat.revealed is not None:
        lines.append(t("twinpyramid.hand.revealed", locale, cards=sorted_cards(seat.revealed)))
    lines.append(t("twinpyramid.hand.size", locale, count=seat.hand_count if seat else held,
                   burst=view.geometry.burst_size, points=seat.points if seat else 0))
    lines.append(t("twinpyramid.hand.pyramid", locale, count=seat.stone_count if seat else 0))
    lines.append(pyramid_block(seat.stones if seat else {}))
    return lines


def decision_line(view: TwinPyramidView, names: Names, locale: object | None) -> str | None:
    """What the viewer, who acts now, is to decide (the hand view's prompt)."""
    p = view.pending
    left = view.rearranges_left or 0
    if view.arranging:
        return t("twinpyramid.hand.arranging", locale, left=left)
    done = "" if left else "_arranged"  # no step left: the prompt offers no rearranging
    if p is None:
        return t("twinpyramid.hand.turn" + done, locale, limit=view.geometry.rearrange_limit)
    match p.kind:
        case "build":
            return t("twinpyramid.hand.build", locale, count=p.count)
        case "name_suit":
            return t("twinpyramid.hand.name_suit", locale)
        case "two_choice":
            return t("twinpyramid.hand.two_choice", locale, player=names(next_player(view)))
        case "order_three":
            return t("twinpyramid.hand.order_three" + own(view), locale, cards=cards(view.peek or []))
        case "forced_draw" if p.cause == "3":
            return t("twinpyramid.hand.forced_three" + done, locale, player=names(view.three_player),
                     limit=view.geometry.rearrange_limit)
        case "forced_draw":
            return t("twinpyramid.hand.forced_two" + done, locale, count=p.count, limit=view.geometry.rearrange_limit)
        case "deal_over":
            return t("twinpyramid.hand.deal_over", locale, deal=view.deal + 1, total=view.deals_total)
    return None


def next_player(view: TwinPyramidView) -> str | None:
    order = draw_order(view)
    return order[0] if order else None


# ---- actions as labels (the hand view's buttons and selects) --------------------------------------------------------
def effect_hint(card_id: str, locale: object | None) -> str:
    """What playing a card does, in a few words (empty for a plain card)."""
    r = rank_of(card_id)
    if r is None:
        return t("twinpyramid.effect.joker", locale)
    if r in BUILD_LIMIT:
        return t("twinpyramid.effect.build", locale, count=BUILD_LIMIT[r])
    if r in ("2", "3", "7", "8", "9", "10"):
        return t(f"twinpyramid.effect.r{r}", locale)
    return ""


def change_label(c: str, target: str, owner: str | None, names: Names, locale: object | None) -> str:
    if owner is None and c.startswith("X"):
        return t("twinpyramid.action.wild_change", locale, card=card(c), target=card(target))
    if owner is None:
        return t("twinpyramid.action.change_top", locale, card=card(c), target=card(target))
    return t("twinpyramid.action.change_shown", locale, card=card(c), target=card(target), player=names(owner))


def error_field(key: str, value: Any, locale: object | None) -> Any:
    """Readable error placeholders: card ids as marks, actions by name."""
    if key in ("card", "target", "stone", "held", "shown") and isinstance(value, str) and value:
        return card(value)
    if key == "action" and value in ACTIONS:
        return t(f"twinpyramid.action_name.{value}", locale)
    return value


# ---- the board picture ----------------------------------------------------------------------------------------------
def image(view: TwinPyramidView, names: Names, locale: object | None) -> bytes:
    """The board picture (PNG): the deciding seat's field and hand pyramids, under its name. Called off the event
    loop."""
    from .twinpyramid_image import render_png

    return render_png(view, names.plain())


def review_image(view: TwinPyramidView, names: Names, locale: object | None, moved: str | None = None) -> bytes:
    """The picture of a moment looked back at (the viewer, the animated summary): the pyramids of the seat whose
    move led to it (``moved``; else the deciding seat's), as the words beside it tell that move, and every seat's at
    a glance under them, so that a frame follows from the one before whoever moved."""
    from .twinpyramid_image import render_review_png

    return render_review_png(view, names.plain(), moved)


def image_alt(view: TwinPyramidView, names: Names, locale: object | None) -> str:
    """The picture's alt text: each seat's two pyramids in words."""
    lines = [t("twinpyramid.image_alt", locale)]
    for number, seat in enumerate(view.table, 1):
        lines.append(t("twinpyramid.image_alt_seat", locale, mark=seat_mark(number), player=names(seat.player),
                       field=pyramid_inline(seat.stones), held=seat.held_count, shown=cards(seat.shown)))
    return "\n".join(lines)


__all__ = ["board", "hand", "event", "error_field", "card", "cards", "pyramid_lines", "order_text", "image",
           "image_alt", "review_image", "caption_scores", "hand_cards"]


def caption_scores(view: TwinPyramidView, locale: object | None) -> dict[str, str]:
    """Each seat's points of the match so far, with its unit (the animated summary's caption)."""
    return {seat.player: t("twinpyramid.caption.score", locale, count=seat.points) for seat in view.table}


def hand_cards(view: TwinPyramidView) -> list[str]:
    """A seat's hand as the viewer shows it: its held cards (or its revealed hand) and its shown cards."""
    seat = seat_of(view, view.viewer)
    if seat is None:
        return list(view.hand or [])
    return [*(seat.revealed or view.hand or []), *seat.shown]
