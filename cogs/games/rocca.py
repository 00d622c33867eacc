"""Rocca Card Tower in Discord: ``/play rocca`` and the hand controls.

A turn is one choice from a list of moves (``7♠ → profile of b3``, labels as on the tower picture the hand view
carries while the player decides), then a
button; a joker also asks for a suit (a second select) and a bend (two buttons). Chains are buttons: pass a J/K
on or draw; counter a Queen or accept; give cards one at a time. **One!** and Draw are buttons whenever legal,
and Bon (option ``bon``) is offered in the hand view of any seated player out of turn.

Everything chosen so far lives in the select values / custom ids (stateless, so it survives a restart), read as a
``RoccaSelection``: moves are ``P-<card>-<on>-<h|f|p>`` and ``B-<on>-<c1>_<c2>[_<c3>]``, a joker's suit
``s<S|H|D|C>``, a card to give its id. Buttons carry their action's index among the legal actions
(``cogs.controls.Actions``).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Sequence

import discord

from bot.discord_rules.limits import OPTION_LABEL, SELECT_OPTIONS
from bot.i18n import t
from bot.render import rocca as text
from bot.table import Table
from engines import Json
from engines.rocca import Accept, Bon, DeclareOne, Draw, Give, Place
from engines.rocca.view import DrawChainPending, QAnswerPending, QGivePending, RoccaView

from ..action_codes import refusal
from ..common import names_for
from ..controls import Actions, PickSelect, card_selects, single
from ..selection import TOKEN, Selection

SUITS = ("S", "H", "D", "C")
SUIT_PART = 5  # the PickSelect part number of the joker's suit select (moves use parts 0–2)
MAX_MOVE_SELECTS = 3


@dataclass(frozen=True)
class RoccaSelection(Selection):
    """The move chosen (``P-…``/``B-…``), a joker's suit (``s<S|H|D|C>``) and the cards chosen (a Queen pass);
    carried as those values joined by "."."""

    move: str | None = None
    suit: str | None = None
    cards: tuple[str, ...] = ()

    @classmethod
    def of(cls, values: Sequence[str]) -> RoccaSelection:
        moves = [v for v in values if v[:2] in ("P-", "B-") and TOKEN.fullmatch(v)]
        suit = next((v[1] for v in values if len(v) == 2 and v[0] == "s" and v[1] in SUITS), None)
        cards = tuple(v for v in values if v not in moves and v != f"s{suit}" and TOKEN.fullmatch(v))
        return cls(moves[0] if moves else None, suit, cards)

    @staticmethod
    def suit_value(suit: str) -> str:
        return f"s{suit}"

    def values(self) -> list[str]:
        return [*([self.move] if self.move else []), *([self.suit_value(self.suit)] if self.suit else []), *self.cards]

    def encode(self) -> str:
        return ".".join(self.values())

    @classmethod
    def decode(cls, text: str) -> RoccaSelection:
        values = text.split(".") if text else []
        read = cls.of(values)
        if read.values() != values:  # anything not in the form ``encode`` writes
            raise ValueError(text)
        return read


selection_model = RoccaSelection  # the plug-in's hook


@dataclass(frozen=True)
class Move:
    """One entry of the moves select: a placement (a joker's suit and bend still open) or a Bon."""

    value: str
    card: str
    on: str
    side: str = ""
    cards: tuple[str, ...] = ()

    @property
    def is_bon(self) -> bool:
        return bool(self.cards)

    @property
    def is_joker(self) -> bool:
        return self.card.startswith("X")

    def label(self, view: RoccaView, locale: object | None) -> str:
        if self.is_bon:
            return text.bon_move(view, self.on, list(self.cards), locale)
        return text.placement(view, self.card, self.on, self.side, locale)


def moves(legal: list[Any]) -> list[Move]:
    """The moves select's entries: every placement and Bon, a joker once per target (suit and bend come later)."""
    out: dict[str, Move] = {}
    jokers = sorted({a.card for a in legal if isinstance(a, Place) and a.card.startswith("X")})
    for a in legal:
        if isinstance(a, Place):
            if a.card.startswith("X") and a.card != jokers[0]:
                continue  # jokers are interchangeable: offer the first one only
            value = f"P-{a.card}-{a.on}-{a.side[0]}"
            out.setdefault(value, Move(value, a.card, a.on, a.side))
        elif isinstance(a, Bon):
            value = f"B-{a.on}-{'_'.join(a.cards)}"
            out.setdefault(value, Move(value, a.cards[0], a.on, cards=tuple(a.cards)))
    return list(out.values())


def chosen_move(selection: list[str], options: list[Move]) -> Move | None:
    move = RoccaSelection.of(selection).move
    return next((m for m in options if m.value == move), None)


def chosen_suit(selection: list[str]) -> str | None:
    return RoccaSelection.of(selection).suit






# ---- controls ----------------------------------------------------------------------------------------------------
def controls(table: Table, player: str, view: RoccaView, selection: list[str],
             locale: object | None) -> list[discord.ui.Item]:
    actions = Actions(table, player)
    pending = view.pending
    items: list[discord.ui.Item] = []
    if pending is not None and pending.player == player:
        if pending.kind == "q_give":
            items += give_controls(table, view, pending, selection, actions, locale)
        else:
            items += chain_controls(view, pending, actions, locale)
    else:
        items += move_controls(table, view, selection, actions, locale)
    if DeclareOne() in actions.all:
        items.append(actions.button(DeclareOne(), t("rocca.button.one", locale), discord.ButtonStyle.danger))
    return items


def move_controls(table: Table, view: RoccaView, selection: list[str], actions: Actions,
                  locale: object | None) -> list[discord.ui.Item]:
    """A turn (placements, Bon, Draw) or, out of turn, the Bon calls."""
    gid, ver = table.id, table.version
    options = moves(actions.all)
    move = chosen_move(selection, options)
    items: list[discord.ui.Item] = []
    parts = [options[i:i + SELECT_OPTIONS] for i in range(0, len(options), SELECT_OPTIONS)][:MAX_MOVE_SELECTS]
    for number, part in enumerate(parts):
        select_options = [discord.SelectOption(label=m.label(view, locale)[:OPTION_LABEL], value=m.value,
                                               default=move is not None and m.value == move.value) for m in part]
        carry = replace(RoccaSelection.of(selection), move=None)  # a move chosen here replaces the one chosen
        items.append(single(PickSelect(gid, ver, select_options, t("rocca.select.move", locale), number, carry,
                                       row=number), chosen_when_alone=len(parts) == 1))
    if move is not None and move.is_joker:
        suit = chosen_suit(selection)
        suit_options = [discord.SelectOption(label=t("rocca.select.suit_option", locale, suit=text.suit_mark(s),
                                                     name=t(f"rocca.suit.{s}", locale)),
                                             value=RoccaSelection.suit_value(s), default=s == suit) for s in SUITS]
        items.append(single(PickSelect(gid, ver, suit_options, t("rocca.select.suit", locale), SUIT_PART,
                                       RoccaSelection(move=move.value), row=len(parts))))
        for bend in ("left", "right"):
            joker = Place(card=move.card, on=move.on, side=move.side, suit=suit, bend=bend) if suit else None
            label = t("rocca.button.place_joker", locale, suit=text.suit_mark(suit) if suit else "?",
                      bend=text.bend_name(bend, locale), label=text.label_of(view, move.on))
            items.append(actions.button(joker, label, discord.ButtonStyle.success))  # disabled until a suit
    elif move is not None and move.is_bon:
        items.append(actions.button(Bon(on=move.on, cards=list(move.cards)),
                                    t("rocca.button.bon", locale, move=move.label(view, locale)),
                                    discord.ButtonStyle.success))
    elif move is not None:
        items.append(actions.button(Place(card=move.card, on=move.on, side=move.side),
                                    t("rocca.button.place", locale, move=move.label(view, locale)),
                                    discord.ButtonStyle.success))
    elif options:
        items.append(actions.button(None, t("rocca.button.place_empty", locale), discord.ButtonStyle.success))
    if Draw() in actions.all:
        items.append(actions.button(Draw(), t("rocca.button.draw", locale), discord.ButtonStyle.secondary))
    return items


def chain_controls(view: RoccaView, pending: DrawChainPending | QAnswerPending, actions: Actions,
                   locale: object | None) -> list[discord.ui.Item]:
    """A J/K draw chain (pass it on or draw) or a Queen to answer (counter or accept)."""
    items: list[discord.ui.Item] = []
    on = text.label_of(view, pending.card)
    for a in actions.all:
        if not isinstance(a, Place):
            continue
        if pending.kind == "draw_chain":
            per = 1 if pending.rank == "J" else 2
            label = t("rocca.button.pass_chain", locale, card=text.card(a.card), label=on,
                      count=pending.count + per)
        else:
            label = t("rocca.button.counter_q", locale, card=text.card(a.card), label=on, count=pending.count)
        items.append(actions.button(a, label, discord.ButtonStyle.success))
    if Accept() in actions.all:
        label = (t("rocca.button.take_draws", locale, count=pending.count) if pending.kind == "draw_chain"
                 else t("rocca.button.accept_q", locale))
        items.append(actions.button(Accept(), label, discord.ButtonStyle.danger))
    return items


def give_controls(table: Table, view: RoccaView, pending: QGivePending, selection: list[str], actions: Actions,
                  locale: object | None) -> list[discord.ui.Item]:
    """A Queen pass: one card at a time; the first pass also chooses the receiver."""
    gid, ver = table.id, table.version
    hand = view.hand or []
    chosen = next((c for c in selection if c in hand), None)
    items: list[discord.ui.Item] = [
        single(s, chosen_when_alone=True) for s in card_selects(gid, ver, hand, [chosen] if chosen else [], text.card,
                                        t("rocca.select.give", locale), RoccaSelection)]
    names = table.names(locale)
    receivers = list(dict.fromkeys(a.to for a in actions.all if isinstance(a, Give)))
    step = {"number": pending.given + 1, "total": pending.count}
    for to in receivers:
        if chosen:
            label = t("rocca.button.give", locale, card=text.card(chosen), player=names.get(to, to), **step)
            items.append(actions.button(Give(card=chosen, to=to), label, discord.ButtonStyle.success))
        else:
            label = t("rocca.button.give_empty", locale, player=names.get(to, to), **step)
            items.append(actions.button(None, label, discord.ButtonStyle.success))
    return items


def selection_notes(table: Table, player: str, view: RoccaView, selection: list[str],
                    locale: object | None) -> list[str]:
    """What the chosen move would do, or why it is refused; and what is still to choose."""
    notes: list[str] = []
    legal = table.engine.legal_actions(table.state, player)
    if player not in table.to_act():
        notes.append(t("rocca.note.bon_out_of_turn", locale))
    if view.pending is not None and view.pending.player == player:
        return notes
    options = moves(legal)
    move = chosen_move(selection, options)
    if move is None:
        if not options and any(isinstance(a, Draw) for a in legal):
            notes.append(t("rocca.note.nothing_fits", locale))
        return notes
    if move.is_joker:
        suit = chosen_suit(selection)
        if suit is None:
            return [*notes, t("rocca.note.joker_suit", locale, move=move.label(view, locale))]
        action: Json = {"type": "place", "card": move.card, "on": move.on, "side": move.side,
                                  "suit": suit, "bend": "left"}
    elif move.is_bon:
        action = {"type": "bon", "on": move.on, "cards": list(move.cards)}
    else:
        action = {"type": "place", "card": move.card, "on": move.on, "side": move.side}
    problem = refusal(table, player, action, locale)
    notes.append(t("rocca.note.ok", locale, move=move.label(view, locale)) if problem is None
                 else t("rocca.note.refused", locale, move=move.label(view, locale), reason=problem))
    return notes


def hand_image(table: Table, player: str, view: RoccaView, selection: list[str],
               locale: object | None) -> bytes | None:
    """While the player has a decision, the hand view carries the tower picture with the labels its moves use
    (drawn from the spectator view, like the board's, in ``hand_message``'s worker thread)."""
    if player not in view.to_act:
        return None
    return text.image(table.view_as(RoccaView, None), names_for(table, locale).plain(), locale)
