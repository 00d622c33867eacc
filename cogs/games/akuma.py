"""Akuma Trick in Discord: ``/play akuma`` and the hand controls (pick cards, then Play or Release;
steal targets after playing 2s)."""
from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.i18n import t
from bot.render import akuma as akuma_text
from bot.table import Table
from engines.akuma import Steal

from ..controls import ActButton, card_selects, refusal
from ..lobby import DEFAULT_TIMER, LEVEL_CHOICES, TimerOption, open_lobby


@app_commands.command(name="akuma")
@app_commands.describe(bots="Bot seats to add at once (0–5)", start="Who plays first",
                       timer="Seconds per decision before a bot moves for an absent player (0 = no timer)")
@app_commands.choices(start=[app_commands.Choice(name="random", value="random"),
                             app_commands.Choice(name="host", value="host")])
@app_commands.describe(level="Bot level: easy, normal or strong")
@app_commands.choices(level=LEVEL_CHOICES)
async def play(interaction: discord.Interaction, bots: app_commands.Range[int, 0, 5] = 0,
               start: str = "random", timer: TimerOption = DEFAULT_TIMER, level: str = "normal") -> None:
    """Akuma Trick (3–6 players): shed your devils, but never all of them."""
    await open_lobby(interaction, "akuma", {"start_player": 0} if start == "host" else {}, bots, timer, level)


def decode(code: str, table: Table, player: str) -> dict[str, Any]:
    """``p:Y1.Y2`` play, ``r:Y1.Y2`` release, ``s:<player>`` steal from, ``x`` stop stealing."""
    kind, _, rest = code.partition(":")
    cards = [c for c in rest.split(".") if c]
    if kind == "p":
        return {"type": "play", "cards": cards}
    if kind == "r":
        return {"type": "release", "cards": cards}
    if kind == "s":
        return {"type": "steal", "victim": rest}
    if kind == "x":
        return {"type": "stop_stealing"}
    return {"type": "?"}




def controls(table: Table, player: str, view: dict[str, Any], selection: list[str],
             locale: object | None) -> list[discord.ui.Item]:
    gid, ver = table.id, table.version
    names = table.names(locale)
    if view.get("steals_left"):
        # Only the steal decision is enumerated: listing every legal release can be large.
        steals = [a for a in table.engine.legal_actions(table.state, player) if isinstance(a, Steal)]
        items: list[discord.ui.Item] = [
            ActButton(gid, ver, f"s:{a.victim}", t("akuma.button.steal_from", locale,
                                                    player=names.get(a.victim, a.victim),
                                                    count=view["hand_sizes"].get(a.victim, 0)))
            for a in steals]
        items.append(ActButton(gid, ver, "x", t("akuma.button.stop_stealing", locale),
                               discord.ButtonStyle.secondary))
        return items
    hand = view.get("hand", [])
    selection = [c for c in selection if c in hand]
    items: list[discord.ui.Item] = list(card_selects(gid, ver, hand, selection, akuma_text.card,
                                                     t("akuma.select.placeholder", locale)))
    buttons_row = len(items)
    chosen = ".".join(selection)
    play_problem = refusal(table, player, {"type": "play", "cards": selection}, locale) if selection else None
    items.append(ActButton(gid, ver, f"p:{chosen}", t("akuma.button.play", locale, cards=akuma_text.cards(selection))
                           if selection else t("akuma.button.play_empty", locale),
                           discord.ButtonStyle.success, disabled=not selection or play_problem is not None,
                           row=buttons_row))
    if view.get("row"):
        forced = view.get("release_forced")
        if forced is not None:
            label = t("akuma.button.release_forced", locale, cards=akuma_text.cards(forced))
            items.append(ActButton(gid, ver, "r:" + ".".join(forced), label, discord.ButtonStyle.danger,
                                   row=buttons_row))
        else:
            items.append(ActButton(gid, ver, f"r:{chosen}", t("akuma.button.release", locale,
                                                              number=view.get("release_number")),
                                   discord.ButtonStyle.danger, disabled=not selection, row=buttons_row))
    return items


def selection_notes(table: Table, player: str, view: dict[str, Any], selection: list[str],
                    locale: object | None) -> list[str]:
    """Lines under the hand telling whether the selected cards can be played or released, and why not."""
    if not selection:
        return []
    notes = []
    problem = refusal(table, player, {"type": "play", "cards": selection}, locale)
    notes.append(t("akuma.hand.can_play", locale) if problem is None else t("akuma.hand.cannot_play", locale,
                                                                             reason=problem))
    if view.get("row") and view.get("release_forced") is None:
        problem = refusal(table, player, {"type": "release", "cards": selection}, locale)
        notes.append(t("akuma.hand.can_release", locale) if problem is None
                     else t("akuma.hand.cannot_release", locale, reason=problem))
    return notes
