"""Pile up in Discord: ``/play pileup`` and the hand controls.

A turn: **Roll** (a public button on the turn message, and in the hand view); then, in the hand view, choose one
rolled value (a select, only when more than one fits), then add the cards one at a time in the order they are
played — each choice says whether the card starts a new layer or is stacked exactly on the layer below — and press
**Play**; the preview says what the play leads to (safe, take, trap, dump) before it is sent. Nothing to play: one
button per hand card to make it a minus card. A triple: choose every minus card to hand out (one select per player)
and hand them all out with one button (``cogs.games.pileup_give``). A dump: one
button per target (and **Keep** after a successful deflect); the target gets a public **Roll to deflect** button.

Everything chosen so far lives in the select values / custom ids (stateless, so it survives a restart), read as a
``PileupSelection`` (``cogs.games.pileup_selection``): the value is ``v<n>``, each step ``<card>-`` (new layer) or
``<card>+`` (stacked exactly), a card to give ``<letter><card>``. Buttons carry their action's index among the legal
actions (``cogs.controls.Actions``), the triple's button its cards.
"""
from __future__ import annotations

import discord

from bot.discord_rules.limits import OPTION_LABEL, SELECT_OPTIONS
from bot.i18n import t
from bot.render import pileup as text
from bot.table import Table
from engines import BadOptions, Json
from engines.pileup import DumpOn, KeepColumn, Penalty, Play, Roll
from engines.pileup.cards import DEFAULT_DECK, HAND_SIZE, build_deck, deck_spec, parse_deck
from engines.pileup.rules import preview as outcome_of
from engines.pileup.view import DeflectPending, PileupView, RollPending

from ..action_codes import refusal
from ..controls import ActButton, Actions, PickSelect, single
from .pileup_give import code_action as code_action  # the plug-in's hook: the triple's button carries its cards
from .pileup_give import give_controls, give_notes
from .pileup_selection import STEP, PileupSelection

selection_model = PileupSelection  # the plug-in's hook

VALUE_PART = 5  # the PickSelect part number of the value select (cards to give use parts 0–2)
STEP_PART = 6  # ... and of the next-card select
QUICK = 9  # one-card plays offered as buttons (rows 3 and 4, beside Refresh)
MIN_PLAYERS = 2


def lobby_options(options: Json) -> Json:
    """The plug-in's hook: ``/play pileup``'s deck, read and checked before a lobby opens."""
    deck = options.get("deck")
    return deck_option(None if deck is None else str(deck))  # /play gives text; anything else is read as text


def deck_option(deck: str | None) -> Json:
    """The table options for ``deck`` (none for the default); a deck that cannot be read or cannot deal two hands
    is refused here, before a lobby opens."""
    if deck is None or not deck.strip():
        return {}
    try:
        counts = parse_deck(deck)
    except ValueError:
        raise BadOptions("pileup.bad_deck", deck=deck.strip()[:40], example=DEFAULT_DECK) from None
    size = len(build_deck(counts))
    if size < HAND_SIZE * MIN_PLAYERS:
        raise BadOptions("pileup.deck_too_small", option="deck", cards=size, needed=HAND_SIZE * MIN_PLAYERS)
    spec = deck_spec(counts)
    return {} if spec == DEFAULT_DECK else {"deck": spec}


# ---- codes ------------------------------------------------------------------------------------------------------
def steps_of(play: Play) -> list[str]:
    return [f"{c}{'+' if s else '-'}" for c, s in zip(play.cards, play.stacked, strict=True)]


# ---- what is chosen so far ----------------------------------------------------------------------------------------
def legal_plays(table: Table, player: str) -> list[Play]:
    return [a for a in table.engine.legal_actions(table.state, player) if isinstance(a, Play)]


def chosen_value(selection: list[str], values: list[int]) -> int | None:
    """The rolled value chosen (the only one when just one fits)."""
    if len(values) == 1:
        return values[0]
    value = PileupSelection.of(selection).value
    return value if value in values else None


def chosen_steps(selection: list[str], plays: list[Play]) -> list[str]:
    """The cards added so far, in order: the longest prefix of the selection that starts some legal play."""
    steps = list(PileupSelection.of(selection).steps)
    all_steps = [steps_of(p) for p in plays]
    while steps and not any(s[:len(steps)] == steps for s in all_steps):
        steps.pop()
    return steps


def next_steps(steps: list[str], plays: list[Play]) -> list[str]:
    out: list[str] = []
    for p in plays:
        s = steps_of(p)
        if len(s) > len(steps) and s[:len(steps)] == steps and s[len(steps)] not in out:
            out.append(s[len(steps)])
    return out


def play_of(value: int, steps: list[str]) -> Play:
    found = [STEP.fullmatch(s) for s in steps]
    return Play(value=value, cards=tuple(m.group(1) for m in found if m),
                stacked=tuple(m.group(2) == "+" for m in found if m))






def outcome_text(view: PileupView, play: Play, locale: object | None, *, short: bool = False) -> str:
    """What a play leads to, from the engine's own preview: safe, take, trap, spring, dump."""
    result = outcome_of(view, play)
    kind = result["kind"]
    key = f"pileup.outcome{'_short' if short else ''}.{kind}"
    return t(key, locale, column=play.value, layers=result["layers"], cards=result["cards"])


def step_label(view: PileupView, value: int, steps: list[str], step: str, locale: object | None) -> str:
    c, how = step[:-1], step[-1]
    if how == "-":
        return t("pileup.select.step_new", locale, card=text.card(c))
    below = STEP.fullmatch(steps[-1]).group(1) if steps else None  # type: ignore[union-attr]  # steps come from our own select values, all matching STEP
    if below is None:
        layers = view.columns[value - 1].layers
        under = text.layer(layers[-1].cards) if layers else "?"
    else:
        under = text.card(below)
    return t("pileup.select.step_stack", locale, card=text.card(c), under=under)


# ---- controls ----------------------------------------------------------------------------------------------------
def controls(table: Table, player: str, view: PileupView, selection: list[str],
             locale: object | None) -> list[discord.ui.Item]:
    pending = view.pending
    if pending is None or pending.player != player:
        return []
    names = table.names(locale)
    actions = Actions(table, player)
    legal = actions.all
    items: list[discord.ui.Item] = []
    if pending.kind == "roll" or pending.kind == "deflect_roll":
        items.append(roll_button(table, pending, locale))
    elif pending.kind == "play":
        items += play_controls(table, player, view, selection, locale, actions)
    elif pending.kind == "penalty":
        for a in legal:
            if isinstance(a, Penalty):
                items.append(actions.button(a, t("pileup.button.penalty", locale, card=text.card(a.card)),
                                            discord.ButtonStyle.danger))
    elif pending.kind == "give":
        items += give_controls(table, player, view, selection, locale, actions)
    elif pending.kind == "dump_target":
        minus = {s.player: s.minus_count for s in view.seats}
        for a in legal:
            if isinstance(a, DumpOn):
                items.append(actions.button(a, t("pileup.button.dump", locale, player=names.get(a.target, a.target),
                                                 column=pending.column, count=minus.get(a.target, 0)),
                                            discord.ButtonStyle.danger))
        if KeepColumn() in legal:
            items.append(actions.button(KeepColumn(), t("pileup.button.keep", locale, column=pending.column,
                                                        cards=pending.cards), discord.ButtonStyle.secondary))
    return items


def roll_button(table: Table, pending: RollPending | DeflectPending, locale: object | None, *,
                public: bool = False) -> ActButton:
    """**Roll** / **Roll to deflect**; on the public turn message too: the roller's only legal action then is the
    roll, so its index (0) tells nothing about their cards."""
    names = table.names(locale)
    who = names.get(pending.player, pending.player)
    actions = Actions(table, pending.player)
    if pending.kind == "deflect_roll":
        label = t("pileup.button.deflect_public" if public else "pileup.button.deflect", locale, player=who,
                  column=pending.column, face=text.die(pending.needs))
        return actions.button(Roll(), label, discord.ButtonStyle.danger)
    label = t("pileup.button.roll_public" if public else "pileup.button.roll", locale, player=who)
    return actions.button(Roll(), label, discord.ButtonStyle.success)


def play_controls(table: Table, player: str, view: PileupView, selection: list[str],
                  locale: object | None, actions: Actions) -> list[discord.ui.Item]:
    gid, ver = table.id, table.version
    values = view.playable_values or []
    value = chosen_value(selection, values)
    items: list[discord.ui.Item] = []
    if len(values) > 1:
        options = [discord.SelectOption(label=t("pileup.select.value_option", locale, face=text.die(v), value=v,
                                                state=column_state(view, v, locale))[:OPTION_LABEL],
                                        value=PileupSelection.rolled_value(v), default=v == value) for v in values]
        items.append(single(PickSelect(gid, ver, options, t("pileup.select.value", locale), VALUE_PART, None,
                                       row=0)))
    if value is None:
        items.append(actions.button(None, t("pileup.button.play_no_value", locale), discord.ButtonStyle.success,
                                    row=2))
        return items + quick_plays(view, selection, actions, locale, None)
    plays = [p for p in actions.all if isinstance(p, Play) and p.value == value]
    steps = chosen_steps(selection, plays)
    nexts = next_steps(steps, plays)
    if nexts:
        options = [discord.SelectOption(label=step_label(view, value, steps, s, locale)[:OPTION_LABEL], value=s)
                   for s in nexts[:SELECT_OPTIONS]]
        placeholder = t("pileup.select.first_card" if not steps else "pileup.select.next_card", locale,
                        column=value, number=len(steps) + 1)
        items.append(single(PickSelect(gid, ver, options, placeholder, STEP_PART,
                                       PileupSelection(value, tuple(steps)), row=1),
                            chosen_when_alone=not steps))  # the first card is needed, a further one is not
    if steps:
        chosen = play_of(value, steps)
        label = t("pileup.button.play", locale, cards=text.play_layers(list(chosen.cards), list(chosen.stacked)),
                  column=value, outcome=outcome_text(view, chosen, locale, short=True))
        items.append(actions.button(chosen, label, discord.ButtonStyle.success, row=2))
    else:
        items.append(actions.button(None, t("pileup.button.play_empty", locale, column=value),
                                    discord.ButtonStyle.success, row=2))
    return items + quick_plays(view, steps, actions, locale, value)


def quick_plays(view: PileupView, steps: list[str], actions: Actions, locale: object | None,
                value: int | None) -> list[discord.ui.Item]:
    """Before any card is added: every one-card play (of the chosen value, or of every rolled value) as a button,
    up to ``QUICK`` — the commonest move in one click; the selects stay for longer plays."""
    if any(STEP.fullmatch(s) for s in steps):
        return []
    plays = [p for p in actions.all if isinstance(p, Play) and len(p.cards) == 1 and value in (None, p.value)]
    return [actions.button(p, t("pileup.button.play", locale, cards=text.play_layers(list(p.cards), list(p.stacked)),
                                column=p.value, outcome=outcome_text(view, p, locale, short=True)),
                           discord.ButtonStyle.primary, row=3 + i // 5) for i, p in enumerate(plays[:QUICK])]


def column_state(view: PileupView, value: int, locale: object | None) -> str:
    col = view.columns[value - 1]
    if col.trapped:
        return t("pileup.select.state_trapped", locale, count=col.layer_count)
    if not col.layer_count:
        return t("pileup.select.state_empty", locale)
    return t("pileup.select.state", locale, count=col.layer_count)


def public_controls(table: Table, locale: object | None) -> list[discord.ui.Item]:
    """The turn message's **Roll** / **Roll to deflect**: every roll is made and seen in the channel."""
    pending = table.view_as(PileupView, None).pending
    if not isinstance(pending, (RollPending, DeflectPending)):
        return []
    return [roll_button(table, pending, locale, public=True)]


def selection_notes(table: Table, player: str, view: PileupView, selection: list[str],
                    locale: object | None) -> list[str]:
    """What the play built so far would do (the engine's preview), or why it is refused; what is still to choose."""
    pending = view.pending
    if pending is not None and pending.player == player and pending.kind == "give":
        return give_notes(table, player, view, selection, locale)
    if pending is None or pending.player != player or pending.kind != "play":
        return []
    values = view.playable_values or []
    value = chosen_value(selection, values)
    if value is None:
        return [t("pileup.note.choose_value", locale)]
    plays = [p for p in legal_plays(table, player) if p.value == value]
    steps = chosen_steps(selection, plays)
    if not steps:
        return [t("pileup.note.first_card", locale, column=value)]
    chosen = play_of(value, steps)
    problem = refusal(table, player, chosen, locale)
    shown = text.play_layers(list(chosen.cards), list(chosen.stacked))
    if problem is not None:
        return [t("pileup.note.refused", locale, cards=shown, column=value, reason=problem)]
    notes = [t("pileup.note.play", locale, cards=shown, column=value, outcome=outcome_text(view, chosen, locale))]
    if next_steps(steps, plays):
        notes.append(t("pileup.note.more", locale))
    return notes
