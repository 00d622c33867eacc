"""Twin Pyramid in Discord: ``/play twinpyramid`` and the hand controls.

A turn: rearrange first, one step per click — choose one of your cards in the **Rearrange** select, then press
one of its steps (swap a held card with a shown one, move a held card to shown, swap a card with your stone of
the same rank); each press sends ``rearrange`` and the step as one action. Then the turn's one action: choose a
card to play (or an A / joker change) in the first select and press its button, or press **Draw** (or **Pass**
when nothing else is possible). Sub-decisions are buttons in the same view: stones to place after a J/Q/K, the
suit after an 8 or a joker, draw-or-pass after a 2, the order of the three cards after a 3, a forced draw (after
rearranging, if you like), and the next deal.

Everything chosen so far lives in the select values (stateless, so it survives a restart), read as a
``TwinPyramidSelection``: an action choice is ``a<index>`` (its index in ``cogs.controls.button_actions``, which
buttons carry too), a card to rearrange ``r:<card>``. A rearrangement step while the menu is closed is
``rearrange_step`` (``click_actions``).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Sequence

import discord

from bot.discord_rules.limits import OPTION_LABEL, SELECT_OPTIONS
from bot.i18n import t
from bot.render import Names
from bot.render import twinpyramid as text
from bot.table import Table
from engines.twinpyramid.actions import REARRANGE_TYPES, Draw, ForcedDraw, OrderThree, Pass, Place
from engines.twinpyramid.cards import rank_of
from engines.twinpyramid.view import TwinPyramidView

from ..action_codes import refusal
from ..common import names_for
from ..controls import Actions, PickSelect, single
from ..custom_ids import INDEX, number
from ..selection import TOKEN, Selection
from .twinpyramid_length import (  # noqa: F401  (the plug-in's hooks)
    length_label,
    length_lines,
    lobby_options,
    quick_offered,
    quick_options,
)

ACTION_PARTS = (0, 2)  # PickSelect part numbers of the action selects (a second one only when over 25 choices)
CARD_PART = 1  # ... and of the card-to-rearrange select
SUITS = ("S", "H", "D", "C")


@dataclass(frozen=True)
class TwinPyramidSelection(Selection):
    """The play or change chosen (``action``: its index among the legal actions, select value ``a<index>``) and the
    card chosen to rearrange (select value ``r:<card>``); carried as ``a<index>.r<card>``."""

    action: int | None = None
    card: str | None = None

    @classmethod
    def of(cls, values: Sequence[str]) -> TwinPyramidSelection:
        action = next((n for v in values if v[:1] == "a" and (n := number(v[1:], INDEX)) is not None), None)
        card = next((v[2:] for v in values if v[:2] == "r:" and TOKEN.fullmatch(v[2:])), None)
        return cls(action, card)

    @staticmethod
    def action_value(index: int) -> str:
        return f"a{index}"

    @staticmethod
    def card_value(card: str) -> str:
        return f"r:{card}"

    def values(self) -> list[str]:
        action = [] if self.action is None else [self.action_value(self.action)]
        return action + ([] if self.card is None else [self.card_value(self.card)])

    def encode(self) -> str:
        action = [] if self.action is None else [f"a{self.action}"]
        return ".".join(action + ([] if self.card is None else [f"r{self.card}"]))

    @classmethod
    def decode(cls, text: str) -> TwinPyramidSelection:
        action: int | None = None
        card: str | None = None
        for token in text.split(".") if text else []:
            kind, rest = token[:1], token[1:]
            if kind == "a" and action is None and number(rest, INDEX) is not None:
                action = int(rest)
            elif kind == "r" and card is None and TOKEN.fullmatch(rest):
                card = rest
            else:
                raise ValueError(text)
        return cls(action, card)


selection_model = TwinPyramidSelection  # the plug-in's hook


# ---- one-click actions -------------------------------------------------------------------------------------------
def click_actions(table: Table, player: str, legal: list[Any]) -> list[Any]:
    """Every rearrangement step as one action (``rearrange`` folded in) while the menu is closed; ``legal_actions``
    lists only ``rearrange`` then, so a step button needs these (they follow the legal actions in its index)."""
    if getattr(table.state, "arranging", False):
        return []
    return [step_action(table, step) for step in steps_now(table, player, legal)]


def step_action(table: Table, step: Any) -> Any:
    """What a step's button sends: the step itself with the menu open, else the step with ``rearrange`` folded in."""
    if getattr(table.state, "arranging", False):
        return step
    return table.engine.parse_action({"type": "rearrange_step", "step": step.model_dump(mode="json")})


# ---- what may be chosen -------------------------------------------------------------------------------------------
def steps_now(table: Table, player: str, legal: list[Any]) -> list[Any]:
    """Every rearrangement step open to the player now (opening the menu on a copy when it is closed)."""
    if any(a.type in REARRANGE_TYPES for a in legal):
        return [a for a in legal if a.type in REARRANGE_TYPES]
    if not any(a.type == "rearrange" for a in legal):
        return []
    opened, _ = table.engine.apply(table.state, player, {"type": "rearrange"})
    return table.engine.legal_actions(opened, player)


def steps_of_card(steps: list[Any], card: str) -> list[Any]:
    out = []
    for a in steps:
        if a.type == "swap_shown" and card in (a.held, a.shown):
            out.append(a)
        elif a.type in ("to_shown", "to_held", "swap_stone") and a.card == card:
            out.append(a)
    return out


def turn_choices(legal: list[Any], names: Names, locale: object | None) -> dict[int, str]:
    """The label of every play and change by its index in ``legal``; jokers are interchangeable, so only the first
    one is offered."""
    jokers = sorted({a.card for a in legal if a.type in ("play", "change") and a.card.startswith("X")})
    out: dict[int, str] = {}
    for index, a in enumerate(legal):
        if a.type not in ("play", "change") or (a.card.startswith("X") and a.card != jokers[0]):
            continue
        out[index] = action_label(a, names, locale)
    return out


def chosen_index(selection: TwinPyramidSelection, choices: dict[int, str]) -> int | None:
    """The index of the play or change chosen in the action select (one of ``choices``), or None."""
    return selection.action if selection.action in choices else None


def action_label(a: Any, names: Names, locale: object | None, *, hint: bool = True) -> str:
    if a.type == "play":
        effect = text.effect_hint(a.card, locale) if hint else ""
        key = "twinpyramid.action.play_wild" if a.card.startswith("X") else "twinpyramid.action.play"
        suffix = f" — {effect}" if effect and not a.card.startswith("X") else ""
        return t(key, locale, card=text.card(a.card)) + suffix
    return text.change_label(a.card, a.target, a.owner, names, locale)


# ---- controls ----------------------------------------------------------------------------------------------------
def controls(table: Table, player: str, view: TwinPyramidView, selection: list[str],
             locale: object | None) -> list[discord.ui.Item]:
    actions = Actions(table, player)
    legal = actions.all
    if not legal:
        return []
    names = names_for(table, locale).plain()  # labels show text as is
    pending = view.pending
    kind = "arranging" if view.arranging else (pending.kind if pending else "turn")
    items: list[discord.ui.Item] = []
    if kind in ("turn", "forced_draw", "arranging"):
        return rearrange_and_act(table, player, view, selection, actions, kind, names, locale)
    if kind == "build":
        for a in legal:
            if isinstance(a, Place):
                items.append(actions.button(a, t("twinpyramid.button.place", locale, card=text.card(a.card),
                                                 slot=a.card[:-1]), discord.ButtonStyle.success))
        items.append(actions.button({"type": "end_build"}, t("twinpyramid.button.end_build", locale),
                                    discord.ButtonStyle.secondary))
    elif kind == "name_suit":
        for s in SUITS:
            items.append(actions.button({"type": "name_suit", "suit": s}, t(
                "twinpyramid.button.suit", locale, suit=text.suit_mark(s), name=text.suit_name(s, locale)),
                                        discord.ButtonStyle.primary))
    elif kind == "two_choice":
        nxt = names(text.next_player(view))
        items.append(actions.button({"type": "take_two"}, t("twinpyramid.button.take_two", locale),
                                    discord.ButtonStyle.danger))
        items.append(actions.button({"type": "pass_two"}, t("twinpyramid.button.pass_two", locale, player=nxt),
                                    discord.ButtonStyle.success))
    elif kind == "order_three":
        for a in legal:
            if isinstance(a, OrderThree):
                items.append(actions.button(a, t("twinpyramid.button.order", locale,
                                                 order=text.order_text(a.order, view, names, locale)),
                                            discord.ButtonStyle.primary))
    elif kind == "deal_over":
        items.append(actions.button({"type": "next_deal"}, t("twinpyramid.button.next_deal", locale,
                                                             deal=view.deal + 1,
                                                             total=view.deals_total),
                                    discord.ButtonStyle.success))
    return items


def rearrange_and_act(table: Table, player: str, view: TwinPyramidView, selection: list[str], actions: Actions,
                      kind: str, names: Names, locale: object | None) -> list[discord.ui.Item]:
    """A turn or a forced draw: the card-to-rearrange select, its steps as buttons, and the decision's actions."""
    gid, ver = table.id, table.version
    legal = actions.all
    steps = steps_now(table, player, legal)
    rearrange_cards = [c for c in [*(view.hand or []), *my_shown(view)] if steps_of_card(steps, c)]
    chosen = TwinPyramidSelection.of(selection)
    picked = chosen.card if chosen.card in rearrange_cards else None
    choices = turn_choices(legal, names, locale) if kind == "turn" else {}
    action = chosen_index(chosen, choices)
    items: list[discord.ui.Item] = []
    row = 0
    if not picked and choices:
        listed = list(choices.items())
        parts = [listed[i:i + SELECT_OPTIONS] for i in range(0, len(listed), SELECT_OPTIONS)][:len(ACTION_PARTS)]
        # Fewer parts than part numbers when the choices fit one select.
        for part_no, part in zip(ACTION_PARTS, parts, strict=False):
            options = [discord.SelectOption(label=label[:OPTION_LABEL], value=chosen.action_value(index),
                                            default=index == action) for index, label in part]
            carry = replace(chosen, action=None)
            items.append(single(PickSelect(gid, ver, options, t("twinpyramid.select.action", locale), part_no, carry,
                                           row=row), chosen_when_alone=len(parts) == 1))
            row += 1
    if rearrange_cards:
        held = set(view.hand or [])
        options = [discord.SelectOption(
            label=t("twinpyramid.select.card_held" if c in held else "twinpyramid.select.card_shown", locale,
                    card=text.card(c)), value=chosen.card_value(c), default=c == picked)
            for c in rearrange_cards[:SELECT_OPTIONS]]
        carry = replace(chosen, card=None)
        items.append(single(PickSelect(gid, ver, options, t("twinpyramid.select.rearrange", locale,
                                                            left=view.rearranges_left or 0),
                                       CARD_PART, carry, row=row)))
        row += 1
    if picked:
        for i, step in enumerate(steps_of_card(steps, picked)[:10]):
            items.append(actions.button(step_action(table, step), text.step_label(step, locale),
                                        discord.ButtonStyle.primary, row=row + i // 5))
        row += 2
    buttons: list[discord.ui.Item] = []
    if kind == "turn" and choices and not picked:
        label = choices[action] if action is not None else t("twinpyramid.button.act_empty", locale)
        buttons.append(actions.button(legal[action] if action is not None else None, label, discord.ButtonStyle.success,
                                      row=row))
    if any(isinstance(a, Draw) for a in legal):
        buttons.append(actions.button({"type": "draw"}, t("twinpyramid.button.draw", locale),
                                      discord.ButtonStyle.secondary, row=row))
    if any(isinstance(a, Pass) for a in legal):
        buttons.append(actions.button({"type": "pass"}, t("twinpyramid.button.pass", locale),
                                      discord.ButtonStyle.secondary, row=row))
    if any(isinstance(a, ForcedDraw) for a in legal):
        count = view.pending.count if view.pending else 1
        buttons.append(actions.button({"type": "forced_draw"}, t("twinpyramid.button.forced_draw", locale,
                                                                 count=count), discord.ButtonStyle.danger, row=row))
    return items + buttons


def play_effect(view: TwinPyramidView, player: str, card: str, locale: object | None) -> str:
    """What playing ``card`` will do: its effect, none under another player's wild, nothing extra for a joker."""
    if card.startswith("X"):
        return ""
    wild = view.wild
    if wild is not None and wild.owner != player and rank_of(card) in ("2", "3", "7", "8", "9", "10"):
        return t("twinpyramid.effect.suppressed", locale)
    return text.effect_hint(card, locale)


def my_shown(view: TwinPyramidView) -> list[str]:
    seat = text.seat_of(view, view.viewer)
    return list(seat.shown) if seat is not None else []


def selection_notes(table: Table, player: str, view: TwinPyramidView, selection: list[str],
                    locale: object | None) -> list[str]:
    """What the chosen play or change would do, or why it is refused; what the chosen card can be rearranged to."""
    legal = table.engine.legal_actions(table.state, player)
    if view.pending is not None or view.arranging or not legal:
        return []
    notes: list[str] = []
    names = names_for(table, locale)
    choices = turn_choices(legal, names, locale)
    chosen = TwinPyramidSelection.of(selection)
    index = chosen_index(chosen, choices)
    action: Any = legal[index] if index is not None else None
    if chosen.card is not None:
        notes.append(t("twinpyramid.note.rearrange", locale, card=text.card(chosen.card),
                       left=view.rearranges_left or 0))
    elif action:
        label = action_label(action, names, locale, hint=False)
        problem = refusal(table, player, action, locale)
        effect = play_effect(view, player, action.card, locale) if action.type == "play" else ""
        if problem is not None:
            notes.append(t("twinpyramid.note.refused", locale, action=label, reason=problem))
        elif effect:
            notes.append(t("twinpyramid.note.ok_effect", locale, action=label, effect=effect))
        else:
            notes.append(t("twinpyramid.note.ok", locale, action=label))
    elif not choices and any(isinstance(a, Draw) for a in legal):
        notes.append(t("twinpyramid.note.nothing_fits", locale))
    seat = text.seat_of(view, player)
    if choices and not any(isinstance(a, Draw) for a in legal) and seat is not None and seat.hand_count >= 9:
        notes.append(t("twinpyramid.note.no_tenth_card", locale))
    return notes
