"""Twin Pyramid events as text: one small formatter per event type, and the result of a deal."""
from __future__ import annotations

from engines import Event
from engines.twinpyramid.actions import SwapShown, SwapStone, ToHeld, ToShown
from engines.twinpyramid.view import LastDeal

from ..i18n import join_list, sentences, t
from . import Names
from . import twinpyramid_event_shapes as E
from .event_table import EventText, On, format_event
from .twinpyramid_text import card, cards, sorted_cards, step_label, suit_mark, suit_name


def deal_result_lines(outcome: LastDeal, names: Names, locale: object | None, payments: bool = True) -> list[str]:
    who = names(outcome.player)
    key = {"complete": "twinpyramid.result.complete", "burst": "twinpyramid.result.burst",
           "turn_limit": "twinpyramid.result.turn_limit"}.get(outcome.reason, "twinpyramid.result.stalled")
    paid = outcome.payments
    if outcome.player is None and any(paid.values()):  # no winner, settled by the stones (D18)
        key += "_settled"
    lines = [t(key, locale, number=outcome.number, player=who, limit=outcome.turn_limit)]
    if outcome.revealed:
        lines.append(t("twinpyramid.result.revealed", locale, player=who, cards=sorted_cards(outcome.revealed)))
    if payments and any(paid.values()):
        lines.append(t("twinpyramid.result.payments", locale, payments=join_list(
            (f"{names(p)} {amount:+d}" for p, amount in paid.items()), locale)))
    return lines


def shared_first_line(outcome: LastDeal, names: Names, locale: object | None) -> str:
    """Why the final ranking's first place is shared: how the last deal ended (a burst pays each other player the
    same, so they tie), with who paid or who was paid."""
    player = outcome.player
    paid = outcome.payments
    others = [amount for p, amount in paid.items() if p != player]
    reason = outcome.reason
    if reason in ("burst", "complete") and player is not None and others:
        key = "twinpyramid.result.shared_burst" if reason == "burst" else "twinpyramid.result.shared_complete"
        return t(key, locale, player=names(player), amount=abs(others[0]))
    if any(paid.values()):  # settled by the stones (D18): the tied seats had as many stones
        return t("twinpyramid.result.shared_settled", locale)
    return t("twinpyramid.result.shared_unpaid", locale)


_STEPS: dict[str, type[SwapShown | ToShown | ToHeld | SwapStone]] = {
    step.model_fields["type"].default: step for step in (SwapShown, ToShown, ToHeld, SwapStone)}


# ---- events ---------------------------------------------------------------------------------------------------------
def _deal_started(d: E.DealStarted, who: str, names: Names, locale: object | None) -> str | None:
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


def _dealt(d: E.Cards, who: str, names: Names, locale: object | None) -> str | None:
    return t("twinpyramid.event.dealt", locale, cards=sorted_cards(d.get("cards", [])))


def _rearranged(d: E.Rearranged, who: str, names: Names, locale: object | None) -> str | None:
    kind = d.get("kind")
    if kind == "swap_stone":
        return t("twinpyramid.event.rearranged_stone", locale, player=who, slot=d.get("slot", "?"),
                 stone=card(d.get("stone", "")), card=card(d.get("to_shown", "")))
    if kind == "to_held":
        return t("twinpyramid.event.rearranged_to_held", locale, player=who)
    key = "twinpyramid.event.rearranged_swap" if kind == "swap_shown" else "twinpyramid.event.rearranged_move"
    return t(key, locale, player=who, card=card(d.get("to_shown", "")))


def _rearranged_detail(d: E.RearrangedDetail, who: str, names: Names, locale: object | None) -> str | None:
    model = _STEPS[d["type"]]
    step = model.model_validate({k: v for k, v in d.items() if k in model.model_fields})
    return t("twinpyramid.event.rearranged_detail", locale, step=step_label(step, locale))


def _played(d: E.Played, who: str, names: Names, locale: object | None) -> str | None:
    key = "twinpyramid.event.played_shown" if d.get("from") == "shown" else "twinpyramid.event.played"
    return t(key, locale, player=who, card=card(d.get("card", "")))


def _nothing_to_build(d: E.Player, who: str, names: Names, locale: object | None) -> str | None:
    return t("twinpyramid.event.nothing_to_build", locale, player=who)


def _effect_suppressed(d: E.PlayerCard, who: str, names: Names, locale: object | None) -> str | None:
    return t("twinpyramid.event.effect_suppressed", locale, player=who, card=card(d.get("card", "")))


def _two_taken(d: E.Player, who: str, names: Names, locale: object | None) -> str | None:
    return t("twinpyramid.event.two_taken", locale, player=who)


def _two_passed(d: E.TwoPassed, who: str, names: Names, locale: object | None) -> str | None:
    return t("twinpyramid.event.two_passed", locale, player=who, to=names(d.get("to")))


def _three_seen(d: E.Cards, who: str, names: Names, locale: object | None) -> str | None:
    return t("twinpyramid.event.three_seen", locale, cards=cards(d.get("cards", [])))


def _three_ordered(d: E.Player, who: str, names: Names, locale: object | None) -> str | None:
    return t("twinpyramid.event.three_ordered", locale, player=who)


def _skipped(d: E.Player, who: str, names: Names, locale: object | None) -> str | None:
    return t("twinpyramid.event.skipped", locale, player=who)


def _suit_named(d: E.SuitNamed, who: str, names: Names, locale: object | None) -> str | None:
    return t("twinpyramid.event.suit_named", locale, player=who, suit=suit_mark(d.get("suit")),
             name=suit_name(d.get("suit", ""), locale))


def _wild_ended(d: E.SuitNamed, who: str, names: Names, locale: object | None) -> str | None:
    return t("twinpyramid.event.wild_ended", locale, player=who, suit=suit_mark(d.get("suit")))


def _reversed(d: E.Reversed, who: str, names: Names, locale: object | None) -> str | None:
    direction = "cw" if d.get("direction") == 1 else "ccw"
    return t("twinpyramid.event.reversed", locale, player=who,
             direction=t(f"twinpyramid.direction.{direction}", locale))


def _stone_broken(d: E.Stone, who: str, names: Names, locale: object | None) -> str | None:
    return t("twinpyramid.event.stone_broken", locale, player=who, card=card(d.get("card", "")))


def _break_missed(d: E.Player, who: str, names: Names, locale: object | None) -> str | None:
    return t("twinpyramid.event.break_missed", locale, player=who)


def _changed(d: E.Changed, who: str, names: Names, locale: object | None) -> str | None:
    mode = d.get("mode")
    fields = {"player": who, "card": card(d.get("card", "")), "target": card(d.get("target", "")),
              "owner": names(d.get("owner"))}
    held = "_held" if d.get("into") == "held" else ""
    if mode == "wild_change":
        return t("twinpyramid.event.wild_change" + held, locale, **fields)
    key = "twinpyramid.event.change_top" if d.get("owner") is None else "twinpyramid.event.change_shown"
    return t(key + held, locale, **fields)


def _changed_card(d: E.PlayerCard, who: str, names: Names, locale: object | None) -> str | None:
    return t("twinpyramid.event.changed_card", locale, card=card(d.get("card", "")))


def _passed(d: E.Player, who: str, names: Names, locale: object | None) -> str | None:
    return t("twinpyramid.event.passed", locale, player=who)


def _stone_placed(d: E.Stone, who: str, names: Names, locale: object | None) -> str | None:
    return t("twinpyramid.event.stone_placed", locale, player=who, card=card(d.get("card", "")),
             slot=d.get("slot", "?"))


def _drew(d: E.Drew, who: str, names: Names, locale: object | None) -> str | None:
    if d.get("zone") == "shown":
        return t("twinpyramid.event.drew_shown", locale, player=who, card=card(d.get("card", "")))
    return t("twinpyramid.event.drew_held", locale, player=who)


def _drew_card(d: E.PlayerCard, who: str, names: Names, locale: object | None) -> str | None:
    return t("twinpyramid.event.drew_card", locale, card=card(d.get("card", "")))


def _reshuffled(d: E.Reshuffled, who: str, names: Names, locale: object | None) -> str | None:
    if "own_pile" in d:  # streams: per_seat (D19): the drawer's own pile was rebuilt
        return t("twinpyramid.event.reshuffled_own", locale, player=who, count=d["own_pile"])
    return t("twinpyramid.event.reshuffled", locale, count=d.get("draw_count", 0))


def _forced_draw_skipped(d: E.Player, who: str, names: Names, locale: object | None) -> str | None:
    return t("twinpyramid.event.forced_draw_skipped", locale, player=who)


def _deal_ended(d: E.DealEnded, who: str, names: Names, locale: object | None) -> str | None:
    outcome = LastDeal(number=d["number"], reason=d["reason"], player=d["player"], revealed=d["revealed"],
                       payments=d["payments"], turn_limit=d["turn_limit"])
    lines = deal_result_lines(outcome, names, locale)
    points = d.get("points") or {}
    if points and not d.get("last"):  # after the last deal the final board's ranking has the totals
        lines.append(t("twinpyramid.event.scores", locale, scores=join_list(
            (f"{names(p)} {v}" for p, v in sorted(points.items(), key=lambda kv: -kv[1])), locale)))
    return "\n".join(lines)


def _match_over(d: E.MatchOver, who: str, names: Names, locale: object | None) -> str | None:
    """The end; the ranking is on the final board this line is written above (shown once)."""
    return t("twinpyramid.event.match_over", locale)


EVENTS: dict[str, EventText] = {
    "deal_started": On(E.DealStarted, _deal_started),
    "dealt": On(E.Cards, _dealt),
    "rearranged": On(E.Rearranged, _rearranged),
    "rearranged_detail": On(E.RearrangedDetail, _rearranged_detail),
    "played": On(E.Played, _played),
    "nothing_to_build": On(E.Player, _nothing_to_build),
    "effect_suppressed": On(E.PlayerCard, _effect_suppressed),
    "two_taken": On(E.Player, _two_taken),
    "two_passed": On(E.TwoPassed, _two_passed),
    "three_seen": On(E.Cards, _three_seen),
    "three_ordered": On(E.Player, _three_ordered),
    "skipped": On(E.Player, _skipped),
    "suit_named": On(E.SuitNamed, _suit_named),
    "wild_ended": On(E.SuitNamed, _wild_ended),
    "reversed": On(E.Reversed, _reversed),
    "stone_broken": On(E.Stone, _stone_broken),
    "break_missed": On(E.Player, _break_missed),
    "changed": On(E.Changed, _changed),
    "changed_card": On(E.PlayerCard, _changed_card),
    "passed": On(E.Player, _passed),
    "stone_placed": On(E.Stone, _stone_placed),
    "drew": On(E.Drew, _drew),
    "drew_card": On(E.PlayerCard, _drew_card),
    "reshuffled": On(E.Reshuffled, _reshuffled),
    "forced_draw_skipped": On(E.Player, _forced_draw_skipped),
    # "turn" has no line: the board says whose turn it is, and every move's line names its player
    "deal_ended": On(E.DealEnded, _deal_ended),
    "match_over": On(E.MatchOver, _match_over),
}


def event(ev: Event, names: Names, locale: object | None) -> str | None:
    return format_event(EVENTS, ev, names, locale)
