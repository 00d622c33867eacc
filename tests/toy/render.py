"""The toy game as text (from views only, through the catalogs)."""
from __future__ import annotations

from PIL import Image, ImageDraw

from bot.i18n import t
from bot.render import Board, Names, ranking_lines
from bot.render.shapes import INK, WHITE, font, to_png
from engines import Event

from .engine import HAND
from .view import ToyView


def card(card_id: str) -> str:
    return f"🂠{card_id[1:]}"


def cards(ids: list[str]) -> str:
    return " ".join(card(c) for c in ids) or "—"


def board(view: ToyView, names: Names, locale: object | None) -> Board:
    lines = [t("toy.board.played", locale, player=names(p), cards=cards(view.played[p]),
               count=view.hand_sizes[p]) for p in view.players]
    if view.result is not None:
        lines += ranking_lines(view.result.ranking, view.result.scores, names, locale)
    footer = t("toy.board.to_play", locale, player=names(view.to_act[0])) if view.to_act else \
        t("common.game_over", locale)
    return Board(t("game.toy.name", locale), lines, footer)


def hand(view: ToyView, names: Names, locale: object | None) -> str:
    own = view.hand or []  # a spectator holds nothing
    return t("toy.hand.cards", locale, cards=cards(own), count=len(own))


def event(ev: Event, names: Names, locale: object | None) -> str | None:
    if ev.type == "dealt":
        return t("toy.event.dealt", locale, count=ev.data["cards"])
    if ev.type == "played":
        return t("toy.event.played", locale, player=names(ev.data["player"]), card=card(ev.data["card"]))
    return None


def rules_fields(locale: object | None) -> dict[str, str]:
    """The rules text takes the deck size from the engine (an optional hook the toy uses to be covered)."""
    return {"deck": "9"}


def image(view: ToyView, names: Names, locale: object | None) -> bytes:
    """The played cards of each seat, one row a seat, as white cards with their numbers (the picture a board
    gives the viewer and the animated summary)."""
    picture = Image.new("RGB", (40 + 36 * HAND, 20 + 44 * len(view.players)), (30, 110, 70))
    draw = ImageDraw.Draw(picture)
    for row, player in enumerate(view.players):
        top = 10 + 44 * row
        draw.text((6, top + 20), str(row + 1), font=font(16), fill=WHITE, anchor="lm")
        for column, played in enumerate(view.played[player]):
            left = 30 + 36 * column
            draw.rectangle((left, top, left + 30, top + 40), fill=WHITE, outline=INK)
            draw.text((left + 15, top + 20), played[1:], font=font(18), fill=INK, anchor="mm")
    return to_png(picture)
