"""Rendering: text from views only (never from raw state), through i18n.

Each game has a render module (its plug-in's ``render``, ``bot/render/<game>.py``) with the hooks of
``bot.games.RenderHooks``; this package dispatches to it and adds what every game shares.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from engines import Event, Json, View

from ..games import render_hooks
from ..i18n import join_list, t
from ..literal import plain


def as_written(name: str) -> str:
    return name


# A name enters terminal text with its markdown characters stood in for, so that ``terminal_text`` removes the
# catalog's markup (``**bold**``, ```code```) and gives the name back as typed.
_GUARD = str.maketrans({"*": "\ue000", "`": "\ue001"})
_UNGUARD = str.maketrans({"\ue000": "*", "\ue001": "`"})


def guarded(name: str) -> str:
    """How a name enters text printed by ``terminal_text`` (the demo, the terminal replay)."""
    return name.translate(_GUARD)


def terminal_text(text: str) -> str:
    """A line written for Discord as a terminal prints it: the catalog's bold and code marks dropped, the names
    (entered through ``guarded``) as typed."""
    return text.replace("**", "").replace("`", "").translate(_UNGUARD)


@dataclass
class Names:
    """Display names of the seats (``display``: as typed, less the hidden characters ``bot.literal.plain`` drops),
    how a name enters a text (``shown``: as written for the demo, pictures and labels; ``bot.literal.markdown`` for
    Discord's markdown, which the cogs' ``names_for`` chooses), and how to mention a human seat."""

    display: dict[str, str]
    user_ids: dict[str, int] = field(default_factory=dict)
    shown: Callable[[str], str] = as_written

    def __call__(self, player: str | None) -> str:
        if player is None:
            return "?"
        return self.shown(self.display.get(player, player))

    def plain(self) -> "Names":
        """The same names for text Discord shows as is (labels, footers, alt text) and for pictures."""
        return replace(self, shown=as_written)

    def mention(self, player: str) -> str:
        uid = self.user_ids.get(player)
        return f"<@{uid}>" if uid is not None else f"**{self(player)}**"


_BOT_SEAT = re.compile(r"bot(\d+)")


def seat_names(seats: Any, locale: object | None, shown: Callable[[str], str] = as_written) -> Names:
    """Names of a table's seats: people by their display name (``plain``), the host's bots as "Bot 1" in the
    reader's language, and mentions for people; ``shown``: how a name enters the text (see ``Names``)."""
    display = {}
    for seat in seats:
        bot_number = _BOT_SEAT.fullmatch(seat.player)
        display[seat.player] = (t("common.bot_name", locale, number=bot_number.group(1))
                                if seat.is_bot and seat.user_id is None and bot_number else plain(seat.name))
    return Names(display, {s.player: s.user_id for s in seats if s.user_id is not None and not s.is_bot}, shown)


@dataclass
class Board:
    """A public board: a title, body lines and a footer; the cog makes an embed of it, the demo prints it.
    ``legend``: how to read the board (its marks, its picture), which a table shows once, not on every board."""

    title: str
    lines: list[str]
    footer: str = ""
    legend: str = ""

    def text(self) -> str:
        parts = [f"== {self.title} ==", *self.lines]
        parts += [part for part in (self.footer, self.legend) if part]
        return "\n".join(parts)


def game_title(game: str, locale: object | None) -> str:
    return t(f"game.{game}.name", locale)


def board(game: str, view: View, names: Names, locale: object | None) -> Board:
    return render_hooks(game).board(view, names, locale)


def hand(game: str, view: View, names: Names, locale: object | None) -> str:
    return render_hooks(game).hand(view, names, locale)


def review_picture(game: str) -> Callable[..., bytes] | None:
    """How a moment looked back at is drawn (the viewer, the animated summary), called ``(view, names, locale,
    moved=seat)`` with the seat whose move led to it: the game's ``review_image`` (every seat's public state),
    else its board ``image``; None for a game that draws none."""
    hooks = render_hooks(game)
    if hooks.review_image is not None:
        return hooks.review_image
    image = hooks.image
    if image is None:
        return None
    return lambda view, names, locale, moved=None: image(view, names, locale)  # the board picture knows no mover


def event_line(game: str, event: Event | Json, names: Names, locale: object | None) -> str | None:
    ev = event if isinstance(event, Event) else Event.model_validate(event)
    return render_hooks(game).event(ev, names, locale)


def ranking_lines(ranking: list[list[str]], scores: Mapping[str, float], names: Names, locale: object | None
                  ) -> list[str]:
    medals = ["🥇", "🥈", "🥉"]
    lines = []
    place = 1
    for group in ranking:
        mark = medals[place - 1] if place <= len(medals) else f"{place}."
        who = join_list((names(p) for p in group), locale)
        score = scores.get(group[0])
        lines.append(t("common.ranking_line", locale, mark=mark, place=place, players=who,
                       score="" if score is None else t("common.score_suffix", locale, score=score)))
        place += len(group)
    return lines
