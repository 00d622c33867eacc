"""Diamond Box (rule 2) as text: card marks (``🟥R04``), card faces (``◇·/··/··``: white ◇, black ◆, blank ·),
placements, a placement preview as a small grid, and the summary under the board picture (the centre itself is
only the picture: its alt text says what it shows).

Places are named two ways. In the log and on the board a placement is named by the squares it covers, in the
numbers the board picture prints on its edges (x to the right, y downwards): ``🟥R04 ↻180° on columns 0 to 1, rows
-3 to -1`` — anyone reading the public board finds it there. In the hand view the chosen card's candidate places
are spots lettered ``A``, ``B``, … (``spot_label``: the place's rank in the card's list, best first, so a letter
stays with its place across pages), drawn on the hand view's picture and used by its buttons and select.
"""
from __future__ import annotations

from typing import Any

from engines import Event
from engines.diamondbox.cards import COLOURS, TURNS_ALL, cells_of, size_at, table
from engines.diamondbox.view import DiamondBoxView

from ..i18n import join_list, sentences, t
from . import Board, Names, ranking_lines
from . import diamondbox_event_shapes as E
from .event_table import EventText, On, format_event

COLOUR_MARKS = {"R": "🟥", "Y": "🟨", "G": "🟩", "B": "🟦", "P": "🟪"}
DIAMOND_MARKS = {"w": "◇", "b": "◆", ".": "·"}


# ---- cards and placements --------------------------------------------------------------------------------------
def colour_mark(colour: str | None) -> str:
    return COLOUR_MARKS.get(colour or "", "⬜")


def colour_name(colour: str | None, locale: object | None) -> str:
    if colour not in COLOUR_MARKS:
        return t("diamondbox.colour.none", locale)
    return f"{COLOUR_MARKS[colour]} {t(f'diamondbox.colour.{colour}', locale)}"


def colours(values: list[str], locale: object | None) -> str:
    return join_list((colour_name(c, locale) for c in values), locale) or "—"


def card(card_id: str) -> str:
    """``R04`` → ``🟥R04``."""
    return f"{colour_mark(card_id[:1])}{card_id}"


def face(rows: list[str] | str) -> str:
    """A card's squares row by row, ``◇·/··/··``."""
    if isinstance(rows, str):
        rows = rows.split("/")
    return "/".join("".join(DIAMOND_MARKS.get(ch, "?") for ch in row) for row in rows)


def face_of(card_id: str) -> str:
    pattern = table().patterns.get(card_id[1:])
    return face(pattern) if pattern else "?"


def turn_mark(turn: int) -> str:
    return f"↻{turn}°"


def footprint(turn: int, x: int, y: int) -> dict[str, int]:
    """The columns and rows a card turned so and placed at (x, y) covers: ``x0``–``x1``, ``y0``–``y1``."""
    width, height = size_at(turn)
    return {"x0": x, "x1": x + width - 1, "y0": y, "y1": y + height - 1}


def placement(card_id: str, turn: int, x: int, y: int, locale: object | None) -> str:
    """A placement as the log and the board name it: by the columns and rows the board picture numbers."""
    return t("diamondbox.move.place", locale, card=card(card_id), turn=turn_mark(turn), **footprint(turn, x, y))


def spot_label(index: int) -> str:
    """The label of the ``index``-th candidate spot (0-based): ``A`` … ``Z``, ``AA``, ``AB`` … (letters, so that
    they are not mistaken for the board's coordinates)."""
    label = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        label = chr(ord("A") + rest) + label
    return label


def spot(card_id: str, turn: int, label: str, locale: object | None) -> str:
    """``🟥R04 at B (↻180°)``: a candidate spot as the hand view's notes name it."""
    return t("diamondbox.move.spot", locale, card=card(card_id), spot=label, turn=turn_mark(turn))


def placement_option(card_id: str, turn: int, x: int, y: int, covered: int, label: str,
                     locale: object | None) -> str:
    """A line of the hand view's placement select: the spot's label, turned how, how many squares it covers and
    where on the board's grid."""
    key = "diamondbox.move.option_bonus" if covered == 6 else "diamondbox.move.option"
    return t(key, locale, spot=label, turn=turn_mark(turn), covered=covered,
             face=face([r for r in turned_rows(card_id, turn)]), **footprint(turn, x, y))


def turned_rows(card_id: str, turn: int) -> list[str]:
    """The card's rows as they lie on the table at this turn."""
    cells = cells_of(card_id, turn)
    width = max(dx for dx, _, _ in cells) + 1
    height = max(dy for _, dy, _ in cells) + 1
    grid = [["."] * width for _ in range(height)]
    for dx, dy, diamond in cells:
        grid[dy][dx] = diamond
    return ["".join(row) for row in grid]


# ---- the centre as text ---------------------------------------------------------------------------------------
def preview_grid(centre: dict[tuple[int, int], Any], new: set[tuple[int, int]], locale: object | None) -> list[str]:
    """The centre after a placement, the rows around it; the new card's squares marked ``>``."""
    xs = [x for x, _ in centre]
    ys = [y for _, y in new]
    rows = range(max(min(ys) - 2, min(y for _, y in centre)), min(max(ys) + 2, max(y for _, y in centre)) + 1)
    squares = {pos: (sq[0], sq[1]) for pos, sq in centre.items()}
    return _grid(squares, range(min(xs), max(xs) + 1), rows, new, locale)


def _grid(squares: dict[tuple[int, int], tuple[str, str]], xs: range, ys: Any, marked: set[tuple[int, int]],
          locale: object | None) -> list[str]:
    letters = {c: t(f"diamondbox.colour_letter.{c}", locale) for c in COLOURS}
    wide = any(ord(v[0]) > 0x2E80 for v in letters.values())  # kanji letters take two columns
    blank = "   " if wide else "  "
    lines = ["    " + "".join(f"{x:>4}" if wide else f"{x:>3}" for x in xs)]
    for y in ys:
        cells = []
        for x in xs:
            sq = squares.get((x, y))
            cell = blank if sq is None else letters[sq[0]] + DIAMOND_MARKS.get(sq[1], "?")
            cells.append((">" if (x, y) in marked else " ") + cell)
        lines.append(f"{y:>3} " + "".join(cells).rstrip())
    return lines


def last_line(view: DiamondBoxView, names: Names, locale: object | None) -> str | None:
    index = view.last_placement
    if index is None:
        return None
    p = view.placements[index]
    return t("diamondbox.board.last", locale, player=names(p.player),
             move=placement(p.card, p.turn, p.x, p.y, locale), covered=p.covered)


def colour_counts(view: DiamondBoxView, locale: object | None) -> str:
    counts: dict[str, int] = {}
    for sq in view.centre:
        counts[sq.colour] = counts.get(sq.colour, 0) + 1
    return " · ".join(f"{colour_mark(c)} {counts[c]}" for c in COLOURS if c in counts)


def cards_line(view: DiamondBoxView, names: Names, locale: object | None) -> str:
    parts = [t("diamondbox.board.player_cards", locale, player=names(p), hand=view.hand_sizes[p],
               pile=view.pile_sizes[p]) for p in view.order]
    return t("diamondbox.board.cards", locale, players=" · ".join(parts))


def choice_line(view: DiamondBoxView, names: Names, locale: object | None) -> str | None:
    choice = view.colour_choice
    if choice is None:
        return None
    key = "diamondbox.pending.bonus" if choice.bonus else "diamondbox.pending.choice"
    return t(key, locale, chooser=names(choice.chooser), reason=reason_text(choice.reason, locale),
             choices=colours(choice.choices, locale), then=names(choice.then))


def reason_text(reason: str, locale: object | None) -> str:
    return t(f"diamondbox.reason.{reason}", locale)


def turns_text(view: DiamondBoxView, locale: object | None) -> str:
    turns = tuple(view.allowed_turns)
    return t("diamondbox.turns.all" if turns == TURNS_ALL else "diamondbox.turns.half", locale)


def result_lines(view: DiamondBoxView, names: Names, locale: object | None) -> list[str]:
    lines = []
    if view.draw_reason:
        lines.append(t(f"diamondbox.draw.{view.draw_reason}", locale))
    lines.append(t("common.final_ranking", locale))
    result = view.result
    ranking = result.ranking if result else []
    left = result.scores if result else {}  # the cards each player has left: on their place's line (shown once)
    return lines + [line + t("diamondbox.ranking_left", locale, count=left.get(group[0], 0)) if group else line
                    for line, group in zip(ranking_lines(ranking, {}, names, locale), ranking, strict=True)]


def board(view: DiamondBoxView, names: Names, locale: object | None) -> Board:
    lines = [t("diamondbox.board.designated", locale, colour=colour_name(view.designated, locale))]
    last = last_line(view, names, locale)
    if last:
        lines.append(last)
    lines.append(t("diamondbox.board.visible", locale, counts=colour_counts(view, locale),
                   count=len(view.centre), cards=len(view.placements)))
    lines.append(cards_line(view, names, locale))
    if view.passes_in_row:
        lines.append(t("diamondbox.board.passes", locale, count=view.passes_in_row, players=len(view.order),
                       rounds=view.pass_rounds))
    lines.append(t("diamondbox.board.options", locale, turns=turns_text(view, locale)))
    if view.phase == "over":
        lines += result_lines(view, names, locale)
        footer = t("common.game_over", locale)
    elif view.colour_choice is not None:
        lines.append(choice_line(view, names, locale) or "")
        footer = t("diamondbox.board.to_choose", locale, player=names(view.colour_choice.chooser))
    elif view.turn:
        key = "diamondbox.board.to_play_bonus" if view.bonus_turn else "diamondbox.board.to_play"
        footer = t(key, locale, player=names(view.turn))
    else:
        footer = ""
    return Board(t("game.diamondbox.name", locale), lines, footer)


# ---- the hand view's text -------------------------------------------------------------------------------------
def hand(view: DiamondBoxView, names: Names, locale: object | None) -> str:
    faces = view.hand_faces or []  # a spectator holds nothing
    me = view.viewer
    lines = [t("diamondbox.hand.cards", locale, count=len(faces),
               cards="  ".join(f"{card(f.card)} `{face(f.rows)}`" for f in faces) or "—")]
    lines.append(t("diamondbox.board.designated", locale, colour=colour_name(view.designated, locale)))
    if view.phase == "over":
        return "\n".join(lines)
    choice = view.colour_choice
    mine = me is not None and me in view.to_act
    if choice is not None and mine:
        key = "diamondbox.hand.choose_bonus" if choice.bonus else "diamondbox.hand.choose"
        lines.append(t(key, locale, reason=reason_text(choice.reason, locale),
                       choices=colours(choice.choices, locale), then=names(choice.then)))
    elif choice is not None:
        lines.append(choice_line(view, names, locale) or "")
    elif mine:
        lines.append(t("diamondbox.hand.your_bonus_turn" if view.bonus_turn else "diamondbox.hand.your_turn",
                       locale, colour=colour_name(view.designated, locale)))
    elif view.turn:
        lines.append(t("diamondbox.board.to_play", locale, player=names(view.turn)))
    return "\n".join(lines)


# ---- events ---------------------------------------------------------------------------------------------------
def _colour_chosen(d: E.ColourChosen, who: str, names: Names, locale: object | None) -> str | None:
    key = "diamondbox.event.colour_first" if d.get("previous") is None else "diamondbox.event.colour_changed"
    line = t(key, locale, player=names(d["player"]), colour=colour_name(d["colour"], locale),
             previous=colour_name(d.get("previous"), locale))
    follow = "diamondbox.event.then_bonus" if d.get("bonus") else "diamondbox.event.then"
    return sentences([line, t(follow, locale, player=names(d.get("next")))], locale)


def _card_placed(d: E.CardPlaced, who: str, names: Names, locale: object | None) -> str | None:
    return t("diamondbox.event.placed", locale, player=names(d["player"]),
             move=placement(d["card"], d["turn"], d["x"], d["y"], locale), covered=d["covered"],
             face=face(turned_rows(d["card"], d["turn"])))


def _drew_card(d: E.DrewCard, who: str, names: Names, locale: object | None) -> str | None:
    """private: the drawer only"""
    return t("diamondbox.event.drew_card", locale, card=card(d["card"]), face=face_of(d["card"]))


def _card_drawn(d: E.CardDrawn, who: str, names: Names, locale: object | None) -> str | None:
    return None  # the hand and pile sizes are on the board; the channel line would only add noise


def _bonus_turn(d: E.Player, who: str, names: Names, locale: object | None) -> str | None:
    return t("diamondbox.event.bonus_turn", locale, player=names(d["player"]))


def _colour_choice_due(d: E.ColourChoiceDue, who: str, names: Names, locale: object | None) -> str | None:
    key = "diamondbox.event.choice_bonus" if d.get("bonus") else "diamondbox.event.choice"
    return t(key, locale, chooser=names(d["chooser"]), reason=reason_text(d["reason"], locale),
             choices=colours(d.get("choices", []), locale), then=names(d.get("then")),
             previous=colour_name(d.get("previous"), locale))


def _passed(d: E.Passed, who: str, names: Names, locale: object | None) -> str | None:
    return t("diamondbox.event.passed", locale, player=names(d["player"]), count=d.get("passes_in_row", 1))


def _all_passed(d: E.AllPassed, who: str, names: Names, locale: object | None) -> str | None:
    return t("diamondbox.event.all_passed", locale, round=d.get("round", 1), first=names(d.get("first_passer")))


def _game_won(d: E.GameWon, who: str, names: Names, locale: object | None) -> str | None:
    """The ranking is on the final board this line is written above (shown once)."""
    return t("diamondbox.event.won", locale, player=names(d.get("winner")))


def _game_drawn(d: E.GameDrawn, who: str, names: Names, locale: object | None) -> str | None:
    return t(f"diamondbox.draw.{d.get('reason')}", locale)


EVENTS: dict[str, EventText] = {
    "colour_chosen": On(E.ColourChosen, _colour_chosen),
    "card_placed": On(E.CardPlaced, _card_placed),
    "drew_card": On(E.DrewCard, _drew_card),
    "card_drawn": On(E.CardDrawn, _card_drawn),
    "bonus_turn": On(E.Player, _bonus_turn),
    "colour_choice_due": On(E.ColourChoiceDue, _colour_choice_due),
    "passed": On(E.Passed, _passed),
    "all_passed": On(E.AllPassed, _all_passed),
    "game_won": On(E.GameWon, _game_won),
    "game_drawn": On(E.GameDrawn, _game_drawn),
}


def event(ev: Event, names: Names, locale: object | None) -> str | None:
    return format_event(EVENTS, ev, names, locale)


def error_field(key: str, value: Any, locale: object | None) -> Any:
    """Readable error placeholders: card ids as marks, colours by name, turns in degrees."""
    if key == "card" and isinstance(value, str) and len(value) == 3:
        return card(value)
    if key in ("designated", "colour") and isinstance(value, str):
        return colour_name(value, locale)
    if key == "choices" and isinstance(value, (list, tuple)):
        return colours(list(value), locale)
    if key == "turn" and isinstance(value, int):
        return turn_mark(value)
    if key == "turns" and isinstance(value, (list, tuple)):
        return join_list((turn_mark(v) for v in value), locale)
    return value


def image(view: DiamondBoxView, names: Names, locale: object | None) -> bytes:
    """The board picture (PNG): the centre square by square. Called off the event loop."""
    from .diamondbox_image import render_png

    return render_png(view)


def image_alt(view: DiamondBoxView, names: Names, locale: object | None) -> str:
    """The picture's alt text: what the centre shows, in words."""
    b = view.bounds
    return t("diamondbox.image_alt", locale, cards=len(view.placements),
             count=len(view.centre), counts=colour_counts(view, locale),
             colour=colour_name(view.designated, locale), min_x=b.min_x, max_x=b.max_x,
             min_y=b.min_y, max_y=b.max_y)


def rules_fields(locale: object | None) -> dict[str, str]:
    """``{card_table}`` of the rules text: the patterns actually in play, read from the engine's card data."""
    lines = [t("diamondbox.rules.table_head", locale, colours=" ".join(COLOUR_MARKS[c] for c in table().colours))]
    for number in sorted(table().patterns):
        rows = table().patterns[number].split("/")
        lines.append(t("diamondbox.rules.table_row", locale, number=number, face=face(rows),
                       rows="/".join(rows)))
    return {"card_table": "\n".join(lines)}


def caption_scores(view: DiamondBoxView, locale: object | None) -> dict[str, str]:
    """Each seat's cards left, hand and own pile, with the unit: what the result counts (the summary's caption)."""
    return {p: t("diamondbox.caption.score", locale, count=view.hand_sizes[p] + view.pile_sizes[p])
            for p in view.players}
