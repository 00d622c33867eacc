"""Where the replay viewer's controls jump (issue 53, item 3): a long game is reached in a few presses.

Two menus and a row of buttons, built from the stored game alone:

- the **deal menu** (``deal_points``): where each deal (Twin Pyramid) or trick (Akuma) starts, as the game's events
  number them; absent for a game with neither;
- the **turn menu** (``turn_points``): the turns of the deal (trick) the viewer is in, or of the whole
  game without deals — numbered as the game's board numbers them where the game counts turns (the engine's
  ``turn_number``: Pile up's "turn n", Twin Pyramid's turn of the deal), else each change of who moves, named by
  the mover and the move it starts at (a turn is called a turn only where the game counts turns). A deal of more
  turns than a menu holds lists every turn of the page it is in and the first turn of every other page, so any
  turn is two choices away (``menu_points``; the deal menu of a match of many deals the same);
- the buttons (``step_buttons``): ⏮ ◀ n/N ▶ ⏭, the deal (trick) before and after this one, and — from *my seat* —
  the seat's own turn before and after (``my_turns``).

``targets`` is every frame one press reaches from a frame: the cog builds its controls from the same functions, and
``bench.look_back`` counts the fewest presses to every moment with it."""
from __future__ import annotations

import bisect
import enum
import math
import weakref
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from .discord_rules.limits import SELECT_OPTIONS
from .i18n import t

if TYPE_CHECKING:
    from .review import SteppedReplay

SEEK_OPTIONS = SELECT_OPTIONS  # Discord's limit of options in one select
MOVES_ROOM = 5  # options the turn menu keeps at most for the moves of the turn being shown, before its turns


class SeekKind(str, enum.Enum):
    DEAL = "deal"
    TRICK = "trick"
    TURN = "turn"  # a turn as the game counts it
    MOVE = "move"  # a change of who moves, in a game that counts no turns


# the event that starts a deal-level point, by kind, in the order a game's events are looked for
DEAL_EVENTS = (("deal_started", SeekKind.DEAL), ("trick_started", SeekKind.TRICK))


@dataclass(frozen=True)
class SeekPoint:
    frame: int
    number: int  # the deal / trick / turn it starts, as the game counts it (a MOVE point: the move it starts at;
    # -1: a single move inside a turn)
    player: str | None = None  # who moves from here (a turn or move point)
    deal: int | None = None  # the deal (trick) a page of turns is in
    last: int | None = None  # a page of moves of a game without deals or turns: its last frame ("Moves 12–23")


NameOf = Callable[[str], str]  # a seat's player as the viewer names it


def thin(points: list[SeekPoint], most: int = SEEK_OPTIONS) -> list[SeekPoint]:
    """At most ``most`` of ``points``, evenly spaced, the first and last kept."""
    if len(points) <= most:
        return points
    step = (len(points) - 1) / (most - 1)
    return [points[round(i * step)] for i in range(most)]


def deal_points(replay: SteppedReplay) -> tuple[SeekKind, list[SeekPoint]] | None:
    """Every frame where a deal (else a trick) starts, numbered as its event numbers it, else counted; the one
    under way at the first frame is the first point. None for a game whose events mark fewer than two."""
    for event_type, kind in DEAL_EVENTS:
        starts = [(i, ev) for i, events in enumerate(replay.events) for ev in events if ev.type == event_type]
        if len(starts) > 1:
            first = 1 if starts[0][0] == 0 else 2  # the first frame is in a deal (trick) no event started
            points = [SeekPoint(frame, _number(ev.data.get("deal"), n)) for n, (frame, ev) in enumerate(starts, first)]
            if points[0].frame != 0:
                points.insert(0, SeekPoint(0, points[0].number - 1))
            return kind, points
    return None


def seek_points(replay: SteppedReplay) -> tuple[SeekKind, list[SeekPoint]]:
    """The deal (trick) points of a game that has them, else its turn points."""
    return deal_points(replay) or turn_points(replay)


def _number(value: object, counted: int) -> int:
    return value if isinstance(value, int) else counted


def turn_points(replay: SteppedReplay) -> tuple[SeekKind, list[SeekPoint]]:
    """Where each turn starts: the frame at which the game's turn number changes (the board of that frame shows
    the new turn, its player to act), or — in a game that counts no turns — the frame of the first move of each
    run of one player's moves, named by that move and its mover (the frame a label names shows that player's move:
    the viewer numbers a frame by the move that led to it)."""
    points: list[SeekPoint] = []
    if any(number is not None for number in replay.turns):
        last: int | None = None
        for frame, number in enumerate(replay.turns):
            if number is not None and number != last:
                points.append(SeekPoint(frame, number, _mover(replay, frame)))
            last = number
        return SeekKind.TURN, points
    last_player = None
    for index, action in enumerate(replay.actions[1:], 1):
        player = action.player if action is not None else None
        if player != last_player:
            points.append(SeekPoint(index, index, player))
            last_player = player
    return SeekKind.MOVE, points


def _mover(replay: SteppedReplay, frame: int) -> str | None:
    action = replay.actions[frame + 1] if frame + 1 < len(replay.actions) else None
    return action.player if action is not None else None


def current_point(points: list[SeekPoint], index: int) -> int:
    """The position in ``points`` of the deal / trick / turn frame ``index`` is in (0 before the first)."""
    return max(0, bisect.bisect_right([p.frame for p in points], index) - 1)


def in_deal(points: list[SeekPoint], deals: list[SeekPoint] | None, index: int) -> list[SeekPoint]:
    """The turn points of the deal (trick) frame ``index`` is in; all of them in a game without deals."""
    if not deals:
        return points
    here = current_point(deals, index)
    start = deals[here].frame
    end = deals[here + 1].frame if here + 1 < len(deals) else math.inf
    return [p for p in points if start <= p.frame < end]


def page_size(count: int, most: int = SEEK_OPTIONS) -> int:
    """Turns a page of the turn menu holds: the fewest that fit every page's first turn and one page's turns in
    ``most`` options (a page's first turn is listed once)."""
    for size in range(1, count + 1):
        if math.ceil(count / size) + size - 1 <= most:
            return size
    return count


def menu_points(points: list[SeekPoint], index: int, most: int = SEEK_OPTIONS) -> list[SeekPoint]:
    """At most ``most`` of a menu's points (deals or turns) at frame ``index``: all of them when they fit; else
    every point of the page ``index`` is in and the first point of every page (pages too many for one menu: the
    points around this one, and every page's first evenly thinned)."""
    if len(points) <= most:
        return points
    here = current_point(points, index)
    size = page_size(len(points), most)
    page = here // size
    own = list(range(page * size, min(len(points), page * size + size)))
    if size == len(points):  # no two-level menu fits: the turns around this one, then every page's first thinned
        own = list(range(max(0, min(here - most // 4, len(points) - most // 2)), len(points)))[:most // 2]
    starts = [p * size for p in range(math.ceil(len(points) / size)) if p != page]
    room = most - len(own)
    if len(starts) > room:
        step = (len(starts) - 1) / max(1, room - 1)
        starts = sorted({starts[round(i * step)] for i in range(room)})
    return [points[i] for i in sorted({*own, *starts})]


def my_turns(points: list[SeekPoint], player: str | None) -> list[int]:
    """The frames where ``player``'s turns start (none for a spectator)."""
    return [] if player is None else [p.frame for p in points if p.player == player]


@dataclass(frozen=True)
class Step:
    """A button that moves the viewer: its label (a frame number, or the point it reaches) and the frame."""

    label: str
    target: int
    enabled: bool


def neighbours(frames: list[int], index: int) -> tuple[int | None, int | None]:
    """The frame of ``frames`` before ``index`` and the one after it (None where there is none)."""
    at = bisect.bisect_left(frames, index)
    before = frames[at - 1] if at > 0 else None
    after_at = at + 1 if at < len(frames) and frames[at] == index else at
    return before, frames[after_at] if after_at < len(frames) else None


def step_buttons(points: list[SeekPoint], kind: SeekKind, index: int, last: int, lang: str,
                 mine: list[int] | None = None, name: NameOf | None = None) -> list[Step]:
    """⏮ ◀ n/N ▶ ⏭ (one step), then the deal / trick / turn before and after this one (``points`` of ``kind``;
    a move point named by its mover with ``name``), then, with ``mine``, the seat's own turn before and after."""
    steps = [Step("⏮", 0, index > 0), Step("◀", max(index - 1, 0), index > 0), Step(f"{index}/{last}", index, False),
             Step("▶", min(index + 1, last), index < last), Step("⏭", last, index < last)]
    here = current_point(points, index) if points else 0
    before = points[here] if points and points[here].frame < index else (points[here - 1] if here > 0 else None)
    after = points[here + 1] if here + 1 < len(points) else None
    for point, arrow in ((before, "⇤ {}"), (after, "{} ⇥")):
        if point is not None:
            who = name(point.player) if name is not None and point.player is not None else None
            steps.append(Step(arrow.format(point_label(point, kind, lang, who)), point.frame, True))
    if mine:
        earlier, later = neighbours(mine, index)
        for frame, key in ((earlier, "review.my_turn_before"), (later, "review.my_turn_after")):
            if frame is not None:
                steps.append(Step(t(key, lang), frame, True))
    return steps


def point_label(point: SeekPoint, kind: SeekKind, lang: str, name: str | None,
                turn_kind: SeekKind = SeekKind.MOVE) -> str:
    """A menu option's (or a button's) words: "Deal 2 (move 210)", "Deal 2 · turn 14 (move 380)", "Turn 33 (move
    402)", "Bot 2 (move 24)" (``kind``: the point's; ``turn_kind``: that of the turn a page of a deal starts at)."""
    if kind in (SeekKind.DEAL, SeekKind.TRICK) and point.deal is not None:
        whole = SeekPoint(point.frame, point.deal)
        if point.number == 0:  # the page that starts the deal
            return point_label(whole, kind, lang, None)
        at = point_label(SeekPoint(point.frame, point.number), turn_kind, lang, name)
        return t(f"review.part.{kind.value}", lang, deal=point.deal, at=at)
    if point.last is not None:
        return t("review.seek.moves", lang, first=point.frame, last=point.last)
    if kind is SeekKind.MOVE or point.number < 0:
        return t("review.seek.move", lang, player=name or "—", index=point.frame)
    return t(f"review.seek.{kind.value}", lang, number=point.number, index=point.frame)


@dataclass(frozen=True)
class Menus:
    """What the viewer offers at one frame: the part menu (the deals, or pages of turns), the turn menu (the turns
    of this page, and the moves of this turn) and the step buttons."""

    part_kind: SeekKind | None  # DEAL / TRICK: its pages start deals (tricks); else the turn kind
    parts: list[SeekPoint]
    turn_kind: SeekKind
    turns: list[SeekPoint]
    steps: list[Step]


def parts_of(turns: list[SeekPoint], deals: list[SeekPoint] | None, size: int) -> list[SeekPoint]:
    """Each deal (trick; the whole game without deals) cut into pages of ``size`` turns: a page's first turn,
    marked with its deal (``number`` the turn's, ``deal`` the deal's); a deal's first page starts where the deal
    does (``number`` 0)."""
    if not deals:
        return turns[::size]
    parts = []
    for here, deal in enumerate(deals):
        end = deals[here + 1].frame if here + 1 < len(deals) else math.inf
        inside = [p for p in turns if deal.frame <= p.frame < end]
        starts = inside[::size][1:]  # the first page starts with the deal: numbered 0, labelled as the deal
        parts += [SeekPoint(deal.frame, 0, None, deal.number),
                  *(SeekPoint(p.frame, p.number, p.player, deal.number) for p in starts)]
    return parts


def part_size(turns: list[SeekPoint], deals: list[SeekPoint] | None, most: int = SEEK_OPTIONS) -> int | None:
    """The fewest turns a page holds so that every page of the game fits one menu; None when the deals alone are
    too many (the menu then lists the deals, two choices away)."""
    if deals and len(deals) > most:
        return None
    low, high = 1, max(1, len(turns))
    while low < high:  # pages only get fewer as they get longer
        size = (low + high) // 2
        if len(parts_of(turns, deals, size)) <= most:
            high = size
        else:
            low = size + 1
    return low


def moves_in_turn(turns: list[SeekPoint], index: int, frames: int) -> int:
    """The frames inside the turn frame ``index`` is in, after its first (the moves the turn menu lists)."""
    here = current_point(turns, index) if turns else 0
    start = turns[here].frame if turns else 0
    end = turns[here + 1].frame if here + 1 < len(turns) else frames
    return max(0, end - start - 1)


def turn_options(turns: list[SeekPoint], index: int, page: list[SeekPoint], replay: SteppedReplay,
                 most: int = SEEK_OPTIONS) -> list[SeekPoint]:
    """The turn menu: every turn of the page ``index`` is in, and every move of the turn it is in (a move point:
    ``number`` -1), at most ``most`` (the moves nearest ``index`` kept)."""
    here = current_point(turns, index) if turns else 0
    start = turns[here].frame if turns else 0
    end = turns[here + 1].frame if here + 1 < len(turns) else len(replay)
    moves = [SeekPoint(frame, -1, _mover(replay, frame - 1)) for frame in range(start + 1, end)]
    room = most - len(page)
    if len(moves) > room:
        moves.sort(key=lambda p: abs(p.frame - index))
        moves = moves[:max(0, room)]
    return sorted([*page, *moves], key=lambda p: p.frame)[:most]


@dataclass(frozen=True)
class Points:
    """A replay's seek points, found once (``points``)."""

    dealt: tuple[SeekKind, list[SeekPoint]] | None
    turn_kind: SeekKind
    turns: list[SeekPoint]
    size: int | None  # turns a page of the part menu holds (None: it lists the deals alone)
    parts: list[SeekPoint]


_POINTS: weakref.WeakKeyDictionary[SteppedReplay, Points] = weakref.WeakKeyDictionary()


def points(replay: SteppedReplay) -> Points:
    """The seek points of ``replay``, kept while the replay is (a finished game never changes)."""
    found = _POINTS.get(replay)
    if found is None:
        dealt = deal_points(replay)
        turn_kind, turns = turn_points(replay)
        deals = dealt[1] if dealt is not None else None
        size = part_size(turns, deals)
        parts = parts_of(turns, deals, size) if size is not None else []
        if deals is None and turn_kind is SeekKind.MOVE:  # pages named by their moves, not by one seat
            parts = [replace(p, last=(parts[i + 1].frame if i + 1 < len(parts) else len(replay)) - 1)
                     for i, p in enumerate(parts)]
        found = _POINTS[replay] = Points(dealt, turn_kind, turns, size, parts)
    return found


DEALS_ROOM = 15  # of a part menu over more deals than one menu holds: the options its deals take


def many_deals_parts(turns: list[SeekPoint], deals: list[SeekPoint], index: int,
                     most: int = SEEK_OPTIONS) -> list[SeekPoint]:
    """The part menu of a match of more deals than a menu holds: its deals, paged so that any deal is two choices
    away (``menu_points``), and the deal ``index`` is in cut into pages of turns in the rest of the menu."""
    shown = menu_points(deals, index, DEALS_ROOM)
    deal = deals[current_point(deals, index)]
    inside = in_deal(turns, deals, index)
    size = max(1, math.ceil(len(inside) / max(1, most - len(shown))))
    pages = [p for p in parts_of(inside, [deal], size) if p.frame != deal.frame]
    by_frame = {p.frame: p for p in [*shown, *pages]}
    return sorted(by_frame.values(), key=lambda p: p.frame)[:most]


def menus(replay: SteppedReplay, index: int, lang: str, player: str | None = None,
          name: NameOf | None = None) -> Menus:
    """The controls at frame ``index`` (``player``: the seat *my seat* shows, for its own turns; ``name``: how
    the buttons name a mover): a frame is one choice of a part, one of a turn and one of a move away."""
    last = len(replay) - 1
    found = points(replay)
    dealt, turn_kind, turns, size = found.dealt, found.turn_kind, found.turns, found.size
    deals = dealt[1] if dealt is not None else None
    if size is not None:
        parts = found.parts
    else:  # too many deals for one menu: the deals two choices away, and the pages of this deal's turns
        parts = many_deals_parts(turns, deals or [], index)
    here = current_point(parts, index)
    end = parts[here + 1].frame if here + 1 < len(parts) else math.inf
    # the page's turns whole when they fit beside this turn's own moves (a page of 21 turns thinned to 20 put a
    # turn, and the moves in it, a fourth press away)
    room = SEEK_OPTIONS - min(MOVES_ROOM, moves_in_turn(turns, index, len(replay)))
    page = menu_points([p for p in turns if parts[here].frame <= p.frame < end], index, room)
    mine = my_turns(turns, player)
    if dealt is not None:
        steps = step_buttons(deals or [], dealt[0], index, last, lang, mine, name)
    else:
        steps = step_buttons(turns, turn_kind, index, last, lang, mine, name)
    part_kind = dealt[0] if dealt is not None else turn_kind
    return Menus(part_kind if len(parts) > 1 else None, parts, turn_kind,
                 turn_options(turns, index, page, replay), steps)


def seek_window(points: list[SeekPoint], index: int, most: int = SEEK_OPTIONS) -> list[SeekPoint]:
    """At most ``most`` consecutive points around the one frame ``index`` is in: the menu lists deals (tricks)
    one after another, never skipping one, and moves with the viewer."""
    if len(points) <= most:
        return points
    start = min(max(0, current_point(points, index) - most // 2), len(points) - most)
    return points[start:start + most]


def targets(replay: SteppedReplay, index: int, player: str | None = None) -> set[int]:
    """Every frame one press reaches from frame ``index``: a button, or an option of either menu."""
    shown = menus(replay, index, "en", player)
    return ({s.target for s in shown.steps if s.enabled} | {p.frame for p in shown.parts}
            | {p.frame for p in shown.turns})
