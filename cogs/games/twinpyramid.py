"""Twin Pyramid in Discord: ``/play twinpyramid`` and the hand controls.

A turn: rearrange first, one step per click — choose one of your cards in the **Rearrange** select, then press
one of its steps (swap a held card with a shown one, move a held card to shown, swap a card with your stone of
the same rank); each press sends ``rearrange`` and the step as one action. Then the turn's one action: choose a
card to play (or an A / joker change) in the first select and press its button, or press **Draw** (or **Pass**
when nothing else is possible). Sub-decisions are buttons in the same view: stones to place after a J/Q/K, the
suit after an 8 or a joker, draw-or-pass after a 2, the order of the three cards after a 3, a forced draw (after
rearranging, if you like), and the next deal.

Everything chosen so far lives in the select values (stateless, so it survives a restart): an action choice is its
button code (``p:…``/``c:…``), a card to rearrange ``r:<card>``. Button codes: ``p:<card>`` play, ``d`` draw,
``n`` pass, ``c:<card>:<target>[:<owner>]`` change (no owner: the discard's top card), ``s:<held>:<shown>``,
``h:<card>``, ``t:<card>:<stone>`` rearrangement steps, ``b:<card>`` place a stone, ``e`` stop building,
``u:<suit>`` name a suit, ``2t``/``2p`` take or pass a 2, ``o:<c1>.<c2>.<c3>`` order three, ``f`` forced draw,
``x`` next deal.
"""
from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.errors import user_message
from bot.i18n import t
from bot.render import Names
from bot.render import twinpyramid as text
from bot.table import Table
from engines import EngineError
from engines.twinpyramid.actions import REARRANGE_TYPES

from ..common import names_for
from ..controls import ActButton, PickSelect
from ..lobby import DEFAULT_TIMER, LEVEL_CHOICES, TimerOption, open_lobby

ACTION_PARTS = (0, 2)  # PickSelect part numbers of the action selects (a second one only when over 25 choices)
CARD_PART = 1  # ... and of the card-to-rearrange select
SUITS = ("S", "H", "D", "C")
SIMPLE = {"d": "draw", "n": "pass", "e": "end_build", "2t": "take_two", "2p": "pass_two", "f": "forced_draw",
          "x": "next_deal"}


@app_commands.command(name="twinpyramid")
@app_commands.describe(bots="Bot seats to add at once (0–5)", jokers="Jokers in the deck (0–2)",
                       rounds="Rounds: every player is start player once per round (1–10)",
                       timer="Seconds per decision before a bot moves for an absent player (0 = no timer)")
@app_commands.describe(level="Bot level: easy, normal or strong")
@app_commands.choices(level=LEVEL_CHOICES)
async def play(interaction: discord.Interaction, bots: app_commands.Range[int, 0, 5] = 0,
               jokers: app_commands.Range[int, 0, 2] = 2, rounds: app_commands.Range[int, 1, 10] = 2,
               timer: TimerOption = DEFAULT_TIMER, level: str = "normal") -> None:
    """Twin Pyramid (2–6 players): build your field pyramid of stones before your hand bursts."""
    await open_lobby(interaction, "twinpyramid", {"jokers": jokers, "rounds": rounds}, bots, timer, level)


# ---- codes ------------------------------------------------------------------------------------------------------
def step_data(table: Table, step: dict[str, Any]) -> dict[str, Any]:
    """A rearrangement step as one action: with ``rearrange`` folded in, unless the menu is already open."""
    if table.state is not None and getattr(table.state, "arranging", False):
        return step
    return {"type": "rearrange_step", "step": step}


def decode(code: str, table: Table, player: str) -> dict[str, Any]:
    kind, *parts = code.split(":")
    if kind in SIMPLE and not parts:
        return {"type": SIMPLE[kind]}
    if kind == "p" and len(parts) == 1:
        return {"type": "play", "card": parts[0]}
    if kind == "b" and len(parts) == 1:
        return {"type": "place", "card": parts[0]}
    if kind == "u" and len(parts) == 1:
        return {"type": "name_suit", "suit": parts[0]}
    if kind == "c" and len(parts) in (2, 3):
        return {"type": "change", "card": parts[0], "target": parts[1], "owner": parts[2] if len(parts) == 3 else None}
    if kind == "o" and len(parts) == 1:
        return {"type": "order_three", "order": [c for c in parts[0].split(".") if c]}
    if kind == "s" and len(parts) == 2:
        return step_data(table, {"type": "swap_shown", "held": parts[0], "shown": parts[1]})
    if kind == "h" and len(parts) == 1:
        return step_data(table, {"type": "to_shown", "card": parts[0]})
    if kind == "g" and len(parts) == 1:
        return step_data(table, {"type": "to_held", "card": parts[0]})
    if kind == "t" and len(parts) == 2:
        return step_data(table, {"type": "swap_stone", "card": parts[0], "stone": parts[1]})
    return {"type": "?"}


def code_of(action: Any) -> str:
    """The button code of a legal action (the inverse of ``decode``)."""
    kind = action.type
    if kind == "play":
        return f"p:{action.card}"
    if kind == "place":
        return f"b:{action.card}"
    if kind == "name_suit":
        return f"u:{action.suit}"
    if kind == "change":
        return f"c:{action.card}:{action.target}" + (f":{action.owner}" if action.owner else "")
    if kind == "order_three":
        return "o:" + ".".join(action.order)
    if kind == "swap_shown":
        return f"s:{action.held}:{action.shown}"
    if kind == "to_shown":
        return f"h:{action.card}"
    if kind == "to_held":
        return f"g:{action.card}"
    if kind == "swap_stone":
        return f"t:{action.card}:{action.stone}"
    return next((c for c, k in SIMPLE.items() if k == kind), "?")


def refusal(table: Table, player: str, action: dict[str, Any], locale: object | None) -> str | None:
    """Why the action would be refused, or None when it is legal (tried on the pure engine; nothing changes)."""
    try:
        table.engine.apply(table.state, player, action)
    except EngineError as error:
        return user_message(error, locale)
    return None


def single(select: PickSelect) -> PickSelect:
    select.item.max_values = 1  # type: ignore[attr-defined]
    return select


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


def turn_choices(legal: list[Any], names: Names, locale: object | None) -> list[tuple[str, str]]:
    """(code, label) of every play and change; jokers are interchangeable, so only the first one is offered."""
    jokers = sorted({a.card for a in legal if a.type in ("play", "change") and a.card.startswith("X")})
    out: list[tuple[str, str]] = []
    for a in legal:
        if a.type not in ("play", "change") or (a.card.startswith("X") and a.card != jokers[0]):
            continue
        out.append((code_of(a), action_label(a, names, locale)))
    return out


def action_label(a: Any, names: Names, locale: object | None, *, hint: bool = True) -> str:
    if a.type == "play":
        hint = text.effect_hint(a.card, locale) if hint else ""
        key = "twinpyramid.action.play_wild" if a.card.startswith("X") else "twinpyramid.action.play"
        return t(key, locale, card=text.card(a.card)) + (f" — {hint}" if hint and not a.card.startswith("X") else "")
    return text.change_label(a.card, a.target, a.owner, names, locale)


def chosen(selection: list[str], prefix: tuple[str, ...], allowed: set[str]) -> str | None:
    return next((v for v in selection if v.startswith(prefix) and v in allowed), None)


# ---- controls ----------------------------------------------------------------------------------------------------
def controls(table: Table, player: str, view: dict[str, Any], selection: list[str],
             locale: object | None) -> list[discord.ui.Item]:
    legal = table.engine.legal_actions(table.state, player)
    if not legal:
        return []
    gid, ver = table.id, table.version
    names = names_for(table, locale)
    pending = view.get("pending")
    kind = "arranging" if view.get("arranging") else (pending["kind"] if pending else "turn")
    items: list[discord.ui.Item] = []
    if kind in ("turn", "forced_draw", "arranging"):
        return rearrange_and_act(table, player, view, selection, legal, kind, names, locale)
    if kind == "build":
        for a in legal:
            if a.type == "place":
                items.append(ActButton(gid, ver, code_of(a), t("twinpyramid.button.place", locale,
                                                                 card=text.card(a.card), slot=a.card[:-1]),
                                       discord.ButtonStyle.success))
        items.append(ActButton(gid, ver, "e", t("twinpyramid.button.end_build", locale),
                               discord.ButtonStyle.secondary))
    elif kind == "name_suit":
        for s in SUITS:
            items.append(ActButton(gid, ver, f"u:{s}", t("twinpyramid.button.suit", locale, suit=text.suit_mark(s),
                                                          name=text.suit_name(s, locale)),
                                   discord.ButtonStyle.primary))
    elif kind == "two_choice":
        nxt = names(text.next_player(view))
        items.append(ActButton(gid, ver, "2t", t("twinpyramid.button.take_two", locale), discord.ButtonStyle.danger))
        items.append(ActButton(gid, ver, "2p", t("twinpyramid.button.pass_two", locale, player=nxt),
                               discord.ButtonStyle.success))
    elif kind == "order_three":
        for a in legal:
            if a.type == "order_three":
                items.append(ActButton(gid, ver, code_of(a), t("twinpyramid.button.order", locale,
                                                                 order=text.order_text(a.order, view, names, locale)),
                                       discord.ButtonStyle.primary))
    elif kind == "deal_over":
        items.append(ActButton(gid, ver, "x", t("twinpyramid.button.next_deal", locale, deal=view.get("deal", 1) + 1,
                                                total=view.get("deals_total", 1)), discord.ButtonStyle.success))
    return items


def rearrange_and_act(table: Table, player: str, view: dict[str, Any], selection: list[str], legal: list[Any],
                      kind: str, names: Names, locale: object | None) -> list[discord.ui.Item]:
    """A turn or a forced draw: the card-to-rearrange select, its steps as buttons, and the decision's actions."""
    gid, ver = table.id, table.version
    steps = steps_now(table, player, legal)
    rearrange_cards = [c for c in [*view.get("hand", []), *my_shown(view)] if steps_of_card(steps, c)]
    picked = chosen(selection, ("r:",), {f"r:{c}" for c in rearrange_cards})
    choices = turn_choices(legal, names, locale) if kind == "turn" else []
    action = chosen(selection, ("p:", "c:"), {code for code, _ in choices})
    items: list[discord.ui.Item] = []
    row = 0
    if not picked and choices:
        parts = [choices[i:i + 25] for i in range(0, len(choices), 25)][:len(ACTION_PARTS)]
        for part_no, part in zip(ACTION_PARTS, parts):
            options = [discord.SelectOption(label=label[:100], value=code, default=code == action)
                       for code, label in part]
            carry = [v for v in selection if v.startswith("r:")]
            items.append(single(PickSelect(gid, ver, options, t("twinpyramid.select.action", locale), part_no, carry,
                                           row=row)))
            row += 1
    if rearrange_cards:
        held = set(view.get("hand", []))
        options = [discord.SelectOption(
            label=t("twinpyramid.select.card_held" if c in held else "twinpyramid.select.card_shown", locale,
                    card=text.card(c)), value=f"r:{c}", default=f"r:{c}" == picked) for c in rearrange_cards[:25]]
        carry = [v for v in selection if v.startswith(("p:", "c:"))]
        items.append(single(PickSelect(gid, ver, options, t("twinpyramid.select.rearrange", locale,
                                                            left=view.get("rearranges_left", 0)),
                                       CARD_PART, carry, row=row)))
        row += 1
    if picked:
        for i, step in enumerate(steps_of_card(steps, picked[2:])[:10]):
            items.append(ActButton(gid, ver, code_of(step), text.step_label(step.model_dump(), locale),
                                   discord.ButtonStyle.primary, row=row + i // 5))
        row += 2
    buttons: list[discord.ui.Item] = []
    if kind == "turn" and choices and not picked:
        label = dict(choices).get(action or "", "") if action else t("twinpyramid.button.act_empty", locale)
        buttons.append(ActButton(gid, ver, action or "p", label, discord.ButtonStyle.success, disabled=action is None,
                                 row=row))
    if any(a.type == "draw" for a in legal):
        buttons.append(ActButton(gid, ver, "d", t("twinpyramid.button.draw", locale), discord.ButtonStyle.secondary,
                                 row=row))
    if any(a.type == "pass" for a in legal):
        buttons.append(ActButton(gid, ver, "n", t("twinpyramid.button.pass", locale), discord.ButtonStyle.secondary,
                                 row=row))
    if any(a.type == "forced_draw" for a in legal):
        count = (view.get("pending") or {}).get("count", 1)
        buttons.append(ActButton(gid, ver, "f", t("twinpyramid.button.forced_draw", locale, count=count),
                                 discord.ButtonStyle.danger, row=row))
    return items + buttons


def play_effect(view: dict[str, Any], player: str, card: str, locale: object | None) -> str:
    """What playing ``card`` will do: its effect, none under another player's wild, nothing extra for a joker."""
    if card.startswith("X"):
        return ""
    wild = view.get("wild")
    if wild and wild["owner"] != player and text.rank_of(card) in ("2", "3", "7", "8", "9", "10"):
        return t("twinpyramid.effect.suppressed", locale)
    return text.effect_hint(card, locale)


def code_label(table: Table, player: str, code: str, names: Names, locale: object | None) -> str:
    """A readable label for a play or change code that is not among the choices (so not allowed now)."""
    try:
        return action_label(table.engine.parse_action(decode(code, table, player)), names, locale, hint=False)
    except (EngineError, AttributeError):
        return code


def my_shown(view: dict[str, Any]) -> list[str]:
    return list(text.seat_of(view, view.get("me")).get("shown", []))


def selection_notes(table: Table, player: str, view: dict[str, Any], selection: list[str],
                    locale: object | None) -> list[str]:
    """What the chosen play or change would do, or why it is refused; what the chosen card can be rearranged to."""
    legal = table.engine.legal_actions(table.state, player)
    pending = view.get("pending")
    if pending or view.get("arranging") or not legal:
        return []
    notes: list[str] = []
    names = names_for(table, locale)
    choices = turn_choices(legal, names, locale)
    picked = next((v for v in selection if v.startswith("r:")), None)
    action = next((v for v in selection if v.startswith(("p:", "c:"))), None)
    if picked:
        notes.append(t("twinpyramid.note.rearrange", locale, card=text.card(picked[2:]),
                       left=view.get("rearranges_left", 0)))
    elif action:
        label = code_label(table, player, action, names, locale)
        problem = refusal(table, player, decode(action, table, player), locale)
        effect = play_effect(view, player, action.split(":")[1], locale) if action.startswith("p:") else ""
        if problem is not None:
            notes.append(t("twinpyramid.note.refused", locale, action=label, reason=problem))
        elif effect:
            notes.append(t("twinpyramid.note.ok_effect", locale, action=label, effect=effect))
        else:
            notes.append(t("twinpyramid.note.ok", locale, action=label))
    elif not choices and any(a.type == "draw" for a in legal):
        notes.append(t("twinpyramid.note.nothing_fits", locale))
    seat = text.seat_of(view, player)
    if choices and not any(a.type == "draw" for a in legal) and seat.get("hand_count", 0) >= 9:
        notes.append(t("twinpyramid.note.no_tenth_card", locale))
    return notes
