"""Twin Pyramid events as text: one small formatter per event type, and the result of a deal."""
from __future__ import annotations

from typing import Any

from engines import Event

from ..i18n import join_list, sentences, t
from . import Names
from .event_table import EventFormatter, format_event
from .twinpyramid_text import card, cards, sorted_cards, step_label, suit_mark, suit_name


def deal_result_lines(outcome: dict[str, Any], names: Names, locale: object | None,
                      payments: bool = True) -> list[str]:
    reason = outcome.get("reason")
    who = names(outcome.get("player"))
    key = {"complete": "twinpyramid.result.complete", "burst": "twinpyramid.result.burst",
           "turn_limit": "twinpyramid.result.turn_limit"}.get(reason or "", "twinpyramid.result.stalled")
    paid = outcome.get("payments") or {}
    if outcome.get("player") is None and any(paid.values()):  # no winner, settled by the stones (D18)
        key += "_settled"
    lines = [t(key, locale, number=outcome.get("number", 0), player=who, limit=outcome.get("turn_limit", 0))]
    if outcome.get("revealed"):
        lines.append(t("twinpyramid.result.revealed", locale, player=who, cards=sorted_cards(outcome["revealed"])))
    if payments and any(paid.values()):
        lines.append(t("twinpyramid.result.payments", locale, payments=join_list(
            (f"{names(p)} {amount:+d}" for p, amount in paid.items()), locale)))
    return lines


def shared_first_line(outcome: dict[str, Any], names: Names, locale: object | None) -> str:
    """Why the final ranking's first place is shared: how the last deal ended (a burst pays each other player the
    same, so they tie), with who paid or who was paid."""
    player = outcome.get("player")
    paid = outcome.get("payments") or {}
    others = [amount for p, amount in paid.items() if p != player]
    reason = outcome.get("reason")
    if reason in ("burst", "complete") and player is not None and others:
        key = "twinpyramid.result.shared_burst" if reason == "burst" else "twinpyramid.result.shared_complete"
        return t(key, locale, player=names(player), amount=abs(others[0]))
    if any(paid.values()):  # settled by the stones (D18): the tied seats had as many stones
        return t("twinpyramid.result.shared_settled", locale)
    return t("twinpyramid.result.shared_unpaid", locale)


# ---- events ---------------------------------------------------------------------------------------------------------
def _deal_started(d: dict[str, Any], who: str, names: Names, locale: object | None) -> str | None:
    flipped = d.get("flipped", [])
    total = d.get("deals_total", 1)
    if total == 1:  # a one-deal match does not number its deal
        text = t("twinpyramid.event.single_deal_started", locale, player=names(d.get("start_player")),
                 top=card(d.get("top", "")))
    else:
        text = t("twinpyramid.event.deal_started", locale, deal=d.get("deal", 1), total=total,
                 player=names(d.get("start_player")), top=card(d.get("top", "")))
    if len(flipped) > 1:
        text = sentences([text, t("twinpyramid.event.flipped", locale, cards=cards(flipped))], locale)
    return text


def _dealt(d: dict[str, Any], who: str, names: Names, locale: object | None) -> str | None:
    return t("twinpyramid.event.dealt", locale, cards=sorted_cards(d.get("cards", [])))


def _rearranged(d: dict[str, Any], who: str, names: Names, locale: object | None) -> str | None:
    kind = d.get("kind")
    if kind == "swap_stone":
        return t("twinpyramid.event.rearranged_stone", locale, player=who, slot=d.get("slot", "?"),
                 stone=card(d.get("stone", "")), card=card(d.get("to_shown", "")))
    if kind == "to_held":
        return t("twinpyramid.event.rearranged_to_held", locale, player=who)
    key = "twinpyramid.event.rearranged_swap" if kind == "swap_shown" else "twinpyramid.event.rearranged_move"
    return t(key, locale, player=who, card=card(d.get("to_shown", "")))


def _rearranged_detail(d: dict[str, Any], who: str, names: Names, locale: object | None) -> str | None:
    step = {k: v for k, v in d.items() if k != "player"}
    return t("twinpyramid.event.rearranged_detail", locale, step=step_label(step, locale))


def _played(d: dict[str, Any], who: str, names: Names, locale: object | None) -> str | None:
    key = "twinpyramid.event.played_shown" if d.get("from") == "shown" else "twinpyramid.event.played"
    return t(key, locale, player=who, card=card(d.get("card", "")))


def _nothing_to_build(d: dict[str, Any], who: str, names: Names, locale: object | None) -> str | None:
    return t("twinpyramid.event.nothing_to_build", locale, player=who)


def _effect_suppressed(d: dict[str, Any], who: str, names: Names, locale: object | None) -> str | None:
    return t("twinpyramid.event.effect_suppressed", locale, player=who, card=card(d.get("card", "")))


def _two_taken(d: dict[str, Any], who: str, names: Names, locale: object | None) -> str | None:
    return t("twinpyramid.event.two_taken", locale, player=who)


def _two_passed(d: dict[str, Any], who: str, names: Names, locale: object | None) -> str | None:
    return t("twinpyramid.event.two_passed", locale, player=who, to=names(d.get("to")))


def _three_seen(d: dict[str, Any], who: str, names: Names, locale: object | None) -> str | None:
    return t("twinpyramid.event.three_seen", locale, cards=cards(d.get("cards", [])))


def _three_ordered(d: dict[str, Any], who: str, names: Names, locale: object | None) -> str | None:
    return t("twinpyramid.event.three_ordered", locale, player=who)


def _skipped(d: dict[str, Any], who: str, names: Names, locale: object | None) -> str | None:
    return t("twinpyramid.event.skipped", locale, player=who)


def _suit_named(d: dict[str, Any], who: str, names: Names, locale: object | None) -> str | None:
    return t("twinpyramid.event.suit_named", locale, player=who, suit=suit_mark(d.get("suit")),
             name=suit_name(d.get("suit", ""), locale))


def _wild_ended(d: dict[str, Any], who: str, names: Names, locale: object | None) -> str | None:
    return t("twinpyramid.event.wild_ended", locale, player=who, suit=suit_mark(d.get("suit")))


def _reversed(d: dict[str, Any], who: str, names: Names, locale: object | None) -> str | None:
    direction = "cw" if d.get("direction") == 1 else "ccw"
    return t("twinpyramid.event.reversed", locale, player=who,
             direction=t(f"twinpyramid.direction.{direction}", locale))


def _stone_broken(d: dict[str, Any], who: str, names: Names, locale: object | None) -> str | None:
    return t("twinpyramid.event.stone_broken", locale, player=who, card=card(d.get("card", "")))


def _break_missed(d: dict[str, Any], who: str, names: Names, locale: object | None) -> str | None:
    return t("twinpyramid.event.break_missed", locale, player=who)


def _changed(d: dict[str, Any], who: str, names: Names, locale: object | None) -> str | None:
    mode = d.get("mode")
    fields = {"player": who, "card": card(d.get("card", "")), "target": card(d.get("target", "")),
              "owner": names(d.get("owner"))}
    held = "_held" if d.get("into") == "held" else ""
    if mode == "wild_change":
        return t("twinpyramid.event.wild_change" + held, locale, **fields)
    key = "twinpyramid.event.change_top" if d.get("owner") is None else "twinpyramid.event.change_shown"
    return t(key + held, locale, **fields)


def _changed_card(d: dict[str, Any], who: str, names: Names, locale: object | None) -> str | None:
    return t("twinpyramid.event.changed_card", locale, card=card(d.get("card", "")))


def _passed(d: dict[str, Any], who: str, names: Names, locale: object | None) -> str | None:
    return t("twinpyramid.event.passed", locale, player=who)


def _stone_placed(d: dict[str, Any], who: str, names: Names, locale: object | None) -> str | None:
    return t("twinpyramid.event.stone_placed", locale, player=who, card=card(d.get("card", "")),
             slot=d.get("slot", "?"))


def _drew(d: dict[str, Any], who: str, names: Names, locale: object | None) -> str | None:
    if d.get("zone") == "shown":
        return t("twinpyramid.event.drew_shown", locale, player=who, card=card(d.get("card", "")))
    return t("twinpyramid.event.drew_held", locale, player=who)


def _drew_card(d: dict[str, Any], who: str, names: Names, locale: object | None) -> str | None:
    return t("twinpyramid.event.drew_card", locale, card=card(d.get("card", "")))


def _reshuffled(d: dict[str, Any], who: str, names: Names, locale: object | None) -> str | None:
    if "own_pile" in d:  # streams: per_seat (D19): the drawer's own pile was rebuilt
        return t("twinpyramid.event.reshuffled_own", locale, player=who, count=d["own_pile"])
    return t("twinpyramid.event.reshuffled", locale, count=d.get("draw_count", 0))


def _forced_draw_skipped(d: dict[str, Any], who: str, names: Names, locale: object | None) -> str | None:
    return t("twinpyramid.event.forced_draw_skipped", locale, player=who)


def _deal_ended(d: dict[str, Any], who: str, names: Names, locale: object | None) -> str | None:
    lines = deal_result_lines(d, names, locale)
    points = d.get("points") or {}
    if points and not d.get("last"):  # after the last deal the final board's ranking has the totals
        lines.append(t("twinpyramid.event.scores", locale, scores=join_list(
            (f"{names(p)} {v}" for p, v in sorted(points.items(), key=lambda kv: -kv[1])), locale)))
    return "\n".join(lines)


def _match_over(d: dict[str, Any], who: str, names: Names, locale: object | None) -> str | None:
    """The end; the ranking is on the final board this line is written above (shown once)."""
    return t("twinpyramid.event.match_over", locale)


_EVENTS: dict[str, EventFormatter] = {
    "deal_started": _deal_started,
    "dealt": _dealt,
    "rearranged": _rearranged,
    "rearranged_detail": _rearranged_detail,
    "played": _played,
    "nothing_to_build": _nothing_to_build,
    "effect_suppressed": _effect_suppressed,
    "two_taken": _two_taken,
    "two_passed": _two_passed,
    "three_seen": _three_seen,
    "three_ordered": _three_ordered,
    "skipped": _skipped,
    "suit_named": _suit_named,
    "wild_ended": _wild_ended,
    "reversed": _reversed,
    "stone_broken": _stone_broken,
    "break_missed": _break_missed,
    "changed": _changed,
    "changed_card": _changed_card,
    "passed": _passed,
    "stone_placed": _stone_placed,
    "drew": _drew,
    "drew_card": _drew_card,
    "reshuffled": _reshuffled,
    "forced_draw_skipped": _forced_draw_skipped,
    # "turn" has no line: the board says whose turn it is, and every move's line names its player
    "deal_ended": _deal_ended,
    "match_over": _match_over,
}


def event(ev: Event, names: Names, locale: object | None) -> str | None:
    return format_event(_EVENTS, ev, names, locale)
