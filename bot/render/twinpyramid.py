"""Twin Pyramid as text: cards as rank + suit (``7♠``, ``10♥``, ``🃏1`` a joker), a field pyramid as a small
pyramid of slots in a code block (a filled slot shows its stone, an empty one its rank between dots: ``·7·``) in the
hand view, each seat's held count, hand size against the burst at 10, and points on the board — whose pyramids are
the board picture (``twinpyramid_image``), described in words by its alt text (``image_alt``).

Everything here is text from views only (the spectator view for the board, the player's own view for the hand).
"""
from __future__ import annotations

from typing import Any

from engines import Event
from engines.twinpyramid import BUILD_LIMIT, RANKS, SUITS, rank_of
from engines.twinpyramid import PYRAMID_ROWS as ROWS  # bottom row first (the view's geometry)

from ..i18n import t
from . import Board, Names, ranking_lines

SUIT_MARKS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
JOKER = "🃏"
ACTIONS = ("rearrange", "rearrange_step", "swap_shown", "to_shown", "to_held", "swap_stone", "play", "draw", "change", "pass",
           "place", "end_build", "name_suit", "take_two", "pass_two", "order_three", "forced_draw", "next_deal")
CELL = 3  # characters per pyramid slot
SEAT_MARKS = ("1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣")


# ---- cards ------------------------------------------------------------------------------------------------------
def card(card_id: str) -> str:
    """``7S`` → ``7♠``, ``10H`` → ``10♥``, ``X1`` → ``🃏1`` (the two jokers told apart, so a public joker never
    looks like the one a player holds)."""
    if not card_id:
        return "?"
    if card_id.startswith("X"):
        return JOKER + card_id[1:]
    return card_id[:-1] + SUIT_MARKS.get(card_id[-1], card_id[-1])


def cards(ids: list[str]) -> str:
    return " ".join(card(c) for c in ids) or "—"


def sort_key(card_id: str) -> tuple[int, int]:
    r = rank_of(card_id)
    if r is None:
        return (99, 0)
    return (RANKS.index(r) if r in RANKS else 50, SUITS.index(card_id[-1]) if card_id[-1] in SUITS else 9)


def sorted_cards(ids: list[str]) -> str:
    return cards(sorted(ids, key=sort_key))


def suit_mark(suit: str | None) -> str:
    return SUIT_MARKS.get(suit or "", "?")


def suit_name(suit: str, locale: object | None) -> str:
    return t(f"twinpyramid.suit.{suit}", locale) if suit in SUITS else "?"


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
def seat_of(view: dict[str, Any], player: str | None) -> dict[str, Any]:
    return next((s for s in view.get("table", []) if s["player"] == player), {})


def direction_text(view: dict[str, Any], locale: object | None) -> str:
    return t(f"twinpyramid.direction.{'cw' if view.get('direction') == 'clockwise' else 'ccw'}", locale)


def top_line(view: dict[str, Any], locale: object | None) -> str:
    text = t("twinpyramid.board.top", locale, card=card(view["top"]), draw=view.get("draw_count", 0),
             discard=view.get("discard_count", 0))
    named = view.get("named_suit")
    if named and not view.get("wild"):
        text += " " + t("twinpyramid.board.named_suit", locale, suit=suit_mark(named), name=suit_name(named, locale))
    return text


def wild_line(view: dict[str, Any], names: Names, locale: object | None) -> str | None:
    wild = view.get("wild")
    if not wild:
        return None
    return t("twinpyramid.board.wild", locale, suit=suit_mark(wild["suit"]), name=suit_name(wild["suit"], locale),
             player=names(wild["owner"]))


def pending_line(view: dict[str, Any], names: Names, locale: object | None) -> str | None:
    p = view.get("pending")
    if not p:
        return None
    who = names(p["player"])
    kind = p["kind"]
    if kind == "build":
        return t("twinpyramid.pending.build", locale, player=who, count=p.get("count", 0))
    if kind == "name_suit":
        return t("twinpyramid.pending.name_suit", locale, player=who)
    if kind == "two_choice":
        return t("twinpyramid.pending.two_choice", locale, player=who)
    if kind == "order_three":
        return t("twinpyramid.pending.order_three", locale, player=who)
    if kind == "forced_draw":
        if p.get("cause") == "3":
            return t("twinpyramid.pending.forced_three", locale, player=who, by=names(view.get("three_player")))
        return t("twinpyramid.pending.forced_two", locale, player=who, count=p.get("count", 2))
    if kind == "deal_over":
        return t("twinpyramid.pending.deal_over", locale, player=who)
    return None


def seat_header(seat: dict[str, Any], view: dict[str, Any], names: Names, locale: object | None) -> str:
    me = seat["player"]
    acting = view.get("phase") != "over" and me in view.get("to_act", [])
    mark = "▶ " if acting else ""
    start = " " + t("twinpyramid.board.start_mark", locale) if me == view.get("start_player") else ""
    return mark + t("twinpyramid.board.seat", locale, player=names(me), points=seat["points"],
                    hand=seat["hand_count"], burst=view.get("geometry", {}).get("burst_size", 10),
                    held=seat["held_count"], stones=seat["stone_count"]) + start


def seat_mark(number: int) -> str:
    """The seat's number as the board picture prints it on the seat's panel: ``1️⃣``."""
    return SEAT_MARKS[number - 1] if 1 <= number <= len(SEAT_MARKS) else f"{number}."


def seat_lines(seat: dict[str, Any], view: dict[str, Any], names: Names, locale: object | None,
               number: int = 1) -> list[str]:
    """A seat on the board: its numbers; its two pyramids are in the picture (and in its alt text)."""
    lines = [seat_mark(number) + " " + seat_header(seat, view, names, locale)]
    if seat.get("revealed") is not None:
        lines.append(t("twinpyramid.board.revealed", locale, cards=sorted_cards(seat["revealed"])))
    return lines


def deal_result_lines(outcome: dict[str, Any], names: Names, locale: object | None) -> list[str]:
    reason = outcome.get("reason")
    who = names(outcome.get("player"))
    key = {"complete": "twinpyramid.result.complete", "burst": "twinpyramid.result.burst",
           "turn_limit": "twinpyramid.result.turn_limit"}.get(reason or "", "twinpyramid.result.stalled")
    lines = [t(key, locale, number=outcome.get("number", 0), player=who, limit=outcome.get("turn_limit", 0))]
    if outcome.get("revealed"):
        lines.append(t("twinpyramid.result.revealed", locale, player=who, cards=sorted_cards(outcome["revealed"])))
    payments = outcome.get("payments") or {}
    if any(payments.values()):
        lines.append(t("twinpyramid.result.payments", locale, payments=", ".join(
            f"{names(p)} {amount:+d}" for p, amount in payments.items())))
    return lines


def board(view: dict[str, Any], names: Names, locale: object | None) -> Board:
    over = view.get("phase") == "over"
    lines = [t("twinpyramid.board.deal", locale, deal=view.get("deal", 1), total=view.get("deals_total", 1),
               player=names(view.get("start_player")), direction=direction_text(view, locale))]
    lines.append(top_line(view, locale))
    if "turn_limit" in view and view.get("phase") not in ("deal_over", "over"):
        lines.append(t("twinpyramid.board.turns", locale, turn=view.get("turn", 0) + 1, limit=view["turn_limit"]))
    wild = wild_line(view, names, locale)
    if wild:
        lines.append(wild)
    line = pending_line(view, names, locale)
    if line:
        lines.append(line)
    last = view.get("last_deal")
    if last and view.get("phase") in ("deal_over", "over"):
        lines += deal_result_lines(last, names, locale)
    for number, seat in enumerate(view.get("table", []), 1):
        lines += seat_lines(seat, view, names, locale, number)
    result = view.get("result")
    if result:
        lines.append(t("common.final_ranking", locale))
        lines += ranking_lines(result["ranking"], result["scores"], names, locale)
        footer = t("common.game_over", locale)
    elif view.get("to_act"):
        footer = t("twinpyramid.board.to_act", locale, player=names(view["to_act"][0]))
    else:
        footer = ""
    if not over:
        footer = (footer + " · " if footer else "") + t("twinpyramid.board.legend", locale)
    return Board(t("game.twinpyramid.name", locale), lines, footer)


# ---- the hand view ------------------------------------------------------------------------------------------------
def draw_order(view: dict[str, Any]) -> list[str]:
    """Who draws the cards seen with a 3, in order: the other players in turn order, the 3's player last."""
    players = view.get("players", [])
    me = view.get("me")
    if me not in players:
        return []
    step = 1 if view.get("direction") == "clockwise" else -1
    n = len(players)
    i = players.index(me)
    return [players[(i + step * k) % n] for k in range(1, n)] + [me]


def order_text(order: list[str], view: dict[str, Any], names: Names, locale: object | None) -> str:
    """``7♠→Bot 1 · 9♥→you · K♦`` (top card first; a card nobody draws has no arrow)."""
    drawers = draw_order(view)
    parts = []
    for i, c in enumerate(order):
        if i < len(drawers):
            who = t("twinpyramid.you", locale) if drawers[i] == view.get("me") else names(drawers[i])
            parts.append(f"{card(c)}→{who}")
        else:
            parts.append(card(c))
    return " · ".join(parts)


def hand(view: dict[str, Any], names: Names, locale: object | None) -> str:
    me = view.get("me")
    seat = seat_of(view, me)
    held = view.get("hand", [])
    lines = [t("twinpyramid.hand.held", locale, cards=sorted_cards(held), count=len(held),
               limit=view.get("geometry", {}).get("held_limit", 4))]
    lines.append(t("twinpyramid.hand.shown", locale, cards=cards(seat.get("shown", []))))
    if seat.get("revealed") is not None:
        lines.append(t("twinpyramid.hand.revealed", locale, cards=sorted_cards(seat["revealed"])))
    lines.append(t("twinpyramid.hand.size", locale, count=seat.get("hand_count", len(held)),
                   burst=view.get("geometry", {}).get("burst_size", 10), points=seat.get("points", 0)))
    lines.append(t("twinpyramid.hand.pyramid", locale, count=seat.get("stone_count", 0)))
    lines.append(pyramid_block(seat.get("stones", {})))
    lines.append(top_line(view, locale))
    if "turn_limit" in view and view.get("phase") not in ("deal_over", "over"):
        lines.append(t("twinpyramid.board.turns", locale, turn=view.get("turn", 0) + 1, limit=view["turn_limit"]))
    wild = wild_line(view, names, locale)
    if wild:
        lines.append(wild)
    if view.get("result"):
        lines.append(t("common.game_over", locale))
        return "\n".join(lines)
    p: dict[str, Any] = view.get("pending") or {}  # {}: no pending decision
    last = view.get("last_deal")
    if view.get("phase") == "deal_over" and last:
        lines += deal_result_lines(last, names, locale)
    if me not in view.get("to_act", []):
        line = pending_line(view, names, locale)
        lines.append(line or t("twinpyramid.hand.waiting", locale, player=names((view.get("to_act") or [None])[0])))
        return "\n".join(lines)
    left = view.get("rearranges_left", 0)
    kind = p["kind"] if p else "turn"
    if view.get("arranging"):
        lines.append(t("twinpyramid.hand.arranging", locale, left=left))
    elif kind == "turn":
        lines.append(t("twinpyramid.hand.turn", locale, left=left))
    elif kind == "build":
        lines.append(t("twinpyramid.hand.build", locale, count=p.get("count", 0)))
    elif kind == "name_suit":
        lines.append(t("twinpyramid.hand.name_suit", locale))
    elif kind == "two_choice":
        lines.append(t("twinpyramid.hand.two_choice", locale, player=names(next_player(view))))
    elif kind == "order_three":
        lines.append(t("twinpyramid.hand.order_three", locale, cards=cards(view.get("peek", []))))
    elif kind == "forced_draw":
        if p.get("cause") == "3":
            lines.append(t("twinpyramid.hand.forced_three", locale, player=names(view.get("three_player")),
                           left=left))
        else:
            lines.append(t("twinpyramid.hand.forced_two", locale, count=p.get("count", 2), left=left))
    elif kind == "deal_over":
        lines.append(t("twinpyramid.hand.deal_over", locale, deal=view.get("deal", 1) + 1,
                       total=view.get("deals_total", 1)))
    if view.get("peek") and kind != "order_three":
        lines.append(t("twinpyramid.hand.peek", locale, cards=cards(view["peek"])))
    return "\n".join(lines)


def next_player(view: dict[str, Any]) -> str | None:
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


def step_label(step: dict[str, Any], locale: object | None) -> str:
    kind = step.get("type")
    if kind == "swap_shown":
        return t("twinpyramid.step.swap_shown", locale, held=card(step["held"]), shown=card(step["shown"]))
    if kind == "to_shown":
        return t("twinpyramid.step.to_shown", locale, card=card(step["card"]))
    if kind == "to_held":
        return t("twinpyramid.step.to_held", locale, card=card(step["card"]))
    if kind == "swap_stone":
        return t("twinpyramid.step.swap_stone", locale, card=card(step["card"]), stone=card(step["stone"]))
    return "?"


# ---- events ---------------------------------------------------------------------------------------------------------
def event(ev: Event, names: Names, locale: object | None) -> str | None:
    d = ev.data
    who = names(d.get("player"))
    match ev.type:
        case "deal_started":
            flipped = d.get("flipped", [])
            text = t("twinpyramid.event.deal_started", locale, deal=d.get("deal", 1), total=d.get("deals_total", 1),
                     player=names(d.get("start_player")), top=card(d.get("top", "")))
            if len(flipped) > 1:
                text += " " + t("twinpyramid.event.flipped", locale, cards=cards(flipped))
            return text
        case "dealt":
            return t("twinpyramid.event.dealt", locale, cards=sorted_cards(d.get("cards", [])))
        case "rearranged":
            kind = d.get("kind")
            if kind == "swap_stone":
                return t("twinpyramid.event.rearranged_stone", locale, player=who, slot=d.get("slot", "?"),
                         stone=card(d.get("stone", "")), card=card(d.get("to_shown", "")))
            if kind == "to_held":
                return t("twinpyramid.event.rearranged_to_held", locale, player=who)
            key = "twinpyramid.event.rearranged_swap" if kind == "swap_shown" else "twinpyramid.event.rearranged_move"
            return t(key, locale, player=who, card=card(d.get("to_shown", "")))
        case "rearranged_detail":
            step = {k: v for k, v in d.items() if k != "player"}
            return t("twinpyramid.event.rearranged_detail", locale, step=step_label(step, locale))
        case "played":
            key = "twinpyramid.event.played_shown" if d.get("from") == "shown" else "twinpyramid.event.played"
            return t(key, locale, player=who, card=card(d.get("card", "")))
        case "nothing_to_build":
            return t("twinpyramid.event.nothing_to_build", locale, player=who)
        case "effect_suppressed":
            return t("twinpyramid.event.effect_suppressed", locale, player=who, card=card(d.get("card", "")))
        case "two_taken":
            return t("twinpyramid.event.two_taken", locale, player=who)
        case "two_passed":
            return t("twinpyramid.event.two_passed", locale, player=who, to=names(d.get("to")))
        case "three_seen":
            return t("twinpyramid.event.three_seen", locale, cards=cards(d.get("cards", [])))
        case "three_ordered":
            return t("twinpyramid.event.three_ordered", locale, player=who)
        case "skipped":
            return t("twinpyramid.event.skipped", locale, player=who)
        case "suit_named":
            return t("twinpyramid.event.suit_named", locale, player=who, suit=suit_mark(d.get("suit")),
                     name=suit_name(d.get("suit", ""), locale))
        case "wild_ended":
            return t("twinpyramid.event.wild_ended", locale, player=who, suit=suit_mark(d.get("suit")))
        case "reversed":
            direction = "cw" if d.get("direction") == 1 else "ccw"
            return t("twinpyramid.event.reversed", locale, player=who,
                     direction=t(f"twinpyramid.direction.{direction}", locale))
        case "stone_broken":
            return t("twinpyramid.event.stone_broken", locale, player=who, card=card(d.get("card", "")))
        case "break_missed":
            return t("twinpyramid.event.break_missed", locale, player=who)
        case "changed":
            mode = d.get("mode")
            fields = {"player": who, "card": card(d.get("card", "")), "target": card(d.get("target", "")),
                      "owner": names(d.get("owner"))}
            held = "_held" if d.get("into") == "held" else ""
            if mode == "wild_change":
                return t("twinpyramid.event.wild_change" + held, locale, **fields)
            key = "twinpyramid.event.change_top" if d.get("owner") is None else "twinpyramid.event.change_shown"
            return t(key + held, locale, **fields)
        case "changed_card":
            return t("twinpyramid.event.changed_card", locale, card=card(d.get("card", "")))
        case "passed":
            return t("twinpyramid.event.passed", locale, player=who)
        case "stone_placed":
            return t("twinpyramid.event.stone_placed", locale, player=who, card=card(d.get("card", "")),
                     slot=d.get("slot", "?"))
        case "drew":
            if d.get("zone") == "shown":
                return t("twinpyramid.event.drew_shown", locale, player=who, card=card(d.get("card", "")))
            return t("twinpyramid.event.drew_held", locale, player=who)
        case "drew_card":
            return t("twinpyramid.event.drew_card", locale, card=card(d.get("card", "")))
        case "reshuffled":
            return t("twinpyramid.event.reshuffled", locale, count=d.get("draw_count", 0))
        case "forced_draw_skipped":
            return t("twinpyramid.event.forced_draw_skipped", locale, player=who)
        case "turn":
            return t("twinpyramid.event.turn", locale, player=who)
        case "deal_ended":
            lines = deal_result_lines(d, names, locale)
            points = d.get("points") or {}
            if points:
                lines.append(t("twinpyramid.event.scores", locale, scores=", ".join(
                    f"{names(p)} {v}" for p, v in sorted(points.items(), key=lambda kv: -kv[1]))))
            return "\n".join(lines)
        case "match_over":
            lines = [t("twinpyramid.event.match_over", locale)]
            lines += ranking_lines(d.get("ranking", []), d.get("scores", {}), names, locale)
            return "\n".join(lines)
    return None


def error_field(key: str, value: Any, locale: object | None) -> Any:
    """Readable error placeholders: card ids as marks, actions by name."""
    if key in ("card", "target", "stone", "held", "shown") and isinstance(value, str) and value:
        return card(value)
    if key == "action" and value in ACTIONS:
        return t(f"twinpyramid.action_name.{value}", locale)
    return value


# ---- the board picture ----------------------------------------------------------------------------------------------
def image(view: dict[str, Any], names: Names, locale: object | None) -> bytes:
    """The board picture (PNG): every seat's field and hand pyramids. Called off the event loop."""
    from .twinpyramid_image import render_png

    return render_png(view)


def image_alt(view: dict[str, Any], names: Names, locale: object | None) -> str:
    """The picture's alt text: each seat's two pyramids in words."""
    lines = [t("twinpyramid.image_alt", locale)]
    for number, seat in enumerate(view.get("table", []), 1):
        lines.append(t("twinpyramid.image_alt_seat", locale, mark=seat_mark(number), player=names(seat["player"]),
                       field=pyramid_inline(seat["stones"]), held=seat["held_count"], shown=cards(seat["shown"])))
    return "\n".join(lines)


__all__ = ["board", "hand", "event", "error_field", "card", "cards", "pyramid_lines", "order_text", "image",
           "image_alt"]
