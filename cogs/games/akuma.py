"""Akuma Trick in Discord: ``/play akuma`` and the hand controls (pick cards, then Play or Release;
steal targets after playing 2s)."""
from __future__ import annotations

import discord

from bot.i18n import t
from bot.render import akuma as akuma_text
from bot.table import Table
from engines.akuma import AkumaView, Play, Release, Steal, StopStealing

from ..action_codes import refusal
from ..controls import Actions, card_selects


def controls(table: Table, player: str, view: AkumaView, selection: list[str],
             locale: object | None) -> list[discord.ui.Item]:
    gid, ver = table.id, table.version
    names = table.names(locale)
    actions = Actions(table, player)
    if view.steals_left:
        items: list[discord.ui.Item] = [
            actions.button(a, t("akuma.button.steal_from", locale, player=names.get(a.victim, a.victim),
                                count=view.hand_sizes.get(a.victim, 0)))
            for a in actions.all if isinstance(a, Steal)]
        items.append(actions.button(StopStealing(), t("akuma.button.stop_stealing", locale),
                                    discord.ButtonStyle.secondary))
        return items
    hand = view.hand or []
    selection = [c for c in selection if c in hand]
    items = list(card_selects(gid, ver, hand, selection, akuma_text.card, t("akuma.select.placeholder", locale)))
    buttons_row = len(items)
    play = actions.find(lambda a: isinstance(a, Play) and sorted(a.cards) == sorted(selection)) if selection else None
    items.append(actions.button(play, t("akuma.button.play", locale, cards=akuma_text.cards(selection))
                                if selection else t("akuma.button.play_empty", locale),
                                discord.ButtonStyle.success, row=buttons_row))
    if view.row:
        forced = view.release_forced
        if forced is not None:
            label = t("akuma.button.release_forced", locale, cards=akuma_text.cards(forced))
            items.append(actions.button(actions.find(lambda a: isinstance(a, Release)), label,
                                        discord.ButtonStyle.danger, row=buttons_row))
        else:
            release = actions.find(lambda a: isinstance(a, Release) and sorted(a.cards) == sorted(selection))
            items.append(actions.button(release if selection else None,
                                        t("akuma.button.release", locale, number=view.release_number),
                                        discord.ButtonStyle.danger, row=buttons_row))
    return items


def selection_notes(table: Table, player: str, view: AkumaView, selection: list[str],
                    locale: object | None) -> list[str]:
    """Lines under the hand telling whether the selected cards can be played or released, and why not."""
    if not selection:
        return []
    notes = []
    problem = refusal(table, player, {"type": "play", "cards": selection}, locale)
    notes.append(t("akuma.hand.can_play", locale) if problem is None else t("akuma.hand.cannot_play", locale,
                                                                             reason=problem))
    if view.row and view.release_forced is None:
        problem = refusal(table, player, {"type": "release", "cards": selection}, locale)
        notes.append(t("akuma.hand.can_release", locale) if problem is None
                     else t("akuma.hand.cannot_release", locale, reason=problem))
    return notes
