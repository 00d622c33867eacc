"""Pile up's triple in the hand view: every minus card to hand out chosen at once, then handed out in one decision.

The cards go clockwise from the next player, one at a time (docs/rules/pileup.md, "A turn" step 2), so each other
player gets a known number of them: one select per player (as many cards as they get), a preview of who gets what,
and one **Hand out** button that sends ``give_all`` with the cards in the order they are handed out. The choice
lives in the select values (``<letter><card>``: ``a`` for the next player, ``b`` for the one after, …), stateless
like every hand control. The button carries the cards in its code (``<seat>.g<cards>``, read back by
``code_action``): the orders of a large pile are too many for an index into the legal actions.
"""
from __future__ import annotations

import discord

from bot.discord_rules.limits import SELECT_OPTIONS
from bot.i18n import t
from bot.render import pileup as text
from bot.table import Table
from engines.pileup import GiveAll
from engines.pileup.view import GivePending, PileupView

from ..common import names_for
from ..controls import ActButton, Actions, PickSelect
from .pileup_selection import PileupSelection

LETTERS = "abcd"  # at most four other players
CARD_LENGTH = 3  # a card id: colour, number, copy letter (``R3a``)


def recipients(view: PileupView, pending: GivePending) -> list[tuple[str, int]]:
    """(player, how many cards they get) in the order the cards are handed out."""
    others = [p for p in view.players if p != pending.player]
    start = others.index(pending.to) if pending.to in others else 0
    order = others[start:] + others[:start]
    remaining = pending.remaining
    return [(p, len(range(i, remaining, len(order)))) for i, p in enumerate(order) if i < remaining]


def minus_cards(view: PileupView, player: str) -> list[str]:
    return list(next((s.minus for s in view.seats if s.player == player), []))


def chosen_for(selection: list[str], plan: list[tuple[str, int]], minus: list[str]) -> list[list[str]]:
    """The cards chosen for each player so far (each minus card once, never more than the player gets)."""
    out: list[list[str]] = [[] for _ in plan]
    left = list(minus)
    for letter, card in PileupSelection.of(selection).gives:
        slot = LETTERS.find(letter)
        if 0 <= slot < len(plan) and card in left and len(out[slot]) < plan[slot][1]:
            out[slot].append(card)
            left.remove(card)
    return out


def handed_out(plan: list[tuple[str, int]], chosen: list[list[str]]) -> tuple[str, ...] | None:
    """The cards in the order they are handed out, once every player has their number of cards; else None."""
    if any(len(cards) != count for (_, count), cards in zip(plan, chosen, strict=True)):
        return None
    return tuple(chosen[j % len(plan)][j // len(plan)] for j in range(sum(count for _, count in plan)))


def give_controls(table: Table, player: str, view: PileupView, selection: list[str], locale: object | None,
                  actions: Actions) -> list[discord.ui.Item]:
    pending = view.pending
    assert isinstance(pending, GivePending), "only while this player hands out minus cards"
    names = table.names(locale)
    plan = recipients(view, pending)
    minus = minus_cards(view, player)
    chosen = chosen_for(selection, plan, minus)
    taken = [c for cards in chosen for c in cards]
    items: list[discord.ui.Item] = []
    for slot, ((to, count), mine) in enumerate(zip(plan, chosen, strict=True)):
        free = list(minus)
        for c in taken:
            if c not in mine:
                free.remove(c)
        options = [discord.SelectOption(label=text.card(c), value=PileupSelection.give_value(LETTERS[slot], c),
                                        default=c in mine) for c in sorted(free)[:SELECT_OPTIONS]]
        if not options:
            continue
        carry = PileupSelection(gives=tuple((LETTERS[other], c) for other, cards in enumerate(chosen) if other != slot
                                            for c in cards))
        select = PickSelect(table.id, table.version, options,
                            t("pileup.select.give_to", locale, player=names.get(to, to), count=count), slot, carry,
                            row=slot)
        select.item.max_values = min(count, len(options))  # type: ignore[attr-defined]  # item is a Select
        select.chosen_when_alone = count == 1  # the last card left for a player who gets one: chosen for you
        items.append(select)
    cards = handed_out(plan, chosen)
    if cards is None:
        items.append(actions.button(None, t("pileup.button.give_all_empty", locale,
                                             count=sum(n for _, n in plan) - len(taken)),
                                    discord.ButtonStyle.success, row=4))
    else:
        items.append(ActButton(table.id, table.version, f"{actions.seat}.g{''.join(cards)}",
                               t("pileup.button.give_all", locale, count=len(cards)), discord.ButtonStyle.success,
                               row=4))
    return items


def give_notes(table: Table, player: str, view: PileupView, selection: list[str],
               locale: object | None) -> list[str]:
    """Who gets which cards so far."""
    names = names_for(table, locale)
    assert isinstance(view.pending, GivePending), "only while this player hands out minus cards"
    plan = recipients(view, view.pending)
    chosen = chosen_for(selection, plan, minus_cards(view, player))
    return [t("pileup.note.give_to", locale, player=names(to), cards=text.cards(cards) if cards else "—",
              chosen=len(cards), count=count) for (to, count), cards in zip(plan, chosen, strict=True)]


def code_action(table: Table, player: str, code: str) -> GiveAll | None:
    """``g<cards>``: every minus card to hand out, in order (the engine checks them like any other action)."""
    body = code[1:]
    if code[:1] != "g" or not body or len(body) % CARD_LENGTH:
        return None
    return GiveAll(cards=tuple(body[i:i + CARD_LENGTH] for i in range(0, len(body), CARD_LENGTH)))
