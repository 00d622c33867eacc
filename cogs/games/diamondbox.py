"""Diamond Box (rule 2) in Discord: ``/play diamondbox`` and the hand controls.

A turn is: choose a card (a select listing each card's number of legal places), then one of its legal placements
(a button for the best ones of the page shown, or a second select, best first — most squares covered — paged by 23
with "more"/"back" entries when longer), then **Place**; **Pass** is always there. While the player decides, the
hand view's picture is the centre with the chosen card's spots on the page shown lettered ``A``, ``B``, … — the
labels its buttons and select use (``text.spot_label``: a place's rank in the card's list, so a letter stays with
its place across pages). It previews the chosen placement (what it covers, whether the designated colour changes,
and the centre with the card placed). A pending colour choice shows colour buttons to the player the rules name
(the table pings them).

Everything chosen so far lives in the select values / custom ids (stateless, survives a restart), read as a
``DiamondBoxSelection``: a card is its id (``R04``), a placement ``@<card>_<turn>_<x>_<y>``, a page ``pg<n>``.
Buttons carry their action's index among the legal actions (``cogs.controls.Actions``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

import discord

from bot.discord_rules.limits import OPTION_LABEL, SELECT_OPTIONS, SELECT_PLACEHOLDER
from bot.i18n import t
from bot.render import diamondbox as text
from bot.table import Table
from engines.diamondbox.cards import Cell, cells_of, size_at
from engines.diamondbox.geometry import Placement, centre_from_view, place, visible_colours
from engines.diamondbox.view import DiamondBoxView

from ..action_codes import refusal
from ..common import names_for
from ..controls import Actions, PickSelect, single
from ..custom_ids import INDEX, number
from ..selection import TOKEN, Selection

if TYPE_CHECKING:
    from bot.render.diamondbox_image import Spot  # the picture's module loads Pillow: only where a picture is drawn

PAGE = SELECT_OPTIONS - 2  # placements per page of the select: with its "more" and "back" entries, one select
CARD_PART, PLACE_PART = 0, 1
QUICK = 5  # best placements of the chosen card offered as buttons (one row)


PLACEMENT = re.compile(r"@[A-Z0-9]+_(?:0|90|180|270)_-?[0-9]{1,3}_-?[0-9]{1,3}")  # a placement's select value


def value_of(p: Placement) -> str:
    return f"@{p.card}_{p.turn}_{p.x}_{p.y}"


@dataclass(frozen=True)
class DiamondBoxSelection(Selection):
    """The card chosen (the last card value), the placement chosen (select value ``@<card>_<turn>_<x>_<y>``) and
    the page of placements shown (``pg<n>``); carried as those values joined by "."."""

    card: str | None = None
    placement: str | None = None
    page: int | None = None

    @classmethod
    def of(cls, values: Sequence[str]) -> DiamondBoxSelection:
        placement = next((v for v in values if PLACEMENT.fullmatch(v)), None)
        page = next((n for v in values if v[:2] == "pg" and (n := number(v[2:], INDEX)) is not None), None)
        cards = [v for v in values if v[:1] != "@" and v[:2] != "pg" and TOKEN.fullmatch(v)]
        return cls(cards[-1] if cards else None, placement, page)

    @staticmethod
    def page_value(page: int) -> str:
        return f"pg{page}"

    def values(self) -> list[str]:
        page = None if self.page is None else self.page_value(self.page)
        return [v for v in (self.card, self.placement, page) if v]

    def encode(self) -> str:
        return ".".join(self.values())

    @classmethod
    def decode(cls, text: str) -> DiamondBoxSelection:
        values = text.split(".") if text else []
        read = cls.of(values)
        if read.values() != values:  # anything not in the form ``encode`` writes
            raise ValueError(text)
        return read


selection_model = DiamondBoxSelection  # the plug-in's hook


class Choice:
    """What the selection says: the card, the page of its places, the placement (each may be missing)."""

    def __init__(self, hand: list[str], found: list[Placement], selection: list[str]) -> None:
        chosen = DiamondBoxSelection.of(selection)
        self.card = chosen.card if chosen.card in hand else None
        self.places = [p for p in found if p.card == self.card]
        self.placement = next((p for p in self.places if value_of(p) == chosen.placement), None)
        pages = max(1, -(-len(self.places) // PAGE))
        page = chosen.page
        if page is None and self.placement is not None:
            page = self.places.index(self.placement) // PAGE
        self.pages = pages
        self.page = min(max(page or 0, 0), pages - 1)

    @property
    def page_places(self) -> list[Placement]:
        """The card's places on the page shown (the select's options and the picture's spots)."""
        return self.places[self.page * PAGE:(self.page + 1) * PAGE]

    def label(self, p: Placement) -> str:
        return text.spot_label(self.places.index(p))


def placements(table: Table, player: str) -> list[Placement]:
    return table.engine.placements(table.state, player)  # type: ignore[attr-defined]  # DiamondBoxEngine's own method; table.engine is typed as Engine


# ---- controls ----------------------------------------------------------------------------------------------------
def controls(table: Table, player: str, view: DiamondBoxView, selection: list[str],
             locale: object | None) -> list[discord.ui.Item]:
    gid, ver = table.id, table.version
    actions = Actions(table, player)
    choice = view.colour_choice
    if choice is not None:
        if choice.chooser != player:
            return []
        return [actions.button({"type": "choose_colour", "colour": c}, t("diamondbox.button.colour", locale,
                                                                          colour=text.colour_name(c, locale)),
                               discord.ButtonStyle.primary, row=0) for c in choice.choices]
    if view.turn != player:
        return []
    hand = view.hand or []
    found = placements(table, player)
    chosen = Choice(hand, found, selection)
    counts = {c: sum(1 for p in found if p.card == c) for c in hand}
    card_options = []
    for c in hand:
        key = "diamondbox.select.card_option" if counts[c] else "diamondbox.select.card_none"
        card_options.append(discord.SelectOption(
            label=t(key, locale, card=text.card(c), face=text.face_of(c), count=counts[c])[:OPTION_LABEL], value=c,
            default=c == chosen.card))
    items: list[discord.ui.Item] = [single(PickSelect(gid, ver, card_options, t("diamondbox.select.card", locale),
                                                      CARD_PART, None, row=0), chosen_when_alone=True)]
    if chosen.card is not None and chosen.places:
        items.append(place_select(table, chosen, locale))
    if chosen.placement is not None:
        p = chosen.placement
        items.append(actions.button({"type": "place", "card": p.card, "turn": p.turn, "x": p.x, "y": p.y},
                                    t("diamondbox.button.place", locale, spot=chosen.label(p),
                                      turn=text.turn_mark(p.turn)), discord.ButtonStyle.success, row=2))
    else:
        items.append(actions.button(None, t("diamondbox.button.place_empty", locale), discord.ButtonStyle.success,
                                    row=2))
    items.append(actions.button({"type": "pass"}, t("diamondbox.button.pass", locale), discord.ButtonStyle.secondary,
                                row=2))
    return items + quick_places(actions, chosen, locale)


def quick_places(actions: Actions, chosen: Choice, locale: object | None) -> list[discord.ui.Item]:
    """The best placements of the page shown (most squares covered first) as buttons named by their spots on the
    picture: the commonest move is one click after choosing the card; the select (with its preview) stays for the
    others."""
    out: list[discord.ui.Item] = []
    for p in [p for p in chosen.page_places if p != chosen.placement][:QUICK]:
        out.append(actions.button({"type": "place", "card": p.card, "turn": p.turn, "x": p.x, "y": p.y},
                                  t("diamondbox.button.place_covers", locale, spot=chosen.label(p),
                                    turn=text.turn_mark(p.turn), covered=p.covered),
                                  discord.ButtonStyle.primary, row=3))
    return out


def place_select(table: Table, chosen: Choice, locale: object | None) -> PickSelect:
    """The chosen card's legal places, best first; a page of ``PAGE`` with entries to the next/previous page."""
    assert chosen.card is not None
    options = []
    if chosen.page > 0:
        options.append(discord.SelectOption(label=t("diamondbox.select.page_previous", locale, page=chosen.page),
                                            value=DiamondBoxSelection.page_value(chosen.page - 1)))
    for p in chosen.page_places:
        options.append(discord.SelectOption(
            label=text.placement_option(p.card, p.turn, p.x, p.y, p.covered, chosen.label(p), locale)[:OPTION_LABEL],
            value=value_of(p), default=p == chosen.placement))
    if chosen.page + 1 < chosen.pages:
        options.append(discord.SelectOption(label=t("diamondbox.select.page_next", locale, page=chosen.page + 2),
                                            value=DiamondBoxSelection.page_value(chosen.page + 1)))
    if chosen.pages > 1:
        placeholder = t("diamondbox.select.placement_page", locale, card=text.card(chosen.card), page=chosen.page + 1,
                        pages=chosen.pages)
    else:
        placeholder = t("diamondbox.select.placement", locale, card=text.card(chosen.card), count=len(chosen.places))
    return single(PickSelect(table.id, table.version, options, placeholder[:SELECT_PLACEHOLDER], PLACE_PART,
                             DiamondBoxSelection(card=chosen.card), row=1),
                  chosen_when_alone=True)


def selection_notes(table: Table, player: str, view: DiamondBoxView, selection: list[str],
                    locale: object | None) -> list[str]:
    """What the chosen placement would do (squares covered, bonus turn, colour change, the centre around it),
    or why it is refused; and what is still to choose."""
    if view.colour_choice is not None or view.turn != player:
        return []
    found = placements(table, player)
    chosen = Choice(view.hand or [], found, selection)
    if not found:
        return [t("diamondbox.note.no_placement", locale)]
    if chosen.card is None:
        return [t("diamondbox.note.choose_card", locale)]
    if not chosen.places:
        return [t("diamondbox.note.card_nowhere", locale, card=text.card(chosen.card))]
    p = chosen.placement
    if p is None:
        return [t("diamondbox.note.choose_place", locale, card=text.card(chosen.card))]
    move = text.spot(p.card, p.turn, chosen.label(p), locale)
    problem = refusal(table, player, {"type": "place", "card": p.card, "turn": p.turn, "x": p.x, "y": p.y}, locale)
    if problem is not None:
        return [t("diamondbox.note.refused", locale, move=move, reason=problem)]
    notes = [t("diamondbox.note.ok_bonus" if p.covered == 6 else "diamondbox.note.ok", locale, move=move,
               covered=p.covered)]
    centre = centre_from_view(view)
    new = set(place(centre, p.card, p.turn, p.x, p.y, len(view.placements)))
    designated = view.designated
    if designated not in visible_colours(centre):
        order = view.order
        at = order.index(player)
        chooser = order[(at - 1) % len(order)] if p.covered == 6 else player
        notes.append(t("diamondbox.note.gone", locale, colour=text.colour_name(designated, locale),
                       chooser=names_for(table, locale)(chooser)))
    grid = text.preview_grid(centre, new, locale)
    notes.append(t("diamondbox.note.preview", locale, grid="```\n" + "\n".join(grid) + "\n```"))
    return notes


def hand_image(table: Table, player: str, view: DiamondBoxView, selection: list[str],
               locale: object | None) -> bytes | None:
    """The hand view's picture (called by ``hand_message`` in a worker thread). While the player places: the centre
    (drawn from the spectator view) with the chosen card's spots on the page shown lettered as the controls name
    them, and the chosen placement made and framed in gold. Otherwise the player's cards."""
    from bot.render import diamondbox_image as image

    hand = view.hand
    if not hand:
        return None
    if view.turn == player and view.colour_choice is None:
        chosen = Choice(hand, placements(table, player), selection)
        return image.spots_png(table.view_as(DiamondBoxView, None), spots(chosen), made(chosen))
    return image.hand_png(view.hand_faces or [])


def spots(chosen: Choice) -> list[Spot]:
    """The picture's spots: the page's places and the chosen one (which may lie on another page)."""
    from bot.render.diamondbox_image import Spot

    shown = chosen.page_places + [p for p in [chosen.placement] if p is not None and p not in chosen.page_places]
    return [Spot(chosen.label(p), tuple((p.x + dx, p.y + dy) for dx, dy, _ in cells_of(p.card, p.turn)),
                 p == chosen.placement) for p in shown]


def made(chosen: Choice) -> tuple[tuple[Cell, ...], str, int, int, int, int] | None:
    """The chosen placement as ``spots_png`` draws it made: its cells, card, place and size."""
    p = chosen.placement
    if p is None:
        return None
    width, height = size_at(p.turn)
    return cells_of(p.card, p.turn), p.card, p.x, p.y, width, height
